/* shipped.h: the shipped catalog (share/catalog.yaml) for tests that link io/. */
#ifndef NCF_TEST_SHIPPED_H
#define NCF_TEST_SHIPPED_H
#include <criterion/criterion.h>
#include <glob.h>
#include "io/design_io.h"

static struct catalog shipped;

static void setup(void)
{
	struct ncf_diag diag = { 0 };
	cr_assert(catalog_load_file("share/catalog.yaml", &shipped, &diag), "catalog: %s",
		  diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
}

static void teardown(void)
{
	catalog_free(&shipped);
}

/* Every design file matching `pattern` that loads against the shipped catalog, with the
 * catalog merged with its own parts, to fn (the suites that check every example and test
 * design share this walk); files that do not load are skipped. Returns how many it gave. */
typedef void (*shipped_design_fn)(const struct design *d, const struct catalog *cat, const char *path, void *arg);
static inline int shipped_each_design(const char *pattern, shipped_design_fn fn, void *arg)
{
	glob_t g;
	size_t i;
	int n = 0;
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		struct design d;
		struct catalog merged;
		struct ncf_diag diag = { 0 };
		if (design_load_file(g.gl_pathv[i], &shipped, &d, &diag)) {
			design_catalog(&d, &shipped, &merged);
			fn(&d, &merged, g.gl_pathv[i], arg);
			catalog_free(&merged);
			design_free(&d);
			n++;
		}
		diag_free(&diag);
	}
	globfree(&g);
	return n;
}

#endif
