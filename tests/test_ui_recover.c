/* The designer never loses work and never takes over a file: recovery files (Esc keeps
 * one, one that does not load is kept, every one is offered, a restore asks nothing about
 * "someone else's" changes), templates and the lesson (an unnamed design or a copy; w asks
 * for a name), :w NAME onto another file, safe export names, and the recovery writer's
 * places and names (ui/recover.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "shipped.h"
#include "ui/app.h"
#include "ui/recover.h"
#include "ui/script.h"

static char dir[64], src[1024];
static struct app app;

static void up(void)
{
	setup();
	cr_assert_not_null(getcwd(src, sizeof src));
	snprintf(dir, sizeof dir, "/tmp/ncf-recover-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	if (chdir(dir) != 0)
		cr_assert_fail("chdir %s", dir);
	setenv("XDG_STATE_HOME", dir, 1);
}

static void down(void)
{
	char cmd[128];
	teardown();
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

TestSuite(recover, .init = up, .fini = down);

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static char *get(const char *path)
{
	size_t len;
	char err[200], *s = file_read(path, &len, err, sizeof err);
	cr_assert_not_null(s, "%s: %s", path, err);
	return s;
}

static void open_file(const char *file)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(file, &shipped, &d, &diag), "%s", file);
	diag_free(&diag);
	app_init(&app, &d, &shipped, file);
	app_layout(&app, 80, 24);
}

static void keys(const char *script)
{
	char err[300];
	cr_assert_eq(script_run(&app, script, 80, 24, NULL, err, sizeof err), 0, "%s", err);
}

/* A design file (the pcie box) and a second version of it with 2 servers. */
static void two_versions(void)
{
	char *text, *more;
	size_t n;
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "cp %s/share/examples/pcie-box.yaml d.yaml", src);
	cr_assert_eq(system(cmd), 0);
	text = get("d.yaml");
	n = strlen(text);
	more = malloc(n + 16);
	memcpy(more, text, n + 1);
	*strstr(more, "count: 1") = '\0';
	snprintf(more + strlen(more), n + 16 - strlen(more), "count: 2%s", strstr(text, "count: 1") + 8);
	put("two.yaml", more);
	free(text);
	free(more);
}

Test(recover, every_recovery_file_is_offered_and_esc_keeps_them)
{
	char paths[RECOVER_MAX][RECOVER_PATH], where[RECOVER_PATH], err[600];
	char *text;
	two_versions();
	text = get("two.yaml");
	cr_assert(recover_write("d.yaml", text, strlen(text), where, sizeof where, err, sizeof err), "%s", err);
	cr_expect_str_eq(where, "d.yaml.recover");
	cr_assert(recover_write("d.yaml", text, strlen(text), where, sizeof where, err, sizeof err), "%s", err);
	cr_expect_str_eq(where, "d.yaml.recover-2", "a second instance never overwrites the first's file");
	free(text);
	cr_assert_eq(recover_find("d.yaml", paths, RECOVER_MAX), 2);
	open_file("d.yaml");
	cr_assert_eq(app_offer_recoveries(&app), 2);
	cr_assert_eq(app.mode, MODE_CONFIRM);
	cr_assert_eq(app.confirm, CONFIRM_RECOVER);
	cr_expect(strstr(app.confirm_text, "(y restores, n discards it, Esc keeps it)"), "%s", app.confirm_text);
	keys("<Esc>");
	cr_expect_eq(app.mode, MODE_CANVAS);
	cr_expect_eq(access("d.yaml.recover", F_OK), 0, "Esc keeps the file");
	cr_expect_eq(access("d.yaml.recover-2", F_OK), 0, "and the one not offered yet");
	cr_expect(strstr(app.msg, "kept d.yaml.recover and 1 more recovery file (:recover offers them again)"), "%s",
		  app.msg);
	/* :recover offers them again; n discards the first and offers the second. */
	keys(":recover");
	cr_assert_eq(app.confirm, CONFIRM_RECOVER);
	keys("n");
	cr_expect_neq(access("d.yaml.recover", F_OK), 0, "n discards it");
	cr_assert_eq(app.mode, MODE_CONFIRM, "the second one is offered next");
	cr_expect(strstr(app.confirm_text, "d.yaml.recover-2"), "%s", app.confirm_text);
	keys("y");
	cr_expect_eq(DESIGN_SERVER(&app.design, 0)->count, 2, "restored");
	cr_expect_eq(app.mode, MODE_CANVAS);
	app_free(&app);
}

