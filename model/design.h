/* design.h: a cluster design: groups and bundles, not individual GPUs.
 *
 * A design is small even when the cluster is huge: "4096 x DGX H100" is one server group.
 * It holds
 *   - server groups: count x server, GPUs per server, scale-up fabric, NIC entries (model,
 *     count, speed, PCIe attachment); GPUs are spread evenly over a group's NICs in order,
 *     so NIC i serves GPUs i*g/k .. (i+1)*g/k-1 (g GPUs, k NICs);
 *   - NVLink domains larger than a server (GB200 NVL72: 18 trays x 4 GPUs, 9 switch trays);
 *   - switch groups by role (leaf, spine, core);
 *   - bundles: links from every member of one group to the members of a higher-tier group,
 *     wired rail-optimised, top-of-rack or spread;
 *   - fabric options, the training job, canvas positions and notes, catalog overrides.
 *
 * Ownership: the design owns everything in it; design_free releases it all. Groups are
 * referred to by name in files and by integer id in the program (ids survive edits and
 * undo; pointers into the arrays do not). Change a design only through cmd.h. */
#ifndef NCF_DESIGN_H
#define NCF_DESIGN_H
#include <stdbool.h>
#include "model/catalog.h"
#include "model/diag.h"

#define NCF_VERSION 1

enum nic_attach { ATTACH_PCIE_SWITCH, ATTACH_CPU };
enum nic_use { NIC_COMPUTE, NIC_STORAGE };
enum switch_role { ROLE_LEAF, ROLE_SPINE, ROLE_CORE };
enum wiring { WIRE_SPREAD, WIRE_RAIL, WIRE_TOR, WIRE_MESH };
enum job_placement { PLACE_CONTIGUOUS, PLACE_RANDOM };
enum routing { ROUTE_ECMP, ROUTE_ADAPTIVE, ROUTE_SPRAY };
enum dtype { DT_BF16, DT_FP16, DT_FP8, DT_FP32 };
enum algo { ALGO_AUTO, ALGO_RING, ALGO_TREE, ALGO_NVLS, ALGO_NVLSTREE, ALGO_COLLNET };
/* NCCL_PROTO for the job: auto (NCCL's own choice) or one protocol (nccl.h enum nproto + 1). */
enum proto_force { PROTO_AUTO, PROTO_LL, PROTO_LL128, PROTO_SIMPLE };
/* The default of each comes first (a file that omits the key gets it, and it is not written). */
enum recompute { RECOMPUTE_SELECTIVE, RECOMPUTE_NONE, RECOMPUTE_FULL };
enum dp_buckets { BUCKETS_MEGATRON, BUCKETS_DDP };
enum group_kind { GK_NONE, GK_SERVER, GK_DOMAIN, GK_SWITCH, GK_NOTE /* a canvas note (placement only) */ };
enum rack_place { RP_AUTO, RP_TOP, RP_MIDDLE, RP_END };

struct nic_spec {
	char model[NCF_NAME_MAX];
	int count;        /* NICs of this model per server */
	int speed_gbps;   /* 0: the catalog's speed */
	int pcie_gen, pcie_lanes; /* 0: the catalog's */
	int attach;       /* enum nic_attach */
	int use;          /* enum nic_use */
	char transport[NCF_NAME_MAX]; /* catalog transport; empty: the NIC's */
};

struct server_group {
	int id;
	char name[NCF_NAME_MAX];
	int count;
	char model[NCF_NAME_MAX];   /* catalog server, optional: power and rack units */
	char gpu[NCF_NAME_MAX];
	int gpus;                   /* per server */
	char scaleup[NCF_NAME_MAX]; /* catalog fabric */
	char domain[NCF_NAME_MAX];  /* NVLink domain group joining these servers, optional */
	int cpu;                    /* enum cpu_vendor */
	int sockets;                /* CPU sockets the GPUs and NICs are spread over evenly; 0: one */
	struct vec nics;            /* struct nic_spec */
};

struct domain_group {
	int id;
	char name[NCF_NAME_MAX];
	int count;          /* domains (racks) */
	int servers_each;   /* servers (compute trays) per domain */
	int switch_trays;   /* NVLink switch trays per domain */
	char tray[NCF_NAME_MAX]; /* catalog fabric of kind nvswitch-tray */
};

struct switch_group {
	int id;
	char name[NCF_NAME_MAX];
	int role;           /* enum switch_role */
	int count;
	char model[NCF_NAME_MAX];
	int breakout;       /* each port split into this many slower ports */
};

struct bundle {
	int id;
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	int links_each;     /* links from each member of `from` */
	int speed_gbps;     /* 0: the slower of the two ends */
	int wiring;         /* enum wiring */
	bool lag;           /* the links of one member to one switch form a LAG */
	int media;          /* enum media; auto picks by tier (see inventory.h) */
	char cable[NCF_NAME_MAX]; /* catalog cable, optional */
};

