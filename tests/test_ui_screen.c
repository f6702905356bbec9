/* Headless screen tests: the designer driven by scripts (the same steps --script takes),
 * its screen painted into a cell buffer and compared with golden text files in
 * tests/golden (UPDATE_GOLDEN=1 make test rewrites them). No terminal is needed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "screens.h"
#include "layouts/template.h"
#include "ui/app.h"
#include "ui/lesson.h"
#include "ui/script.h"
#include "ui/keysdoc.h"
#include <unistd.h>

TestSuite(screen, .init = setup, .fini = teardown);

/* Open file (NULL: the default), run the script, compare the w x h screen with name. */
static void screen_case(const char *file, const char *script, int w, int h, const char *name)
{
	char *t;
	open_app(file);
	t = screen(script, w, h);
	golden(name, t);
	free(t);
	app_free(&app);
}

Test(screen, default_80x24) { screen_case(NULL, "", 80, 24, "default-80x24"); }
Test(screen, default_160x48) { screen_case(NULL, "", 160, 48, "default-160x48"); }
Test(screen, too_small) { screen_case(NULL, "", 60, 20, "too-small-60x20"); }
Test(screen, help) { screen_case(NULL, "?", 80, 24, "help-80x24"); }
Test(screen, edit_form) { screen_case(NULL, "<Enter>\n<Down>", 80, 24, "form-80x24"); }
Test(screen, palette) { screen_case(NULL, "a\n<Down><Down>", 80, 24, "palette-80x24"); }
Test(screen, inside_a_server) { screen_case(NULL, "i", 100, 30, "inside-100x30"); }
Test(screen, plot_busbw) { screen_case(NULL, "p", 100, 30, "plot-busbw-100x30"); }
Test(screen, plot_speedup) { screen_case("share/examples/dgx-h100-1su.yaml", "P", 100, 30, "plot-speedup-100x30"); }
Test(screen, templates_dialog) { screen_case(NULL, "T\n<Down><Down><Down>", 100, 30, "templates-100x30"); }
Test(screen, command_line) { screen_case(NULL, ":exp<Tab>", 80, 24, "command-80x24"); }
Test(screen, export_menu) { screen_case(NULL, "E\n<Down><Down>", 80, 24, "export-80x24"); }

Test(screen, export_menu_fills_the_command_line)
{
	char *t;
	open_app(NULL);
	t = screen("E\n<Down><Down>\n<Enter>", 80, 24);
	cr_assert(strstr(t, ":export bom-csv reference-case.bom.csv_"), "%s", t);
	free(t);
	app_free(&app);
}

/* w on a design without a file asks for a name: the command line, a name filled in. */
Test(screen, save_without_a_file_asks_for_a_name)
{
	char *t;
	open_app(NULL);
	t = screen("+\nw", 80, 24);
	cr_assert(strstr(t, ":w reference-case.yaml_"), "%s", t);
	cr_assert_eq(app.mode, MODE_COMMAND);
	free(t);
	free(screen("<C-u>w /tmp/ncf-ui-named.yaml\n<Enter>", 80, 24));
	cr_assert_str_eq(app.file, "/tmp/ncf-ui-named.yaml");
	cr_assert_not(app_dirty(&app));
	cr_assert_eq(app.mode, MODE_CANVAS);
	unlink("/tmp/ncf-ui-named.yaml");
	app_free(&app);
}

Test(screen, compare_pinned) { screen_case(NULL, ":pin\ni\n++++\n<Esc>\nC", 80, 24, "compare-80x24"); }
Test(screen, compare_file) { screen_case(NULL, ":compare share/examples/dgx-h100-1su.yaml", 100, 50, "compare-file-100x50"); }

