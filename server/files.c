/* The translated files of POST /translate_file, kept in memory (never on
 * disk) until GET /download_file fetches them: a small store, oldest
 * evicted first, bounded in count and bytes, each file expiring after
 * SERVER_FILES_TTL_MS as LibreTranslate removes its own after 30 minutes.
 * A file's name begins with 128 random bits, so that knowing the server
 * (or another client's file name pattern) gives no way to guess one. */
#include "server_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

void server_files_init(server_files *f, size_t max_bytes)
{
	memset(f, 0, sizeof *f);
	pthread_mutex_init(&f->lock, NULL);
	f->max_bytes = max_bytes;
}

void server_files_free(server_files *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->files[i].data);
	f->n = 0;
	f->bytes = 0;
}

/* Drop file i, keeping the rest oldest first. Under the lock. */
static void drop(server_files *f, int i)
{
	f->bytes -= f->files[i].len;
	free(f->files[i].data);
	memmove(&f->files[i], &f->files[i + 1], (size_t)(f->n - i - 1) * sizeof *f->files);
	f->n--;
}

/* Drop the files older than the time to live. Under the lock. */
static void expire(server_files *f, long long now)
{
	while (f->n > 0 && now - f->files[0].created_ms >= SERVER_FILES_TTL_MS)
		drop(f, 0);
}

/* n random bytes from the kernel: getrandom, or /dev/urandom where that
 * is missing. 0, or -1. */
static int random_bytes(unsigned char *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = getrandom(p + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (got == n)
		return 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, p, n);
	close(fd);
	return k == (ssize_t)n ? 0 : -1;
}

int server_files_put(server_files *f, const char *download_name, int html, char *data, size_t len,
		     char name[SERVER_FILE_NAME_MAX])
{
	unsigned char id[SERVER_FILE_ID_BYTES];
	if (len > f->max_bytes || strlen(download_name) > SERVER_FILE_DOWNLOAD_MAX || random_bytes(id, sizeof id) != 0) {
		free(data);
		return -1;
	}
	for (size_t i = 0; i < sizeof id; i++)
		snprintf(name + 2 * i, 3, "%02x", id[i]);
	snprintf(name + 2 * sizeof id, SERVER_FILE_NAME_MAX - 2 * sizeof id, ".%s", download_name);
	pthread_mutex_lock(&f->lock);
	expire(f, server_now_ms());
	while (f->n > 0 && (f->n == SERVER_FILES_MAX || f->bytes + len > f->max_bytes))
		drop(f, 0);
	server_file *e = &f->files[f->n++];
	memcpy(e->name, name, SERVER_FILE_NAME_MAX);
	e->data = data;
	e->len = len;
	e->html = html;
	e->created_ms = server_now_ms();
	f->bytes += len;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

/* 1 if a equals the NUL-terminated b; every byte of b is compared, so the
 * time taken says nothing about how much of a name matched. */
static int same_name(const char *a, size_t a_len, const char *b)
{
	size_t n = strlen(b);
	unsigned char diff = n != a_len;
	for (size_t k = 0; k < n; k++)
		diff |= (unsigned char)(b[k] ^ (k < a_len ? a[k] : 0));
	return diff == 0;
}

int server_files_get(server_files *f, const char *name, server_buf *out, int *html, char *download_name,
		     size_t download_len)
{
	int found = -1;
	size_t len = strlen(name);
	pthread_mutex_lock(&f->lock);
	expire(f, server_now_ms());
	for (int i = 0; i < f->n; i++)
		if (same_name(name, len, f->files[i].name))
			found = i;
	if (found >= 0) {
		const server_file *e = &f->files[found];
		server_buf_add(out, e->data ? e->data : "", e->len);
		*html = e->html;
		snprintf(download_name, download_len, "%s", e->name + 2 * SERVER_FILE_ID_BYTES + 1);
	}
	pthread_mutex_unlock(&f->lock);
	return found >= 0;
}
