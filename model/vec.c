#include "model/vec.h"
#include "model/alloc.h"
#include <string.h>
#include <stdlib.h>

#ifndef VEC_MIN_CAP
#define VEC_MIN_CAP 4
#endif

void *vec_push(struct vec *vec, size_t elsize)
{
	char *el;
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : VEC_MIN_CAP;
		vec->v = xrealloc(vec->v, cap * elsize);
		vec->cap = cap;
	}
	el = (char *)vec->v + vec->n * elsize;
	memset(el, 0, elsize);
	vec->n++;
	return el;
}

void vec_remove(struct vec *vec, size_t elsize, size_t i)
{
	char *base = vec->v;
	if (i >= vec->n)
		return;
	memmove(base + i * elsize, base + (i + 1) * elsize, (vec->n - i - 1) * elsize);
	vec->n--;
}

void vec_release(struct vec *vec)
{
	free(vec->v);
	vec->v = NULL;
	vec->n = vec->cap = 0;
}
