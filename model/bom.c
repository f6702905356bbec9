#include "model/bom.h"
#include "model/alloc.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bom_category_names[] = { "server", "gpu", "nic", "nvswitch-tray", "switch", "cable", "transceiver",
					   "fibre", NULL };

const char *const bom_part_status_names[] = { "stated", "family", "unknown", "included", NULL };

const char bom_part_numbers_note[] =
	"part_number_status: stated (a source states this part number for this item and length); family (the "
	"product family's number: the orderable variant, such as the length of a cable or fibre, is to be chosen, the "
	"catalog does not have its number); unknown (no part number: the part is to be chosen); included (comes "
	"inside another line's part). Empty power cells: not published.";

const char bom_leaves_out[] =
	"This BOM is the compute fabric. It leaves out: the storage, in-band and out-of-band management networks "
	"(their switches, cables and optics; the storage NICs of a design are listed); UFM and other management "
	"servers; PDUs, power cords and busbars; racks, cable trays and patch panels; spares; software and support.";

static const char *power_note(double typ, double max, bool included)
{
	if (included)
		return "in the power of the part it comes with";
	if (typ > 0 && max > 0)
		return typ == max ? "datasheet (typical = maximum)" : "datasheet typical and maximum";
	if (max > 0)
		return "maximum only (typical not published)";
	if (typ > 0)
		return "typical only (maximum not published)";
	return "not published";
}

/* The lines' index while they are added: a line is found by its key in constant time. */
static uint64_t line_key(int cat, bool included, double len, const char *model, const char *part, const char *notes)
{
	uint64_t h = 1469598103934665603ull;
	const char *parts[3] = { model, part ? part : "", notes ? notes : "" };
	int k;
	long mm = lround(len * 1000);
	h = (h ^ (uint64_t)cat) * 1099511628211ull;
	h = (h ^ (uint64_t)included) * 1099511628211ull;
	h = (h ^ (uint64_t)mm) * 1099511628211ull;
	for (k = 0; k < 3; k++) {
		const unsigned char *c;
		for (c = (const unsigned char *)parts[k]; *c; c++)
			h = (h ^ *c) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h;
}

static void index_put(struct bom *b, size_t line)
{
	const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, line);
	size_t m = b->index_cap - 1, i = (size_t)line_key(l->category, l->included, l->length_m, l->model, l->part, l->notes) & m;
	while (b->index[i])
		i = (i + 1) & m;
	b->index[i] = line + 1;
}

/* Add quantity of a part, merging with an identical line. */
static void add(struct bom *b, int cat, const char *vendor, const char *model, const char *part, int status, double len,
		long qty, bool included, double typ, double max, const char *notes)
{
	size_t i;
	struct bom_line *l;
	if (qty <= 0)
		return;
	if (b->index_cap) {
		size_t m = b->index_cap - 1;
		for (i = (size_t)line_key(cat, included, len, model, part, notes) & m; b->index[i]; i = (i + 1) & m) {
			l = &VEC_AT(b->lines, struct bom_line, b->index[i] - 1);
			if (l->category == cat && l->included == included && fabs(l->length_m - len) < 1e-9 &&
			    strcmp(l->model, model) == 0 && strcmp(l->part, part ? part : "") == 0 &&
			    strcmp(l->notes, notes ? notes : "") == 0) {
				l->quantity += qty;
				return;
			}
		}
	}
	l = vec_push(&b->lines, sizeof *l);
	l->category = cat;
	l->part_status = included ? PART_INCLUDED : !part || !part[0] ? PART_UNKNOWN : status;
	snprintf(l->vendor, sizeof l->vendor, "%s", vendor ? vendor : "");
	snprintf(l->model, sizeof l->model, "%s", model);
	snprintf(l->part, sizeof l->part, "%s", part ? part : "");
	l->length_m = len;
	l->quantity = qty;
	l->included = included;
	l->unit_typ_W = included ? 0 : typ;
	l->unit_max_W = included ? 0 : max;
	snprintf(l->power_note, sizeof l->power_note, "%s", cat == BOM_FIBRE ? "passive: no power" : power_note(typ, max, included));
	snprintf(l->notes, sizeof l->notes, "%s", notes ? notes : "");
	if (2 * b->lines.n >= b->index_cap) {
		size_t k;
		free(b->index);
		b->index_cap = b->index_cap ? b->index_cap * 2 : 256;
		b->index = xcalloc(b->index_cap, sizeof *b->index);
		for (k = 0; k < b->lines.n; k++)
			index_put(b, k);
	} else {
		index_put(b, b->lines.n - 1);
	}
}

