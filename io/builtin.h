/* builtin.h: the data the build puts into the binary.
 *
 * share/catalog.yaml and the reference-case design are embedded as text (tools/embed.c),
 * and the catalog also as it is once parsed and checked (tools/catalog-gen.c): its parts
 * laid out as this build's structs, so a start that reads the shipped catalog copies them
 * instead of parsing 800 lines of YAML. A catalog file whose bytes are the embedded text is
 * taken from the parsed copy (its parts borrowed, not copied: vec.h); any other file is
 * parsed. The default design is embedded both ways too. */
#ifndef NCF_BUILTIN_H
#define NCF_BUILTIN_H
#include <stddef.h>

extern const char ncf_builtin_catalog[], ncf_builtin_default[];
extern const size_t ncf_builtin_catalog_len, ncf_builtin_default_len;

/* One list of the parsed catalog: n elements of size bytes each (the element schema's
 * size when generated), key as catalog_schema names the list. */
struct builtin_list {
	const char *key;
	size_t n, size;
	const unsigned char *bytes;
};

extern const struct builtin_list ncf_builtin_parsed[];
extern const size_t ncf_builtin_parsed_lists;

/* A list inside a part (a cable's lengths): the struct vec at byte off of element elem of
 * top list top (ncf_builtin_parsed's order) holds n elements of size bytes each. In the
 * part's bytes that vec is zero. */
struct builtin_inner {
	size_t top, elem, off, n, size;
	const unsigned char *bytes;
};

extern const struct builtin_inner ncf_builtin_inner[];
extern const size_t ncf_builtin_inner_lists;

/* The default design as this build decodes it from ncf_builtin_default against the shipped
 * catalog: its image (schema_image_write), which design_load_default copies and checks
 * instead of parsing the YAML. Length 0 when the design has problems to report (they need
 * the text's lines and columns: it is then parsed). */
extern const unsigned char ncf_builtin_default_image[];
extern const size_t ncf_builtin_default_image_len;

#endif
