/* fixtures.h: small catalogs and designs built in C, for tests that link model/ only. */
#ifndef NCF_TEST_FIXTURES_H
#define NCF_TEST_FIXTURES_H
#include <stdio.h>
#include <string.h>
#include "model/design.h"

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

static inline void fx_gpu(struct catalog *c, const char *name, int sm, int links, double link_GBps, int pcie_gen)
{
	struct cat_gpu *g = vec_push(&c->gpus, sizeof *g);
	SETS(g->name, name);
	g->sm = sm;
	g->nvlink_links = links;
	g->nvlink_link_GBps = link_GBps;
	g->pcie_gen = pcie_gen;
	g->pcie_lanes = 16;
	g->power_W = 400;
	SETS(g->source, "test");
}

static inline void fx_fabric(struct catalog *c, const char *name, int kind, bool nvls, int max_gpus)
{
	struct cat_fabric *f = vec_push(&c->fabrics, sizeof *f);
	SETS(f->name, name);
	f->kind = kind;
	f->nvls = nvls;
	f->max_gpus = max_gpus;
	SETS(f->source, "test");
}

static inline void fx_nic(struct catalog *c, const char *name, int gbps, int ports, int pcie_gen)
{
	struct cat_nic *n = vec_push(&c->nics, sizeof *n);
	SETS(n->name, name);
	n->speed_gbps = gbps;
	n->ports = ports;
	n->pcie_gen = pcie_gen;
	n->pcie_lanes = 16;
	SETS(n->source, "test");
}

static inline void fx_switch(struct catalog *c, const char *name, int ports, int gbps, int breakout, double power)
{
	struct cat_switch *s = vec_push(&c->switches, sizeof *s);
	SETS(s->name, name);
	s->ports = ports;
	s->port_speed_gbps = gbps;
	s->max_breakout = breakout;
	s->power_W = power;
	s->rack_units = 1;
	SETS(s->source, "test");
}

static inline void fx_cable(struct catalog *c, const char *name, int media, int gbps, const char *cage, double reach)
{
	struct cat_cable *k = vec_push(&c->cables, sizeof *k);
	SETS(k->name, name);
	k->media = media;
	k->speed_gbps = gbps;
	SETS(k->cage, cage);
	if (media != MEDIA_TRANSCEIVER)
		SETS(k->far_cage, cage);
	k->reach_m = reach;
	SETS(k->source, "test");
}

static inline void fx_catalog(struct catalog *c)
{
	memset(c, 0, sizeof *c);
	fx_gpu(c, "a100", 80, 12, 25, 4);
	fx_gpu(c, "h100", 90, 18, 25, 5);
	VEC_AT(c->gpus, struct cat_gpu, 0).bf16_tflops = 312;
	VEC_AT(c->gpus, struct cat_gpu, 1).bf16_tflops = 989.5;
	fx_fabric(c, "none", FAB_NONE, false, 0);
	fx_fabric(c, "nvswitch-gen2", FAB_NVSWITCH, false, 8);
	fx_fabric(c, "nvswitch-gen3", FAB_NVSWITCH, true, 8);
	fx_nic(c, "cx5-100", 100, 1, 3);
	VEC_AT(c->nics, struct cat_nic, 0).protocol = PROTO_ROCE;
	fx_nic(c, "cx7-400", 400, 1, 5); /* InfiniBand */
	fx_nic(c, "cx7-400-gen3", 400, 1, 3); /* 50 GB/s NIC on a 15.75 GB/s slot */
	fx_nic(c, "cx7-400e", 400, 1, 5); /* RoCE */
	VEC_AT(c->nics, struct cat_nic, 3).protocol = PROTO_ROCE;
	fx_switch(c, "sw32x100", 32, 100, 1, 0); /* Ethernet */
	VEC_AT(c->switches, struct cat_switch, 0).protocol = PROTO_ETHERNET;
	fx_switch(c, "sw64x400", 64, 400, 2, 1000); /* InfiniBand, adaptive routing */
	VEC_AT(c->switches, struct cat_switch, 1).adaptive_routing = true;
	fx_switch(c, "eth64x400", 64, 400, 2, 1000); /* Ethernet, static ECMP only */
	VEC_AT(c->switches, struct cat_switch, 2).protocol = PROTO_ETHERNET;
	VEC_AT(c->nics, struct cat_nic, 1).adaptive_routing = true;
	/* Cages and a copper cable, for the cable plan: QSFP28 at 100G. */
	SETS(VEC_AT(c->nics, struct cat_nic, 0).cage, "qsfp28");
	SETS(VEC_AT(c->switches, struct cat_switch, 0).cage, "qsfp28");
	fx_cable(c, "dac-100", MEDIA_DAC, 100, "qsfp28", 3);
}

