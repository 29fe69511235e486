/* A vocabulary section (see vocab.h). */
#include "vocab.h"

#include <stdint.h>
#include <stdlib.h>

#include "../common/error.h"
#include "../vocab/spm.h"
#include "file.h"

int pack_vocab(const char *path, const char *tag, int expect_size, int bos, int eos, int decode_only,
	       pack_file *out, int *bos_id, int *eos_id, char *err, size_t errlen)
{
	size_t len, blob_len;
	uint8_t *proto, *blob;
	char why[256];
	spm_model *sp;

	if (pack_read_file(path, &proto, &len, err, errlen) != 0)
		return -1;
	int rc = decode_only ? spm_pack_decoder(proto, len, &blob, &blob_len, why, sizeof why)
			     : spm_pack(proto, len, &blob, &blob_len, why, sizeof why);
	free(proto);
	if (rc != 0)
		return error_set(err, errlen, "%s: %s", path, why);
	/* Open what was packed, exactly as the engine will. (The blob from malloc
	 * is at least 16-byte aligned; the engine's mapping gives 64.) */
	if (spm_open(blob, blob_len, &sp, why, sizeof why) != 0) {
		free(blob);
		return error_set(err, errlen, "%s: packed vocabulary does not open: %s", path, why);
	}
	int size = spm_vocab_size(sp), b = spm_bos_id(sp), e = spm_eos_id(sp);
	spm_close(sp);
	if (size != expect_size)
		rc = error_set(err, errlen, "%s has %d pieces but the checkpoint was trained with %d", path, size,
			       expect_size);
	else if (bos >= 0 && (b != bos || e != eos))
		rc = error_set(err, errlen, "%s has bos/eos ids %d/%d but the checkpoint uses %d/%d", path, b, e, bos,
			       eos);
	else if (e < 0)
		rc = error_set(err, errlen, "%s has no end-of-sentence piece (train it with --eos_id)", path);
	if (rc != 0) {
		free(blob);
		return -1;
	}
	if (pack_add_section(out, tag, blob, blob_len, 0) != 0)
		return error_set(err, errlen, "too many sections");
	if (bos_id)
		*bos_id = b;
	if (eos_id)
		*eos_id = e;
	return 0;
}