/* Pin, edit, compare: the view follows every edit; a bad file changes nothing; :unpin. */
Test(screen, compare_follows_edits)
{
	char *t;
	open_app(NULL);
	t = screen("C", 80, 24);
	cr_assert(strstr(t, "nothing to compare with: :pin pins this design"), "%s", t);
	free(t);
	free(screen(":pin", 80, 24));
	cr_assert(app.pinned);
	cr_assert_eq(app.cmp_changes.n, 0);
	free(screen(":size 1M", 80, 24)); /* A's numbers follow the size too: the same design, the same rows */
	for (int k = 0; k < app.cmp_n; k++)
		cr_assert_float_eq(app.cmp_a[k].value, app.cmp_b[k].value, 1e-9, "%s at 1M", app.cmp_a[k].key);
	free(screen(":size 1G", 80, 24));
	free(screen("i\n++++\n<Esc>", 80, 24));
	cr_assert_eq(app.cmp_changes.n, 2, "the NIC count and the bundle's links");
	t = screen("C", 80, 24);
	cr_assert(strstr(t, " network per node             50.0 GB/s    100.0 GB/s  +50.0 (+100%) better"), "%s", t);
	free(t);
	free(screen("uuuu", 80, 24)); /* undo works from the compare view: it is global */
	cr_assert_eq(app.mode, MODE_COMPARE);
	cr_assert_eq(app.cmp_changes.n, 0, "undone: B is A again");
	t = screen(":compare tests/data/bad/wrong-type.yaml", 80, 24);
	/* 80 columns cut it, and say where the rest is */
	cr_assert(strstr(t, "! tests/data/bad/wrong-type.yaml:5:12: expected a whole number fo"), "%s", t);
	cr_assert(strstr(t, "(:messages)"), "%s", t);
	cr_assert(strstr(app.msg, "got 'four' (nothing changed)"), "%s", app.msg);
	cr_assert_str_eq(app.pin_label, "reference-case as pinned", "a failed load keeps A");
	free(t);
	free(screen(":unpin", 80, 24));
	cr_assert_not(app.pinned);
	cr_assert_eq(app.mode, MODE_CANVAS);
	app_free(&app);
}

/* The rack view: the layout's rows, a server rack and the network rack of one SuperPOD
 * scalable unit, an NVL72 domain rack; it follows edits and undo, Esc and R close it. */
Test(screen, racks_server_rack) { screen_case("share/examples/dgx-h100-1su.yaml", "R", 80, 24, "racks-80x24"); }
Test(screen, racks_network_rack) { screen_case("tests/data/superpod-h100-2su-ra.yaml", "R\nlllll\nj", 100, 30, "racks-network-100x30"); }
Test(screen, racks_domain_rack) { screen_case("share/examples/gb200-nvl72.yaml", "R\nl\n<PgDn>", 80, 24, "racks-domain-80x24"); }

