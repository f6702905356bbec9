/* app.h: the interactive program's state, its actions and its key table.
 *
 * One loop drives the program: wait for a key, map it through the key table of the
 * current mode (then the global rows) to a named action, run the action (it changes state
 * through model/cmd.h and returns a change mask), recompute what the mask says, paint the
 * whole screen from state. Actions never draw; drawing (app_draw) never changes state.
 * The key table is the single list of keys: dispatch, the help screen, the status line and
 * the man page's KEYS section all come from it. Keys that are text (typing in a form, the
 * command line or a search) go to the mode's text handler first. Each mode's actions and
 * painting live in its own file (ui/modes.h lists them); app.c holds the table and the
 * dispatch. */
#ifndef NCF_APP_H
#define NCF_APP_H
#include <stdbool.h>
#include "layouts/place.h"
#include "model/cmd.h"
#include "model/compare.h"
#include "model/cost.h"
#include "model/inventory.h"
#include "model/metrics.h"
#include "model/teach.h"
#include "ui/cellbuf.h"
#include "ui/recover.h"

/* Key codes the back end delivers (curses codes are translated in term_curses.c). */
enum {
	NK_UP = 0x110000, NK_DOWN, NK_LEFT, NK_RIGHT, NK_ENTER, NK_ESC, NK_TAB, NK_BTAB, NK_F1, NK_RESIZE,
	NK_BACKSPACE, NK_HOME, NK_END, NK_PGUP, NK_PGDN, NK_DELETE, NK_MOUSE,
	/* Two-key sequences, as vi has them: app_key holds the first key until the second. */
	NK_GG = 0x120000, NK_ZZ, NK_ZQ,
	NK_CTRL_C = 0x03, NK_CTRL_D = 0x04, NK_CTRL_L = 0x0c, NK_CTRL_R = 0x12, NK_CTRL_U = 0x15
};

/* Change mask returned by actions. */
#define CHG_NONE 0u
#define CHG_MODEL 1u   /* recompute the model's numbers */
#define CHG_LAYOUT 2u  /* re-place the canvas */
#define CHG_VIEW 4u    /* selection, messages, modes */
#define CHG_QUIT 8u

#define MODES(X)                                     \
	X(ANY, "global", "every mode")                \
	X(CANVAS, "canvas", "the design")             \
	X(METRICS, "metrics", "the metrics panel")    \
	X(FORM, "form", "editing a block")            \
	X(PALETTE, "palette", "adding a block")       \
	X(COMMAND, "command", "the : command line")   \
	X(SEARCH, "search", "searching blocks")       \
	X(HELP, "help", "this help")                  \
	X(CONFIRM, "confirm", "a question")           \
	X(INSIDE, "inside", "inside a server")        \
	X(PLOT, "plot", "a plot")                     \
	X(TEMPLATES, "templates", "starting from a template") \
	X(EXPORT, "export", "choosing an export format") \
	X(COMPARE, "compare", "the pinned design A beside the design on screen B") \
	X(TEACH, "teach", "a collective step by step, and the formulas") \
	X(LESSON, "lesson", "the guided lesson") \
	X(PANEL, "panel", "the metrics panel on the whole screen") \
	X(MESSAGES, "messages", "every message of this session (:messages)") \
	X(ERRORS, "errors", "the errors of a file that did not load") \
	X(RACKS, "racks", "the rack layout: rows of racks, what stands in each, its cables")
#define MODE_ENUM(id, name, help) MODE_##id,
enum mode { MODES(MODE_ENUM) MODE_COUNT };
#undef MODE_ENUM