Test(recover, a_restore_is_an_edit_of_the_file_and_asks_nothing_about_others)
{
	char where[RECOVER_PATH], err[600], *text;
	two_versions();
	text = get("two.yaml");
	cr_assert(recover_write("d.yaml", text, strlen(text), where, sizeof where, err, sizeof err), "%s", err);
	free(text);
	open_file("d.yaml");
	app_offer_recoveries(&app);
	keys("y");
	cr_expect_str_eq(app.file, "d.yaml", "the design keeps its file");
	cr_expect(app_dirty(&app), "restored work is unsaved");
	cr_expect(strstr(app.msg, "restored d.yaml.recover (w saves it to d.yaml; u undoes)"), "%s", app.msg);
	cr_expect_eq(app_check_disk(&app), CHG_NONE, "no 'changed on disk' question after a restore");
	keys("w");
	cr_expect_neq(app.mode, MODE_CONFIRM, "w saves without asking about someone else's changes: %s", app.confirm_text);
	cr_expect(strstr(app.msg, "saved d.yaml (recovery file d.yaml.recover removed)"), "%s", app.msg);
	cr_expect_neq(access("d.yaml.recover", F_OK), 0, "the recovery file goes once the work is saved");
	text = get("d.yaml");
	cr_expect(strstr(text, "count: 2"));
	free(text);
	app_free(&app);
}

Test(recover, a_recovery_file_that_does_not_load_is_kept)
{
	two_versions();
	put("d.yaml.recover", "ncfabric: 1\nname: broken\nservers: [\n");
	open_file("d.yaml");
	cr_assert_eq(app_offer_recoveries(&app), 1);
	cr_expect(strstr(app.confirm_text, "it does not load"), "%s", app.confirm_text);
	keys("y");
	cr_expect_eq(access("d.yaml.recover", F_OK), 0, "kept");
	cr_expect(app.msg_error);
	cr_expect(strstr(app.msg, "d.yaml.recover:4:1: invalid YAML"), "%s", app.msg);
	cr_expect(strstr(app.msg, "the recovery file is kept as it is"), "%s", app.msg);
	cr_expect_str_eq(app.design.name, "pcie-box", "the design on screen stays");
	app_free(&app);
}

/* The built-in design's recovery files live in the state directory, not in ~ or here. */
Test(recover, the_builtin_design_recovers_under_xdg_state_home)
{
	char where[RECOVER_PATH], err[600], want[RECOVER_PATH], paths[RECOVER_MAX][RECOVER_PATH];
	cr_assert(recover_write("", "x", 1, where, sizeof where, err, sizeof err), "%s", err);
	snprintf(want, sizeof want, "%s/ncfabric/default.recover", dir);
	cr_expect_str_eq(where, want);
	cr_assert(recover_write(NULL, "y", 1, where, sizeof where, err, sizeof err), "%s", err);
	snprintf(want, sizeof want, "%s/ncfabric/default.recover-2", dir);
	cr_expect_str_eq(where, want);
	cr_expect_eq(recover_find(NULL, paths, RECOVER_MAX), 2);
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", dir, 1);
	cr_assert(recover_state_dir(want, sizeof want));
	cr_expect(strstr(want, "/.local/state/ncfabric"), "%s", want);
}

/* FILE.recover cannot be written (here: the design's directory was removed while the
 * designer ran): the work goes to the state directory, named after the file's absolute
 * path with '/' as '%'. (A full disk: tests/tmux.sh.) */
Test(recover, an_unwritable_place_falls_back_to_the_state_directory)
{
	char where[RECOVER_PATH], err[600], want[RECOVER_PATH], cwd[1024], *p;
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	cr_assert_eq(mkdir("gone", 0755), 0);
	cr_assert_eq(rmdir("gone"), 0);
	cr_assert(recover_write("gone/d.yaml", "work", 4, where, sizeof where, err, sizeof err), "%s", err);
	snprintf(want, sizeof want, "%s/ncfabric/%s/gone/d.yaml.recover", dir, cwd);
	for (p = want + strlen(dir) + strlen("/ncfabric/"); *p; p++)
		if (*p == '/')
			*p = '%';
	cr_expect_str_eq(where, want);
	cr_expect_str_eq(err, "gone/d.yaml.recover: No such file or directory", "why the first place failed");
	/* Neither place: both reasons, and false. */
	setenv("XDG_STATE_HOME", "/proc/no-such-state", 1);
	cr_assert_not(recover_write("gone/d.yaml", "work", 4, where, sizeof where, err, sizeof err));
	cr_expect(strstr(err, "gone/d.yaml.recover: No such file or directory; /proc/no-such-state/ncfabric/"), "%s", err);
}