static void servers(const struct design *d, const struct catalog *cat, struct bom *b)
{
	size_t i, k;
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *s = catalog_server(cat, g->model);
		const struct cat_gpu *gpu = catalog_gpu(cat, g->gpu);
		char note[200];
		snprintf(note, sizeof note, "group %s: %d GPUs each", g->name, g->gpus);
		if (s)
			add(b, BOM_SERVER, s->vendor, s->name, s->part, PART_STATED, 0, g->count, false, s->power_typ_W, s->power_W, note);
		else
			add(b, BOM_SERVER, "", "server (no model: GPUs, NICs and power below)", "", PART_UNKNOWN, 0, g->count, false, 0, 0, note);
		snprintf(note, sizeof note, "%s group %s", s ? "built into the servers of" : "to fit in the servers of", g->name);
		add(b, BOM_GPU, gpu ? gpu->vendor : "", g->gpu, gpu && !s ? gpu->part : "", PART_STATED, 0, (long)g->count * g->gpus, s != NULL, 0,
		    gpu ? gpu->power_W : 0, note);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			const struct cat_nic *c = catalog_nic(cat, n->model);
			bool inc = s && s->nics_included && n->use == NIC_COMPUTE;
			snprintf(note, sizeof note, "%s NICs of group %s%s", nic_use_names[n->use], g->name,
				 inc ? ", built into the servers" : "");
			add(b, BOM_NIC, c ? c->vendor : "", n->model, c && !inc ? c->part : "", PART_STATED, 0, (long)g->count * n->count, inc,
			    c ? c->power_W : 0, c ? c->power_max_W : 0, note);
		}
	}
}

static void switches(const struct design *d, const struct catalog *cat, struct bom *b)
{
	size_t i;
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *t = catalog_fabric(cat, m->tray);
		char note[200];
		snprintf(note, sizeof note, "NVLink switch trays of domain group %s", m->name);
		add(b, BOM_NVSWITCH_TRAY, t ? t->vendor : "", m->tray, t ? t->part : "", PART_STATED, 0, (long)m->count * m->switch_trays,
		    false, 0, t ? t->power_W : 0, note);
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *s = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, s->model);
		char note[200];
		snprintf(note, sizeof note, "%s group %s", switch_role_names[s->role], s->name);
		add(b, BOM_SWITCH, c ? c->vendor : "", s->model, c ? c->part : "", PART_STATED, 0, s->count, false, c ? c->power_W : 0,
		    c ? c->power_max_W : 0, note);
	}
}

/* Does the catalog state a part number for this length (cat_length.part)? Else a cable's
 * or fibre's part number is its family's. */
static bool length_part(const struct vec *lengths, double m)
{
	size_t i;
	for (i = 0; i < lengths->n; i++) {
		const struct cat_length *l = &VEC_AT(*lengths, struct cat_length, i);
		if (fabs(l->m - m) < 1e-9 && l->part[0])
			return true;
	}
	return false;
}

static void cabling(const struct design *d, const struct catalog *cat, const struct cableplan *p, struct bom *b)
{
	size_t i;
	for (i = 0; i < p->lines.n; i++) {
		const struct cp_line *l = &VEC_AT(p->lines, struct cp_line, i);
		const struct bundle *bd = DESIGN_BUNDLE(d, l->bundle);
		char note[200];
		if (l->kind == CP_TRANSCEIVER) {
			const struct cat_cable *k = l->cable;
			snprintf(note, sizeof note, "%s end of %s -> %s%s%s", l->end ? bd->to : bd->from, bd->from, bd->to,
				 k && k->form_factor[0] ? ", " : "", k ? k->form_factor : "");
			add(b, BOM_TRANSCEIVER, k ? k->vendor : "", l->name, l->part, PART_STATED, 0, l->quantity, false, k ? k->power_W : 0,
			    k ? k->power_max_W : 0, note);
		} else if (l->kind == CP_CABLE) {
			const struct cat_cable *k = l->cable;
			snprintf(note, sizeof note, "%s -> %s, %s%s%s", bd->from, bd->to, media_names[k ? k->media : bd->media],
				 k && k->form_factor[0] ? ", " : "", k ? k->form_factor : "");
			add(b, BOM_CABLE, k ? k->vendor : "", l->name, l->part,
			    k && length_part(&k->lengths, l->length_m) ? PART_STATED : PART_FAMILY, l->length_m, l->quantity, false, k ? k->power_W : 0,
			    k ? k->power_max_W : 0, note);
		} else {
			const struct cat_fibre *f = l->fibre;
			snprintf(note, sizeof note, "%s -> %s, %s%s%s", bd->from, bd->to, f ? fibre_mode_names[f->mode] : "fibre",
				 f && f->connector[0] ? ", " : "", f ? f->connector : "");
			add(b, BOM_FIBRE, f ? f->vendor : "", l->name, l->part,
			    f && length_part(&f->lengths, l->length_m) ? PART_STATED : PART_FAMILY, l->length_m, l->quantity, false, 0, 0, note);
		}
	}
	(void)cat;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *bd = DESIGN_BUNDLE(d, i);
		const struct cp_bundle *pb = &VEC_AT(p->bundles, struct cp_bundle, i);
		struct bom_cabling *c = vec_push(&b->cabling, sizeof *c);
		snprintf(c->from, sizeof c->from, "%s", bd->from);
		snprintf(c->to, sizeof c->to, "%s", bd->to);
		c->links = pb->links;
		c->speed_gbps = p->wb ? p->wb[i].gbps : bundle_speed_gbps(d, cat, bd);
		c->media = pb->media;
		memcpy(c->by_media, pb->by_media, sizeof c->by_media);
		snprintf(c->cable, sizeof c->cable, "%s", pb->cable);
		snprintf(c->optic_from, sizeof c->optic_from, "%s", pb->optic[0]);
		snprintf(c->optic_to, sizeof c->optic_to, "%s", pb->optic[1]);
		c->optics_from = pb->optics[0];
		c->optics_to = pb->optics[1];
		c->twin_from = pb->twin[0];
		c->twin_to = pb->twin[1];
		c->cables = pb->cables;
		c->fibres = pb->fibres;
		c->min_m = pb->min_m;
		c->max_m = pb->max_m;
	}
}

