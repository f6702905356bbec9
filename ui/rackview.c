/* rackview.c: the rack layout view (mode racks, key R): the racks of the physical layout
 * (model/floor.h) row by row, what stands in the selected rack unit by unit, and the cables
 * that leave it with their lengths, all from the one cabling plan the exports use. The
 * numbers are computed when the view opens and after every recompute while it is open;
 * painting only reads them. */
#include "ui/modes.h"
#include "model/alloc.h"
#include "model/cableplan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device standing in a rack. */
struct rv_dev {
	int kind;              /* GK_SERVER, GK_SWITCH or GK_DOMAIN (an NVLink switch tray) */
	size_t group;
	long member;           /* trays: domain * switch_trays + tray */
	int rack, u, height;
};

/* What one rack holds and what its cables do. */
struct rv_rack {
	long first, ndev;      /* its devices in devs, top first */
	long out, in;          /* links leaving the rack, links inside it */
	long unknown_power;    /* devices whose power the catalog does not give */
	long out_media[5];     /* leaving links per enum media */
	double out_min_m, out_max_m, in_max_m;
};

struct rackview {
	struct cableplan plan; /* owns the floor */
	bool built;
	struct rv_rack *racks;
	size_t nracks;
	struct rv_dev *devs;
	size_t ndevs;
	int sel;               /* selected rack */
	int top;               /* first device line of the elevation shown */
};

/* ---- computing --------------------------------------------------------------------- */

static void count_link(const struct cab_link *l, const struct cp_link *c, void *v)
{
	struct rackview *rv = v;
	const struct floor *f = &rv->plan.floor;
	const struct floor_spot *a = floor_spot_at(f, &l->a), *b = floor_spot_at(f, &l->b);
	int ends[2], k;
	if (!rv->racks) {
		rv->nracks = f->racks.n;
		rv->racks = xcalloc(rv->nracks + 1, sizeof *rv->racks);
	}
	if (!a || !b || a->rack < 0 || b->rack < 0 || (size_t)a->rack >= rv->nracks || (size_t)b->rack >= rv->nracks)
		return;
	if (a->rack == b->rack) {
		struct rv_rack *r = &rv->racks[a->rack];
		r->in++;
		if (c->length_m > r->in_max_m)
			r->in_max_m = c->length_m;
		return;
	}
	ends[0] = a->rack;
	ends[1] = b->rack;
	for (k = 0; k < 2; k++) {
		struct rv_rack *r = &rv->racks[ends[k]];
		if (!r->out++ || c->length_m < r->out_min_m)
			r->out_min_m = c->length_m;
		if (c->length_m > r->out_max_m)
			r->out_max_m = c->length_m;
		if (c->media > 0 && c->media < 5)
			r->out_media[c->media]++;
	}
}

static void add_dev(struct vec *v, int kind, size_t group, long member, const struct floor_spot *s)
{
	struct rv_dev *d;
	if (s->rack < 0)
		return;
	d = vec_push(v, sizeof *d);
	d->kind = kind;
	d->group = group;
	d->member = member;
	d->rack = s->rack;
	d->u = s->u;
	d->height = s->height > 0 ? s->height : 1;
}

/* Rack by rack, the top of each rack first. */
static int dev_order(const void *x, const void *y)
{
	const struct rv_dev *a = x, *b = y;
	if (a->rack != b->rack)
		return a->rack < b->rack ? -1 : 1;
	if (a->u != b->u)
		return a->u > b->u ? -1 : 1;
	return 0;
}

/* Does the catalog give the device's power (the rack's total counts only those)? */
static bool dev_power_known(const struct design *d, const struct catalog *cat, const struct rv_dev *v)
{
	if (v->kind == GK_SERVER) {
		const struct cat_server *s = catalog_server(cat, DESIGN_SERVER(d, v->group)->model);
		return s && s->power_W > 0;
	}
	if (v->kind == GK_SWITCH) {
		const struct cat_switch *s = catalog_switch(cat, DESIGN_SWITCH(d, v->group)->model);
		return s && (s->power_max_W > 0 || s->power_W > 0);
	}
	{
		const struct cat_fabric *t = catalog_fabric(cat, DESIGN_DOMAIN(d, v->group)->tray);
		return t && t->power_W > 0;
	}
}

