/* vec.h: a growable array of fixed-size elements, owned by whoever holds the struct vec.
 *
 * The design's groups, bundles, NIC entries and catalog entries are all vecs: a design is
 * a handful of arrays, not a graph of pointers, so it copies, compares and frees by walking
 * its schema (schema.h). Elements are addressed by index; pointers into a vec are valid
 * only until the next push. */
#ifndef NCF_VEC_H
#define NCF_VEC_H
#include <stddef.h>

struct vec {
	void *v;
	size_t n, cap;
};

#define VEC_AT(vec, T, i) (((T *)(vec).v)[i])

/* Append one zeroed element of size elsize and return it. */
void *vec_push(struct vec *vec, size_t elsize);
/* Remove element i, shifting the rest down (order is kept: files round-trip). */
void vec_remove(struct vec *vec, size_t elsize, size_t i);
/* Free the storage (not what elements own: see schema_free). */
void vec_release(struct vec *vec);

#endif