Test(screen, racks_follow_the_design)
{
	char *t;
	open_app("share/examples/dgx-h100-1su.yaml");
	t = screen("R", 80, 24);
	cr_assert_eq(app.mode, MODE_RACKS);
	cr_assert(strstr(t, "racks  12 in 1 row, 42U, 40.0 kW  dgx-h100-1su"), "%s", t);
	cr_assert(strstr(t, "cables: 24 leave the rack, 5.5 to 6.5 m (24 optical); 0 inside"), "%s", t);
	free(t);
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	free(screen(":select dgx\n:set count 30", 80, 24)); /* 3 a rack: 10 server racks and the network rack */
	t = screen("R", 80, 24);
	cr_assert(strstr(t, "racks  11 in 1 row"), "%s", t);
	free(t);
	t = screen("u", 80, 24); /* undo is global: the view follows it */
	cr_assert_eq(app.mode, MODE_RACKS);
	cr_assert(strstr(t, "racks  12 in 1 row"), "%s", t);
	free(t);
	free(screen("R", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	app_free(&app);
}

/* The teaching view: first, middle and last step of a ring on one PCIe box, AllGather and
 * the formulas on the reference case. */
Test(screen, teach_first) { screen_case("share/examples/pcie-box.yaml", "t", 80, 24, "teach-first-80x24"); }
Test(screen, teach_middle)
{
	screen_case("share/examples/pcie-box.yaml", "t\n<Space><Space><Space><Space><Space><Space><Space>", 80, 24,
		    "teach-middle-80x24");
}
Test(screen, teach_last) { screen_case("share/examples/pcie-box.yaml", "t\n$", 80, 24, "teach-last-80x24"); }
Test(screen, teach_allgather) { screen_case(NULL, "v\nt\n<Space><Space><Space>", 80, 24, "teach-allgather-80x24"); }
Test(screen, teach_formulas) { screen_case(NULL, "t\nf", 110, 24, "teach-formulas-110x24"); }
Test(screen, teach_tree_first) { screen_case(NULL, "VV\nt", 80, 24, "teach-tree-first-80x24"); }
Test(screen, teach_tree_middle) { screen_case(NULL, "VV\nt\n<Space><Space>", 80, 24, "teach-tree-middle-80x24"); }
Test(screen, teach_tree_last) { screen_case(NULL, "VV\nt\n$", 80, 24, "teach-tree-last-80x24"); }
Test(screen, teach_tree_32_nodes) { screen_case("share/examples/dgx-h100-1su.yaml", "VV\nt\n<Space><Space><Space>", 80, 30, "teach-tree-32-80x30"); }
Test(screen, teach_alltoall_first) { screen_case("share/examples/pcie-box.yaml", "vvv\nt", 80, 24, "teach-a2a-first-80x24"); }
Test(screen, teach_alltoall_middle) { screen_case(NULL, "vvv\nt\n<Space><Space><Space><Space><Space><Space><Space><Space>", 80, 24, "teach-a2a-middle-80x24"); }
Test(screen, teach_alltoall_last) { screen_case("share/examples/pcie-box.yaml", "vvv\nt\n$", 80, 24, "teach-a2a-last-80x24"); }
Test(screen, teach_nvls_first) { screen_case("share/examples/dgx-h100-1su.yaml", "VVV\nt", 80, 24, "teach-nvls-first-80x24"); }
Test(screen, teach_nvls_middle) { screen_case("share/examples/dgx-h100-1su.yaml", "VVV\nt\n<Space>", 80, 24, "teach-nvls-middle-80x24"); }
Test(screen, teach_nvls_last) { screen_case("share/examples/dgx-h100-1su.yaml", "VVV\nt\n$", 80, 24, "teach-nvls-last-80x24"); }
Test(screen, teach_nvls_steps_add_up)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	free(screen("VVV\nt", 80, 24));
	cr_assert_eq(app.teach_anim, ANIM_NVLS);
	cr_assert(app.lesson_ok, "%s", app.lesson_why);
	cr_assert_float_eq(app.nvls.step_us * app.teach_steps, app.metrics.colls[COLL_ALLREDUCE].algo[UA_NVLS].time_us, 1e-6);
	app_free(&app);
}
Test(screen, teach_nvls_off_says_why) { screen_case(NULL, "VVV\nt", 80, 24, "teach-nvls-off-80x24"); }
Test(screen, teach_congestion) { screen_case(NULL, "t\nc", 80, 24, "teach-congestion-80x24"); }
Test(screen, teach_congestion_redrawn) { screen_case(NULL, "t\nrrr", 80, 24, "teach-congestion-seed4-80x24"); }

Test(screen, teach_steps_play_and_pattern)
{
	char *t;
	int i;
	open_app(NULL);
	free(screen("t", 80, 24));
	cr_assert_eq(app.mode, MODE_TEACH);
	cr_assert(app.lesson_ok);
	cr_assert_eq(app.lesson.nsteps, 62);
	free(screen("<Space><Space>h", 80, 24));
	cr_assert_eq(app.teach_step, 1);
	free(screen("h<Left>", 80, 24));
	cr_assert_eq(app.teach_step, 0, "not below the first step");
	/* play at the default 4 steps a second: a step per 250 ms tick */
	free(screen("p", 80, 24));
	for (i = 0; i < 3; i++)
		app_tick(&app);
	cr_assert_eq(app.teach_step, 3);
	free(screen("<lt><lt>", 80, 24)); /* 1 step a second: every fourth tick */
	for (i = 0; i < 8; i++)
		app_tick(&app);
	cr_assert_eq(app.teach_step, 5);
	free(screen(">>>>>", 80, 24)); /* 16 a second: 4 steps a tick, stops at the end */
	for (i = 0; i < 40; i++)
		app_tick(&app);
	cr_assert_eq(app.teach_step, 62);
	cr_assert_eq(app.teach_play, 0, "played to the end, then stopped");
	free(screen("P", 80, 24));
	app_tick(&app);
	cr_assert_eq(app.teach_step, 58, "backwards");
	free(screen("p", 80, 24));
	cr_assert_eq(app.teach_play, 1);
	free(screen("p", 80, 24));
	cr_assert_eq(app.teach_play, 0, "p again pauses");
	t = screen("vvv", 80, 24); /* AllToAll: its own animation */
	cr_assert(strstr(t, "teach: AllToAll, step 0 of 31"), "%s", t);
	free(t);
	t = screen("v", 80, 24); /* send/recv: nothing to animate */
	cr_assert(strstr(t, "sendrecv has no ring"), "%s", t);
	free(t);
	t = screen("vVV", 80, 24); /* back to AllReduce, Tree */
	cr_assert(strstr(t, "teach: Tree AllReduce, step 0 of 4"), "%s", t);
	cr_assert_eq(app.teach_steps, 4, "4 nodes: depth 2, up and down");
	free(t);
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	cr_assert_eq(app_tick(&app), CHG_NONE, "no playing outside the view");
	app_free(&app);
}

/* The guided lesson: every page builds its design, fills every field, and the numbers move
 * the way the story says; pages over the live canvas and panel. */
Test(screen, every_lesson_page)
{
	int i;
	for (i = 0; i < lesson_npages; i++) {
		char keys[32] = "I", name[64];
		int k;
		for (k = 0; k < i; k++)
			strcat(keys, "n");
		snprintf(name, sizeof name, "lesson-%d-100x34", i + 1);
		screen_case(NULL, keys, 100, 34, name);
	}
	screen_case(NULL, "Innnn", 80, 24, "lesson-5-80x24");
}

Test(screen, lesson_pages_build_and_fill_every_field)
{
	char text[1600];
	double eff[16];
	int i;
	cr_assert_leq(lesson_npages, 16);
	open_app("share/examples/dgx-h100-1su.yaml");
	free(screen("I", 80, 24));
	cr_assert_eq(app.mode, MODE_LESSON);
	cr_assert_str_eq(app.design.name, "reference-case", "the lesson starts on the reference case");
	for (i = 0; i < lesson_npages; i++) {
		if (i)
			free(screen("n", 80, 24));
		cr_assert_eq(app.lesson_page, i);
		cr_assert_not(app.msg_error, "page %d: %s", i + 1, app.msg);
		lesson_text(&app, i, text, sizeof text);
		cr_assert_null(strchr(text, '{'), "page %d leaves a field unfilled: %s", i + 1, text);
		eff[i] = app.metrics.work.efficiency;
	}
	cr_assert_float_eq(eff[1], eff[0], 1e-12, "the ceiling page measures the same design");
	cr_assert_lt(eff[3], eff[0], "in two racks the ring's flows collide on the ToR uplinks");
	cr_assert_gt(eff[4], eff[3], "Tree beats the colliding ring");
	cr_assert_lt(eff[5], eff[3], "a LAG hides the ports from NCCL: worse, not better");
	cr_assert_gt(eff[6], eff[3], "more queue pairs give ECMP more entropy");
	free(screen("n", 80, 24));
	cr_assert_eq(app.lesson_page, lesson_npages - 1, "no page after the last");
	free(screen("bbbbbbbbbb", 80, 24));
	cr_assert_eq(app.lesson_page, 0);
	cr_assert_float_eq(app.metrics.work.efficiency, eff[0], 1e-12, "back on page 1: the same numbers again");
	free(screen("<Esc>", 80, 24));
	cr_assert_eq(app.mode, MODE_CANVAS);
	cr_assert_str_eq(app.design.name, "dgx-h100-1su", "the lesson gives the user's design back");
	cr_assert_str_eq(app.file, "share/examples/dgx-h100-1su.yaml");
	cr_assert_not(app_dirty(&app));
	app_free(&app);
}

/* The inventory (its cable plan walks every link) is made when a view asks for it, not on
 * every edit; asked after an edit it is the edited design's, and the compare view (the
 * one view that shows it) gets it current with each edit. */
Test(screen, inventory_made_when_asked)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	free(screen(":select dgx\n:set count 30", 80, 24));
	cr_assert_not(app.inv_of_valid, "no view showed the inventory: it was not made");
	cr_assert_eq(app_inventory(&app)->servers, 30);
	cr_assert(app.inv_of_valid);
	free(screen(":set count 28", 80, 24));
	cr_assert_eq(app_inventory(&app)->servers, 28, "asked after an edit: the edited design's");
	free(screen(":pin\n:set count 26", 80, 24));
	cr_assert_eq(app.inv.servers, 26, "with a design pinned, each edit makes it for the compare view");
	cr_assert_eq(app.cmp_b[0].value, 26 * 8, "%g", app.cmp_b[0].value);
	app_free(&app);
}

