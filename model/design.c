#include "model/design.h"
#include "model/alloc.h"
#include "model/strmap.h"
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char *const nic_attach_names[] = { "pcie-switch", "cpu", NULL };
const char *const nic_use_names[] = { "compute", "storage", NULL };
const char *const switch_role_names[] = { "leaf", "spine", "core", NULL };
const char *const wiring_names[] = { "spread", "rail", "tor", "mesh", NULL };
const char *const placement_names[] = { "contiguous", "random", NULL };
static const char *const wiring_help[] = {
	"spread: each member's links spread evenly over all switches of the group",
	"rail: NIC i of every server goes to leaf i of its unit (rail-optimised: rings stay on a rail)",
	"tor: all links of a server go to one leaf (top of rack)",
	"mesh: servers linked to servers directly (links_each between each pair of members)", NULL };
static const char *const routing_help[] = {
	"ecmp: each flow is hashed onto one of the equal paths (static; flows can collide)",
	"adaptive: the switches move flows to the least loaded path",
	"spray: each packet takes any path (packet spraying; needs NICs that reorder)", NULL };
static const char *const algo_help[] = {
	"auto: NCCL chooses from its own model (it does not see the switches)",
	"ring: NCCL_ALGO=Ring", "tree: NCCL_ALGO=Tree (double binary tree across nodes)",
	"nvls: NCCL_ALGO=NVLS (reduce in the NVSwitch; Hopper and later)", "nvlstree: NCCL_ALGO=NVLSTree (NVLS in the node, a tree between)",
	"collnet: NCCL_ALGO=CollNet (SHARP in the InfiniBand switches)", NULL };
static const char *const attach_help[] = {
	"pcie-switch: behind a PCIe switch its GPUs share (GPUDirect RDMA)", "cpu: on the CPU's PCIe (no GPUDirect RDMA)", NULL };
const char *const routing_names[] = { "ecmp", "adaptive", "spray", NULL };
const char *const dtype_names[] = { "bf16", "fp16", "fp8", "fp32", NULL };
const char *const algo_names[] = { "auto", "ring", "tree", "nvls", "nvlstree", "collnet", NULL };
static const char *const proto_help[] = {
	"auto: NCCL chooses the protocol from its own model", "ll: NCCL_PROTO=LL (8-byte flag words: lowest latency, half the bandwidth)",
	"ll128: NCCL_PROTO=LL128 (128-byte lines with a flag: NVLink-class paths)", "simple: NCCL_PROTO=Simple (bulk copies with fences: the most bandwidth)", NULL };
const char *const proto_force_names[] = { "auto", "ll", "ll128", "simple", NULL };
const char *const recompute_names[] = { "selective", "none", "full", NULL };
const char *const dp_buckets_names[] = { "megatron", "ddp", NULL };
static const char *const recompute_help[] = {
	"selective: attention recomputed (or fused attention): 34 s b h / t bytes of activations a layer",
	"none: every activation kept, the attention scores too",
	"full: only each layer's input kept; the forward runs again in backward (a third more compute)", NULL };
static const char *const dp_buckets_help[] = {
	"megatron: buckets of max(40M, 1M x dp) parameters when overlap is on, one bucket when it is off",
	"ddp: PyTorch DDP's 1 MiB first bucket, then 25 MiB", NULL };
const char *const rack_place_names[] = { "auto", "top", "middle", "end", NULL };

#define MAXCOUNT 1000000

