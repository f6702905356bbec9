/* modes.h: inside ui/ only. What each mode of the designer provides, and what the modes share.
 *
 * A mode is one file that owns its actions and its painting, as tig keeps one file per view:
 *   canvas.c      the design (selection, moving, adding, deleting, counts, the mouse, search)
 *   inside.c      inside a server group (its NIC entries)
 *   form.c        editing a block, the job, the fabric options or a template's parameters
 *   palette.c     choosing what to add, a template, an export format (the three list menus)
 *   cmdline.c     the ':' command line and the '/' search line
 *   confirm.c     a question (quit, delete, reload, overwrite, recover)
 *   teachview.c   the teaching view (a collective step by step, the formulas, congestion)
 *   compareview.c the pinned design A beside the design on screen B
 *   lesson.c      the guided lesson over the live canvas
 *   panel.c       the metrics panel;  plot.c  the plots;  help.c  the help screen
 *   rackview.c    the rack layout: racks in rows, a rack unit by unit, its cables
 * app.c holds the one key table, the life cycle and the dispatch: a key goes to the mode's text
 * handler (forms and command lines take typed keys first), then to the mode's rows of the key
 * table, then (unless the mode is modal) to the global rows. An action goes to the mode's
 * handler first, then to the global one. A handler returns CHG_PASS for what is not its own.
 * file.c is the design's file on disk (load, save, someone else's change); draw.c composes the
 * screen and paints the status line. Actions never draw; painting takes a const app. */
#ifndef NCF_MODES_H
#define NCF_MODES_H
#include "ui/app.h"

/* Not this handler's action or key: the next one tries. Never leaves app_run or app_key. */
#define CHG_PASS 0x80000000u

enum mode_screen {
	SCREEN_OVER,   /* painted over the canvas and the panel (forms, menus, questions) */
	SCREEN_FULL,   /* the whole screen above the status line */
	SCREEN_ALONE,  /* the whole screen, status line included */
};

struct mode_ops {
	unsigned (*action)(struct app *app, enum action a);  /* CHG_PASS: not this mode's */
	unsigned (*text)(struct app *app, int key);          /* typed keys, before the key table */
	void (*draw)(const struct app *app, struct cellbuf *c);
	int screen;                                          /* enum mode_screen */
	bool modal;                                          /* the global key rows do not apply */
};
extern const struct mode_ops mode_ops[MODE_COUNT]; /* app.c */

/* app.c */
/* Force job.algo (enum algo) as NCCL_ALGO does: an undoable edit that says what it did. */
unsigned force_algo_to(struct app *app, int algo);
/* :x [FILE] and ZZ: save if there is something to save (or to FILE), then quit. */
unsigned app_write_quit(struct app *app, const char *path);
/* How a key is shown (its label in the key table, "C-x", or the character). */
void key_label(int key, char *buf, size_t size);
/* Around every key, action, command and click (nested calls count once): the figures the
 * panel's change is measured from are those the outermost call found. */
