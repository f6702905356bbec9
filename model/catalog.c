#include "model/catalog.h"
#include <stddef.h>
#include <string.h>

const char *const fabric_kind_names[] = { "none", "nvswitch", "nvlink-bridge", "nvlink-mesh",
					   "pcie-switch", "nvswitch-tray", NULL };
const char *const protocol_names[] = { "infiniband", "roce", "ethernet", "efa", NULL };
const char *const media_names[] = { "auto", "dac", "acc", "aoc", "transceiver", NULL };
const char *const cpu_vendor_names[] = { "intel", "amd", "arm", "grace", "intel-broadwell",
					  "intel-sapphire-rapids", "intel-emerald-rapids", NULL };
const char *const pcie_p2p_names[] = { "supported", "unsupported", NULL };
const char *const gpu_form_names[] = { "module", "card", NULL };

bool cpu_is_intel(int cpu)
{
	return cpu == CPU_INTEL || cpu == CPU_INTEL_BDW || cpu == CPU_INTEL_SPR || cpu == CPU_INTEL_EMR;
}

double cpu_sys_GBps(int cpu)
{
	switch (cpu) {
	case CPU_INTEL_BDW:
		return 6.0;  /* BDW_QPI_BW */
	case CPU_INTEL_SPR:
		return 22.0; /* SRP_QPI_BW */
	case CPU_INTEL_EMR:
		return 40.0; /* ERP_QPI_BW */
	case CPU_AMD:
		return 16.0; /* AMD_BW */
	case CPU_ARM:
		return 6.0;  /* ARM_BW */
	case CPU_GRACE:
		return 40.0; /* not an x86 socket link; Grace pairs talk over NVLink-C2C (not modelled) */
	default:
		return 10.0; /* SKL_QPI_BW: Skylake to Ice Lake */
	}
}
const char *const fibre_mode_names[] = { "mmf", "smf", NULL };

#define SRC_HELP "public source of the figures (datasheet, vendor page)"

static const struct field netbox_fields[] = {
	F_STR(struct netbox_map, manufacturer, "manufacturer", FF_OPTIONAL, "manufacturer name in NetBox's device-type library"),
	F_STR(struct netbox_map, model, "model", FF_OPTIONAL, "model in the library"),
	F_STR(struct netbox_map, slug, "slug", FF_OPTIONAL, "slug in the library"),
	F_STR(struct netbox_map, file, "file", FF_OPTIONAL, "the library's file (empty: ncfabric writes its own type)"),
	F_STR(struct netbox_map, port, "port", FF_OPTIONAL, "interface name of a port: {cage} {cage0} {lane} {lane1}"),
	F_STR(struct netbox_map, split, "split", FF_OPTIONAL, "interface name of a breakout port: also {sub} {sub1} {subl}"),
	F_STR(struct netbox_map, missing, "missing", FF_OPTIONAL, "interfaces the library's file lacks"),
};
const struct schema netbox_map_schema = SCHEMA("NetBox mapping", struct netbox_map, netbox_fields, NULL);

static const struct field price_fields[] = {
	F_NUM(struct cat_price, usd, "usd", 0, 1e9, FF_REQUIRED, "the list price, US dollars (0: none stated)"),
	F_STR(struct cat_price, source, "source", FF_REQUIRED, "the public document that states it"),
	F_STR(struct cat_price, date, "date", FF_REQUIRED, "the date it was stated, YYYY-MM-DD"),
};
const struct schema cat_price_schema = SCHEMA("list price", struct cat_price, price_fields, NULL);

static const struct field length_fields[] = {
	F_NUM(struct cat_length, m, "m", 0.1, 100000, FF_REQUIRED, "length, m"),
	F_STR(struct cat_length, part, "part", FF_OPTIONAL, "ordering part number of this length"),
};
static const struct schema length_schema = SCHEMA("length", struct cat_length, length_fields, NULL);