static void clear(struct rackview *rv)
{
	if (rv->built)
		cableplan_free(&rv->plan);
	free(rv->racks);
	free(rv->devs);
	rv->racks = NULL;
	rv->devs = NULL;
	rv->nracks = rv->ndevs = 0;
	rv->built = false;
}

void rackview_refresh(struct app *app)
{
	struct rackview *rv = app->racks;
	const struct design *d = &app->design;
	struct vec devs = { 0 };
	size_t i;
	long j;
	if (!rv)
		return;
	clear(rv);
	cableplan_build(d, &app->catalog, &rv->plan, count_link, rv);
	rv->built = true;
	if (!rv->racks) { /* no links at all */
		rv->nracks = rv->plan.floor.racks.n;
		rv->racks = xcalloc(rv->nracks + 1, sizeof *rv->racks);
	}
	for (i = 0; i < d->servers.n; i++)
		for (j = 0; j < DESIGN_SERVER(d, i)->count; j++)
			add_dev(&devs, GK_SERVER, i, j, &rv->plan.floor.server[i][j]);
	for (i = 0; i < d->switches.n; i++)
		for (j = 0; j < DESIGN_SWITCH(d, i)->count; j++)
			add_dev(&devs, GK_SWITCH, i, j, &rv->plan.floor.sw[i][j]);
	for (i = 0; i < d->domains.n; i++)
		for (j = 0; j < (long)DESIGN_DOMAIN(d, i)->count * DESIGN_DOMAIN(d, i)->switch_trays; j++)
			add_dev(&devs, GK_DOMAIN, i, j, &rv->plan.floor.tray[i][j]);
	if (devs.n > 1)
		qsort(devs.v, devs.n, sizeof(struct rv_dev), dev_order);
	rv->devs = devs.v;
	rv->ndevs = devs.n;
	for (i = 0; i < rv->ndevs; i++) {
		int r = rv->devs[i].rack;
		if (r < 0 || (size_t)r >= rv->nracks)
			continue;
		if (!rv->racks[r].ndev++)
			rv->racks[r].first = (long)i;
		if (!dev_power_known(d, &app->catalog, &rv->devs[i]))
			rv->racks[r].unknown_power++;
	}
	if (rv->sel >= (int)rv->nracks)
		rv->sel = rv->nracks ? (int)rv->nracks - 1 : 0;
	if (rv->sel < 0)
		rv->sel = 0;
	rv->top = 0;
}

unsigned rackview_open(struct app *app)
{
	if (!app->racks)
		app->racks = xcalloc(1, sizeof *app->racks);
	app->mode = MODE_RACKS;
	rackview_refresh(app);
	if (!app->racks->nracks) {
		app->mode = MODE_CANVAS;
		return say(app, true, "no racks: the design has no servers or switches to stand in them");
	}
	return CHG_VIEW;
}

void rackview_free(struct app *app)
{
	if (!app->racks)
		return;
	clear(app->racks);
	free(app->racks);
	app->racks = NULL;
}

/* ---- moving ------------------------------------------------------------------------ */

static const struct floor_rack *rack_at(const struct rackview *rv, int i)
{
	return &VEC_AT(rv->plan.floor.racks, struct floor_rack, i);
}

/* The rack of row `row` nearest to position pos, or -1 when the row has none. */
static int rack_in_row(const struct rackview *rv, int row, int pos)
{
	int i, best = -1, bd = 0;
	for (i = 0; i < (int)rv->nracks; i++) {
		const struct floor_rack *r = rack_at(rv, i);
		int dd = r->pos > pos ? r->pos - pos : pos - r->pos;
		if (r->row == row && (best < 0 || dd < bd)) {
			best = i;
			bd = dd;
		}
	}
	return best;
}

