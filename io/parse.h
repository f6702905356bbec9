/* parse.h: text to tree (tree.h), for YAML and JSON. */
#ifndef NCF_PARSE_H
#define NCF_PARSE_H
#include "io/tree.h"
#include "model/diag.h"

enum file_format { FMT_YAML, FMT_JSON };

/* Parse buf (len bytes). On error returns NULL and adds one error with line and column to
 * diag. Rejected: invalid syntax, NUL bytes, invalid UTF-8, YAML aliases, merge keys and
 * tags, duplicate keys, more than one document, nesting deeper than NCF_MAX_DEPTH. */
struct tnode *parse_yaml(const char *buf, size_t len, struct ncf_diag *diag);
struct tnode *parse_json(const char *buf, size_t len, struct ncf_diag *diag);
struct tnode *parse_text(const char *buf, size_t len, enum file_format fmt, struct ncf_diag *diag);

/* Format from a file name (.json is JSON, anything else YAML) or, for "-" and names with
 * no known extension, from the first character of the text. */
enum file_format format_guess(const char *name, const char *buf, size_t len);

/* The comments of YAML text buf (len bytes). *head is the length of its leading comment
 * block: the lines before its first other line that are blank or a comment, each with its
 * newline. Returns whether a comment stands anywhere after that block (a '#' between two of
 * libyaml's tokens, so never one inside a quoted or block scalar; text libyaml cannot scan
 * counts any '#' after the block). libyaml has no comment events: this is how a writer
 * knows what it drops. */
bool yaml_comments(const char *buf, size_t len, size_t *head);

/* False, with an error at its position, if buf holds a NUL byte. */
bool text_check_nul(const char *buf, size_t len, struct ncf_diag *diag);
/* 1-based line and column of byte offset off in buf. */
void text_position(const char *buf, size_t len, size_t off, int *line, int *col);

#endif
