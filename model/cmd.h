/* cmd.h: every change to a design goes through an edit command.
 *
 * An editor wraps a design with its undo and redo history. Each command checks its
 * preconditions, applies the change, and re-checks the design against the catalog: an
 * edit that would add an error (an unknown part, ports beyond a switch's radix, a bundle
 * left dangling) is refused, the design is left as it was, and ed->msg says why. The
 * check runs once per change and is kept: ed_problems() is the check of the design as it
 * is now, for every view to share. Every accepted edit can be undone and redone. The UI,
 * the scripted mode and the tests use these functions; nothing else writes to a design
 * held by an editor (after writing it any other way, call ed_sync).
 *
 * History. Each step holds only what its edit changed (history.h), whatever the size of
 * the design: a switch group's count about 200 bytes, a server group's about 900 (its NIC
 * list with it), a job field about a kilobyte (the design's scalar fields). Undo and redo
 * together hold at most 4 MiB of steps (thousands of edits); past that the oldest steps
 * are forgotten first, and undo says so when it reaches them. The newest step is always
 * kept, however large (opening a file replaces the whole design).
 *
 * Groups and bundles are named by id (design.h); id 0 is the design itself, for keys
 * such as "job.mfu", "fabric.sharp" or "name". Keys walk the schema: "count",
 * "nics[1].speed_gbps". Values are the text a file would hold ("400", "true", "rail"). */
#ifndef NCF_CMD_H
#define NCF_CMD_H
#include <stdbool.h>
#include "model/design.h"

struct editor {
	struct design *d;
	const struct catalog *shipped;
	struct vec undo, redo;      /* struct patch (history.h), oldest first */
	int generation;             /* bumps on every change, undo and redo */
	char msg[400];              /* why the last command was refused */
	/* Kept between commands (read them through the functions below): */
	struct design base;         /* *d as of the last change: what the next edit is compared with */
	struct catalog cat;         /* the shipped catalog with d's overrides */
	unsigned long cat_serial;   /* ed_catalog_serial */
	struct ncf_diag problems;   /* design_check of *d against cat */
	int errors;                 /* errors among them */
	long *down, *up;            /* switch_ports_all of *d */
	bool checked;
	size_t dropped;             /* oldest steps forgotten to keep the bound */
	size_t bytes;               /* held by undo and redo after the last change */
};

void ed_init(struct editor *ed, struct design *d, const struct catalog *shipped);
void ed_free(struct editor *ed);  /* frees the history, not the design */
/* The check of the design as it is now (errors and warnings), and the catalog it was
 * checked against: computed once per change, shared by every view. */
const struct ncf_diag *ed_problems(const struct editor *ed);
const struct catalog *ed_catalog(const struct editor *ed);
/* A number that changes whenever ed_catalog is made again (unique over every editor of
 * the process): a copy of the catalog taken at one number is still the editor's. */
unsigned long ed_catalog_serial(const struct editor *ed);
/* Ports per switch group of the design as it is now (switch_ports_all), counted with the
 * check: d->switches.n of each. */
void ed_ports(const struct editor *ed, const long **down, const long **up);
/* The design was written outside the commands: take it as it is (not an undo step) and
 * check it again. Returns whether it had changed. */
bool ed_sync(struct editor *ed);
/* Bytes the undo and redo steps hold. */
size_t ed_history_bytes(const struct editor *ed);
/* An editor's undo and redo steps, moved out and back whole: the lesson works on a copy of
 * the same design and gives the user's history back when it ends. The steps fit the
 * design they were taken from (as it was then); ed_history_put gives them to an editor of
 * a design in that state, replacing (and freeing) the steps it had. */
struct ed_history {
	struct vec undo, redo;      /* struct patch */
	size_t dropped;             /* steps forgotten before them (ed_depth) */
};
void ed_history_take(struct editor *ed, struct ed_history *h);
void ed_history_put(struct editor *ed, struct ed_history *h);
void ed_history_free(struct ed_history *h);

bool ed_set(struct editor *ed, int id, const char *key, const char *value);
/* Add a copy of the element; its name must be new. The new id is returned through id. */
bool ed_add_server_group(struct editor *ed, const struct server_group *g, int *id);
bool ed_add_domain_group(struct editor *ed, const struct domain_group *g, int *id);
bool ed_add_switch_group(struct editor *ed, const struct switch_group *g, int *id);
bool ed_add_bundle(struct editor *ed, const struct bundle *b, int *id);
bool ed_add_nic(struct editor *ed, int server_id, const struct nic_spec *n);
bool ed_remove_nic(struct editor *ed, int server_id, size_t index);
/* Set the count of NIC entry index; bundles from the group that wired every compute port
 * follow the new port count (one undoable edit). */
bool ed_set_nic_count(struct editor *ed, int server_id, size_t index, int count);
/* Change the count of a group by delta (never below 0). */
bool ed_step_count(struct editor *ed, int id, int delta);
/* Delete a group or bundle. A group's bundles are deleted with it only if cascade is set;
 * otherwise the command is refused and msg names the bundles it would orphan. */
bool ed_delete(struct editor *ed, int id, bool cascade);
/* Add (or replace, by name) a part in the design's own catalog; list is a key of the
 * catalog ("gpus", "nics", "switches", ...). */
bool ed_add_catalog(struct editor *ed, const char *list, const void *entry);
bool ed_move(struct editor *ed, const char *block, int x, int y);
bool ed_add_note(struct editor *ed, const char *text, int x, int y);

/* Replace the whole design with nd (taken over; nd is left empty), as one undoable edit:
 * opening a file or starting from a template. */
bool ed_replace(struct editor *ed, struct design *nd);

bool ed_undo(struct editor *ed);
bool ed_redo(struct editor *ed);
bool ed_can_undo(const struct editor *ed);
/* Several edits as one undo step: note ed_depth before them, then ed_merge_since(depth)
 * makes every edit since one (u undoes them together). Depths count every step since
 * ed_init, forgotten ones too, so they stay right when old steps are forgotten. */
size_t ed_depth(const struct editor *ed);
void ed_merge_since(struct editor *ed, size_t depth);
bool ed_can_redo(const struct editor *ed);

/* The schema and object with this id (0: the design), or NULL. */
void *ed_object(struct design *d, int id, const struct schema **s);
const void *ed_object_const(const struct design *d, int id, const struct schema **s);

#endif