unsigned rackview_action(struct app *app, enum action a)
{
	struct rackview *rv = app->racks;
	const struct floor_rack *cur;
	int n;
	if (app->mode != MODE_RACKS || !rv)
		return CHG_PASS;
	n = (int)rv->nracks;
	cur = n ? rack_at(rv, rv->sel) : NULL;
	switch (a) {
	case ACT_RACKS:
	case ACT_CANCEL:
	case ACT_QUIT:
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	case ACT_FIELD_NEXT:
	case ACT_FIELD_PREV:
		if (n) {
			rv->sel = (rv->sel + (a == ACT_FIELD_NEXT ? 1 : n - 1)) % n;
			rv->top = 0;
		}
		return CHG_VIEW;
	case ACT_DOWN:
	case ACT_UP:
		if (cur) {
			int rows = rv->plan.floor.rows, row = cur->row, to = -1;
			do
				row += a == ACT_DOWN ? 1 : -1;
			while (row >= 0 && row < rows && (to = rack_in_row(rv, row, cur->pos)) < 0);
			if (to >= 0) {
				rv->sel = to;
				rv->top = 0;
			}
		}
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		if (n) {
			rv->sel = a == ACT_TOP ? 0 : n - 1;
			rv->top = 0;
		}
		return CHG_VIEW;
	case ACT_SCROLL_DOWN:
	case ACT_PAGE_DOWN:
		if (cur && rv->top + 1 < rv->racks[rv->sel].ndev)
			rv->top += 4;
		if (cur && rv->top >= rv->racks[rv->sel].ndev)
			rv->top = (int)rv->racks[rv->sel].ndev - 1;
		return CHG_VIEW;
	case ACT_SCROLL_UP:
	case ACT_PAGE_UP:
		rv->top = rv->top > 4 ? rv->top - 4 : 0;
		return CHG_VIEW;
	default:
		return CHG_PASS;
	}
}

/* ---- painting ---------------------------------------------------------------------- */

static char kind_letter(int kind)
{
	return kind == RACK_SERVER ? 'S' : kind == RACK_DOMAIN ? 'D' : 'N';
}

static void dev_name(const struct app *app, const struct rv_dev *v, char *name, size_t nsize, const char **model)
{
	const struct design *d = &app->design;
	switch (v->kind) {
	case GK_SERVER: {
		const struct server_group *g = DESIGN_SERVER(d, v->group);
		floor_member_name(name, nsize, g->name, g->count, v->member);
		*model = g->model[0] ? g->model : g->gpu;
		break;
	}
	case GK_SWITCH: {
		const struct switch_group *g = DESIGN_SWITCH(d, v->group);
		floor_member_name(name, nsize, g->name, g->count, v->member);
		*model = g->model;
		break;
	}
	default: {
		const struct domain_group *m = DESIGN_DOMAIN(d, v->group);
		char dn[FLOOR_NAME_MAX];
		int trays = m->switch_trays > 0 ? m->switch_trays : 1;
		floor_member_name(dn, sizeof dn, m->name, m->count, v->member / trays);
		snprintf(name, nsize, "%.40s-sw%02ld", dn, v->member % trays + 1);
		*model = m->tray;
		break;
	}
	}
}

/* The floor map: a line per row, a cell per rack, around the selected one. */
static int draw_map(const struct rackview *rv, struct cellbuf *c, int y, int max_rows)
{
	const struct floor *f = &rv->plan.floor;
	const struct floor_rack *sel = rack_at(rv, rv->sel);
	int cell = 3, label = 7, fit = (c->w - 2 - label - 2) / cell, row0 = 0, row, i;
	int first_pos = 0;
	if (f->racks_per_row > fit && sel->pos >= fit / 2)
		first_pos = sel->pos - fit / 2;
	if (f->rows > max_rows && sel->row >= max_rows / 2)
		row0 = sel->row - max_rows / 2;
	if (row0 + max_rows > f->rows)
		row0 = f->rows - max_rows > 0 ? f->rows - max_rows : 0;
	for (row = row0; row < f->rows && row < row0 + max_rows; row++, y++) {
		bool more_left = false, more_right = false;
		cellbuf_printf(c, 1, y, label, row == sel->row ? ROLE_HEADING : ROLE_DIM, "row %d", row + 1);
		for (i = 0; i < (int)rv->nracks; i++) {
			const struct floor_rack *r = rack_at(rv, i);
			int x;
			if (r->row != row)
				continue;
			if (r->pos < first_pos) {
				more_left = true;
				continue;
			}
			if (r->pos - first_pos >= fit) {
				more_right = true;
				continue;
			}
			x = 1 + label + (r->pos - first_pos) * cell;
			cellbuf_printf(c, x, y, cell, i == rv->sel ? ROLE_SELECTED : r->kind == RACK_NETWORK ? ROLE_NUMBER : ROLE_NORMAL,
				       i == rv->sel ? "[%c]" : " %c ", kind_letter(r->kind));
		}
		if (more_left)
			cellbuf_text(c, label - 1, y, 1, ROLE_DIM, "<");
		if (more_right)
			cellbuf_text(c, 1 + label + fit * cell, y, 1, ROLE_DIM, ">");
	}
	if (row0 > 0 || row0 + max_rows < f->rows)
		cellbuf_printf(c, 1, y++, c->w - 2, ROLE_DIM, "rows %d-%d of %d shown", row0 + 1,
			       row0 + max_rows < f->rows ? row0 + max_rows : f->rows, f->rows);
	return y;
}

