/* template.c: the shipped templates. Each builder works through edit commands only. */
#include "layouts/template.h"
#include "model/num.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wirings[] = { "rail", "tor", NULL };
static const char *const generations[] = { "hdr", "ndr", "xdr", NULL };

/* ---- small helpers ------------------------------------------------------------------ */

static long ival(const struct tvalues *v, int i)
{
	return strtol(v->v[i], NULL, 10);
}

static double dval(const struct tvalues *v, int i)
{
	return strtod(v->v[i], NULL);
}

static bool fail(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return false;
}

/* The editor's refusal, as the template's error. */
static bool ed_ok(struct editor *ed, bool ok, char *err, size_t errsz)
{
	if (!ok)
		snprintf(err, errsz, "%s", ed->msg);
	return ok;
}

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

struct server_spec {
	const char *name, *model, *gpu, *scaleup, *domain, *nic;
	int count, gpus, cpu, nics, nic_speed;
	int sockets;        /* 0: one */
};

static bool add_servers(struct editor *ed, const struct server_spec *s, char *err, size_t errsz)
{
	struct server_group g;
	int id;
	schema_init(&server_group_schema, &g);
	SETS(g.name, s->name);
	g.count = s->count;
	SETS(g.model, s->model ? s->model : "");
	SETS(g.gpu, s->gpu);
	g.gpus = s->gpus;
	SETS(g.scaleup, s->scaleup);
	SETS(g.domain, s->domain ? s->domain : "");
	g.cpu = s->cpu;
	g.sockets = s->sockets > 1 ? s->sockets : 0;
	if (!ed_ok(ed, ed_add_server_group(ed, &g, &id), err, errsz))
		return false;
	if (s->nics > 0) {
		struct nic_spec n;
		schema_init(&nic_spec_schema, &n);
		SETS(n.model, s->nic);
		n.count = s->nics;
		n.speed_gbps = s->nic_speed;
		return ed_ok(ed, ed_add_nic(ed, id, &n), err, errsz);
	}
	return true;
}

static bool add_switches(struct editor *ed, const char *name, int role, int count, const char *model, char *err,
			 size_t errsz)
{
	struct switch_group s;
	schema_init(&switch_group_schema, &s);
	SETS(s.name, name);
	s.role = role;
	s.count = count;
	SETS(s.model, model);
	return ed_ok(ed, ed_add_switch_group(ed, &s, NULL), err, errsz);
}

static bool add_bundle(struct editor *ed, const char *from, const char *to, int each, int wiring, char *err,
		       size_t errsz)
{
	struct bundle b;
	schema_init(&bundle_schema, &b);
	SETS(b.from, from);
	SETS(b.to, to);
	b.links_each = each;
	b.wiring = wiring;
	return ed_ok(ed, ed_add_bundle(ed, &b, NULL), err, errsz);
}

