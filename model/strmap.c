#include "model/strmap.h"
#include "model/alloc.h"
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s)
{
	unsigned long long h = 14695981039346656037ull; /* FNV-1a */
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (size_t)h;
}

void strmap_init(struct strmap *m, size_t expect)
{
	m->cap = 16;
	while (m->cap < expect * 2)
		m->cap *= 2;
	m->n = 0;
	m->v = xcalloc(m->cap, sizeof *m->v);
}

void strmap_free(struct strmap *m)
{
	free(m->v);
	m->v = NULL;
	m->cap = m->n = 0;
}

static void grow(struct strmap *m)
{
	struct strmap_slot *old = m->v;
	size_t cap = m->cap, i;
	m->cap *= 2;
	m->v = xcalloc(m->cap, sizeof *m->v);
	for (i = 0; i < cap; i++)
		if (old[i].key) {
			size_t j = hash(old[i].key) & (m->cap - 1);
			while (m->v[j].key)
				j = (j + 1) & (m->cap - 1);
			m->v[j] = old[i];
		}
	free(old);
}

int strmap_add(struct strmap *m, const char *key, int val)
{
	size_t j;
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	j = hash(key) & (m->cap - 1);
	while (m->v[j].key) {
		if (!strcmp(m->v[j].key, key))
			return m->v[j].val;
		j = (j + 1) & (m->cap - 1);
	}
	m->v[j].key = key;
	m->v[j].val = val;
	m->n++;
	return val;
}

void strmap_set(struct strmap *m, const char *key, int val)
{
	size_t j;
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	j = hash(key) & (m->cap - 1);
	while (m->v[j].key && strcmp(m->v[j].key, key))
		j = (j + 1) & (m->cap - 1);
	if (!m->v[j].key)
		m->n++;
	m->v[j].key = key;
	m->v[j].val = val;
}

int strmap_get(const struct strmap *m, const char *key)
{
	size_t j;
	if (!m->cap)
		return -1;
	j = hash(key) & (m->cap - 1);
	while (m->v[j].key) {
		if (!strcmp(m->v[j].key, key))
			return m->v[j].val;
		j = (j + 1) & (m->cap - 1);
	}
	return -1;
}
