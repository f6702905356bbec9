/* fabric.c: the node as NCCL sees it, the switch tiers, and the traffic they carry. */
#include "model/fabric.h"
#include "model/congest.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct bundle *bundle_from(const struct design *d, const char *from)
{
	size_t i;
	for (i = 0; i < d->bundles.n; i++)
		if (strcmp(DESIGN_BUNDLE(d, i)->from, from) == 0)
			return DESIGN_BUNDLE(d, i);
	return NULL;
}

static const struct switch_group *switch_named(const struct design *d, const char *name)
{
	size_t i;
	return design_find(d, name, &i) == GK_SWITCH ? DESIGN_SWITCH(d, i) : NULL;
}

/* Members of `below` each switch of a tier reached through bundle b joins, and how many
 * switches of the tier serve the same members (the planes, or rails). */
static void spread_of(const struct bundle *b, long below, int switches, double *per_switch, int *planes)
{
	int L = b->links_each > 0 ? b->links_each : 1;
	if (switches < 1)
		switches = 1;
	switch (b->wiring) {
	case WIRE_RAIL: {
		/* Member i's link j goes to switch j of its unit; a unit has L switches. */
		double units = (double)switches / L < 1 ? 1 : (double)switches / L;
		*per_switch = below / units;
		*planes = L < switches ? L : switches;
		break;
	}
	case WIRE_TOR:
		*per_switch = (double)below / switches;
		*planes = 1;
		break;
	default:
		*per_switch = (double)below;
		*planes = L < switches ? L : switches;
		break;
	}
}