Test(recover, a_template_starts_an_unnamed_design_and_u_brings_the_file_back)
{
	char *before;
	two_versions();
	before = get("d.yaml");
	open_file("d.yaml");
	keys(":template leaf-spine servers=4");
	cr_expect_str_eq(app.design.name, "leaf-spine");
	cr_expect_str_eq(app.file, "", "the template's design has no file");
	cr_expect(strstr(app.msg, "new design from 'leaf-spine', no file yet: w names it, u brings back d.yaml"), "%s",
		  app.msg);
	keys("w");
	cr_expect_eq(app.mode, MODE_COMMAND, "w asks for a name");
	cr_expect_str_eq(app.cmdline, "w leaf-spine.yaml");
	keys("<Esc>");
	{
		char *now = get("d.yaml");
		cr_expect_str_eq(now, before, "the user's file is untouched");
		free(now);
	}
	keys("u");
	cr_expect_str_eq(app.design.name, "pcie-box", "one u brings the design back");
	cr_expect_str_eq(app.file, "d.yaml", "and its file");
	cr_expect_not(app_dirty(&app));
	keys("<C-r>");
	cr_expect_str_eq(app.file, "", "redo: the template's unnamed design again");
	/* The template form (T) too. */
	keys("u");
	keys("T\n<Enter>\n<Enter>");
	cr_expect_str_eq(app.file, "");
	free(before);
	app_free(&app);
}

Test(recover, the_lesson_works_on_a_copy_and_gives_the_design_back)
{
	two_versions();
	open_file("d.yaml");
	keys("+"); /* an unsaved edit of the user's own, before the lesson */
	cr_assert(app_dirty(&app));
	keys("I");
	cr_expect_eq(app.mode, MODE_LESSON);
	cr_expect_str_eq(app.file, "", "the lesson's designs have no file");
	keys("nn");
	keys("w");
	cr_expect_eq(app.mode, MODE_COMMAND, "w in the lesson asks for a name, it never writes d.yaml");
	keys("<Esc>");
	keys("I");
	keys("<Esc>");
	cr_expect_str_eq(app.design.name, "pcie-box", "the user's design is back");
	cr_expect_str_eq(app.file, "d.yaml");
	cr_expect_eq(DESIGN_SERVER(&app.design, 0)->count, 2, "with its unsaved edit");
	cr_expect(app_dirty(&app), "still unsaved");
	keys("u");
	cr_expect_eq(DESIGN_SERVER(&app.design, 0)->count, 1, "and its history: u undoes the edit made before");
	cr_expect_not(app_dirty(&app));
	app_free(&app);
}

Test(recover, signals_during_the_lesson_save_the_users_design)
{
	const struct design *d;
	const char *file;
	two_versions();
	open_file("d.yaml");
	keys("+");
	keys("I");
	cr_expect(app_work(&app, &d, &file), "the user's unsaved work");
	cr_expect_str_eq(file, "d.yaml");
	cr_expect_str_eq(d->name, "pcie-box");
	cr_expect_eq(DESIGN_SERVER(d, 0)->count, 2);
	app_free(&app);
}

Test(recover, w_name_onto_another_file_asks_first)
{
	char *text;
	two_versions();
	open_file("d.yaml");
	keys(":w two.yaml");
	cr_assert_eq(app.mode, MODE_CONFIRM);
	cr_expect(strstr(app.confirm_text, "two.yaml exists and is not this design's file. Overwrite it with this design?"),
		  "%s", app.confirm_text);
	keys("n");
	text = get("two.yaml");
	cr_expect(strstr(text, "count: 2"), "n keeps it");
	free(text);
	cr_expect_str_eq(app.file, "d.yaml");
	keys(":w two.yaml\ny");
	text = get("two.yaml");
	cr_expect(strstr(text, "count: 1"), "y overwrites it");
	free(text);
	cr_expect_str_eq(app.file, "two.yaml");
	keys(":w ./two.yaml");
	cr_expect_neq(app.mode, MODE_CONFIRM, "its own file, however it is written, is saved without asking");
	app_free(&app);
}

/* :export never writes over the open design (by any name: a hard or symbolic link is the
 * same file), and asks before replacing another existing file, as :w NAME does. */
