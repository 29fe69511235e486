/* Embedding nmt: translate the texts given as arguments with a packed model.
 *
 *   cc -o translate translate.c $(pkg-config --cflags --libs --static nmt)
 *   ./translate [-b BEAM] [-n NBEST] MODEL TEXT...
 *
 * Prints each text's translation on its own line; with -n N, its N best as
 * "I ||| TRANSLATION ||| SCORE ||| LOGPROB" lines, like `nmt --nbest N`. */
#include <nmt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
	fprintf(stderr, "usage: translate [-b BEAM] [-n NBEST] MODEL TEXT...\n");
	return 2;
}

int main(int argc, char **argv)
{
	nmt_options options;
	nmt_options_init(&options);
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-b") == 0)
			options.beam = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-n") == 0)
			options.nbest = atoi(argv[i + 1]);
		else
			return usage();
	}
	if (argc - i < 2)
		return usage();

	nmt_model *model = NULL;
	nmt_session *session = NULL;
	nmt_result *result = NULL;
	nmt_error err;
	int status = 1;
	if (nmt_model_open(argv[i], 0, &model, &err) != NMT_OK ||
	    nmt_session_new(model, &session, &err) != NMT_OK ||
	    nmt_translate_batch(session, &options, (const char *const *)argv + i + 1, NULL, argc - i - 1, &result,
				&err) != NMT_OK) {
		fprintf(stderr, "translate: %s (%s)\n", err.message, nmt_status_string(err.code));
		goto out;
	}
	for (int t = 0; t < nmt_result_count(result); t++) {
		if (options.nbest == 1) {
			printf("%s\n", nmt_result_text(result, t, 0));
			continue;
		}
		for (int k = 0; k < nmt_result_nbest(result, t); k++) {
			const nmt_translation *tr = nmt_result_get(result, t, k);
			printf("%d ||| %s ||| %.6f ||| %.6f\n", t, tr->text, tr->score, tr->logprob);
		}
	}
	status = 0;
out:
	nmt_result_free(result);
	nmt_session_free(session);
	nmt_model_close(model);
	return status;
}
