/* Embeds the packed default model into the executable's read-only data, so
 * the binary alone translates. The Makefile defines NMT_EMBED_PATH (a quoted
 * path) when a model is to be embedded; without it the size is 0.
 * WebAssembly's object format (make wasm) wants a named data section per
 * symbol, every data symbol's .size, and a 32-bit size_t. */
#if defined(__wasm__)
	.section .rodata.nmt_embedded_model,"",@
	.p2align 6
	.globl nmt_embedded_model
nmt_embedded_model:
#ifdef NMT_EMBED_PATH
	.incbin NMT_EMBED_PATH
#endif
nmt_embedded_model_end:
	.size nmt_embedded_model_end, 0
	.size nmt_embedded_model, nmt_embedded_model_end - nmt_embedded_model
	.section .rodata.nmt_embedded_model_size,"",@
	.p2align 2
	.globl nmt_embedded_model_size
nmt_embedded_model_size:
	.int32 nmt_embedded_model_end - nmt_embedded_model
	.size nmt_embedded_model_size, 4
#else
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
#endif

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
