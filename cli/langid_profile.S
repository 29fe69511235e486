/* Embeds the language profile (models/langid.bin, made by train/langid.py)
 * for nmt detect (cli/detect.c), so the binary needs no file. The Makefile
 * defines NMT_LANGID_PATH (a quoted path) when there is one; without it the
 * size is 0. WebAssembly (make wasm): as in cli/embedded.S. */
#if defined(__wasm__)
	.section .rodata.cli_langid_profile,"",@
	.p2align 3
	.globl cli_langid_profile
cli_langid_profile:
#ifdef NMT_LANGID_PATH
	.incbin NMT_LANGID_PATH
#endif
cli_langid_profile_end:
	.size cli_langid_profile_end, 0
	.size cli_langid_profile, cli_langid_profile_end - cli_langid_profile
	.section .rodata.cli_langid_profile_size,"",@
	.p2align 2
	.globl cli_langid_profile_size
cli_langid_profile_size:
	.int32 cli_langid_profile_end - cli_langid_profile
	.size cli_langid_profile_size, 4
#else
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
#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
