/* nmt: offline neural machine translation, the C library (libnmt.a).
 *
 *   nmt_model    opened once, immutable, shared by every thread
 *   nmt_session  one per thread: the scratch memory translations run in
 *   nmt_result   the translations of one call, freed by the caller
 *
 *   nmt_model *model;  nmt_session *session;  nmt_result *result;
 *   nmt_options opt;   nmt_error err;
 *   nmt_model_open("ende.nmt", 0, &model, &err);
 *   nmt_session_new(model, &session, &err);
 *   nmt_options_init(&opt);
 *   nmt_translate(session, &opt, "A dog runs.", &result, &err);
 *   puts(nmt_result_text(result, 0, 0));
 *   nmt_result_free(result);
 *   nmt_session_free(session);
 *   nmt_model_close(model);
 *
 * Every function that can fail returns an nmt_status (NMT_OK is 0) and, when
 * given an nmt_error, fills it with the code and a one-line message. The
 * library has no global state, never prints and never exits; everything it
 * allocates is freed by the matching _free or _close. docs/API.md is the
 * manual. */
#ifndef NMT_H
#define NMT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NMT_VERSION "0.2.0"
#define NMT_MAX_BEAM 8
#define NMT_MAX_THREADS 256   /* nmt_options.threads at most */
#define NMT_ALPHA_MODEL (-1.0)  /* nmt_options.alpha: the model's own length normalization */

typedef enum {
	NMT_OK = 0,
	NMT_ERR_ARGUMENT = -1,    /* a NULL handle, an option out of range */
	NMT_ERR_IO = -2,          /* the model file cannot be opened, read or mapped */
	NMT_ERR_FORMAT = -3,      /* not an nmt model, a damaged one, or one of a newer format */
	NMT_ERR_NO_MEMORY = -4,
	NMT_ERR_UNSUPPORTED = -5, /* asked for something this build, CPU or machine lacks */
	NMT_ERR_DEVICE = -6,      /* the GPU failed (its message says how) */
} nmt_status;

typedef struct {
	nmt_status code;
	char message[256];        /* one line, no trailing newline */
} nmt_error;

/* A fixed description of a code ("out of memory", ...), never NULL. */
const char *nmt_status_string(nmt_status code);

/* The library's version: NMT_VERSION when header and library match. */
const char *nmt_version(void);

/* ---- models -------------------------------------------------------------- */

typedef struct nmt_model nmt_model;

/* Check every section's checksum while opening (reads the whole file).
 * Without it only the header and the section table are checked up front. */
#define NMT_OPEN_VERIFY 1u
/* Read only the header, the section table and the metadata: for listing
 * models by language without the cost of preparing them. Such a model
 * gives metadata and sections; nmt_session_new refuses it. */
#define NMT_OPEN_METADATA 2u

/* Map a packed model file (model-pack's output) read-only. */
nmt_status nmt_model_open(const char *path, unsigned flags, nmt_model **model, nmt_error *err);

/* Use a packed model already in memory, which must stay valid and unchanged
 * until nmt_model_close: in place when it is 64-byte aligned, else copied. */
nmt_status nmt_model_open_buffer(const void *data, size_t size, unsigned flags, nmt_model **model,
				 nmt_error *err);

/* Once every session using the model is freed. NULL is allowed. */
void nmt_model_close(nmt_model *model);

/* The model's metadata, key=value lines (languages, sizes, weight format):
 * *len bytes, not NUL-terminated. */
const char *nmt_model_metadata(const nmt_model *model, size_t *len);

/* One metadata value, copied NUL-terminated into value; NMT_ERR_ARGUMENT if
 * the key is absent or the value does not fit. */
nmt_status nmt_model_metadata_value(const nmt_model *model, const char *key, char *value, size_t size);

typedef struct {
	char tag[17];             /* "meta", "tensors", "src.vocab", ... (docs/FORMAT.md) */
	uint64_t size;            /* bytes */
	int checksum_verified;    /* 0 for a bulk section opened without NMT_OPEN_VERIFY */
} nmt_section_info;

size_t nmt_model_file_size(const nmt_model *model);
unsigned nmt_model_format_version(const nmt_model *model);
int nmt_model_section_count(const nmt_model *model);
/* Section i, 0 <= i < nmt_model_section_count. */
nmt_status nmt_model_section(const nmt_model *model, int i, nmt_section_info *info);

/* ---- translating ---------------------------------------------------------- */

/* Where the model runs: this CPU (always), or an NVIDIA GPU in a build made
 * with `make CUDA=1` on a machine that has one (NMT_ERR_UNSUPPORTED
 * otherwise). */
#define NMT_DEVICE_CPU 0
#define NMT_DEVICE_CUDA 1