#define ACTIONS(X) \
	X(QUIT, "quit", "quit (asks first if there are unsaved changes)") \
	X(HELP, "help", "show or hide the keys of this mode") \
	X(REDRAW, "redraw", "repaint the screen") \
	X(UNDO, "undo", "undo the last edit") \
	X(REDO, "redo", "redo what was undone") \
	X(SAVE, "save", "save the design to its file (asks for a name if it has none)") \
	X(COMMAND, "command", "open the : command line") \
	X(SEARCH, "search", "search blocks by name or model") \
	X(SEARCH_NEXT, "search-next", "next match of the search") \
	X(SEARCH_PREV, "search-prev", "previous match of the search") \
	X(FOCUS, "focus", "switch between the canvas and the metrics panel") \
	X(PATTERN, "pattern", "next pattern: AllReduce, AllGather, ReduceScatter, AllToAll, send/recv") \
	X(ALGO, "algorithm", "next algorithm shown (panel and teaching view): all, Ring, Tree, NVLS, NVLSTree, CollNet") \
	X(FORCE_ALGO, "force-algorithm", "force NCCL's algorithm for the job, as NCCL_ALGO does: next of auto and those that run (undoable)") \
	X(ZOOM, "zoom", "the metrics panel on the whole screen, or back") \
	X(APPLY, "apply", "apply the change the selected advice names (u undoes it)") \
	X(TOP, "top", "to the first line, item or step") \
	X(BOTTOM, "bottom", "to the last line, item or step") \
	X(PAGE_DOWN, "page-down", "a page down") \
	X(PAGE_UP, "page-up", "a page up") \
	X(WRITE_QUIT, "write-quit", "save if there are changes, then quit (as :x)") \
	X(QUIT_DISCARD, "quit-discard", "quit without saving (as :q!)") \
	X(INTERRUPT, "interrupt", "as q: close, or ask before quitting; in a form or a command line, cancel") \
	X(SIZE_UP, "size-up", "double the message size") \
	X(SIZE_DOWN, "size-down", "halve the message size") \
	X(PLOT_BUSBW, "plot-busbw", "plot busbw against message size") \
	X(PLOT_SPEEDUP, "plot-speedup", "plot speedup and efficiency against GPU count") \
	X(PLOT_SCALE, "plot-scale", "the busbw axis: linear or logarithmic") \
	X(JOB, "job", "edit the job (model, parallelism, overlap)") \
	X(FABRIC, "fabric", "edit the fabric options (routing, SHARP, PXN)") \
	X(TEMPLATES, "templates", "start a new design from a template") \
	X(EXPORT, "export", "export the design: BOM, Graphviz, ASTRA-sim, NetBox, YAML, JSON") \
	X(COMPARE, "compare", "show the design beside the pinned one (:pin pins it, :compare FILE loads one)") \
	X(TEACH, "teach", "teaching view: the collective on this design step by step, and the formulas") \
	X(LESSON, "lesson", "the guided lesson: the reference case, then the design rules") \
	X(RACKS, "racks", "rack layout: the racks in rows, what stands in each unit, the lengths of the cables that leave it") \
	X(PAGE_NEXT, "page-next", "next page of the lesson") \
	X(PAGE_PREV, "page-prev", "previous page of the lesson") \
	X(STEP_NEXT, "step-next", "next step of the collective") \
	X(STEP_PREV, "step-prev", "previous step") \
	X(STEP_FIRST, "step-first", "back to the start") \
	X(STEP_LAST, "step-last", "to the last step") \
	X(PLAY, "play", "play forward, or pause") \
	X(PLAY_BACK, "play-back", "play backwards, or pause") \
	X(FASTER, "faster", "play faster (1, 2, 4, 8, 16 steps a second)") \
	X(SLOWER, "slower", "play slower") \
	X(FORMULAS, "formulas", "show the formulas with this design's numbers, or the steps") \
	X(CONGESTION, "congestion", "show the ring's flows hashed onto the links that bind, or the steps") \
	X(REDRAW_HASH, "rehash", "hash the flows again with the next seed") \
	X(MOUSE, "mouse", "turn the mouse on or off") \
	X(LEFT, "left", "select the block to the left") \
	X(RIGHT, "right", "select the block to the right") \
	X(UP, "up", "select the block (or the rack) above") \
	X(DOWN, "down", "select the block (or the rack) below") \
	X(NEXT, "next", "select the next block or bundle") \
	X(PREV, "prev", "select the previous block or bundle") \
	X(EDIT, "edit", "edit the selected block or bundle") \
	X(ADD, "add", "add a block, bundle or note") \
	X(DELETE, "delete", "delete the selected block or bundle") \
	X(FAIL, "fail", "take the selected part down as :fail does (undoable): one switch of a switch group, one NIC per server of a server group, one link of a bundle (:fail group:NAME takes a whole group)") \
	X(INC, "count-inc", "one more of the selected block (links for a bundle, NICs inside)") \
	X(DEC, "count-dec", "one fewer of the selected block (links for a bundle, NICs inside)") \
	X(MOVE_LEFT, "move-left", "move the selected block left") \
	X(MOVE_RIGHT, "move-right", "move the selected block right") \
	X(MOVE_UP, "move-up", "move the selected block up") \
	X(MOVE_DOWN, "move-down", "move the selected block down") \
	X(INSIDE, "inside", "open the inside of the selected server group") \
	X(ACCEPT, "accept", "accept (apply the form, choose the item, run the command)") \
	X(CANCEL, "cancel", "cancel and go back") \
	X(FIELD_NEXT, "field-next", "next field or item") \
	X(FIELD_PREV, "field-prev", "previous field or item") \
	X(CHOICE_NEXT, "choice-next", "next choice for this field") \
	X(CHOICE_PREV, "choice-prev", "previous choice for this field") \
	X(COMPLETE, "complete", "complete the command name") \
	X(YES, "yes", "answer yes") \
	X(NO, "no", "answer no") \
	X(SCROLL_DOWN, "scroll-down", "scroll down") \
	X(SCROLL_UP, "scroll-up", "scroll up")
