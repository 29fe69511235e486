/* The installed models: every *.nmt file in the search path's directories
 * ($NMT_MODELS, colon-separated, then ~/.local/share/nmt, then
 * share/nmt/models beside the program's bin/, then PREFIX/share/nmt/models)
 * and the embedded model, in that order, each with
 * the languages, family and weight format its metadata names. `nmt -l
 * SRC-TGT` takes the first that translates SRC into TGT, or else chains two
 * through English (the pivot). */
#ifndef NMT_CLI_CATALOG_H
#define NMT_CLI_CATALOG_H
#include <stddef.h>

#include "../nmt.h"

#define NMT_PIVOT_LANG "en"

typedef struct {
	char *path;             /* NULL: the embedded model */
	char src[16], tgt[16];  /* language codes ("und" if the model names none) */
	char arch[32], quant[8];
	size_t size;            /* bytes */
} nmt_catalog_entry;

typedef struct {
	nmt_catalog_entry *entries;
	int n;
} nmt_catalog;

/* The directories searched, colon-separated, in order (malloc'd). */
char *nmt_catalog_search_path(void);
/* Read every model of `search_path` (colon-separated directories; missing
 * ones are skipped) and, with `embedded`, the embedded one. A file that is
 * not a model is reported through warn (may be NULL) and skipped. 0, or -1
 * when memory runs out. */
int nmt_catalog_scan(nmt_catalog *c, const char *search_path, int embedded,
		     void (*warn)(const char *path, const char *why));
void nmt_catalog_free(nmt_catalog *c);
/* The first model from src to tgt, or NULL. */
const nmt_catalog_entry *nmt_catalog_find(const nmt_catalog *c, const char *src, const char *tgt);
/* Open an entry's model. */
nmt_status nmt_catalog_open(const nmt_catalog_entry *e, nmt_model **m, nmt_error *err);

#endif
