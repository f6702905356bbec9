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
/* A cable's, fibre's or module's name in the cable plan: a catalog name, or what the part
 * must be ("800G twin-port osfp transceiver (finned top, smf, not in the catalog)"). */
#define CP_NAME_MAX (NCF_NAME_MAX + 80)
#define NCF_SOURCE_MAX 512
#define NCF_NETBOX_MAX 64

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
enum fibre_mode { FIBRE_MMF, FIBRE_SMF };

/* How a part appears in NetBox's community device-type library (netbox-community/
 * devicetype-library), so that an export loads into an instance seeded from it. An empty
 * file means the library has no such part and the export writes its own type. Interface
 * name formats take {cage} (1-based) and {cage0} (0-based) for the physical cage, {lane}
 * and {lane1} for the logical port within the cage, {sub} and {sub1} for a breakout
 * sub-port and {subl} for its first lane of eight (1, 5 for two; 1, 3, 5, 7 for four). */
struct netbox_map {
	char manufacturer[NCF_NETBOX_MAX], model[NCF_NETBOX_MAX], slug[NCF_NETBOX_MAX];
	char file[NCF_NETBOX_MAX + 32]; /* path in the library, e.g. device-types/Nvidia/QM9700.yaml */
	char port[NCF_NETBOX_MAX];      /* interface name of a logical port */
	char split[NCF_NETBOX_MAX];     /* interface name of a breakout sub-port */
	char missing[NCF_SOURCE_MAX];   /* interfaces the library's file lacks, space-separated */
};

/* A list price a public source states (catalog data, never estimated): amount in US
 * dollars, the source, and the date the source gives it (YYYY-MM-DD). usd 0: none known. */
struct cat_price {
	double usd;
	char source[NCF_SOURCE_MAX];
	char date[16];
};

/* One orderable length of a cable or fibre. */
struct cat_length {
	double m;
	char part[NCF_NAME_MAX];        /* ordering part number of that length; "" when not read */
};

struct cat_gpu {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int sm;                /* compute capability x 10 (80 = A100), selects NCCL's constants */
	int nvlink_gen, nvlink_links;
	double nvlink_link_GBps; /* per link, per direction, line rate */
	int pcie_gen, pcie_lanes;
	int pcie_p2p;          /* enum pcie_p2p */
	int form;              /* enum gpu_form: an SXM/OAM module (NVSwitch) or a PCIe card (bridges) */
	double bf16_tflops, memory_GB, memory_GBps, power_W;
	char source[NCF_SOURCE_MAX];
};

struct cat_fabric {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int kind, generation;
	bool nvls;             /* in-switch reduction (NVLink SHARP) */
	int chips, max_gpus;   /* switch chips per server or tray; GPUs one instance joins */
	int pcie_gen, pcie_lanes; /* PCIe switch: the uplink to the CPU */
	double power_W, rack_units;
	struct netbox_map netbox; /* switch trays: the NetBox device type */
	struct cat_price list_price; /* a stated list price, or none */
	char source[NCF_SOURCE_MAX];
};

struct cat_nic {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	int speed_gbps, ports, protocol, pcie_gen, pcie_lanes;
	bool sharp;
	bool adaptive_routing; /* takes packets out of order: adaptive routing or spraying */
	char transport[NCF_NAME_MAX]; /* catalog transport; empty: by protocol (transport_for) */
	double latency_us;     /* latency the NCCL net plugin reports; 0: the transport's */
	double power_W, power_max_W; /* typical and maximum */
	char cage[16], top[8];       /* cage of each port (osfp, qsfp112, ...); flat or finned */
	struct netbox_map netbox;    /* module type (NICs are modules in NetBox) */
	struct cat_price list_price; /* a stated list price, or none */
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
	double power_W, power_max_W, rack_units; /* typical and maximum power */
	char cage[16], top[8]; /* cage form factor; flat or finned top */
	int psus;              /* power supplies, for the NetBox type */
	char psu_inlet[24];    /* NetBox power-port type of each */
	double weight_kg;
	struct netbox_map netbox;
	struct cat_price list_price; /* a stated list price, or none */
	char source[NCF_SOURCE_MAX];
};

