#include "model/bom.h"
#include <stdio.h>
#include <string.h>

const char *const bom_category_names[] = { "server", "gpu", "nic", "nvswitch-tray", "switch", "cable", "transceiver",
					   "fibre", NULL };

/* Add quantity of a part, merging with an equal line. */
static void add(struct bom *b, int cat, const char *vendor, const char *model, const char *part, long qty, double w,
		const char *notes)
{
	size_t i;
	struct bom_line *l;
	if (qty <= 0)
		return;
	for (i = 0; i < b->lines.n; i++) {
		l = &VEC_AT(b->lines, struct bom_line, i);
		if (l->category == cat && strcmp(l->model, model) == 0 && strcmp(l->notes, notes ? notes : "") == 0) {
			l->quantity += qty;
			return;
		}
	}
	l = vec_push(&b->lines, sizeof *l);
	l->category = cat;
	snprintf(l->vendor, sizeof l->vendor, "%s", vendor ? vendor : "");
	snprintf(l->model, sizeof l->model, "%s", model);
	snprintf(l->part, sizeof l->part, "%s", part ? part : "");
	l->quantity = qty;
	l->unit_power_W = w;
	snprintf(l->notes, sizeof l->notes, "%s", notes ? notes : "");
}

/* Does this end use twin-port cages (two logical ports per cage)? */
static bool twin_end(const struct design *d, const struct catalog *cat, const char *name)
{
	size_t i;
	const struct cat_switch *s;
	if (design_find(d, name, &i) != GK_SWITCH)
		return false;
	s = catalog_switch(cat, DESIGN_SWITCH(d, i)->model);
	return s && s->cages > 0 && s->ports >= 2 * s->cages;
}

/* A catalog cable of this speed and media, preferring twin-port parts when twin. */
static const struct cat_cable *pick(const struct catalog *cat, int speed, int media, bool twin)
{
	size_t i;
	const struct cat_cable *any = NULL;
	for (i = 0; i < cat->cables.n; i++) {
		const struct cat_cable *c = &VEC_AT(cat->cables, struct cat_cable, i);
		bool t = strstr(c->form_factor, "twin-port") == c->form_factor;
		if (c->speed_gbps != speed || c->media != media)
			continue;
		if (t == twin)
			return c;
		if (!any)
			any = c;
	}
	return twin ? NULL : any;
}

