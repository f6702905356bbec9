/* topo.h: the design as the graph of groups the fabric routes over.
 *
 * Vertices are node groups and switch groups; edges are bundles. A node group is a server
 * group, or the servers of an NVLink domain group (GB200 NVL72: 18 compute trays make one
 * node): the unit inside which traffic stays on NVLink, the node as NCCL sees it. Nothing
 * here is per GPU or per link: a group of 16,384 servers costs what a group of 4 does.
 *
 * Wiring (ncfabric(5) "WIRING"). A bundle takes `links_each` = L ports of every member of
 * its lower group, in the order the group's bundles are written. Members of all the groups
 * bundled into a switch group Y are numbered in the order of those bundles: member j of the
 * k-th group is position p = (members of the groups before it) + j; D is the total.
 *   tor     all L links of position p go to switch floor(p / per), per = ceil(D / |Y|)
 *   rail    link l of position p goes to switch u*L + l, u = floor(p / us) its unit,
 *           us = ceil(D / (|Y| / L)) (with L > |Y|: link l to switch l mod |Y|)
 *   spread  link l of position p goes to switch (p*L + l) mod |Y|
 *   mesh    between server groups: every member of the lower group is linked to every member
 *           of the upper group (to every other member when both are one group), L per pair
 * Switch-to-switch bundles follow the same rules with switches as members. A bundle between
 * switch groups of the same tier (or from a group to itself) is a peer bundle: every member
 * linked to every member of the other end, L links per pair.
 *
 * Levels. For each node group and each of its bundles to a switch group (a plane: a set of
 * its ports) the chain of switch groups above gives levels 1, 2, ...: at level t the ports
 * split into components, the sets joined by switches of levels <= t. A component is a
 * block of consecutive positions of the leaf group (`size` positions, shifted by `shift`,
 * optionally taken modulo `modulus` for interleaved wiring, numbered from `base`) times a
 * group of `rails` of the plane's ports. Component numbers are those of the level's switch
 * group (every group bundled into it numbers its components alike), so a component is
 * named by (switch group, order, number) across node groups. Two ports exchange traffic
 * over the uplinks of every level below the first at which their components coincide
 * (up-down routing in a Clos): at level t that is the component's `switches` x `uplinks`
 * links of `link_GBps`. Peer bundles (switch groups of one tier, or a group to itself)
 * join every switch group they link, directly or through others, into one component at the
 * top (a peer stage, named after the least of those groups), whichever end a plane climbs
 * from; a switch's peer links are its uplinks there. Shapes that do not reduce to this are
 * problems naming the bundle (topo.problems); nothing is silently dropped.
 *
 * Planes of different node groups are matched by the network they reach, not by the order
 * in which their bundles are written: a group's switch planes are sorted by network (the
 * switch groups bundles join), then by leaf group; its meshes follow. Plane k of every
 * group is the k-th port set of its node, as NCCL's channels use them round-robin.
 *
 * Placement (ncfabric(5) "PLACEMENT"). The job's GPUs fill the node groups named by
 * job.groups (default: every server group in design order), node after node, so rank r is
 * on node floor(r / G) of its group: contiguous, as a launcher's sorted host list puts
 * them. Nodes are numbered 0.. in that order: NCCL orders nodes by their first rank, so a
 * ring goes node i -> i+1 and its trees are built over these indices.
 *
 * Ownership: topo_build fills a struct topo that owns its arrays (topo_free). Indices refer
 * to the design it was built from. */
#ifndef NCF_TOPO_H
#define NCF_TOPO_H
#include <stdbool.h>
#include "model/design.h"
#include "model/nccl.h"

#define TOPO_MAX_LEVELS 4
#define TOPO_MAX_PLANES 8
#define TOPO_ALL (1L << 60)   /* a component size: everything */

enum plane_kind { PLANE_SWITCH, PLANE_MESH };
enum hash_kind { HASH_NONE, HASH_ECMP, HASH_IB_STATIC, HASH_FLUID };