static const struct field nic_fields[] = {
	F_STR(struct nic_spec, model, "model", FF_REQUIRED, "NIC (catalog name)"),
	F_INT(struct nic_spec, count, "count", 0, 64, FF_REQUIRED, "NICs per server"),
	F_INT(struct nic_spec, speed_gbps, "speed_gbps", 0, 100000, FF_OPTIONAL, "port speed, Gb/s (0: catalog)"),
	F_INT(struct nic_spec, pcie_gen, "pcie_gen", 0, 7, FF_OPTIONAL, "PCIe generation of the slot (0: catalog)"),
	F_INT(struct nic_spec, pcie_lanes, "pcie_lanes", 0, 64, FF_OPTIONAL, "PCIe lanes of the slot (0: catalog)"),
	F_ENUM_H(struct nic_spec, attach, "attach", nic_attach_names, attach_help, 0, "behind a PCIe switch shared with its GPUs, or on the CPU"),
	F_ENUM(struct nic_spec, use, "use", nic_use_names, 0, "compute fabric or storage"),
	F_STR(struct nic_spec, transport, "transport", FF_OPTIONAL,
	      "transport NCCL uses over it (catalog name: ib, roce, efa, tcpx, sockets...); empty: the NIC's"),
};

static const struct field server_fields[] = {
	F_STR(struct server_group, name, "name", FF_REQUIRED, "unique name of the group"),
	F_INT(struct server_group, count, "count", 0, MAXCOUNT, FF_REQUIRED, "servers in the group"),
	F_STR(struct server_group, model, "model", FF_OPTIONAL, "server (catalog name): power and rack units"),
	F_STR(struct server_group, gpu, "gpu", FF_REQUIRED, "GPU (catalog name)"),
	F_INT(struct server_group, gpus, "gpus", 1, 1024, FF_REQUIRED, "GPUs per server"),
	F_STR(struct server_group, scaleup, "scaleup", FF_REQUIRED, "scale-up fabric (catalog name)"),
	F_STR(struct server_group, domain, "domain", FF_OPTIONAL, "NVLink domain group these servers join"),
	F_ENUM(struct server_group, cpu, "cpu", cpu_vendor_names, 0, "CPU vendor (and Intel generation)"),
	F_INT(struct server_group, sockets, "sockets", 0, 8, FF_OPTIONAL,
	      "CPU sockets; GPUs and NICs are spread over them evenly (0: one)"),
	F_LIST(struct server_group, nics, "nics", &nic_spec_schema, FF_OPTIONAL, "NICs per server"),
};

static const struct field domain_fields[] = {
	F_STR(struct domain_group, name, "name", FF_REQUIRED, "unique name of the group"),
	F_INT(struct domain_group, count, "count", 0, MAXCOUNT, FF_REQUIRED, "NVLink domains (racks)"),
	F_INT(struct domain_group, servers_each, "servers_each", 1, 4096, FF_REQUIRED, "servers (compute trays) per domain"),
	F_INT(struct domain_group, switch_trays, "switch_trays", 0, 4096, FF_REQUIRED, "NVLink switch trays per domain"),
	F_STR(struct domain_group, tray, "tray", FF_REQUIRED, "switch tray (catalog fabric)"),
};

static const struct field switch_fields[] = {
	F_STR(struct switch_group, name, "name", FF_REQUIRED, "unique name of the group"),
	F_ENUM(struct switch_group, role, "role", switch_role_names, FF_REQUIRED, "tier"),
	F_INT(struct switch_group, count, "count", 0, MAXCOUNT, FF_REQUIRED, "switches in the group"),
	F_STR(struct switch_group, model, "model", FF_REQUIRED, "switch (catalog name)"),
	F_INT(struct switch_group, breakout, "breakout", 1, 8, 0, "each port split into this many slower ports"),
};

static const struct field bundle_fields[] = {
	F_STR(struct bundle, from, "from", FF_REQUIRED, "lower-tier group"),
	F_STR(struct bundle, to, "to", FF_REQUIRED, "higher-tier group"),
	F_INT(struct bundle, links_each, "links_each", 1, 4096, FF_REQUIRED, "links from each member of from"),
	F_INT(struct bundle, speed_gbps, "speed_gbps", 0, 100000, FF_OPTIONAL, "link speed, Gb/s (0: slower end)"),
	F_ENUM_H(struct bundle, wiring, "wiring", wiring_names, wiring_help, 0, "rail, tor, spread, or mesh (server to server)"),
	F_BOOL(struct bundle, lag, "lag", FF_OPTIONAL, "links of a member to one switch form a LAG"),
	F_ENUM(struct bundle, media, "media", media_names, 0, "auto, dac, acc, aoc or transceiver"),
	F_STR(struct bundle, cable, "cable", FF_OPTIONAL, "cable (catalog name)"),
};