/* Is line i the first line to buy that names its part? seen is a hash of cap slots (a power
 * of two) of line numbers + 1 of the first lines seen so far. */
static bool first_of_part(const struct bom *b, size_t i, size_t *seen, size_t cap)
{
	const struct bom_line *l = &VEC_AT(b->lines, struct bom_line, i);
	size_t m = cap - 1, k;
	for (k = (size_t)line_key(l->category, false, 0, l->model, "", "") & m; seen[k]; k = (k + 1) & m) {
		const struct bom_line *o = &VEC_AT(b->lines, struct bom_line, seen[k] - 1);
		if (o->category == l->category && strcmp(o->model, l->model) == 0)
			return false;
	}
	seen[k] = i + 1;
	return true;
}

void bom_categories_text(unsigned mask, char *out, size_t size)
{
	static const char *const words[] = { "servers", "GPUs", "NICs", "NVLink switch trays", "switches", "cables",
					     "transceivers", "fibres" };
	int k, n = 0, total = 0;
	size_t o = 0;
	for (k = 0; k < BOM_CATEGORY_COUNT; k++)
		total += (mask >> k) & 1;
	out[0] = '\0';
	for (k = 0; k < BOM_CATEGORY_COUNT && o < size; k++) {
		int w;
		if (!((mask >> k) & 1))
			continue;
		n++;
		w = snprintf(out + o, size - o, "%s%s", n == 1 ? "" : n == total ? " and " : ", ", words[k]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

void bom_compute(const struct design *d, const struct catalog *cat, struct bom *b)
{
	struct cableplan p;
	cableplan_build(d, cat, &p, NULL, NULL);
	bom_from_plan(d, cat, &p, b);
	cableplan_free(&p);
}

void bom_from_plan(const struct design *d, const struct catalog *cat, const struct cableplan *p, struct bom *b)
{
	size_t i, cap = 16, *seen;
	memset(b, 0, sizeof *b);
	servers(d, cat, b);
	switches(d, cat, b);
	cabling(d, cat, p, b);
	b->racks = (long)p->floor.racks.n;
	for (i = 0; i < diag_count(&p->problems); i++) {
		const struct ncf_problem *pr = diag_get(&p->problems, i);
		diag_add(&b->problems, pr->sev, pr->path, "%s", pr->msg);
	}
	free(b->index);
	b->index = NULL;
	b->index_cap = 0;
	while (cap < 2 * b->lines.n + 2)
		cap *= 2;
	seen = xcalloc(cap, sizeof *seen);
	for (i = 0; i < b->lines.n; i++) {
		struct bom_line *l = &VEC_AT(b->lines, struct bom_line, i);
		if (l->included) {
			b->included[l->category] += l->quantity;
			continue;
		}
		b->to_buy[l->category] += l->quantity;
		l->total_typ_W = l->unit_typ_W * l->quantity;
		l->total_max_W = l->unit_max_W * l->quantity;
		b->typ_W += l->total_typ_W;
		b->max_W += l->total_max_W;
		/* Fibre is passive: it has no power to publish. Parts are counted once. */
		if (l->category == BOM_FIBRE)
			continue;
		if (l->unit_max_W <= 0)
			b->max_unknown_items += l->quantity;
		if (l->unit_typ_W > 0)
			b->typ_known_cats |= 1u << l->category;
		else
			b->typ_unknown_cats |= 1u << l->category;
		if (l->unit_max_W > 0)
			b->max_known_cats |= 1u << l->category;
		else
			b->max_unknown_cats |= 1u << l->category;
		if (!first_of_part(b, i, seen, cap))
			continue;
		if (l->unit_typ_W <= 0)
			b->typ_unknown++;
		if (l->unit_max_W <= 0)
			b->max_unknown++;
	}
	free(seen);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *s = catalog_server(cat, g->model);
		if (s && s->rack_units > 0)
			b->rack_units += g->count * s->rack_units;
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		const struct cat_switch *s = catalog_switch(cat, g->model);
		if (s && s->rack_units > 0)
			b->rack_units += g->count * s->rack_units;
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *t = catalog_fabric(cat, m->tray);
		if (t && t->rack_units > 0)
			b->rack_units += (double)m->count * m->switch_trays * t->rack_units;
	}
}

void bom_free(struct bom *b)
{
	free(b->index);
	b->index = NULL;
	b->index_cap = 0;
	vec_release(&b->lines);
	vec_release(&b->cabling);
	diag_free(&b->problems);
}
