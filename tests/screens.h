/* screens.h: what the screen tests share: one app, opened on a file, a template or the
 * built-in design, driven by a script (the steps --script takes), its w x h screen as
 * text, and the golden files in tests/golden it is compared with (UPDATE_GOLDEN=1 make
 * test rewrites them). */
#ifndef NCF_TEST_SCREENS_H
#define NCF_TEST_SCREENS_H
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include "shipped.h"
#include "layouts/template.h"
#include "ui/app.h"
#include "ui/script.h"

static struct app app;

static void open_app(const char *file)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	if (file)
		cr_assert(design_load_file(file, &shipped, &d, &diag), "%s", file);
	else
		cr_assert(design_load_default(&shipped, &d, &diag));
	diag_free(&diag);
	app_init(&app, &d, &shipped, file);
}

/* Open the design template name builds with its defaults (no file). */
static inline void open_template(const char *name)
{
	struct tvalues v;
	struct design d;
	char err[300];
	const struct template *t = template_find(name);
	cr_assert_not_null(t, "template %s", name);
	template_defaults(t, &v);
	design_init(&d);
	cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
	app_init(&app, &d, &shipped, NULL);
}

static char *screen(const char *script, int w, int h)
{
	char err[300], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(script_run(&app, script, w, h, f, err, sizeof err), 0, "%s", err);
	fclose(f);
	return buf;
}

static void golden(const char *name, const char *text)
{
	char path[256], buf[200000];
	FILE *f;
	size_t n;
	snprintf(path, sizeof path, "tests/golden/%s.txt", name);
	if (getenv("UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(text, f);
		fclose(f);
		return;
	}
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s is missing: run UPDATE_GOLDEN=1 make test", path);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_assert_str_eq(text, buf, "screen %s differs from %s", name, path);
}

#endif
