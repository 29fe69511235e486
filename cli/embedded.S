/* Embeds the packed default model into the executable's read-only data, so
 * the binary alone translates. The Makefile defines NMT_EMBED_PATH (a quoted
 * path) when a model is to be embedded; without it the size is 0. */
	.section .rodata
	.balign 64
	.globl nmt_embedded_model
nmt_embedded_model:
#ifdef NMT_EMBED_PATH
	.incbin NMT_EMBED_PATH
#endif
nmt_embedded_model_end:
	.balign 8
	.globl nmt_embedded_model_size
nmt_embedded_model_size:
	.quad nmt_embedded_model_end - nmt_embedded_model

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
