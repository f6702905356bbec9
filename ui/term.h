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

/* Run the interactive loop on app until it quits. Returns the exit status: 0; 1 when the
 * terminal could not be used; 128 + the signal when SIGHUP or SIGTERM ended it (or a lost
 * terminal: 129); 130 when the quit began with Ctrl-C (SIGINT is read as the key C-c, which
 * asks like q); 1 too when unsaved work could be written nowhere. Unsaved work is written to
 * a recovery file (recover.h) when a signal or a lost terminal ends the program, or a second
 * Ctrl-C answers the quit question, and what became of it is put in recovered ("unsaved
 * changes written to PATH", empty if nothing needed saving). A signal that comes while the
 * model computes is answered at once, from the handler (recover.h). */
int term_run(struct app *app, const struct term_opts *o, char *recovered, size_t size);

#endif