#define PICTURE_W 18

/* The selected rack as a picture: a box of h lines, each line a band of units, top first;
 * a device's name on the band holding its top unit, ':' on its other bands, '.' free. */
static void draw_picture(const struct app *app, const struct rackview *rv, struct cellbuf *c, int x, int y, int w, int h)
{
	const struct rv_rack *s = &rv->racks[rv->sel];
	int U = rv->plan.floor.p.rack_units, lines = h - 2, per, k;
	char name[FLOOR_NAME_MAX + 8];
	if (lines > U)
		lines = U;
	per = (U + lines - 1) / lines;
	lines = (U + per - 1) / per;
	cellbuf_box(c, x, y, w, lines + 2, ROLE_DIM);
	int prev = -1;
	for (k = 0; k < lines; k++) {
		int hi = U - k * per, lo = hi - per + 1, best = -1, best_n = 0;
		long i;
		if (lo < 1)
			lo = 1;
		for (i = 0; i < s->ndev; i++) {
			const struct rv_dev *v = &rv->devs[s->first + i];
			int a = v->u > lo ? v->u : lo, b = v->u + v->height - 1 < hi ? v->u + v->height - 1 : hi;
			if (b - a + 1 > best_n) {
				best_n = b - a + 1;
				best = (int)i;
			}
		}
		if (best < 0) {
			cellbuf_text(c, x + 1, y + 1 + k, w - 2, ROLE_DIM, ".");
		} else {
			const struct rv_dev *v = &rv->devs[s->first + best];
			const char *model = "";
			int role = v->kind == GK_SERVER ? ROLE_NORMAL : ROLE_NUMBER;
			if (best != prev) {
				dev_name(app, v, name, sizeof name, &model);
				cellbuf_text(c, x + 1, y + 1 + k, w - 2, role, name);
			} else {
				cellbuf_text(c, x + 1, y + 1 + k, w - 2, role, ":");
			}
		}
		prev = best;
	}
	cellbuf_printf(c, x + 1, y, w - 2, ROLE_DIM, "%dU/line", per);
}

