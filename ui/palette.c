/* palette.c: the three menus: what to add (the palette), which template to start from,
 * which export format to write. */
#include "ui/modes.h"
#include "io/safetext.h"
#include "io/export.h"
#include "layouts/template.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette_items[] = { "server group", "NVLink domain group", "leaf switches", "spine switches",
					     "core switches", "bundle from the selected block", "note", NULL };

static void unique_name(const struct design *d, const char *base, char *out, size_t size)
{
	size_t i;
	int k;
	snprintf(out, size, "%s", base);
	for (k = 2; design_find(d, out, &i) != GK_NONE; k++)
		snprintf(out, size, "%s%d", base, k);
}

static unsigned palette_accept(struct app *app)
{
	struct form *f = &app->form;
	const struct schema *s;
	void *draft;
	char name[NCF_NAME_MAX];
	int item = app->palette_cur;
	static const int roles[] = { ROLE_LEAF, ROLE_SPINE, ROLE_CORE };
	switch (item) {
	case 0: s = &server_group_schema; break;
	case 1: s = &domain_group_schema; break;
	case 2: case 3: case 4: s = &switch_group_schema; break;
	case 5: s = &bundle_schema; break;
	default: {
		extern const struct schema canvas_schema;
		const struct field *fl = schema_field(&canvas_schema, "notes");
		s = fl->sub;
	}
	}
	draft = calloc(1, s->size);
	schema_init(s, draft);
	if (s == &server_group_schema) {
		struct server_group *g = draft;
		struct nic_spec *n;
		unique_name(&app->design, "srv", name, sizeof name);
		snprintf(g->name, sizeof g->name, "%s", name);
		g->count = 4;
		snprintf(g->gpu, sizeof g->gpu, "h100-sxm5");
		g->gpus = 8;
		snprintf(g->scaleup, sizeof g->scaleup, "nvswitch-gen3");
		n = vec_push(&g->nics, sizeof *n);
		snprintf(n->model, sizeof n->model, "connectx-7-ndr");
		n->count = 8;
	} else if (s == &domain_group_schema) {
		struct domain_group *m = draft;
		unique_name(&app->design, "nvl72", name, sizeof name);
		snprintf(m->name, sizeof m->name, "%s", name);
		m->count = 1;
		m->servers_each = 18;
		m->switch_trays = 9;
		snprintf(m->tray, sizeof m->tray, "nvlink5-switch-tray");
	} else if (s == &switch_group_schema) {
		struct switch_group *sw = draft;
		unique_name(&app->design, switch_role_names[roles[item - 2]], name, sizeof name);
		snprintf(sw->name, sizeof sw->name, "%s", name);
		sw->role = roles[item - 2];
		sw->count = 1;
		snprintf(sw->model, sizeof sw->model, "qm9700");
	} else if (s == &bundle_schema) {
		struct bundle *b = draft;
		const char *from = selected_name(app);
		size_t i;
		int tier;
		if (!from) {
			schema_free(s, draft);
			free(draft);
			return say(app, true, "select the lower block first (a server or switch group)");
		}
		snprintf(b->from, sizeof b->from, "%s", from);
		tier = design_tier(&app->design, from);
		for (i = 0; i < app->design.switches.n; i++)
			if (1 + DESIGN_SWITCH(&app->design, i)->role > tier) {
				snprintf(b->to, sizeof b->to, "%s", DESIGN_SWITCH(&app->design, i)->name);
				break;
			}
		/* As many links as the server has compute NIC ports not yet wired (one for a switch). */
		b->links_each = 1;
		if (design_find(&app->design, from, &i) == GK_SERVER) {
			int ports = server_compute_ports(DESIGN_SERVER(&app->design, i), &app->catalog);
			size_t k;
			for (k = 0; k < app->design.bundles.n; k++)
				if (!strcmp(DESIGN_BUNDLE(&app->design, k)->from, from))
					ports -= DESIGN_BUNDLE(&app->design, k)->links_each;
			if (ports > 1)
				b->links_each = ports;
		}
	} else {
		struct note *n = draft;
		snprintf(n->text, sizeof n->text, "note");
		n->x = 1;
		n->y = 0;
	}
	form_open(app, FORM_ADD, s, draft, 0, "", palette_items[item]);
	f->draft = draft;
	return CHG_VIEW;
}

