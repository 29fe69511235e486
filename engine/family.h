/* A model family: everything that differs between architectures, behind
 * one table of methods (SQLite's method-table style). The search,
 * shortlists, history, tokenizers, translator and I/O are shared by every
 * family and call a model only through these. A family is chosen when a
 * model opens, by its metadata's "arch" value (engine_family_for).
 *
 * The per-thread state's family parts (engine.h: encoder, decoder) are the
 * family's to reserve, fill and free; the rows the search hands over
 * (row_sent, row_prev) and takes back (logits, and with the attention
 * option hist.step_att) are the same for every family. docs/DESIGN.md §10.4
 * says how to add one. */
#ifndef ENGINE_FAMILY_H
#define ENGINE_FAMILY_H
#include <stddef.h>
#include <stdint.h>

struct nmt_model;
struct engine_state;
struct engine_device_ops;

typedef struct engine_family {
	const char *arch;   /* the metadata's "arch" value */
	/* Read the family's dimensions from the metadata and bind its
	 * weights (and optional sections) into m; 0 or -1 with a message. */
	int (*bind)(struct nmt_model *m, char *err, size_t errlen);
	/* Free what bind allocated (also after a failed bind); NULL: nothing. */
	void (*unbind)(struct nmt_model *m);
	/* Grow the family's state parts for the prepared batch (s->sent,
	 * s->n_sents, s->total_src, beam rows); 0 or -1. */
	int (*reserve)(struct engine_state *s, const int32_t *const *src);
	void (*free_state)(struct engine_state *s);
	/* Encode the prepared batch's sources, src[i] of s->sent[i].src_len ids. */
	void (*encode)(struct engine_state *s, const int32_t *const *src);
	/* Row i becomes sentence i's first decoder state (before any token). */
	void (*start)(struct engine_state *s);
	/* One decoder step for n rows: s->row_sent[i], s->row_prev[i] in,
	 * s->logits (and s->hist.step_att if s->hist.keep_att) out. */
	void (*step)(struct engine_state *s, int n);
	/* The next step's row i continues from this step's row s->carry_from[i]. */
	void (*carry)(struct engine_state *s, int n);
	/* The most tokens a translation of src_len source pieces (EOS
	 * included) may have, unless the caller sets a limit. */
	int (*max_len)(int src_len);
	/* Open the GPU (NMT_DEVICE_CUDA) for one translator: the family's
	 * encoder and decoder steps there (engine.h, engine_device_ops), m's
	 * weights copied to it. 0, or an nmt_status and a message. NULL: the
	 * family has no device path. */
	int (*device_open)(const struct nmt_model *m, const struct engine_device_ops **ops, void **dev, char *err,
			   size_t errlen);
} engine_family;

/* The family whose arch is `arch`, or NULL. */
const engine_family *engine_family_for(const char *arch);
/* The arch values this build knows, for a message ("A nor B"). */
const char *engine_family_names(void);
/* Model m's family's device path opened (device_open): 0, or an
 * nmt_status and a message, NMT_ERR_UNSUPPORTED naming the families that
 * have one where m's has none. *ops and *dev are NULL unless it opened. */
int engine_device_open(const struct nmt_model *m, const struct engine_device_ops **ops, void **dev, char *err,
		       size_t errlen);

#endif