Test(screen, template_and_select_commands)
{
	char *t;
	const struct schema *sch = NULL;
	open_app(NULL);
	free(screen(":template superpod units=2 generation=ndr", 80, 24));
	cr_assert_eq(app_inventory(&app)->servers, 64);
	free(screen(":select leaf->spine", 80, 24));
	cr_assert_not_null(ed_object_const(&app.design, app.selected, &sch));
	cr_assert_eq(sch, &bundle_schema, "the bundle is selected");
	free(screen(":set links_each 8", 80, 24));
	cr_assert_eq(DESIGN_BUNDLE(&app.design, 1)->links_each, 8);
	t = screen(":select nowhere", 80, 24);
	cr_assert(strstr(t, "no block or bundle 'nowhere'"), "%s", t);
	free(t);
	t = screen(":template superpod units=9999", 80, 24);
	cr_assert(app.msg_error, "%s", app.msg);
	free(t);
	cr_assert_eq(app_inventory(&app)->servers, 64, "a bad template setting changes nothing");
	app_free(&app);
}

Test(screen, job_form) { screen_case(NULL, "J", 100, 30, "job-100x30"); }
Test(screen, quit_confirm) { screen_case(NULL, "+\nq", 80, 24, "confirm-quit-80x24"); }
Test(screen, superpod_200x60) { screen_case(NULL, ":template superpod\n<Enter>", 200, 60, "superpod-200x60"); }
Test(screen, template_form) { screen_case(NULL, ":template leaf-spine", 100, 30, "template-form-100x30"); }