/* The reference case: 4 x 8 a100, 4 x 100G NICs each, one 32-port ToR. */
static inline void fx_reference(struct design *d)
{
	struct server_group *g;
	struct nic_spec *n;
	struct switch_group *s;
	struct bundle *b;
	design_init(d);
	SETS(d->name, "ref");
	g = vec_push(&d->servers, sizeof *g);
	SETS(g->name, "a100");
	g->count = 4;
	SETS(g->gpu, "a100");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen2");
	n = vec_push(&g->nics, sizeof *n);
	SETS(n->model, "cx5-100");
	n->count = 4;
	s = vec_push(&d->switches, sizeof *s);
	SETS(s->name, "tor");
	s->role = ROLE_LEAF;
	s->count = 1;
	SETS(s->model, "sw32x100");
	s->breakout = 1;
	b = vec_push(&d->bundles, sizeof *b);
	SETS(b->from, "a100");
	SETS(b->to, "tor");
	b->links_each = 4;
	b->wiring = WIRE_TOR;
	d->job.gpus = 32;
	d->job.dp = 32;
	design_assign_ids(d);
}

/* The textbook's mechanism where it physically exists: the reference servers in two racks of
 * 2, each rack on its own ToR with 4 x 100G uplinks spread over 2 spines (static ECMP):
 * the ring's flows between the racks are hashed onto the ToR's uplinks. */
static inline void fx_two_racks(struct design *d)
{
	struct switch_group *s;
	struct bundle *b;
	fx_reference(d);
	DESIGN_SERVER(d, 0)->count = 4;
	DESIGN_SWITCH(d, 0)->count = 2;
	s = vec_push(&d->switches, sizeof *s);
	SETS(s->name, "spine");
	s->role = ROLE_SPINE;
	s->count = 2;
	SETS(s->model, "sw32x100");
	s->breakout = 1;
	b = vec_push(&d->bundles, sizeof *b);
	SETS(b->from, "tor");
	SETS(b->to, "spine");
	b->links_each = 4;
	b->wiring = WIRE_SPREAD;
	design_assign_ids(d);
}

/* Does diag hold a problem of severity sev whose message contains text? */
static inline bool fx_has(const struct ncf_diag *diag, int sev, const char *text)
{
	size_t i;
	for (i = 0; i < diag_count(diag); i++)
		if (diag_get(diag, i)->sev == sev && strstr(diag_get(diag, i)->msg, text))
			return true;
	return false;
}


/* A two-tier Clos: `servers` x 8 h100 with `nics` x 400G NICs each, wired to `leaves`
 * leaves (rail or tor), each leaf with `up` uplinks spread over `spines` spines (0: none). */
static inline void fx_clos(struct design *d, int servers, int nics, int wiring, int leaves, int up, int spines)
{
	struct server_group *g;
	struct nic_spec *n;
	struct switch_group *s;
	struct bundle *b;
	design_init(d);
	SETS(d->name, "clos");
	g = vec_push(&d->servers, sizeof *g);
	SETS(g->name, "srv");
	g->count = servers;
	SETS(g->gpu, "h100");
	g->gpus = 8;
	SETS(g->scaleup, "nvswitch-gen3");
	n = vec_push(&g->nics, sizeof *n);
	SETS(n->model, "cx7-400");
	n->count = nics;
	s = vec_push(&d->switches, sizeof *s);
	SETS(s->name, "leaf");
	s->role = ROLE_LEAF;
	s->count = leaves;
	SETS(s->model, "sw64x400");
	s->breakout = 1;
	b = vec_push(&d->bundles, sizeof *b);
	SETS(b->from, "srv");
	SETS(b->to, "leaf");
	b->links_each = nics;
	b->wiring = wiring;
	if (spines > 0) {
		s = vec_push(&d->switches, sizeof *s);
		SETS(s->name, "spine");
		s->role = ROLE_SPINE;
		s->count = spines;
		SETS(s->model, "sw64x400");
		s->breakout = 1;
		b = vec_push(&d->bundles, sizeof *b);
		SETS(b->from, "leaf");
		SETS(b->to, "spine");
		b->links_each = up;
		b->wiring = WIRE_SPREAD;
	}
	d->job.params_b = 7;
	d->job.seq_len = 4096;
	d->job.global_batch = 256;
	d->job.layers = 32;
	d->job.hidden = 4096;
	design_assign_ids(d);
}

#endif