#define ACT_ENUM(id, name, help) ACT_##id,
enum action { ACTIONS(ACT_ENUM) ACT_COUNT };
#undef ACT_ENUM

struct keybind {
	int mode;          /* enum mode; MODE_ANY rows apply in every mode that does not claim the key */
	int key;
	enum action action;
	const char *label; /* how the key is shown */
	int hint;          /* place in the status line's hints, most useful first; 0: not there */
};

#define FORM_MAX 40 /* the job has 30 fields */

enum form_purpose { FORM_EDIT, FORM_ADD, FORM_TEMPLATE };

struct form {
	int purpose;
	const struct schema *schema;
	int target;                 /* id of the edited block; 0: the design */
	char prefix[48];            /* "job.", "nics[1]." ... prepended to keys when applying */
	char title[160];
	void *draft;                /* FORM_ADD: the new object, schema-initialised */
	int nfields;
	const struct field *fields[FORM_MAX];
	char text[FORM_MAX][200];
	char orig[FORM_MAX][200];   /* as opened: only changed fields are applied */
	char err[FORM_MAX][160];    /* as typed: what is wrong with the text */
	int cur;
	int template_index;         /* FORM_TEMPLATE */
};

enum confirm_kind { CONFIRM_QUIT, CONFIRM_DELETE, CONFIRM_RECOVER, CONFIRM_RELOAD, CONFIRM_OVERWRITE, CONFIRM_SAVE_AS,
		    CONFIRM_OPTIMIZE, CONFIRM_EXPORT };
enum plot_kind { PLOT_BUSBW, PLOT_SPEEDUP };
enum teach_page { TEACH_STEPS, TEACH_FORMULAS, TEACH_CONGESTION };
enum teach_anim { ANIM_RING, ANIM_TREE, ANIM_A2A, ANIM_NVLS };

#define MSG_KEEP 100

/* The design's capital cost and power as the panel shows them (model/cost.h over the BOM,
 * with the user's prices). The BOM walks every link (the cable plan: 10 ms at 500 groups,
 * 100 ms at 131,072 GPUs), so an edit only marks them pending (app->cost_pending) and they
 * are made when no key waits (app_idle): a key never waits for the cost. */