/* A cable (DAC, ACC, AOC: both ends fixed) or a transceiver (one module; fibre between
 * two of them). ports: links one plug carries (2 for a twin-port OSFP); split: plugs at the
 * far end of a cable (2 for a 1:2 splitter, 1 for a straight cable). */
struct cat_cable {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX], form_factor[40];
	int media, speed_gbps;
	double reach_m, power_W, power_max_W; /* power per end (module): typical, maximum */
	char cage[16], top[8];       /* this plug (or a cable's first end) */
	int ports;                   /* links per plug; 0 means 1 */
	int split;                   /* cables: plugs at the far end; 0 means 1 */
	char far_cage[16], far_top[8]; /* cables: the far end's plugs */
	int fibre;                   /* transceivers: enum fibre_mode */
	struct vec lengths;          /* cables: struct cat_length */
	struct cat_price list_price; /* a stated list price, or none */
	char source[NCF_SOURCE_MAX];
};

/* A fibre patch cord between two transceivers. split 2: a 1:2 splitter (one MPO to two). */
struct cat_fibre {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX], connector[40];
	int mode;                    /* enum fibre_mode */
	int split;                   /* 0 or 1 straight, 2 for 1:2 */
	double reach_m;
	struct vec lengths;          /* struct cat_length; empty: ncfabric's length classes */
	struct cat_price list_price; /* a stated list price, or none */
	char source[NCF_SOURCE_MAX];
};

struct cat_server {
	char name[NCF_NAME_MAX], vendor[24], part[NCF_NAME_MAX];
	char gpu[NCF_NAME_MAX], scaleup[NCF_NAME_MAX], nic[NCF_NAME_MAX];
	int gpus, cpu, compute_nics;
	double power_W, power_typ_W, rack_units; /* maximum and typical power */
	bool nics_included;          /* the compute NICs are built in (not ordered separately) */
	int nic_cages;               /* cages serving the compute NIC ports; 0: one per port */
	char nic_cage[16], nic_top[8];
	int psus;
	double psu_W;
	char psu_inlet[24];
	double weight_kg;
	struct netbox_map netbox;
	struct cat_price list_price; /* a stated list price, or none */
	char source[NCF_SOURCE_MAX];
};

struct catalog {
	struct vec gpus, fabrics, nics, switches, cables, servers, transports, fibres;
};

extern const struct schema catalog_schema, cat_gpu_schema, cat_fabric_schema, cat_nic_schema,
	cat_switch_schema, cat_cable_schema, cat_server_schema, cat_transport_schema, cat_fibre_schema,
	netbox_map_schema, cat_price_schema;
extern const char *const fabric_kind_names[], *const protocol_names[], *const media_names[],
	*const cpu_vendor_names[], *const pcie_p2p_names[], *const gpu_form_names[], *const fibre_mode_names[];

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
const struct cat_fibre *catalog_fibre(const struct catalog *c, const char *name);

/* dst = base with every entry of over added, or replacing base's entry of the same name.
 * dst must own nothing; base and over are not changed. */
void catalog_merge(struct catalog *dst, const struct catalog *base, const struct catalog *over);
/* The same in place: every entry of over added to c, or replacing c's entry of the same name
 * (the lists it changes made c's own first, vec.h). */
void catalog_merge_in(struct catalog *c, const struct catalog *over);
/* No parts at all (a design that brings none of its own). */
bool catalog_empty(const struct catalog *c);
void catalog_free(struct catalog *c);

/* The cable a link of this speed and media would use (the first match), or NULL. */
const struct cat_cable *catalog_cable_for(const struct catalog *c, int speed_gbps, int media);

#endif
