/* model-pack: a trained checkpoint plus SentencePiece models -> packed .nmt file.
 *
 *   model-pack [--quant f32|q8|q4|q4n|i8|EMB+F] [--vmap VMAP.txt] [--precompute-top K] [--store-precomputed]
 *              [--src-lang L] [--tgt-lang L] -o OUT.nmt CHECKPOINT.safetensors SRC.model TGT.model
 *   model-pack --marian MODEL.npz|MODEL.bin --vocab SPM [--vocab TGT_SPM]
 *              [--quant f32|q8|q4|q4n|i8] [--src-lang L] [--tgt-lang L] -o OUT.nmt
 *   model-pack --marian DIR [--quant f32|q8|q4|q4n|i8] [--src-lang L] [--tgt-lang L] -o OUT.nmt
 *
 * The checkpoint is what train/export.py writes: safetensors whose
 * __metadata__ holds the model's dimensions (train/model.py Config). A
 * Marian model is read by marian_pack.c. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/error.h"
#include "../common/number.h"
#include "../family/gru/arch.h"
#include "../quant/matrix.h"
#include "../vocab/spm.h"
#include "marian_dir.h"
#include "marian_import.h"
#include "precomp.h"
#include "safetensors.h"
#include "vmap_pack.h"
#include "vocab.h"
#include "writer.h"

#define MODEL_PACK_VERSION "0.1.0"

/* Words whose embedding products are precomputed unless --precompute-top
 * says otherwise: on general text greedy decoding takes 13% less time with
 * 1000 than with 250 computed at open (docs/RESULTS.md). By default the file only asks for
 * them (metadata precompute=K) and each translator computes a word's row
 * when it first meets the word (at most 5.9 MB at the default model's
 * size, only the rows of the words a text uses); --store-precomputed
 * stores them instead. */
#define DEFAULT_PRECOMPUTE_TOP 1000

#define ERROR_PROGRAM "model-pack"   /* the name error_die ends model-pack under */

static void usage(FILE *f)
{
	fputs("usage: model-pack [--quant f32|q8|q4|q4n|i8|EMB+F] [--vmap VMAP.txt] [--precompute-top K]\n"
	      "                  [--store-precomputed] [--src-lang L] [--tgt-lang L] [--alpha A] -o OUT.nmt\n"
	      "                  CHECKPOINT.safetensors SRC.model TGT.model\n"
	      "Packs a checkpoint (train/export.py) and the source and target SentencePiece\n"
	      "models (the same file twice for a joint vocabulary) into one .nmt file.\n"
	      "  -o, --output FILE   the packed model to write\n"
	      "      --quant F       weight format of the matrices: f32 (default), or the 8-bit\n"
	      "                      or 4-bit log quantization q8, q4, q4n (4-bit with levels\n"
	      "                      fitted to trained weights: about half q4's error), or\n"
	      "                      linear 8-bit integers i8 (biases stay f32)\n"
	      "      --quant EMB+F   the two embedding matrices (89% of the weights at the\n"
	      "                      default shape; the target one is the output layer) in\n"
	      "                      EMB, the other matrices in F: q4n+i8 is near q4n's size,\n"
	      "                      closer to q8's translations, and faster than q4 or q4n\n"
	      "      --vmap FILE     n-gram vocabulary map (train/vmap.py) for output shortlists\n"
	      "      --precompute-top K  precompute the products of the embeddings of the K\n"
	      "                      most frequent source and target words (the first K ids):\n"
	      "                      the first encoder layer's and the decoder GRU's input\n"
	      "                      projections and the attention's V_a e, computed as the\n"
	      "                      translator meets each word (default 1000; 0: none)\n"
	      "      --store-precomputed  store those tables in the file instead (5.9 KB per\n"
	      "                      word at the default model's size; nothing to compute as it translates)\n"
	      "      --src-lang L, --tgt-lang L   language codes to record instead of the\n"
	      "                      checkpoint's (what nmt -l SRC-TGT looks for)\n"
	      "      --alpha A       the beam search's length normalization (0..10) to record\n"
	      "                      instead of the checkpoint's metadata \"alpha\" (nmt uses\n"
	      "                      it unless given --alpha; without one, 0.6)\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "       model-pack --marian MODEL --vocab SPM [--vocab TGT_SPM] [--quant F] -o OUT.nmt\n"
	      "Imports a Marian student model (Transformer encoder, SSRU decoder; .npz or .bin,\n"
	      "float32 or intgemm8), as Firefox Translations ships them, with its SentencePiece\n"
	      "vocabulary (once if shared, else source then target).\n"
	      "      --shortlist LEX  Marian's lexical shortlist (lex.*.s2t.bin, or its text form)\n"
	      "                       as the model's vocabulary map\n"
	      "      --vmap FILE      or an n-gram vocabulary map (train/vmap.py) made on the\n"
	      "                       same vocabularies\n"
	      "      --src-lang L, --tgt-lang L   language codes to record (default und)\n"
	      "      --alpha A        the length normalization to record (marian-decoder's\n"
	      "                       own ranking: 0; without it nmt searches at 0.6)\n"
	      "\n"
	      "       model-pack --marian DIR [--quant F] [--src-lang L] [--tgt-lang L] -o OUT.nmt\n"
	      "The same from a folder as Firefox Translations publishes them: the model\n"
	      "(model.PAIR.intgemm.alphas.bin, else model.PAIR.intgemm8.bin, else the one *.bin\n"
	      "or *.npz), the vocabulary (vocab.PAIR.spm, or srcvocab.PAIR.spm and\n"
	      "trgvocab.PAIR.spm), the shortlist if there is one (lex.*.PAIR.s2t.bin), each\n"
	      "gzipped or not; the languages from PAIR (enfr: en, fr) or metadata.json's\n"
	      "sourceLanguage and targetLanguage, unless --src-lang/--tgt-lang give them.\n"
	      "What it found is listed on stderr.\n", f);
}