static const struct field fabric_fields[] = {
	F_ENUM_H(struct fabric_opts, routing, "routing", routing_names, routing_help, 0, "ecmp, adaptive or spray"),
	F_BOOL(struct fabric_opts, sharp, "sharp", 0, "in-network reduction (SHARP) enabled"),
	F_BOOL(struct fabric_opts, pxn, "pxn", 0, "PXN: send through a peer GPU's NIC"),
	F_BOOL(struct fabric_opts, cross_nic, "cross_nic", 0, "rings may enter and leave on different NICs"),
	F_INT(struct fabric_opts, qps_per_connection, "qps_per_connection", 0, 128, FF_OPTIONAL,
	      "queue pairs per NCCL connection (NCCL_IB_QPS_PER_CONNECTION; 0: NCCL's default, 1)"),
};

static const struct field job_fields[] = {
	F_STR(struct job, name, "name", FF_OPTIONAL, "what is trained"),
	F_INT(struct job, gpus, "gpus", 0, 100000000, 0, "GPUs taking part (0: all)"),
	F_NUM(struct job, params_b, "params_b", 0, 1e6, 0, "model parameters, billions"),
	F_INT(struct job, layers, "layers", 0, 100000, 0, "transformer layers"),
	F_INT(struct job, hidden, "hidden", 0, 10000000, 0, "hidden size"),
	F_INT(struct job, seq_len, "seq_len", 0, 100000000, 0, "sequence length, tokens"),
	F_INT(struct job, global_batch, "global_batch", 0, 100000000, 0, "sequences per step"),
	F_ENUM(struct job, dtype, "dtype", dtype_names, 0, "data type of gradients and activations"),
	F_INT(struct job, dp, "dp", 0, 100000000, 0, "data-parallel degree (0: derived)"),
	F_INT(struct job, tp, "tp", 1, 1024, 0, "tensor-parallel degree"),
	F_INT(struct job, pp, "pp", 1, 1024, 0, "pipeline-parallel degree"),
	F_INT(struct job, ep, "ep", 1, 1024, 0, "expert-parallel degree"),
	F_INT(struct job, cp, "cp", 1, 1024, 0, "context-parallel degree"),
	F_BOOL(struct job, sequence_parallel, "sequence_parallel", FF_OPTIONAL,
	       "TP shards the sequence outside attention (Megatron's --sequence-parallel)"),
	F_INT(struct job, heads, "heads", 0, 100000, FF_OPTIONAL, "attention heads (0: hidden / 128)"),
	F_INT(struct job, kv_heads, "kv_heads", 0, 100000, FF_OPTIONAL, "key/value heads, GQA (0: heads)"),
	F_NUM(struct job, expert_params_b, "expert_params_b", 0, 1e6, FF_OPTIONAL,
	      "parameters in the MoE experts (of params_b), billions"),
	F_NUM(struct job, active_params_b, "active_params_b", 0, 1e6, FF_OPTIONAL,
	      "parameters one token's compute passes through (MoE), billions (0: params_b)"),
	F_INT(struct job, zero, "zero", 0, 3, 0, "ZeRO stage"),
	F_INT(struct job, micro_batches, "micro_batches", 1, 100000, 0, "micro-batches per step"),
	F_INT(struct job, micro_batch_size, "micro_batch_size", 0, 100000, FF_OPTIONAL,
	      "sequences per micro-batch (Megatron's --micro-batch-size); set, it fixes the micro-batches per step to "
	      "global_batch / (DP x it) at any GPU count (0: micro_batches is fixed instead)"),
	F_INT(struct job, vp, "vp", 0, 1024, FF_OPTIONAL,
	      "virtual pipeline stages per GPU (interleaved 1F1B, --num-layers-per-virtual-pipeline-stage): the bubble "
	      "shrinks to (pp-1)/(micro_batches x vp), each micro-batch crosses vp x as many stage boundaries (0, 1: off)"),
	F_ENUM_H(struct job, recompute, "recompute", recompute_names, recompute_help, FF_OPTIONAL,
	       "activation recomputation: selective, none or full"),
	F_ENUM_H(struct job, dp_buckets, "dp_buckets", dp_buckets_names, dp_buckets_help, FF_OPTIONAL,
	       "gradient buckets: megatron or ddp (PyTorch DDP)"),
	F_NUM(struct job, bucket_mb, "bucket_mb", 0, 1e6, FF_OPTIONAL, "gradient bucket size, MiB (0: the framework's)"),
	F_NUM(struct job, compute_ms, "compute_ms", 0, 1e9, 0, "compute time per step, ms (0: derived)"),
	F_NUM(struct job, mfu, "mfu", 0, 1, 0, "model FLOPs utilisation, 0..1"),
	F_NUM(struct job, overlap, "overlap", 0, 1, 0,
	      "the most of the compute time DP communication may run behind (0: none)"),
	F_ENUM_H(struct job, proto, "proto", proto_force_names, proto_help, FF_OPTIONAL, "NCCL protocol: auto or forced (NCCL_PROTO)"),
	F_ENUM_H(struct job, algo, "algo", algo_names, algo_help, 0, "NCCL algorithm: auto or forced"),
	F_STR(struct job, groups, "groups", FF_OPTIONAL,
	      "server groups the job runs on, in rank order, comma-separated (empty: all, in design order)"),
	F_ENUM(struct job, placement, "placement", placement_names, FF_OPTIONAL,
	       "ranks on consecutive nodes (contiguous), or scattered (random)"),
};

