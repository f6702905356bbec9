/* cmd.h: every change to a design goes through an edit command.
 *
 * An editor wraps a design with its undo and redo history. Each command checks its
 * preconditions, applies the change, and re-checks the design against the catalog: an
 * edit that would add an error (an unknown part, ports beyond a switch's radix, a bundle
 * left dangling) is refused, the design is left as it was, and ed->msg says why. Every
 * accepted edit can be undone and redone, without limit. The UI, the scripted mode and
 * the tests use these functions; nothing else writes to a design held by an editor.
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
	struct vec undo, redo;      /* struct design snapshots */
	int generation;             /* bumps on every change, undo and redo */
	char msg[400];              /* why the last command was refused */
};

void ed_init(struct editor *ed, struct design *d, const struct catalog *shipped);
void ed_free(struct editor *ed);  /* frees the history, not the design */

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
 * makes every edit since one (u undoes them together). */
size_t ed_depth(const struct editor *ed);
void ed_merge_since(struct editor *ed, size_t depth);
bool ed_can_redo(const struct editor *ed);

/* The schema and object with this id (0: the design), or NULL. */
void *ed_object(struct design *d, int id, const struct schema **s);
const void *ed_object_const(const struct design *d, int id, const struct schema **s);

#endif