static int meta_int(const st_file *ck, const char *key, long lo, long hi)
{
	const char *v = st_meta(ck, key);

	if (!v)
		error_die(1, "checkpoint metadata has no \"%s\"", key);
	long x;
	if (number_parse_long(v, lo, hi, &x) != 0)
		error_die(1, "checkpoint metadata %s=\"%s\" is not an integer in %ld..%ld", key, v, lo, hi);
	return (int)x;
}

/* The checkpoint's sizes, under the keys and in the ranges of the packed
 * file's metadata (family/gru/arch.h). */
static void read_dims(const st_file *ck, engine_dims *d, gru_dims *gd)
{
	for (int i = 0; i < GRU_META_DIMS; i++) {
		const gru_meta_dim *k = &gru_meta_dims[i];
		*gru_meta_dim_field(k, d, gd) = meta_int(ck, k->key, k->lo, k->hi);
	}
}

/* Check a checkpoint tensor against the architecture and convert it to f32. */
static float *load_tensor(const st_file *ck, const gru_tensor_spec *spec)
{
	const st_tensor *t = st_find(ck, spec->name);
	int ok;

	if (!t)
		error_die(1, "checkpoint has no tensor \"%s\"", spec->name);
	if (spec->is_vector)
		ok = t->ndim == 1 && t->shape[0] == spec->cols;
	else
		ok = t->ndim == 2 && t->shape[0] == spec->rows && t->shape[1] == spec->cols;
	if (!ok) {
		char shape[96] = "", *p = shape;
		for (int i = 0; i < t->ndim && i < 4; i++)
			p += snprintf(p, sizeof shape - (size_t)(p - shape), "%s%lld", i ? ", " : "",
				      (long long)t->shape[i]);
		if (spec->is_vector)
			error_die(1, "tensor \"%s\" has shape [%s], expected [%d]", spec->name, shape, spec->cols);
		error_die(1, "tensor \"%s\" has shape [%s], expected [%d, %d]", spec->name, shape, spec->rows, spec->cols);
	}
	float *data = malloc((size_t)spec->rows * (size_t)spec->cols * sizeof *data);
	if (!data)
		error_die(1, "out of memory");
	if (st_to_f32(t, data) != 0)
		error_die(1, "tensor \"%s\": unsupported dtype (use F32, F16 or BF16)", spec->name);
	return data;
}

