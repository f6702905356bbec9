/* shipped.h: the shipped catalog (share/catalog.yaml) for tests that link io/. */
#ifndef NCF_TEST_SHIPPED_H
#define NCF_TEST_SHIPPED_H
#include <criterion/criterion.h>
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

#endif
