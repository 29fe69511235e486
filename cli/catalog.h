/* The installed models: every *.nmt file in the search path's directories
 * ($NMT_MODELS, colon-separated, then ~/.local/share/nmt, then
 * share/nmt/models beside the program's bin/, then PREFIX/share/nmt/models)
 * and the embedded model, in that order, each with
 * the languages, family and weight format its metadata names. `nmt -l
 * SRC-TGT` takes the first that translates SRC into TGT, or else chains two
 * through English (the pivot). */
#ifndef CLI_CATALOG_H
#define CLI_CATALOG_H
#include <stddef.h>

#include "../nmt.h"

#define CLI_PIVOT_LANG "en"
/* The user's own models, under $HOME: where nmt install puts them. */
#define CLI_CATALOG_USER_DIR ".local/share/nmt"

typedef struct {
	char *path;             /* NULL: the embedded model */
	char src[16], tgt[16];  /* language codes ("und" if the model names none) */
	char arch[32], quant[16];
	size_t size;            /* bytes */
} cli_catalog_entry;

typedef struct {
	cli_catalog_entry *entries;
	int n;
} cli_catalog;

/* The directories searched, colon-separated, in order (malloc'd). */
char *cli_catalog_search_path(void);
/* $HOME/.local/share/nmt (malloc'd), or NULL when HOME is unset or empty. */
char *cli_catalog_user_dir(void);
/* Read every model of `search_path` (colon-separated directories; missing
 * ones are skipped) and, with `embedded`, the embedded one. A file that is
 * not a model is reported through warn (may be NULL) and skipped. 0, or -1
 * when memory runs out. */
int cli_catalog_scan(cli_catalog *c, const char *search_path, int embedded,
		     void (*warn)(const char *path, const char *why));
void cli_catalog_free(cli_catalog *c);
/* The first model from src to tgt, or NULL. */
const cli_catalog_entry *cli_catalog_find(const cli_catalog *c, const char *src, const char *tgt);
/* Open an entry's model. */
nmt_status cli_catalog_open(const cli_catalog_entry *e, nmt_model **m, nmt_error *err);

#endif