Test(screen, every_template_at_80x24_and_200x60)
{
	size_t i;
	for (i = 0; i < ntemplates; i++) {
		char name[64], *t;
		open_template(templates[i].name);
		t = screen("", 80, 24);
		snprintf(name, sizeof name, "template-%s-80x24", templates[i].name);
		golden(name, t);
		free(t);
		t = screen("", 200, 60);
		snprintf(name, sizeof name, "template-%s-200x60", templates[i].name);
		golden(name, t);
		free(t);
		app_free(&app);
	}
}

Test(screen, resize_keeps_state)
{
	char *a, *b;
	open_app("share/examples/dgx-h100-1su.yaml");
	a = screen("j", 80, 24);
	b = screen("size 160x48", 160, 48);
	cr_assert(strstr(a, ">dgx") || strstr(a, ">leaf") || strstr(a, ">spine"));
	golden("resize-160x48", b);
	free(a);
	free(b);
	app_free(&app);
}

Test(screen, edit_changes_the_numbers_and_undo_restores)
{
	char *before, *after, *back;
	open_app("share/examples/dgx-h100-1su.yaml");
	before = screen("", 120, 40);
	cr_assert(strstr(before, "256 GPUs on 32 nodes"), "%s", before);
	after = screen("@count-dec", 120, 40);
	cr_assert(strstr(after, "[modified]"));
	cr_assert(strstr(after, "dgx 31 x dgx-h100"), "%s", after);
	back = screen("u", 120, 40);
	cr_assert(strstr(back, "dgx 32 x dgx-h100"));
	free(before);
	free(after);
	free(back);
	app_free(&app);
}

Test(screen, nic_count_inside_changes_busbw)
{
	char *t;
	double before, after;
	open_app(NULL);
	before = app.metrics.fabric.node_ceiling_GBps;
	/* Inside the server group: 4 NICs to 3; the bundle that wired all 4 follows. */
	t = screen("i\n-\n<Esc>", 100, 30);
	after = app.metrics.fabric.node_ceiling_GBps;
	cr_assert_float_eq(before, 50, 1e-9);
	cr_assert_float_eq(after, 37.5, 1e-9, "3 x 100G per server");
	cr_assert_eq(DESIGN_BUNDLE(&app.design, 0)->links_each, 3);
	free(t);
	t = screen("u", 100, 30);
	cr_assert_eq(DESIGN_BUNDLE(&app.design, 0)->links_each, 4, "one undo step");
	cr_assert_float_eq(app.metrics.fabric.node_ceiling_GBps, 50, 1e-9);
	free(t);
	app_free(&app);
}

Test(screen, refused_edit_shows_why)
{
	char *t;
	open_app(NULL);
	t = screen("-", 80, 24);
	cr_assert(strstr(t, "! the job asks for 32 GPUs, the design has 24"), "%s", t);
	free(t);
	app_free(&app);
}

Test(screen, form_validates_as_typed_and_esc_cancels)
{
	char *t;
	open_app(NULL);
	t = screen("<Enter>\n<Down>\nx", 80, 24);
	cr_assert(strstr(t, "! expected a whole number for 'count', got '4x'"), "%s", t);
	free(t);
	t = screen("<Esc>", 80, 24);
	cr_assert(strstr(t, "a100 4 x hgx-a100-8gpu"), "nothing changed");
	cr_assert_not(app_dirty(&app));
	free(t);
	app_free(&app);
}