struct cost_figs {
	bool valid;
	char currency[COST_CURRENCY_MAX];
	bool complete;                /* every line to buy has a price */
	double total;                 /* of the lines with a price */
	int lines, unknown;           /* lines to buy, those without a price */
	double typ_W, max_W;          /* of the parts that publish it */
	int typ_unknown, max_unknown; /* parts to buy that do not */
	bool as_built;                /* the design on screen is a failure (:fail, f) of the one these
				       * figures are of: a failed part is still bought and installed */
};


struct app {
	struct design design;
	struct editor ed;
	const struct catalog *shipped;
	struct catalog catalog;       /* shipped + the design's overrides (the editor's, copied) */
	unsigned long catalog_serial; /* ed_catalog_serial of that copy; 0: none yet */
	/* The inventory walks every link (the cable plan): made when a view reads it
	 * (app_inventory), not on every edit; inv_of is the design it was made for. */
	struct inventory inv;
	struct design inv_of;         /* valid when inv_of_valid */
	bool inv_of_valid;
	struct ncf_diag problems;
	struct metrics metrics;       /* the model's numbers, recomputed on every edit */
	/* Cost and power now, and as they were before the last edit (the panel shows the
	 * change); cost_generation is the editor's generation `cost` belongs to. A design
	 * opened from a file has no "before". */
	struct cost_figs cost, cost_before;
	struct cost_figs cost_start;  /* as the outermost key, command or click found them */
	int run_depth;                /* keys, actions, commands and clicks under way */
	int cost_generation;
	bool cost_pending;            /* an edit changed the design since `cost` was made */
	int fail_generation;          /* the editor's generation :fail or f made; -1: none */
	/* The cable plan's warnings (links beyond their parts' reach, parts the catalog lacks:
	 * cableplan.h), made with the cost when no key waits; in the problems from then on,
	 * while the design is that of plan_generation. */
	struct ncf_diag plan_parts;
	int plan_generation;          /* -1: none made */
	struct price_list prices;     /* --prices FILE or :prices FILE; empty: catalog list prices */
	char prices_file[1024];
	struct placement place;       /* blocks on the canvas */
	int plot_n;                   /* busbw against size for the pattern shown (computed, not drawn) */
	double plot_sizes[40];
	double plot_busbw[UA_COUNT][40];
	int plot_pick[40];            /* the algorithm NCCL would pick at each size */
	int canvas_w, canvas_h;       /* the canvas the placement was made for */
	int screen_w, screen_h;       /* the screen that canvas belongs to */
	char file[1024];              /* "" for the built-in default or an unnamed design */
	bool builtin;                 /* no file: the built-in default design (else a template's) */
	int saved_generation;
	struct design saved;          /* as last loaded or saved: undoing back to it is not a change */
	bool saved_valid;             /* saved holds a design */
	int selected;                 /* id of the selected group or bundle; 0: none */
	enum mode mode;
	enum mode back;               /* where Esc from help/plots returns */
	int panel_cur;                /* the selected item of the metrics panel (its focus, z) */
	int panel_top;                /* its first line shown when it has the focus */
	bool plot_log;                /* the busbw axis is logarithmic */
	int help_top, compare_top, msgs_top, errs_top; /* each scrolled view has its own offset */
	int pending_key;              /* 'g' or 'Z' waiting for its second key; 0: none */
	int pattern;                  /* enum coll shown in the panel */
	int algo_view;                /* -1 auto, else enum ualgo */
	double bytes;                 /* message size of the panel */
	char msg[1400];
	bool msg_error;
	int nmsgs;                    /* messages said so far; the last MSG_KEEP are in msgs */
	struct { char text[1400]; bool error; } msgs[MSG_KEEP];
	bool interrupted;             /* the quit under way began with Ctrl-C */
	int exit_status;              /* what the program exits with: 0, or 130 after Ctrl-C */
	bool quit_recover;            /* quitting without saving: keep the work in the recovery file */
	struct ncf_diag load_errors;  /* why errors_file did not load (MODE_ERRORS; :e! retries) */
	char errors_file[1024];
	bool file_broken;             /* app->file did not load: it is never overwritten */
	char cmdline[256];
	char search[64];
	struct form form;
	int palette_cur;
	int confirm;                  /* enum confirm_kind */
	char confirm_text[800];
	int pending_delete;
	char recover_path[RECOVER_PATH];
	char recover_queue[RECOVER_MAX][RECOVER_PATH]; /* recovery files still to offer */
	int recover_n, recover_next;
	char restored_from[RECOVER_PATH]; /* the recovery file restored: removed once saved */
	char save_as[1024];           /* CONFIRM_SAVE_AS: the existing file :w NAME would overwrite */
	bool save_as_quit;            /* ... and quit after (:wq NAME) */
	char export_format[16];       /* CONFIRM_EXPORT: the format :export would write over save_as */
	/* A template takes over as an unnamed design: undoing back to the design it replaced
	 * brings that design's file back, redoing makes it unnamed again. */
	bool tmpl_valid;
	struct design tmpl_before, tmpl_after;
	char tmpl_file[1024];
	/* The guided lesson works on a scratch copy: the user's design, its history and its
	 * file wait here and come back when the lesson ends. */
	struct {
		bool active;
		struct design design, saved;
		bool saved_valid;
		struct ed_history hist;
		int generation, saved_generation, selected;
		char file[1024];
		bool builtin;
		long long disk_mtime_ns, disk_size;
	} stash;
	long long disk_mtime_ns, disk_size; /* the file as last loaded or saved; -1: none */
	bool disk_noted;              /* a change on disk was already reported */
	bool comments_noted;          /* a save already said it dropped comments (said once) */
	int plot;                     /* enum plot_kind */
	int inside_id, inside_cur;
	int tmpl_cur;
	int export_cur;
	bool mouse;
	int zoom_from;                /* the mode z zoomed the panel from: a second z goes back to it */
	bool ascii;                   /* a script's dump draws lines in ASCII (--ascii); the terminal has its own */
	int drag_id, drag_x, drag_y;
	/* Compare: A is pinned (:pin) or loaded (:compare FILE); B is the design on screen. */
	bool pinned;
	struct design pin;
	char pin_label[1100];
	int cmp_n;                    /* headline rows, recomputed with the model */
	double cmp_bytes;             /* the size A's rows were computed at; 0: none yet */
	struct headline cmp_a[HEADLINES_MAX], cmp_b[HEADLINES_MAX];
	struct vec cmp_changes;       /* struct design_change, A -> B */
	/* Teaching view: the ring of the pattern shown, recomputed with the model. */
	bool lesson_ok;               /* an animation for the pattern and algorithm shown */
	char lesson_why[200];         /* why there is none */
	int teach_anim;               /* enum teach_anim: ring, or Tree for AllReduce, or AllToAll */
	int teach_steps;              /* steps of that animation */
	int teach_shown;              /* pattern and animation the step belongs to */
	struct ring_lesson lesson;
	struct tree_lesson tree;
	struct a2a_lesson a2a;
	struct nvls_lesson nvls;
	struct formulas formulas;
	int teach_step;               /* steps done, 0..lesson.nsteps */
	int teach_page;               /* enum teach_page */
	int lesson_page;              /* page of the guided lesson shown, or left (MODE_LESSON) */
	int teach_back;               /* where the teaching view goes back to: canvas or lesson */
	struct congestion_lesson cong;
	bool cong_ok;
	char cong_why[200];
	unsigned cong_seed;           /* shown, so a class sees the same draw; 1 at start */
	int teach_play;               /* 0 paused, +1 forward, -1 backwards */
	int teach_speed;              /* 0..4: 1, 2, 4, 8, 16 steps a second */
	int teach_ticks;
	struct rackview *racks;       /* the rack view's numbers (rackview.c), NULL until opened */
};

