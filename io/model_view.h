/* model_view.h: the model's numbers the exports need, in one small struct.
 *
 * The exports (DOT, ASTRA-sim, the BOM's headline numbers) read the model's results
 * through this one accessor, not through struct metrics and struct fabric directly: when
 * the model's structs change, only model_view.c follows. Units as in the model: GB/s are
 * 10^9 bytes per second per direction. */
#ifndef NCF_MODEL_VIEW_H
#define NCF_MODEL_VIEW_H
#include <stdbool.h>
#include "model/design.h"

#define MV_TIERS 16

struct mv_tier {
	int role;               /* enum switch_role */
	char group[NCF_NAME_MAX];
	int count;              /* switches */
	double ratio;           /* oversubscription down : up; 0 at the top tier */
	double nodes_under;     /* nodes one switch of the tier joins */
	bool rail;              /* reached through rail-optimised wiring */
};

struct model_view {
	bool connected;         /* every pair of the job's nodes reaches the other */
	bool heterogeneous;     /* the job spans server groups that differ */
	bool hashed;            /* a device picks among equal paths by a static choice: ECMP or
				 * InfiniBand's static routing at a tier's uplinks, or a LAG */
	bool hashed_ib;         /* that choice is InfiniBand's static routing (one uplink per destination) */
	char hashed_at[NCF_NAME_MAX]; /* the first switch group that chooses ("" for a LAG of the servers) */
	bool domain_node;       /* a node is an NVLink domain of several servers */
	bool nvlink;            /* the node's GPUs talk over NVLink (else PCIe) */
	int gpus_per_node;
	long nodes;             /* nodes the job runs on */
	int ports;              /* network ports per node */
	double intra_GBps;      /* per GPU inside the node, as NCCL counts it */
	double node_GBps;       /* the node's network ceiling */
	int ntiers;
	struct mv_tier tiers[MV_TIERS];
	double bisection_GBps;
	char note[200];         /* what the model assumed, or why the job cannot run */
	/* AllReduce at 1 GiB: the algorithm the job uses and its busbw */
	double allreduce_bytes;
	char allreduce_algo[16];
	bool allreduce_tree;
	double allreduce_busbw_GBps;
	bool workload_valid;
	double step_ms, tokens_per_s, speedup, efficiency;
	char bottleneck[400];
};

void model_view_compute(const struct design *d, const struct catalog *cat, struct model_view *v);

#endif
