/* cmdline.c: the ':' command line (vi's ex commands: w, e, export, set, template, ...) with
 * Tab completion, and the '/' search line. */
#include "ui/modes.h"
#include "io/design_io.h"
#include "io/export.h"
#include "io/units.h"
#include "io/safetext.h"
#include "io/failreport.h"
#include "io/prices.h"
#include "model/failure.h"
#include "layouts/template.h"
#include "ui/lesson.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The design becomes template t built with v, as one undoable edit (T, :template, the lesson),
 * with no file: w asks for a name, so a template never overwrites the user's file. u brings
 * back the design it replaced, and template_follow gives that design its file back. */
unsigned template_replace(struct app *app, const struct template *t, const struct tvalues *v)
{
	struct design nd;
	char err[600];
	design_init(&nd);
	if (!template_build(t, v, app->shipped, &nd, err, sizeof err)) {
		design_free(&nd);
		return say(app, true, "%s", err);
	}
	{
		/* A file that does not exist yet (ncfabric new.yaml) is the user's choice for a new
		 * design: it stays. A file on disk is never taken over. */
		bool keep = app->file[0] && !app->stash.active && access(app->file, F_OK) != 0;
		bool track = app->file[0] && !app->stash.active && !keep;
		template_forget(app);
		if (track) {
			design_copy(&app->tmpl_before, &app->design);
			snprintf(app->tmpl_file, sizeof app->tmpl_file, "%s", app->file);
		}
		ed_replace(&app->ed, &nd);
		if (track) {
			design_copy(&app->tmpl_after, &app->design);
			app->tmpl_valid = true;
		}
		if (!keep) {
			app->file[0] = '\0';
			app->file_broken = false;
			app->disk_mtime_ns = app->disk_size = -1;
		}
		app->builtin = false;
		app->selected = 0;
		ensure_selection(app);
		if (keep)
			say(app, false, "new design from '%s' for the new file %.300s (u undoes it)", t->name, app->file);
		else if (track)
			say(app, false, "new design from '%s', no file yet: w names it, u brings back %.300s", t->name,
			    app->tmpl_file);
		else
			say(app, false, "new design from '%s', no file yet: w names it, u undoes it", t->name);
	}
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

void template_forget(struct app *app)
{
	if (!app->tmpl_valid)
		return;
	design_free(&app->tmpl_before);
	design_free(&app->tmpl_after);
	app->tmpl_valid = false;
}

void template_follow(struct app *app)
{
	if (!app->tmpl_valid || app->stash.active)
		return;
	if (!app->file[0] && design_equal(&app->design, &app->tmpl_before)) {
		snprintf(app->file, sizeof app->file, "%s", app->tmpl_file);
		disk_remember(app);
	} else if (!strcmp(app->file, app->tmpl_file) && design_equal(&app->design, &app->tmpl_after)) {
		app->file[0] = '\0';
		app->disk_mtime_ns = app->disk_size = -1;
	}
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

/* :fail SPEC takes part of the design down (model/failure.h) as one undoable edit: the panel
 * then shows the degraded design, and u brings the intact one back. */
unsigned fail_command(struct app *app, const char *spec)
{
	struct fail_spec s;
	struct fail_effect e;
	struct design nd;
	char err[400], name[160];
	if (!fail_parse(spec, &s, err, sizeof err))
		return say(app, true, ":fail %s", err);
	if (!fail_apply(&app->design, &app->catalog, &s, &nd, &e, err, sizeof err)) {
		design_free(&nd);
		return say(app, true, ":fail %s: %s", fail_name(&s, name, sizeof name), err);
	}
	/* The as-built cost is the intact design's: made now if the last edit left it pending. */
	app_settle(app, app_idle(app));
	ed_replace(&app->ed, &nd);
	design_free(&nd);
	app->fail_generation = app->ed.generation;
	ensure_selection(app);
	say(app, false, "%s down (%s): %.200s; u undoes it, w would save it", fail_name(&s, name, sizeof name),
	    fail_response_names[e.response], e.change);
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* f: the selected part's single failure, as :fail names it (what a user takes down first:
 * one switch of a group, not the group; one NIC per server, as NCCL then runs every rank;
 * one link of a bundle). A whole group is :fail group:NAME. */
unsigned fail_selected(struct app *app)
{
	char spec[2 * NCF_NAME_MAX + 16];
	const char *name = selected_name(app);
	size_t i;
	if (!app->selected)
		return say(app, true, "f takes the selected block or bundle down: select one first (b)");
	if (name) {
		switch (design_find(&app->design, name, &i)) {
		case GK_SWITCH:
			snprintf(spec, sizeof spec, "switch:%s", name);
			break;
		case GK_SERVER:
			snprintf(spec, sizeof spec, "nic:%s", name);
			break;
		default:
			return say(app, true, "f: '%s' is not a switch group, a server group or a bundle; :fail SPEC names a part", name);
		}
		return fail_command(app, spec);
	}
	for (i = 0; i < app->design.bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(&app->design, i);
		if (b->id == app->selected) {
			snprintf(spec, sizeof spec, "link:%s->%s", b->from, b->to);
			return fail_command(app, spec);
		}
	}
	return say(app, true, "f: a note cannot fail; select a block or bundle (b)");
}

/* :prices FILE: the panel's cost takes FILE's prices (io/prices.h), then the catalog's list
 * prices; a file with errors changes nothing. :prices alone says where prices come from. */
static unsigned prices_command(struct app *app, const char *file)
{
	struct price_list p;
	struct ncf_diag diag = { 0 };
	if (!file || !file[0])
		return say(app, false, "prices: %s%s (:prices FILE loads a price file)",
			    app->prices_file[0] ? app->prices_file : "the catalog's stated list prices",
			    app->prices_file[0] ? ", then the catalog's stated list prices" : "");
	price_list_init(&p);
	if (!prices_load_file(file, &p, &diag)) {
		const struct ncf_problem *e = diag_count(&diag) ? diag_get(&diag, 0) : NULL;
		if (e && e->line)
			say(app, true, "%s:%d:%d: %s (prices unchanged)", file, e->line, e->col, e->msg);
		else
			say(app, true, "%s: %s (prices unchanged)", file, e ? e->msg : "cannot load");
		diag_free(&diag);
		price_list_free(&p);
		return CHG_VIEW;
	}
	diag_free(&diag);
	app_set_prices(app, &p, file);
	app_idle(app); /* the cost with these prices, for the message */
	return say(app, false, "prices: %s, then the catalog's; %s", file,
		   app->cost.complete ? "every part has one" : "some parts have none");
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

const struct command commands[] = {
	{ "w", "[FILE]", "save the design (to FILE, which it then belongs to)" },
	{ "wq", "[FILE]", "save, then quit" },
	{ "x", "[FILE]", "save if there are changes (or to FILE), then quit; as ZZ" },
	{ "q", "", "quit (asks first if there are unsaved changes)" },
	{ "q!", "", "quit without saving" },
	{ "e", "[FILE]", "open FILE; without FILE load the design's file again" },
	{ "e!", "[FILE]", "the same, even with unsaved changes (u undoes it)" },
	{ "export", "FORMAT FILE", "yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim (FILE a prefix), netbox (FILE a directory)" },
	{ "set", "KEY VALUE", "a field of the selected block; job.KEY and fabric.KEY for the job and the fabric (a key only they have needs no prefix: params_b is job.params_b)" },
	{ "nccl", "ALGO", "force NCCL's algorithm for the job as NCCL_ALGO does: auto, ring, tree, nvls, nvlstree or collnet (as A); NCCL_PROTO=auto, ll, ll128 or simple forces the protocol" },
	{ "gpus", "N", "the job runs on its first N GPUs" },
	{ "size", "BYTES", "the panel's message size (K, M, G are powers of 1024)" },
	{ "algo", "ALGO", "the algorithm the panel and the teaching view show: all, ring, tree, nvls, nvlstree or collnet (as V)" },
	{ "pattern", "P", "the pattern shown: allreduce, allgather, reducescatter, alltoall or sendrecv (as v)" },
	{ "note", "TEXT", "pin a note on the canvas" },
	{ "template", "NAME [K=V...]", "a new design from a template (undoable); without settings its form" },
	{ "select", "NAME", "select a block by name, or a bundle as FROM->TO" },
	{ "fail", "SPEC", "take part down (undoable): switch:GROUP, group:GROUP, nic:SERVERGROUP, link:FROM->TO[:N]" },
	{ "optimize", "METRIC=VALUE [budget=X] [KEY=a,b...]", "the cheapest variant of the design that reaches efficiency, tokens or busbw=VALUE: uplinks, NICs, switch models, routing; y applies it (undoable), :messages has the front" },
	{ "prices", "[FILE]", "the cost in the panel from FILE's prices, then the catalog's list prices (YAML: part, price, currency); alone: where prices come from" },
	{ "pin", "", "pin the design as A for the comparison" },
	{ "unpin", "", "forget A" },
	{ "compare", "[FILE]", "the design beside A (or beside FILE)" },
	{ "lesson", "[PAGE]", "the guided lesson, where it was left (or at PAGE)" },
	{ "recover", "", "offer the design's recovery files again (unsaved work a lost connection left)" },
	{ "messages", "", "every message of this session" },
	{ "errors", "", "the errors of the last file that did not load" },
	{ "help", "", "the keys and these commands" },
	{ NULL, NULL, NULL },
};

/* ---- :set --------------------------------------------------------------------------------- */

/* The text of key's value on object id ("count", "nics[1].speed_gbps", "job.params_b"), or NULL. */
static const char *key_value(const struct app *app, int id, const char *key, char *buf, size_t size)
{
	const struct schema *s;
	const void *obj = ed_object_const(&app->design, id, &s);
	char part[64];
	const char *p = key;
	while (obj && *p) {
		size_t len = strcspn(p, ".[");
		const struct field *f;
		if (len >= sizeof part)
			return NULL;
		memcpy(part, p, len);
		part[len] = '\0';
		p += len;
		f = schema_field(s, part);
		if (!f)
			return NULL;
		if (f->type == FT_STRUCT) {
			obj = field_struct(f, (void *)(uintptr_t)obj);
			s = f->sub;
		} else if (f->type == FT_LIST) {
			const struct vec *v = field_list(f, (void *)(uintptr_t)obj);
			char *end;
			long i;
			if (*p != '[')
				return NULL;
			i = strtol(p + 1, &end, 10);
			if (*end != ']' || i < 0 || (size_t)i >= v->n)
				return NULL;
			obj = (const char *)v->v + (size_t)i * f->sub->size;
			s = f->sub;
			p = end + 1;
		} else {
			return *p ? NULL : field_format(f, obj, buf, size);
		}
		if (*p == '.')
			p++;
	}
	return NULL;
}

/* Which object and full key a short key names: the selected block's own field first, then
 * the job's, then the fabric's ("params_b" is job.params_b). false: err says why. */
static bool resolve_key(const struct app *app, const char *key, int *id, char *full, size_t size, char *err, size_t errsz)
{
	const struct schema *sel = NULL, *job = schema_field(&design_schema, "job")->sub,
			    *fab = schema_field(&design_schema, "fabric")->sub;
	const char *sug;
	char base[64];
	snprintf(base, sizeof base, "%.*s", (int)strcspn(key, ".["), key);
	if (app->selected)
		ed_object_const(&app->design, app->selected, &sel);
	snprintf(full, size, "%s", key);
	*id = 0;
	if (!strncmp(key, "job.", 4) || !strncmp(key, "fabric.", 7) || !strcmp(key, "name") || !strcmp(key, "description"))
		return true;
	if (sel && schema_field(sel, base)) {
		*id = app->selected;
		return true;
	}
	if (!strchr(key, '.') && !strchr(key, '[')) {
		if (schema_field(job, key)) {
			snprintf(full, size, "job.%s", key);
			return true;
		}
		if (schema_field(fab, key)) {
			snprintf(full, size, "fabric.%s", key);
			return true;
		}
	}
	if (sel && (sug = schema_suggest(sel, base)))
		snprintf(err, errsz, "no key '%s' in the selected %s, the job or the fabric (did you mean '%s'?)", key, sel->name, sug);
	else if ((sug = schema_suggest(job, base)))
		snprintf(err, errsz, "no key '%s' in the %s%s, the job or the fabric (did you mean 'job.%s'?)", key,
			 sel ? "selected " : "", sel ? sel->name : "design", sug);
	else if ((sug = schema_suggest(fab, base)))
		snprintf(err, errsz, "no key '%s' in the %s%s, the job or the fabric (did you mean 'fabric.%s'?)", key,
			 sel ? "selected " : "", sel ? sel->name : "design", sug);
	else
		snprintf(err, errsz, "no key '%s' in the %s%s, the job or the fabric (J and F list the job's and the fabric's)", key,
			 sel ? "selected " : "", sel ? sel->name : "design");
	return false;
}

static unsigned set_command(struct app *app, const char *key, const char *value)
{
	int id;
	char full[160], err[400], was[200] = "", now[200] = "", who[160] = "";
	const char *v;
	const struct schema *s;
	const void *obj;
	if (!resolve_key(app, key, &id, full, sizeof full, err, sizeof err))
		return say(app, true, "%s", err);
	v = key_value(app, id, full, was, sizeof was);
	if (!v)
		was[0] = '\0';
	else if (v != was)
		snprintf(was, sizeof was, "%s", v);
	if (!ed_set(&app->ed, id, full, value))
		return edit_result(app, false);
	obj = ed_object_const(&app->design, id, &s);
	if (id && obj && s == &bundle_schema)
		snprintf(who, sizeof who, "%s->%s ", ((const struct bundle *)obj)->from, ((const struct bundle *)obj)->to);
	else if (id && obj)
		snprintf(who, sizeof who, "%s ", (const char *)obj + sizeof(int));
	v = key_value(app, id, full, now, sizeof now);
	if (v && v != now)
		snprintf(now, sizeof now, "%s", v);
	edit_result(app, true);
	if (was[0] && !strcmp(was, now))
		say(app, false, "%s%s is %s already", who, full, now);
	else
		say(app, false, "set %s%s = %s%s%s%s (u undoes)", who, full, v ? now : value, was[0] ? " (was " : "", was,
		    was[0] ? ")" : "");
	return CHG_MODEL | CHG_LAYOUT | CHG_VIEW;
}

/* ---- the commands -------------------------------------------------------------------------- */

static unsigned nccl_command(struct app *app, const char *arg)
{
	int a;
	const char *name = arg;
	if (!strncasecmp(name, "NCCL_PROTO=", 11) || !strncasecmp(name, "proto=", 6)) {
		/* The protocol, as NCCL_PROTO forces it: an edit of job.proto (u undoes it). */
		name = strchr(name, '=') + 1;
		for (a = 0; proto_force_names[a]; a++)
			if (!strcasecmp(name, proto_force_names[a]))
				return set_command(app, "job.proto", proto_force_names[a]);
		return say(app, true, ":nccl NCCL_PROTO= auto, ll, ll128 or simple (NCCL_PROTO for the job), got '%s'", name);
	}
	if (!strncasecmp(name, "NCCL_ALGO=", 10))
		name += 10;
	for (a = 0; algo_names[a]; a++)
		if (!strcasecmp(name, algo_names[a]))
			return force_algo_to(app, a);
	return say(app, true, ":nccl auto, ring, tree, nvls, nvlstree or collnet (NCCL_ALGO for the job), got '%s'", arg);
}

/* :e [FILE], :e! [FILE]: open FILE, or load the design's own file again. */
static unsigned edit_command(struct app *app, bool force, const char *file)
{
	char path[1024];
	if (file && file[0])
		snprintf(path, sizeof path, "%s", file);
	else if (app->file[0])
		snprintf(path, sizeof path, "%s", app->file);
	else
		return say(app, true, ":e FILE opens a design file (this design has none)");
	if (!force && app_dirty(app) && !strcmp(path, app->file))
		return say(app, true, "unsaved changes: :e! loads %s anyway (u undoes it), :w saves them first", path);
	return open_file(app, path);
}

static unsigned app_command_dispatch(struct app *app, const char *line)
{
	char cmd[32] = "", a1[512] = "", a2[512] = "";
	int n = sscanf(line, "%31s %511s %511[^\n]", cmd, a1, a2);
	if (n < 1)
		return CHG_VIEW;
	if (!strcmp(cmd, "w"))
		return n >= 2 ? save_as(app, a1, false) : app_run(app, ACT_SAVE);
	if (!strcmp(cmd, "wq")) {
		unsigned c;
		lesson_end(app); /* :wq saves the user's design, not the lesson's */
		if (n >= 2)
			return save_as(app, a1, true);
		if (!app->file[0]) {
			char safe[80];
			snprintf(app->cmdline, sizeof app->cmdline, "wq %s.yaml", safe_filename(app->design.name, safe, sizeof safe));
			app->mode = MODE_COMMAND;
			return say(app, false, "the design has no file yet: Enter saves it under this name and quits");
		}
		c = app_run(app, ACT_SAVE);
		return app->msg_error || app->mode != MODE_CANVAS ? c : CHG_QUIT;
	}
	if (!strcmp(cmd, "recover"))
		return app_offer_recoveries(app) ? CHG_VIEW
						 : say(app, false, "no recovery files for %.300s",
						       app->file[0] ? app->file : "the built-in design");
	if (!strcmp(cmd, "x") || !strcmp(cmd, "xit") || !strcmp(cmd, "exit"))
		return app_write_quit(app, n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "q!") || !strcmp(cmd, "quit!"))
		return CHG_QUIT;
	if (!strcmp(cmd, "q") || !strcmp(cmd, "quit"))
		return app_run(app, ACT_QUIT);
	if (!strcmp(cmd, "e") || !strcmp(cmd, "e!") || !strcmp(cmd, "edit") || !strcmp(cmd, "edit!"))
		return edit_command(app, cmd[strlen(cmd) - 1] == '!', n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "pin") || !strcmp(cmd, "compare") || !strcmp(cmd, "unpin"))
		return compare_command(app, cmd, n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "export")) {
		if (n < 3)
			return say(app, true, ":export FORMAT NAME (yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim, netbox)");
		if (!export_known(a1))
			return say(app, true, "unknown export format '%s'", a1);
		return export_checked(app, a1, a2);
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
		if (!strcmp(a1, "auto") || !strcmp(a1, "all"))
			u = -1;
		else if (u == UA_P2P)
			return say(app, true, ":algo all, ring, tree, nvls, nvlstree or collnet (the view; :nccl forces one for the job)");
		app->algo_view = u;
		return CHG_MODEL | CHG_VIEW;
	}
	if (!strcmp(cmd, "nccl"))
		return n < 2 ? say(app, true, ":nccl auto, ring, tree, nvls, nvlstree or collnet") : nccl_command(app, a1);
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
		return set_command(app, "job.gpus", a1);
	if (!strcmp(cmd, "set")) {
		const char *eq = n == 2 ? strchr(a1, '=') : NULL;
		if (eq) { /* :set key=value, as vim writes it */
			char key[200];
			snprintf(key, sizeof key, "%.*s", (int)(eq - a1), a1);
			return set_command(app, key, eq + 1);
		}
		if (n < 3)
			return say(app, true, ":set KEY VALUE sets a field of the selected block (or job.KEY, fabric.KEY)");
		return set_command(app, a1, a2);
	}
	if (!strcmp(cmd, "note")) {
		const char *text = strchr(line, ' ');
		return edit_result(app, ed_add_note(&app->ed, text ? text + 1 : "", 1, 0));
	}
	if (!strcmp(cmd, "template") && n >= 3)
		return build_template(app, a1, a2);
	if (!strcmp(cmd, "select") && n >= 2)
		return select_named(app, a1);
	if (!strcmp(cmd, "fail"))
		return n >= 2 ? fail_command(app, a1)
			      : say(app, true, ":fail SPEC: switch:GROUP, group:GROUP, nic:SERVERGROUP or link:FROM->TO[:N]");
	if (!strcmp(cmd, "optimize") || !strcmp(cmd, "opt"))
		return optimize_command(app, strchr(line, ' ') ? strchr(line, ' ') + 1 : "");
	if (!strcmp(cmd, "prices"))
		return prices_command(app, n >= 2 ? a1 : NULL);
	if (!strcmp(cmd, "lesson")) {
		char *end;
		long page = n >= 2 ? strtol(a1, &end, 10) : 0;
		if (n < 2)
			return app_run(app, ACT_LESSON);
		if (*end || page < 1 || page > lesson_npages)
			return say(app, true, ":lesson PAGE: a page from 1 to %d", lesson_npages);
		return lesson_open(app, (int)page - 1);
	}
	if (!strcmp(cmd, "messages") || !strcmp(cmd, "mes"))
		return messages_open(app);
	if (!strcmp(cmd, "errors")) {
		if (!diag_count(&app->load_errors))
			return say(app, false, "no file has failed to load");
		return errors_open(app);
	}
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
	if (!strcmp(cmd, "help") || !strcmp(cmd, "h"))
		return app_run(app, ACT_HELP);
	{
		char list[400] = "";
		size_t used = 0, i;
		for (i = 0; commands[i].name && used < sizeof list; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", commands[i].name);
		return say(app, true, "unknown command ':%s' (the commands: %s; Tab completes them)", cmd, list);
	}
}

unsigned app_command(struct app *app, const char *line)
{
	unsigned chg;
	edit_begin(app);
	chg = app_command_dispatch(app, line);
	edit_end(app);
	return chg;
}

static void complete(struct app *app)
{
	size_t len = strlen(app->cmdline), i, hits = 0;
	const char *hit = NULL;
	if (strchr(app->cmdline, ' '))
		return;
	for (i = 0; commands[i].name; i++)
		if (!strncmp(commands[i].name, app->cmdline, len)) {
			hits++;
			if (!hit)
				hit = commands[i].name;
		}
	if (hits == 1)
		snprintf(app->cmdline, sizeof app->cmdline, "%s ", hit);
	else if (hits > 1) {
		char list[400] = "";
		size_t used = 0;
		for (i = 0; commands[i].name; i++)
			if (!strncmp(commands[i].name, app->cmdline, len) && used < sizeof list)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s ", commands[i].name);
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
	if (key == NK_ENTER || key == NK_ESC || key == NK_TAB || key == NK_CTRL_C)
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
	if (key == NK_ENTER || key == NK_ESC || key == NK_CTRL_C)
		return CHG_PASS;
	return line_text(app->search, sizeof app->search, key);
}