typedef struct {
	int beam;        /* 1..NMT_MAX_BEAM; 1 = greedy search. Default 4 */
	int nbest;       /* translations returned per text, 1..beam. Default 1 */
	int max_length;  /* target tokens at most, 0..1048576; 0 = 1.5 x source + 10. Default 0 */
	double alpha;    /* length normalization, score = logprob / tokens^alpha, 0..10, or
			  * NMT_ALPHA_MODEL (the default): the model's own (its metadata's
			  * "alpha", chosen on validation text when it was made), else 0.6 */
	int shortlist;   /* 1: score only the shortlist of the model's vocabulary map
			  * (if it has one); 0: the whole target vocabulary. Default 1 */
	int threads;     /* threads a batch is translated on, 1..NMT_MAX_THREADS. Default 1 */
	int batch;       /* texts decoded together, 0..256; 0 = 16 / beam. Default 0.
			  * No result depends on batch or threads. */
	int device;      /* NMT_DEVICE_CPU (default) or NMT_DEVICE_CUDA; on the GPU
			  * one thread drives the device and `threads` is not used */
	int split;       /* NMT_SPLIT_SENTENCE (default): a text is a paragraph, cut
			  * into sentences translated one by one and joined with the
			  * whitespace between them; NMT_SPLIT_NONE: a text is one
			  * sentence (docs/INPUT.md) */
	int alignment;   /* 1: each translation's word alignment (nmt_translation.alignment).
			  * Default 0 */
	int html;        /* 1: texts are HTML fragments: their text is translated and
			  * their tags put back around the aligned words (docs/INPUT.md).
			  * Default 0 */
	int protect_spans; /* 1 (default): numbers, times, dates, prices, URLs, e-mail
			  * addresses, @handles, file paths, `code` and quoted names
			  * come through byte for byte, placed by the alignment
			  * (docs/INPUT.md) */
	int repeat_guard; /* 1 (default): no translation repeats a piece or a run of
			  * pieces more than twice in a row, or a letter more than
			  * three times within a word, unless its source does
			  * (docs/INPUT.md); 0: the search as the model scores it */
	int case_fold;   /* 1 (default): a sentence written in capitals is translated
			  * in sentence case and its translation given back in
			  * capitals (docs/INPUT.md); 0: translated as written */
} nmt_options;

#define NMT_SPLIT_NONE 0
#define NMT_SPLIT_SENTENCE 1

/* Fill in the defaults above. */
void nmt_options_init(nmt_options *options);

/* A session runs translations on one caller's thread at a time (plus
 * options.threads - 1 threads of its own during a call): one per thread.
 * Its memory is allocated when first needed and grows only for a bigger
 * batch than before. */
typedef struct nmt_session nmt_session;

nmt_status nmt_session_new(const nmt_model *model, nmt_session **session, nmt_error *err);
void nmt_session_free(nmt_session *session);   /* NULL is allowed */

typedef struct nmt_result nmt_result;

/* Translate one text, a NUL-terminated line of UTF-8 (a newline inside it
 * reads as a space): sentence by sentence (options.split), a sentence
 * longer than 200 source pieces in chunks joined by spaces (docs/INPUT.md). */
nmt_status nmt_translate(nmt_session *session, const nmt_options *options, const char *text,
			 nmt_result **result, nmt_error *err);

/* Translate texts[0..count), of lengths[i] bytes each (lengths NULL: the
 * texts are NUL-terminated), together. The translation of text i does not
 * depend on the other texts. On failure *result is NULL. */
nmt_status nmt_translate_batch(nmt_session *session, const nmt_options *options, const char *const *texts,
			       const size_t *lengths, int count, nmt_result **result, nmt_error *err);

/* One translation. */
typedef struct {
	const char *text;   /* UTF-8, NUL-terminated */
	size_t len;         /* bytes before the NUL */
	float logprob;      /* sum of its tokens' log-probabilities, end of sentence included */
	float score;        /* logprob / tokens^alpha, what the search ranked by */
	int n_words;        /* its words: text split on whitespace (0 with options.html) */
	const float *word_logprob;   /* [n_words] each word's log-probability, its pieces' summed
				      * (exp() of it: how sure the model was of the word) */
	const char *alignment;       /* with options.alignment, "S-T S-T ...": source word S (the
				      * text split on whitespace, from 0) is aligned to word T of
				      * this translation, each word of it to the source word it
				      * attended to most, in order of S then T; else NULL */
} nmt_translation;

/* How many texts the result holds. */
int nmt_result_count(const nmt_result *result);

/* How many translations text i has (1..nbest; 0 when i is out of range). */
int nmt_result_nbest(const nmt_result *result, int i);

/* Text i's k-th best translation (k = 0: the best), NULL when out of range.
 * Valid until nmt_result_free. */
const nmt_translation *nmt_result_get(const nmt_result *result, int i, int k);

/* Its text, or NULL when out of range. */
const char *nmt_result_text(const nmt_result *result, int i, int k);

void nmt_result_free(nmt_result *result);   /* NULL is allowed */

/* ---- languages ------------------------------------------------------------ */

/* One guess at a text's language. */
typedef struct {
	char language[16];   /* the code, "en", "de", ... NUL-terminated */
	double confidence;   /* 0..1; the guesses of one text sum to 1 */
} nmt_detection;

/* The language of text[0..len) (UTF-8) among candidates[0..n_candidates)
 * (codes such as "en"; n_candidates 0: every language the profile knows),
 * with the language profile embedded in the library (`nmt detect`'s, made
 * by train/langid.py). Writes up to max_out guesses into out, best first,
 * and their number into *n_out: 0 means "und", a text without letters or
 * in a script none of the candidates is written in. NMT_ERR_ARGUMENT for a
 * candidate the profile does not know, NMT_ERR_UNSUPPORTED when the build
 * embeds no profile. Allocates nothing; any thread may call it. */
nmt_status nmt_detect(const char *text, size_t len, const char *const *candidates, int n_candidates,
		      nmt_detection *out, int max_out, int *n_out, nmt_error *err);

#ifdef __cplusplus
}
#endif
#endif