void rackview_draw(const struct app *app, struct cellbuf *c)
{
	const struct rackview *rv = app->racks;
	const struct floor *f;
	const struct floor_rack *r;
	const struct rv_rack *s;
	int y = 0, map_rows, rows_left, i, free_u, last_u;
	char name[FLOOR_NAME_MAX + 8];
	cellbuf_fill(c, 0, 0, c->w, c->h - 1, ROLE_NORMAL);
	if (!rv || !rv->nracks) {
		cellbuf_text(c, 1, 0, c->w - 2, ROLE_TITLE, "racks: none");
		return;
	}
	f = &rv->plan.floor;
	r = rack_at(rv, rv->sel);
	s = &rv->racks[rv->sel];
	cellbuf_fill(c, 0, 0, c->w, 1, ROLE_TITLE);
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_TITLE, "racks  %zu in %d row%s, %dU, %.1f kW  %s", rv->nracks, f->rows,
		       f->rows == 1 ? "" : "s", f->p.rack_units, f->p.rack_power_kW, app->design.name);
	cellbuf_text(c, 1, y++, c->w - 2, ROLE_DIM,
		     "S servers  D NVLink domain  N network (switches)   Esc or R closes");
	map_rows = f->rows < (c->h - 2) / 3 ? f->rows : (c->h - 2) / 3;
	if (map_rows < 1)
		map_rows = 1;
	y = draw_map(rv, c, y, map_rows);
	y++;
	cellbuf_printf(c, 1, y++, c->w - 2, ROLE_HEADING, "%s  %s rack, row %d position %d%s%s%s%s", r->name,
		       rack_kind_names[r->kind], r->row + 1, r->pos + 1, r->devices ? ": " : "", r->first,
		       r->devices > 1 ? " .. " : "", r->devices > 1 ? r->last : "");
	{
		char pw[120], unk[48] = "";
		bool over = r->units_used > f->p.rack_units ||
			    (r->kind != RACK_DOMAIN && r->power_W > f->p.rack_power_kW * 1000 + 1e-6);
		if (s->unknown_power)
			snprintf(unk, sizeof unk, "; %ld not published", s->unknown_power);
		if (s->ndev && s->unknown_power == s->ndev)
			snprintf(pw, sizeof pw, "power not published for its devices");
		else if (r->kind == RACK_DOMAIN) /* a domain rack has no budget */
			snprintf(pw, sizeof pw, "%.1f kW at most%s", r->power_W / 1000, unk);
		else
			snprintf(pw, sizeof pw, "%.1f of %.1f kW at most%s", r->power_W / 1000, f->p.rack_power_kW, unk);
		cellbuf_printf(c, 3, y++, c->w - 4, over ? ROLE_WARNING : ROLE_NORMAL, "%d of %dU used, %s", r->units_used,
			       f->p.rack_units, pw);
	}
	{
		char media[120] = "";
		int m, n = 0;
		for (m = 1; m < 5; m++)
			if (s->out_media[m])
				n += snprintf(media + n, sizeof media - (size_t)n, "%s%ld %s", n ? ", " : "", s->out_media[m],
					      m == MEDIA_TRANSCEIVER ? "optical" : media_names[m]);
		if (s->out)
			cellbuf_printf(c, 3, y++, c->w - 4, ROLE_NORMAL, "cables: %ld leave the rack, %.1f to %.1f m (%s); %ld inside",
				       s->out, s->out_min_m, s->out_max_m, media, s->in);
		else
			cellbuf_printf(c, 3, y++, c->w - 4, ROLE_NORMAL, "cables: none leave the rack; %ld inside", s->in);
	}
	/* The elevation: a picture of the rack (units scaled to the lines there are) beside
	 * the list of its devices, top unit first. */
	rows_left = c->h - 1 - y - (f->note[0] ? 2 : 0);
	if (rows_left >= 3)
		draw_picture(app, rv, c, 1, y, PICTURE_W, rows_left);
	last_u = f->p.rack_units + 1;
	free_u = 0;
	for (i = 0; i < s->ndev && rows_left > 0; i++) {
		const struct rv_dev *v = &rv->devs[s->first + i];
		const char *model = "";
		int top_u = v->u + v->height - 1, x = PICTURE_W + 2, lw = c->w - PICTURE_W - 3;
		free_u = last_u - 1 - top_u;
		last_u = v->u;
		if (i < rv->top)
			continue;
		if (i == rv->top && rv->top > 0) {
			cellbuf_printf(c, x, y++, lw, ROLE_DIM, "... %d device%s above (PgUp)", rv->top, rv->top == 1 ? "" : "s");
			rows_left--;
		}
		if (free_u > 0 && rows_left > 1) {
			cellbuf_printf(c, x, y++, lw, ROLE_DIM, "        %dU free", free_u);
			rows_left--;
		}
		if (rows_left == 1 && i + 1 < s->ndev) {
			cellbuf_printf(c, x, y++, lw, ROLE_DIM, "... %ld more below (PgDn)", s->ndev - i);
			rows_left--;
			break;
		}
		dev_name(app, v, name, sizeof name, &model);
		if (v->height > 1)
			cellbuf_printf(c, x, y++, lw, ROLE_NORMAL, "U%02d-%02d  %-14s %s, %dU", v->u, top_u, name, model, v->height);
		else
			cellbuf_printf(c, x, y++, lw, ROLE_NORMAL, "U%02d     %-14s %s, 1U", v->u, name, model);
		rows_left--;
	}
	if (f->note[0]) {
		char note[sizeof f->note + 16];
		snprintf(note, sizeof note, "layout: %s", f->note);
		cellbuf_wrap(c, 1, c->h - 3, c->w - 2, 2, ROLE_DIM, note);
	}
}