static void cabling(const struct design *d, const struct catalog *cat, struct bom *b)
{
	size_t i;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *bd = DESIGN_BUNDLE(d, i);
		struct bom_cabling *c = vec_push(&b->cabling, sizeof *c);
		const struct cat_cable *part;
		char note[160];
		snprintf(c->from, sizeof c->from, "%s", bd->from);
		snprintf(c->to, sizeof c->to, "%s", bd->to);
		c->links = bundle_links(d, bd);
		c->speed_gbps = bundle_speed_gbps(d, cat, bd);
		c->media = bundle_media(d, bd);
		c->twin_from = twin_end(d, cat, bd->from);
		c->twin_to = twin_end(d, cat, bd->to);
		snprintf(note, sizeof note, "%s -> %s", bd->from, bd->to);
		if (c->media == MEDIA_TRANSCEIVER) {
			const struct cat_cable *of = pick(cat, c->speed_gbps, MEDIA_TRANSCEIVER, c->twin_from);
			const struct cat_cable *ot = pick(cat, c->speed_gbps, MEDIA_TRANSCEIVER, c->twin_to);
			char name[NCF_NAME_MAX];
			/* A twin-port transceiver serves two links; a single-port one serves one. */
			c->optics_from = c->twin_from ? (c->links + 1) / 2 : c->links;
			c->optics_to = c->twin_to ? (c->links + 1) / 2 : c->links;
			snprintf(c->optic_from, sizeof c->optic_from, "%s",
				 of ? of->name : (snprintf(name, sizeof name, "%dG %stransceiver", c->speed_gbps,
							   c->twin_from ? "twin-port " : ""), name));
			snprintf(c->optic_to, sizeof c->optic_to, "%s",
				 ot ? ot->name : (snprintf(name, sizeof name, "%dG %stransceiver", c->speed_gbps,
							   c->twin_to ? "twin-port " : ""), name));
			if (of && strcmp(of->name, c->optic_from) == 0)
				add(b, BOM_TRANSCEIVER, "NVIDIA", of->name, of->part, c->optics_from, of->power_W, note);
			else
				add(b, BOM_TRANSCEIVER, "", c->optic_from, "", c->optics_from, 0, note);
			if (ot)
				add(b, BOM_TRANSCEIVER, "NVIDIA", ot->name, ot->part, c->optics_to, ot->power_W, note);
			else
				add(b, BOM_TRANSCEIVER, "", c->optic_to, "", c->optics_to, 0, note);
			snprintf(c->cable, sizeof c->cable, "fibre");
			add(b, BOM_FIBRE, "", of && of->reach_m > 60 ? "single-mode fibre (MPO-12/APC)" : "multimode fibre (MPO-12)",
			    "", c->links, 0, note);
			continue;
		}
		part = bd->cable[0] ? catalog_cable(cat, bd->cable) : pick(cat, c->speed_gbps, c->media, false);
		if (part) {
			snprintf(c->cable, sizeof c->cable, "%s", part->name);
			add(b, BOM_CABLE, "NVIDIA", part->name, part->part, c->links, part->power_W, note);
		} else {
			snprintf(c->cable, sizeof c->cable, "%dG %s", c->speed_gbps, media_names[c->media]);
			add(b, BOM_CABLE, "", c->cable, "", c->links, 0, note);
		}
	}
}

void bom_compute(const struct design *d, const struct catalog *cat, struct bom *b)
{
	size_t i, k;
	memset(b, 0, sizeof *b);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *s = catalog_server(cat, g->model);
		const struct cat_gpu *gpu = catalog_gpu(cat, g->gpu);
		char note[160];
		snprintf(note, sizeof note, "group %s: %d GPUs each", g->name, g->gpus);
		if (s)
			add(b, BOM_SERVER, s->vendor, s->name, s->part, g->count, s->power_W, note);
		else
			add(b, BOM_SERVER, "", "server (no model)", "", g->count, 0, note);
		snprintf(note, sizeof note, "%s in the servers of group %s", s ? "included" : "to fit", g->name);
		add(b, BOM_GPU, gpu ? gpu->vendor : "", g->gpu, gpu ? gpu->part : "", (long)g->count * g->gpus,
		    gpu ? gpu->power_W : 0, note);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			const struct cat_nic *c = catalog_nic(cat, n->model);
			snprintf(note, sizeof note, "%s NICs of group %s", nic_use_names[n->use], g->name);
			add(b, BOM_NIC, c ? c->vendor : "", n->model, c ? c->part : "", (long)g->count * n->count,
			    c ? c->power_W : 0, note);
		}
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *t = catalog_fabric(cat, m->tray);
		add(b, BOM_NVSWITCH_TRAY, t ? t->vendor : "", m->tray, t ? t->part : "", (long)m->count * m->switch_trays,
		    t ? t->power_W : 0, "NVLink switch trays");
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *s = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, s->model);
		char note[160];
		snprintf(note, sizeof note, "%s group %s", switch_role_names[s->role], s->name);
		add(b, BOM_SWITCH, c ? c->vendor : "", s->model, c ? c->part : "", s->count, c ? c->power_W : 0, note);
	}
	cabling(d, cat, b);
	{
		struct inventory inv;
		inventory_compute(d, cat, &inv);
		b->power_W = inv.power_W;
		b->rack_units = inv.rack_units;
		b->power_unknown = inv.power_unknown;
		inventory_free(&inv);
	}
}

void bom_free(struct bom *b)
{
	vec_release(&b->lines);
	vec_release(&b->cabling);
}
