#include "vmap.h"

#include "../common/error.h"
#include "../format/format.h"

#define MAX_SLOTS (1u << 30)
#define HEADER_BYTES 24

uint64_t engine_vmap_hash(const int32_t *ids, int n)
{
	uint64_t h = 14695981039346656037ull;
	for (int i = 0; i < n; i++)
		for (int b = 0; b < 4; b++) {
			h ^= (uint8_t)((uint32_t)ids[i] >> (8 * b));
			h *= 1099511628211ull;
		}
	return h;
}

static int ids_in_range(const uint8_t *p, uint32_t id_bytes, uint64_t first, uint64_t n, int tgt_vocab)
{
	for (uint64_t i = first; i < first + n; i++)
		if (engine_vmap_value(p, id_bytes, i) >= (uint32_t)tgt_vocab)
			return 0;
	return 1;
}

/* The largest value of the payload (ids and list counts alike): one pass
 * over the array, which the compiler vectorizes. */
static uint32_t payload_max(const engine_vmap *v)
{
	const uint8_t *p = v->payload;
	uint32_t max = 0;
	if (v->id_bytes == 2) {
		for (uint64_t i = 0; i < v->n_payload; i++) {
			uint32_t x = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
			max = x > max ? x : max;
		}
	} else {
		for (uint64_t i = 0; i < v->n_payload; i++) {
			uint32_t x = format_rd32(p + 4 * i);
			max = x > max ? x : max;
		}
	}
	return max;
}

/* Every used slot's list inside the payload with ids inside the vocabulary,
 * and at least one empty slot so that a probe for an absent key ends. When
 * every value of the payload is below tgt_vocab, no id can be outside it
 * and the lists need not be read one by one (that pass was most of the
 * time from exec to the first translated line). */
static int check_slots(const engine_vmap *v, int tgt_vocab, char *err, size_t errlen)
{
	int ids_known_good = payload_max(v) < (uint32_t)tgt_vocab;
	uint32_t empty = 0;
	for (uint32_t i = 0; i < v->n_slots; i++) {
		const uint8_t *s = v->slots + (size_t)i * ENGINE_VMAP_SLOT_BYTES;
		uint64_t off = format_rd32(s + 4);
		if (format_rd32(s) == 0) {
			empty++;
			continue;
		}
		if (off >= v->n_payload || off + 1 + engine_vmap_value(v->payload, v->id_bytes, off) > v->n_payload)
			return error_set(err, errlen, "corrupt model: vmap slot %u points outside its payload", i);
		if (!ids_known_good &&
		    !ids_in_range(v->payload, v->id_bytes, off + 1, engine_vmap_value(v->payload, v->id_bytes, off),
				  tgt_vocab))
			return error_set(err, errlen, "corrupt model: vmap names a target id outside the vocabulary");
	}
	if (empty == 0)
		return error_set(err, errlen, "corrupt model: vmap hash table has no empty slot");
	return 0;
}

int engine_vmap_open(const uint8_t *data, uint64_t size, int tgt_vocab, engine_vmap *v,
		  char *err, size_t errlen)
{
	if (size < HEADER_BYTES)
		return error_set(err, errlen, "corrupt model: vmap section too small");
	v->max_n = format_rd32(data);
	v->n_zero = format_rd32(data + 4);
	v->n_slots = format_rd32(data + 8);
	v->id_bytes = format_rd32(data + 12);
	v->n_payload = format_rd64(data + 16);
	if (v->max_n < 1 || v->max_n > ENGINE_VMAP_MAX_N || v->n_slots == 0 || v->n_slots > MAX_SLOTS ||
	    (v->n_slots & (v->n_slots - 1)) != 0 || v->n_zero > (uint32_t)tgt_vocab ||
	    (v->id_bytes != 2 && v->id_bytes != 4) || (v->id_bytes == 2 && tgt_vocab > 65535) ||
	    v->n_payload > size)
		return error_set(err, errlen, "corrupt model: vmap header out of range");
	uint64_t zero_bytes = ((uint64_t)v->n_zero * v->id_bytes + 3) / 4 * 4;
	uint64_t need = HEADER_BYTES + zero_bytes + (uint64_t)v->n_slots * ENGINE_VMAP_SLOT_BYTES +
			v->n_payload * v->id_bytes;
	if (need != size)
		return error_set(err, errlen, "corrupt model: vmap section is %llu bytes, its header implies %llu",
				(unsigned long long)size, (unsigned long long)need);
	v->zero = data + HEADER_BYTES;
	v->slots = v->zero + zero_bytes;
	v->payload = v->slots + (size_t)v->n_slots * ENGINE_VMAP_SLOT_BYTES;
	if (!ids_in_range(v->zero, v->id_bytes, 0, v->n_zero, tgt_vocab))
		return error_set(err, errlen, "corrupt model: vmap names a target id outside the vocabulary");
	return check_slots(v, tgt_vocab, err, errlen);
}

void engine_vmap_lookup(const engine_vmap *v, const int32_t *ids, int n, const uint8_t **targets,
		     uint32_t *count)
{
	uint64_t hash = engine_vmap_hash(ids, n);
	uint32_t fp = engine_vmap_fingerprint(hash), mask = v->n_slots - 1;

	for (uint32_t i = engine_vmap_home(hash, v->n_slots);; i = (i + 1) & mask) {
		const uint8_t *s = v->slots + (size_t)i * ENGINE_VMAP_SLOT_BYTES;
		uint32_t slot_fp = format_rd32(s);
		if (slot_fp == fp) {
			uint32_t off = format_rd32(s + 4);
			*count = engine_vmap_value(v->payload, v->id_bytes, off);
			*targets = v->payload + (size_t)v->id_bytes * (off + 1);
			return;
		}
		if (slot_fp == 0) {   /* open validated that an empty slot exists */
			*targets = NULL;
			*count = 0;
			return;
		}
	}
}

static void mark_all(const uint8_t *ids, uint32_t id_bytes, uint32_t n, uint8_t *marks)
{
	for (uint32_t i = 0; i < n; i++)
		marks[engine_vmap_value(ids, id_bytes, i)] = 1;
}

int engine_vmap_shortlist(const engine_vmap *v, const int32_t *src, int len, int32_t eos_id,
		       int tgt_vocab, uint8_t *marks, int32_t *out)
{
	mark_all(v->zero, v->id_bytes, v->n_zero, marks);
	marks[eos_id] = 1;
	for (int n = 1; n <= (int)v->max_n; n++)
		for (int i = 0; i + n <= len; i++) {
			const uint8_t *t;
			uint32_t count;
			engine_vmap_lookup(v, src + i, n, &t, &count);
			mark_all(t, v->id_bytes, count, marks);
		}
	int k = 0;
	for (int id = 0; id < tgt_vocab; id++)   /* collecting in id order sorts for free */
		if (marks[id]) {
			marks[id] = 0;
			out[k++] = id;
		}
	return k;
}
