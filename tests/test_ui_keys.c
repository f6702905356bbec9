/* The designer as vi, htop and tig users expect it at 80x24: the panel's priorities and its
 * focus, advice applied from the panel and undone, NCCL_ALGO forced from a key and a command,
 * vi's two-key commands, Ctrl-C, the message history, the error list of a file that does not
 * load, :set's short keys, forms that scroll, the lesson across the teaching view. Screens at
 * 80x24 are compared with golden files (UPDATE_GOLDEN=1 make test rewrites them). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "screens.h"
#include "io/design_io.h"
#include "layouts/template.h"
#include "ui/app.h"
#include "ui/lesson.h"
#include "ui/script.h"

TestSuite(keys, .init = setup, .fini = teardown);

/* The reference case in two racks under two spines: the ring's flows are hashed onto the
 * ToR's uplinks, and the panel has advice to apply. */
static void open_two_racks(void)
{
	const struct template *t = template_find("reference-case");
	struct tvalues v;
	struct design d;
	char err[300];
	template_defaults(t, &v);
	cr_assert(template_set(t, &v, "racks=2", &shipped, err, sizeof err), "%s", err);
	design_init(&d);
	cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
	app_init(&app, &d, &shipped, NULL);
}

/* ---- the panel at 80x24 ------------------------------------------------------------------ */

/* 80x24 has room for 14 panel lines: the bottleneck and the first advice are among them. */
Test(keys, panel_keeps_the_bottleneck_and_the_first_advice)
{
	char *t;
	open_two_racks();
	t = screen("", 80, 24);
	cr_assert(strstr(t, "> DP exposes ") && strstr(t, " ms: 38 x"), "the job's bottleneck:\n%s", t);
	cr_assert(strstr(t, "* 'tor' hashes 8 flows onto 4 uplinks"), "the first advice, marked as one that applies:\n%s", t);
	cr_assert(strstr(t, " Ring         28.0 Simple *NCCL"), "the algorithm that runs:\n%s", t);
	cr_assert(strstr(t, "speedup 17.0 of 32 (53%)"), "%s", t);
	cr_assert(strstr(t, " more lines: z "), "it says that it leaves lines out:\n%s", t);
	cr_assert_null(strstr(t, "Amdahl"), "the panel shows the step-time speedup only:\n%s", t);
	golden("panel-priority-80x24", t);
	free(t);
	app_free(&app);
}

static void two_racks_case(const char *script, const char *name)
{
	char *t;
	open_two_racks();
	t = screen(script, 80, 24);
	golden(name, t);
	free(t);
	app_free(&app);
}

Test(keys, panel_focus_scrolls_with_markers) { two_racks_case("<Tab>\nG", "panel-focus-bottom-80x24"); }
Test(keys, panel_zoom) { two_racks_case("z\njjjjjjjjjjjj", "panel-zoom-80x24"); }