struct topo_level {
	int sw;                  /* switch group (design index) of this level */
	int order;               /* 2 x tier (+1 for a peer stage): a level's parent has a higher order */
	long size;               /* leaf-group positions per component (TOPO_ALL: one component) */
	long shift;              /* component of position x: floor((x + shift) / size) [mod modulus] */
	long modulus;            /* 0: none (blocks); else interleaved components */
	long base;               /* number of the first component (of the one, at size TOPO_ALL) */
	int rails;               /* the plane's ports per server inside one component */
	int rail_mod, rail_block; /* rail l's group at this level: (l mod rail_mod) / rail_block */
	int rail_groups;         /* rail_mod / rail_block, at least 1 (0: not set, one group) */
	int switches;            /* switches of this level in one component */
	int uplinks;             /* per switch, to the next level (0 at the top) */
	double link_GBps;        /* per uplink */
	int hash;                /* enum hash_kind at this level's uplinks */
	int hash_links;          /* links one flow is hashed over (ECMP group or LAG members) */
	bool lag;                /* uplinks bundled as LAGs */
	int up_bundle;           /* design bundle of the uplinks, -1 at the top */
	bool peer;               /* this level joins its components by peer links, not uplinks */
	int pair_links;          /* peer links between two switches (peer levels) */
};

struct topo_plane {
	int kind;                /* enum plane_kind */
	int bundle;              /* design bundle (the first of those merged into this plane) */
	int net;                 /* the network it reaches: its leaf's class of switch groups
				  * joined by bundles (PLANE_SWITCH); -1 for a mesh */
	int leaf;                /* switch group of level 1 (PLANE_SWITCH) or the peer server group */
	int links;               /* ports of a server in this plane (L) */
	int port_base;           /* its first port among the server's compute ports */
	int gbps;                /* speed its links run at */
	long pos;                /* position of the group's first server in the leaf group */
	int wiring;
	bool lag;                /* server links bonded: NCCL sees one device per LAG */
	int lag_size;            /* links per LAG */
	int nlevels;
	struct topo_level level[TOPO_MAX_LEVELS];
	long mesh_peers;         /* PLANE_MESH: members reached, links per pair = links */
	unsigned long long levels_hash; /* a hash of its levels (ngroup_shape mixes it in) */
};

struct topo_ngroup {
	char name[NCF_NAME_MAX];
	int server;              /* server group (design index) */
	const struct cat_gpu *gpu; /* its GPU in the build's catalog, NULL if unknown */
	int domain;              /* domain group (design index) or -1 */
	long nodes;              /* nodes in the design */
	int spn;                 /* servers per node */
	int gpus;                /* per node */
	int ports;               /* compute NIC ports per server */
	int wired;               /* of which wired by bundles */
	int port_gbps;           /* slowest wired port (NIC or link) */
	double slot_GBps;        /* slowest NIC PCIe slot, payload rate */
	int protocol;            /* enum protocol of its NICs (the first compute NIC) */
	bool nic_ar;             /* its NICs take out-of-order data (adaptive routing, spraying) */
	bool nic_sharp;
	double ceiling_GBps;     /* raw network bandwidth of one node (ports, capped by their PCIe slots) */
	int cards;               /* NIC cards of a node that carry the wired ports */
	struct nccl_node nccl;   /* one node as NCCL sees it (nnodes 1) */
	int nplanes;
	int nswitch;             /* of which switch planes (they come first) */
	struct topo_plane *plane; /* nplanes of them, in topo.planes */
	unsigned long long shape; /* a hash of its planes and levels (topo.layout mixes it in) */
	/* placement */
	long first;              /* global index of its first job node; -1: unused */
	long used;               /* job nodes in it */
	int last_gpus;           /* GPUs of the job on its last used node */
};

struct topo_problem {
	int severity;            /* enum ncf_severity */
	char path[48];           /* "bundles[2]", "job.groups", ... */
	char msg[240];
};

#define TOPO_MAX_PROBLEMS 16

/* One switch group, as the bundles use it (per switch). */
struct topo_switch {
	long members;            /* switches in the group */
	int tier;                /* 1 leaf, 2 spine, 3 core */
	double down_GBps, up_GBps; /* capacity of one switch's downlinks and uplinks (peer links count up) */
	int down_gbps, up_gbps;  /* slowest link speed each way */
	bool lag;                /* its uplinks are bundled as LAGs */
	int protocol;
	bool ar, known;
	bool sharp;              /* in-network reduction (InfiniBand SHARP) */
	int peer_class;          /* switch groups peer bundles join: the least of them */
};

/* A peer bundle: every switch of group a linked to every switch of group b (every other
 * one when a == b) by `links` links of link_GBps each. */
struct topo_peer {
	int a, b;
	int links;
	double link_GBps;
};

