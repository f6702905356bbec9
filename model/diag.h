/* diag.h: problems found in a design or a file, collected rather than printed.
 *
 * A problem has a severity, a path naming where it is ("servers[0].nics[1].count", the
 * same path a file loader can turn into FILE:LINE:COL), and a one-line message. Nothing in
 * model/ prints: callers decide how to show problems (stderr, the status line, JSON). */
#ifndef NCF_DIAG_H
#define NCF_DIAG_H
#include "model/vec.h"
#include <stdbool.h>
#include <stddef.h>

enum ncf_sev { NCF_ERROR, NCF_WARNING };

struct ncf_problem {
	int sev;
	char path[128];
	char msg[320];
	int line, col; /* 1-based position in a file, 0 when unknown */
};

struct ncf_diag {
	struct vec items; /* struct ncf_problem */
	int n_errors, n_warnings;
};

#if defined(__GNUC__)
#define NCF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NCF_PRINTF(a, b)
#endif

void diag_add(struct ncf_diag *d, int sev, const char *path, const char *fmt, ...) NCF_PRINTF(4, 5);
void diag_add_at(struct ncf_diag *d, int sev, int line, int col, const char *fmt, ...) NCF_PRINTF(5, 6);
/* Add a copy of every problem of from to d. */
void diag_append(struct ncf_diag *d, const struct ncf_diag *from);
const struct ncf_problem *diag_get(const struct ncf_diag *d, size_t i);
size_t diag_count(const struct ncf_diag *d);
void diag_clear(struct ncf_diag *d);
void diag_free(struct ncf_diag *d);
/* For functions that return false with why as text: the message into err (when err is not
 * NULL and errsz not 0), and false. */
bool ncf_fail(char *err, size_t errsz, const char *fmt, ...) NCF_PRINTF(3, 4);

#endif
