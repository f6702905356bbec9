#include "model/inventory.h"
#include "model/bom.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* snprintf(dst, size, "%s", src), without printf: the designer makes the inventory again
 * after every edit that changes what it is built from. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n > size - 1)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void inventory_compute(const struct design *d, const struct catalog *cat, struct inventory *inv)
{
	inventory_and_bom(d, cat, inv, NULL);
}

void inventory_and_bom(const struct design *d, const struct catalog *cat, struct inventory *inv, struct bom *bom)
{
	size_t i, k;
	struct cableplan p;
	struct bom b;
	long **down, *up;
	memset(inv, 0, sizeof *inv);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *srv = catalog_server(cat, g->model);
		inv->servers += g->count;
		inv->gpus += (long)g->count * g->gpus;
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			if (n->use == NIC_COMPUTE)
				inv->nics_compute += (long)g->count * n->count;
			else
				inv->nics_storage += (long)g->count * n->count;
		}
		if (g->count > 0 && !(srv && srv->rack_units > 0))
			inv->rack_units_unknown++;
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		inv->nvlink_domains += m->count;
		inv->nvswitch_trays += (long)m->count * m->switch_trays;
	}
	cableplan_build(d, cat, &p, NULL, NULL);
	cabling_ports(d, p.wb, &down, &up);
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, sw->model);
		struct inv_switch_group *s = vec_push(&inv->switch_groups, sizeof *s);
		long j;
		copy_text(s->name, sizeof s->name, sw->name);
		copy_text(s->model, sizeof s->model, sw->model);
		s->role = sw->role;
		s->count = sw->count;
		inv->switches[sw->role] += sw->count;
		for (j = 0; j < sw->count; j++) {
			if (down[i][j] > s->down)
				s->down = down[i][j];
			s->down_total += down[i][j];
		}
		s->up = sw->count > 0 ? up[i] : 0;
		free(down[i]);
		if (c) {
			s->ports = (long)c->ports * sw->breakout;
			s->port_speed_gbps = switch_port_gbps(sw, c);
		}
		if (sw->count > 0 && !(c && c->rack_units > 0))
			inv->rack_units_unknown++;
		s->free = s->ports - s->down - s->up;
	}
	free(down);
	free(up);
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *bd = DESIGN_BUNDLE(d, i);
		const struct cp_bundle *pb = &VEC_AT(p.bundles, struct cp_bundle, i);
		struct inv_link *l = vec_push(&inv->bundles, sizeof *l);
		copy_text(l->from, sizeof l->from, bd->from);
		copy_text(l->to, sizeof l->to, bd->to);
		l->speed_gbps = p.wb[i].gbps;
		l->media = pb->links ? pb->media : (bd->media ? bd->media : MEDIA_TRANSCEIVER);
		l->links = pb->links;
		memcpy(l->by_media, pb->by_media, sizeof l->by_media);
		copy_text(l->cable, sizeof l->cable, pb->cable);
		copy_text(l->optic[0], sizeof l->optic[0], pb->optic[0]);
		copy_text(l->optic[1], sizeof l->optic[1], pb->optic[1]);
		l->transceivers = pb->optics[0] + pb->optics[1];
		l->min_m = pb->min_m;
		l->max_m = pb->max_m;
	}
	inv->links = p.links;
	memcpy(inv->cables_by_media, p.by_media, sizeof inv->cables_by_media);
	inv->transceivers = p.transceivers;
	inv->cables = p.cables;
	inv->fibres = p.fibres;
	inv->racks = (long)p.floor.racks.n;
	bom_from_plan(d, cat, &p, &b);
	diag_append(&inv->parts, &p.parts);
	cableplan_free(&p);
	inv->power_W = b.max_W;
	inv->power_typ_W = b.typ_W;
	inv->power_unknown = b.max_unknown;
	inv->power_unknown_items = b.max_unknown_items;
	inv->power_typ_unknown = b.typ_unknown;
	inv->rack_units = b.rack_units;
	if (bom)
		*bom = b;
	else
		bom_free(&b);
}

void inventory_free(struct inventory *inv)
{
	vec_release(&inv->switch_groups);
	vec_release(&inv->bundles);
	diag_free(&inv->parts);
}

bool inventory_same_inputs(const struct design *a, const struct design *b)
{
	struct design x = *a; /* a shallow view of a, only read */
	x.fabric = b->fabric;
	x.job = b->job;
	x.canvas = b->canvas;
	memcpy(x.name, b->name, sizeof x.name);
	memcpy(x.description, b->description, sizeof x.description);
	return schema_equal(&design_schema, &x, b);
}
