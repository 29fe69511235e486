/* quant/ew_body.h's loops compiled for the baseline instruction set (SSE2
 * on x86-64, NEON on aarch64), the table the scalar and NEON kernels use
 * (see ew.h). */
#define TARGET
#define QUANT_EW_LANES 4 /* floats per vector, for ew_body.h */
#define QUANT_EW_TABLE quant_ew_generic
#include "ew_isa.h"