Test(recover, export_onto_the_design_or_another_file)
{
	char *text;
	two_versions();
	open_file("d.yaml");
	keys(":export bom-csv d.yaml");
	cr_expect(app.msg_error);
	cr_expect_str_eq(app.msg, "export bom-csv: d.yaml is this design's file: writing there would replace it; choose "
				  "another output");
	cr_assert_eq(system("rm -f hard.yaml link.yaml && ln d.yaml hard.yaml && ln -s d.yaml link.yaml"), 0);
	keys(":export dot hard.yaml");
	cr_expect(strstr(app.msg, "hard.yaml is this design's file d.yaml (the same file by another name)"), "%s", app.msg);
	keys(":export json link.yaml");
	cr_expect(strstr(app.msg, "link.yaml is this design's file d.yaml"), "%s", app.msg);
	text = get("d.yaml");
	cr_expect(strncmp(text, "#", 1) == 0 || strstr(text, "servers:"), "the design is still a design");
	cr_expect_null(strstr(text, "category,supply"));
	free(text);
	/* Another existing file: asked; n keeps it, y writes the export. */
	keys(":export dot two.yaml");
	cr_assert_eq(app.mode, MODE_CONFIRM);
	cr_expect_str_eq(app.confirm_text, "two.yaml exists. Overwrite it with the dot export? (y overwrites, n keeps it)");
	keys("n");
	cr_expect_str_eq(app.msg, "not exported: two.yaml is kept as it was");
	text = get("two.yaml");
	cr_expect(strstr(text, "count: 2"), "n keeps it");
	free(text);
	keys(":export dot two.yaml\ny");
	cr_expect_str_eq(app.msg, "exported dot to two.yaml");
	text = get("two.yaml");
	cr_expect(strncmp(text, "graph \"pcie-box\"", 16) == 0, "y writes the export: %.40s", text);
	free(text);
	cr_expect_str_eq(app.file, "d.yaml", "an export does not rename the design");
	/* A new name is written without asking. */
	unlink("new.dot");
	keys(":export dot new.dot");
	cr_expect_neq(app.mode, MODE_CONFIRM);
	cr_expect_str_eq(app.msg, "exported dot to new.dot");
	unlink("hard.yaml");
	unlink("link.yaml");
	unlink("new.dot");
	app_free(&app);
}

Test(recover, export_names_are_one_safe_path_component)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_default(&shipped, &d, &diag));
	diag_free(&diag);
	app_init(&app, &d, &shipped, NULL);
	keys(":set name ../../etc/x");
	cr_assert_str_eq(app.design.name, "../../etc/x");
	keys("E\n<Enter>");
	cr_expect_eq(app.mode, MODE_COMMAND);
	cr_expect_str_eq(app.cmdline, "export yaml etc-x.yaml");
	keys("<Esc>\nw");
	cr_expect_str_eq(app.cmdline, "w etc-x.yaml");
	app_free(&app);
}

/* A signal while the model computes: the handler itself writes the work (prepared before
 * the computation began), puts the terminal back, says where the work went and exits
 * 128 + the signal. Run in a child, as the designer would be. */
Test(recover, a_signal_during_a_computation_writes_the_work_from_the_handler)
{
	int status, errfd;
	pid_t pid;
	char *text, *err;
	errfd = open("stderr.txt", O_CREAT | O_WRONLY | O_TRUNC, 0600);
	cr_assert_geq(errfd, 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(errfd, STDERR_FILENO);
		recover_arm("", NULL);
		recover_compute_begin("d.yaml", "ncfabric: 1\nname: work\n");
		recover_on_signal(SIGTERM); /* as the handler does: does not return */
		_exit(99);
	}
	close(errfd);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_expect_eq(WEXITSTATUS(status), 128 + SIGTERM);
	text = get("d.yaml.recover");
	cr_expect_str_eq(text, "ncfabric: 1\nname: work\n");
	free(text);
	err = get("stderr.txt");
	cr_expect_str_eq(err, "ncfabric: unsaved changes written to d.yaml.recover\n");
	free(err);
	/* Outside a computation a signal only sets a flag: the loop saves normally. */
	pid = fork();
	if (pid == 0) {
		recover_arm("", NULL);
		recover_compute_begin("d.yaml", "x");
		recover_compute_end();
		recover_on_signal(SIGTERM);
		_exit(7);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect_eq(WEXITSTATUS(status), 7);
	/* Nowhere to write: exit 1, and say the work is lost. */
	errfd = open("stderr.txt", O_CREAT | O_WRONLY | O_TRUNC, 0600);
	pid = fork();
	if (pid == 0) {
		dup2(errfd, STDERR_FILENO);
		setenv("XDG_STATE_HOME", "/proc/no-such-state", 1);
		recover_arm("", NULL);
		recover_compute_begin("gone/d.yaml", "x");
		recover_on_signal(SIGHUP);
		_exit(99);
	}
	close(errfd);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect_eq(WEXITSTATUS(status), 1);
	err = get("stderr.txt");
	cr_expect(strstr(err, "ncfabric: unsaved changes could not be written to gone/d.yaml.recover nor to /proc/no-such-state/ncfabric/"),
		  "%s", err);
	cr_expect(strstr(err, ": they are lost\n"), "%s", err);
	free(err);
}
