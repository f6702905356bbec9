/* script.h: the designer without a terminal, driven by a script (--script FILE).
 *
 * A script has one step per line: a key sequence in a small notation (letters as they
 * are; <Enter> <Esc> <Tab> <S-Tab> <Up> <Down> <Left> <Right> <BS> <F1> <C-r> <C-l>
 * <Space>), "@action-name" to run an action, ":command" to run a command line,
 * "size WxH" to resize the screen, "click X Y" / "drag X1 Y1 X2 Y2" for the mouse, and
 * '#' comments. After the last step the screen is written as text. */
#ifndef NCF_SCRIPT_H
#define NCF_SCRIPT_H
#include <stdio.h>
#include "ui/app.h"

/* Run script text on app with a w x h screen; the final screen goes to dump (may be
 * NULL). Returns 0, or 2 with a message in err for a bad step (naming its line). */
int script_run(struct app *app, const char *text, int w, int h, FILE *dump, char *err, size_t errsz);

#endif
