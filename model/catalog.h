/* catalog.h: the hardware parts a design is built from.
 *
 * The catalog holds GPUs, scale-up fabrics (NVSwitch generations, NVLink bridges, PCIe
 * switches, NVLink switch trays), NICs, switches, cables and optics, and servers. Every
 * entry carries the public source of its figures. share/catalog.yaml is the shipped
 * catalog (also compiled into the binary); a design may add entries or override them by
 * name in its own catalog: section.
 *
 * Units: link and port speeds in Gb/s per direction (as vendors quote them); NVLink in
 * GB/s per direction per link (line rate; the model applies NCCL's own constants); power
 * in W; rack units in U. A zero means "not known" (and the inventory says so). */
#ifndef NCF_CATALOG_H
#define NCF_CATALOG_H
#include <stdbool.h>
#include "model/vec.h"
#include "model/schema.h"

#define NCF_NAME_MAX 48
#define NCF_SOURCE_MAX 512

enum fabric_kind { FAB_NONE, FAB_NVSWITCH, FAB_NVLINK_BRIDGE, FAB_NVLINK_MESH, FAB_PCIE_SWITCH,
		   FAB_NVSWITCH_TRAY };
enum protocol { PROTO_INFINIBAND, PROTO_ROCE, PROTO_ETHERNET, PROTO_EFA };
enum media { MEDIA_AUTO, MEDIA_DAC, MEDIA_ACC, MEDIA_AOC, MEDIA_TRANSCEIVER };
/* CPU of a server: the vendor, and for Intel the generation where NCCL's inter-socket
 * bandwidth differs (collective-model.md 2.3: Broadwell 6, Skylake to Ice Lake 10,
 * Sapphire Rapids 22, Emerald Rapids and newer 40 GB/s; AMD 16, ARM 6). "intel" is the
 * Skylake-to-Ice-Lake class. New values are appended: files keep their meaning. */
enum cpu_vendor { CPU_INTEL, CPU_AMD, CPU_ARM, CPU_GRACE, CPU_INTEL_BDW, CPU_INTEL_SPR, CPU_INTEL_EMR };
/* Whether GPU peer-to-peer over PCIe works at all (GeForce drivers refuse it). */
enum pcie_p2p { P2P_SUPPORTED, P2P_UNSUPPORTED };
enum gpu_form { FORM_MODULE, FORM_CARD };
bool cpu_is_intel(int cpu);
/* NCCL's bandwidth of the link between two sockets of this CPU, GB/s per direction. */
double cpu_sys_GBps(int cpu);

struct cat_gpu {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int sm;                /* compute capability x 10 (80 = A100), selects NCCL's constants */
	int nvlink_gen, nvlink_links;
	double nvlink_link_GBps; /* per link, per direction, line rate */
	int pcie_gen, pcie_lanes;
	int pcie_p2p;          /* enum pcie_p2p */
	int form;              /* enum gpu_form: an SXM/OAM module (NVSwitch) or a PCIe card (bridges) */
	double bf16_tflops, memory_GB, power_W;
	char source[NCF_SOURCE_MAX];
};

struct cat_fabric {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int kind, generation;
	bool nvls;             /* in-switch reduction (NVLink SHARP) */
	int chips, max_gpus;   /* switch chips per server or tray; GPUs one instance joins */
	int pcie_gen, pcie_lanes; /* PCIe switch: the uplink to the CPU */
	double power_W, rack_units;
	char source[NCF_SOURCE_MAX];
};

struct cat_nic {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int speed_gbps, ports, protocol, pcie_gen, pcie_lanes;
	bool sharp;
	bool adaptive_routing; /* takes packets out of order: adaptive routing or spraying */
	char transport[NCF_NAME_MAX]; /* catalog transport; empty: by protocol (transport_for) */
	double latency_us;     /* latency the NCCL net plugin reports; 0: the transport's */
	double power_W;
	char source[NCF_SOURCE_MAX];
};

/* How NCCL moves bytes over a NIC (fabric-physics.md 4): the fraction of the line rate it
 * achieves on an idle path (headers at the usual MTU, and for host-assisted transports the
 * measured share), and the latency its plugin reports, which NCCL adds to every network
 * step of its model (twice for Simple; tuning.cc). */
struct cat_transport {
	char name[NCF_NAME_MAX];
	double efficiency;     /* 0..1 of the line rate */
	double latency_us;
	bool host_staged;      /* bytes go through host memory (no GPUDirect RDMA) */
	char source[NCF_SOURCE_MAX];
};

struct cat_switch {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX], asic[24];
	int protocol;
	int ports;             /* logical ports at port_speed_gbps */
	int port_speed_gbps;
	int cages;             /* physical cages (twin-port OSFP: 2 ports per cage) */
	int max_breakout;      /* how many slower ports one port may split into */
	bool sharp;
	bool adaptive_routing; /* picks each packet's egress among equal paths (IB AR, Spectrum-X) */
	double power_W, rack_units;
	char source[NCF_SOURCE_MAX];
};

struct cat_cable {
	char name[NCF_NAME_MAX], part[NCF_NAME_MAX], form_factor[40];
	int media, speed_gbps;
	double reach_m, power_W;
	char source[NCF_SOURCE_MAX];
};

struct cat_server {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	char gpu[NCF_NAME_MAX], scaleup[NCF_NAME_MAX], nic[NCF_NAME_MAX];
	int gpus, cpu, compute_nics;
	double power_W, rack_units;
	char source[NCF_SOURCE_MAX];
};

struct catalog {
	struct vec gpus, fabrics, nics, switches, cables, servers, transports;
};

extern const struct schema catalog_schema, cat_gpu_schema, cat_fabric_schema, cat_nic_schema,
	cat_switch_schema, cat_cable_schema, cat_server_schema, cat_transport_schema;
extern const char *const fabric_kind_names[], *const protocol_names[], *const media_names[],
	*const cpu_vendor_names[], *const pcie_p2p_names[], *const gpu_form_names[];

/* Lookups by name; NULL when absent. */
const struct cat_gpu *catalog_gpu(const struct catalog *c, const char *name);
const struct cat_fabric *catalog_fabric(const struct catalog *c, const char *name);
const struct cat_nic *catalog_nic(const struct catalog *c, const char *name);
const struct cat_switch *catalog_switch(const struct catalog *c, const char *name);
const struct cat_cable *catalog_cable(const struct catalog *c, const char *name);
const struct cat_server *catalog_server(const struct catalog *c, const char *name);
const struct cat_transport *catalog_transport(const struct catalog *c, const char *name);
/* The transport a NIC of protocol p uses when nothing names one: infiniband "ib", roce
 * "roce", efa "efa", ethernet "sockets" (no RDMA: NCCL's socket transport). */
const char *transport_for(int protocol);

/* dst = base with every entry of over added, or replacing base's entry of the same name.
 * dst must own nothing; base and over are not changed. */
void catalog_merge(struct catalog *dst, const struct catalog *base, const struct catalog *over);
void catalog_free(struct catalog *c);

/* The cable a link of this speed and media would use (the first match), or NULL. */
const struct cat_cable *catalog_cable_for(const struct catalog *c, int speed_gbps, int media);

#endif
