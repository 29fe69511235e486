/* The YAML Marian stores in a model (`special:model.yml`): one "key: value"
 * per line, where a value is a scalar (plain, or in single or double
 * quotes), a flow list "[a, b]", or a block list of "  - item" lines under
 * an empty value. That is all Marian writes, and all this reads: anything
 * else is an error naming the line. */
#ifndef PACK_MARIAN_YML_H
#define PACK_MARIAN_YML_H
#include <stddef.h>

#define YML_MAX_ENTRIES 512
#define YML_MAX_ITEMS 16
#define YML_KEY_MAX 64
#define YML_VALUE_MAX 128

typedef struct {
	char key[YML_KEY_MAX];
	char value[YML_VALUE_MAX];   /* a scalar; "" for a list */
	int is_list;
	int n_items;
	char items[YML_MAX_ITEMS][YML_VALUE_MAX];
} yml_entry;

typedef struct {
	yml_entry *entries;
	int n;
} yml_doc;

/* 0, or -1 with a one-line message. */
int yml_parse(const char *text, size_t len, yml_doc *doc, char *err, size_t errlen);
void yml_free(yml_doc *doc);
/* The entry for key, or NULL. */
const yml_entry *yml_find(const yml_doc *doc, const char *key);

#endif