struct topo {
	struct topo_ngroup *ng;
	int nng;
	int *order;              /* node groups in placement order (nplaced of them) */
	int nplaced;
	long nodes;              /* the job's nodes */
	int gpus;                /* the job's GPUs */
	long design_nodes;
	int design_gpus;
	bool connected;          /* every pair of the job's nodes can reach each other */
	char disconnect[200];    /* why not */
	bool heterogeneous;      /* the job's node groups differ in GPUs, NICs or speeds */
	/* The placed groups' slowest GPU (least BF16 TFLOPS) and the one with the least memory,
	 * in the build's catalog (NULL: none known): a synchronous step waits for the first. */
	const struct cat_gpu *slow_gpu, *small_gpu;
	int routing;             /* enum routing (fabric.routing) */
	int qps;                 /* NCCL_IB_QPS_PER_CONNECTION */
	int nproblems;
	struct topo_problem problems[TOPO_MAX_PROBLEMS];
	struct topo_plane *planes; /* every node group's planes */
	struct topo_switch *sw;  /* per switch group of the design */
	int nsw;
	struct topo_peer *peers; /* the peer bundles (switch groups of one tier joined) */
	int npeers;
	unsigned long long layout; /* a hash of the graph and the placement (caches key on it) */
};

/* Build the group graph of d for a job on `gpus` GPUs (0: the job's own count). */
void topo_build(const struct design *d, const struct catalog *cat, int gpus, struct topo *t);
void topo_free(struct topo *t);
/* The engine's problems (shapes it cannot compute, protocol mismatches, a job that is not
 * connected, routing the hardware cannot do) as diagnostics with paths. They are not file
 * errors: a design that is not connected yet still loads and can be edited. */
void topo_check(const struct design *d, const struct catalog *cat, struct ncf_diag *diag);
/* Place the job again on another GPU count (the scaling curve), keeping the graph. */
void topo_place(const struct design *d, struct topo *t, int gpus);

/* The node group of global job node i, and its index inside the group; NULL past the end. */
const struct topo_ngroup *topo_node(const struct topo *t, long i, long *local);
/* Block (number) of server position x at level lv of a plane. A level's rail groups
 * (rail_mod / rail_block of them) split each block into components: rail r of position x
 * is in component topo_comp(lv, x) x G + (r mod rail_mod) / rail_block, numbered as the
 * level's switch group numbers them (the same in every node group bundled into it). */
/* (Inline: the routing asks for these tens of thousands of times a recompute.) */
static inline long topo_comp(const struct topo_level *lv, long x)
{
	long v, q, id;
	if (lv->size >= TOPO_ALL)
		return lv->base;
	v = x + lv->shift;
	q = v / lv->size;
	id = (v % lv->size != 0 && v < 0) ? q - 1 : q; /* floor: size is positive */
	if (lv->modulus > 0) {
		id %= lv->modulus;
		if (id < 0)
			id += lv->modulus;
	}
	return lv->base + id;
}

static inline long topo_rail_groups(const struct topo_level *lv)
{
	return lv->rail_groups > 0 ? lv->rail_groups : 1;
}

static inline long topo_comp_rail(const struct topo_level *lv, long x, int rail)
{
	long rm = lv->rail_mod > 0 ? lv->rail_mod : 1, rb = lv->rail_block > 0 ? lv->rail_block : 1;
	return topo_comp(lv, x) * topo_rail_groups(lv) + (rail ? (rail % rm) / rb : 0);
}
/* The components of level lv holding positions x0 + j*d (j = 0..n-1): fn(lo, hi, count)
 * for components lo..hi holding `count` of them each (calls may overlap: their counts add).
 * Exact, except over long runs of blocks of unequal shares (then at most `count`). Cost:
 * constant, or the level's residues for long interleaved runs; never per position. */
typedef void (*topo_run_fn)(long lo, long hi, long count, void *arg);
void topo_runs(const struct topo_level *lv, long x0, long d, long n, topo_run_fn fn, void *arg);
/* Servers of node group g: position of the first server of its job node i in plane p. */
static inline long topo_pos(const struct topo_ngroup *g, const struct topo_plane *p, long i)
{
	return p->pos + i * g->spn;
}
/* Do the placed groups keep their leaf components of switch plane pi to themselves? No
 * two groups' component ranges at one leaf level overlap beyond a shared end block (the
 * bisection's bulk leaves need it). */
bool topo_leaves_apart(const struct topo *t, int pi);
/* Direct (mesh) links between a member of g and a member of h (h == g: two members of g),
 * and their capacity per direction in *GBps (may be NULL); 0: the pair is not linked. */
int topo_mesh_pair(const struct topo_ngroup *g, const struct topo_ngroup *h, double *GBps);

#endif