static const struct field position_fields[] = {
	F_STR(struct position, block, "block", FF_REQUIRED, "group name"),
	F_INT(struct position, x, "x", 0, 100000, FF_REQUIRED, "column"),
	F_INT(struct position, y, "y", 0, 100000, FF_REQUIRED, "row"),
};

static const struct field note_fields[] = {
	F_STR(struct note, text, "text", FF_REQUIRED, "text of the note"),
	F_INT(struct note, x, "x", 0, 100000, FF_REQUIRED, "column"),
	F_INT(struct note, y, "y", 0, 100000, FF_REQUIRED, "row"),
};

static void server_defaults(void *obj) { (void)obj; }
static void switch_defaults(void *obj) { ((struct switch_group *)obj)->breakout = 1; }
static void bundle_defaults(void *obj) { ((struct bundle *)obj)->wiring = WIRE_SPREAD; }
static void fabric_defaults(void *obj)
{
	struct fabric_opts *f = obj;
	f->routing = ROUTE_ECMP;
	f->pxn = true;
	f->cross_nic = true;
}
static void job_defaults(void *obj)
{
	struct job *j = obj;
	j->tp = j->pp = j->ep = j->cp = 1;
	j->micro_batches = 1;
	j->mfu = 0.4;
}

static const struct schema position_schema = SCHEMA("position", struct position, position_fields, NULL);
static const struct schema note_schema = SCHEMA("note", struct note, note_fields, NULL);
const struct schema nic_spec_schema = SCHEMA("NIC entry", struct nic_spec, nic_fields, NULL);
const struct schema server_group_schema = SCHEMA("server group", struct server_group, server_fields, server_defaults);
const struct schema domain_group_schema = SCHEMA("NVLink domain group", struct domain_group, domain_fields, NULL);
const struct schema switch_group_schema = SCHEMA("switch group", struct switch_group, switch_fields, switch_defaults);
const struct schema bundle_schema = SCHEMA("bundle", struct bundle, bundle_fields, bundle_defaults);
const struct schema fabric_opts_schema = SCHEMA("fabric", struct fabric_opts, fabric_fields, fabric_defaults);
const struct schema job_schema = SCHEMA("job", struct job, job_fields, job_defaults);