struct fabric_opts {
	int routing;        /* enum routing */
	bool sharp, pxn, cross_nic;
	int qps_per_connection; /* NCCL_IB_QPS_PER_CONNECTION; 0: NCCL's default, 1 */
};

struct job {
	char name[64];
	int gpus;           /* 0: every GPU of the design */
	double params_b;    /* model parameters, billions */
	int layers, hidden, seq_len;
	int global_batch;   /* sequences per step */
	int dtype;
	int dp, tp, pp, ep; /* dp 0: gpus / (tp x pp x cp) */
	int cp;             /* context-parallel degree (the sequence split over cp GPUs) */
	bool sequence_parallel; /* Megatron's --sequence-parallel: TP shards the sequence outside attention */
	int heads, kv_heads;    /* attention heads (0: hidden / 128), key/value heads (0: heads) */
	double expert_params_b; /* of params_b, the experts' (MoE), billions; split over ep */
	double active_params_b; /* parameters a token's compute passes through (MoE); 0: params_b */
	int zero;           /* ZeRO stage 0-3 */
	int micro_batches;
	int micro_batch_size; /* Megatron's --micro-batch-size: sequences per micro-batch; 0: from micro_batches */
	int vp;             /* virtual pipeline stages per GPU (interleaved 1F1B); 0 or 1: plain 1F1B */
	int recompute;      /* enum recompute: activation recomputation */
	int dp_buckets;     /* enum dp_buckets: the framework's gradient buckets */
	double bucket_mb;   /* bucket size, MiB; 0: the framework's default */
	double compute_ms;  /* compute time of one step; 0: from FLOPs, TFLOPS and MFU */
	double mfu;
	double overlap;     /* the most of the compute communication may run behind, 0..1 (workload.h) */
	int algo;           /* enum algo: auto, or forced as NCCL_ALGO does */
	int proto;          /* enum proto_force: auto, or forced as NCCL_PROTO does */
	char groups[256];   /* server groups the job runs on, in rank order (comma-separated); empty: all, design order */
	int placement;      /* enum job_placement: ranks on consecutive nodes, or scattered at random */
};

struct position {
	char block[NCF_NAME_MAX];
	int x, y;
};

struct note {
	char text[200];
	int x, y;
};

struct canvas {
	struct vec positions, notes;
};

/* The physical layout's knobs (floor.h computes the layout). Every zero means "derived or
 * the default" (ncfabric.5 gives the defaults), so a design without this section gets a
 * layout from its parts. */
struct physical {
	int rack_units;          /* usable U per rack; 0: 42 */
	double rack_power_kW;    /* power budget per rack for servers and switches; 0: 40 */
	int servers_per_rack;    /* 0: from the budget and the rack units */
	int racks_per_row;       /* server racks per row; 0: one scalable unit per row */
	int leaf, spine, core;   /* enum rack_place: where the switches of that tier stand */
	double rack_width_m, row_pitch_m; /* 0: 0.6 m, 2.4 m (row to row, with the aisle) */
	double riser_m, slack_m; /* per end up to the cable tray, per cable; 0: 0.5 m, 0.5 m */
};

struct design {
	int version;
	char name[64];
	char description[256];
	struct catalog catalog;     /* overrides and additions to the shipped catalog */
	struct vec servers, domains, switches, bundles;
	struct fabric_opts fabric;
	struct job job;
	struct canvas canvas;
	struct physical physical;
	int next_id;                /* not saved */
};

extern const struct schema design_schema, server_group_schema, nic_spec_schema, domain_group_schema,
	switch_group_schema, bundle_schema, fabric_opts_schema, job_schema, canvas_schema, physical_schema;
extern const char *const nic_attach_names[], *const nic_use_names[], *const switch_role_names[],
	*const wiring_names[], *const placement_names[], *const routing_names[], *const dtype_names[], *const algo_names[], *const proto_force_names[],
	*const recompute_names[], *const dp_buckets_names[], *const rack_place_names[];

void design_init(struct design *d);
void design_free(struct design *d);
void design_copy(struct design *dst, const struct design *src);
bool design_equal(const struct design *a, const struct design *b);
/* Give every group and bundle a fresh id (after a load). */
void design_assign_ids(struct design *d);

#define DESIGN_SERVER(d, i) (&VEC_AT((d)->servers, struct server_group, i))
#define DESIGN_DOMAIN(d, i) (&VEC_AT((d)->domains, struct domain_group, i))
#define DESIGN_SWITCH(d, i) (&VEC_AT((d)->switches, struct switch_group, i))
#define DESIGN_BUNDLE(d, i) (&VEC_AT((d)->bundles, struct bundle, i))

