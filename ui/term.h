/* term.h: the terminal back end (term_curses.c, the only file that includes curses). */
#ifndef NCF_TERM_H
#define NCF_TERM_H
#include <stdbool.h>
#include "ui/app.h"

struct term_opts {
	bool ascii;     /* ASCII lines instead of UTF-8 box drawing */
	bool color;     /* colours when the terminal has them (NO_COLOR turns them off) */
	bool mouse;     /* report clicks, drags and the wheel */
};

/* Run the interactive loop on app until it quits. Returns 0, or 1 when the terminal
 * could not be used; on SIGHUP or SIGTERM unsaved work is written to a recovery file
 * and the path is put in recovered (empty if nothing needed saving). */
int term_run(struct app *app, const struct term_opts *o, char *recovered, size_t size);

#endif
