/* schema.h: the design's and the catalog's structure, described once as data.
 *
 * Every struct a file can hold (a server group, a NIC entry, a catalog switch, ...) has a
 * schema: its fields, each with a key, a type, an offset, a range or a list of names, and
 * a line of help. The file loaders and writers (io/), the deep copy that undo uses, the
 * equality that round-trip tests use, the "did you mean" of an unknown key, and the edit
 * forms all walk these tables, so a field is added in one place.
 *
 * Lists are struct vec of elements of the sub-schema; strings are fixed char arrays (the
 * size is the limit a file is held to). Integer fields are int, numbers double, booleans
 * bool, enums int indexing names[]. */
#ifndef NCF_SCHEMA_H
#define NCF_SCHEMA_H
#include <stdbool.h>
#include <stddef.h>

enum field_type { FT_INT, FT_NUM, FT_BOOL, FT_STR, FT_ENUM, FT_LIST, FT_STRUCT };

/* Entries a list of a design or a catalog may hold (groups, bundles, notes, parts): a
 * design is small even when its cluster is huge, and every check stays fast. */
#define SCHEMA_MAX_LIST 4096

#define FF_REQUIRED 1u   /* a file must give it */
#define FF_OPTIONAL 2u   /* not written when empty, zero or false */

struct schema;

struct field {
	const char *key;
	enum field_type type;
	size_t off;
	size_t size;               /* FT_STR: buffer size including the NUL */
	double min, max;           /* FT_INT, FT_NUM: allowed range */
	const char *const *names;  /* FT_ENUM: NULL-terminated */
	const struct schema *sub;  /* FT_LIST, FT_STRUCT */
	unsigned flags;
	const char *help;
	const char *const *value_help; /* FT_ENUM: what each of names[] means (forms show it), or NULL */
};

struct schema {
	const char *name;          /* what an element is called in messages */
	size_t size;
	const struct field *fields;
	size_t nfields;
	void (*defaults)(void *obj); /* may be NULL: all zero */
};

/* Zero obj and apply the schema's defaults. */
void schema_init(const struct schema *s, void *obj);
/* Free what obj owns (lists, recursively); obj itself is not freed. */
void schema_free(const struct schema *s, void *obj);
/* Deep copy: dst must not own anything (it is overwritten). */
void schema_copy(const struct schema *s, void *dst, const void *src);
/* Deep equality over the schema's fields (fields not in the schema, such as ids, are ignored). */
bool schema_equal(const struct schema *s, const void *a, const void *b);
/* An object's image: its bytes, then the elements of each list it holds, field by field and
 * depth first (a list's elements, then each element's own lists). What a build generates
 * once to copy at every start instead of parsing (io/builtin.h); the pointers in it mean
 * nothing, the lists' counts are the vecs' n. schema_image_write returns its size and
 * writes it to out when out is not NULL. schema_image_read makes obj own a copy of what
 * img holds; false, with obj left empty (schema_init), when img is not an image of this
 * schema's exact size. */
size_t schema_image_write(const struct schema *s, const void *obj, unsigned char *out);
bool schema_image_read(const struct schema *s, void *obj, const unsigned char *img, size_t len);

const struct field *schema_field(const struct schema *s, const char *key);
/* The key of s nearest to key (edit distance at most 2 or a prefix), or NULL. */
const char *schema_suggest(const struct schema *s, const char *key);
/* Levenshtein distance (no transpositions: "ab" to "ba" is 2) of two short words; SIZE_MAX
 * when either has 63 characters or more. */
size_t edit_distance(const char *a, const char *b);
/* A comma-separated list of s's keys, written into buf. */
const char *schema_keys(const struct schema *s, char *buf, size_t size);

/* Enum value of name, or -1. */
int field_enum_parse(const struct field *f, const char *name);
const char *field_enum_name(const struct field *f, int v);
/* "a, b or c" from an enum's names, into buf. */
const char *field_enum_list(const struct field *f, char *buf, size_t size);

/* Typed access to a field of obj. */
int *field_int(const struct field *f, void *obj);
double *field_num(const struct field *f, void *obj);
bool *field_bool(const struct field *f, void *obj);
char *field_str(const struct field *f, void *obj);
struct vec *field_list(const struct field *f, void *obj);
void *field_struct(const struct field *f, void *obj);

/* Set field f of obj from the text of a scalar. quoted: the text was a quoted string in
 * the file (so "400" is a string, not a number). Strict: integers are decimal, numbers are
 * finite decimals, booleans are true or false, strings that read as a number, boolean or
 * null must be quoted. On error returns false with what was expected in err. */
bool field_parse(const struct field *f, void *obj, const char *text, bool quoted, char *err, size_t errsz);
/* The scalar text of a field (numbers in the shortest form that reads back exactly). */
const char *field_format(const struct field *f, const void *obj, char *buf, size_t size);
/* Does plain (unquoted) text read as something other than a string? */
bool scalar_is_special(const char *text);
/* Shortest decimal form of v that reads back to exactly v ("%.17g" at most). */
const char *num_format(double v, char *buf, size_t size);

/* Hold obj to the rules a file is held to, whatever built it (a template, an edit, a
 * form): numbers finite and in range, enums known, strings within their buffers and
 * plain text (model/text.h). The model's arithmetic relies on these invariants (a count
 * of links per member is at least 1, ...). Adds one error per bad field, at most
 * `limit` in all, with its path (prefix, then "servers[2].name"); returns how many. */
struct ncf_diag;
int schema_check(const struct schema *s, const void *obj, const char *prefix, struct ncf_diag *diag, int limit);

/* Is the field at its "empty" value (zero, false, "", no elements)? */
bool field_is_empty(const struct field *f, const void *obj);

#define FIELD_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Table helpers: T is the struct, m the member. */
#define F_STR(T, m, key, fl, help) \
	{ key, FT_STR, offsetof(T, m), sizeof(((T *)0)->m), 0, 0, NULL, NULL, fl, help, NULL }
#define F_INT(T, m, key, lo, hi, fl, help) \
	{ key, FT_INT, offsetof(T, m), sizeof(int), lo, hi, NULL, NULL, fl, help, NULL }
#define F_NUM(T, m, key, lo, hi, fl, help) \
	{ key, FT_NUM, offsetof(T, m), sizeof(double), lo, hi, NULL, NULL, fl, help, NULL }
#define F_BOOL(T, m, key, fl, help) \
	{ key, FT_BOOL, offsetof(T, m), sizeof(bool), 0, 1, NULL, NULL, fl, help, NULL }
#define F_ENUM(T, m, key, nm, fl, help) \
	{ key, FT_ENUM, offsetof(T, m), sizeof(int), 0, 0, nm, NULL, fl, help, NULL }
/* An enum whose values each come with a line saying what they mean (vh, parallel to nm). */
#define F_ENUM_H(T, m, key, nm, vh, fl, help) \
	{ key, FT_ENUM, offsetof(T, m), sizeof(int), 0, 0, nm, NULL, fl, help, vh }
#define F_LIST(T, m, key, sc, fl, help) \
	{ key, FT_LIST, offsetof(T, m), sizeof(struct vec), 0, 0, NULL, sc, fl, help, NULL }
#define F_STRUCT(T, m, key, sc, fl, help) \
	{ key, FT_STRUCT, offsetof(T, m), sizeof(((T *)0)->m), 0, 0, NULL, sc, fl, help, NULL }
#define SCHEMA(nm, T, tbl, def) { nm, sizeof(T), tbl, FIELD_COUNT(tbl), def }

#endif
