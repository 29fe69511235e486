/* The translator's insides, shared by translator.c (lines in: sentences,
 * spans, decoding passes) and translator_output.c (translations out:
 * words, alignments, spans put back, lines joined). */
#ifndef ENGINE_TRANSLATOR_INTERNAL_H
#define ENGINE_TRANSLATOR_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

#include "../text/split.h"
#include "../text/markup.h"
#include "../text/protect.h"
#include "../text/case.h"
#include "translator.h"

/* Sentences decoded together at least, per pass (more when the batch has
 * more lines): with the pieces per chunk (segment.h), this bounds the
 * memory a line of any length needs. */
#define MIN_PASS 8

/* What the model translates: one sentence of a line, or a chunk of an
 * over-long one. A line's units are consecutive. */
typedef struct {
	size_t ids_off;                      /* its source ids in t->ids, EOS after them */
	int n_ids;                           /* EOS included; 1: nothing to translate */
	const char *gap;                     /* what joins its translation to the one before */
	size_t gap_len;
	int src_word_off, n_src_words;       /* its source words: from this word of its line on */
	int span_first, n_spans;             /* its protected spans, in t->spans */
	int capitals;                        /* its sentence was in capitals: translated in
					      * sentence case, translations given back in capitals */
	int n_out;                           /* translations, best first (0: no model output) */
	size_t text_off[NMT_MAX_BEAM], text_len[NMT_MAX_BEAM];   /* in t->texts */
	float logprob[NMT_MAX_BEAM], score[NMT_MAX_BEAM];
	size_t word_off[NMT_MAX_BEAM];       /* its words' log-probabilities (and source words) in t->word_lp */
	int n_words[NMT_MAX_BEAM];
	size_t rev_off[NMT_MAX_BEAM];        /* with alignments, each source word's target word in t->rev */
	int has_rev[NMT_MAX_BEAM];
} engine_unit;

/* A unit to decode, and the length it is sorted by. */
typedef struct {
	int n_ids, unit;
} engine_unit_key;

struct engine_translator {
	const nmt_model *m;
	const text_split_lang *lang;         /* the source language's sentence rules */
	const char *tgt_placeholder;         /* the target language's placeholder word; NULL if unknown */
	engine_state state;
	spm_scratch *src_scratch, *tgt_scratch, *word_scratch;
	int32_t *ids;                        /* every unit's source ids + EOS, one after the other */
	int *src_word;                       /* with alignments: the word (in its unit) of each of them */
	size_t ids_cap;
	int *piece_word;                     /* [piece_word_cap] scratch: a sentence's pieces' words */
	size_t piece_word_cap;
	float *word_lp;                      /* the units' translations' words' log-probabilities */
	int *word_src;                       /* and, with alignments, the source word of each */
	size_t words_len, words_cap;
	float *sums;                         /* scratch: target x source word attention */
	size_t sums_cap;
	text_protected *spans;               /* the units' protected spans */
	size_t n_spans, spans_cap;
	char *subst;                         /* scratch: a sentence with its spans replaced */
	text_protected *sent_spans;          /* scratch: and its spans */
	size_t sent_spans_cap;
	size_t subst_cap;
	char *cased;                         /* scratch: a sentence in capitals in sentence case */
	size_t cased_cap;
	char *upper;                         /* scratch: a translation in capitals */
	size_t upper_cap;
	char *placed;                        /* scratch: a translation with its spans put back */
	size_t placed_cap;
	engine_unit *units;
	int n_units, units_cap;
	engine_unit_key *order;              /* [units_cap] the units to decode, shortest first */
	int *line_first;                     /* [lines_cap + 1] each line's first unit */
	int lines_cap;
	const int32_t **src;                 /* [pass_cap] one pass's sources */
	int *batch_len;                      /* [pass_cap] and their lengths */
	engine_hypothesis *hyps;             /* [pass_cap * NMT_MAX_BEAM] */
	int *n_hyps;                         /* [pass_cap] */
	engine_unit_key *retry;              /* [pass_cap] a pass's units searched again with the guard */
	int pass_cap;
	char *texts;                         /* the units' translations, detokenized */
	size_t texts_len, texts_cap;
	char *joined[NMT_MAX_BEAM];          /* a line's k-th best: its units' joined */
	size_t joined_len[NMT_MAX_BEAM], joined_cap[NMT_MAX_BEAM];
	float *line_lp[NMT_MAX_BEAM];        /* and its words' log-probabilities */
	size_t line_lp_cap[NMT_MAX_BEAM];
	char *line_align[NMT_MAX_BEAM];      /* and alignment */
	size_t line_align_cap[NMT_MAX_BEAM];
	int *pairs;                          /* scratch: a line's (source, target) word pairs */
	size_t pairs_cap;
	text_markup *markup;                 /* HTML lines' scratch, made when first needed */
	int *rev;                            /* the units' source words' target words */
	size_t rev_len, rev_cap;
	int *line_rev[NMT_MAX_BEAM];         /* a line's, during emit */
	size_t line_rev_cap[NMT_MAX_BEAM];
	int line_rev_len[NMT_MAX_BEAM];
};

/* Keep unit u's n decoded hypotheses (sentence `sent` of the batch just
 * searched, at least one), detokenized, with their words and alignments
 * (where o asks for them or the unit has spans) and its spans put back. */
int engine_tr_keep_outputs(engine_translator *t, const engine_search_options *o, engine_unit *u, int sent, const engine_hypothesis *hyps,
			int n);

/* Line i's translations, its units' joined, handed to emit: emit's value,
 * or -1 and a message when memory runs out. */
int engine_tr_emit_line(engine_translator *t, const engine_search_options *o, int i, engine_emit_fn emit, void *ctx, char *err,
		     size_t errlen);

#endif
