/* confirm.c: a question the user answers before anything else: quit without saving, delete
 * a block with its bundles, reload or overwrite a file someone else saved, overwrite another
 * file with :w NAME or :export FORMAT NAME, restore a recovery file. */
#include "ui/modes.h"
#include <stdio.h>
#include <string.h>

unsigned confirm_text(struct app *app, int key)
{
	if (key == 'w' && app->confirm == CONFIRM_QUIT)
		return app_run(app, ACT_SAVE);
	return CHG_PASS;
}

static unsigned answer(struct app *app, bool yes)
{
	app->mode = MODE_CANVAS;
	if (!yes)
		app->interrupted = false; /* the quit begun with Ctrl-C is off */
	if (app->confirm == CONFIRM_QUIT)
		return yes ? CHG_QUIT : CHG_VIEW;
	if (app->confirm == CONFIRM_DELETE)
		return yes ? edit_result(app, ed_delete(&app->ed, app->pending_delete, true)) : CHG_VIEW;
	if (app->confirm == CONFIRM_OVERWRITE)
		return yes ? save_to(app, app->file) : say(app, false, "not saved: the file on disk is theirs");
	if (app->confirm == CONFIRM_RELOAD) {
		if (yes) {
			char path[1024];
			snprintf(path, sizeof path, "%s", app->file);
			return open_file(app, path);
		}
		app->disk_noted = true;
		return say(app, false, "kept your design; w would ask before overwriting theirs");
	}
	if (app->confirm == CONFIRM_SAVE_AS) {
		unsigned c;
		if (!yes)
			return say(app, false, "not saved: %.300s is kept as it was", app->save_as);
		c = save_to(app, app->save_as);
		return app->save_as_quit && !app->msg_error ? CHG_QUIT : c;
	}
	if (app->confirm == CONFIRM_EXPORT)
		return yes ? export_to(app, app->export_format, app->save_as)
			   : say(app, false, "not exported: %.300s is kept as it was", app->save_as);
	if (app->confirm == CONFIRM_RECOVER)
		return yes ? recovery_restore(app) : recovery_discard(app);
	if (app->confirm == CONFIRM_OPTIMIZE) {
		if (yes)
			return optimize_apply(app);
		optimize_forget();
		return say(app, false, "kept the design (:messages has the front)");
	}
	return CHG_VIEW;
}

unsigned confirm_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_YES:
	case ACT_NO:
		return answer(app, a == ACT_YES);
	case ACT_CANCEL:
		if (app->confirm == CONFIRM_RECOVER)
			return recovery_keep(app); /* Esc keeps the file: it is not "no" */
		app->interrupted = false;
		return CHG_PASS;
	case ACT_INTERRUPT:
		/* Ctrl-C again in the quit question: quit, the work kept in the recovery file. */
		if (app->confirm == CONFIRM_QUIT) {
			app->interrupted = true;
			app->quit_recover = true;
			return CHG_QUIT;
		}
		return confirm_action(app, ACT_CANCEL);
	case ACT_SAVE:
		/* w in the quit question: save, then quit. */
		if (!app->file[0] || app->confirm != CONFIRM_QUIT)
			return CHG_PASS;
		{
			unsigned c = save_to(app, app->file);
			return app->msg_error ? (app->mode = MODE_CANVAS, c) : CHG_QUIT;
		}
	default:
		return CHG_PASS;
	}
}

void confirm_draw(const struct app *app, struct cellbuf *c)
{
	int w = c->w - 8 < 70 ? c->w - 8 : 70, x, y;
	center_box(c, w, 6, &x, &y);
	cellbuf_text(c, x + 2, y, w - 4, ROLE_HEADING, " question ");
	cellbuf_wrap(c, x + 2, y + 1, w - 4, 4, ROLE_WARNING, app->confirm_text);
}
