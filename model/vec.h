/* vec.h: a growable array of fixed-size elements, owned by whoever holds the struct vec.
 *
 * The design's groups, bundles, NIC entries and catalog entries are all vecs: a design is
 * a handful of arrays, not a graph of pointers, so it copies, compares and frees by walking
 * its schema (schema.h). Elements are addressed by index; pointers into a vec are valid
 * only until the next push.
 *
 * A vec may borrow its elements instead: n of them at v, read-only storage it does not own
 * and must not free (the built-in catalog's parts, io/builtin.h), marked by cap 0; they own
 * nothing in turn (schema_free leaves them alone) and may not even be written. Push and
 * remove copy them into storage of its own first; release forgets them. Whoever writes an
 * element in place must make sure the vec owns them (vec_own). */
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
/* Free the storage (not what elements own: see schema_free); a borrowed vec's is only
 * forgotten. */
void vec_release(struct vec *vec);
/* Elements a vec borrows (cap 0, n > 0). */
#define vec_borrowed(vec) ((vec)->cap == 0 && (vec)->n > 0)
/* Make a borrowed vec own a copy of its elements (the elements' own lists stay as they
 * are); nothing for a vec that owns them already. */
void vec_own(struct vec *vec, size_t elsize);

#endif
