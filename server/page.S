/* Embeds the translation page (server/page.html) that nmt serve answers
 * GET / with (server/serve.c), so the binary needs no file. */
	.section .rodata
	.globl server_page
server_page:
	.incbin "server/page.html"
server_page_end:
	.balign 8
	.globl server_page_size
server_page_size:
	.quad server_page_end - server_page

#if defined(__linux__) && defined(__ELF__)
	.section .note.GNU-stack,"",%progbits
#endif
