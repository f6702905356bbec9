/* cmdline.c: the ':' command line (vi's ex commands: w, e, export, set, template, ...) with
 * Tab completion, and the '/' search line. */
#include "ui/modes.h"
#include "io/design_io.h"
#include "io/export.h"
#include "io/units.h"
#include "layouts/template.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The design becomes template t built with v, as one undoable edit (T, :template, the lesson). */
unsigned template_replace(struct app *app, const struct template *t, const struct tvalues *v)
{
	struct design nd;
	char err[600];
	design_init(&nd);
	if (!template_build(t, v, app->shipped, &nd, err, sizeof err)) {
		design_free(&nd);
		return say(app, true, "%s", err);
	}
	ed_replace(&app->ed, &nd);
	app->selected = 0;
	ensure_selection(app);
	say(app, false, "new design from template '%s' (u undoes it)", t->name);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* Build template `name` with "KEY=VALUE" settings (space-separated in sets, may be empty)
 * into a new design that replaces this one (undoable). */
unsigned build_template(struct app *app, const char *name, const char *sets)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	char err[600], kv[300];
	const char *p = sets;
	if (!t)
		return say(app, true, "no template '%s' (T lists them)", name);
	template_defaults(t, &v);
	while (p && *p) {
		int len;
		while (*p == ' ')
			p++;
		len = (int)strcspn(p, " ");
		if (!len)
			break;
		snprintf(kv, sizeof kv, "%.*s", len, p);
		if (!template_set(t, &v, kv, &app->catalog, err, sizeof err))
			return say(app, true, "%s", err);
		p += len;
	}
	return template_replace(app, t, &v);
}

/* :select NAME selects a group by name, or a bundle as FROM->TO. */
static unsigned select_named(struct app *app, const char *name)
{
	const char *arrow = strstr(name, "->");
	size_t i;
	for (i = 0; !arrow && i < app->design.servers.n; i++)
		if (!strcmp(DESIGN_SERVER(&app->design, i)->name, name))
			return app->selected = DESIGN_SERVER(&app->design, i)->id, CHG_VIEW;
	for (i = 0; !arrow && i < app->design.domains.n; i++)
		if (!strcmp(DESIGN_DOMAIN(&app->design, i)->name, name))
			return app->selected = DESIGN_DOMAIN(&app->design, i)->id, CHG_VIEW;
	for (i = 0; !arrow && i < app->design.switches.n; i++)
		if (!strcmp(DESIGN_SWITCH(&app->design, i)->name, name))
			return app->selected = DESIGN_SWITCH(&app->design, i)->id, CHG_VIEW;
	for (i = 0; arrow && i < app->design.bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(&app->design, i);
		if (strlen(b->from) == (size_t)(arrow - name) && !strncmp(b->from, name, (size_t)(arrow - name)) &&
		    !strcmp(b->to, arrow + 2))
			return app->selected = b->id, CHG_VIEW;
	}
	return say(app, true, "no block or bundle '%s' (bundles as FROM->TO)", name);
}

static const char *const commands[] = { "w", "wq", "q", "q!", "e", "export", "size", "gpus", "algo", "pattern", "set",
					"note", "template", "select", "pin", "unpin", "compare", "lesson", "help", NULL };

