#include "io/strbuf.h"
#include "model/alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int need;
	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0)
		return;
	if (b->n + (size_t)need + 1 > b->cap) {
		b->cap = (b->n + (size_t)need + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	b->n += (size_t)need;
}

char *sb_take(struct strbuf *b)
{
	char *p = b->p ? b->p : xstrdup("");
	b->p = NULL;
	b->n = b->cap = 0;
	return p;
}
