/* model_gen.c: a design built from fuzz bytes, and the time its recompute takes (model_gen.h). */
#define _POSIX_C_SOURCE 200809L
#include "tests/fuzz/model_gen.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "model/job.h"
#include "model/metrics.h"

struct bytes {
	const uint8_t *p;
	size_t n, i;
};

/* The next byte (0 once the input is used up: short inputs give small designs). */
static unsigned next(struct bytes *b)
{
	return b->i < b->n ? b->p[b->i++] : 0;
}

static unsigned pick(struct bytes *b, unsigned n)
{
	return n ? next(b) % n : 0;
}

/* A count from 1 to about 2^17, small ones most often. */
static int count(struct bytes *b)
{
	unsigned e = pick(b, 18), m = next(b);
	return (int)((1u << e) + (m % (1u << (e > 8 ? 8 : e))));
}

#define SET(dst, ...) snprintf((dst), sizeof(dst), __VA_ARGS__)

void model_gen_catalog(struct catalog *c)
{
	struct cat_gpu *g;
	struct cat_fabric *f;
	struct cat_nic *n;
	struct cat_switch *s;
	static const struct { const char *name; int sm, links; double GBps; int gen; } gpus[] = {
		{ "a100", 80, 12, 25, 4 }, { "h100", 90, 18, 25, 5 }, { "b200", 100, 18, 50, 6 }, { "l40s", 89, 0, 0, 4 }
	};
	static const struct { const char *name; int kind; bool nvls; int max; } fabs[] = {
		{ "none", FAB_NONE, false, 0 },		{ "nvs2", FAB_NVSWITCH, false, 8 },
		{ "nvs3", FAB_NVSWITCH, true, 8 },	{ "nvl72", FAB_NVSWITCH, true, 72 },
		{ "pcie", FAB_PCIE_SWITCH, false, 4 },	{ "bridge", FAB_NVLINK_BRIDGE, false, 2 },
		{ "mesh", FAB_NVLINK_MESH, false, 8 },
	};
	static const struct { const char *name; int gbps, ports, proto; bool ar; } nics[] = {
		{ "n100", 100, 1, PROTO_ROCE, false }, { "n400", 400, 1, PROTO_INFINIBAND, true },
		{ "n200x2", 200, 2, PROTO_ROCE, false }, { "efa", 100, 1, PROTO_EFA, true },
	};
	static const struct { const char *name; int ports, gbps, breakout, proto; bool ar; } sws[] = {
		{ "s32", 32, 100, 4, PROTO_ETHERNET, false }, { "s64", 64, 400, 2, PROTO_INFINIBAND, true },
		{ "s128", 128, 400, 2, PROTO_ETHERNET, true },
	};
	size_t i;
	memset(c, 0, sizeof *c);
	for (i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
		g = vec_push(&c->gpus, sizeof *g);
		memset(g, 0, sizeof *g);
		SET(g->name, "%s", gpus[i].name);
		g->sm = gpus[i].sm;
		g->nvlink_links = gpus[i].links;
		g->nvlink_link_GBps = gpus[i].GBps;
		g->pcie_gen = gpus[i].gen;
		g->pcie_lanes = 16;
		g->bf16_tflops = 500;
		g->memory_GB = 80;
		SET(g->source, "fuzz");
	}
	for (i = 0; i < sizeof fabs / sizeof fabs[0]; i++) {
		f = vec_push(&c->fabrics, sizeof *f);
		memset(f, 0, sizeof *f);
		SET(f->name, "%s", fabs[i].name);
		f->kind = fabs[i].kind;
		f->nvls = fabs[i].nvls;
		f->max_gpus = fabs[i].max;
		f->pcie_gen = fabs[i].kind == FAB_PCIE_SWITCH ? 4 : 0;
		f->pcie_lanes = fabs[i].kind == FAB_PCIE_SWITCH ? 16 : 0;
		SET(f->source, "fuzz");
	}
	for (i = 0; i < sizeof nics / sizeof nics[0]; i++) {
		n = vec_push(&c->nics, sizeof *n);
		memset(n, 0, sizeof *n);
		SET(n->name, "%s", nics[i].name);
		n->speed_gbps = nics[i].gbps;
		n->ports = nics[i].ports;
		n->protocol = nics[i].proto;
		n->pcie_gen = 5;
		n->pcie_lanes = 16;
		n->adaptive_routing = nics[i].ar;
		SET(n->source, "fuzz");
	}
	for (i = 0; i < sizeof sws / sizeof sws[0]; i++) {
		s = vec_push(&c->switches, sizeof *s);
		memset(s, 0, sizeof *s);
		SET(s->name, "%s", sws[i].name);
		s->ports = sws[i].ports;
		s->port_speed_gbps = sws[i].gbps;
		s->max_breakout = sws[i].breakout;
		s->protocol = sws[i].proto;
		s->adaptive_routing = sws[i].ar;
		SET(s->source, "fuzz");
	}
}

