/* recover.h: recovery files, the unsaved work the designer writes when it cannot ask (a
 * dropped connection, SIGTERM, a terminal that went away).
 *
 * Where. A design's recovery file is FILE.recover beside it. When that cannot be written
 * (a full disk, a read-only directory), it goes to the state directory,
 * $XDG_STATE_HOME/ncfabric/ (~/.local/state/ncfabric/ when that is not set), named after
 * the design's absolute path with '/' written as '%', as vim names its swap files:
 * ~/.local/state/ncfabric/%home%ann%pod.yaml.recover. The built-in design has no file: its
 * recovery file is always ~/.local/state/ncfabric/default.recover.
 *
 * One per instance. A write takes the first free name of NAME, NAME-2, ... NAME-99: the
 * text goes to a temporary file that is then hard-linked to the name, which never
 * replaces an existing file. Two designers on one file, or two sessions of the built-in
 * design, never overwrite each other's work, and the next start offers every one
 * (recover_find).
 *
 * During a computation. The model may compute for a long time (a design the model finds
 * hard); the designer must still answer SIGHUP and SIGTERM. Before each recompute the
 * designer hands the unsaved work to recover_compute_begin as text; a signal that comes
 * while the model computes then writes that text from the signal handler, with
 * async-signal-safe calls only (open, write, fsync, link, mkdir, tcsetattr, _exit), puts
 * the terminal back as it was, says on stderr where the work went, and exits. Outside a
 * computation a signal only sets a flag, and the main loop saves normally. */
#ifndef NCF_RECOVER_H
#define NCF_RECOVER_H
#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

#define RECOVER_PATH 1200
#define RECOVER_MAX 16     /* recovery files offered at one start */

/* The recovery files of `file` ("" or NULL: the built-in design) that this user can read,
 * beside it and in the state directory, oldest first. Returns how many (at most max). */
int recover_find(const char *file, char paths[][RECOVER_PATH], int max);

/* Write text as a new recovery file of `file`: beside it first, then in the state
 * directory. True with the path in where (and, when the first place failed, why in err);
 * false with every place tried and why in err. */
bool recover_write(const char *file, const char *text, size_t len, char *where, size_t wsz, char *err, size_t esz);

/* The state directory ($XDG_STATE_HOME/ncfabric or ~/.local/state/ncfabric) into out;
 * false when neither variable gives an absolute path. */
bool recover_state_dir(char *out, size_t size);

/* ---- the signal path (used by the terminal back end) ---------------------------------- */

/* Arm the signal path: the bytes that put the terminal back (curses' exit sequences) and
 * the terminal modes from before curses started. */
void recover_arm(const char *exit_seq, const struct termios *modes);
void recover_disarm(void);
/* Called at the start and the end of every recompute. text: the unsaved work as it
 * would be saved (NULL when there is none), for `file`. */
void recover_compute_begin(const char *file, const char *text);
void recover_compute_end(void);
bool recover_armed(void);
/* From the signal handler: notes sig, and if the model is computing, writes the work,
 * restores the terminal and exits (128 + sig, or 1 if the work could not be written). */
void recover_on_signal(int sig);

/* ---- the designer's side --------------------------------------------------------------- */

struct app;
/* recover_compute_begin with the user's unsaved work (app_work), when armed. */
void recover_app_begin(const struct app *app);
/* After the loop ends on a signal or a lost terminal: write the user's unsaved work
 * (nothing if there is none). msg gets "unsaved changes written to PATH" (with why the
 * first place failed, if it did) or "unsaved changes could not be written (...): they
 * are lost", or stays empty. Returns 0, or 1 when the work could not be written. */
int recover_save_app(const struct app *app, char *msg, size_t size);

#endif
