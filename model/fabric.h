/* fabric.h: what the network of a design offers a job, in the terms the report, the panel
 * and the exports show.
 *
 * The topology engine (topo.h: the graph of groups; route.h: where each algorithm's
 * traffic goes) computes on every server group, switch group and bundle as the user drew
 * them. This summary gives the node as NCCL sees it (a server, or an NVLink domain such as
 * an NVL72 rack), the node's raw network ceiling, every switch group the job's traffic can
 * climb through (its oversubscription, uplinks, and what hashes there), the bisection of
 * the job's GPUs, whether they are connected at all, and the engine's problems. A loss
 * (fabric_loss) says what share of an algorithm's planned rate the switches deliver and
 * which switch group binds. Bandwidths are GB/s (10^9 B/s) per direction. Nothing here
 * depends on the GPU count: a 131,072-GPU design costs what a 32-GPU one does. */
#ifndef NCF_FABRIC_H
#define NCF_FABRIC_H
#include "model/design.h"
#include "model/nccl.h"
#include "model/route.h"

#define FABRIC_MAX_TIERS 16
#define FABRIC_MAX_CLASSES 8

/* A switch group the job's traffic can climb through (sorted by tier, then design order). */
struct tier {
	int role;               /* enum switch_role */
	char group[NCF_NAME_MAX];
	int sw;                 /* design index of the switch group */
	int level;              /* its level above the servers: 1 for the switches they plug into */
	int count;              /* switches in the group */
	int link_gbps;          /* speed of its uplinks (or downlinks at the top) */
	double down_GBps, up_GBps; /* per switch */
	double ratio;           /* down : up; 0 at the top (no uplinks) */
	int uplinks;            /* per switch */
	double nodes_under;     /* job nodes one component of this level joins */
	int planes;             /* rails kept apart at this level (1: every rail meets here) */
	bool lag;               /* uplinks bundled as LAGs (hashed per flow) */
	bool rail;              /* reached through rail-optimised wiring */
	bool sharp;             /* in-network reduction in these switches */
	bool peer;              /* joined to its own tier by peer links (no uplinks) */
	int hash;               /* enum hash_kind at its uplinks */
	int protocol;
};

struct fabric {
	struct nccl_node node;  /* the job's node, as NCCL sees it (the most limited kind) */
	struct nccl_node classes[FABRIC_MAX_CLASSES]; /* each kind of node in the job */
	int nclasses;
	int gpus;               /* GPUs taking part */
	int design_gpus;
	long design_nodes;
	bool domain_node;       /* a node is an NVLink domain of several servers */
	char server_group[NCF_NAME_MAX]; /* the job's first server group */
	int proto_forced;       /* enum proto_force: the job's NCCL_PROTO (every model built here keeps it) */
	int servers_per_node;
	int ports;              /* wired compute NIC ports per node (the job's first group) */
	int cards;              /* NIC cards per node that carry them */
	int port_gbps;          /* speed a port runs at (the slower of NIC and link) */
	double port_GBps;       /* port_gbps / 8 */
	double slot_GBps;       /* a NIC's PCIe slot, payload rate (hardware.md section 7) */
	double node_ceiling_GBps; /* raw network bandwidth of a node (the most limited kind) */
	double nvlink_GBps;     /* per GPU NVLink line rate, per direction */
	int gpus_per_nic;
	int wiring;             /* of the first group's first bundle */
	bool lag;               /* the servers' links are bonded (NCCL sees one device per LAG) */
	int routing;
	bool pxn;               /* fabric.pxn: p2p relayed over NVLink to the destination's rail */
	int qps;                /* queue pairs per connection */
	int placement;          /* enum job_placement */
	bool mesh;              /* servers linked directly (no switch) */
	struct tier tiers[FABRIC_MAX_TIERS];
	int ntiers;
	double gpus_per_link;   /* GPUs : cross-server links */
	/* The worst-case balanced cut of the job's nodes (bisect.h), total and per GPU (over
	 * half the job's GPUs). */
	double bisection_GBps, bisection_per_gpu_GBps;
	bool bisection_exact;   /* the minimum itself; else a bound (bisection_bound says which) */
	int bisection_bound;    /* 0 exact, -1 a lower bound (several planes), 1 an upper bound
				 * (the split by rank: shapes with no exact programme) */
	bool connected;         /* every pair of the job's nodes can reach each other */
	bool heterogeneous;     /* the job spans node groups that differ */
	char note[200];         /* what was assumed, or why the job cannot run */
	int nproblems;          /* what the engine could not compute, or found wrong */
	struct topo_problem problems[TOPO_MAX_PROBLEMS];
};

/* Where an algorithm's network throughput is lost, as a share of what the nodes plan. */
struct fabric_loss {
	double factor;          /* 0..1: achievable / planned */
	int binding;            /* -1 none, else the index in fabric.tiers of the switch group */
	bool direct;            /* the binding resource is a direct (mesh) link between servers */
	bool hashed;            /* the binding resource loses to hashing */
	long flows, links;      /* there: flows hashed (or destinations) over links */
	int hash;               /* enum hash_kind there */
	double demand_GBps, capacity_GBps; /* at the binding resource */
	double share_up[FABRIC_MAX_TIERS]; /* busiest component's up share, per tier */
	bool unroutable;        /* some of the traffic has no path */
	bool transport;         /* the binding resource is the NICs' transport (its efficiency) */
	char why[200];
};

/* Summarize the group graph t of d for the job it was placed for. */
void fabric_summarize(const struct design *d, const struct catalog *cat, const struct topo *t, struct fabric *f);
/* The same without the switch tiers and the bisection: what a job's numbers need (the
 * scaling curve summarizes the graph at every point). */
void fabric_summarize_job(const struct design *d, const struct catalog *cat, const struct topo *t, struct fabric *f);
/* The most the first floor(n/2) of t's job nodes by rank can send to the rest (a max-flow
 * on the tree of components, planes and direct links adding): the capacity of one balanced
 * split, so an upper bound of the bisection. Cost: the components the groups touch. */
double fabric_rank_flow(const struct topo *t);
/* Build the graph for a job on `gpus` GPUs (0: the job's own) and summarize it. */
void fabric_build(const struct design *d, const struct catalog *cat, int gpus, struct fabric *f);
/* The loss of traffic `in` on graph t (summarized in f). Results are cached per graph and
 * traffic shape, and bisections per graph; fabric_caches_clear forgets them (benchmarks
 * measuring a cold start). */
void fabric_caches_clear(void);
void fabric_loss(const struct topo *t, const struct fabric *f, const struct route_in *in, struct fabric_loss *out);
/* The node seen by a sub-communicator of `ranks` ranks, `per_node` of them on each node
 * (the node's NICs are shared among the communicators running at once). */
struct nccl_node fabric_subnode(const struct nccl_node *node, int ranks, int per_node);
/* The job's NCCL model for a communicator spanning every node of the job, or for
 * sub-communicators with `per_node` ranks on each of `nodes` nodes. The ranks of one node
 * are taken as consecutive GPUs (TP's order); fabric_nccl_span says how many consecutive
 * GPUs they cover when they are strided (DP at stride tp covers tp x per_node), which
 * decides the host paths between them (sockets, PCIe switches, NVLink bridges). */
void fabric_nccl(const struct fabric *f, int nodes, int ranks, int per_node, struct nccl_model *m);
void fabric_nccl_span(const struct fabric *f, int nodes, int ranks, int per_node, int span, struct nccl_model *m);

#endif