static bool set(struct editor *ed, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool set(struct editor *ed, const char *key, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ed_set(ed, 0, key, buf);
}

/* A template's job: one that fits its GPUs' memory (model/job.h). */
struct job_spec {
	const char *name;
	double params_b, overlap;
	int layers, hidden, seq_len, global_batch, tp, pp, micro_batches;
	int zero;
	bool sequence_parallel;
};

/* Megatron runs whole micro-batches (global_batch a multiple of micro-batch size x DP; the
 * design check warns otherwise): on the design's GPUs, fewer micro-batches a step when the
 * batch is too small for them, then a batch rounded up to whole micro-batches. */
static void whole_micro_batches(const struct design *d, struct job_spec *j)
{
	long gpus = 0, dp, per;
	size_t i;
	int tp = j->tp > 0 ? j->tp : 1, pp = j->pp > 0 ? j->pp : 1;
	for (i = 0; i < d->servers.n; i++)
		gpus += (long)DESIGN_SERVER(d, i)->count * DESIGN_SERVER(d, i)->gpus;
	dp = gpus / ((long)tp * pp);
	if (dp < 1 || j->global_batch <= 0)
		return;
	if (j->micro_batches < 1)
		j->micro_batches = 1;
	while (j->micro_batches > 1 && j->global_batch < dp * j->micro_batches)
		j->micro_batches /= 2;
	per = dp * j->micro_batches;
	if (j->global_batch % per)
		j->global_batch = (int)((j->global_batch / per + 1) * per);
}

static bool set_job(struct editor *ed, const struct job_spec *spec, char *err, size_t errsz)
{
	struct job_spec whole = *spec, *j = &whole;
	bool ok;
	whole_micro_batches(ed->d, &whole);
	ok = set(ed, "job.name", "%s", j->name) && set(ed, "job.params_b", "%g", j->params_b) &&
		  set(ed, "job.layers", "%d", j->layers) && set(ed, "job.hidden", "%d", j->hidden) &&
		  set(ed, "job.seq_len", "%d", j->seq_len) && set(ed, "job.global_batch", "%d", j->global_batch) &&
		  set(ed, "job.tp", "%d", j->tp > 0 ? j->tp : 1) && set(ed, "job.pp", "%d", j->pp > 0 ? j->pp : 1) &&
		  set(ed, "job.micro_batches", "%d", j->micro_batches > 0 ? j->micro_batches : 1) &&
		  set(ed, "job.overlap", "%g", j->overlap) && set(ed, "job.zero", "%d", j->zero) &&
		  (!j->sequence_parallel || set(ed, "job.sequence_parallel", "true"));
	return ed_ok(ed, ok, err, errsz);
}

static const struct cat_switch *need_switch(const struct editor *ed, const char *name, char *err, size_t errsz)
{
	const struct cat_switch *s = catalog_switch(ed->shipped, name);
	if (!s)
		fail(err, errsz, "unknown switch '%s'", name);
	return s;
}

/* Smallest count >= need that divides total (so links spread evenly), or 0. */
static int even_divisor(long total, long need, long max)
{
	long s;
	if (need < 1)
		need = 1;
	for (s = need; s <= max && s <= total; s++)
		if (total % s == 0)
			return (int)s;
	return 0;
}

/* A one- or two-tier Clos for the server group `srv` (count servers, nics each):
 * leaves of `leaf` with downlinks : uplinks = ratio, rail or ToR wiring, spines of
 * `spine` to join the leaves when there is more than one. */
static bool clos(struct editor *ed, const char *srv, long servers, int nics, int wiring, const char *leaf,
		 const char *spine, double ratio, char *err, size_t errsz)
{
	const struct cat_switch *ls = need_switch(ed, leaf, err, errsz), *ss;
	long P, D, per_leaf, leaves, down, up, spines, total;
	if (!ls)
		return false;
	if (servers < 1 || nics < 1)
		return fail(err, errsz, "%ld servers with %d NICs each: a Clos needs at least one of each", servers, nics);
	P = ls->ports;
	D = (long)floor(P * ratio / (ratio + 1) + 1e-9);
	if (D < 1)
		return fail(err, errsz, "a %s has %ld ports: none left for servers at %g:1", leaf, P, ratio);
	if (wiring == WIRE_RAIL) {
		long units;
		per_leaf = servers < D ? servers : D;
		units = (servers + per_leaf - 1) / per_leaf;
		leaves = units * nics;
		down = (servers + units - 1) / units;
	} else {
		per_leaf = D / nics;
		if (per_leaf < 1)
			return fail(err, errsz, "%d NICs per server do not fit on one %s at %g:1 (%ld ports down)", nics, leaf,
				    ratio, D);
		leaves = (servers + per_leaf - 1) / per_leaf;
		down = (servers * nics + leaves - 1) / leaves;
	}
	if (!add_switches(ed, "leaf", ROLE_LEAF, (int)leaves, leaf, err, errsz) ||
	    !add_bundle(ed, srv, "leaf", nics, wiring, err, errsz))
		return false;
	if (leaves == 1 || !spine)
		return true;
	ss = need_switch(ed, spine, err, errsz);
	if (!ss)
		return false;
	up = (long)ceil(down / ratio - 1e-9);
	if (up < 1)
		up = 1;
	if (down + up > P)
		return fail(err, errsz, "a %s has %ld ports, but each leaf needs %ld down and %ld up", leaf, P, down, up);
	total = leaves * up;
	spines = even_divisor(total, (total + ss->ports - 1) / ss->ports, total);
	if (!spines || total / spines > ss->ports)
		return fail(err, errsz, "%ld leaf uplinks need more than one tier of %s spines: use the fat-tree or superpod template",
			    total, spine);
	/* A two-tier Clos joins two leaves through a spine both reach: every leaf on every
	 * spine. With fewer uplinks than spines, spread wiring leaves pairs of leaves with no
	 * spine in common (their traffic would have to turn at a leaf, which up-down routing
	 * and a Clos's BGP never do). */
	if (spines > up)
		return fail(err, errsz,
			    "%ld leaves with %ld uplinks each cannot all reach the %ld %s spines they need (a two-tier Clos "
			    "puts every leaf on every spine): %ld servers need a third tier; use the superpod or fat-tree "
			    "template, or fewer servers",
			    leaves, up, spines, spine, servers);
	return add_switches(ed, "spine", ROLE_SPINE, (int)spines, spine, err, errsz) &&
	       add_bundle(ed, "leaf", "spine", (int)up, WIRE_SPREAD, err, errsz);
}

/* ---- the templates ------------------------------------------------------------------ */

enum { SN_GPU, SN_GPUS, SN_SCALEUP, SN_NIC, SN_NICS };
static const struct tparam single_params[] = {
	{ "gpu", TP_GPU, "h100-sxm5", 0, 0, NULL, "GPU model" },
	{ "gpus", TP_INT, "8", 1, 72, NULL, "GPUs in the server" },
	{ "scaleup", TP_FABRIC, "nvswitch-gen3", 0, 0, NULL, "scale-up fabric: an NVSwitch generation, NVLink bridge or PCIe switch" },
	{ "nic", TP_NIC, "connectx-7-ndr", 0, 0, NULL, "NIC model" },
	{ "nics", TP_INT, "0", 0, 16, NULL, "NICs (not connected: a single server has no network)" },
};

static bool build_single(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	struct server_spec s = { "node", NULL, v->v[SN_GPU], v->v[SN_SCALEUP], NULL, v->v[SN_NIC], 1, (int)ival(v, SN_GPUS),
				 CPU_INTEL, (int)ival(v, SN_NICS), 0, 0 };
	struct job_spec j = { "7B fine-tune", 7, 0.66, 32, 4096, 4096, 64, 1, 1, 8, 1, false };
	return set(ed, "name", "single-node") && add_servers(ed, &s, err, errsz) && set_job(ed, &j, err, errsz);
}

enum { LS_SERVERS, LS_SERVER, LS_NICS, LS_NIC, LS_NIC_SPEED, LS_LEAF, LS_SPINE, LS_OVERSUB, LS_WIRING };
static const struct tparam leafspine_params[] = {
	{ "servers", TP_INT, "32", 2, 100000, NULL, "servers" },
	{ "server", TP_SERVER, "dgx-h100", 0, 0, NULL, "server model (its GPU, GPU count and scale-up fabric)" },
	{ "nics", TP_INT, "8", 1, 16, NULL, "compute NICs per server" },
	{ "nic", TP_NIC, "connectx-7-ndr", 0, 0, NULL, "NIC model" },
	{ "nic_speed", TP_INT, "0", 0, 1600, NULL, "NIC port speed in Gb/s (0: the NIC's)" },
	{ "leaf", TP_SWITCH, "qm9700", 0, 0, NULL, "leaf switch model" },
	{ "spine", TP_SWITCH, "qm9700", 0, 0, NULL, "spine switch model" },
	{ "oversubscription", TP_NUM, "1", 1, 16, NULL, "leaf downlinks : uplinks (uplinks are derived from it)" },
	{ "wiring", TP_CHOICE, "rail", 0, 0, wirings, "rail-optimised, or top-of-rack" },
};

static bool server_from(struct editor *ed, const char *model, struct server_spec *s, char *err, size_t errsz)
{
	const struct cat_server *c = catalog_server(ed->shipped, model);
	if (!c)
		return fail(err, errsz, "unknown server '%s'", model);
	s->model = c->name;
	s->gpu = c->gpu;
	s->gpus = c->gpus;
	s->scaleup = c->scaleup;
	s->cpu = c->cpu;
	if (!s->nic)
		s->nic = c->nic;
	if (!s->nics)
		s->nics = c->compute_nics;
	return true;
}

static bool build_leafspine(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	struct server_spec s = { "srv", NULL, NULL, NULL, NULL, v->v[LS_NIC], (int)ival(v, LS_SERVERS), 0, 0,
				 (int)ival(v, LS_NICS), (int)ival(v, LS_NIC_SPEED), 0 };
	struct job_spec j = { "Llama-class 70B", 70, 0.66, 80, 8192, 4096, 0, 8, 1, 8, 1, false };
	if (!server_from(ed, v->v[LS_SERVER], &s, err, errsz))
		return false;
	j.global_batch = s.count * s.gpus / 2 > 8 ? s.count * s.gpus / 2 : 8;
	j.tp = s.gpus >= 8 ? 8 : s.gpus;
	return set(ed, "name", "leaf-spine") && add_servers(ed, &s, err, errsz) &&
	       clos(ed, "srv", s.count, s.nics, strcmp(v->v[LS_WIRING], "tor") == 0 ? WIRE_TOR : WIRE_RAIL, v->v[LS_LEAF],
		    v->v[LS_SPINE], dval(v, LS_OVERSUB), err, errsz) &&
	       set(ed, "fabric.routing", "adaptive") && set_job(ed, &j, err, errsz);
}

enum { FT_K, FT_PODS, FT_SPEED, FT_GPU, FT_GPUS };
static const struct tparam fattree_params[] = {
	{ "k", TP_INT, "8", 4, 128, NULL, "switch radix (even): k pods, k^3/4 hosts, 5k^2/4 switches when full" },
	{ "pods", TP_INT, "0", 0, 128, NULL, "pods to build (0: all k; fewer for a partial build)" },
	{ "speed", TP_INT, "400", 10, 1600, NULL, "link speed, Gb/s" },
	{ "gpu", TP_GPU, "h100-sxm5", 0, 0, NULL, "GPU of each host" },
	{ "gpus", TP_INT, "8", 1, 72, NULL, "GPUs per host (each host has one NIC)" },
};

static bool build_fattree(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	long k = ival(v, FT_K), pods = ival(v, FT_PODS), h = k / 2;
	struct cat_switch sw;
	struct cat_nic nic;
	char swname[NCF_NAME_MAX], nicname[NCF_NAME_MAX];
	struct server_spec s = { "host", NULL, v->v[FT_GPU], "nvswitch-gen3", NULL, NULL, 0, (int)ival(v, FT_GPUS), CPU_INTEL,
				 1, 0, 0 };
	struct job_spec j = { "7B data-parallel", 7, 0.66, 32, 4096, 4096, 0, 1, 1, 1, 1, false };
	const struct cat_gpu *gpu = catalog_gpu(ed->shipped, v->v[FT_GPU]);
	if (k % 2)
		return fail(err, errsz, "k must be even, got %ld", k);
	if (pods == 0)
		pods = k;
	if (pods > k)
		return fail(err, errsz, "pods must be from 1 to k (%ld), got %ld", k, pods);
	if (gpu && (gpu->nvlink_links == 0 || gpu->form == FORM_CARD))
		s.scaleup = "pcie-switch-gen5";
	/* A k-port switch and a NIC of the link speed, as parts of the design's own catalog. */
	memset(&sw, 0, sizeof sw);
	snprintf(swname, sizeof swname, "fat-tree-k%ld", k);
	SETS(sw.name, swname);
	sw.protocol = PROTO_ETHERNET;
	sw.ports = (int)k;
	sw.cages = (int)k;
	sw.port_speed_gbps = (int)ival(v, FT_SPEED);
	sw.max_breakout = 1;
	snprintf(sw.source, sizeof sw.source, "fat-tree template: a generic %ld-port switch", k);
	memset(&nic, 0, sizeof nic);
	snprintf(nicname, sizeof nicname, "nic-%ldg", ival(v, FT_SPEED));
	SETS(nic.name, nicname);
	nic.speed_gbps = (int)ival(v, FT_SPEED);
	nic.ports = 1;
	nic.protocol = PROTO_ROCE; /* RDMA over the Ethernet fabric; plain Ethernet would be NCCL sockets */
	nic.pcie_gen = nic.speed_gbps > 400 ? 6 : 5;
	nic.pcie_lanes = 16;
	snprintf(nic.source, sizeof nic.source, "fat-tree template: a generic %ld Gb/s NIC", ival(v, FT_SPEED));
	if (ival(v, FT_SPEED) == 400) {
		/* One 400G OSFP cage (flat top) per port at both ends, so that the links take the
		 * catalog's 400G OSFP modules (DR4, SR4: NVIDIA's MMS4X00-NS400, MMA4Z00-NS400);
		 * other speeds have no such part and stay without a cage (the report warns). */
		SETS(sw.cage, "osfp");
		SETS(sw.top, "flat");
		SETS(nic.cage, "osfp");
		SETS(nic.top, "flat");
	}
	s.nic = nicname;
	s.count = (int)(pods * h * h);
	j.global_batch = s.count * s.gpus / 2 > 8 ? s.count * s.gpus / 2 : 8;
	return set(ed, "name", "fat-tree-k%ld", k) && ed_ok(ed, ed_add_catalog(ed, "switches", &sw), err, errsz) &&
	       ed_ok(ed, ed_add_catalog(ed, "nics", &nic), err, errsz) && add_servers(ed, &s, err, errsz) &&
	       add_switches(ed, "edge", ROLE_LEAF, (int)(pods * h), swname, err, errsz) &&
	       add_switches(ed, "aggregation", ROLE_SPINE, (int)(pods * h), swname, err, errsz) &&
	       add_switches(ed, "core", ROLE_CORE, (int)(h * h), swname, err, errsz) &&
	       add_bundle(ed, "host", "edge", 1, WIRE_TOR, err, errsz) &&
	       /* Edge switch i of pod p reaches the k/2 aggregation switches of its pod (rail: a
		* pod is a unit); aggregation switch i of each pod reaches core switches i k/2 ..
		* i k/2 + k/2 - 1 (spread: link l of position q to (q k/2 + l) mod (k/2)^2), so
		* core switch j reaches one aggregation switch of every pod. */
	       add_bundle(ed, "edge", "aggregation", (int)h, WIRE_RAIL, err, errsz) &&
	       add_bundle(ed, "aggregation", "core", (int)h, WIRE_SPREAD, err, errsz) && set_job(ed, &j, err, errsz);
}

enum { SP_UNITS, SP_SERVER, SP_GEN, SP_PER_UNIT };
static const struct tparam superpod_params[] = {
	{ "units", TP_INT, "1", 1, 128, NULL, "scalable units" },
	{ "server", TP_SERVER, "dgx-h100", 0, 0, NULL, "server model (8 GPUs, 8 compute NICs)" },
	{ "generation", TP_CHOICE, "ndr", 0, 0, generations,
	  "InfiniBand generation: hdr (ConnectX-6, QM8700), ndr (ConnectX-7, QM9700), xdr (ConnectX-8, Q3400)" },
	{ "servers_per_unit", TP_INT, "0", 0, 512, NULL, "servers per unit (0: half a leaf's ports, as NVIDIA's RAs)" },
};

static bool build_superpod(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	static const char *const nic_of[] = { "connectx-6-hdr", "connectx-7-ndr", "connectx-8" };
	static const char *const sw_of[] = { "qm8700", "qm9700", "q3400" };
	int gen = strcmp(v->v[SP_GEN], "hdr") == 0 ? 0 : strcmp(v->v[SP_GEN], "xdr") == 0 ? 2 : 1;
	const struct cat_switch *sw = need_switch(ed, sw_of[gen], err, errsz);
	long units = ival(v, SP_UNITS), S, leaves, rails, spines;
	struct server_spec s = { "dgx", NULL, NULL, NULL, NULL, nic_of[gen], 0, 0, 0, 0, 0, 0 };
	struct job_spec j = { "Llama-class 70B", 70, 0.66, 80, 8192, 4096, 0, 8, 1, 8, 1, false };
	if (!sw || !server_from(ed, v->v[SP_SERVER], &s, err, errsz))
		return false;
	s.nic = nic_of[gen];
	rails = s.nics > 0 ? s.nics : 8;
	S = ival(v, SP_PER_UNIT) ? ival(v, SP_PER_UNIT) : sw->ports / 2;
	if (S < 1 || sw->ports < 2)
		return fail(err, errsz, "a %s has %d ports: too few for a non-blocking leaf", sw->name, sw->ports);
	if (S * 2 > sw->ports)
		return fail(err, errsz, "%ld servers per unit need %ld leaf ports (non-blocking), a %s has %d", S, 2 * S,
			    sw->name, sw->ports);
	s.count = (int)(units * S);
	leaves = units * rails;
	j.global_batch = s.count * s.gpus / 2;
	if (!set(ed, "name", "superpod-%ld-su-%s", units, v->v[SP_GEN]) || !add_servers(ed, &s, err, errsz) ||
	    !add_switches(ed, "leaf", ROLE_LEAF, (int)leaves, sw->name, err, errsz) ||
	    !add_bundle(ed, "dgx", "leaf", (int)rails, WIRE_RAIL, err, errsz))
		return false;
	/* Leaves are non-blocking: S ports down, S up. Spines divide the S uplinks evenly. */
	spines = even_divisor(S, (leaves * S + sw->ports - 1) / sw->ports, S);
	if (spines && leaves > 1) {
		if (!add_switches(ed, "spine", ROLE_SPINE, (int)spines, sw->name, err, errsz) ||
		    !add_bundle(ed, "leaf", "spine", (int)S, WIRE_SPREAD, err, errsz))
			return false;
	} else if (leaves > 1) {
		/* A core tier: pods of ports/2 leaves and S spines, each spine half up. */
		long per_pod = sw->ports / 2, pods = (leaves + per_pod - 1) / per_pod, cores;
		spines = pods * S;
		cores = (spines * (sw->ports / 2) + sw->ports - 1) / sw->ports;
		if (!add_switches(ed, "spine", ROLE_SPINE, (int)spines, sw->name, err, errsz) ||
		    !add_switches(ed, "core", ROLE_CORE, (int)cores, sw->name, err, errsz) ||
		    !add_bundle(ed, "leaf", "spine", (int)S, WIRE_RAIL, err, errsz) ||
		    !add_bundle(ed, "spine", "core", sw->ports / 2, WIRE_SPREAD, err, errsz))
			return false;
	}
	return set(ed, "fabric.routing", "adaptive") && set(ed, "fabric.sharp", "true") && set_job(ed, &j, err, errsz);
}

enum { NV_RACKS, NV_NICS, NV_NIC, NV_LEAF, NV_SPINE, NV_OVERSUB };
static const struct tparam nvl72_params[] = {
	{ "racks", TP_INT, "2", 1, 1024, NULL,
	  "GB200 NVL72 racks (one 72-GPU NVLink domain each; two tiers of 64-port switches join up to 28)" },
	{ "nics", TP_INT, "4", 1, 8, NULL, "scale-out NICs per compute tray" },
	{ "nic", TP_NIC, "connectx-7-ndr", 0, 0, NULL, "scale-out NIC" },
	{ "leaf", TP_SWITCH, "qm9700", 0, 0, NULL, "leaf switch" },
	{ "spine", TP_SWITCH, "qm9700", 0, 0, NULL, "spine switch" },
	{ "oversubscription", TP_NUM, "1", 1, 16, NULL, "leaf downlinks : uplinks" },
};

static bool build_nvl72(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	long racks = ival(v, NV_RACKS);
	struct domain_group m;
	struct server_spec s = { "tray", "gb200-compute-tray", "gb200", "nvl72-backplane", "nvl72", v->v[NV_NIC],
				 (int)(18 * racks), 4, CPU_GRACE, (int)ival(v, NV_NICS), 0, 0 };
	struct job_spec j = { "dense 400B", 400, 0.66, 126, 16384, 8192, 0, 8, 1, 16, 3, true };
	schema_init(&domain_group_schema, &m);
	SETS(m.name, "nvl72");
	m.count = (int)racks;
	m.servers_each = 18;
	m.switch_trays = 9;
	SETS(m.tray, "nvlink5-switch-tray");
	j.global_batch = (int)(racks * 72);
	return set(ed, "name", "nvl72-x%ld", racks) && ed_ok(ed, ed_add_domain_group(ed, &m, NULL), err, errsz) &&
	       add_servers(ed, &s, err, errsz) &&
	       (racks < 2 ? add_switches(ed, "leaf", ROLE_LEAF, (int)ival(v, NV_NICS), v->v[NV_LEAF], err, errsz) &&
				    add_bundle(ed, "tray", "leaf", (int)ival(v, NV_NICS), WIRE_RAIL, err, errsz)
			  : clos(ed, "tray", s.count, s.nics, WIRE_RAIL, v->v[NV_LEAF], v->v[NV_SPINE], dval(v, NV_OVERSUB),
				 err, errsz)) &&
	       set(ed, "fabric.routing", "adaptive") && set_job(ed, &j, err, errsz);
}

enum { RO_SERVERS, RO_SERVER, RO_LEAF };
static const struct tparam railonly_params[] = {
	{ "servers", TP_INT, "32", 2, 4096, NULL, "servers (at most one leaf's ports)" },
	{ "server", TP_SERVER, "dgx-h100", 0, 0, NULL, "server model" },
	{ "leaf", TP_SWITCH, "qm9700", 0, 0, NULL, "rail switch: one per rail, no spine" },
};

static bool build_railonly(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	struct server_spec s = { "srv", NULL, NULL, NULL, NULL, NULL, (int)ival(v, RO_SERVERS), 0, 0, 0, 0, 0 };
	struct job_spec j = { "Llama-class 70B", 70, 0.66, 80, 8192, 4096, 0, 8, 1, 8, 1, false };
	const struct cat_switch *sw = need_switch(ed, v->v[RO_LEAF], err, errsz);
	if (!sw || !server_from(ed, v->v[RO_SERVER], &s, err, errsz))
		return false;
	if (s.nics < 1)
		return fail(err, errsz, "a %s has no compute NICs to make rails of", s.model);
	if (s.count > sw->ports)
		return fail(err, errsz, "rail-only joins each rail on one switch: %d servers need %d ports, a %s has %d", s.count,
			    s.count, sw->name, sw->ports);
	j.global_batch = s.count * s.gpus / 2;
	return set(ed, "name", "rail-only") && add_servers(ed, &s, err, errsz) &&
	       add_switches(ed, "rail", ROLE_LEAF, s.nics, sw->name, err, errsz) &&
	       add_bundle(ed, "srv", "rail", s.nics, WIRE_RAIL, err, errsz) && set(ed, "fabric.cross_nic", "false") &&
	       set_job(ed, &j, err, errsz);
}

enum { RC_RACKS, RC_UPLINKS };
static const struct tparam reference_params[] = {
	{ "racks", TP_INT, "1", 1, 4, NULL,
	  "racks the 4 servers stand in, each with its own ToR (1: the reference case; more: ToRs under 2 spines)" },
	{ "uplinks", TP_INT, "4", 1, 16, NULL, "100G uplinks of each ToR to the spines (with racks > 1)" },
};

static bool build_reference(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	struct server_spec s = { "a100", "hgx-a100-8gpu", "a100-sxm4-80gb", "nvswitch-gen2", NULL, "connectx-5-roce-100g",
				 4, 8, CPU_AMD, 4, 0, 0 };
	struct job_spec j = { "GPT-2 1.5B", 1.5, 0.8, 48, 1600, 1024, 64, 1, 1, 1, 0, false };
	struct bundle b;
	long racks = ival(v, RC_RACKS), up = ival(v, RC_UPLINKS);
	if (4 % racks)
		return fail(err, errsz, "racks must divide the 4 servers: 1, 2 or 4, got %ld", racks);
	schema_init(&bundle_schema, &b);
	SETS(b.from, "a100");
	SETS(b.to, "tor");
	b.links_each = 4;
	b.speed_gbps = 100;
	b.wiring = WIRE_TOR;
	if (racks == 1)
		return set(ed, "name", "reference-case") &&
		       set(ed, "description", "4 x 8 A100 on one ToR with 4 x 100G RoCE per server, GPT-2 1.5B on 32 GPUs") &&
		       add_servers(ed, &s, err, errsz) && add_switches(ed, "tor", ROLE_LEAF, 1, "sn2700", err, errsz) &&
		       ed_ok(ed, ed_add_bundle(ed, &b, NULL), err, errsz) && set_job(ed, &j, err, errsz) &&
		       ed_ok(ed, set(ed, "job.gpus", "32") && set(ed, "job.dp", "32"), err, errsz);
	/* The same servers in racks: each rack's ToR reaches 2 spines over `uplinks` links, so a
	 * ring's hops between racks are hashed onto them by static ECMP. */
	{
		struct bundle u;
		schema_init(&bundle_schema, &u);
		SETS(u.from, "tor");
		SETS(u.to, "spine");
		u.links_each = (int)up;
		u.speed_gbps = 100;
		u.wiring = WIRE_SPREAD;
		return set(ed, "name", "reference-case-%ld-racks", racks) &&
		       set(ed, "description", "the reference case in %ld racks: a ToR each, %ld x 100G uplinks to 2 spines", racks,
			   up) &&
		       add_servers(ed, &s, err, errsz) && add_switches(ed, "tor", ROLE_LEAF, (int)racks, "sn2700", err, errsz) &&
		       add_switches(ed, "spine", ROLE_SPINE, 2, "sn2700", err, errsz) &&
		       /* The racks are the template's, not the power budget's (4 of these fit one
			* rack): each holds 4 / racks servers and the ToR above them. */
		       ed_ok(ed, set(ed, "physical.servers_per_rack", "%ld", 4 / racks), err, errsz) &&
		       ed_ok(ed, ed_add_bundle(ed, &b, NULL), err, errsz) && ed_ok(ed, ed_add_bundle(ed, &u, NULL), err, errsz) &&
		       set_job(ed, &j, err, errsz) &&
		       ed_ok(ed, set(ed, "job.gpus", "32") && set(ed, "job.dp", "32"), err, errsz);
	}
}

enum { PB_GPUS, PB_GPU, PB_NICS, PB_NIC, PB_LEAF, PB_SOCKETS, PB_CPU };
static const struct tparam pciebox_params[] = {
	{ "gpus", TP_INT, "8", 1, 16, NULL, "PCIe GPUs behind PCIe switches" },
	{ "gpu", TP_GPU, "l40s", 0, 0, NULL, "GPU model" },
	{ "nics", TP_INT, "2", 1, 2, NULL, "NICs" },
	{ "nic", TP_NIC, "connectx-6dx-200g", 0, 0, NULL, "NIC model" },
	{ "leaf", TP_SWITCH, "sn3700", 0, 0, NULL, "the switch the box is wired to" },
	{ "sockets", TP_INT, "1", 1, 2, NULL,
	  "CPU sockets; with 2, each socket has its own PCIe switch and half the GPUs, and rings cross the socket link" },
	{ "cpu", TP_CHOICE, "intel", 0, 0, cpu_vendor_names, "CPU (the Intel generation sets the socket link NCCL counts)" },
};

static bool build_pciebox(struct editor *ed, const struct tvalues *v, char *err, size_t errsz)
{
	struct server_spec s = { "box", NULL, v->v[PB_GPU], "pcie-switch-gen4", NULL, v->v[PB_NIC], 1, (int)ival(v, PB_GPUS),
				 CPU_INTEL, (int)ival(v, PB_NICS), 0, 0 };
	struct job_spec j = { "7B fine-tune", 7, 0.66, 32, 4096, 4096, 64, 1, 1, 8, 2, false };
	int i;
	for (i = 0; cpu_vendor_names[i]; i++)
		if (strcmp(cpu_vendor_names[i], v->v[PB_CPU]) == 0)
			s.cpu = i;
	s.sockets = (int)ival(v, PB_SOCKETS);
	return set(ed, "name", "pcie-box") && add_servers(ed, &s, err, errsz) &&
	       add_switches(ed, "leaf", ROLE_LEAF, 1, v->v[PB_LEAF], err, errsz) &&
	       add_bundle(ed, "box", "leaf", s.nics, WIRE_TOR, err, errsz) && set_job(ed, &j, err, errsz);
}

#define T(name, help, params, fn) { name, help, params, sizeof params / sizeof params[0], fn }

const struct template templates[] = {
	T("single-node", "one server: GPUs, scale-up fabric, NICs", single_params, build_single),
	T("leaf-spine", "a two-tier Clos; uplinks derived from the target oversubscription", leafspine_params,
	  build_leafspine),
	T("fat-tree", "a three-tier k-ary fat tree (edge, aggregation, core) of k-port switches", fattree_params,
	  build_fattree),
	T("superpod", "DGX SuperPOD-style rail-optimised fabric in scalable units", superpod_params, build_superpod),
	T("nvl72", "GB200 NVL72 racks with a rail-optimised scale-out fabric", nvl72_params, build_nvl72),
	T("rail-only", "one switch per rail, no spine: cross-rail traffic goes over NVLink (PXN)", railonly_params,
	  build_railonly),
	T("reference-case", "the built-in default design: 4 x 8 A100, 4 x 100G RoCE each, one ToR (or in racks)",
	  reference_params, build_reference),
	T("pcie-box", "8 PCIe GPUs behind PCIe switches with one or two NICs", pciebox_params, build_pciebox),
};
const size_t ntemplates = sizeof templates / sizeof templates[0];

/* ---- parameters --------------------------------------------------------------------- */

const struct template *template_find(const char *name)
{
	size_t i;
	for (i = 0; i < ntemplates; i++)
		if (strcmp(templates[i].name, name) == 0)
			return &templates[i];
	return NULL;
}

void template_defaults(const struct template *t, struct tvalues *v)
{
	size_t i;
	memset(v, 0, sizeof *v);
	for (i = 0; i < t->nparams; i++)
		snprintf(v->v[i], sizeof v->v[i], "%s", t->params[i].def);
}

const char *tparam_range(const struct tparam *p, char *buf, size_t size)
{
	size_t used = 0;
	int i, n = 0;
	switch (p->kind) {
	case TP_INT:
		snprintf(buf, size, "a whole number from %.0f to %.0f", p->min, p->max);
		break;
	case TP_NUM:
		snprintf(buf, size, "a number from %g to %g", p->min, p->max);
		break;
	case TP_CHOICE:
		while (p->choices[n])
			n++;
		buf[0] = '\0';
		for (i = 0; i < n && used < size; i++) {
			int k = snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", p->choices[i]);
			if (k > 0)
				used += (size_t)k;
		}
		break;
	default: {
		static const char *const what[] = { [TP_GPU] = "a GPU", [TP_NIC] = "a NIC", [TP_SWITCH] = "a switch",
						     [TP_SERVER] = "a server", [TP_FABRIC] = "a scale-up fabric" };
		snprintf(buf, size, "%s from the catalog", what[p->kind]);
	}
	}
	return buf;
}

static bool part_known(enum tparam_kind k, const struct catalog *cat, const char *name)
{
	switch (k) {
	case TP_GPU: return catalog_gpu(cat, name);
	case TP_NIC: return catalog_nic(cat, name);
	case TP_SWITCH: return catalog_switch(cat, name);
	case TP_SERVER: return catalog_server(cat, name);
	case TP_FABRIC: return catalog_fabric(cat, name);
	default: return true;
	}
}

bool template_set(const struct template *t, struct tvalues *v, const char *kv, const struct catalog *cat, char *err,
		  size_t errsz)
{
	const char *eq = strchr(kv, '=');
	char key[64], range[200];
	const char *val;
	size_t i, klen;
	const struct tparam *p = NULL;
	if (!eq || eq == kv)
		return fail(err, errsz, "template '%s': expected KEY=VALUE, got '%s'", t->name, kv);
	klen = (size_t)(eq - kv);
	if (klen >= sizeof key)
		klen = sizeof key - 1;
	memcpy(key, kv, klen);
	key[klen] = '\0';
	val = eq + 1;
	for (i = 0; i < t->nparams; i++)
		if (strcmp(t->params[i].name, key) == 0)
			p = &t->params[i];
	if (!p) {
		char names[400] = "";
		size_t used = 0;
		for (i = 0; i < t->nparams && used < sizeof names; i++) {
			int k = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", t->params[i].name);
			if (k > 0)
				used += (size_t)k;
		}
		return fail(err, errsz, "template '%s' has no parameter '%s' (it has: %s)", t->name, key,
			    t->nparams ? names : "none");
	}
	tparam_range(p, range, sizeof range);
	if (strlen(val) >= sizeof v->v[0])
		return fail(err, errsz, "template '%s', parameter '%s': value too long", t->name, key);
	if (p->kind == TP_INT || p->kind == TP_NUM) {
		/* The one number parser of model/num.h: 0x10, 1e1 and 007 are refused with the fix. */
		char why[160], canon[64];
		enum num_status st;
		long long iv = 0;
		double dv = 0;
		if (p->kind == TP_INT) {
			st = num_parse_int(val, &iv, why, sizeof why);
			dv = (double)iv;
		} else {
			st = num_parse_real(val, &dv, why, sizeof why);
		}
		if (st == NUM_BAD && !num_reason_generic(why))
			return fail(err, errsz, "template '%s', parameter '%s': expected %s, got '%s' (%s)", t->name, key, range,
				    val, why);
		if (st != NUM_OK || dv < p->min || dv > p->max)
			return fail(err, errsz, "template '%s', parameter '%s': expected %s, got '%s'", t->name, key, range, val);
		/* Kept in a canonical form, so the builders read back exactly this number. */
		if (p->kind == TP_INT)
			snprintf(canon, sizeof canon, "%lld", iv);
		else
			num_format(dv, canon, sizeof canon);
		snprintf(v->v[p - t->params], sizeof v->v[0], "%s", canon);
		return true;
	} else if (p->kind == TP_CHOICE) {
		for (i = 0; p->choices[i] && strcmp(p->choices[i], val); i++)
			;
		if (!p->choices[i])
			return fail(err, errsz, "template '%s', parameter '%s': expected %s, got '%s'", t->name, key, range, val);
	} else if (cat && !part_known(p->kind, cat, val)) {
		return fail(err, errsz, "template '%s', parameter '%s': expected %s, got '%s'", t->name, key, range, val);
	}
	snprintf(v->v[p - t->params], sizeof v->v[0], "%s", val);
	return true;
}

bool template_build(const struct template *t, const struct tvalues *v, const struct catalog *shipped,
		    struct design *d, char *err, size_t errsz)
{
	struct editor ed;
	char msg[400];
	bool ok;
	ed_init(&ed, d, shipped);
	msg[0] = '\0';
	ok = t->build(&ed, v, msg, sizeof msg);
	ed_free(&ed);
	if (!ok) {
		snprintf(err, errsz, "template '%s': %s", t->name, msg[0] ? msg : ed.msg);
		design_free(d);
		design_init(d);
		return false;
	}
	return true;
}