/* A matrix in the chosen weight format. */
static void add_matrix(pack_tensors *t, const char *name, format_encoding quant, int rows, int cols, const float *data)
{
	int rc;
	if (quant == FORMAT_F32)
		rc = pack_tensor_f32(t, name, rows, cols, data);
	else if (quant == FORMAT_Q8 && cols > FORMAT_Q8_MAX_COLS)
		error_die(1, "tensor \"%s\" has %d columns; q8 allows at most %d", name, cols, FORMAT_Q8_MAX_COLS);
	else if (quant == FORMAT_I8 && cols > FORMAT_I8_MAX_COLS)
		error_die(1, "tensor \"%s\" has %d columns; i8 allows at most %d", name, cols, FORMAT_I8_MAX_COLS);
	else
		rc = pack_tensor_quant(t, name, quant, rows, cols, data);
	if (rc != 0)
		error_die(1, "out of memory");
}

/* --quant's value: F, or EMB+F (the embeddings in EMB, the rest in F; returns 1). */
static int parse_quant(const char *text, format_encoding *quant, format_encoding *emb_quant)
{
	char emb[8];
	const char *plus = strchr(text, '+');
	size_t n = plus ? (size_t)(plus - text) : 0;
	if (!plus && format_encoding_parse(text, quant) == 0)
		return 0;
	if (plus && n < sizeof emb) {
		memcpy(emb, text, n);
		emb[n] = '\0';
		if (format_encoding_parse(emb, emb_quant) == 0 && format_encoding_parse(plus + 1, quant) == 0)
			return 1;
	}
	error_die(2, "--quant %s: the formats are " FORMAT_ENCODING_NAMES ", or EMB+F (the embeddings in EMB, the "
		  "other matrices in F, e.g. q4n+i8)", text);
}

/* The format of tensor name: the embeddings' where it is one of them. */
static format_encoding format_of(const char *name, format_encoding quant, format_encoding emb_quant)
{
	return strcmp(name, GRU_SRC_EMB GRU_WEIGHT) == 0 || strcmp(name, GRU_TGT_EMB GRU_WEIGHT) == 0 ? emb_quant : quant;
}

static void pack_weights(const st_file *ck, const engine_dims *d, const gru_dims *gd, format_encoding quant,
			 format_encoding emb_quant, pack_file *out)
{
	gru_tensor_spec specs[GRU_ARCH_MAX_TENSORS];
	int n = gru_arch_tensors(d, gd, specs);
	pack_tensors t = { 0 };

	for (size_t i = 0; i < st_count(ck); i++) {
		const char *name = st_at(ck, i)->name;
		int known = 0;
		for (int k = 0; k < n && !known; k++)
			known = strcmp(specs[k].name, name) == 0;
		if (!known)
			error_die(1, "checkpoint has tensor \"%s\", which this architecture (%s) does not use",
			    name, GRU_ARCH);
	}
	for (int k = 0; k < n; k++) {
		float *data = load_tensor(ck, &specs[k]);
		if (strcmp(specs[k].name, GRU_TENSOR_DEC_IH) == 0) {
			/* Split by input: the embedding's columns, whose product
			 * has one result per word (the precomp section), and the
			 * context's (docs/FORMAT.md). */
			int rows = specs[k].rows, cols = specs[k].cols, e = d->emb;
			float *x = malloc((size_t)rows * e * sizeof *x), *c = malloc((size_t)rows * (cols - e) * sizeof *c);
			if (!x || !c)
				error_die(1, "out of memory");
			for (int r = 0; r < rows; r++) {
				memcpy(x + (size_t)r * e, data + (size_t)r * cols, (size_t)e * sizeof *x);
				memcpy(c + (size_t)r * (cols - e), data + (size_t)r * cols + e, (size_t)(cols - e) * sizeof *c);
			}
			add_matrix(&t, GRU_TENSOR_DEC_IH_X, quant, rows, e, x);
			add_matrix(&t, GRU_TENSOR_DEC_IH_C, quant, rows, cols - e, c);
			free(x);
			free(c);
		} else if (specs[k].is_vector) {
			if (pack_tensor_f32(&t, specs[k].name, specs[k].rows, specs[k].cols, data) != 0)
				error_die(1, "out of memory");
		} else {
			add_matrix(&t, specs[k].name, format_of(specs[k].name, quant, emb_quant), specs[k].rows,
				   specs[k].cols, data);
		}
		free(data);
	}
	if (pack_add_section(out, FORMAT_TAG_TENSORS, t.dir, t.dir_size, 0) != 0 ||
	    pack_add_section(out, FORMAT_TAG_WEIGHTS, t.weights, t.weights_size, FORMAT_SECTION_BULK) != 0)
		error_die(1, "too many sections");
}

