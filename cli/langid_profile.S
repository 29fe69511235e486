/* Embeds the language profile (models/langid.bin, made by train/langid.py)
 * for nmt detect (cli/detect.c), so the binary needs no file. The Makefile
 * defines NMT_LANGID_PATH (a quoted path) when there is one; without it the
 * size is 0. */
	.section .rodata
	.balign 8
	.globl cli_langid_profile
cli_langid_profile:
#ifdef NMT_LANGID_PATH
	.incbin NMT_LANGID_PATH
#endif
cli_langid_profile_end:
	.balign 8
	.globl cli_langid_profile_size
cli_langid_profile_size:
	.quad cli_langid_profile_end - cli_langid_profile

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
