/* nccl.h: NCCL's own prediction of collective time, implemented from the equations of
 * shared/docs/collective-model.md (sections 2, 3 and 7; no NVIDIA code).
 *
 * Input is one node as NCCL sees it (GPUs, NVLink or PCIe inside, network ports and the
 * PCIe path to them) and the node count; output is the channel search result per graph
 * (ring, tree, NVLS, CollNet) and NCCL's bandwidth and latency table per collective,
 * algorithm and protocol, from which nccl_time() gives microseconds for a message size.
 * Everything here is what NCCL itself believes: switches, oversubscription and hashing
 * collisions are not in it (fabric.h adds them). Units: GB/s (10^9 B/s) per direction,
 * microseconds, bytes. */
#ifndef NCF_NCCL_H
#define NCF_NCCL_H
#include <stdbool.h>

enum coll { COLL_ALLREDUCE, COLL_ALLGATHER, COLL_REDUCESCATTER, COLL_ALLTOALL, COLL_SENDRECV,
	    COLL_BROADCAST, COLL_REDUCE, COLL_COUNT };
/* NCCL's algorithm order (ties keep the first). */
enum nalgo { NA_TREE, NA_RING, NA_COLLNET_DIRECT, NA_COLLNET_CHAIN, NA_NVLS, NA_NVLSTREE, NA_PAT, NA_COUNT };
enum nproto { NP_LL, NP_LL128, NP_SIMPLE, NP_COUNT };

extern const char *const coll_names[], *const nalgo_names[], *const nproto_names[];

struct nccl_node {
	int sm;              /* compute capability x 10 */
	int ppn;             /* GPUs per node (an NVLink domain counts as one node) */
	int nnodes;
	int cpu;             /* enum cpu_vendor */
	double nvl;          /* per-GPU NVLink bandwidth with NCCL's per-link constant; 0: none */
	bool nvswitch;       /* every GPU reaches every other through NVSwitch */
	bool nvls;           /* NVLink SHARP possible (sm >= 90, NVSwitch with NVLS) */
	double pci_gpu;      /* the GPU's own PCIe link, NCCL's constant (x16 Gen4 = 24) */
	/* The host (fabric-physics.md 5; collective-model.md 2.3, 2.4, 7.3 b): GPUs spread evenly
	 * over `sockets` sockets, under PCIe switches of `sw_gpus` GPUs each (0: on the CPU's
	 * root ports), or in NVLink-bridge groups of `bridge_gpus`. nccl_node_host() derives
	 * nvl (bridges), pci_intra and intra_path for the `span` GPUs a communicator covers. */
	int gpus;            /* GPUs of the server (ppn is the communicator's share) */
	int span;            /* consecutive GPUs of a node the communicator's ranks cover */
	int sockets;
	int sw_gpus;
	double sw_up;        /* a PCIe switch's uplink, NCCL's constant */
	double sys_bw;       /* the inter-socket link, NCCL's constant */
	bool p2p;            /* the GPUs allow PCIe peer-to-peer */
	int bridge_gpus;
	double bridge_nvl;   /* per-GPU NVLink inside a bridge group, NCCL's constant */
	double pci_intra;    /* GPU to GPU over PCIe when there is no NVLink (derived) */
	int intra_path;      /* enum host_path of the worst hop (derived) */
	int cards;           /* network cards per node */
	int ports_per_card;  /* network ports (NET devices) per card */
	double net_bw;       /* per port, Gb/s / 8 */
	double card_pci;     /* the card's PCIe path to its GPUs, NCCL's constant */
	bool net_on_cpu;     /* NIC attached to the CPU: PHB path, no GPUDirect RDMA */
	bool pxn_return;     /* one GPU per NIC: a same-NIC ring returns through PXN */
	bool cross_nic;      /* NCCL_CROSS_NIC allows rings to change NIC */
	bool collnet;        /* CollNet (SHARP) plugin usable on this fabric */
	/* The network transport (fabric-physics.md 4): the share of the line rate it achieves,
	 * and the latency its plugin reports to NCCL (added to NCCL's NET latency). */
	double net_eff;      /* 0: 1 */
	double net_lat;      /* us */
	char transport[48];  /* its name, for texts (NCF_NAME_MAX) */
};

struct nccl_graph {
	int c;               /* channels */
	double bi, be;       /* per-channel intra / inter speed */
	bool cross;          /* ring uses different NICs to enter and leave */
};