extern const struct keybind keymap[];
extern const size_t keymap_len;
const char *action_name(enum action a);
const char *action_help(enum action a);
const char *mode_name(enum mode m);
/* Look an action up by name (for scripts); -1 if none. */
int action_lookup(const char *name);

/* Take ownership of d (loaded from file, or "" for the default design). */
void app_init(struct app *app, struct design *d, const struct catalog *shipped, const char *file);
void app_free(struct app *app);
/* Use prices (taken: the app frees them) from file for the cost; "" for none. */
void app_set_prices(struct app *app, struct price_list *prices, const char *file);
/* Recompute the model's numbers (after CHG_MODEL). */
void app_recompute(struct app *app);
/* The inventory of the design on screen (app->inv), made again first when an edit changed
 * what it is built from since it was last made (not for the job, the fabric options, the
 * size or the canvas). Only the views that show it ask (the compare view's headlines). */
const struct inventory *app_inventory(struct app *app);
/* Place the canvas for a screen of w x h (after CHG_LAYOUT or a resize). */
void app_layout(struct app *app, int w, int h);
bool app_dirty(const struct app *app);
/* Feed a key; returns the change mask. */
unsigned app_key(struct app *app, int key);
unsigned app_run(struct app *app, enum action a);
/* Run a ':' command line ("w file.yaml", "export bom-csv x.csv", ...). */
unsigned app_command(struct app *app, const char *line);
/* Mouse: press (button 1), release, wheel (dir +1 down, -1 up) at screen x, y. */
unsigned app_mouse(struct app *app, int kind, int x, int y);
enum { MOUSE_PRESS, MOUSE_RELEASE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };
/* The designer started on `file` that does not exist: the (empty) design on screen is
 * named after it and saved there by w, as vi does with a new file. */