/* Enter on the advice "set NCCL_ALGO=Tree" applies it as one edit; u takes it back. */
Test(keys, advice_applies_from_the_panel_and_undoes)
{
	int i, k = -1;
	char *t;
	open_two_racks();
	free(screen("<Tab>", 80, 24));
	cr_assert_eq(app.mode, MODE_METRICS);
	for (i = 0; i < app.metrics.nadvice; i++)
		if (!strcmp(app.metrics.advice_do[i], "set job.algo tree"))
			k = i;
	cr_assert_geq(k, 0, "the reference case in two racks advises Tree");
	/* walk down to that advice: its lines say what Enter applies */
	for (i = 0; i < 40 && !strstr(app.msg, "NCCL"); i++) {
		t = screen("j", 80, 24);
		if (strstr(t, "[Enter: set job.algo tree]")) {
			free(t);
			break;
		}
		free(t);
	}
	t = screen("<Enter>", 80, 24);
	cr_assert_eq(app.design.job.algo, ALGO_TREE, "%s", app.msg);
	cr_assert(strstr(t, "applied: set job.algo tree (u undoes it)"), "%s", t);
	cr_assert(app_dirty(&app));
	free(t);
	t = screen("<Esc>", 80, 24);
	cr_assert(strstr(t, "NCCL_ALGO=Tree for the job"), "the panel says it:\n%s", t);
	free(t);
	free(screen("u", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_AUTO);
	cr_assert_not(app_dirty(&app), "undone: the design is the file again");
	app_free(&app);
}

/* The LAG advice names two commands (select, then set lag false): applied and undone as one step. */
Test(keys, advice_of_two_commands_is_one_undo_step)
{
	int i;
	open_two_racks();
	free(screen(":select a100->tor\n:set lag true\n<Tab>", 80, 24));
	cr_assert(DESIGN_BUNDLE(&app.design, 0)->lag);
	for (i = 0; i < 40; i++) {
		char *t = screen("j", 80, 24);
		bool here = strstr(t, "[Enter: select a100->tor; set lag") != NULL;
		free(t);
		if (here)
			break;
	}
	cr_assert_lt(i, 40, "the LAG advice names its commands");
	free(screen("<Enter>", 80, 24));
	cr_assert_not(DESIGN_BUNDLE(&app.design, 0)->lag, "unbonded: %s", app.msg);
	free(screen("u", 80, 24));
	cr_assert(DESIGN_BUNDLE(&app.design, 0)->lag, "one u undoes the whole advice");
	free(screen("u", 80, 24));
	cr_assert_not(app_dirty(&app), "and one more the :set");
	app_free(&app);
}

Test(keys, enter_on_a_line_that_names_no_change)
{
	char *t;
	open_app(NULL);
	t = screen("<Tab>\n<Enter>", 80, 24);
	cr_assert(strstr(t, "this line names no change to apply"), "%s", t);
	cr_assert_not(app_dirty(&app));
	free(t);
	app_free(&app);
}

/* ---- forcing the algorithm ----------------------------------------------------------------- */

Test(keys, force_algorithm_key) { two_racks_case("AA", "force-algo-tree-80x24"); }

Test(keys, force_algorithm_key_and_command)
{
	char *t;
	open_app(NULL);
	free(screen("A", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_RING, "auto, then the first that runs");
	free(screen("A", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_TREE);
	t = screen("", 80, 24);
	cr_assert(strstr(t, "NCCL_ALGO=Tree for the job (A: next)"), "%s", t);
	cr_assert(strstr(t, " Tree         42.7 Simple *forced"), "%s", t);
	free(t);
	/* NVLS and CollNet do not run on the reference case: A skips them, back to auto */
	free(screen("A", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_AUTO, "%s", app.msg);
	free(screen(":nccl NCCL_ALGO=Tree", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_TREE, "%s", app.msg);
	free(screen(":nccl auto", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_AUTO);
	t = screen(":nccl bogus", 80, 24);
	cr_assert(app.msg_error);
	free(t);
	free(screen("u", 80, 24));
	cr_assert_eq(app.design.job.algo, ALGO_TREE, "each force is an edit u undoes");
	app_free(&app);
}

/* ---- vi's keys ----------------------------------------------------------------------------- */

Test(keys, gg_and_G_move_in_lists)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	free(screen("G", 80, 24));
	cr_assert_eq(app.selected, DESIGN_BUNDLE(&app.design, app.design.bundles.n - 1)->id, "G: the last item");
	free(screen("gg", 80, 24));
	cr_assert_eq(app.selected, DESIGN_SERVER(&app.design, 0)->id, "gg: the first");
	free(screen("T\nG", 80, 24));
	cr_assert_gt(app.tmpl_cur, 0);
	free(screen("gg", 80, 24));
	cr_assert_eq(app.tmpl_cur, 0);
	free(screen("<Esc>\nJ\n<PgDn>", 80, 24)); /* G is a letter to type there */
	cr_assert_eq(app.form.cur, app.form.nfields - 1, "in a form: the last field");
	free(screen("<PgUp>", 80, 24));
	cr_assert_eq(app.form.cur, 0);
	free(screen("<Esc>\nt\nG", 80, 24));
	cr_assert_eq(app.teach_step, app.teach_steps, "in the teaching view: the last step");
	free(screen("gg", 80, 24));
	cr_assert_eq(app.teach_step, 0);
	app_free(&app);
}

Test(keys, G_no_longer_starts_the_lesson)
{
	open_app(NULL);
	free(screen("+\nG", 80, 24));
	cr_assert_neq(app.mode, MODE_LESSON);
	cr_assert(app_dirty(&app), "the edit is still there");
	app_free(&app);
}

Test(keys, unknown_keys_say_so)
{
	char *t;
	open_app(NULL);
	t = screen("x", 80, 24);
	cr_assert(strstr(t, "x: not a key on the canvas (? lists the keys)"), "%s", t);
	free(t);
	t = screen("gx", 80, 24);
	cr_assert(strstr(t, "gx: not a key (gg goes to the top)"), "%s", t);
	free(t);
	app_free(&app);
}

Test(keys, ZZ_and_x_save_and_quit)
{
	unsigned chg;
	unlink("/tmp/ncf-keys-zz.yaml");
	cr_assert_eq(system("cp share/examples/pcie-box.yaml /tmp/ncf-keys-zz.yaml"), 0);
	open_app("/tmp/ncf-keys-zz.yaml");
	cr_assert_eq(app_key(&app, 'Z'), CHG_VIEW, "Z waits for its second key");
	cr_assert_eq(app_key(&app, 'Z') & CHG_QUIT, CHG_QUIT, "nothing to save: ZZ quits");
	app_free(&app);
	open_app("/tmp/ncf-keys-zz.yaml");
	app_settle(&app, app_run(&app, ACT_INC));
	cr_assert(app_dirty(&app));
	chg = app_command(&app, "x");
	cr_assert_eq(chg & CHG_QUIT, CHG_QUIT, "%s", app.msg);
	cr_assert_not(app_dirty(&app), ":x saved first");
	app_free(&app);
	open_app("/tmp/ncf-keys-zz.yaml");
	cr_assert_eq(DESIGN_SERVER(&app.design, 0)->count, 2, "the file holds the edit");
	app_free(&app);
	open_app(NULL); /* no file: ZZ asks for a name, filled in */
	app_settle(&app, app_run(&app, ACT_INC));
	app_key(&app, 'Z');
	cr_assert_eq(app_key(&app, 'Z') & CHG_QUIT, 0);
	cr_assert_eq(app.mode, MODE_COMMAND);
	cr_assert_str_eq(app.cmdline, "x reference-case.yaml");
	app_free(&app);
	unlink("/tmp/ncf-keys-zz.yaml");
}

/* Ctrl-C asks as q does; again, it quits with the work in the recovery file. */
Test(keys, ctrl_c_asks_like_q)
{
	char *t;
	open_app(NULL);
	cr_assert_eq(app_key(&app, NK_CTRL_C) & CHG_QUIT, CHG_QUIT, "clean: it quits");
	cr_assert(app.interrupted, "and the exit status says so (130)");
	app_free(&app);
	open_app(NULL);
	t = screen("+\n<C-c>", 80, 24);
	cr_assert_eq(app.mode, MODE_CONFIRM);
	cr_assert(strstr(t, "C-c again keeps them in a recovery file"), "%s", t);
	free(t);
	free(screen("n", 80, 24));
	cr_assert_not(app.interrupted, "n: no quit, no 130");
	free(screen(":set job.mfu 0.3", 80, 24));
	free(screen("<C-c>", 80, 24));
	cr_assert_eq(app_key(&app, NK_CTRL_C) & CHG_QUIT, CHG_QUIT);
	cr_assert(app.quit_recover && app.interrupted);
	app_free(&app);
	open_app(NULL);
	free(screen(":w /tmp/x", 80, 24)); /* Ctrl-C in the command line cancels it, as in vi */
	free(screen(":set<C-c>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	cr_assert_not(app.interrupted);
	unlink("/tmp/x");
	app_free(&app);
}

/* ---- the status line and its history --------------------------------------------------------- */

Test(keys, messages_history)
{
	char *t;
	open_app(NULL);
	free(screen(":set bogus 1\n:size 1M\nx\n:select nowhere", 80, 24));
	t = screen(":messages", 80, 24);
	cr_assert_eq(app.mode, MODE_MESSAGES);
	cr_assert(strstr(t, "! no key 'bogus' in the selected server group, the job or the fabric"), "%s", t);
	cr_assert(strstr(t, "x: not a key on the canvas"), "%s", t);
	cr_assert(strstr(t, "! no block or bundle 'nowhere'"), "%s", t);
	golden("messages-80x24", t);
	free(t);
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	app_free(&app);
}

/* A message longer than the status line ends in "… (:messages)"; the history holds it whole. */
Test(keys, long_messages_are_cut_and_kept)
{
	char *t, *last;
	open_app(NULL);
	t = screen(":export bom-csv /nonexistent/a-very-long-name-that-goes-on-and-on-and-on-for-ever-and-ever.csv", 80, 24);
	last = strrchr(t, '\n');
	*last = '\0';
	last = strrchr(t, '\n') + 1;
	cr_assert(strstr(last, "(:messages)"), "%s", last);
	free(t);
	t = screen(":messages", 80, 24);
	cr_assert(strstr(t, "/nonexistent/a-very-long-name-that-goes-on") && strstr(t, "No such file or directory"),
		  "the history has it whole:\n%s", t);
	free(t);
	app_free(&app);
}

Test(keys, help_scrolls_on_its_own_and_stops_at_its_end)
{
	char *t;
	open_app(NULL);
	free(screen("<Tab>\njjj\n?", 80, 24));
	cr_assert_eq(app.help_top, 0, "its own offset, at the top");
	free(screen("G", 80, 24));
	t = screen("jjjjjjjj", 80, 24);
	cr_assert(strstr(t, "more"), "%s", t);
	cr_assert(strstr(t, ":help"), "the last line of the help is on screen:\n%s", t);
	golden("help-bottom-80x24", t);
	free(t);
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_METRICS);
	cr_assert_eq(app.panel_cur, 3, "the panel kept its selection");
	app_free(&app);
}

Test(keys, job_form_scrolls_to_the_focused_field)
{
	char *t;
	open_app(NULL);
	t = screen("J", 80, 24);
	cr_assert(strstr(t, "more (Down)"), "a marker says there is more below:\n%s", t);
	free(t);
	t = screen("<Up><Up><Up>", 80, 24); /* up from the first: placement, groups, algo */
	cr_assert(strstr(t, "algo              auto_"), "%s", t);
	cr_assert(strstr(t, "auto: NCCL chooses from its own model"), "the choice says what it means:\n%s", t);
	golden("job-form-last-80x24", t);
	free(t);
	app_free(&app);
}

/* ---- files ----------------------------------------------------------------------------------- */

Test(keys, a_file_that_does_not_load_opens_into_its_errors)
{
	struct design d, e;
	struct ncf_diag diag = { 0 };
	char *t;
	cr_assert_eq(system("cp tests/data/many-errors.yaml /tmp/ncf-keys-bad.yaml"), 0);
	cr_assert_not(design_load_file("/tmp/ncf-keys-bad.yaml", &shipped, &e, &diag));
	design_init(&d);
	app_init(&app, &d, &shipped, "/tmp/ncf-keys-bad.yaml");
	app_start_broken(&app, "/tmp/ncf-keys-bad.yaml", &diag);
	t = screen("", 80, 24);
	cr_assert_eq(app.mode, MODE_ERRORS);
	cr_assert(strstr(t, "/tmp/ncf-keys-bad.yaml:6:12: expected a whole number for 'count', got 'four'"), "%s", t);
	cr_assert(strstr(t, "/tmp/ncf-keys-bad.yaml:12:9: unknown key 'cout' in NIC entry"), "%s", t);
	cr_assert(strstr(t, "/tmp/ncf-keys-bad.yaml:15:11: expected leaf, spine or core"), "%s", t);
	golden("errors-80x24", t);
	free(t);
	/* w never overwrites the file that did not load */
	t = screen("<Esc>\na\n<Enter>\n<Enter>\nw", 80, 24);
	cr_assert(strstr(app.msg, "not saved: /tmp/ncf-keys-bad.yaml did not load"), "%s", app.msg);
	free(t);
	cr_assert_eq(system("cmp -s tests/data/many-errors.yaml /tmp/ncf-keys-bad.yaml"), 0, "the file is untouched");
	/* fixed outside, :e! loads it */
	cr_assert_eq(system("cp share/examples/pcie-box.yaml /tmp/ncf-keys-bad.yaml"), 0);
	free(screen(":e!", 80, 24));
	cr_assert_not(app.file_broken, "%s", app.msg);
	cr_assert_str_eq(app.design.name, "pcie-box");
	app_free(&app);
	unlink("/tmp/ncf-keys-bad.yaml");
}

Test(keys, a_new_file_is_a_new_design)
{
	struct design d;
	unlink("/tmp/ncf-keys-new.yaml");
	design_init(&d);
	app_init(&app, &d, &shipped, "/tmp/ncf-keys-new.yaml");
	app_start_new(&app, "/tmp/ncf-keys-new.yaml");
	cr_assert_str_eq(app.design.name, "ncf-keys-new");
	cr_assert(strstr(app.msg, "is a new file"), "%s", app.msg);
	free(screen("T\n<Enter>\n<Enter>\nw", 80, 24));
	cr_assert_eq(access("/tmp/ncf-keys-new.yaml", R_OK), 0, "w created it: %s", app.msg);
	app_free(&app);
	unlink("/tmp/ncf-keys-new.yaml");
}

/* ---- :set ------------------------------------------------------------------------------------- */

Test(keys, set_resolves_short_keys_and_confirms)
{
	char *t;
	open_app(NULL);
	t = screen(":set params_b 70", 80, 24);
	cr_assert_float_eq(app.design.job.params_b, 70, 1e-12);
	cr_assert(strstr(t, "set job.params_b = 70 (was 1.5) (u undoes)"), "%s", t);
	free(t);
	t = screen(":set routing adaptive", 80, 24);
	cr_assert_eq(app.design.fabric.routing, ROUTE_ADAPTIVE, "%s", app.msg);
	free(t);
	t = screen(":set count 5", 80, 24);
	cr_assert_eq(DESIGN_SERVER(&app.design, 0)->count, 5, "the selected block's own key first");
	cr_assert(strstr(t, "set a100 count = 5 (was 4)"), "%s", t);
	free(t);
	t = screen(":set mfu=0.5", 80, 24);
	cr_assert_float_eq(app.design.job.mfu, 0.5, 1e-12, "key=value as vim writes it");
	free(t);
	t = screen(":set param_b 7", 80, 24);
	cr_assert(strstr(app.msg, "did you mean 'job.params_b'?"), "%s", app.msg);
	free(t);
	app_free(&app);
}

Test(keys, catalog_field_did_you_mean)
{
	char *t;
	open_app(NULL);
	t = screen("<Enter>\n<Down><Down><Down>\n<BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS>a100-sxm4-80g", 80, 24);
	cr_assert(strstr(t, "did you mean 'a100-sxm4-80gb'?"), "%s", t);
	free(t);
	app_free(&app);
}

/* A bundle added from a server group wires all its compute NIC ports, not one. */
Test(keys, new_bundle_takes_the_nic_count)
{
	open_app(NULL);
	free(screen(":select a100->tor\nd", 80, 24)); /* the bundle goes: 4 ports free */
	cr_assert_eq(app.design.bundles.n, 0, "%s", app.msg);
	free(screen(":select a100\na\n<Down><Down><Down><Down><Down>\n<Enter>", 80, 24));
	cr_assert_eq(app.mode, MODE_FORM);
	cr_assert_str_eq(app.form.fields[2]->key, "links_each");
	cr_assert_str_eq(app.form.text[2], "4", "the server's 4 NICs");
	free(screen("<Enter>", 80, 24));
	cr_assert_eq(DESIGN_BUNDLE(&app.design, 0)->links_each, 4, "%s", app.msg);
	app_free(&app);
}

/* ---- the lesson and the teaching view ----------------------------------------------------------- */

/* The lesson's "press t, then c" leaves the lesson on its page; Esc ends it; I resumes there. */
Test(keys, lesson_survives_the_teaching_view)
{
	char *t;
	open_app(NULL);
	free(screen("I\nnnn", 80, 24)); /* "Where flows collide": press t, then c */
	cr_assert_eq(app.lesson_page, 3);
	free(screen("t\nc", 80, 24));
	cr_assert_eq(app.mode, MODE_TEACH);
	t = screen("<Esc>", 80, 24);
	cr_assert_eq(app.mode, MODE_LESSON, "back to the lesson");
	cr_assert_eq(app.lesson_page, 3, "on its page");
	cr_assert(strstr(t, "lesson 4/10"), "%s", t);
	free(t);
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	free(screen("I", 80, 24));
	cr_assert_eq(app.mode, MODE_LESSON);
	cr_assert_eq(app.lesson_page, 3, "I resumes where it was left");
	free(screen(":lesson 1", 80, 24));
	cr_assert_eq(app.lesson_page, 0);
	app_free(&app);
}

Test(keys, teaching_view_stops_when_it_closes)
{
	char *t;
	open_app(NULL);
	free(screen("t\np", 80, 24));
	cr_assert_eq(app.teach_play, 1);
	t = screen("<Esc>", 80, 24);
	cr_assert_eq(app.teach_play, 0, "closing stops it");
	cr_assert_null(strstr(t, "Space steps"), "its hints are gone from the canvas:\n%s", t);
	free(t);
	free(screen("t", 80, 24));
	app_tick(&app);
	app_tick(&app);
	cr_assert_eq(app.teach_step, 0, "it does not go on playing when opened again");
	app_free(&app);
}

/* With a bundle selected, hjkl move from it: up to its upper block, down to its lower one. */
Test(keys, hjkl_from_a_bundle)
{
	open_app(NULL);
	free(screen(":select a100->tor\nk", 80, 24));
	cr_assert_eq(app.selected, DESIGN_SWITCH(&app.design, 0)->id, "up: the bundle's upper block");
	free(screen(":select a100->tor\nj", 80, 24));
	cr_assert_eq(app.selected, DESIGN_SERVER(&app.design, 0)->id, "down: its lower block");
	free(screen(":select a100->tor\nl", 80, 24));
	cr_assert_eq(app.selected, DESIGN_SERVER(&app.design, 0)->id, "sideways: from the lower block");
	app_free(&app);
}

/* z zooms the panel and z again goes back where it was pressed: the canvas, or the panel. */
Test(keys, zoom_twice_gives_focus_back)
{
	open_two_racks();
	free(screen("z", 80, 24));
	cr_assert_eq(app.mode, MODE_PANEL);
	free(screen("z", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS, "z z from the canvas ends on the canvas");
	free(screen("<Tab>\nz\nz", 80, 24));
	cr_assert_eq(app.mode, MODE_METRICS, "Tab z z ends in the metrics panel");
	app_free(&app);
}