static void build_tiers(const struct design *d, const struct catalog *cat, const struct server_group *g,
			struct fabric *f)
{
	const struct bundle *b = bundle_from(d, g->name);
	long below = g->count;           /* members of the tier below */
	double covered = 1;              /* servers one member of the tier below joins */
	int below_planes = 1;
	f->ntiers = 0;
	while (b && f->ntiers < FABRIC_MAX_TIERS) {
		const struct switch_group *sw = switch_named(d, b->to);
		const struct cat_switch *cs;
		struct tier *t;
		const struct bundle *up;
		double per_switch;
		int planes, speed;
		long dn, upl;
		if (!sw)
			break;
		cs = catalog_switch(cat, sw->model);
		t = &f->tiers[f->ntiers++];
		memset(t, 0, sizeof *t);
		t->role = sw->role;
		snprintf(t->group, sizeof t->group, "%s", sw->name);
		t->count = sw->count;
		speed = bundle_speed_gbps(d, cat, b);
		switch_ports_used(d, sw, &dn, &upl);
		t->down_GBps = dn * speed / 8.0;
		up = bundle_from(d, sw->name);
		t->link_gbps = up ? bundle_speed_gbps(d, cat, up) : speed;
		t->uplinks = (int)upl;
		t->up_GBps = upl * t->link_gbps / 8.0;
		t->ratio = t->up_GBps > 0 ? t->down_GBps / t->up_GBps : 0;
		t->lag = up && up->lag;
		t->rail = b->wiring == WIRE_RAIL;
		t->sharp = cs && cs->sharp && cs->protocol == PROTO_INFINIBAND;
		spread_of(b, below, sw->count, &per_switch, &planes);
		/* Switches of the tier below that share their servers (rails) count once. */
		covered = covered * per_switch / below_planes;
		if (covered > g->count)
			covered = g->count;
		t->nodes_under = covered / f->servers_per_node;
		t->planes = planes;
		below = sw->count;
		below_planes = planes;
		b = up;
	}
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

void fabric_build(const struct design *d, const struct catalog *cat, int gpus, struct fabric *f)
{
	const struct server_group *g = d->servers.n ? DESIGN_SERVER(d, 0) : NULL;
	const struct cat_gpu *gpu;
	const struct cat_fabric *fab;
	const struct bundle *b;
	struct nccl_node *n = &f->node;
	size_t i, k;
	long total = 0, acc = 0;
	int G, cards = 0, ports = 0, nic_speed = 0, wired = 0, attach = ATTACH_PCIE_SWITCH, slot_gen = 0, slot_lanes = 0;
	bool all_sharp = true, all_ib = true;
	double slot_payload = 0, slot_nccl = 0;

	memset(f, 0, sizeof *f);
	for (i = 0; i < d->servers.n; i++)
		total += (long)DESIGN_SERVER(d, i)->count * DESIGN_SERVER(d, i)->gpus;
	f->design_gpus = (int)(total < 2000000000L ? total : 2000000000L);
	f->gpus = gpus > 0 ? gpus : (d->job.gpus > 0 ? d->job.gpus : f->design_gpus);
	if (f->gpus > f->design_gpus)
		f->gpus = f->design_gpus;
	/* The job takes GPUs group by group; the first group sets the node. */
	for (i = 0; i < d->servers.n && g; i++) {
		const struct server_group *o = DESIGN_SERVER(d, i);
		if (acc >= f->gpus)
			break;
		acc += (long)o->count * o->gpus;
		if (i > 0 && (strcmp(o->gpu, g->gpu) || o->gpus != g->gpus || o->nics.n != g->nics.n))
			f->heterogeneous = true;
	}
	if (!g || f->gpus < 1) {
		snprintf(f->note, sizeof f->note, "no GPUs in the design");
		f->node.ppn = f->node.nnodes = 1;
		return;
	}
	snprintf(f->server_group, sizeof f->server_group, "%s", g->name);
	gpu = catalog_gpu(cat, g->gpu);
	fab = catalog_fabric(cat, g->scaleup);
	f->servers_per_node = 1;
	if (g->domain[0] && design_find(d, g->domain, &k) == GK_DOMAIN) {
		f->servers_per_node = DESIGN_DOMAIN(d, k)->servers_each;
		f->domain_node = f->servers_per_node > 1;
	}
	G = f->servers_per_node * g->gpus;
	f->design_nodes = (g->count + f->servers_per_node - 1) / f->servers_per_node;

	/* NICs of one server, and the bundles wiring them. */
	for (k = 0; k < g->nics.n; k++) {
		const struct nic_spec *ns = &VEC_AT(g->nics, struct nic_spec, k);
		const struct cat_nic *c = catalog_nic(cat, ns->model);
		int s;
		double pl;
		if (ns->use != NIC_COMPUTE || !c || ns->count <= 0)
			continue;
		s = nic_speed_gbps(ns, c);
		cards += ns->count;
		ports += ns->count * c->ports;
		if (!nic_speed || s < nic_speed)
			nic_speed = s;
		pl = nic_slot_GBps(ns, c);
		if (!slot_payload || pl < slot_payload) {
			slot_payload = pl;
			slot_gen = ns->pcie_gen ? ns->pcie_gen : c->pcie_gen;
			slot_lanes = ns->pcie_lanes ? ns->pcie_lanes : c->pcie_lanes;
		}
		if (k == 0 || attach == ATTACH_PCIE_SWITCH)
			attach = ns->attach;
		all_sharp = all_sharp && c->sharp;
		all_ib = all_ib && c->protocol == PROTO_INFINIBAND;
	}
	b = bundle_from(d, g->name);
	for (i = 0; i < d->bundles.n; i++)
		if (strcmp(DESIGN_BUNDLE(d, i)->from, g->name) == 0)
			wired += DESIGN_BUNDLE(d, i)->links_each;
	if (wired > ports)
		wired = ports;
	if (b) {
		int bs = bundle_speed_gbps(d, cat, b);
		f->port_gbps = nic_speed && bs ? (bs < nic_speed ? bs : nic_speed) : (bs ? bs : nic_speed);
		f->wiring = b->wiring;
		f->edge_lag = b->lag;
	}
	f->routing = d->fabric.routing;
	f->pxn = d->fabric.pxn;
	f->port_GBps = f->port_gbps / 8.0;
	f->slot_GBps = slot_payload;
	f->ports = wired * f->servers_per_node;
	if (cards && ports) {
		int ppc = ports / cards, used_cards = (wired + ppc - 1) / ppc;
		f->node_ceiling_GBps = used_cards * f->servers_per_node *
				       min_d(ppc * f->port_GBps, slot_payload > 0 ? slot_payload : 1e9);
		if (wired < used_cards * ppc) /* a card with one port of two wired */
			f->node_ceiling_GBps = min_d(f->node_ceiling_GBps, f->ports * f->port_GBps);
		cards = used_cards;
		ports = ppc;
	}
	f->gpus_per_nic = cards ? (G + cards * f->servers_per_node - 1) / (cards * f->servers_per_node) : G;
	f->edge_hashed = b && f->wiring != WIRE_RAIL && f->routing == ROUTE_ECMP && !f->edge_lag && f->ports > 1;

	/* The node as NCCL sees it. */
	memset(n, 0, sizeof *n);
	n->sm = gpu ? gpu->sm : 80;
	n->ppn = f->gpus < G ? f->gpus : G;
	n->nnodes = (f->gpus + G - 1) / G;
	n->cpu = g->cpu;
	if (gpu && fab && (fab->kind == FAB_NVSWITCH || fab->kind == FAB_NVLINK_MESH) && gpu->nvlink_links > 0) {
		n->nvl = gpu->nvlink_links * nccl_nvlink_per_link(gpu->sm);
		n->nvswitch = fab->kind == FAB_NVSWITCH;
		n->nvls = fab->nvls && gpu->sm >= 90;
		f->nvlink_GBps = gpu->nvlink_links * gpu->nvlink_link_GBps;
	}
	n->pci_gpu = gpu ? nccl_pcie_bw(gpu->pcie_gen, gpu->pcie_lanes) : 12;
	n->pci_intra = n->pci_gpu;
	if (fab && fab->kind == FAB_PCIE_SWITCH && fab->pcie_gen)
		n->pci_intra = min_d(n->pci_gpu, nccl_pcie_bw(fab->pcie_gen, fab->pcie_lanes));
	n->pci_intra_phb = !fab || fab->kind == FAB_NONE;
	n->cards = cards * f->servers_per_node;
	n->ports_per_card = ports > 0 ? ports : 1;
	n->net_bw = f->port_GBps;
	slot_nccl = slot_gen ? nccl_pcie_bw(slot_gen, slot_lanes) : n->pci_gpu;
	n->card_pci = attach == ATTACH_CPU ? min_d(slot_nccl, n->pci_gpu) / (g->cpu == CPU_INTEL ? 1.2 : 1.0)
					   : min_d(slot_nccl, n->pci_gpu);
	n->net_on_cpu = attach == ATTACH_CPU;
	n->pxn_return = f->gpus_per_nic <= 1;
	n->cross_nic = d->fabric.cross_nic;

	build_tiers(d, cat, g, f);
	n->collnet = d->fabric.sharp && all_sharp && all_ib && f->ntiers > 0;
	for (i = 0; i < (size_t)f->ntiers; i++)
		n->collnet = n->collnet && f->tiers[i].sharp;
	if (!f->ports)
		n->cards = 0;

	/* GPUs : cross-server links, and bisection over the whole design. */
	f->gpus_per_link = wired ? (double)g->gpus / wired : 0;
	/* Joined when one switch of the top tier reaches every node of the job. */
	f->connected = n->nnodes <= 1 ||
		       (f->ports > 0 && f->ntiers > 0 && f->tiers[f->ntiers - 1].nodes_under >= n->nnodes - 1e-9);
	{
		double half = f->design_nodes / 2.0, bis = half * f->node_ceiling_GBps;
		for (i = 0; i < (size_t)f->ntiers; i++) {
			const struct tier *t = &f->tiers[i];
			if (t->nodes_under >= f->design_nodes - 1e-9)
				break; /* one switch of this tier joins everything */
			if (t->uplinks == 0) {
				bis = 0; /* nothing above: the halves are not joined */
				break;
			}
			bis = min_d(bis, t->count / 2.0 * t->up_GBps);
		}
		f->bisection_GBps = f->design_nodes > 1 ? bis : 0;
		f->bisection_per_gpu_GBps = f->design_gpus > 1 && f->design_nodes > 1 ? bis / (f->design_gpus / 2.0) : 0;
	}
	if (!f->connected)
		snprintf(f->note, sizeof f->note, "the job's %d nodes are not all joined by the switches", n->nnodes);
	else if (f->heterogeneous)
		snprintf(f->note, sizeof f->note, "the job spans different server groups; '%s' sets the node", g->name);
}

struct nccl_node fabric_subnode(const struct fabric *f, int ranks, int per_node)
{
	struct nccl_node n = f->node;
	int G = f->node.ppn, concurrent;
	if (per_node < 1)
		per_node = 1;
	if (per_node > G)
		per_node = G;
	concurrent = G / per_node;
	n.ppn = per_node;
	n.nnodes = (ranks + per_node - 1) / per_node;
	if (concurrent > 1 && n.cards > 0) {
		/* The node's communicators run at once and share its NICs. */
		if (n.cards >= concurrent) {
			n.cards /= concurrent;
		} else {
			n.net_bw *= (double)n.cards / concurrent;
			n.card_pci *= (double)n.cards / concurrent;
			n.cards = 1;
		}
	}
	n.pxn_return = n.cards > 0 && per_node <= n.cards;
	if (per_node == 1)
		n.nvls = false;
	return n;
}

/* Share of a node's network traffic that must leave a switch of tier t upward. */
static double share_up(const struct fabric *f, const struct tier *t, int idx, const struct traffic *tr, int nodes)
{
	double m = t->nodes_under;
	int ppn = f->node.ppn;
	if (m >= nodes - 1e-9 || nodes < 2)
		return 0;
	if (m < 1)
		m = 1;
	switch (tr->kind) {
	case TK_RING:
	case TK_SENDRECV:
		if (tr->cross_rail && t->rail && idx == 0)
			return 1; /* each hop enters another rail: only the spine joins rails */
		return ceil(nodes / m) / nodes;
	case TK_TREE:
		return (nodes - m) / (nodes - 1);
	case TK_ALLTOALL:
		if (t->rail && idx == 0 && !tr->pxn)
			return 1 - (m - 1) / ((nodes - 1.0) * ppn);
		return (nodes - m) / (nodes - 1);
	default:
		return 0;
	}
}

void fabric_loss(const struct fabric *f, const struct traffic *tr, int nodes, struct fabric_loss *o)
{
	int i;
	memset(o, 0, sizeof *o);
	o->factor = o->edge = 1;
	o->binding = -1;
	for (i = 0; i < FABRIC_MAX_TIERS; i++)
		o->tier[i] = 1;
	if (nodes < 2 || tr->node_GBps <= 0 || tr->kind == TK_INNETWORK)
		return;
	if (f->edge_hashed) {
		/* Each flow takes one of the node's links, chosen by hash; the busiest link paces. */
		int F = tr->flows > 0 ? tr->flows : 1;
		double cap = F * f->port_GBps / hash_expected_max(F, f->ports);
		o->edge = min_d(1, cap / tr->node_GBps);
		if (o->edge < o->factor) {
			o->factor = o->edge;
			o->binding = 3;
		}
	}
	for (i = 0; i < f->ntiers; i++) {
		const struct tier *t = &f->tiers[i];
		double share = share_up(f, t, i, tr, nodes), demand, cap;
		o->share_up[i] = share;
		if (share <= 0)
			continue;
		if (t->uplinks == 0) {
			o->tier[i] = 0; /* traffic must go up, and there is no up */
		} else {
			double m = t->nodes_under < 1 ? 1 : t->nodes_under;
			demand = share * tr->node_GBps * m / t->planes;
			cap = t->up_GBps;
			if (f->routing == ROUTE_ECMP || t->lag) {
				int F = (int)ceil(tr->flows * m * share / t->planes);
				double link = t->link_gbps / 8.0;
				if (F < 1)
					F = 1;
				cap = min_d(cap, F * link / hash_expected_max(F, t->uplinks));
			}
			o->tier[i] = min_d(1, cap / demand);
		}
		if (o->tier[i] < o->factor) {
			o->factor = o->tier[i];
			o->binding = i;
		}
	}
}