void edit_begin(struct app *app);
void edit_end(struct app *app);
unsigned say(struct app *app, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The change mask of an edit command: its message when refused, else a recompute. */
unsigned edit_result(struct app *app, bool ok);

/* canvas.c */
size_t canvas_items(const struct app *app, int *ids, size_t max); /* groups, then bundles */
void ensure_selection(struct app *app);
const struct block *block_of(const struct app *app, int id);
const char *selected_name(const struct app *app); /* NULL for a bundle or nothing */
unsigned canvas_action(struct app *app, enum action a);
unsigned search_step(struct app *app, int dir);
void canvas_draw(const struct app *app, struct cellbuf *c, int x, int y, int w, int h);

/* inside.c */
unsigned inside_open(struct app *app);
unsigned inside_action(struct app *app, enum action a);
void inside_draw(const struct app *app, struct cellbuf *c, int x, int y, int w, int h);

/* form.c */
void form_clear(struct form *f);
void form_open(struct app *app, int purpose, const struct schema *s, const void *obj, int target, const char *prefix,
	       const char *title);
unsigned form_open_edit(struct app *app);
unsigned form_open_struct(struct app *app, const char *key, const char *title);
unsigned form_open_template(struct app *app);
unsigned form_action(struct app *app, enum action a);
unsigned form_text(struct app *app, int key);
void form_draw(const struct app *app, struct cellbuf *c);

/* palette.c */
unsigned palette_action(struct app *app, enum action a);
unsigned templates_action(struct app *app, enum action a);
unsigned export_action(struct app *app, enum action a);
void palette_draw(const struct app *app, struct cellbuf *c);
/* A centred menu of n items, item cur selected, a line of keys at its foot. */
void draw_list(struct cellbuf *c, const char *title, const char *const *items, int n, int cur, const char *foot);
void templates_draw(const struct app *app, struct cellbuf *c);
void export_draw(const struct app *app, struct cellbuf *c);

/* cmdline.c */
struct command {
	const char *name, *args, *help;
};
extern const struct command commands[]; /* the ':' commands, NULL-terminated: completion and help */
unsigned command_action(struct app *app, enum action a);
unsigned command_text(struct app *app, int key);
unsigned search_action(struct app *app, enum action a);
unsigned search_text(struct app *app, int key);
/* Edit a line of text (the command line, a search, a template field) with key. */
unsigned line_text(char *buf, size_t size, int key);
/* Template `name` with "KEY=VALUE ..." settings replaces the design (undoable). */
/* :fail SPEC, and f on the canvas: the selected part's single failure through the same path. */
unsigned fail_command(struct app *app, const char *spec);
unsigned fail_selected(struct app *app);
/* optimize.c: :optimize METRIC=VALUE [budget=X] [KEY=a,b...]; y in its question applies. */
unsigned optimize_command(struct app *app, const char *args);
unsigned optimize_apply(struct app *app);
void optimize_forget(void);
unsigned build_template(struct app *app, const char *name, const char *sets);
struct template;
struct tvalues;
/* The design becomes template t built with v (undoable); every way to a template goes here.
 * The template's design has no file (w asks for a name): the user's file is never taken
 * over; undoing back to the design it replaced brings that design's file back. */
unsigned template_replace(struct app *app, const struct template *t, const struct tvalues *v);
/* After an undo or redo: the file that goes with the design on screen (template_replace). */
void template_follow(struct app *app);
void template_forget(struct app *app);

/* file.c */
/* :w NAME and :wq NAME: a file that exists and is not the design's own is overwritten only
 * when the user says so (vim's E13). */
unsigned save_as(struct app *app, const char *name, bool quit);
/* Answers to the recovery question: y, n, Esc. */
unsigned recovery_restore(struct app *app);
unsigned recovery_discard(struct app *app);
unsigned recovery_keep(struct app *app);
void mark_saved(struct app *app);
void disk_remember(struct app *app);
unsigned save_to(struct app *app, const char *path);
/* :export FORMAT NAME: refused over the open design's file (or a link to it, or a file with
 * several names); asks before replacing another existing file (CONFIRM_EXPORT), as :w NAME
 * does. export_to writes without asking. */
unsigned export_checked(struct app *app, const char *format, const char *path);
unsigned export_to(struct app *app, const char *format, const char *path);
unsigned save_checked(struct app *app, const char *path); /* asks first if the file changed on disk */
bool load_or_say(struct app *app, const char *path, struct design *out);
unsigned open_file(struct app *app, const char *path);

/* confirm.c */
unsigned confirm_action(struct app *app, enum action a);
unsigned confirm_text(struct app *app, int key);
void confirm_draw(const struct app *app, struct cellbuf *c);

/* teachview.c */
void teach_rebuild(struct app *app); /* the animations of the pattern shown, after a recompute */
unsigned teach_open(struct app *app);
unsigned teach_action(struct app *app, enum action a);
void teach_draw(const struct app *app, struct cellbuf *c);

/* compareview.c */
void compare_refresh(struct app *app);
unsigned compare_open(struct app *app);
unsigned compare_command(struct app *app, const char *cmd, const char *file);
unsigned compare_action(struct app *app, enum action a);
void compare_draw(const struct app *app, struct cellbuf *c);

/* lesson.c */
unsigned lesson_open(struct app *app, int page);
unsigned lesson_resume(struct app *app); /* the page it was left on, or the first */
/* The lesson works on a copy of the design (app->stash): lesson_end gives the user's
 * design, history and file back. Quitting, opening a file and starting from a template end
 * the lesson first. Returns the change mask (CHG_NONE when no lesson was on). */
unsigned lesson_end(struct app *app);
unsigned lesson_action(struct app *app, enum action a);
void lesson_draw(const struct app *app, struct cellbuf *c);

/* panel.c */
extern const char *const pattern_labels[]; /* by enum coll */
unsigned panel_action(struct app *app, enum action a);
unsigned panel_zoom(struct app *app);   /* z: the panel on the whole screen, or back */
unsigned panel_apply(struct app *app);  /* Enter: the change the selected advice names */
void panel_area(int w, int h, int *x, int *y, int *pw, int *ph);
void panel_zoom_draw(const struct app *app, struct cellbuf *c);
/* "↑ N more" and "↓ N more" on the top and bottom edges of a frame. */
void scroll_marks(struct cellbuf *c, int x, int y, int w, int h, int above, int below);

/* messages.c */
unsigned messages_open(struct app *app);
unsigned messages_action(struct app *app, enum action a);
void messages_draw(const struct app *app, struct cellbuf *c);
unsigned errors_open(struct app *app);
unsigned errors_action(struct app *app, enum action a);
void errors_draw(const struct app *app, struct cellbuf *c);
void panel_draw(const struct app *app, struct cellbuf *c, int x, int y, int w, int h);

/* plot.c */
unsigned plot_open(struct app *app, enum action a);
unsigned plot_action(struct app *app, enum action a);
void plot_draw(const struct app *app, struct cellbuf *c);

/* help.c */
unsigned help_open(struct app *app);
unsigned help_action(struct app *app, enum action a);
void help_draw(const struct app *app, struct cellbuf *c);

/* rackview.c: its numbers are computed when it opens and after every recompute while it is
 * open (rackview_refresh), from the cabling plan the exports use; app->racks owns them. */
unsigned rackview_open(struct app *app);
void rackview_refresh(struct app *app);
unsigned rackview_action(struct app *app, enum action a);
void rackview_draw(const struct app *app, struct cellbuf *c);
void rackview_free(struct app *app);

/* draw.c */
void draw_status(const struct app *app, struct cellbuf *c);
/* j/k, PgDn/PgUp, gg/G on a view of nlines lines, rows at a time: *top stays in range.
 * CHG_PASS for other actions. */
unsigned view_scroll(int *top, enum action a, int nlines, int rows);
/* A full-screen view's markers: lines above (on row y_first) and below (on row y_last). */
void view_marks(struct cellbuf *c, int y_first, int y_last, int above, int below);
/* A framed box of w x h centred on the screen, cleared; its corner through x, y. */
void center_box(struct cellbuf *c, int w, int h, int *x, int *y);

#endif
