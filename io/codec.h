/* codec.h: tree <-> struct through a schema, and tree -> text. */
#ifndef NCF_CODEC_H
#define NCF_CODEC_H
#include "io/tree.h"
#include "io/parse.h"
#include "model/schema.h"
#include "model/diag.h"

/* Fill obj (already schema_init-ed) from node. Stops at the first problem, adds it to
 * diag with its position, and returns false; obj may then hold part of the file, so the
 * caller frees it and keeps what it had. */
bool decode(const struct schema *s, void *obj, const struct tnode *node, struct ncf_diag *diag);
/* A tree for obj: every field, except FF_OPTIONAL ones at their empty value. */
struct tnode *encode(const struct schema *s, const void *obj);

/* Text of a tree in YAML or JSON; the caller frees it. NULL on an emitter failure. */
char *tree_to_yaml(const struct tnode *root);
/* The same with an explicit document start ("---" on the first line). */
char *tree_to_yaml_doc(const struct tnode *root);
char *tree_to_json(const struct tnode *root);
char *tree_to_text(const struct tnode *root, enum file_format fmt);
/* Why the last tree_to_yaml returned NULL (libyaml's own words), for messages. */
const char *tree_write_problem(void);
/* cJSON_Print of a cJSON tree (passed as void * to keep cJSON out of this header) with a
 * final newline, in memory the caller frees with free(); NULL on failure. */
char *json_print_free(void *cjson);
/* A process that exits right after it prints (a command's one report) leaves its trees to
 * the exit: json_print_free then keeps each, still reachable, instead of walking every node
 * to free it (a fifth of `report --json`'s instructions). Off by default: the designer
 * prints and frees many. At most 8 are kept; past that they are freed. */
void json_trees_to_exit(bool on);

#endif
