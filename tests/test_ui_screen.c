/* Headless screen tests: the app state painted into a cell buffer, compared with golden
 * text files in tests/golden (UPDATE_GOLDEN=1 rewrites them). No terminal is needed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "ui/app.h"

#include "shipped.h"

TestSuite(screen, .init = setup, .fini = teardown);

static void open_app(struct app *app, const char *file)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	if (file)
		cr_assert(design_load_file(file, &shipped, &d, &diag));
	else
		cr_assert(design_load_default(&shipped, &d, &diag));
	diag_free(&diag);
	app_init(app, &d, &shipped, file);
}

static char *render(const struct app *app, int w, int h)
{
	struct cellbuf c;
	char *text;
	cellbuf_init(&c, w, h);
	app_draw(app, &c);
	text = cellbuf_dump(&c);
	cellbuf_free(&c);
	return text;
}

static void golden(const char *name, const char *text)
{
	char path[256], buf[65536];
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

static void run(struct app *app, const char *actions)
{
	char list[256], *tok, *save = NULL;
	snprintf(list, sizeof list, "%s", actions);
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int a = action_lookup(tok);
		unsigned chg;
		cr_assert_geq(a, 0, "unknown action %s", tok);
		chg = app_run(app, (enum action)a);
		if (chg & CHG_MODEL)
			app_recompute(app);
	}
}

/* Open file (NULL: the default design), run actions, compare the w x h screen with name. */
static void screen_case(const char *file, const char *actions, int w, int h, const char *name)
{
	struct app app;
	char *t;
	open_app(&app, file);
	run(&app, actions);
	t = render(&app, w, h);
	golden(name, t);
	free(t);
	app_free(&app);
}

Test(screen, default_80x24) { screen_case(NULL, "", 80, 24, "default-80x24"); }
Test(screen, default_160x48) { screen_case(NULL, "", 160, 48, "default-160x48"); }
Test(screen, too_small) { screen_case(NULL, "", 60, 20, "too-small-60x20"); }

Test(screen, edit_changes_the_numbers_and_undo_restores)
{
	struct app app;
	char *before, *t;
	open_app(&app, "share/examples/dgx-h100-1su.yaml");
	before = render(&app, 80, 24);
	cr_assert(strstr(before, "GPUs            256"), "%s", before);
	run(&app, "count-dec");
	t = render(&app, 80, 24);
	cr_assert(strstr(t, "GPUs            248"), "%s", t);
	cr_assert(strstr(t, "[modified]"));
	golden("h100-after-dec-80x24", t);
	free(t);
	run(&app, "undo");
	t = render(&app, 80, 24);
	cr_assert(strstr(t, "GPUs            256"));
	free(t);
	free(before);
	app_free(&app);
}

Test(screen, refused_edit_shows_why)
{
	struct app app;
	char *t;
	open_app(&app, NULL);
	run(&app, "count-dec"); /* the job needs all 32 GPUs */
	t = render(&app, 80, 24);
	cr_assert(strstr(t, "! the job asks for 32 GPUs, the design has 24"), "%s", t);
	free(t);
	app_free(&app);
}

Test(screen, help_is_generated_from_the_key_table)
{
	struct app app;
	char *t;
	size_t i;
	open_app(&app, NULL);
	run(&app, "help");
	t = render(&app, 80, 24);
	for (i = 0; i < keymap_len; i++)
		cr_expect(strstr(t, action_name(keymap[i].action)), "help lists %s", action_name(keymap[i].action));
	golden("help-80x24", t);
	free(t);
	app_free(&app);
}


Test(screen, quit_asks_when_dirty)
{
	struct app app;
	open_app(&app, "share/examples/dgx-h100-1su.yaml");
	cr_assert_eq(app_run(&app, ACT_QUIT), CHG_QUIT, "clean: q quits");
	run(&app, "count-dec");
	cr_assert_neq(app_run(&app, ACT_QUIT) & CHG_QUIT, CHG_QUIT, "dirty: q asks");
	cr_assert(strstr(app.msg, "unsaved changes"));
	cr_assert_eq(app_run(&app, ACT_QUIT), CHG_QUIT, "q again quits");
	app_free(&app);
}

Test(screen, man1_documents_every_action_key)
{
	FILE *f = fopen("share/ncfabric.1", "r");
	static char man[65536];
	size_t n, i;
	cr_assert_not_null(f);
	n = fread(man, 1, sizeof man - 1, f);
	char *keys, *end;
	man[n] = '\0';
	fclose(f);
	keys = strstr(man, ".SH KEYS");
	cr_assert_not_null(keys);
	end = strstr(keys + 1, ".SH ");
	if (end)
		*end = '\0';
	for (i = 0; i < keymap_len; i++) {
		const char *label = keymap[i].label;
		char want[32];
		/* Man pages spell C-r as Ctrl\-R and escape the minus. */
		if (strcmp(label, "C-r") == 0)
			label = "Ctrl\\-R";
		else if (strcmp(label, "C-l") == 0)
			label = "Ctrl\\-L";
		else if (strcmp(label, "-") == 0)
			label = "\\-";
		snprintf(want, sizeof want, "%s", label);
		cr_expect_not_null(strstr(keys, want), "ncfabric.1 KEYS lacks %s (%s)", label, action_name(keymap[i].action));
	}
}
