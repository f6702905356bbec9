/* Hostile input made at test time: every node of a real design replaced by every wrong kind
 * of value, in YAML and in JSON, and a 100 MB file. The fixed corpus in tests/data/bad checks
 * exact messages; these check the properties that must hold for any input: one error, with a
 * position, naming what was expected, and a failed load that changes nothing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/codec.h"
#include "io/design_io.h"

#include "shipped.h"

TestSuite(hostile, .init = setup, .fini = teardown);

#define MAX_SLOTS 512

/* Every place in the tree that holds a node: the root's children and all below. */
static size_t collect(struct tnode *n, struct tnode ***slots, size_t k)
{
	size_t i;
	if (n->kind == TN_SCALAR)
		return k;
	for (i = 0; i < n->n && k < MAX_SLOTS; i++) {
		slots[k++] = &n->kids[i];
		k = collect(n->kids[i], slots, k);
	}
	return k;
}

struct variant {
	const char *name;
	enum tkind kind;
	const char *text;
	bool quoted;
};

static const struct variant variants[] = {
	{ "a mapping", TN_MAP, NULL, false },
	{ "a list", TN_SEQ, NULL, false },
	{ "a string", TN_SCALAR, "four", true },
	{ "a quoted number", TN_SCALAR, "32", true },
	{ "a fraction", TN_SCALAR, "7.5", false },
	{ "a negative number", TN_SCALAR, "-1", false },
	{ "a huge number", TN_SCALAR, "1e400", false },
	{ "a huge whole number", TN_SCALAR, "99999999999999999999999", false },
	{ "a boolean", TN_SCALAR, "true", false },
	{ "an empty string", TN_SCALAR, "", true },
	{ "a long string", TN_SCALAR,
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	  true },
};

static struct tnode *make_variant(const struct variant *v)
{
	struct tnode *n;
	if (v->kind != TN_SCALAR) {
		n = tnode_new(v->kind, 0, 0);
		if (v->kind == TN_MAP)
			tnode_add(n, "zz", 0, 0, tnode_scalar("1", false));
		else
			tnode_add(n, NULL, 0, 0, tnode_scalar("1", false));
		return n;
	}
	return tnode_scalar(v->text, v->quoted);
}

static void every_node_every_wrong_value(enum file_format fmt, const char *path)
{
	struct ncf_diag diag = { 0 };
	size_t len, nslots, i, v;
	char err[256], *text = file_read(path, &len, err, sizeof err);
	struct tnode *root, **slots[MAX_SLOTS];
	int loads = 0, refused = 0;
	cr_assert_not_null(text, "%s", err);
	if (fmt == FMT_JSON) {
		/* The JSON form as ncfabric writes it, so strings are quoted in the tree. */
		struct design d;
		cr_assert(design_load_text(text, len, FMT_YAML, &shipped, &d, &diag));
		free(text);
		text = design_to_text(&d, FMT_JSON);
		len = strlen(text);
		design_free(&d);
	}
	root = parse_text(text, len, fmt, &diag);
	cr_assert_not_null(root);
	free(text);
	nslots = collect(root, slots, 0);
	cr_assert_gt(nslots, 30, "the design has %zu nodes", nslots);
	cr_assert_lt(nslots, MAX_SLOTS);
	for (i = 0; i < nslots; i++) {
		for (v = 0; v < sizeof variants / sizeof variants[0]; v++) {
			struct tnode *orig = *slots[i], *bad = make_variant(&variants[v]);
			struct design d, before;
			const struct ncf_problem *p;
			char *mutated;
			size_t k;
			bool ok, kind_changed = (orig->kind == TN_SCALAR) != (bad->kind == TN_SCALAR);
			*slots[i] = bad;
			mutated = tree_to_text(root, fmt);
			*slots[i] = orig;
			tnode_free(bad);
			cr_assert_not_null(mutated);
			memset(&d, 0x5A, sizeof d);
			memcpy(&before, &d, sizeof d);
			ok = design_load_text(mutated, strlen(mutated), fmt, &shipped, &d, &diag);
			loads++;
			if (ok) {
				cr_assert_not(kind_changed, "node %zu as %s loads:\n%s", i, variants[v].name, mutated);
				design_free(&d);
			} else {
				refused++;
				cr_assert_eq(memcmp(&d, &before, sizeof d), 0, "a failed load changed the design");
				/* Syntax and type errors stop at the first; the checks of a whole design
				 * may add the knock-on ones (an emptied name leaves a dangling bundle). */
				cr_assert_geq(diag.n_errors, 1, "node %zu as %s: refused without an error", i,
					      variants[v].name);
				for (k = 0; k < diag_count(&diag); k++) {
					p = diag_get(&diag, k);
					if (p->sev != NCF_ERROR)
						continue;
					cr_assert(p->line >= 1 && p->col >= 1, "node %zu as %s: error without a position: %s",
						  i, variants[v].name, p->msg);
					cr_assert_gt(strlen(p->msg), 10, "node %zu as %s: '%s'", i, variants[v].name, p->msg);
				}
				if (kind_changed || variants[v].text == NULL)
					cr_assert_eq(diag.n_errors, 1, "node %zu as %s: %d errors, first: %s", i,
						     variants[v].name, diag.n_errors, diag_get(&diag, 0)->msg);
			}
			diag_free(&diag);
			free(mutated);
		}
	}
	tnode_free(root);
	/* Most wrong values must be refused; a few are legal (any string is a fine name). */
	if (getenv("NCF_VERBOSE"))
		fprintf(stderr, "%s as %s: %d of %d mutated files refused\n", path, fmt == FMT_JSON ? "JSON" : "YAML",
			refused, loads);
	cr_assert_gt(refused, loads * 3 / 4, "%d of %d mutated files refused", refused, loads);
}

Test(hostile, every_node_every_wrong_value_yaml)
{
	every_node_every_wrong_value(FMT_YAML, "share/examples/dgx-h100-1su.yaml");
	every_node_every_wrong_value(FMT_YAML, "share/examples/reference-case.yaml");
}

Test(hostile, every_node_every_wrong_value_json)
{
	every_node_every_wrong_value(FMT_JSON, "share/examples/gb200-nvl72.yaml");
	every_node_every_wrong_value(FMT_JSON, "share/examples/pcie-box.yaml");
}

/* A 100 MB file is refused after reading at most the limit, with a clear message. */
Test(hostile, hundred_megabyte_file)
{
	char path[] = "/tmp/ncf-big-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	static char chunk[1 << 20];
	struct ncf_diag diag = { 0 };
	struct design d;
	int i;
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	memset(chunk, '#', sizeof chunk);
	for (i = 0; i < (int)sizeof chunk; i += 64)
		chunk[i] = '\n';
	fputs("ncfabric: 1\n", f);
	for (i = 0; i < 100; i++)
		cr_assert_eq(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
	cr_assert_eq(fclose(f), 0);
	cr_assert_not(design_load_file(path, &shipped, &d, &diag));
	cr_assert_eq(diag.n_errors, 1);
	cr_expect_str_eq(diag_get(&diag, 0)->msg, "file larger than 16 MiB: too large for a design file");
	diag_free(&diag);
	unlink(path);
}
