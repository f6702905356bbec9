#include "io/tree.h"
#include "model/alloc.h"
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct tnode *tnode_new(enum tkind kind, int line, int col)
{
	struct tnode *n = xcalloc(1, sizeof *n);
	n->kind = kind;
	n->line = line;
	n->col = col;
	return n;
}

struct tnode *tnode_scalar(const char *text, bool quoted)
{
	struct tnode *n = tnode_new(TN_SCALAR, 0, 0);
	n->text = xstrdup(text);
	n->quoted = quoted;
	return n;
}

void tnode_add(struct tnode *p, const char *key, int kline, int kcol, struct tnode *child)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->kids = xrealloc(p->kids, p->cap * sizeof *p->kids);
		if (p->kind == TN_MAP) {
			p->keys = xrealloc(p->keys, p->cap * sizeof *p->keys);
			p->kline = xrealloc(p->kline, p->cap * sizeof *p->kline);
			p->kcol = xrealloc(p->kcol, p->cap * sizeof *p->kcol);
		}
	}
	if (p->kind == TN_MAP) {
		p->keys[p->n] = xstrdup(key ? key : "");
		p->kline[p->n] = kline;
		p->kcol[p->n] = kcol;
	}
	p->kids[p->n++] = child;
}

struct tnode *tnode_get(const struct tnode *map, const char *key, size_t *idx)
{
	size_t i;
	if (!map || map->kind != TN_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (strcmp(map->keys[i], key) == 0) {
			if (idx)
				*idx = i;
			return map->kids[i];
		}
	return NULL;
}

void tnode_free(struct tnode *n)
{
	size_t i;
	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		tnode_free(n->kids[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->kids);
	free(n->keys);
	free(n->kline);
	free(n->kcol);
	free(n->text);
	free(n);
}

static const struct tnode *sort_map;

static int by_key(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_map->keys[i], sort_map->keys[j]);
	return c ? c : (i > j) - (i < j);
}

bool tnode_find_duplicate(const struct tnode *map, size_t *first, size_t *dup)
{
	size_t *ix, i, best = SIZE_MAX, best_first = 0;
	if (!map || map->kind != TN_MAP || map->n < 2)
		return false;
	ix = xmalloc(map->n * sizeof *ix);
	for (i = 0; i < map->n; i++)
		ix[i] = i;
	sort_map = map;
	qsort(ix, map->n, sizeof *ix, by_key);
	sort_map = NULL;
	/* In a run of equal keys the second in file order is the first repeat. */
	for (i = 1; i < map->n; i++)
		if (strcmp(map->keys[ix[i]], map->keys[ix[i - 1]]) == 0 &&
		    (i < 2 || strcmp(map->keys[ix[i - 1]], map->keys[ix[i - 2]]) != 0) && ix[i] < best) {
			best = ix[i];
			best_first = ix[i - 1];
		}
	free(ix);
	if (best == SIZE_MAX)
		return false;
	*first = best_first;
	*dup = best;
	return true;
}

bool tnode_locate(const struct tnode *root, const char *path, int *line, int *col)
{
	const struct tnode *cur = root;
	const char *p = path;
	bool found = false;
	if (root && root->line) {
		*line = root->line;
		*col = root->col;
		found = true;
	}
	while (cur && *p) {
		char key[64];
		size_t n = strcspn(p, ".[");
		if (n > 0 && n < sizeof key) {
			size_t idx;
			const struct tnode *next;
			memcpy(key, p, n);
			key[n] = '\0';
			next = tnode_get(cur, key, &idx);
			if (!next)
				break;
			/* A scalar value is found where it stands; a block where its key does. */
			*line = next->kind == TN_SCALAR ? next->line : cur->kline[idx];
			*col = next->kind == TN_SCALAR ? next->col : cur->kcol[idx];
			found = *line > 0;
			cur = next;
			p += n;
		}
		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);
			if (*end != ']' || cur->kind != TN_SEQ || i >= cur->n)
				break;
			cur = cur->kids[i];
			*line = cur->line;
			*col = cur->col;
			found = *line > 0;
			p = end + 1;
		}
		if (*p == '.')
			p++;
		else if (*p && *p != '[')
			break;
	}
	return found;
}
