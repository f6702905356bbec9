#include "model/vec.h"
#include "model/alloc.h"
#include <string.h>
#include <stdlib.h>

#ifndef VEC_MIN_CAP
#define VEC_MIN_CAP 4
#endif

/* A borrowed vec's elements copied into storage of its own, room for cap. */
static void own(struct vec *vec, size_t elsize, size_t cap)
{
	void *v = xmalloc(cap * elsize);
	memcpy(v, vec->v, vec->n * elsize);
	vec->v = v;
	vec->cap = cap;
}

void *vec_push(struct vec *vec, size_t elsize)
{
	char *el;
	if (vec->n >= vec->cap) {
		if (vec_borrowed(vec)) {
			own(vec, elsize, vec->n * 2);
		} else {
			size_t cap = vec->cap ? vec->cap * 2 : VEC_MIN_CAP;
			vec->v = xrealloc(vec->v, cap * elsize);
			vec->cap = cap;
		}
	}
	el = (char *)vec->v + vec->n * elsize;
	memset(el, 0, elsize);
	vec->n++;
	return el;
}

void vec_remove(struct vec *vec, size_t elsize, size_t i)
{
	char *base;
	if (i >= vec->n)
		return;
	if (vec_borrowed(vec))
		own(vec, elsize, vec->n);
	base = vec->v;
	memmove(base + i * elsize, base + (i + 1) * elsize, (vec->n - i - 1) * elsize);
	vec->n--;
}

void vec_release(struct vec *vec)
{
	if (!vec_borrowed(vec))
		free(vec->v);
	vec->v = NULL;
	vec->n = vec->cap = 0;
}

void vec_own(struct vec *vec, size_t elsize)
{
	if (vec_borrowed(vec))
		own(vec, elsize, vec->n);
}