Test(screen, add_a_spine_and_a_bundle)
{
	open_app("share/examples/pcie-box.yaml");
	free(screen("a\n<Down><Down><Down>\n<Enter>\n<Enter>", 100, 30));
	cr_assert_eq(app.design.switches.n, 2, "%s", app.msg);
	cr_assert_eq(DESIGN_SWITCH(&app.design, 1)->role, ROLE_SPINE);
	cr_assert(app_dirty(&app));
	free(screen("u", 100, 30));
	cr_assert_eq(app.design.switches.n, 1);
	app_free(&app);
}

Test(screen, delete_asks_and_names_the_bundles)
{
	char *t;
	open_app(NULL);
	t = screen("k\nd", 80, 24);
	cr_assert(strstr(t, "deleting 'tor' would orphan 1 bundle: a100->tor"), "%s", t);
	free(t);
	free(screen("y", 80, 24));
	cr_assert_eq(app.design.switches.n, 0);
	cr_assert_eq(app.design.bundles.n, 0);
	app_free(&app);
}

Test(screen, commands_save_export_and_size)
{
	char *t;
	open_app(NULL);
	free(screen(":size 1M", 80, 24));
	cr_assert_float_eq(app.bytes, 1048576, 0.5);
	unlink("/tmp/ncf-ui-save.yaml");
	free(screen(":w /tmp/ncf-ui-save.yaml", 80, 24));
	cr_assert_str_eq(app.file, "/tmp/ncf-ui-save.yaml");
	cr_assert_not(app_dirty(&app));
	unlink("/tmp/ncf-ui-bom.csv");
	t = screen(":export bom-csv /tmp/ncf-ui-bom.csv", 80, 24);
	cr_assert(strstr(t, "exported bom-csv to /tmp/ncf-ui-bom.csv"), "%s", t);
	free(t);
	t = screen(":w /nonexistent/dir/x.yaml", 80, 24);
	cr_assert(strstr(t, "! not saved: cannot create a file beside /nonexistent/dir/x.yaml"), "%s", t);
	free(t);
	t = screen(":frob", 80, 24);
	cr_assert(strstr(t, "unknown command ':frob'"));
	free(t);
	app_free(&app);
}

Test(screen, search_selects_matches)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	free(screen("/spine\n<Enter>", 80, 24));
	cr_assert_eq(app.selected, DESIGN_SWITCH(&app.design, 1)->id);
	app_free(&app);
}

Test(screen, mouse_click_selects_and_drag_moves)
{
	const struct block *b;
	size_t i;
	open_app(NULL);
	free(screen("", 80, 24));
	for (i = 0, b = NULL; i < app.place.blocks.n; i++)
		if (!strcmp(VEC_AT(app.place.blocks, struct block, i).name, "tor"))
			b = &VEC_AT(app.place.blocks, struct block, i);
	cr_assert_not_null(b);
	{
		char s[64];
		int x = b->x + 1 + 2, y = b->y + 2 + 1;
		snprintf(s, sizeof s, "click %d %d", x, y);
		free(screen(s, 80, 24));
		cr_assert_eq(app.selected, DESIGN_SWITCH(&app.design, 0)->id);
		snprintf(s, sizeof s, "drag %d %d %d %d", x, y, x + 10, y + 2);
		free(screen(s, 80, 24));
		cr_assert_eq(app.design.canvas.positions.n, 1, "the move is saved in the design");
	}
	{
		const struct route *r = &VEC_AT(app.place.routes, struct route, 0);
		char s[64];
		snprintf(s, sizeof s, "click %d %d", r->lx + 1 + 1, r->ly + 2);
		free(screen(s, 80, 24));
		cr_assert_eq(app.selected, DESIGN_BUNDLE(&app.design, 0)->id, "a click on a bundle's label selects it");
	}
	app_free(&app);
}

Test(screen, template_dialog_builds_a_design)
{
	open_app(NULL);
	free(screen("T\n<Down><Down><Down>\n<Enter>\n<Enter>", 100, 30));
	cr_assert_str_eq(app.design.name, "superpod-1-su-ndr", "%s", app.msg);
	free(screen("u", 100, 30));
	cr_assert_str_eq(app.design.name, "reference-case", "u undoes it");
	app_free(&app);
}

