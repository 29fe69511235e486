#include "vmap.h"

#include "error.h"
#include "format.h"

#define SLOT_SIZE 16
#define MAX_SLOTS (1u << 30)

uint64_t nmt_vmap_hash(const int32_t *ids, int n)
{
	uint64_t h = 14695981039346656037ull;
	for (int i = 0; i < n; i++)
		for (int b = 0; b < 4; b++) {
			h ^= (uint8_t)((uint32_t)ids[i] >> (8 * b));
			h *= 1099511628211ull;
		}
	return h ? h : 1;
}

static int ids_in_range(const uint8_t *p, uint64_t n, int tgt_vocab)
{
	for (uint64_t i = 0; i < n; i++)
		if (nmt_rd32(p + 4 * i) >= (uint32_t)tgt_vocab)
			return 0;
	return 1;
}

/* Every slot's payload range inside the payload, and at least one empty slot
 * so that a probe for an absent key always ends. */
static int check_slots(const nmt_vmap *v, char *err, size_t errlen)
{
	uint32_t empty = 0;
	for (uint32_t i = 0; i < v->n_slots; i++) {
		const uint8_t *s = v->slots + (size_t)i * SLOT_SIZE;
		uint64_t off = nmt_rd32(s + 8), count = nmt_rd32(s + 12);
		if (nmt_rd64(s) == 0) {
			empty++;
			continue;
		}
		if (off + count > v->n_payload)
			return nmt_fail(err, errlen, "corrupt model: vmap slot %u points outside its payload", i);
	}
	if (empty == 0)
		return nmt_fail(err, errlen, "corrupt model: vmap hash table has no empty slot");
	return 0;
}

int nmt_vmap_open(const uint8_t *data, uint64_t size, int tgt_vocab, nmt_vmap *v,
		  char *err, size_t errlen)
{
	if (size < 24)
		return nmt_fail(err, errlen, "corrupt model: vmap section too small");
	v->max_n = nmt_rd32(data);
	v->n_zero = nmt_rd32(data + 4);
	v->n_slots = nmt_rd32(data + 8);
	v->n_payload = nmt_rd64(data + 16);
	if (v->max_n < 1 || v->max_n > NMT_VMAP_MAX_N || v->n_slots == 0 || v->n_slots > MAX_SLOTS ||
	    (v->n_slots & (v->n_slots - 1)) != 0 || v->n_zero > (uint32_t)tgt_vocab ||
	    v->n_payload > size)
		return nmt_fail(err, errlen, "corrupt model: vmap header out of range");
	uint64_t zero_bytes = ((uint64_t)v->n_zero + (v->n_zero & 1)) * 4;
	uint64_t need = 24 + zero_bytes + (uint64_t)v->n_slots * SLOT_SIZE + v->n_payload * 4;
	if (need != size)
		return nmt_fail(err, errlen, "corrupt model: vmap section is %llu bytes, its header implies %llu",
				(unsigned long long)size, (unsigned long long)need);
	v->zero = data + 24;
	v->slots = v->zero + zero_bytes;
	v->payload = v->slots + (size_t)v->n_slots * SLOT_SIZE;
	if (!ids_in_range(v->zero, v->n_zero, tgt_vocab) || !ids_in_range(v->payload, v->n_payload, tgt_vocab))
		return nmt_fail(err, errlen, "corrupt model: vmap names a target id outside the vocabulary");
	return check_slots(v, err, errlen);
}

void nmt_vmap_lookup(const nmt_vmap *v, const int32_t *ids, int n, const uint8_t **targets,
		     uint32_t *count)
{
	uint64_t key = nmt_vmap_hash(ids, n);
	uint32_t mask = v->n_slots - 1;

	for (uint32_t i = (uint32_t)key & mask;; i = (i + 1) & mask) {
		const uint8_t *s = v->slots + (size_t)i * SLOT_SIZE;
		uint64_t fp = nmt_rd64(s);
		if (fp == key) {
			*targets = v->payload + 4 * (size_t)nmt_rd32(s + 8);
			*count = nmt_rd32(s + 12);
			return;
		}
		if (fp == 0) {   /* open validated that an empty slot exists */
			*targets = NULL;
			*count = 0;
			return;
		}
	}
}

static void mark_all(const uint8_t *ids, uint32_t n, uint8_t *marks)
{
	for (uint32_t i = 0; i < n; i++)
		marks[nmt_rd32(ids + 4 * (size_t)i)] = 1;
}

int nmt_vmap_shortlist(const nmt_vmap *v, const int32_t *src, int len, int32_t eos_id,
		       int tgt_vocab, uint8_t *marks, int32_t *out)
{
	mark_all(v->zero, v->n_zero, marks);
	marks[eos_id] = 1;
	for (int n = 1; n <= (int)v->max_n; n++)
		for (int i = 0; i + n <= len; i++) {
			const uint8_t *t;
			uint32_t count;
			nmt_vmap_lookup(v, src + i, n, &t, &count);
			mark_all(t, count, marks);
		}
	int k = 0;
	for (int id = 0; id < tgt_vocab; id++)   /* collecting in id order sorts for free */
		if (marks[id]) {
			marks[id] = 0;
			out[k++] = id;
		}
	return k;
}
