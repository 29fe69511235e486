/* Opening a model and reading what it says about itself. The engine does
 * the work (engine/model.c); this checks arguments and reports errors. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format/format.h"
#include "../engine/model.h"

_Static_assert(NMT_OPEN_VERIFY == ENGINE_LOAD_VERIFY && NMT_OPEN_METADATA == ENGINE_LOAD_METADATA,
	       "nmt.h's open flags are passed to the engine as they are");

/* What both openers check first; `source` is the path or the buffer. */
static nmt_status check_open(const void *source, const char *what, unsigned flags, nmt_model **model,
			     nmt_error *err)
{
	if (!model)
		return api_fail(err, NMT_ERR_ARGUMENT, "no place to put the model");
	*model = NULL;
	if (!source)
		return api_fail(err, NMT_ERR_ARGUMENT, "no model %s", what);
	if (flags & ~(NMT_OPEN_VERIFY | NMT_OPEN_METADATA))
		return api_fail(err, NMT_ERR_ARGUMENT, "unknown open flags 0x%x", flags);
	return NMT_OK;
}

nmt_status nmt_model_open(const char *path, unsigned flags, nmt_model **model, nmt_error *err)
{
	char why[sizeof err->message];
	nmt_status rc = check_open(path, "path", flags, model, err);

	if (rc != NMT_OK)
		return rc;
	rc = (nmt_status)engine_load_file(path, flags, model, why, sizeof why);
	return rc ? api_fail(err, rc, "%s", why) : api_ok(err);
}

nmt_status nmt_model_open_buffer(const void *data, size_t size, unsigned flags, nmt_model **model,
				 nmt_error *err)
{
	char why[sizeof err->message];
	void *copy = NULL;
	nmt_status rc = check_open(data, "buffer", flags, model, err);

	if (rc != NMT_OK)
		return rc;
	/* The weights are read in place with aligned loads, so a buffer at any
	 * other address is copied to one that is aligned. */
	if ((uintptr_t)data % FORMAT_ALIGN != 0) {
		size_t rounded = (size + FORMAT_ALIGN - 1) / FORMAT_ALIGN * FORMAT_ALIGN;
		if (rounded < size || !(copy = aligned_alloc(FORMAT_ALIGN, rounded ? rounded : FORMAT_ALIGN)))
			return api_fail(err, NMT_ERR_NO_MEMORY, "out of memory copying a %zu-byte model", size);
		memcpy(copy, data, size);
		data = copy;
	}
	rc = (nmt_status)engine_load_memory(data, size, flags, model, why, sizeof why);
	if (rc) {
		free(copy);
		return api_fail(err, rc, "%s", why);
	}
	(*model)->owned_copy = copy;
	return api_ok(err);
}

void nmt_model_close(nmt_model *m)
{
	engine_unload(m);
}

const char *nmt_model_metadata(const nmt_model *m, size_t *len)
{
	if (len)
		*len = m ? m->meta_len : 0;
	return m ? m->meta : NULL;
}

nmt_status nmt_model_metadata_value(const nmt_model *m, const char *key, char *value, size_t size)
{
	if (!m || !key || !value || size == 0)
		return NMT_ERR_ARGUMENT;
	return engine_meta_of(m, key, value, size) == 0 ? NMT_OK : NMT_ERR_ARGUMENT;
}

size_t nmt_model_file_size(const nmt_model *m)
{
	return m ? m->map_len : 0;
}

unsigned nmt_model_format_version(const nmt_model *m)
{
	return m ? m->view.version : 0;
}

int nmt_model_section_count(const nmt_model *m)
{
	return m ? (int)m->view.n_sections : 0;
}

nmt_status nmt_model_section(const nmt_model *m, int i, nmt_section_info *info)
{
	if (!m || !info || i < 0 || (uint32_t)i >= m->view.n_sections)
		return NMT_ERR_ARGUMENT;
	const format_section *s = &m->view.sections[i];
	snprintf(info->tag, sizeof info->tag, "%s", s->tag);
	info->size = s->size;
	info->checksum_verified = !(s->flags & FORMAT_SECTION_BULK) || m->verified_bulk;
	return NMT_OK;
}
