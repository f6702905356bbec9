/* template.h: parametric designs. A template turns a few named parameters into a complete,
 * valid design, built through the model's edit commands (cmd.h), so every template design
 * passes the same checks a hand-made one does.
 *
 * Parameters are text ("32", "rail", "h100-sxm5"): whole numbers with a range, a choice
 * from a list, or a catalog part of a kind. template_set() parses "KEY=VALUE" and checks it;
 * template_build() refuses a combination that cannot be built (more ports than a switch
 * has, ...) with a message that says which. */
#ifndef NCF_TEMPLATE_H
#define NCF_TEMPLATE_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cmd.h"

enum tparam_kind { TP_INT, TP_CHOICE, TP_GPU, TP_NIC, TP_SWITCH, TP_SERVER, TP_FABRIC, TP_NUM };

struct tparam {
	const char *name;
	enum tparam_kind kind;
	const char *def;            /* default, as text */
	double min, max;            /* TP_INT, TP_NUM */
	const char *const *choices; /* TP_CHOICE */
	const char *help;
};

#define TEMPLATE_MAX_PARAMS 16

struct tvalues {
	char v[TEMPLATE_MAX_PARAMS][64];
};

struct template {
	const char *name;
	const char *help;
	const struct tparam *params;
	size_t nparams;
	bool (*build)(struct editor *ed, const struct tvalues *v, char *err, size_t errsz);
};

extern const struct template templates[];
extern const size_t ntemplates;

const struct template *template_find(const char *name);
/* Defaults for every parameter. */
void template_defaults(const struct template *t, struct tvalues *v);
/* Apply "KEY=VALUE"; checks the name and the value (catalog parts against cat). */
bool template_set(const struct template *t, struct tvalues *v, const char *kv, const struct catalog *cat, char *err,
		  size_t errsz);
/* Build the design into d (which must be freshly design_init-ed) from v. On failure d is
 * left empty and err says why, naming the template. */
bool template_build(const struct template *t, const struct tvalues *v, const struct catalog *shipped,
		    struct design *d, char *err, size_t errsz);
/* "from .. to", "a, b or c", or "a GPU from the catalog", into buf. */
const char *tparam_range(const struct tparam *p, char *buf, size_t size);

#endif
