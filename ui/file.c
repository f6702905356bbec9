/* file.c: the design's file on disk: load, save, and noticing that someone else saved it
 * (so that nothing on disk that is not this design is overwritten without asking), and the
 * recovery file that holds unsaved work after a lost connection. */
#include "ui/modes.h"
#include "io/design_io.h"
#include "io/export.h"
#include "io/parse.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

static bool disk_stat(const char *path, long long *mtime_ns, long long *size)
{
	struct stat st;
	if (!path[0] || stat(path, &st) != 0) {
		*mtime_ns = *size = -1;
		return false;
	}
	*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	*size = (long long)st.st_size;
	return true;
}

void disk_remember(struct app *app)
{
	disk_stat(app->file, &app->disk_mtime_ns, &app->disk_size);
	app->disk_noted = false;
}

static bool disk_changed(const struct app *app)
{
	long long m, z;
	if (!app->file[0] || app->disk_mtime_ns < 0)
		return false;
	return disk_stat(app->file, &m, &z) && (m != app->disk_mtime_ns || z != app->disk_size);
}

/* The design on screen is what its file holds now. */
void mark_saved(struct app *app)
{
	if (app->saved_valid)
		design_free(&app->saved);
	design_copy(&app->saved, &app->design);
	app->saved_valid = true;
	app->saved_generation = app->ed.generation;
}

unsigned save_to(struct app *app, const char *path)
{
	char err[600], note[sizeof app->file + 120] = "";
	const char *from;
	bool dropped = false;
	if (!path || !path[0])
		return say(app, true, "the built-in design has no file: :w NAME saves it");
	if (app->file_broken && !strcmp(path, app->file))
		return say(app, true, "not saved: %s did not load, and saving would overwrite it with this design; fix it and :e!, or :w OTHER",
			   path);
	/* The leading comment block of the design's own file is kept (under a new name too);
	 * other comments cannot be written back by libyaml: said once, FILE~ has them. */
	from = app->file[0] && !app->file_broken ? app->file : path;
	if (!design_save_keeping(&app->design, path, from, &dropped, err, sizeof err))
		return say(app, true, "not saved: %s (the design is still here)", err);
	if (dropped && !app->comments_noted) {
		app->comments_noted = true;
		if (!strcmp(from, path))
			snprintf(note, sizeof note, "; comments below its header not kept: %.200s~ has them", path);
		else if (format_guess(path, "", 0) == FMT_JSON)
			snprintf(note, sizeof note, "; JSON keeps no comments: %.200s has them", from);
		else
			snprintf(note, sizeof note, "; comments below the header not kept: %.200s has them", from);
	}
	if (path != app->file)
		snprintf(app->file, sizeof app->file, "%s", path);
	app->file_broken = false;
	mark_saved(app);
	disk_remember(app);
	template_forget(app);
	if (app->restored_from[0]) {
		/* The restored work is safe in a file now: its recovery file goes. */
		char gone[RECOVER_PATH];
		snprintf(gone, sizeof gone, "%s", app->restored_from);
		app->restored_from[0] = '\0';
		if (unlink(gone) == 0)
			return say(app, false, "saved %s (recovery file %s removed)%s", app->file, gone, note);
	}
	return say(app, false, "saved %s%s", app->file, note);
}

unsigned save_as(struct app *app, const char *name, bool quit)
{
	struct stat a, b;
	unsigned c;
	if (stat(name, &a) == 0 && S_ISREG(a.st_mode) &&
	    !(app->file[0] && stat(app->file, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
		snprintf(app->save_as, sizeof app->save_as, "%s", name);
		app->save_as_quit = quit;
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_SAVE_AS;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "%.300s exists and is not this design's file. Overwrite it with this design? (y overwrites, n keeps it)",
			 name);
		return CHG_VIEW;
	}
	c = save_to(app, name);
	return quit && !app->msg_error ? CHG_QUIT : c;
}

unsigned export_to(struct app *app, const char *format, const char *path)
{
	char err[600], *text;
	bool ok;
	if (export_multi_file(format)) {
		ok = export_files(&app->design, &app->catalog, format, path, err, sizeof err);
	} else {
		text = export_text(&app->design, &app->catalog, format, err, sizeof err);
		ok = text && file_write_atomic(path, text, strlen(text), err, sizeof err);
		free(text);
	}
	return ok ? say(app, false, "exported %s to %s", format, path) : say(app, true, "export %s: %s", format, err);
}

unsigned export_checked(struct app *app, const char *format, const char *path)
{
	const struct file_input in[] = { { app->file[0] ? app->file : NULL, "this design's file" } };
	struct stat st;
	char err[2400];
	if (!export_output_ok(format, path, in, 1, err, sizeof err))
		return say(app, true, "export %s: %s", format, err);
	/* The multi-file exports replace only their own earlier files (export_write.h). */
	if (!export_multi_file(format) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(app->save_as, sizeof app->save_as, "%s", path);
		snprintf(app->export_format, sizeof app->export_format, "%s", format);
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_EXPORT;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "%.300s exists. Overwrite it with the %s export? (y overwrites, n keeps it)", path, format);
		return CHG_VIEW;
	}
	return export_to(app, format, path);
}

