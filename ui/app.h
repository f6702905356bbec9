/* app.h: the interactive program's state, its actions and its key table.
 *
 * One loop drives the program: wait for a key, map it through the key table to a named
 * action, run the action (it changes state through model/cmd.h and returns a change
 * mask), recompute what the mask says, paint the whole screen from state. Actions never
 * draw; drawing (app_draw) never changes state. The key table is the single list of keys:
 * dispatch, the help screen and the status line are all generated from it. */
#ifndef NCF_APP_H
#define NCF_APP_H
#include <stdbool.h>
#include "model/cmd.h"
#include "model/inventory.h"
#include "model/metrics.h"
#include "ui/cellbuf.h"

/* Key codes the back end delivers (curses codes are translated in term_curses.c). */
enum {
	NK_UP = 0x110000, NK_DOWN, NK_LEFT, NK_RIGHT, NK_ENTER, NK_ESC, NK_TAB, NK_F1, NK_RESIZE,
	NK_CTRL_R = 0x12, NK_CTRL_L = 0x0c
};

/* Change mask returned by actions. */
#define CHG_NONE 0u
#define CHG_MODEL 1u   /* recompute derived data */
#define CHG_VIEW 2u    /* selection, messages */
#define CHG_QUIT 4u

#define ACTIONS(X) \
	X(QUIT, "quit", "quit (asks first if there are unsaved changes)") \
	X(NEXT, "select-next", "select the next group") \
	X(PREV, "select-prev", "select the previous group") \
	X(INC, "count-inc", "one more of the selected group (links for a bundle)") \
	X(DEC, "count-dec", "one fewer of the selected group (links for a bundle)") \
	X(UNDO, "undo", "undo the last edit") \
	X(REDO, "redo", "redo what was undone") \
	X(SAVE, "save", "save the design to its file") \
	X(HELP, "help", "show or hide the keys") \
	X(REDRAW, "redraw", "repaint the screen")
#define ACT_ENUM(id, name, help) ACT_##id,
enum action { ACTIONS(ACT_ENUM) ACT_COUNT };
#undef ACT_ENUM

struct keybind {
	int key;
	enum action action;
	const char *label; /* how the key is shown */
};

struct app {
	struct design design;
	struct editor ed;
	const struct catalog *shipped;
	struct catalog catalog;       /* shipped + the design's overrides */
	struct inventory inv;
	struct ncf_diag problems;
	struct metrics metrics;       /* the model's numbers, recomputed on every edit */
	double bytes;                 /* message size the metrics are shown at */
	char file[1024];              /* "" for the built-in default */
	int saved_generation;         /* editor generation at the last save or load */
	int selected;                 /* id of the selected group or bundle, 0 for none */
	bool help, confirm_quit;
	char msg[1400];
	bool msg_error;
};

extern const struct keybind keymap[];
extern const size_t keymap_len;
const char *action_name(enum action a);
const char *action_help(enum action a);

/* Take ownership of d (loaded from file, or "" for the default design). */
void app_init(struct app *app, struct design *d, const struct catalog *shipped, const char *file);
void app_free(struct app *app);
void app_recompute(struct app *app);
bool app_dirty(const struct app *app);
/* Run the action a key is bound to; returns the change mask (CHG_NONE for unbound keys). */
unsigned app_key(struct app *app, int key);
unsigned app_run(struct app *app, enum action a);
/* Look an action up by name (for scripts); -1 if none. */
int action_lookup(const char *name);

/* Paint the whole screen from state. */
void app_draw(const struct app *app, struct cellbuf *c);

#endif
