/* multipart/form-data bodies (RFC 7578), as browsers and `curl -F` send
 * them: parts between "--BOUNDARY" lines, each with a Content-Disposition
 * header naming its field, and a closing "--BOUNDARY--". Read strictly and
 * bounds-checked: the whole body must have that shape, or it is refused. */
#ifndef SERVER_MULTIPART_H
#define SERVER_MULTIPART_H
#include <stddef.h>

/* The first field called name in body[0..len) (boundary from the
 * Content-Type, without the leading "--"): 1 with *value pointing into body
 * (*value_len bytes, not NUL-terminated), 0 if no such field, -1 if the body
 * is malformed. Parts that carry a filename are files, not fields (as
 * LibreTranslate reads them), and never match. */
int server_multipart_get(const char *body, size_t len, const char *boundary, const char *name, const char **value,
			 size_t *value_len);

/* A part as found in the body: its content, and a file's name as the
 * Content-Disposition gives it (raw: quotes taken off, nothing decoded;
 * maybe empty). */
typedef struct {
	const char *value;
	size_t value_len;
	const char *filename;
	size_t filename_len;
} server_multipart_part;

/* The first file called name (a part with a filename, as Flask's
 * request.files holds them): 1 with *file, 0 if none, -1 if the body is
 * malformed. */
int server_multipart_file(const char *body, size_t len, const char *boundary, const char *name,
			  server_multipart_part *file);

#endif