static const struct field canvas_fields[] = {
	F_LIST(struct canvas, positions, "positions", &position_schema, FF_OPTIONAL, "blocks placed by hand"),
	F_LIST(struct canvas, notes, "notes", &note_schema, FF_OPTIONAL, "notes pinned on the canvas"),
};
const struct schema canvas_schema = SCHEMA("canvas", struct canvas, canvas_fields, NULL);

static const struct field physical_fields[] = {
	F_INT(struct physical, rack_units, "rack_units", 0, 60, FF_OPTIONAL, "usable rack units per rack (0: 42)"),
	F_NUM(struct physical, rack_power_kW, "rack_power_kW", 0, 1000, FF_OPTIONAL, "power budget per rack, kW (0: 40)"),
	F_INT(struct physical, servers_per_rack, "servers_per_rack", 0, 1024, FF_OPTIONAL, "servers per rack (0: from the budget)"),
	F_INT(struct physical, racks_per_row, "racks_per_row", 0, 1000, FF_OPTIONAL, "server racks per row (0: one unit per row)"),
	F_ENUM(struct physical, leaf, "leaf", rack_place_names, FF_OPTIONAL, "leaves: top of rack, middle or end of row"),
	F_ENUM(struct physical, spine, "spine", rack_place_names, FF_OPTIONAL, "spines: middle or end of the middle row"),
	F_ENUM(struct physical, core, "core", rack_place_names, FF_OPTIONAL, "core switches: middle or end of the middle row"),
	F_NUM(struct physical, rack_width_m, "rack_width_m", 0, 10, FF_OPTIONAL, "rack pitch along a row, m (0: 0.6)"),
	F_NUM(struct physical, row_pitch_m, "row_pitch_m", 0, 100, FF_OPTIONAL, "row to row, aisle included, m (0: 2.4)"),
	F_NUM(struct physical, riser_m, "riser_m", 0, 10, FF_OPTIONAL, "top of a rack to the cable tray, m (0: 0.5)"),
	F_NUM(struct physical, slack_m, "slack_m", 0, 10, FF_OPTIONAL, "slack per cable, m (0: 0.5)"),
};
const struct schema physical_schema = SCHEMA("physical layout", struct physical, physical_fields, NULL);

static void design_defaults(void *obj)
{
	struct design *d = obj;
	d->version = NCF_VERSION;
	fabric_defaults(&d->fabric);
	job_defaults(&d->job);
	d->next_id = 1;
}

static const struct field design_fields[] = {
	F_INT(struct design, version, "ncfabric", 1, 1, FF_REQUIRED, "format version"),
	F_STR(struct design, name, "name", FF_REQUIRED, "name of the design"),
	F_STR(struct design, description, "description", FF_OPTIONAL, "one line about it"),
	F_STRUCT(struct design, catalog, "catalog", &catalog_schema, FF_OPTIONAL, "catalog additions and overrides"),
	F_LIST(struct design, servers, "servers", &server_group_schema, FF_OPTIONAL, "server groups"),
	F_LIST(struct design, domains, "domains", &domain_group_schema, FF_OPTIONAL, "NVLink domains larger than a server"),
	F_LIST(struct design, switches, "switches", &switch_group_schema, FF_OPTIONAL, "switch groups"),
	F_LIST(struct design, bundles, "bundles", &bundle_schema, FF_OPTIONAL, "links between groups"),
	F_STRUCT(struct design, fabric, "fabric", &fabric_opts_schema, 0, "fabric options"),
	F_STRUCT(struct design, job, "job", &job_schema, 0, "the training job"),
	F_STRUCT(struct design, physical, "physical", &physical_schema, FF_OPTIONAL, "racks, rows and where switches stand"),
	F_STRUCT(struct design, canvas, "canvas", &canvas_schema, FF_OPTIONAL, "canvas positions and notes"),
};
const struct schema design_schema = SCHEMA("design", struct design, design_fields, design_defaults);

