/* history.c: patches between two states of a design (history.h). */
#include "model/history.h"
#include "model/alloc.h"
#include <stdlib.h>
#include <string.h>

struct patch_run {
	size_t list;           /* which list (lists_of order) */
	size_t start, here;    /* elements [start, start + here) of the design it applies to */
	struct vec elems;      /* what they become */
};

#define LISTS_MAX 32    /* the design has 13; lists_of stops the program past this */

struct list_ref {
	size_t off;            /* of the struct vec inside struct design */
	const struct schema *s; /* its elements' */
};

/* Every list of the design's schema, nested structs included, in schema order. A list
 * left out would be left out of undo: more than LISTS_MAX is a programming error. */
static size_t lists_of(const struct schema *s, size_t base, struct list_ref *out, size_t n)
{
	size_t i;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST && n == LISTS_MAX)
			abort();
		if (f->type == FT_LIST)
			out[n++] = (struct list_ref){ base + f->off, f->sub };
		else if (f->type == FT_STRUCT)
			n = lists_of(f->sub, base + f->off, out, n);
	}
	return n;
}

static struct vec *list_at(struct design *d, const struct list_ref *l)
{
	return (struct vec *)((char *)d + l->off);
}

static const struct vec *list_at_const(const struct design *d, const struct list_ref *l)
{
	return (const struct vec *)((const char *)d + l->off);
}

/* Bytes an element holds, itself and what it owns. */
static size_t owned_bytes(const struct schema *s, const void *el)
{
	size_t i, j, n = 0;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST) {
			const struct vec *v = (const struct vec *)((const char *)el + f->off);
			n += v->cap * f->sub->size;
			for (j = 0; j < v->n; j++)
				n += owned_bytes(f->sub, (const char *)v->v + j * f->sub->size) - f->sub->size;
		} else if (f->type == FT_STRUCT) {
			n += owned_bytes(f->sub, (const char *)el + f->off) - f->sub->size;
		}
	}
	return n + s->size;
}

/* Same element: the same bytes, but for the pointers of the lists it owns, whose elements
 * must be the same in turn. Stricter than schema_equal (an id, and bytes after a string's
 * end, count too), which costs at most a run kept that did not need to be: an element and
 * its copy, the only pairs compared here, are byte for byte alike. */
static bool same_element(const struct schema *s, const void *a, const void *b)
{
	const char *x = a, *y = b;
	size_t at = 0, i, j, lists[8], nl = 0;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_STRUCT || (f->type == FT_LIST && nl == 8))
			return schema_equal(s, a, b) && !memcmp(a, b, s->nfields ? s->fields[0].off : 0);
		if (f->type == FT_LIST) {
			/* keep the lists in the order of their offsets (a field table need not be) */
			for (j = nl++; j > 0 && s->fields[lists[j - 1]].off > f->off; j--)
				lists[j] = lists[j - 1];
			lists[j] = i;
		}
	}
	for (i = 0; i < nl; i++) {
		const struct field *f = &s->fields[lists[i]];
		const struct vec *va = (const struct vec *)(x + f->off), *vb = (const struct vec *)(y + f->off);
		if (memcmp(x + at, y + at, f->off - at) || va->n != vb->n)
			return false;
		for (j = 0; j < va->n; j++)
			if (!same_element(f->sub, (const char *)va->v + j * f->sub->size, (const char *)vb->v + j * f->sub->size))
				return false;
		at = f->off + sizeof(struct vec);
	}
	return !memcmp(x + at, y + at, s->size - at);
}

/* Move elements [start, start + n) out of v into a new vec. */
static struct vec take(struct vec *v, size_t size, size_t start, size_t n)
{
	struct vec out = { NULL, 0, 0 };
	if (!n)
		return out;
	vec_own(v, size);
	out.v = xmalloc(n * size);
	out.n = out.cap = n;
	memcpy(out.v, (char *)v->v + start * size, n * size);
	memmove((char *)v->v + start * size, (char *)v->v + (start + n) * size, (v->n - start - n) * size);
	v->n -= n;
	return out;
}

/* Open a gap of n elements at start; returns its first element. */
static void *gap(struct vec *v, size_t size, size_t start, size_t n)
{
	vec_own(v, size);
	if (v->n + n > v->cap) {
		size_t cap = v->cap ? v->cap : 4;
		while (cap < v->n + n)
			cap *= 2;
		v->v = xrealloc(v->v, cap * size);
		v->cap = cap;
	}
	memmove((char *)v->v + (start + n) * size, (char *)v->v + start * size, (v->n - start) * size);
	v->n += n;
	return (char *)v->v + start * size;
}

/* The design's bytes with every list emptied: what the scalar fields are. */
static void head_image(const struct design *d, const struct list_ref *l, size_t nl, struct design *out)
{
	size_t i;
	memcpy(out, d, sizeof *out);
	for (i = 0; i < nl; i++)
		memset((char *)out + l[i].off, 0, sizeof(struct vec));
}

/* Put the scalar bytes of src into d, keeping d's lists. */
static void head_put(struct design *d, const struct design *src, const struct list_ref *l, size_t nl)
{
	struct vec keep[LISTS_MAX];
	size_t i;
	for (i = 0; i < nl; i++)
		keep[i] = *list_at(d, &l[i]);
	memcpy(d, src, sizeof *d);
	for (i = 0; i < nl; i++)
		*list_at(d, &l[i]) = keep[i];
}

