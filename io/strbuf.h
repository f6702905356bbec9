/* strbuf.h: a growable string (exports build whole files in memory, then write them
 * atomically). */
#ifndef NCF_STRBUF_H
#define NCF_STRBUF_H
#include <stddef.h>

struct strbuf {
	char *p;     /* NUL-terminated once anything was added; owned */
	size_t n, cap;
};

void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hand the string over (the caller frees it); b is left empty. Never NULL. */
char *sb_take(struct strbuf *b);

#endif