void design_init(struct design *d)
{
	schema_init(&design_schema, d);
}

void design_free(struct design *d)
{
	schema_free(&design_schema, d);
	memset(d, 0, sizeof *d);
}

void design_copy(struct design *dst, const struct design *src)
{
	schema_copy(&design_schema, dst, src);
}

bool design_equal(const struct design *a, const struct design *b)
{
	return schema_equal(&design_schema, a, b);
}

void design_assign_ids(struct design *d)
{
	size_t i;
	d->next_id = 1;
	for (i = 0; i < d->servers.n; i++)
		DESIGN_SERVER(d, i)->id = d->next_id++;
	for (i = 0; i < d->domains.n; i++)
		DESIGN_DOMAIN(d, i)->id = d->next_id++;
	for (i = 0; i < d->switches.n; i++)
		DESIGN_SWITCH(d, i)->id = d->next_id++;
	for (i = 0; i < d->bundles.n; i++)
		DESIGN_BUNDLE(d, i)->id = d->next_id++;
}

static enum group_kind find_scan(const struct design *d, const char *name, size_t *index)
{
	size_t i;
	for (i = 0; i < d->servers.n; i++)
		if (strcmp(DESIGN_SERVER(d, i)->name, name) == 0)
			return *index = i, GK_SERVER;
	for (i = 0; i < d->domains.n; i++)
		if (strcmp(DESIGN_DOMAIN(d, i)->name, name) == 0)
			return *index = i, GK_DOMAIN;
	for (i = 0; i < d->switches.n; i++)
		if (strcmp(DESIGN_SWITCH(d, i)->name, name) == 0)
			return *index = i, GK_SWITCH;
	return GK_NONE;
}

/* Names are looked up through a hash index of the last design asked about, so checks
 * that look every bundle's ends up stay O(n) on a design of thousands of groups. The
 * index is rebuilt when the design or its arrays change. Its keys point into the arrays,
 * so a hit is the name the array holds now; an edit in place (a rename) can leave a name
 * where the index does not look for it, so a miss scans the arrays: a stale index costs
 * time, never a wrong answer. One index, for the single thread. */
struct name_entry {
	int kind;
	size_t idx;
};

static struct {
	const struct design *d;
	const void *v[3];
	size_t n[3];
	struct name_entry *e;
	size_t cap;
	struct strmap map;     /* name -> entry, the first group of each name */
	bool stale;
	bool dups;             /* two groups shared a name when it was built */
	/* The last names found, by where the caller keeps them: the check asks for the same
	 * bundle ends several times in a row. A hit is checked against the array. */
	struct {
		const char *name;
		int entry;
	} memo[4];
	unsigned next;
} ix;

static const char *name_at(const struct design *d, int kind, size_t i)
{
	return kind == GK_SERVER ? DESIGN_SERVER(d, i)->name
	       : kind == GK_DOMAIN ? DESIGN_DOMAIN(d, i)->name : DESIGN_SWITCH(d, i)->name;
}

static void index_build(const struct design *d)
{
	static const int kinds[3] = { GK_SERVER, GK_DOMAIN, GK_SWITCH };
	const struct vec *v[3] = { &d->servers, &d->domains, &d->switches };
	size_t k, i, n = d->servers.n + d->domains.n + d->switches.n, ne = 0;
	if (n > ix.cap) {
		ix.cap = n;
		ix.e = xrealloc(ix.e, n * sizeof *ix.e);
	}
	strmap_free(&ix.map);
	strmap_init(&ix.map, n);
	ix.dups = false;
	for (k = 0; k < 3; k++) {
		ix.v[k] = v[k]->v;
		ix.n[k] = v[k]->n;
		for (i = 0; i < v[k]->n; i++) {
			ix.e[ne] = (struct name_entry){ kinds[k], i };
			/* servers, domains, switches: the first counts */
			if (strmap_add(&ix.map, name_at(d, kinds[k], i), (int)ne) != (int)ne)
				ix.dups = true;
			ne++;
		}
	}
	ix.d = d;
	ix.stale = false;
	memset(ix.memo, 0, sizeof ix.memo);
}