Test(screen, quit_asks_when_dirty)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	cr_assert_eq(app_run(&app, ACT_QUIT), CHG_QUIT, "clean: q quits");
	app_run(&app, ACT_DEC);
	cr_assert_neq(app_run(&app, ACT_QUIT) & CHG_QUIT, CHG_QUIT, "dirty: q asks");
	cr_assert_eq(app.mode, MODE_CONFIRM);
	cr_assert_eq(app_key(&app, 'y'), CHG_QUIT);
	app_free(&app);
}

/* Undoing back to what the file holds is not a change (as in vi); a new edit is. */
Test(screen, undo_to_the_saved_design_is_clean)
{
	open_app("share/examples/dgx-h100-1su.yaml");
	app_settle(&app, app_run(&app, ACT_DEC));
	app_settle(&app, app_run(&app, ACT_DEC));
	cr_assert(app_dirty(&app));
	app_settle(&app, app_run(&app, ACT_UNDO));
	cr_assert(app_dirty(&app), "one of two edits undone");
	app_settle(&app, app_run(&app, ACT_UNDO));
	cr_assert_not(app_dirty(&app), "back to the file");
	cr_assert_eq(app_run(&app, ACT_QUIT), CHG_QUIT);
	app_settle(&app, app_run(&app, ACT_REDO));
	cr_assert(app_dirty(&app), "redo is a change again");
	app_free(&app);
}

Test(screen, help_lists_every_key_of_the_table)
{
	size_t i;
	char *t;
	open_app(NULL);
	t = screen("?", 100, 200);
	for (i = 0; i < keymap_len; i++)
		if (keymap[i].mode == MODE_ANY || keymap[i].mode == MODE_CANVAS)
			cr_expect(strstr(t, action_name(keymap[i].action)), "help lists %s", action_name(keymap[i].action));
	free(t);
	app_free(&app);
}

Test(screen, man1_keys_section_is_generated_from_the_key_table)
{
	FILE *f = fopen("share/ncfabric.1", "r");
	static char man[131072];
	char *gen = NULL, *begin, *end;
	size_t n, len = 0;
	FILE *m;
	cr_assert_not_null(f);
	n = fread(man, 1, sizeof man - 1, f);
	man[n] = '\0';
	fclose(f);
	m = open_memstream(&gen, &len);
	keys_roff(m);
	fclose(m);
	begin = strstr(man, ".\\\" KEYS BEGIN");
	end = begin ? strstr(begin, ".\\\" KEYS END") : NULL;
	cr_assert(begin && end, "KEYS markers in share/ncfabric.1");
	end = strchr(end, '\n') + 1;
	*end = '\0';
	cr_assert_str_eq(begin, gen, "share/ncfabric.1's KEYS section is stale: run make docs");
	free(gen);
}

Test(screen, someone_else_saves_the_file)
{
	char *t;
	FILE *f;
	cr_assert_eq(system("cp share/examples/pcie-box.yaml /tmp/ncf-ui-disk.yaml"), 0);
	open_app("/tmp/ncf-ui-disk.yaml");
	cr_assert_eq(app_check_disk(&app), CHG_NONE, "nothing changed yet");
	free(screen("+", 80, 24));
	/* Another person saves the file: a different size and time. */
	f = fopen("/tmp/ncf-ui-disk.yaml", "a");
	fputs("# edited elsewhere\n", f);
	fclose(f);
	cr_assert_eq(app_check_disk(&app), CHG_VIEW);
	t = screen("", 80, 24);
	cr_assert(strstr(t, "changed on disk (someone else saved it)") && strstr(t, "Reload it?"), "%s", t);
	free(t);
	cr_assert_eq(app_check_disk(&app), CHG_NONE, "offered once");
	free(screen("n", 80, 24));
	/* Saving now asks before overwriting theirs. */
	t = screen("w", 80, 24);
	cr_assert(strstr(t, "changed on disk since it was"), "%s", t);
	free(t);
	free(screen("n", 80, 24));
	cr_assert(app_dirty(&app), "not saved");
	free(screen("w\ny", 80, 24));
	cr_assert_not(app_dirty(&app), "y overwrites");
	app_free(&app);
}