unsigned palette_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_ACCEPT:
		return palette_accept(app);
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
		app->palette_cur = (app->palette_cur + 7 + (a == ACT_FIELD_NEXT ? 1 : -1)) % 7;
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		app->palette_cur = a == ACT_TOP ? 0 : 6;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

unsigned templates_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_ACCEPT:
		return form_open_template(app);
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
		app->tmpl_cur = (app->tmpl_cur + (int)ntemplates + (a == ACT_FIELD_NEXT ? 1 : -1)) % (int)ntemplates;
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		app->tmpl_cur = a == ACT_TOP ? 0 : (int)ntemplates - 1;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

unsigned export_action(struct app *app, enum action a)
{
	switch (a) {
	case ACT_ACCEPT: {
		/* The command line, filled in: the name can be changed before Enter. */
		static const char *const ext[] = { "yaml", "json", "bom.csv", "bom.yaml", "bom.json", "dot", "astra", "netbox" };
		char safe[80];
		/* One safe path component from the design's name: no "../", no "/" (safetext.h). */
		snprintf(app->cmdline, sizeof app->cmdline, "export %s %s.%s", export_formats[app->export_cur],
			 safe_filename(app->design.name, safe, sizeof safe), ext[app->export_cur]);
		app->mode = MODE_COMMAND;
		return CHG_VIEW;
	}
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
		app->export_cur = (app->export_cur + 8 + (a == ACT_FIELD_NEXT ? 1 : -1)) % 8;
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		app->export_cur = a == ACT_TOP ? 0 : 7;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

/* ---- painting ------------------------------------------------------------------------- */

void draw_list(struct cellbuf *c, const char *title, const char *const *items, int n, int cur, const char *foot)
{
	int w = 60, h = n + 4, x, y, i;
	center_box(c, w, h, &x, &y);
	cellbuf_printf(c, x + 2, y, w - 4, ROLE_HEADING, " %s ", title);
	for (i = 0; i < n && i < h - 3; i++)
		cellbuf_printf(c, x + 2, y + 1 + i, w - 4, i == cur ? ROLE_SELECTED : ROLE_NORMAL, "%s %s", i == cur ? ">" : " ",
			       items[i]);
	cellbuf_text(c, x + 2, y + h - 2, w - 4, ROLE_DIM, foot);
}

void palette_draw(const struct app *app, struct cellbuf *c)
{
	static const char *const items[] = { "server group", "NVLink domain group", "leaf switches", "spine switches",
					     "core switches", "bundle from the selected block", "note" };
	draw_list(c, "add", items, 7, app->palette_cur, "Enter chooses, Esc cancels");
}

void templates_draw(const struct app *app, struct cellbuf *c)
{
	const char *items[16];
	char text[16][120];
	size_t i;
	for (i = 0; i < ntemplates && i < 16; i++) {
		snprintf(text[i], sizeof text[i], "%-15s %s", templates[i].name, templates[i].help);
		items[i] = text[i];
	}
	draw_list(c, "new design from a template", items, (int)ntemplates, app->tmpl_cur, "Enter sets its parameters, Esc cancels");
}

void export_draw(const struct app *app, struct cellbuf *c)
{
	static const char *const items[] = { "yaml       the design (loadable)", "json       the design (loadable)",
					     "bom-csv    bill of materials, one line per part",
					     "bom-yaml   BOM, cabling plan and headline numbers",
					     "bom-json   BOM, cabling plan and headline numbers",
					     "dot        Graphviz diagram",
					     "astra-sim  ASTRA-sim network YAML + system JSON",
					     "netbox     NetBox device types, devices and cables" };
	draw_list(c, "export", items, 8, app->export_cur, "Enter fills the : command line with a file name");
}
