/* export_astra.c: ASTRA-sim's analytical network backend: a network YAML and a system JSON.
 *
 * What the backend reads (astra-sim/astra-network-analytical, common/network-parser and
 * the congestion-unaware topologies; astra-sim/astra-sim, astra-sim/system/Sys.cc):
 *   network: topology, npus_count, bandwidth, latency, four lists of one entry per
 *   dimension, innermost first. topology is Ring, FullyConnected or Switch; npus_count an
 *   integer above 1; bandwidth in GB/s where the backend's GB is 2^30 bytes (it converts
 *   with bw * 2^30 / 10^9 to bytes per ns); latency in ns per hop, and a Switch dimension
 *   counts two hops (NPU to switch to NPU), FullyConnected one;
 *   system: one collective implementation per dimension for each collective (ring,
 *   doubleBinaryTree, direct, halvingDoubling, ...), local-mem-bw in 10^9 B/s.
 * The design becomes: the node (its GPUs on NVLink or PCIe) as dimension 0, then the
 * scale-out fabric as one Switch dimension, split where a tier is oversubscribed into
 * the nodes under one switch of that tier and the rest at the tier's reduced bandwidth.
 * Latency per dimension is the per-step hardware latency ncfabric's model takes from NCCL
 * (collective-model.md section 3.2, hwLat, Ring/Simple: NVLink 3.4 us, PCIe 5.7 us,
 * network 14 us), divided by the hops the building block counts.
 * Refused only when the backend cannot express the design: nodes that differ (its
 * topology is symmetric), nodes that cannot reach each other, a single GPU. */
#include "io/export.h"
#include "io/codec.h"
#include "io/export_write.h"
#include "io/model_view.h"
#include "io/strbuf.h"
#include "model/nccl.h"
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASTRA_GIB (1024.0 * 1024.0 * 1024.0)
/* NCCL's hardware latency per ring step, Simple protocol, us (collective-model.md 3.2),
 * from the model's own table. */
#define LAT_NVLINK_US nccl_ring_step_us(NCCL_HW_NVLINK)
#define LAT_PCI_US nccl_ring_step_us(NCCL_HW_PCI)
#define LAT_NET_US nccl_ring_step_us(NCCL_HW_NET)
#define ASTRA_DIMS 8

struct adim {
	const char *topology;   /* Switch, FullyConnected */
	long npus;
	double GBps;            /* 10^9 B/s per NPU and direction */
	double step_us;         /* latency of one step of the model */
	char what[160];
};

static int hops(const char *topology)
{
	return strcmp(topology, "Switch") == 0 ? 2 : 1;
}

static struct tnode *plain(const char *s)
{
	return tnode_scalar(s, false);
}

static struct tnode *number(double v)
{
	char buf[40];
	return tnode_scalar(num_format(v, buf, sizeof buf), false);
}

static void add_dim(struct adim *dims, int *n, const char *topo, long npus, double GBps, double step_us, const char *what)
{
	if (npus < 2 || *n >= ASTRA_DIMS)
		return;
	dims[*n].topology = topo;
	dims[*n].npus = npus;
	dims[*n].GBps = GBps;
	dims[*n].step_us = step_us;
	snprintf(dims[*n].what, sizeof dims[*n].what, "%s", what);
	(*n)++;
}