unsigned app_command(struct app *app, const char *line)
{
	char cmd[32] = "", a1[512] = "", a2[512] = "";
	int n = sscanf(line, "%31s %511s %511[^\n]", cmd, a1, a2);
	if (n < 1)
		return CHG_VIEW;
	if (!strcmp(cmd, "w"))
		return n >= 2 ? save_to(app, a1) : save_checked(app, app->file);
	if (!strcmp(cmd, "wq")) {
		unsigned c = save_to(app, n >= 2 ? a1 : app->file);
		return app->msg_error ? c : CHG_QUIT;
	}
	if (!strcmp(cmd, "q!"))
		return CHG_QUIT;
	if (!strcmp(cmd, "q"))
		return app_run(app, ACT_QUIT);
	if (!strcmp(cmd, "e")) {
		if (n < 2)
			return say(app, true, ":e NAME opens a design file");
		return open_file(app, a1);
	}
	if (!strcmp(cmd, "pin") || !strcmp(cmd, "compare") || !strcmp(cmd, "unpin"))
		return compare_command(app, cmd, n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "export")) {
		char err[600], *text;
		bool ok;
		if (n < 3)
			return say(app, true, ":export FORMAT NAME (yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim, netbox)");
		if (!export_known(a1))
			return say(app, true, "unknown export format '%s'", a1);
		if (export_multi_file(a1)) {
			ok = export_files(&app->design, &app->catalog, a1, a2, err, sizeof err);
		} else {
			text = export_text(&app->design, &app->catalog, a1, err, sizeof err);
			ok = text && file_write_atomic(a2, text, strlen(text), err, sizeof err);
			free(text);
		}
		return ok ? say(app, false, "exported %s to %s", a1, a2) : say(app, true, "export %s: %s", a1, err);
	}
	if (!strcmp(cmd, "size")) {
		char err[200];
		double b;
		if (n < 2 || !parse_size(a1, &b, err, sizeof err))
			return say(app, true, "%s", n < 2 ? ":size BYTES (K, M, G are powers of 1024)" : err);
		app->bytes = b;
		return CHG_MODEL | CHG_VIEW;
	}
	if (!strcmp(cmd, "algo")) {
		int u;
		for (u = 0; u < UA_P2P; u++)
			if (!strcmp(a1, ualgo_names[u]))
				break;
		if (!strcmp(a1, "auto"))
			u = -1;
		else if (u == UA_P2P)
			return say(app, true, ":algo auto, ring, tree, nvls, nvlstree or collnet");
		app->algo_view = u;
		return CHG_VIEW;
	}
	if (!strcmp(cmd, "pattern")) {
		int c = -1, k;
		for (k = 0; k < PATTERNS; k++)
			if (!strcmp(a1, coll_names[k]))
				c = k;
		if (c < 0)
			return say(app, true, ":pattern allreduce, allgather, reducescatter, alltoall or sendrecv");
		app->pattern = c;
		return CHG_MODEL | CHG_VIEW;
	}
	if (!strcmp(cmd, "gpus"))
		return edit_result(app, ed_set(&app->ed, 0, "job.gpus", a1));
	if (!strcmp(cmd, "set")) {
		if (n < 3)
			return say(app, true, ":set KEY VALUE sets a field of the selected block (or job.KEY, fabric.KEY)");
		if (!strncmp(a1, "job.", 4) || !strncmp(a1, "fabric.", 7) || !strcmp(a1, "name") || !strcmp(a1, "description"))
			return edit_result(app, ed_set(&app->ed, 0, a1, a2));
		return edit_result(app, ed_set(&app->ed, app->selected, a1, a2));
	}
	if (!strcmp(cmd, "note")) {
		const char *text = strchr(line, ' ');
		return edit_result(app, ed_add_note(&app->ed, text ? text + 1 : "", 1, 0));
	}
	if (!strcmp(cmd, "template") && n >= 3)
		return build_template(app, a1, a2);
	if (!strcmp(cmd, "select") && n >= 2)
		return select_named(app, a1);
	if (!strcmp(cmd, "lesson"))
		return app_run(app, ACT_LESSON);
	if (!strcmp(cmd, "template")) {
		size_t i;
		for (i = 0; i < ntemplates; i++)
			if (!strcmp(templates[i].name, a1))
				break;
		if (i == ntemplates)
			return say(app, true, ":template NAME (T lists them)");
		app->tmpl_cur = (int)i;
		app->mode = MODE_TEMPLATES;
		return app_run(app, ACT_ACCEPT);
	}
	if (!strcmp(cmd, "help"))
		return app_run(app, ACT_HELP);
	return say(app, true, "unknown command ':%s' (Tab completes: w, e, export, size, gpus, algo, pattern, set, note, template, q)",
		   cmd);
}

static void complete(struct app *app)
{
	size_t len = strlen(app->cmdline), i, hits = 0;
	const char *hit = NULL;
	if (strchr(app->cmdline, ' '))
		return;
	for (i = 0; commands[i]; i++)
		if (!strncmp(commands[i], app->cmdline, len)) {
			hits++;
			if (!hit)
				hit = commands[i];
		}
	if (hits == 1)
		snprintf(app->cmdline, sizeof app->cmdline, "%s ", hit);
	else if (hits > 1) {
		char list[200] = "";
		size_t used = 0;
		for (i = 0; commands[i]; i++)
			if (!strncmp(commands[i], app->cmdline, len) && used < sizeof list)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s ", commands[i]);
		say(app, false, "%s", list);
	}
}

unsigned line_text(char *buf, size_t size, int key)
{
	size_t n = strlen(buf);
	if (key == NK_CTRL_U) { /* as in a shell: clear the line */
		buf[0] = '\0';
		return CHG_VIEW;
	}
	if (key == NK_BACKSPACE) {
		if (n)
			buf[n - 1] = '\0';
		return CHG_VIEW;
	}
	if (key >= 0x20 && key < 0x7f && n + 1 < size) {
		buf[n] = (char)key;
		buf[n + 1] = '\0';
		return CHG_VIEW;
	}
	return CHG_NONE;
}

unsigned command_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_ACCEPT: {
		char line[256];
		snprintf(line, sizeof line, "%s", app->cmdline);
		app->mode = MODE_CANVAS;
		return app_command(app, line);
	}
	case ACT_COMPLETE:
		complete(app);
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

unsigned command_text(struct app *app, int key)
{
	if (key == NK_ENTER || key == NK_ESC || key == NK_TAB)
		return CHG_PASS;
	return line_text(app->cmdline, sizeof app->cmdline, key);
}

unsigned search_action(struct app *app, enum action a)
{
	if (a != ACT_ACCEPT)
		return CHG_PASS;
	app->mode = MODE_CANVAS;
	return search_step(app, 1);
}

unsigned search_text(struct app *app, int key)
{
	if (key == NK_ENTER || key == NK_ESC)
		return CHG_PASS;
	return line_text(app->search, sizeof app->search, key);
}
