#include "model/inventory.h"
#include <stdio.h>
#include <string.h>

int bundle_media(const struct design *d, const struct bundle *b)
{
	if (b->media != MEDIA_AUTO)
		return b->media;
	if (design_tier(d, b->from) == 0 && b->wiring == WIRE_TOR)
		return MEDIA_DAC;
	return MEDIA_TRANSCEIVER;
}

static void add_power(struct inventory *inv, long count, double w, double ru)
{
	if (count <= 0)
		return;
	if (w > 0)
		inv->power_W += count * w;
	else
		inv->power_unknown++;
	if (ru > 0)
		inv->rack_units += count * ru;
	else
		inv->rack_units_unknown++;
}

void inventory_compute(const struct design *d, const struct catalog *cat, struct inventory *inv)
{
	size_t i, k;
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
		if (srv) {
			add_power(inv, g->count, srv->power_W, srv->rack_units);
		} else {
			/* No server model: count the GPUs' power, and say the rest is unknown. */
			const struct cat_gpu *gpu = catalog_gpu(cat, g->gpu);
			if (gpu && gpu->power_W > 0)
				inv->power_W += (double)g->count * g->gpus * gpu->power_W;
			if (g->count > 0) {
				inv->power_unknown++;
				inv->rack_units_unknown++;
			}
		}
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *t = catalog_fabric(cat, m->tray);
		inv->nvlink_domains += m->count;
		inv->nvswitch_trays += (long)m->count * m->switch_trays;
		if (t)
			add_power(inv, (long)m->count * m->switch_trays, t->power_W, t->rack_units);
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *sw = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, sw->model);
		struct inv_switch_group *s = vec_push(&inv->switch_groups, sizeof *s);
		snprintf(s->name, sizeof s->name, "%s", sw->name);
		snprintf(s->model, sizeof s->model, "%s", sw->model);
		s->role = sw->role;
		s->count = sw->count;
		inv->switches[sw->role] += sw->count;
		switch_ports_used(d, sw, &s->down, &s->up);
		if (c) {
			s->ports = (long)c->ports * sw->breakout;
			s->port_speed_gbps = switch_port_gbps(sw, c);
			add_power(inv, sw->count, c->power_W, c->rack_units);
		}
		s->free = s->ports - s->down - s->up;
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		struct inv_link *l = vec_push(&inv->bundles, sizeof *l);
		const struct cat_cable *cable;
		snprintf(l->from, sizeof l->from, "%s", b->from);
		snprintf(l->to, sizeof l->to, "%s", b->to);
		l->speed_gbps = bundle_speed_gbps(d, cat, b);
		l->media = bundle_media(d, b);
		l->links = bundle_links(d, b);
		cable = b->cable[0] ? catalog_cable(cat, b->cable) : catalog_cable_for(cat, l->speed_gbps, l->media);
		if (cable)
			snprintf(l->cable, sizeof l->cable, "%s", cable->name);
		if (l->media == MEDIA_TRANSCEIVER)
			l->transceivers = 2 * l->links;
		inv->links += l->links;
		inv->cables_by_media[l->media] += l->links;
		inv->transceivers += l->transceivers;
	}
}

void inventory_free(struct inventory *inv)
{
	vec_release(&inv->switch_groups);
	vec_release(&inv->bundles);
}