bool export_astra(const struct design *d, const struct catalog *cat, const char *prefix, char *err, size_t errsz)
{
	struct model_view mv;
	struct adim dims[ASTRA_DIMS];
	int nd = 0, i, t;
	struct strbuf hdr = { 0 };
	struct tnode *root, *topo, *npus, *bw, *lat;
	char path[1100], *yml = NULL, *json = NULL, *body, what[160];
	const struct server_group *g0 = d->servers.n ? DESIGN_SERVER(d, 0) : NULL;
	const struct cat_fabric *sf = g0 ? catalog_fabric(cat, g0->scaleup) : NULL;
	const struct cat_gpu *gpu = g0 ? catalog_gpu(cat, g0->gpu) : NULL;
	bool approx = false, ok;
	cJSON *sys, *arr;
	const char *intra_topo;
	model_view_compute(d, cat, &mv);
	if (mv.heterogeneous) {
		snprintf(err, errsz, "ASTRA-sim's analytical network is symmetric (every NPU alike): this job spans server groups "
				     "that differ (%s)", mv.note);
		return false;
	}
	if (mv.nodes > 1 && !mv.connected) {
		snprintf(err, errsz, "the design's nodes do not reach each other through the switches: %s", mv.note);
		return false;
	}
	if ((long)mv.gpus_per_node * mv.nodes < 2) {
		snprintf(err, errsz, "ASTRA-sim needs at least 2 NPUs; the job has one GPU");
		return false;
	}
	/* Dimension 0: the node. */
	intra_topo = sf && (sf->kind == FAB_NVLINK_BRIDGE || sf->kind == FAB_NVLINK_MESH) ? "FullyConnected" : "Switch";
	snprintf(what, sizeof what, "the %s: %d GPUs on %s", mv.domain_node ? "NVLink domain" : "server", mv.gpus_per_node,
		 mv.nvlink ? "NVLink (per GPU as NCCL counts it)" : "PCIe");
	add_dim(dims, &nd, intra_topo, mv.gpus_per_node, mv.intra_GBps, mv.nvlink ? LAT_NVLINK_US : LAT_PCI_US, what);
	/* The scale-out fabric, split at oversubscribed tiers. */
	if (mv.nodes > 1) {
		double per = mv.gpus_per_node > 0 ? mv.node_GBps / mv.gpus_per_node : mv.node_GBps, cur = per;
		long prev = 1, n = mv.nodes;
		int start = nd;
		for (t = 0; t < mv.ntiers; t++) {
			long m = lround(mv.tiers[t].nodes_under);
			if (mv.tiers[t].ratio <= 1.0 + 1e-9)
				continue;
			if (approx || m <= prev || m >= n || m % prev || n % m || fabs(mv.tiers[t].nodes_under - (double)m) > 1e-9) {
				approx = true;
				continue;
			}
			snprintf(what, sizeof what, "nodes under one %s switch (%s), %.3g GB/s per GPU", switch_role_names[mv.tiers[t].role],
				 mv.tiers[t].group, cur);
			add_dim(dims, &nd, "Switch", m / prev, cur, LAT_NET_US, what);
			prev = m;
			cur /= mv.tiers[t].ratio;
		}
		if (approx) {
			/* The tier does not split the nodes into equal groups (a rail leaf joins
			 * them all): one dimension at the node's own share; the comment says what
			 * is not seen. */
			nd = start;
			snprintf(what, sizeof what, "the scale-out fabric, %ld nodes, %.3g GB/s per GPU (the node's %.1f GB/s over %d GPUs)",
				 n, per, mv.node_GBps, mv.gpus_per_node);
			add_dim(dims, &nd, "Switch", n, per, LAT_NET_US, what);
		} else {
			snprintf(what, sizeof what, "the scale-out fabric%s, %.3g GB/s per GPU (the node's %.1f GB/s over %d GPUs%s)",
				 prev > 1 ? " across those groups" : "", cur, mv.node_GBps, mv.gpus_per_node,
				 prev > 1 ? ", divided by the oversubscription" : "");
			add_dim(dims, &nd, "Switch", n / prev, cur, LAT_NET_US, what);
		}
	}
	if (nd == 0) {
		snprintf(err, errsz, "ASTRA-sim needs a dimension of at least 2 NPUs");
		return false;
	}

	sb_printf(&hdr, "# %s of %s for ASTRA-sim's analytical network backend.\n", EXPORT_MARK, d->name);
	{
		const char *base = strrchr(prefix, '/');
		sb_printf(&hdr, "# Dimensions, innermost first (%s.system.json names one collective implementation per dimension):\n",
			  base ? base + 1 : prefix);
	}
	for (i = 0; i < nd; i++)
		sb_printf(&hdr, "#   %d: %s x %ld, %s\n", i, dims[i].topology, dims[i].npus, dims[i].what);
	sb_printf(&hdr, "# bandwidth: per NPU and direction in GB/s as the backend reads them, 2^30 bytes per GB (it converts\n"
			"#   with bw * 2^30 / 10^9): ncfabric's 10^9-byte figures times 10^9 / 2^30 = 0.9313.\n");
	sb_printf(&hdr, "# latency: ns per hop. A Switch dimension counts two hops, so each is half the per-step latency\n"
			"#   ncfabric's model takes from NCCL (Ring, Simple: NVLink %g us, PCIe %g us, network %g us).\n",
		  LAT_NVLINK_US, LAT_PCI_US, LAT_NET_US);
	sb_printf(&hdr, "# Not seen by the analytical backend:\n");
	if (mv.hashed && mv.nodes > 1)
		sb_printf(&hdr, "#   - static path choice %s%s: %s;\n"
				"#     the collisions cost bandwidth in ncfabric's model (congestion), not here;\n",
			  mv.hashed_at[0] ? "at the uplinks of " : "in a LAG of the servers' links", mv.hashed_at,
			  !mv.hashed_at[0] ? "each flow hashed onto one member"
			  : mv.hashed_ib   ? "InfiniBand's static routing, one uplink per destination"
					   : "ECMP, each flow hashed onto one uplink");
	for (t = 0; t < mv.ntiers; t++)
		if (mv.tiers[t].ratio > 1.0 + 1e-9)
			sb_printf(&hdr, "#   - oversubscription %.3g:1 at the %s tier: %s;\n", mv.tiers[t].ratio,
				  switch_role_names[mv.tiers[t].role],
				  approx ? "not seen (the tier does not split the job's nodes into equal groups, so the fabric is one dimension)"
					 : "only as the lower bandwidth of the dimension above it, not as contention");
	sb_printf(&hdr, "#   - ECMP collisions and adaptive routing across switch tiers, rail alignment and PXN;\n"
			"#   - in-network reduction (NVLS, SHARP) and the NIC's PCIe path;\n"
			"#   - NCCL's protocol choice and channel count (the model's algorithm for AllReduce: %s).\n",
		  mv.allreduce_algo);

	root = tnode_new(TN_MAP, 0, 0);
	topo = tnode_new(TN_SEQ, 0, 0);
	npus = tnode_new(TN_SEQ, 0, 0);
	bw = tnode_new(TN_SEQ, 0, 0);
	lat = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < nd; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "%ld", dims[i].npus);
		tnode_add(topo, NULL, 0, 0, plain(dims[i].topology));
		tnode_add(npus, NULL, 0, 0, plain(buf));
		tnode_add(bw, NULL, 0, 0, number(round(dims[i].GBps * 1e9 / ASTRA_GIB * 1e6) / 1e6));
		tnode_add(lat, NULL, 0, 0, number(round(dims[i].step_us * 1000.0 / hops(dims[i].topology) * 100) / 100));
	}
	tnode_add(root, "topology", 0, 0, topo);
	tnode_add(root, "npus_count", 0, 0, npus);
	tnode_add(root, "bandwidth", 0, 0, bw);
	tnode_add(root, "latency", 0, 0, lat);
	body = tree_to_yaml(root);
	tnode_free(root);
	if (body) {
		sb_printf(&hdr, "%s", body);
		free(body);
		yml = sb_take(&hdr);
	} else {
		free(sb_take(&hdr));
		snprintf(err, errsz, "the YAML emitter failed");
		return false;
	}

	sys = cJSON_CreateObject();
	snprintf(what, sizeof what, "%s of %s (network: %s.network.yml)", EXPORT_MARK, d->name, prefix);
	cJSON_AddStringToObject(sys, "ncfabric-export", what);
	cJSON_AddStringToObject(sys, "scheduling-policy", "LIFO");
	cJSON_AddNumberToObject(sys, "endpoint-delay", 10);
	cJSON_AddNumberToObject(sys, "active-chunks-per-dimension", 1);
	cJSON_AddNumberToObject(sys, "preferred-dataset-splits", 4);
	{
		static const char *const keys[] = { "all-reduce-implementation", "all-gather-implementation",
						    "reduce-scatter-implementation", "all-to-all-implementation" };
		int k;
		for (k = 0; k < 4; k++) {
			arr = cJSON_AddArrayToObject(sys, keys[k]);
			for (i = 0; i < nd; i++) {
				const char *impl = "ring";
				if (k == 3)
					impl = "direct";
				else if (k == 0 && i > 0 && mv.allreduce_tree)
					impl = "doubleBinaryTree";
				cJSON_AddItemToArray(arr, cJSON_CreateString(impl));
			}
		}
	}
	cJSON_AddStringToObject(sys, "collective-optimization", "localBWAware");
	cJSON_AddNumberToObject(sys, "local-mem-bw", gpu && gpu->memory_GBps > 0 ? gpu->memory_GBps : 1600);
	cJSON_AddNumberToObject(sys, "boost-mode", 0);
	json = json_print_free(sys);
	if (!json) {
		free(yml);
		snprintf(err, errsz, "cannot print the system JSON");
		return false;
	}
	/* Both files are checked before either is written. */
	ok = true;
	snprintf(path, sizeof path, "%s.system.json", prefix);
	if (!export_may_replace(path, err, errsz)) {
		ok = false;
	} else if (!export_owns(path, EXPORT_MARK)) {
		snprintf(err, errsz, "%s exists and was not written by an ncfabric export: move it away or choose another -o", path);
		ok = false;
	}
	snprintf(path, sizeof path, "%s.network.yml", prefix);
	ok = ok && export_write(path, yml, EXPORT_MARK, err, errsz);
	if (ok) {
		snprintf(path, sizeof path, "%s.system.json", prefix);
		ok = export_write(path, json, EXPORT_MARK, err, errsz);
	}
	free(yml);
	free(json);
	return ok;
}