/* Pack a SentencePiece model and check it against the checkpoint's vocabulary.
 * The target side is only ever decoded, so it is packed without the tables
 * only encoding reads (vocab/spm.h: spm_pack_decoder). */
static void pack_vocab_or_die(const char *path, const char *tag, int expect_size, int bos, int eos, int decode_only,
			      pack_file *out)
{
	char err[512];
	if (pack_vocab(path, tag, expect_size, bos, eos, decode_only, out, NULL, NULL, err, sizeof err) != 0)
		error_die(1, "%s", err);
}

/* The metadata text[0..n) (of 4096 bytes) with fmt's appended: its new
 * length, or -1 once it does not fit. */
__attribute__((format(printf, 3, 4))) static int append(char *text, int n, const char *fmt, ...)
{
	if (n < 0 || n >= 4096)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(text + n, 4096 - (size_t)n, fmt, ap);
	va_end(ap);
	return k < 0 || k >= 4096 - n ? -1 : n + k;
}

/* The search's length normalization to record: --alpha's (text), else the
 * checkpoint's metadata "alpha", else none (-1: the engine's default). */
static double pack_alpha(const char *given, const st_file *ck)
{
	const char *text = given ? given : ck ? st_meta(ck, "alpha") : NULL;
	double alpha;
	if (!text)
		return -1;
	if (number_parse_double(text, 0.0, 10.0, &alpha) != 0)
		error_die(given ? 2 : 1, "%salpha must be a number in 0..10, not \"%s\"", given ? "--" : "checkpoint metadata ",
			  text);
	return alpha;
}

/* quant's value in the metadata: the format, or with embeddings of
 * another, theirs first ("q4n+i8"), the format of most of the bytes. */
static const char *quant_name(format_encoding quant, format_encoding emb_quant, char *buf, size_t size)
{
	if (quant == emb_quant)
		return format_encoding_name(quant);
	snprintf(buf, size, "%s+%s", format_encoding_name(emb_quant), format_encoding_name(quant));
	return buf;
}

/* precompute: the ids whose tables the translators fill as they meet them (0: none);
 * src_lang, tgt_lang: the languages if given, else the checkpoint's; alpha:
 * the length normalization to record, -1 none; emb_quant: the embeddings' format */
static void pack_meta(const st_file *ck, const engine_dims *d, const gru_dims *gd, format_encoding quant,
		      format_encoding emb_quant, int precompute, const char *src_lang, const char *tgt_lang, double alpha,
		      pack_file *out)
{
	char quant_text[16];
	const char *src = src_lang ? src_lang : st_meta(ck, "src_lang"), *tgt = tgt_lang ? tgt_lang : st_meta(ck, "tgt_lang");
	char *text = malloc(4096);

	if (!text)
		error_die(1, "out of memory");
	int n = append(text, 0, "arch=%s\nquant=%s\nsrc_lang=%s\ntgt_lang=%s\n", GRU_ARCH,
		       quant_name(quant, emb_quant, quant_text, sizeof quant_text), src ? src : "und", tgt ? tgt : "und");
	for (int i = 0; i < GRU_META_DIMS; i++)
		n = append(text, n, "%s=%d\n", gru_meta_dims[i].key, gru_meta_dim_value(&gru_meta_dims[i], d, gd));
	n = append(text, n, GRU_META_PRECOMPUTE "=%d\npacked_by=model-pack %s\n", precompute, MODEL_PACK_VERSION);
	if (alpha >= 0)
		n = append(text, n, "alpha=%.9g\n", alpha);
	if (n < 0 || n >= 4096 || strpbrk(src ? src : "", "\n=") || strpbrk(tgt ? tgt : "", "\n="))
		error_die(1, "checkpoint metadata src_lang/tgt_lang is malformed");
	if (pack_add_section(out, FORMAT_TAG_META, (uint8_t *)text, (size_t)n, 0) != 0)
		error_die(1, "too many sections");
}

