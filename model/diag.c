#include "model/diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static struct ncf_problem *push(struct ncf_diag *d, int sev)
{
	struct ncf_problem *p = vec_push(&d->items, sizeof *p);
	p->sev = sev;
	if (sev == NCF_ERROR)
		d->n_errors++;
	else
		d->n_warnings++;
	return p;
}

void diag_add(struct ncf_diag *d, int sev, const char *path, const char *fmt, ...)
{
	struct ncf_problem *p = push(d, sev);
	va_list ap;
	snprintf(p->path, sizeof p->path, "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof p->msg, fmt, ap);
	va_end(ap);
}

void diag_add_at(struct ncf_diag *d, int sev, int line, int col, const char *fmt, ...)
{
	struct ncf_problem *p = push(d, sev);
	va_list ap;
	p->line = line;
	p->col = col;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof p->msg, fmt, ap);
	va_end(ap);
}

void diag_append(struct ncf_diag *d, const struct ncf_diag *from)
{
	size_t i;
	for (i = 0; i < from->items.n; i++)
		*push(d, VEC_AT(from->items, struct ncf_problem, i).sev) = VEC_AT(from->items, struct ncf_problem, i);
}

const struct ncf_problem *diag_get(const struct ncf_diag *d, size_t i)
{
	return i < d->items.n ? &VEC_AT(d->items, struct ncf_problem, i) : NULL;
}

size_t diag_count(const struct ncf_diag *d)
{
	return d->items.n;
}

void diag_clear(struct ncf_diag *d)
{
	d->items.n = 0;
	d->n_errors = d->n_warnings = 0;
}

void diag_free(struct ncf_diag *d)
{
	vec_release(&d->items);
	d->n_errors = d->n_warnings = 0;
}

bool ncf_fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	if (err && errsz) {
		va_start(ap, fmt);
		vsnprintf(err, errsz, fmt, ap);
		va_end(ap);
	}
	return false;
}
