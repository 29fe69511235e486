#include "precomp.h"

#include <stdlib.h>

#include "../engine/engine.h"
#include "../family/gru/precomp.h"
#include "../common/error.h"
#include "../format/format.h"

int pack_precomp(const char *path, int top, uint8_t **blob, size_t *len, char *err, size_t errlen)
{
	nmt_model *m;

	if (engine_load_file(path, 0, &m, err, errlen) != 0)
		return -1;
	const engine_dims *d = &m->d;
	int n_src = top < d->src_vocab ? top : d->src_vocab, n_tgt = top < d->tgt_vocab ? top : d->tgt_vocab;
	size_t src_cols = gru_precomp_src_cols(&m->gru.dims), tgt_cols = gru_precomp_tgt_cols(&m->gru.dims);
	*len = 16 + 4 * ((size_t)n_src * src_cols + (size_t)n_tgt * tgt_cols);
	*blob = malloc(*len);
	if (!*blob) {
		engine_unload(m);
		return error_set(err, errlen, "out of memory");
	}
	format_wr32(*blob, (uint32_t)n_src);
	format_wr32(*blob + 4, (uint32_t)n_tgt);
	format_wr32(*blob + 8, (uint32_t)src_cols);
	format_wr32(*blob + 12, (uint32_t)tgt_cols);
	float *enc = (float *)(*blob + 16);   /* malloc's alignment suits floats; little-endian host */
	int rc = gru_precomp_fill(m, n_src, n_tgt, enc, enc + (size_t)n_src * src_cols);
	engine_unload(m);
	if (rc != 0) {
		free(*blob);
		return error_set(err, errlen, "out of memory");
	}
	return 0;
}
