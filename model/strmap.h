/* strmap.h: names to small integers, for lookups done many times in one pass.
 *
 * An open-addressing hash table keyed by C strings it does not own: the strings must
 * stay where they are while the map is used (names inside a design's arrays, between two
 * edits). strmap_add keeps the first value added under a name and returns it to later
 * adds, so a caller can chain repeated names itself. Lookups cost O(1) on average. */
#ifndef NCF_STRMAP_H
#define NCF_STRMAP_H
#include <stddef.h>

struct strmap_slot {
	const char *key;
	int val;
};

struct strmap {
	struct strmap_slot *v;
	size_t cap, n;
};

/* An empty map sized for about `expect` names. */
void strmap_init(struct strmap *m, size_t expect);
void strmap_free(struct strmap *m);
/* Map key to val unless key is mapped already; returns the value key maps to now. */
int strmap_add(struct strmap *m, const char *key, int val);
/* Map key to val, replacing what it mapped to (the new key string is kept). */
void strmap_set(struct strmap *m, const char *key, int val);
/* The value of key, or -1. */
int strmap_get(const struct strmap *m, const char *key);

#endif