struct nccl_model {
	struct nccl_node node;
	int nranks;
	struct nccl_graph ring, tree, nvls, collnet;
	/* Algorithm bandwidth (GB/s) and latency (us) per collective, algorithm, protocol;
	 * bw 0 means NCCL would not use it. AllToAll and SendRecv have no NCCL model. */
	double bw[COLL_COUNT][NA_COUNT][NP_COUNT];
	double lat[COLL_COUNT][NA_COUNT][NP_COUNT];
	bool ll128;          /* LL128 enabled by default on this node */
	/* Point-to-point (AllToAll, send/recv: NCCL has no model of them) runs at the pace of
	 * the kind of node with the least network (nccl_node_net) and the least GPU pair path
	 * (nccl_pair_net), each kind with its own NICs: with one kind, both are `node`. */
	struct nccl_node p2p_node, p2p_pair;
	const char *why_not[NA_COUNT]; /* why an algorithm is off, or NULL */
};

/* The worst hop between a communicator's GPUs inside a node, as NCCL types paths
 * (collective-model.md 2.4): NVLink, one PCIe switch, through the CPU, across sockets;
 * P2P means NCCL's P2P transport, SHM the path through host memory. */
enum host_path { HP_NVL, HP_PIX_P2P, HP_PHB_P2P, HP_SYS_P2P, HP_PHB_SHM, HP_SYS_SHM };
extern const char *const host_path_names[];
/* Derive nvl (bridges only), pci_intra and intra_path from n's host fields, ppn and span. */
void nccl_node_host(struct nccl_node *n);

/* NCCL's NVLS efficiency (tuning.cc nvlsEfficiency: 0.85 Hopper, 0.74 Blackwell; 0 before). */
double nccl_nvls_efficiency(int sm);
/* NCCL's per-link NVLink bandwidth for a compute capability (section 2.3). */
double nccl_nvlink_per_link(int sm);
/* NCCL's PCIe bandwidth: lanes x per-lane rate (x16 Gen3 12, Gen4 24, Gen5 48, Gen6 96). */
double nccl_pcie_bw(int gen, int lanes);
/* NCCL's latency table (collective-model.md 3.2) for the kinds of hop it knows: the
 * hardware latency of one Ring/Simple step on that hop, and the base latency of a
 * Ring/Simple launch, microseconds. Other modules (p2p rounds, exports) take them here
 * rather than restating the constants. */
enum nccl_hw { NCCL_HW_NVLINK, NCCL_HW_PCI, NCCL_HW_NET };
double nccl_ring_step_us(enum nccl_hw hw);
double nccl_ring_base_us(void);

/* Search, tune and fill m for node n. Cost: constant (no dependence on the node count). */
void nccl_model_build(const struct nccl_node *n, struct nccl_model *m);
/* The model of a communicator whose nodes are of ncls kinds (heterogeneous designs): each
 * kind searches its own graphs, every rank takes the minimum channels and speeds, and
 * nranks ranks run on nnodes nodes. */
void nccl_model_build_multi(const struct nccl_node *cls, int ncls, int nnodes, int nranks, struct nccl_model *m);
/* NCCL_PROTO=p: the tuning tables keep protocol p only (NCCL gives the others no bandwidth,
 * so neither its own choice nor a forced algorithm can use them); an algorithm left with
 * no protocol is off, and why_not says so. */
void nccl_model_only_proto(struct nccl_model *m, enum nproto p);
/* A node's network for point-to-point traffic: its ports at the rate one port carries
 * (line rate, or its share of the card's PCIe path); and what one GPU pair across nodes
 * gets: one GPU's own NIC, capped by its PCIe path and the GPU's (fabric-physics.md 3.2). */
double nccl_port_rate(const struct nccl_node *n);
double nccl_node_net(const struct nccl_node *n);
double nccl_pair_net(const struct nccl_node *n);
/* Predicted time in us of collective c at S bytes (nccl-tests "size"), or -1 when the
 * combination is off. bw_scale multiplies the bandwidth (1 for NCCL's own view). */
double nccl_time(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p, double bytes,
		 double bw_scale);
/* The (algorithm, protocol) NCCL would pick at S bytes: the smallest nccl_time. */
bool nccl_pick(const struct nccl_model *m, enum coll c, double bytes, enum nalgo *a, enum nproto *p);
/* nccl-tests busbw factor for collective c on n ranks. */
double busbw_factor(enum coll c, int n);

#endif