/* Which kind of group is called name, and its index; GK_NONE when none is. */
enum group_kind design_find(const struct design *d, const char *name, size_t *index);
/* True when no two groups (servers, domains, switches) share a name, as design_find's
 * index saw them: then a name and the group design_find gives for it are one and the same.
 * False for designs of a few groups (not indexed) and whenever it cannot tell. A rename
 * in place that makes a duplicate is seen when the index is next rebuilt; until then the
 * check still reports the duplicate (check_names compares every name itself). */
bool design_names_unique(const struct design *d);
/* Tier of a group: servers 0, leaf 1, spine 2, core 3; -1 for unknown names. */
int design_tier(const struct design *d, const char *name);
/* Members of a group (servers, switches, domains); 0 for unknown names. */
long design_group_count(const struct design *d, const char *name);
/* The next name of a comma-separated list (job.groups), blanks trimmed, into name (cut at
 * size); returns where the rest of the list starts, NULL after the last name. */
const char *design_list_next(const char *s, char *name, size_t size);

/* The shipped catalog with the design's overrides applied (caller frees with catalog_free). */
void design_catalog(const struct design *d, const struct catalog *shipped, struct catalog *out);
/* The same, taking the shipped catalog instead of copying it: shipped is left empty (a
 * command that needs it no more: report, export). */
void design_catalog_take(const struct design *d, struct catalog *shipped, struct catalog *out);

/* Every problem of the design against catalog cat: errors (the design cannot be used:
 * unknown parts, dangling bundles, ports beyond a switch's radix, ...) and warnings
 * (NIC faster than its slot, unconnected NICs, mismatched speeds, ...). Paths name the
 * field, e.g. "servers[0].gpu". Returns the number of errors. */
int design_check(const struct design *d, const struct catalog *cat, struct ncf_diag *diag);
/* Only the part names of d that cat lacks (a GPU, NIC, switch, cable... that is not in it),
 * each at its path: errors that stand whatever the design's other fields say, for a design
 * that could not be read whole (an unknown key) to show beside the errors of reading it. */
int design_check_parts(const struct design *d, const struct catalog *cat, struct ncf_diag *diag);
/* design_check with the ports per switch already counted (switch_ports_all of d). */
int design_check_ports(const struct design *d, const struct catalog *cat, const long *down, const long *up,
		       struct ncf_diag *diag);
/* design_check that also gives the ports per switch it counted (switch_ports_all) in down
 * and up (d->switches.n each): the bundles' ends are resolved once for both. */
int design_check_count(const struct design *d, const struct catalog *cat, long *down, long *up, struct ncf_diag *diag);
/* The name nearest to name among the names that start v's elements (each size bytes), for
 * "did you mean"; NULL if none is near. */
const char *name_nearest(const struct vec *v, size_t size, const char *name);

/* Effective per-direction PCIe bandwidth of a link, GB/s (payload after line coding). */
double pcie_GBps(int gen, int lanes);



/* Derived per-part figures (catalog values unless the design overrides them). */
int nic_speed_gbps(const struct nic_spec *n, const struct cat_nic *c);
double nic_slot_GBps(const struct nic_spec *n, const struct cat_nic *c);
/* Compute-fabric NIC ports of one server of g (NICs x ports). */
int server_compute_ports(const struct server_group *g, const struct catalog *cat);
/* Speed of the links of bundle b: its own, or the slower of its two ends. 0 if unknown. */
int bundle_speed_gbps(const struct design *d, const struct catalog *cat, const struct bundle *b);
/* What a bundle joins: servers or switches to a higher tier (up), switches to switches of
 * their own tier (peer: every member to every member of the other end), servers to servers
 * (mesh: direct links, every pair). */
enum bundle_kind { BK_UP, BK_PEER, BK_MESH };
int bundle_kind(const struct design *d, const struct bundle *b);
/* Links of a bundle in all; ports it takes on each member of its `from` (or `to`) end. */
long bundle_links(const struct design *d, const struct bundle *b);
long bundle_ports_each(const struct design *d, const struct bundle *b, bool from_side);
/* Ports per switch of group sw used by bundles going down and up (peer links count up). */
void switch_ports_used(const struct design *d, const struct switch_group *sw, long *down, long *up);
/* switch_ports_used for every switch group at once, in one pass over the bundles:
 * down[i] and up[i] for d->switches[i] (arrays of d->switches.n). */
void switch_ports_all(const struct design *d, long *down, long *up);
/* Port speed of one (possibly broken-out) port of switch group sw, Gb/s. */
int switch_port_gbps(const struct switch_group *sw, const struct cat_switch *c);

#endif
