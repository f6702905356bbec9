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
	double pci_intra;    /* GPU to GPU over PCIe when there is no NVLink */
	bool pci_intra_phb;  /* that path crosses the CPU (no P2P by default) */
	int cards;           /* network cards per node */
	int ports_per_card;  /* network ports (NET devices) per card */
	double net_bw;       /* per port, Gb/s / 8 */
	double card_pci;     /* the card's PCIe path to its GPUs, NCCL's constant */
	bool net_on_cpu;     /* NIC attached to the CPU: PHB path, no GPUDirect RDMA */
	bool pxn_return;     /* one GPU per NIC: a same-NIC ring returns through PXN */
	bool cross_nic;      /* NCCL_CROSS_NIC allows rings to change NIC */
	bool collnet;        /* CollNet (SHARP) plugin usable on this fabric */
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
	const char *why_not[NA_COUNT]; /* why an algorithm is off, or NULL */
};

/* NCCL's per-link NVLink bandwidth for a compute capability (section 2.3). */
double nccl_nvlink_per_link(int sm);
/* NCCL's PCIe bandwidth: lanes x per-lane rate (x16 Gen3 12, Gen4 24, Gen5 48, Gen6 96). */
double nccl_pcie_bw(int gen, int lanes);

/* Search, tune and fill m for node n. Cost: constant (no dependence on the node count). */
void nccl_model_build(const struct nccl_node *n, struct nccl_model *m);
/* The model of a communicator whose nodes are of ncls kinds (heterogeneous designs): each
 * kind searches its own graphs, every rank takes the minimum channels and speeds, and
 * nranks ranks run on nnodes nodes. */
void nccl_model_build_multi(const struct nccl_node *cls, int ncls, int nnodes, int nranks, struct nccl_model *m);
/* Predicted time in us of collective c at S bytes (nccl-tests "size"), or -1 when the
 * combination is off. bw_scale multiplies the bandwidth (1 for NCCL's own view). */
double nccl_time(const struct nccl_model *m, enum coll c, enum nalgo a, enum nproto p, double bytes,
		 double bw_scale);
/* The (algorithm, protocol) NCCL would pick at S bytes: the smallest nccl_time. */
bool nccl_pick(const struct nccl_model *m, enum coll c, double bytes, enum nalgo *a, enum nproto *p);
/* nccl-tests busbw factor for collective c on n ranks. */
double busbw_factor(enum coll c, int n);

#endif
