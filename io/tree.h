/* tree.h: a parsed YAML or JSON document, with the position of every node and key.
 *
 * Both file formats are read into this one tree (YAML through libyaml's event parser, JSON
 * through cJSON plus a scan that finds where each value stands), and one decoder turns the
 * tree into a design or a catalog against the schemas of model/schema.h. So both formats
 * share every check and every message. Scalars keep their text and whether they were
 * quoted: "400" is a string, 400 a number. The writers build the same tree from a struct
 * and print it in either format. */
#ifndef NCF_TREE_H
#define NCF_TREE_H
#include <stdbool.h>
#include <stddef.h>

enum tkind { TN_MAP, TN_SEQ, TN_SCALAR };

struct tnode {
	enum tkind kind;
	int line, col;          /* 1-based; 0 for trees built in memory */
	char *text;             /* scalar text */
	bool quoted;            /* scalar was (or must be written as) a string */
	size_t n, cap;
	char **keys;            /* map keys */
	int *kline, *kcol;      /* map key positions */
	struct tnode **kids;    /* map values or sequence items */
};

/* Limits a file is held to (ncfabric.5 documents them). */
#define NCF_MAX_FILE_BYTES (16L * 1024 * 1024)
#define NCF_MAX_DEPTH 32
#define NCF_MAX_ITEMS 100000
#define NCF_MAX_NODES 250000   /* values (scalars, lists, mappings) in one file */

struct tnode *tnode_new(enum tkind kind, int line, int col);
struct tnode *tnode_scalar(const char *text, bool quoted);
/* Append to a map (key is copied) or a sequence (key NULL); the child is owned by parent. */
void tnode_add(struct tnode *parent, const char *key, int kline, int kcol, struct tnode *child);
/* Value of key in a map, or NULL; index of the key through idx when not NULL. */
struct tnode *tnode_get(const struct tnode *map, const char *key, size_t *idx);
void tnode_free(struct tnode *n);
/* The earliest repeated key of a map: dup is the index of the first key that repeats an
 * earlier one, first the index of that earlier one. Sorts the keys, so O(n log n) for a
 * mapping of n keys whatever they are. False if every key is new. */
bool tnode_find_duplicate(const struct tnode *map, size_t *first, size_t *dup);

/* Position of the node a model path ("servers[0].nics[1].model") names, or of the nearest
 * ancestor that exists. Returns false if nothing on the path has a position. */
bool tnode_locate(const struct tnode *root, const char *path, int *line, int *col);

#endif
