/* file.c: the design's file on disk: load, save, and noticing that someone else saved it
 * (so that nothing on disk that is not this design is overwritten without asking), and the
 * recovery file that holds unsaved work after a lost connection. */
#include "ui/modes.h"
#include "io/design_io.h"
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
	char err[600];
	if (!path || !path[0])
		return say(app, true, "the built-in design has no file: :w NAME saves it");
	if (app->file_broken && !strcmp(path, app->file))
		return say(app, true, "not saved: %s did not load, and saving would overwrite it with this design; fix it and :e!, or :w OTHER",
			   path);
	if (!design_save(&app->design, path, err, sizeof err))
		return say(app, true, "not saved: %s (the design is still here)", err);
	if (path != app->file)
		snprintf(app->file, sizeof app->file, "%s", path);
	app->file_broken = false;
	mark_saved(app);
	disk_remember(app);
	return say(app, false, "saved %s", app->file);
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
	ed_replace(&app->ed, &nd);
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

void app_recovery_path(const char *file, char *out, size_t size)
{
	const char *home = getenv("HOME");
	if (file && file[0])
		snprintf(out, size, "%s.recover", file);
	else
		snprintf(out, size, "%s/.ncfabric-default.recover.yaml", home && home[0] ? home : ".");
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
		 "A recovery file holds unsaved work%s: %s (%s). Restore it? (y restores, n discards it)", when, what, path);
}