void app_start_new(struct app *app, const char *file);
/* `file` did not load: the design on screen is new, `file` is never overwritten, and the
 * error list (every error in diag, which this takes) is shown; :e! loads it again. */
void app_start_broken(struct app *app, const char *file, struct ncf_diag *diag);
/* Offer every recovery file of the design's file (recover.h), one after another, oldest
 * first: y restores one (as an undoable edit; the file is removed once the design is
 * saved), n discards it, Esc keeps them all. Returns how many there are. */
int app_offer_recoveries(struct app *app);
/* Offer one recovery file (the confirm dialog). */
void app_offer_recovery(struct app *app, const char *path);
/* The user's work as a recovery file would hold it: the design and its file, and
 * whether it has unsaved changes (during the lesson: the design that waits for its end). */
bool app_work(const struct app *app, const struct design **d, const char **file);
/* Has the design's file changed on disk since it was loaded or saved (another person saved
 * it)? Offers to reload, once per change. Returns the change mask. */
unsigned app_check_disk(struct app *app);
/* The back end calls this every APP_TICK_MS while idle: it plays the teaching view.
 * Returns the change mask. */
unsigned app_tick(struct app *app);
#define APP_TICK_MS 250
/* Apply every change mask bit: recompute, re-place for the last screen size. */
void app_settle(struct app *app, unsigned chg);
/* Work the last edit left for when no key waits (the cost and power): true when there is
 * some; app_idle does it (the back end calls it when its input is empty, a script after
 * each line) and returns the change mask. Code that reads app->cost calls app_idle first. */
bool app_idle_pending(const struct app *app);
unsigned app_idle(struct app *app);

/* The canvas area of a w x h screen (drawing and mouse both use it). */
void app_canvas_area(int w, int h, int *x, int *y, int *cw, int *ch);
/* Paint the whole screen from state. */
void app_draw(const struct app *app, struct cellbuf *c);

/* Minimum screen. */
#define APP_MIN_W 80
#define APP_MIN_H 24

#endif