/* An n-gram vocabulary map (train/vmap.py's text) as the vmap section. */
static void pack_vmap_file(const char *path, int src_vocab, int tgt_vocab, pack_file *out)
{
	uint8_t *blob;
	size_t blob_len;
	char err[512];
	if (pack_vmap(path, src_vocab, tgt_vocab, &blob, &blob_len, err, sizeof err) != 0)
		error_die(1, "%s", err);
	if (pack_add_section(out, ENGINE_TAG_VMAP, blob, blob_len, 0) != 0)
		error_die(1, "too many sections");
}

/* model-pack --marian: the model, its vocabularies (one shared, or source
 * and target) and the vocabulary map if given: Marian's lexical shortlist,
 * or an n-gram map made for these vocabularies (a model of this family
 * trained by train/train.py --family ssru on nmt's own vocabularies), named
 * one by one or found in a folder (marian_dir.h), through marian_import.c. */
static int pack_marian(const char *model, const char *const vocabs[2], int n_vocabs, format_encoding quant,
		       const char *src_lang, const char *tgt_lang, const char *vmap, const char *shortlist, double alpha,
		       const char *output, int extra)
{
	char err[512];
	struct stat st;
	int is_dir = stat(model, &st) == 0 && S_ISDIR(st.st_mode);
	pack_file out = { .n = 0 };
	marian_import_files f = { .model = model, .vocabs = { vocabs[0], vocabs[1] }, .n_vocabs = n_vocabs,
				  .shortlist = shortlist, .vmap = vmap, .src_lang = src_lang, .tgt_lang = tgt_lang,
				  .quant = quant, .has_alpha = alpha >= 0, .alpha = alpha };
	marian_dir d = { 0 };

	if (is_dir && (n_vocabs || shortlist))
		error_die(2, "--marian DIR finds the vocabulary and the shortlist in DIR; --vocab and --shortlist go with "
		       "--marian MODEL");
	if (!output || extra != 0 || (n_vocabs == 0 && !is_dir))
		error_die(2, "--marian needs -o OUT.nmt and a folder, or a model and --vocab SPM (twice for separate "
		       "vocabularies), and no other files");
	if (vmap && shortlist)
		error_die(2, "--vmap and --shortlist both give the vocabulary map: one of them");
	for (const char *l = src_lang; l; l = l == src_lang ? tgt_lang : NULL)
		if (strlen(l) > 16 || strpbrk(l, "\n=") || *l == '\0')
			error_die(2, "a language code is a short word, not \"%s\"", l);
	if (is_dir) {
		if (marian_dir_find(model, src_lang, tgt_lang, &d, err, sizeof err) != 0)
			error_die(1, "%s", err);
		if (vmap && d.shortlist)
			error_die(2, "--vmap and %s both give the vocabulary map: one of them (or name the files one by one)",
			    d.shortlist);
		marian_dir_print(&d, stderr);
		f = (marian_import_files){ .model = d.model, .vocabs = { d.vocab[0], d.vocab[1] }, .n_vocabs = d.n_vocabs,
					   .shortlist = d.shortlist, .vmap = vmap, .src_lang = d.src[0] ? d.src : NULL,
					   .tgt_lang = d.tgt[0] ? d.tgt : NULL, .quant = quant, .has_alpha = alpha >= 0,
					   .alpha = alpha };
	}
	if (marian_import(&f, &out, err, sizeof err) != 0)
		error_die(1, "%s", err);
	if (pack_write(&out, output, err, sizeof err) != 0)
		error_die(1, "%s", err);
	pack_free(&out);
	marian_dir_free(&d);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' }, { "quant", required_argument, NULL, 'q' },
		{ "vmap", required_argument, NULL, 'v' }, { "help", no_argument, NULL, 'h' },
		{ "precompute-top", required_argument, NULL, 'p' }, { "store-precomputed", no_argument, NULL, 'P' },
		{ "marian", required_argument, NULL, 'M' }, { "vocab", required_argument, NULL, 'V' },
		{ "src-lang", required_argument, NULL, 'S' }, { "tgt-lang", required_argument, NULL, 'T' },
		{ "shortlist", required_argument, NULL, 'L' }, { "alpha", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *vmap = NULL, *marian = NULL, *vocabs[2] = { NULL, NULL };
	const char *src_lang = NULL, *tgt_lang = NULL, *shortlist = NULL, *alpha = NULL;
	int n_vocabs = 0;
	format_encoding quant = FORMAT_F32, emb_quant = FORMAT_F32;
	int emb_quant_given = 0, c, precompute_top = DEFAULT_PRECOMPUTE_TOP, store_precomputed = 0;

	{ const uint16_t one = 1; if (*(const uint8_t *)&one != 1) error_die(1, "big-endian hosts are not supported"); }
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'q':
			emb_quant_given = parse_quant(optarg, &quant, &emb_quant);
			break;
		case 'v': vmap = optarg; break;
		case 'M': marian = optarg; break;
		case 'V':
			if (n_vocabs == 2)
				error_die(2, "--vocab at most twice (source, then target)");
			vocabs[n_vocabs++] = optarg;
			break;
		case 'S': src_lang = optarg; break;
		case 'L': shortlist = optarg; break;
		case 'T': tgt_lang = optarg; break;
		case 'A': alpha = optarg; break;
		case 'p': {
			long k;
			if (number_parse_long(optarg, 0, 1 << 22, &k) != 0)
				error_die(2, "--precompute-top must be an integer in 0..%d, not \"%s\"", 1 << 22, optarg);
			precompute_top = (int)k;
			break;
		}
		case 'P': store_precomputed = 1; break;
		case 'h': usage(stdout); return 0;
		case ':': error_die(2, "option %s needs a value (try --help)", argv[optind - 1]); break;
		default: error_die(2, "unknown option %s (try --help)", argv[optind - 1]);
		}
	}
	if (marian && emb_quant_given)
		error_die(2, "--quant EMB+F goes with a GRU checkpoint, not --marian");
	if (!emb_quant_given)
		emb_quant = quant;
	if (marian)
		return pack_marian(marian, vocabs, n_vocabs, quant, src_lang, tgt_lang, vmap, shortlist,
				   pack_alpha(alpha, NULL), output, argc - optind);
	if (n_vocabs || shortlist)
		error_die(2, "--vocab and --shortlist go with --marian");
	if (!output || argc - optind != 3)
		error_die(2, "need -o OUT.nmt and three files: CHECKPOINT.safetensors SRC.model TGT.model (try --help)");
	st_file *ck;
	char err[512];
	if (st_open(argv[optind], &ck, err, sizeof err) != 0)
		error_die(1, "%s: %s", argv[optind], err);
	engine_dims d;
	gru_dims gd;
	read_dims(ck, &d, &gd);
	if (d.bos_id >= d.tgt_vocab || d.eos_id >= d.tgt_vocab)
		error_die(1, "checkpoint bos_id/eos_id lie outside the target vocabulary");
	pack_file out = { .n = 0 };
	pack_meta(ck, &d, &gd, quant, emb_quant, store_precomputed ? 0 : precompute_top, src_lang, tgt_lang,
		  pack_alpha(alpha, ck), &out);
	pack_weights(ck, &d, &gd, quant, emb_quant, &out);
	pack_vocab_or_die(argv[optind + 1], FORMAT_TAG_SRC_VOCAB, d.src_vocab, -1, -1, 0, &out);
	pack_vocab_or_die(argv[optind + 2], FORMAT_TAG_TGT_VOCAB, d.tgt_vocab, d.bos_id, d.eos_id, 1, &out);
	st_close(ck);
	if (vmap)
		pack_vmap_file(vmap, d.src_vocab, d.tgt_vocab, &out);
	if (pack_write(&out, output, err, sizeof err) != 0)
		error_die(1, "%s", err);
	if (precompute_top > 0 && store_precomputed) {
		/* The tables come from the engine running on the file just
		 * written; then it is written again with them. */
		uint8_t *blob;
		size_t blob_len;
		if (pack_precomp(output, precompute_top, &blob, &blob_len, err, sizeof err) != 0)
			error_die(1, "%s: %s", output, err);
		if (pack_add_section(&out, FORMAT_TAG_PRECOMP, blob, blob_len, FORMAT_SECTION_BULK) != 0)
			error_die(1, "too many sections");
		if (pack_write(&out, output, err, sizeof err) != 0)
			error_die(1, "%s", err);
	}
	pack_free(&out);
	return 0;
}