unsigned save_checked(struct app *app, const char *path)
{
	if (path == app->file && disk_changed(app)) {
		app->mode = MODE_CONFIRM;
		app->confirm = CONFIRM_OVERWRITE;
		snprintf(app->confirm_text, sizeof app->confirm_text,
			 "%.300s changed on disk since it was loaded (someone else saved it). Overwrite it with this design? (y overwrites, n keeps theirs; :e reloads it)",
			 app->file);
		return CHG_VIEW;
	}
	return save_to(app, path);
}

/* Load path into *out; on failure say why with its position (the design on screen stays),
 * and keep every error for :errors. */
bool load_or_say(struct app *app, const char *path, struct design *out)
{
	struct ncf_diag diag = { 0 };
	bool ok = design_load_file(path, app->shipped, out, &diag);
	if (!ok) {
		const struct ncf_problem *p = diag_count(&diag) ? diag_get(&diag, 0) : NULL;
		char more[64] = "";
		if (diag.n_errors > 1)
			snprintf(more, sizeof more, "; :errors lists all %d", diag.n_errors);
		if (p && p->line)
			say(app, true, "%s:%d:%d: %s (nothing changed%s)", path, p->line, p->col, p->msg, more);
		else
			say(app, true, "%s: %s (nothing changed%s)", path, p ? p->msg : "cannot load", more);
		diag_free(&app->load_errors);
		app->load_errors = diag;
		snprintf(app->errors_file, sizeof app->errors_file, "%s", path);
		return false;
	}
	diag_free(&diag);
	return ok;
}

