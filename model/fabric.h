/* fabric.h: what the network of a design offers a job, computed on groups.
 *
 * From the design and the catalog this finds the node as NCCL sees it (a server, or an
 * NVLink domain such as an NVL72 rack: the unit inside which traffic stays on NVLink),
 * the node's raw network ceiling, and every switch tier: its oversubscription (downlink :
 * uplink capacity per switch), how many nodes one switch of the tier joins, and its
 * uplinks. It then says how much of a collective's traffic each tier must carry up and
 * how fast it can, with static hashing (ECMP, LAG) or adaptive routing and spraying.
 * Nothing here depends on the GPU count: a 131,072-GPU design costs what a 32-GPU one
 * does. Bandwidths are GB/s (10^9 B/s) per direction. */
#ifndef NCF_FABRIC_H
#define NCF_FABRIC_H
#include "model/design.h"
#include "model/nccl.h"

#define FABRIC_MAX_TIERS 3

struct tier {
	int role;               /* enum switch_role */
	char group[NCF_NAME_MAX];
	int count;              /* switches in the tier */
	int link_gbps;          /* speed of its uplinks (or downlinks at the top) */
	double down_GBps, up_GBps; /* per switch */
	double ratio;           /* down : up; 0 at the top tier (no uplinks) */
	int uplinks;            /* per switch */
	double nodes_under;     /* nodes one switch of the tier joins (m) */
	int planes;             /* switches of the tier serving the same nodes (rails) */
	bool lag;               /* uplinks bundled as LAGs (hashed per flow) */
	bool rail;              /* reached through rail-optimised wiring */
	bool sharp;             /* in-network reduction in these switches */
};

struct fabric {
	struct nccl_node node;  /* the job's node, as NCCL sees it */
	int gpus;               /* GPUs taking part */
	int design_gpus;
	long design_nodes;
	bool domain_node;       /* a node is an NVLink domain of several servers */
	char server_group[NCF_NAME_MAX];
	int servers_per_node;
	int ports;              /* wired compute NIC ports per node */
	int port_gbps;          /* speed a port runs at (the slower of NIC and link) */
	double port_GBps;       /* port_gbps / 8 */
	double slot_GBps;       /* a NIC's PCIe slot, payload rate (hardware.md section 7) */
	double node_ceiling_GBps; /* raw network bandwidth of a node: the inter-node busbw ceiling */
	double nvlink_GBps;     /* per GPU NVLink line rate, per direction */
	int gpus_per_nic;
	int wiring;             /* of the servers' bundle */
	bool edge_hashed;       /* a node's several links are chosen per flow (see fabric.c) */
	bool edge_lag;
	int routing;
	bool pxn;               /* fabric.pxn: p2p relayed over NVLink to the destination's rail */
	struct tier tiers[FABRIC_MAX_TIERS];
	int ntiers;
	double gpus_per_link;   /* GPUs : cross-server links */
	double bisection_GBps, bisection_per_gpu_GBps;
	bool connected;         /* every pair of the job's nodes can reach each other */
	bool heterogeneous;     /* the job spans server groups that differ */
	char note[200];         /* what was assumed, or why the job cannot run */
};

/* Traffic of one algorithm as the fabric sees it. */
struct traffic {
	double node_GBps;       /* what a node wants to send into the network */
	int flows;              /* flows (connections) per node crossing the network */
	int kind;               /* enum traffic_kind */
	bool cross_rail;        /* rings that change NIC: on rails, every hop needs the spine */
	bool pxn;               /* point-to-point traffic relayed to the destination's rail */
};
enum traffic_kind { TK_RING, TK_TREE, TK_ALLTOALL, TK_SENDRECV, TK_INNETWORK };

/* Where a collective's network throughput is lost, as a share of what the nodes offer. */
struct fabric_loss {
	double factor;          /* 0..1: achievable / wanted */
	double edge;            /* at the servers' own links (hashing) */
	double tier[FABRIC_MAX_TIERS]; /* at each tier's uplinks */
	double share_up[FABRIC_MAX_TIERS]; /* share of node traffic that leaves the tier upward */
	int binding;            /* -1 none, 0..2 the tier, 3 the edge */
};

/* Build the fabric for a job on `gpus` GPUs (0: the job's own count). */
void fabric_build(const struct design *d, const struct catalog *cat, int gpus, struct fabric *f);
/* The node seen by a sub-communicator of `ranks` ranks, `per_node` of them on each node
 * (the node's NICs are shared among the communicators running at once). */
struct nccl_node fabric_subnode(const struct fabric *f, int ranks, int per_node);
/* Loss of traffic t on fabric f for n nodes. */
void fabric_loss(const struct fabric *f, const struct traffic *t, int nodes, struct fabric_loss *out);

#endif