Test(screen, reload_takes_their_version)
{
	FILE *f;
	cr_assert_eq(system("cp share/examples/pcie-box.yaml /tmp/ncf-ui-disk2.yaml"), 0);
	open_app("/tmp/ncf-ui-disk2.yaml");
	cr_assert_eq(system("sed -i 's/count: 1$/count: 2/' /tmp/ncf-ui-disk2.yaml"), 0);
	f = fopen("/tmp/ncf-ui-disk2.yaml", "a");
	fputs("\n", f);
	fclose(f);
	app_check_disk(&app);
	free(screen("y", 80, 24));
	cr_assert_eq(DESIGN_SERVER(&app.design, 0)->count, 2, "%s", app.msg);
	app_free(&app);
}

Test(screen, recovery_offer_says_what_it_holds)
{
	char *t;
	cr_assert_eq(system("cp share/examples/dgx-h100-1su.yaml /tmp/ncf-ui-rec.yaml.recover"), 0);
	open_app(NULL);
	app_offer_recovery(&app, "/tmp/ncf-ui-rec.yaml.recover");
	t = screen("", 100, 30);
	cr_assert(strstr(t, "'dgx-h100-1su': 32 servers, 256 GPUs, 12 switches, 2 bundles"), "%s", t);
	free(t);
	free(screen("n", 100, 30));
	cr_assert_neq(access("/tmp/ncf-ui-rec.yaml.recover", F_OK), 0, "removed once answered");
	app_free(&app);
}

/* The designer recomputes without the scaling curve and makes it while the speedup plot
 * is open: an edit made with the plot open (a job field, by command) shows the new curve,
 * the same as metrics_compute gives for the edited design. */
Test(screen, the_speedup_plot_follows_an_edit)
{
	static struct metrics want;
	char *t;
	int k;
	open_app("share/examples/reference-case.yaml");
	free(screen("", 80, 24));
	cr_assert(!app.metrics.work.has_curve, "the canvas made the scaling curve");
	free(screen("P", 100, 30));
	cr_assert(app.metrics.work.has_curve && app.metrics.work.ncurve > 0, "the plot has no curve");
	t = screen(":set job.global_batch 128", 100, 30);
	cr_assert_eq(app.design.job.global_batch, 128, "the command did not edit the job:\n%s", t);
	cr_assert(app.mode == MODE_PLOT && app.metrics.work.has_curve, "the edit left the plot without its curve:\n%s", t);
	metrics_compute(&app.design, &app.catalog, app.bytes, 0, &want);
	cr_assert_eq(app.metrics.work.ncurve, want.work.ncurve);
	for (k = 0; k < want.work.ncurve; k++) {
		cr_assert_eq(app.metrics.work.curve[k].gpus, want.work.curve[k].gpus);
		cr_assert_float_eq(app.metrics.work.curve[k].speedup, want.work.curve[k].speedup, 1e-12, "point %d", k);
	}
	free(t);
	free(screen("<Esc>", 100, 30));
	cr_assert_eq(app.mode, MODE_CANVAS);
	app_free(&app);
}

/* The cable plan's warnings (a k=32 fat tree: 418 of 8,192 edge-aggregation links longer
 * than the 100 m fibre reaches, and a 400G OSFP module the catalog lacks) reach the
 * designer's problems with the cost, once no key waits: the load does not walk the plan. */
static bool has_problem(const char *text)
{
	size_t i;
	for (i = 0; i < diag_count(&app.problems); i++)
		if (strstr(diag_get(&app.problems, i)->msg, text))
			return true;
	return false;
}

Test(screen, the_cable_plans_warnings_reach_the_problems)
{
	const struct template *t = template_find("fat-tree");
	struct tvalues v;
	struct design d;
	char err[300];
	template_defaults(t, &v);
	cr_assert(template_set(t, &v, "k=32", &shipped, err, sizeof err), "%s", err);
	design_init(&d);
	cr_assert(template_build(t, &v, &shipped, &d, err, sizeof err), "%s", err);
	app_init(&app, &d, &shipped, NULL);
	cr_assert(!has_problem("reaches"), "the load walked the cable plan");
	free(screen("", 120, 40)); /* a script's first idle: the cost and the plan */
	cr_assert(has_problem("of 8192 links are longer than fibre-smf-mpo12 reaches (up to 110.8 m, reach 100 m)"),
		  "no over-reach warning in the designer's problems");
	cr_assert(has_problem("links use a part the catalog does not have: 400G osfp transceiver"));
	/* A change of size is no edit of the design: the warnings stay. */
	free(screen("]", 120, 40));
	cr_assert(has_problem("reaches"), "a new message size lost the plan's warnings");
	app_free(&app);
}