static bool index_current(const struct design *d)
{
	return ix.d == d && !ix.stale && ix.v[0] == d->servers.v && ix.n[0] == d->servers.n && ix.v[1] == d->domains.v &&
	       ix.n[1] == d->domains.n && ix.v[2] == d->switches.v && ix.n[2] == d->switches.n;
}

bool design_names_unique(const struct design *d)
{
	if (d->servers.n + d->domains.n + d->switches.n < 16)
		return false; /* not indexed (design_find scans): the caller's general way is as quick */
	if (!index_current(d))
		index_build(d);
	return !ix.dups;
}

enum group_kind design_find(const struct design *d, const char *name, size_t *index)
{
	size_t n = d->servers.n + d->domains.n + d->switches.n, k;
	enum group_kind kind;
	int hit;
	if (n < 16) /* a design of a few groups: scanning is as quick */
		return find_scan(d, name, index);
	if (!index_current(d))
		index_build(d);
	for (k = 0; k < 4; k++)
		if (ix.memo[k].name == name) {
			const struct name_entry *e = &ix.e[ix.memo[k].entry];
			if (!strcmp(name_at(d, e->kind, e->idx), name)) {
				*index = e->idx;
				return (enum group_kind)e->kind;
			}
		}
	hit = strmap_get(&ix.map, name);
	if (hit >= 0) {
		ix.memo[ix.next % 4].name = name;
		ix.memo[ix.next++ % 4].entry = hit;
		*index = ix.e[hit].idx;
		return (enum group_kind)ix.e[hit].kind;
	}
	kind = find_scan(d, name, index);
	if (kind != GK_NONE)
		ix.stale = true; /* the index missed a name the arrays have: rebuilt next time */
	return kind;
}

int design_tier(const struct design *d, const char *name)
{
	size_t i;
	switch (design_find(d, name, &i)) {
	case GK_SERVER:
		return 0;
	case GK_SWITCH:
		return 1 + DESIGN_SWITCH(d, i)->role;
	default:
		return -1;
	}
}

const char *design_list_next(const char *s, char *name, size_t size)
{
	size_t len;
	const char *e;
	if (!s || !*s)
		return NULL;
	len = strcspn(s, ",");
	e = s + len;
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(name, s, len);
	name[len] = 0;
	return *e ? e + 1 : e;
}

long design_group_count(const struct design *d, const char *name)
{
	size_t i;
	switch (design_find(d, name, &i)) {
	case GK_SERVER:
		return DESIGN_SERVER(d, i)->count;
	case GK_DOMAIN:
		return DESIGN_DOMAIN(d, i)->count;
	case GK_SWITCH:
		return DESIGN_SWITCH(d, i)->count;
	default:
		return 0;
	}
}

void design_catalog(const struct design *d, const struct catalog *shipped, struct catalog *out)
{
	catalog_merge(out, shipped, &d->catalog);
}

void design_catalog_take(const struct design *d, struct catalog *shipped, struct catalog *out)
{
	*out = *shipped;
	schema_init(&catalog_schema, shipped);
	catalog_merge_in(out, &d->catalog);
}

double pcie_GBps(int gen, int lanes)
{
	/* Payload rate per lane and direction after line coding (hardware.md section 7). */
	static const double lane[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563, 15.125 };
	if (gen < 1 || gen > 7 || lanes < 1)
		return 0;
	return lane[gen] * lanes;
}