static const struct field gpu_fields[] = {
	F_STR(struct cat_gpu, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_gpu, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_gpu, part, "part", FF_OPTIONAL, "part number"),
	F_INT(struct cat_gpu, sm, "sm", 0, 200, FF_REQUIRED, "compute capability x 10 (A100 = 80)"),
	F_INT(struct cat_gpu, nvlink_gen, "nvlink_gen", 0, 9, 0, "NVLink generation, 0 for none"),
	F_INT(struct cat_gpu, nvlink_links, "nvlink_links", 0, 64, 0, "NVLink links per GPU"),
	F_NUM(struct cat_gpu, nvlink_link_GBps, "nvlink_link_GBps", 0, 1000, 0,
	      "NVLink line rate per link and direction, GB/s"),
	F_INT(struct cat_gpu, pcie_gen, "pcie_gen", 1, 7, FF_REQUIRED, "PCIe generation of the host link"),
	F_INT(struct cat_gpu, pcie_lanes, "pcie_lanes", 1, 32, FF_REQUIRED, "PCIe lanes of the host link"),
	F_ENUM(struct cat_gpu, pcie_p2p, "pcie_p2p", pcie_p2p_names, FF_OPTIONAL,
	       "GPU peer-to-peer over PCIe: supported, or refused by the driver (GeForce)"),
	F_ENUM(struct cat_gpu, form, "form", gpu_form_names, FF_OPTIONAL,
	       "module (SXM/OAM, on an NVSwitch baseboard) or card (PCIe; NVLink only through a bridge)"),
	F_NUM(struct cat_gpu, bf16_tflops, "bf16_tflops", 0, 100000, 0, "dense BF16 tensor TFLOPS"),
	F_NUM(struct cat_gpu, memory_GB, "memory_GB", 0, 100000, 0, "memory, GB"),
	F_NUM(struct cat_gpu, memory_GBps, "memory_GBps", 0, 1e6, FF_OPTIONAL, "memory bandwidth, GB/s"),
	F_NUM(struct cat_gpu, power_W, "power_W", 0, 100000, 0, "maximum power, W"),
	F_STR(struct cat_gpu, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field fabric_fields[] = {
	F_STR(struct cat_fabric, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_fabric, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_fabric, part, "part", FF_OPTIONAL, "part number"),
	F_ENUM(struct cat_fabric, kind, "kind", fabric_kind_names, FF_REQUIRED, "kind of scale-up fabric"),
	F_INT(struct cat_fabric, generation, "generation", 0, 9, 0, "NVSwitch or NVLink generation"),
	F_BOOL(struct cat_fabric, nvls, "nvls", 0, "in-switch reduction (NVLink SHARP)"),
	F_INT(struct cat_fabric, chips, "chips", 0, 1024, 0, "switch chips per server or tray"),
	F_INT(struct cat_fabric, max_gpus, "max_gpus", 0, 1000000, 0, "GPUs one instance can join"),
	F_INT(struct cat_fabric, pcie_gen, "pcie_gen", 0, 7, 0, "PCIe switch: uplink generation"),
	F_INT(struct cat_fabric, pcie_lanes, "pcie_lanes", 0, 128, 0, "PCIe switch: uplink lanes"),
	F_NUM(struct cat_fabric, power_W, "power_W", 0, 1e6, 0, "power, W"),
	F_NUM(struct cat_fabric, rack_units, "rack_units", 0, 100, 0, "rack units (trays)"),
	F_STRUCT(struct cat_fabric, netbox, "netbox", &netbox_map_schema, FF_OPTIONAL, "NetBox device type (switch trays)"),
	F_STRUCT(struct cat_fabric, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_fabric, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field nic_fields[] = {
	F_STR(struct cat_nic, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_nic, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_nic, part, "part", FF_OPTIONAL, "part number (OPN)"),
	F_INT(struct cat_nic, speed_gbps, "speed_gbps", 1, 100000, FF_REQUIRED, "port speed, Gb/s"),
	F_INT(struct cat_nic, ports, "ports", 1, 16, FF_REQUIRED, "network ports"),
	F_ENUM(struct cat_nic, protocol, "protocol", protocol_names, FF_REQUIRED, "link protocol"),
	F_INT(struct cat_nic, pcie_gen, "pcie_gen", 1, 7, FF_REQUIRED, "PCIe generation"),
	F_INT(struct cat_nic, pcie_lanes, "pcie_lanes", 1, 64, FF_REQUIRED, "PCIe lanes"),
	F_BOOL(struct cat_nic, sharp, "sharp", 0, "takes part in in-network reduction (SHARP)"),
	F_BOOL(struct cat_nic, adaptive_routing, "adaptive_routing", FF_OPTIONAL,
	       "places packets that arrive out of order: adaptive routing, spraying (SRD)"),
	F_STR(struct cat_nic, transport, "transport", FF_OPTIONAL,
	      "catalog transport NCCL uses over it (empty: by protocol)"),
	F_NUM(struct cat_nic, latency_us, "latency_us", 0, 10000, FF_OPTIONAL,
	      "latency the NCCL net plugin reports, us (0: the transport's)"),
	F_NUM(struct cat_nic, power_W, "power_W", 0, 10000, 0, "typical power, W (0: not published)"),
	F_NUM(struct cat_nic, power_max_W, "power_max_W", 0, 10000, FF_OPTIONAL, "maximum power, W (0: not published)"),
	F_STR(struct cat_nic, cage, "cage", FF_OPTIONAL, "cage of each port: osfp, qsfp112, qsfp56, qsfp28"),
	F_STR(struct cat_nic, top, "top", FF_OPTIONAL, "flat or finned top of the plug it takes"),
	F_STRUCT(struct cat_nic, netbox, "netbox", &netbox_map_schema, FF_OPTIONAL, "NetBox module type"),
	F_STRUCT(struct cat_nic, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_nic, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field switch_fields[] = {
	F_STR(struct cat_switch, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_switch, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_switch, part, "part", FF_OPTIONAL, "part number"),
	F_STR(struct cat_switch, asic, "asic", FF_OPTIONAL, "switch ASIC"),
	F_ENUM(struct cat_switch, protocol, "protocol", protocol_names, FF_REQUIRED, "link protocol"),
	F_INT(struct cat_switch, ports, "ports", 1, 4096, FF_REQUIRED, "logical ports at port_speed_gbps"),
	F_INT(struct cat_switch, port_speed_gbps, "port_speed_gbps", 1, 100000, FF_REQUIRED, "port speed, Gb/s"),
	F_INT(struct cat_switch, cages, "cages", 0, 4096, 0, "physical cages"),
	F_INT(struct cat_switch, max_breakout, "max_breakout", 1, 8, 0, "slower ports one port may split into"),
	F_BOOL(struct cat_switch, sharp, "sharp", 0, "in-network reduction (SHARP)"),
	F_BOOL(struct cat_switch, adaptive_routing, "adaptive_routing", FF_OPTIONAL,
	       "chooses each packet's egress among equal paths (InfiniBand AR, Spectrum-X)"),
	F_NUM(struct cat_switch, power_W, "power_W", 0, 1e6, 0, "typical power, W (0: not published)"),
	F_NUM(struct cat_switch, power_max_W, "power_max_W", 0, 1e6, FF_OPTIONAL, "maximum power, W (0: not published)"),
	F_NUM(struct cat_switch, rack_units, "rack_units", 0, 100, 0, "rack units"),
	F_STR(struct cat_switch, cage, "cage", FF_OPTIONAL, "cage form factor: osfp, qsfp-dd, qsfp56, qsfp28"),
	F_STR(struct cat_switch, top, "top", FF_OPTIONAL, "finned (air-cooled) or flat (liquid-cooled) plugs"),
	F_INT(struct cat_switch, psus, "psus", 0, 16, FF_OPTIONAL, "power supplies"),
	F_STR(struct cat_switch, psu_inlet, "psu_inlet", FF_OPTIONAL, "NetBox power-port type of each supply"),
	F_NUM(struct cat_switch, weight_kg, "weight_kg", 0, 10000, FF_OPTIONAL, "weight, kg"),
	F_STRUCT(struct cat_switch, netbox, "netbox", &netbox_map_schema, FF_OPTIONAL, "NetBox device type"),
	F_STRUCT(struct cat_switch, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_switch, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field cable_fields[] = {
	F_STR(struct cat_cable, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_cable, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_cable, part, "part", FF_OPTIONAL, "part number"),
	F_STR(struct cat_cable, form_factor, "form_factor", FF_OPTIONAL, "connector (OSFP, QSFP56, ...)"),
	F_ENUM(struct cat_cable, media, "media", media_names, FF_REQUIRED, "dac, acc, aoc or transceiver"),
	F_INT(struct cat_cable, speed_gbps, "speed_gbps", 1, 100000, FF_REQUIRED, "link speed, Gb/s"),
	F_NUM(struct cat_cable, reach_m, "reach_m", 0, 100000, 0, "maximum reach, m"),
	F_NUM(struct cat_cable, power_W, "power_W", 0, 1000, 0, "typical power per end, W"),
	F_NUM(struct cat_cable, power_max_W, "power_max_W", 0, 1000, FF_OPTIONAL, "maximum power per end, W"),
	F_STR(struct cat_cable, cage, "cage", FF_OPTIONAL, "plug (first end of a cable): osfp, qsfp112, qsfp56, qsfp28"),
	F_STR(struct cat_cable, top, "top", FF_OPTIONAL, "flat or finned top of that plug (empty: either)"),
	F_INT(struct cat_cable, ports, "ports", 0, 16, FF_OPTIONAL, "links one plug carries (0: 1)"),
	F_INT(struct cat_cable, split, "split", 0, 16, FF_OPTIONAL, "cables: plugs at the far end (0: 1)"),
	F_STR(struct cat_cable, far_cage, "far_cage", FF_OPTIONAL, "cables: the far end's plug"),
	F_STR(struct cat_cable, far_top, "far_top", FF_OPTIONAL, "cables: flat or finned top of the far plugs"),
	F_ENUM(struct cat_cable, fibre, "fibre", fibre_mode_names, 0, "transceivers: mmf or smf"),
	F_LIST(struct cat_cable, lengths, "lengths", &length_schema, FF_OPTIONAL, "orderable lengths"),
	F_STRUCT(struct cat_cable, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_cable, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field server_fields[] = {
	F_STR(struct cat_server, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_server, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_server, part, "part", FF_OPTIONAL, "part number"),
	F_STR(struct cat_server, gpu, "gpu", FF_REQUIRED, "GPU (catalog name)"),
	F_INT(struct cat_server, gpus, "gpus", 0, 1024, FF_REQUIRED, "GPUs per server"),
	F_STR(struct cat_server, scaleup, "scaleup", FF_REQUIRED, "scale-up fabric (catalog name)"),
	F_STR(struct cat_server, nic, "nic", FF_OPTIONAL, "compute-fabric NIC (catalog name)"),
	F_INT(struct cat_server, compute_nics, "compute_nics", 0, 64, 0, "compute-fabric NICs"),
	F_ENUM(struct cat_server, cpu, "cpu", cpu_vendor_names, 0, "CPU vendor"),
	F_NUM(struct cat_server, power_W, "power_W", 0, 1e6, 0, "maximum power, W"),
	F_NUM(struct cat_server, power_typ_W, "power_typ_W", 0, 1e6, FF_OPTIONAL, "typical power, W (0: not published)"),
	F_NUM(struct cat_server, rack_units, "rack_units", 0, 100, 0, "rack units"),
	F_BOOL(struct cat_server, nics_included, "nics_included", FF_OPTIONAL, "the compute NICs are built in"),
	F_INT(struct cat_server, nic_cages, "nic_cages", 0, 64, FF_OPTIONAL, "cages serving the compute ports (0: one per port)"),
	F_STR(struct cat_server, nic_cage, "nic_cage", FF_OPTIONAL, "form factor of those cages"),
	F_STR(struct cat_server, nic_top, "nic_top", FF_OPTIONAL, "flat or finned top of the plugs they take"),
	F_INT(struct cat_server, psus, "psus", 0, 16, FF_OPTIONAL, "power supplies"),
	F_NUM(struct cat_server, psu_W, "psu_W", 0, 100000, FF_OPTIONAL, "rating of each supply, W"),
	F_STR(struct cat_server, psu_inlet, "psu_inlet", FF_OPTIONAL, "NetBox power-port type of each supply"),
	F_NUM(struct cat_server, weight_kg, "weight_kg", 0, 10000, FF_OPTIONAL, "weight, kg"),
	F_STRUCT(struct cat_server, netbox, "netbox", &netbox_map_schema, FF_OPTIONAL, "NetBox device type"),
	F_STRUCT(struct cat_server, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_server, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field transport_fields[] = {
	F_STR(struct cat_transport, name, "name", FF_REQUIRED, "catalog name"),
	F_NUM(struct cat_transport, efficiency, "efficiency", 0.01, 1, FF_REQUIRED,
	      "fraction of the line rate achieved on an idle path"),
	F_NUM(struct cat_transport, latency_us, "latency_us", 0, 10000, 0,
	      "latency the NCCL plugin reports, added to each network step, us"),
	F_BOOL(struct cat_transport, host_staged, "host_staged", FF_OPTIONAL, "bytes go through host memory (no GPUDirect RDMA)"),
	F_STR(struct cat_transport, source, "source", FF_REQUIRED, SRC_HELP),
};

static const struct field fibre_fields[] = {
	F_STR(struct cat_fibre, name, "name", FF_REQUIRED, "catalog name"),
	F_STR(struct cat_fibre, vendor, "vendor", FF_OPTIONAL, "manufacturer"),
	F_STR(struct cat_fibre, part, "part", FF_OPTIONAL, "part number (family)"),
	F_STR(struct cat_fibre, connector, "connector", FF_OPTIONAL, "connectors, e.g. MPO-12/APC"),
	F_ENUM(struct cat_fibre, mode, "mode", fibre_mode_names, FF_REQUIRED, "mmf or smf"),
	F_INT(struct cat_fibre, split, "split", 0, 8, FF_OPTIONAL, "1:N splitter (0 or 1: straight)"),
	F_NUM(struct cat_fibre, reach_m, "reach_m", 0, 100000, 0, "maximum length, m"),
	F_LIST(struct cat_fibre, lengths, "lengths", &length_schema, FF_OPTIONAL, "orderable lengths"),
	F_STRUCT(struct cat_fibre, list_price, "list_price", &cat_price_schema, FF_OPTIONAL, "a list price a public source states"),
	F_STR(struct cat_fibre, source, "source", FF_REQUIRED, SRC_HELP),
};

const struct schema cat_gpu_schema = SCHEMA("GPU", struct cat_gpu, gpu_fields, NULL);
const struct schema cat_transport_schema = SCHEMA("transport", struct cat_transport, transport_fields, NULL);
const struct schema cat_fabric_schema = SCHEMA("scale-up fabric", struct cat_fabric, fabric_fields, NULL);
const struct schema cat_nic_schema = SCHEMA("NIC", struct cat_nic, nic_fields, NULL);
const struct schema cat_switch_schema = SCHEMA("switch", struct cat_switch, switch_fields, NULL);
const struct schema cat_cable_schema = SCHEMA("cable", struct cat_cable, cable_fields, NULL);
const struct schema cat_server_schema = SCHEMA("server", struct cat_server, server_fields, NULL);
const struct schema cat_fibre_schema = SCHEMA("fibre", struct cat_fibre, fibre_fields, NULL);

static const struct field catalog_fields[] = {
	F_LIST(struct catalog, gpus, "gpus", &cat_gpu_schema, FF_OPTIONAL, "GPUs"),
	F_LIST(struct catalog, fabrics, "fabrics", &cat_fabric_schema, FF_OPTIONAL, "scale-up fabrics"),
	F_LIST(struct catalog, nics, "nics", &cat_nic_schema, FF_OPTIONAL, "NICs and DPUs"),
	F_LIST(struct catalog, switches, "switches", &cat_switch_schema, FF_OPTIONAL, "switches"),
	F_LIST(struct catalog, cables, "cables", &cat_cable_schema, FF_OPTIONAL, "cables and optics"),
	F_LIST(struct catalog, servers, "servers", &cat_server_schema, FF_OPTIONAL, "servers"),
	F_LIST(struct catalog, transports, "transports", &cat_transport_schema, FF_OPTIONAL,
	       "network transports NCCL uses (efficiency, latency)"),
	F_LIST(struct catalog, fibres, "fibres", &cat_fibre_schema, FF_OPTIONAL, "fibre patch cords"),
};

const struct schema catalog_schema = SCHEMA("catalog", struct catalog, catalog_fields, NULL);

/* Every catalog struct starts with its name. */
static const void *find(const struct vec *v, size_t size, const char *name)
{
	size_t i;
	if (!name)
		return NULL;
	for (i = 0; i < v->n; i++) {
		const char *el = (const char *)v->v + i * size;
		if (el[0] == name[0] && strcmp(el, name) == 0) /* the first byte rules most out, cheaply */
			return el;
	}
	return NULL;
}

const struct cat_gpu *catalog_gpu(const struct catalog *c, const char *name)
{
	return find(&c->gpus, sizeof(struct cat_gpu), name);
}
const struct cat_fabric *catalog_fabric(const struct catalog *c, const char *name)
{
	return find(&c->fabrics, sizeof(struct cat_fabric), name);
}
const struct cat_nic *catalog_nic(const struct catalog *c, const char *name)
{
	return find(&c->nics, sizeof(struct cat_nic), name);
}
const struct cat_switch *catalog_switch(const struct catalog *c, const char *name)
{
	return find(&c->switches, sizeof(struct cat_switch), name);
}
const struct cat_cable *catalog_cable(const struct catalog *c, const char *name)
{
	return find(&c->cables, sizeof(struct cat_cable), name);
}
const struct cat_server *catalog_server(const struct catalog *c, const char *name)
{
	return find(&c->servers, sizeof(struct cat_server), name);
}
const struct cat_transport *catalog_transport(const struct catalog *c, const char *name)
{
	return find(&c->transports, sizeof(struct cat_transport), name);
}

const char *transport_for(int protocol)
{
	switch (protocol) {
	case PROTO_INFINIBAND:
		return "ib";
	case PROTO_ROCE:
		return "roce";
	case PROTO_EFA:
		return "efa";
	default:
		return "sockets";
	}
}

const struct cat_fibre *catalog_fibre(const struct catalog *c, const char *name)
{
	return find(&c->fibres, sizeof(struct cat_fibre), name);
}

void catalog_merge(struct catalog *dst, const struct catalog *base, const struct catalog *over)
{
	schema_copy(&catalog_schema, dst, base);
	catalog_merge_in(dst, over);
}

void catalog_merge_in(struct catalog *c, const struct catalog *over)
{
	size_t i, j;
	for (i = 0; i < catalog_schema.nfields; i++) {
		const struct field *f = &catalog_schema.fields[i];
		struct vec *dv = field_list(f, c);
		const struct vec *ov = (const struct vec *)((const char *)over + f->off);
		size_t size = f->sub->size;
		if (ov->n)
			vec_own(dv, size);
		for (j = 0; j < ov->n; j++) {
			const char *el = (const char *)ov->v + j * size;
			char *hit = NULL;
			size_t k;
			for (k = 0; k < dv->n && !hit; k++)
				if (strcmp((char *)dv->v + k * size, el) == 0)
					hit = (char *)dv->v + k * size;
			if (hit) {
				schema_free(f->sub, hit);
				schema_copy(f->sub, hit, el);
			} else {
				schema_copy(f->sub, vec_push(dv, size), el);
			}
		}
	}
}

bool catalog_empty(const struct catalog *c)
{
	size_t i;
	for (i = 0; i < catalog_schema.nfields; i++)
		if (((const struct vec *)(const void *)((const char *)c + catalog_schema.fields[i].off))->n)
			return false;
	return true;
}

void catalog_free(struct catalog *c)
{
	schema_free(&catalog_schema, c);
}

const struct cat_cable *catalog_cable_for(const struct catalog *c, int speed_gbps, int media)
{
	size_t i;
	for (i = 0; i < c->cables.n; i++) {
		const struct cat_cable *k = &VEC_AT(c->cables, struct cat_cable, i);
		if (k->speed_gbps == speed_gbps && k->media == media)
			return k;
	}
	return NULL;
}
