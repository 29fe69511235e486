/* The GRU cell shared by encoder and decoder (torch.nn.GRU's equations):
 *   r = σ(gi_r + gh_r)   z = σ(gi_z + gh_z)   n = tanh(gi_n + r ⊙ gh_n)
 *   h' = (1 − z) ⊙ n + z ⊙ h  =  n + z ⊙ (h − n)
 * One loop over the hidden units with vecmath.h's inline sigmoid and tanh,
 * which the compiler vectorizes. */
#include "engine.h"
#include "../quant/vecmath.h"

void nmt_gru_cell(int hidden, const float *gi, const float *gh, const float *h, float *h_out)
{
	for (int k = 0; k < hidden; k++) {
		float r = nmt_sigmoid(gi[k] + gh[k]);
		float z = nmt_sigmoid(gi[hidden + k] + gh[hidden + k]);
		float n = nmt_tanh(gi[2 * hidden + k] + r * gh[2 * hidden + k]);
		h_out[k] = n + z * (h[k] - n);
	}
}
