/* The libFuzzer entry points every harness in tests/fuzz/ defines. Built
 * with clang -fsanitize=fuzzer by `make fuzz`; linked with replay.c instead
 * by `make test`, which runs each harness over its committed corpus (seeds
 * and every input that once failed). */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop with a message: the property a harness checks does not hold. */
#define FUZZ_ASSERT(cond)                                                                  \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                           \
		}                                                                          \
	} while (0)

#endif
