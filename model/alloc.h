/* alloc.h: ncfabric's out-of-memory policy.
 *
 * Inside the program an allocation failure is not recoverable in any useful way (the
 * design is tiny; if a few kilobytes cannot be had the machine is in trouble), so the
 * x* helpers abort with a message instead of returning NULL. Code that must survive
 * hostile sizes checks the size against the documented limits before allocating. */
#ifndef NCF_ALLOC_H
#define NCF_ALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Copy of the first n bytes of s, NUL-terminated. */
char *xstrdup_len(const char *s, size_t n);
/* For a process that recomputes the model again and again (the designer, the benchmark):
 * memory freed stays in the process, up to 64 MB, instead of going back to the kernel at
 * each free and being faulted in again page by page at the next recompute (a graph of
 * 1,000 groups frees and makes again hundreds of KB per recompute). Blocks under 32 MB
 * come from the heap. glibc's mallopt; nothing elsewhere. Call it first thing in main. */
void alloc_keep_freed(void);

#endif