static void run_push(struct patch *p, size_t list, size_t start, size_t here, struct vec elems,
		     const struct schema *s)
{
	struct patch_run *r = vec_push(&p->runs, sizeof *r);
	size_t i;
	r->list = list;
	r->start = start;
	r->here = here;
	r->elems = elems;
	p->bytes += sizeof *r;
	for (i = 0; i < elems.n; i++)
		p->bytes += owned_bytes(s, (char *)elems.v + i * s->size);
}

/* a's elements [start, start + na) replaced by copies of b's [start, start + nb). */
static void replace_run(struct patch *p, size_t li, const struct list_ref *l, struct vec *av, const struct vec *bv,
			size_t start, size_t na, size_t nb)
{
	size_t size = l->s->size, i;
	struct vec out = take(av, size, start, na);
	char *at = gap(av, size, start, nb);
	for (i = 0; i < nb; i++)
		schema_copy(l->s, at + i * size, (const char *)bv->v + (start + i) * size);
	run_push(p, li, start, nb, out, l->s);
}

bool patch_make(struct design *a, const struct design *b, struct patch *p)
{
	struct list_ref l[LISTS_MAX];
	size_t nl = lists_of(&design_schema, 0, l, 0), li;
	struct design *ha = xmalloc(sizeof *ha), *hb = xmalloc(sizeof *hb);
	memset(p, 0, sizeof *p);
	head_image(a, l, nl, ha);
	head_image(b, l, nl, hb);
	if (memcmp(ha, hb, sizeof *ha)) {
		p->head = ha;
		p->bytes += sizeof *ha;
		head_put(a, b, l, nl);
	} else {
		free(ha);
	}
	free(hb);
	for (li = 0; li < nl; li++) {
		struct vec *av = list_at(a, &l[li]);
		const struct vec *bv = list_at_const(b, &l[li]);
		size_t size = l[li].s->size, i, pre, suf;
		if (av->n == bv->n) {
			/* Same length: each run of differing elements on its own. */
			for (i = 0; i < av->n;) {
				size_t j = i;
				while (j < av->n && !same_element(l[li].s, (char *)av->v + j * size, (const char *)bv->v + j * size))
					j++;
				if (j > i) {
					replace_run(p, li, &l[li], av, bv, i, j - i, j - i);
					i = j;
				} else {
					i++;
				}
			}
			continue;
		}
		/* Elements added or removed: one run between the common prefix and suffix. */
		for (pre = 0; pre < av->n && pre < bv->n &&
			      same_element(l[li].s, (char *)av->v + pre * size, (const char *)bv->v + pre * size);
		     pre++)
			;
		for (suf = 0; suf < av->n - pre && suf < bv->n - pre &&
			      same_element(l[li].s, (char *)av->v + (av->n - 1 - suf) * size,
					   (const char *)bv->v + (bv->n - 1 - suf) * size);
		     suf++)
			;
		replace_run(p, li, &l[li], av, bv, pre, av->n - pre - suf, bv->n - pre - suf);
	}
	if (!p->head && !p->runs.n) {
		vec_release(&p->runs);
		return false;
	}
	p->bytes += sizeof *p;
	return true;
}

bool patch_apply(struct design *d, struct patch *p)
{
	struct list_ref l[LISTS_MAX];
	size_t nl = lists_of(&design_schema, 0, l, 0), i;
	/* Every run must lie inside its list (a design changed another way may not fit). */
	for (i = 0; i < p->runs.n; i++) {
		const struct patch_run *r = &VEC_AT(p->runs, struct patch_run, i);
		if (r->list >= nl || r->start + r->here > list_at(d, &l[r->list])->n)
			return false;
	}
	if (p->head) {
		struct design *mine = xmalloc(sizeof *mine);
		head_image(d, l, nl, mine);
		head_put(d, p->head, l, nl);
		free(p->head);
		p->head = mine;
	}
	for (i = 0; i < p->runs.n; i++) {
		struct patch_run *r = &VEC_AT(p->runs, struct patch_run, i);
		const struct list_ref *lr = &l[r->list];
		struct vec *v = list_at(d, lr);
		size_t size = lr->s->size;
		struct vec out = take(v, size, r->start, r->here);
		if (r->elems.n)
			memcpy(gap(v, size, r->start, r->elems.n), r->elems.v, r->elems.n * size);
		r->here = r->elems.n;
		vec_release(&r->elems);
		r->elems = out;
	}
	/* The bytes held change with the side held: count them again. */
	p->bytes = sizeof *p + (p->head ? sizeof *p->head : 0);
	for (i = 0; i < p->runs.n; i++) {
		const struct patch_run *r = &VEC_AT(p->runs, struct patch_run, i);
		size_t k;
		p->bytes += sizeof *r;
		for (k = 0; k < r->elems.n; k++)
			p->bytes += owned_bytes(l[r->list].s, (const char *)r->elems.v + k * l[r->list].s->size);
	}
	return true;
}

void patch_free(struct patch *p)
{
	struct list_ref l[LISTS_MAX];
	size_t nl = lists_of(&design_schema, 0, l, 0), i, k;
	(void)nl;
	for (i = 0; i < p->runs.n; i++) {
		struct patch_run *r = &VEC_AT(p->runs, struct patch_run, i);
		for (k = 0; k < r->elems.n; k++)
			schema_free(l[r->list].s, (char *)r->elems.v + k * l[r->list].s->size);
		vec_release(&r->elems);
	}
	vec_release(&p->runs);
	free(p->head);
	memset(p, 0, sizeof *p);
}