unsigned open_file(struct app *app, const char *path)
{
	struct design nd;
	if (!load_or_say(app, path, &nd))
		return !strcmp(path, app->file) && app->file_broken ? errors_open(app) : CHG_VIEW;
	lesson_end(app); /* the file replaces the user's design, not the lesson's copy */
	template_forget(app);
	ed_replace(&app->ed, &nd);
	app->cost.valid = false; /* another design, not an edit: no cost change to show */
	snprintf(app->file, sizeof app->file, "%s", path);
	app->file_broken = false;
	mark_saved(app);
	disk_remember(app);
	app->selected = 0;
	ensure_selection(app);
	say(app, false, "opened %s", path);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* A design name from a file name: its base name without the extension. */
static void name_of(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/'), *dot;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	snprintf(out, size, "%.*s", (int)(dot && dot != base ? dot - base : (long)strlen(base)), base);
	if (!out[0])
		snprintf(out, size, "design");
}

void app_start_new(struct app *app, const char *path)
{
	name_of(path, app->design.name, sizeof app->design.name);
	mark_saved(app);
	app_recompute(app);
	say(app, false, "%s is a new file: a adds a block, T starts from a template, w creates it", path);
}

void app_start_broken(struct app *app, const char *path, struct ncf_diag *diag)
{
	name_of(path, app->design.name, sizeof app->design.name);
	mark_saved(app);
	app_recompute(app);
	diag_free(&app->load_errors);
	app->load_errors = *diag;
	memset(diag, 0, sizeof *diag);
	snprintf(app->errors_file, sizeof app->errors_file, "%s", path);
	app->file_broken = true;
	errors_open(app);
}

unsigned app_check_disk(struct app *app)
{
	if (app->disk_noted || app->mode == MODE_CONFIRM || app->mode == MODE_FORM || !disk_changed(app))
		return CHG_NONE;
	app->disk_noted = true;
	app->mode = MODE_CONFIRM;
	app->confirm = CONFIRM_RELOAD;
	snprintf(app->confirm_text, sizeof app->confirm_text,
		 "%.300s changed on disk (someone else saved it). Reload it? (y loads theirs%s, n keeps yours)", app->file,
		 app_dirty(app) ? "; u undoes the reload" : "");
	return CHG_VIEW;
}

/* ---- recovery files (recover.h) ------------------------------------------------------------- */

/* The next recovery file still to offer, if any: the question, else the canvas. */
static unsigned recovery_next(struct app *app)
{
	while (app->recover_next < app->recover_n) {
		const char *p = app->recover_queue[app->recover_next++];
		if (access(p, F_OK) == 0) {
			app_offer_recovery(app, p);
			return CHG_VIEW;
		}
	}
	app->recover_n = app->recover_next = 0;
	if (app->mode == MODE_CONFIRM && app->confirm == CONFIRM_RECOVER)
		app->mode = MODE_CANVAS;
	return CHG_VIEW;
}

int app_offer_recoveries(struct app *app)
{
	app->recover_n = recover_find(app->file, app->recover_queue, RECOVER_MAX);
	app->recover_next = 0;
	if (app->recover_n)
		recovery_next(app);
	return app->recover_n;
}

/* y: the work comes back as an edit of the design on screen (u goes back to the file as
 * saved), its file name stays, and the recovery file stays until the design is saved. A
 * recovery file that does not load is kept and said so. */
unsigned recovery_restore(struct app *app)
{
	struct design nd;
	char path[RECOVER_PATH];
	snprintf(path, sizeof path, "%s", app->recover_path);
	if (!load_or_say(app, path, &nd)) {
		char why[sizeof app->msg];
		snprintf(why, sizeof why, "%s", app->msg);
		say(app, true, "%.900s; the recovery file is kept as it is", why);
		return recovery_next(app);
	}
	ed_replace(&app->ed, &nd);
	app->selected = 0;
	ensure_selection(app);
	snprintf(app->restored_from, sizeof app->restored_from, "%s", path);
	/* The file on disk is what was loaded: no "changed on disk" question for a restore. */
	say(app, false, "restored %.400s (w saves it%s%.300s; u undoes)", path, app->file[0] ? " to " : "", app->file);
	recovery_next(app);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

unsigned recovery_discard(struct app *app)
{
	if (unlink(app->recover_path) == 0)
		say(app, false, "recovery file %.400s discarded", app->recover_path);
	else
		say(app, true, "cannot remove %.400s: %s", app->recover_path, strerror(errno));
	return recovery_next(app);
}

/* Esc: nothing is removed; :recover offers them again. */
unsigned recovery_keep(struct app *app)
{
	int left = app->recover_n - app->recover_next;
	app->recover_n = app->recover_next = 0;
	app->mode = MODE_CANVAS;
	return say(app, false, "kept %.400s%s%.0d%s (:recover offers them again)", app->recover_path,
		   left ? " and " : "", left, left ? (left == 1 ? " more recovery file" : " more recovery files") : "");
}

void app_offer_recovery(struct app *app, const char *path)
{
	struct design d;
	struct ncf_diag diag = { 0 };
	char what[300] = "it does not load";
	struct stat st;
	char when[64] = "";
	if (design_load_file(path, app->shipped, &d, &diag)) {
		struct catalog cat;
		struct inventory inv;
		design_catalog(&d, app->shipped, &cat);
		inventory_compute(&d, &cat, &inv);
		snprintf(what, sizeof what, "'%s': %ld servers, %ld GPUs, %ld switches, %zu bundles", d.name, inv.servers, inv.gpus,
			 inv.switches[0] + inv.switches[1] + inv.switches[2], d.bundles.n);
		inventory_free(&inv);
		catalog_free(&cat);
		design_free(&d);
	}
	diag_free(&diag);
	if (stat(path, &st) == 0) {
		struct tm tm;
		localtime_r(&st.st_mtime, &tm);
		strftime(when, sizeof when, " from %Y-%m-%d %H:%M", &tm);
	}
	snprintf(app->recover_path, sizeof app->recover_path, "%s", path);
	app->mode = MODE_CONFIRM;
	app->confirm = CONFIRM_RECOVER;
	snprintf(app->confirm_text, sizeof app->confirm_text,
		 "A recovery file holds unsaved work%s: %s (%s). Restore it? (y restores, n discards it, Esc keeps it)", when,
		 what, path);
}