void model_gen_design(const uint8_t *data, size_t size, const struct catalog *cat, struct design *d)
{
	struct bytes b = { data, size, 0 };
	int ns = 1 + (int)pick(&b, 12), nw = (int)pick(&b, 10), nb = (int)pick(&b, 24), i;
	static const int gpus_of[] = { 1, 2, 4, 8, 8, 8, 16, 36, 72 };
	static const int deg[] = { 1, 1, 2, 4, 8, 16, 64 };
	int groups;
	design_init(d);
	SET(d->name, "fuzz");
	for (i = 0; i < ns; i++) {
		struct server_group *g = vec_push(&d->servers, sizeof *g);
		int k, nn = (int)pick(&b, 3);
		memset(g, 0, sizeof *g);
		SET(g->name, "s%d", i);
		g->count = count(&b);
		SET(g->gpu, "%s", VEC_AT(cat->gpus, struct cat_gpu, pick(&b, (unsigned)cat->gpus.n)).name);
		g->gpus = gpus_of[pick(&b, sizeof gpus_of / sizeof gpus_of[0])];
		SET(g->scaleup, "%s", VEC_AT(cat->fabrics, struct cat_fabric, pick(&b, (unsigned)cat->fabrics.n)).name);
		g->cpu = (int)pick(&b, 7);
		g->sockets = (int)pick(&b, 3);
		for (k = 0; k < nn; k++) {
			struct nic_spec *n = vec_push(&g->nics, sizeof *n);
			memset(n, 0, sizeof *n);
			SET(n->model, "%s", VEC_AT(cat->nics, struct cat_nic, pick(&b, (unsigned)cat->nics.n)).name);
			n->count = 1 + (int)pick(&b, 16);
			n->attach = (int)pick(&b, 2);
		}
	}
	for (i = 0; i < nw; i++) {
		struct switch_group *s = vec_push(&d->switches, sizeof *s);
		memset(s, 0, sizeof *s);
		SET(s->name, "w%d", i);
		s->role = (int)pick(&b, 3);
		s->count = count(&b);
		SET(s->model, "%s", VEC_AT(cat->switches, struct cat_switch, pick(&b, (unsigned)cat->switches.n)).name);
		s->breakout = 1 + (int)pick(&b, 2);
	}
	groups = ns + nw;
	for (i = 0; i < nb; i++) {
		/* Mostly the shapes people draw (servers up to switches, switches up a tier), and
		 * now and then anything at all. */
		struct bundle *bu = vec_push(&d->bundles, sizeof *bu);
		unsigned shape = pick(&b, 8);
		int from = (int)pick(&b, (unsigned)groups), to = (int)pick(&b, (unsigned)groups);
		if (shape < 5 && nw > 0) {
			from = (int)pick(&b, (unsigned)ns);
			to = ns + (int)pick(&b, (unsigned)nw);
		} else if (shape < 7 && nw > 1) {
			from = ns + (int)pick(&b, (unsigned)nw);
			to = ns + (int)pick(&b, (unsigned)nw);
		}
		memset(bu, 0, sizeof *bu);
		SET(bu->from, "%s%d", from < ns ? "s" : "w", from < ns ? from : from - ns);
		SET(bu->to, "%s%d", to < ns ? "s" : "w", to < ns ? to : to - ns);
		bu->links_each = 1 + (int)pick(&b, 16);
		bu->wiring = from < ns && to < ns ? WIRE_MESH : (int)pick(&b, 3);
		bu->lag = pick(&b, 6) == 0;
	}
	/* Most people join every server group to the network: a group no bundle names gets one
	 * to a switch group (the job then computes instead of stopping at "not connected"),
	 * unless the input says to leave it (a byte of 0 mod 8). */
	if (nw > 0)
		for (i = 0; i < ns; i++) {
			size_t k;
			bool named = false;
			struct bundle *bu;
			for (k = 0; k < d->bundles.n && !named; k++)
				named = !strcmp(DESIGN_BUNDLE(d, k)->from, DESIGN_SERVER(d, i)->name) ||
					!strcmp(DESIGN_BUNDLE(d, k)->to, DESIGN_SERVER(d, i)->name);
			if (named || pick(&b, 8) == 0)
				continue;
			bu = vec_push(&d->bundles, sizeof *bu);
			memset(bu, 0, sizeof *bu);
			SET(bu->from, "s%d", i);
			SET(bu->to, "w%d", (int)pick(&b, (unsigned)nw));
			bu->links_each = 1 + (int)pick(&b, 8);
			bu->wiring = (int)pick(&b, 3);
		}
	/* Enough switches for their ports (doubling a group's count until it fits, as a user
	 * adds switches when the check says so). */
	for (i = 0; i < nw; i++) {
		struct switch_group *s = DESIGN_SWITCH(d, i);
		const struct cat_switch *cs = catalog_switch(cat, s->model);
		int tries;
		for (tries = 0; cs && tries < 6 && s->count < 1 << 22; tries++) {
			long down = 0, up = 0, have = (long)cs->ports * s->breakout, want;
			switch_ports_used(d, s, &down, &up);
			if (down + up <= have)
				break;
			/* The links a group's switches share out: as many more switches as that
			 * needs (then check again: some wirings give each switch a fixed share). */
			want = (long)((double)s->count * (double)(down + up) / (double)have) + 1;
			s->count = (int)(want > 2L * s->count && want < (1L << 22) ? want : 2L * s->count);
		}
	}
	d->fabric.routing = (int)pick(&b, 3);
	d->fabric.pxn = pick(&b, 2);
	d->fabric.cross_nic = pick(&b, 2);
	d->fabric.qps_per_connection = (int)pick(&b, 5);
	d->job.params_b = 1 + pick(&b, 400);
	d->job.layers = 1 + (int)pick(&b, 128);
	d->job.hidden = 128 * (1 + (int)pick(&b, 128));
	d->job.seq_len = 512 << pick(&b, 6);
	d->job.global_batch = count(&b);
	d->job.tp = deg[pick(&b, sizeof deg / sizeof deg[0])];
	d->job.pp = deg[pick(&b, sizeof deg / sizeof deg[0])];
	d->job.ep = deg[pick(&b, 4)];
	d->job.cp = deg[pick(&b, 4)];
	d->job.zero = (int)pick(&b, 4);
	d->job.micro_batches = 1 + (int)pick(&b, 64);
	d->job.micro_batch_size = (int)pick(&b, 3);
	d->job.vp = (int)pick(&b, 4);
	d->job.sequence_parallel = pick(&b, 2);
	d->job.recompute = (int)pick(&b, 3);
	d->job.dp_buckets = (int)pick(&b, 2);
	d->job.overlap = pick(&b, 5) / 4.0;
	d->job.mfu = 0.4;
	d->job.placement = (int)pick(&b, 2);
	d->job.algo = (int)pick(&b, 6);
	d->job.gpus = pick(&b, 3) == 0 ? count(&b) : 0;
	{
		/* Degrees that fit the GPUs, else none. */
		long gpus = 0;
		struct job_shape js;
		char why[200];
		for (i = 0; i < ns; i++)
			gpus += (long)DESIGN_SERVER(d, i)->count * DESIGN_SERVER(d, i)->gpus;
		if (d->job.gpus > gpus)
			d->job.gpus = 0;
		if (!job_shape(&d->job, d->job.gpus ? d->job.gpus : gpus, 0, &js, why, sizeof why, NULL))
			d->job.tp = d->job.pp = d->job.cp = d->job.ep = 1, d->job.micro_batch_size = 0;
	}
	design_assign_ids(d);
}

double model_gen_recompute_ms(const struct design *d, const struct catalog *cat, struct metrics *m)
{
	struct timespec a, z;
	clock_gettime(CLOCK_MONOTONIC, &a);
	metrics_compute(d, cat, 1 << 30, 0, m);
	clock_gettime(CLOCK_MONOTONIC, &z);
	return (z.tv_sec - a.tv_sec) * 1e3 + (z.tv_nsec - a.tv_nsec) / 1e6;
}
