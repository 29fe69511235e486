/* The translation page nmt serve answers GET / with: server/page.html,
 * embedded at build time by server/page.S. */
#ifndef SERVER_PAGE_H
#define SERVER_PAGE_H
#include <stddef.h>

extern const char server_page[];         /* not NUL-terminated */
extern const size_t server_page_size;

#endif
