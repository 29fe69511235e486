#include "catalog.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embedded.h"

#ifndef NMT_PREFIX
#define NMT_PREFIX "/usr/local"
#endif

/* DIR/../share/nmt/models for the directory DIR the running program is
 * in (so a staged or relocated install finds its own models), or "". */
static void beside_program(char *out, size_t size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	out[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		snprintf(out, size, "%s/../share/nmt/models", exe);
	}
}

char *cli_catalog_user_dir(void)
{
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	size_t n = strlen(home) + sizeof CLI_CATALOG_USER_DIR + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/" CLI_CATALOG_USER_DIR, home);
	return p;
}

char *cli_catalog_search_path(void)
{
	const char *env = getenv("NMT_MODELS"), *home = getenv("HOME");
	char near[4200];
	beside_program(near, sizeof near);
	size_t n = (env ? strlen(env) : 0) + (home ? strlen(home) : 0) + strlen(near) + sizeof NMT_PREFIX + 64;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s%s%s%s%s%s/share/nmt/models", env && *env ? env : "", env && *env ? ":" : "",
			 home && *home ? home : "", home && *home ? "/" CLI_CATALOG_USER_DIR ":" : "", near,
			 *near ? ":" : "", NMT_PREFIX);
	return p;
}

static void copy_value(const nmt_model *m, const char *key, char *out, size_t size, const char *fallback)
{
	if (nmt_model_metadata_value(m, key, out, size) != NMT_OK) {
		strncpy(out, fallback, size - 1);
		out[size - 1] = '\0';
	}
}

/* The entry's file, or the embedded model when it has no path. */
static nmt_status open_entry(const cli_catalog_entry *e, unsigned flags, nmt_model **m, nmt_error *err)
{
	if (e->path)
		return nmt_model_open(e->path, flags, m, err);
	return nmt_model_open_buffer(nmt_embedded_model, nmt_embedded_model_size, flags, m, err);
}

static int add(cli_catalog *c, const char *path, void (*warn)(const char *, const char *))
{
	cli_catalog_entry e = { 0 };
	nmt_model *m;
	nmt_error err;
	if (path && !(e.path = strdup(path)))
		return -1;
	if (open_entry(&e, NMT_OPEN_METADATA, &m, &err) != NMT_OK) {
		if (warn)
			warn(path ? path : "(embedded)", err.message);
		free(e.path);
		return err.code == NMT_ERR_NO_MEMORY ? -1 : 0;
	}
	copy_value(m, "src_lang", e.src, sizeof e.src, "und");
	copy_value(m, "tgt_lang", e.tgt, sizeof e.tgt, "und");
	copy_value(m, "arch", e.arch, sizeof e.arch, "?");
	copy_value(m, "quant", e.quant, sizeof e.quant, "?");
	e.size = nmt_model_file_size(m);
	nmt_model_close(m);
	cli_catalog_entry *grown = realloc(c->entries, (size_t)(c->n + 1) * sizeof *grown);
	if (!grown) {
		free(e.path);
		return -1;
	}
	c->entries = grown;
	c->entries[c->n++] = e;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.nmt files of one directory, in name order (so the choice among
 * models of one language pair does not depend on the file system). */
static int scan_dir(cli_catalog *c, const char *dir, void (*warn)(const char *, const char *))
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char **names = NULL;
	int n = 0, rc = 0;
	for (struct dirent *de; (de = readdir(d)) != NULL && rc == 0;) {
		if (!ends_with(de->d_name, ".nmt"))
			continue;
		char **grown = realloc(names, (size_t)(n + 1) * sizeof *names);
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		char *path = malloc(len);
		if (!grown || !path) {
			free(path);
			rc = -1;
			names = grown ? grown : names;
			break;
		}
		names = grown;
		snprintf(path, len, "%s/%s", dir, de->d_name);
		names[n++] = path;
	}
	closedir(d);
	if (n > 1)
		qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = add(c, names[i], warn);
		free(names[i]);
	}
	free(names);
	return rc;
}

int cli_catalog_scan(cli_catalog *c, const char *search_path, int embedded,
		     void (*warn)(const char *path, const char *why))
{
	*c = (cli_catalog){ 0 };
	char *dirs = strdup(search_path ? search_path : "");
	if (!dirs)
		return -1;
	int rc = 0;
	for (char *save = NULL, *dir = strtok_r(dirs, ":", &save); dir && rc == 0; dir = strtok_r(NULL, ":", &save))
		rc = scan_dir(c, dir, warn);
	free(dirs);
	if (rc == 0 && embedded && nmt_embedded_model_size > 0)
		rc = add(c, NULL, warn);
	return rc;
}

void cli_catalog_free(cli_catalog *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->entries[i].path);
	free(c->entries);
	*c = (cli_catalog){ 0 };
}

const cli_catalog_entry *cli_catalog_find(const cli_catalog *c, const char *src, const char *tgt)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->entries[i].src, src) == 0 && strcmp(c->entries[i].tgt, tgt) == 0)
			return &c->entries[i];
	return NULL;
}

nmt_status cli_catalog_open(const cli_catalog_entry *e, nmt_model **m, nmt_error *err)
{
	return open_entry(e, 0, m, err);
}
