/* export_files.c: the exports that write several files: ASTRA-sim and NetBox. */
#define _XOPEN_SOURCE 700
#include "io/export.h"
#include "io/design_io.h"
#include "model/alloc.h"
#include "model/inventory.h"
#include "io/strbuf.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool write_file(const char *path, const char *text, char *err, size_t errsz)
{
	return file_write_atomic(path, text, strlen(text), err, errsz);
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	int n;
	char *s;
	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* ---- ASTRA-sim ------------------------------------------------------------------------ */

static bool astra(const struct design *d, const struct catalog *cat, const char *prefix, char *err, size_t errsz)
{
	static struct metrics m;
	const struct fabric *f;
	const struct coll_result *ar;
	const struct algo_result *a;
	char path[1100], *yml, *json;
	int t, G, n;
	double intra, inter;
	bool ok;
	const char *impl_net;
	if (d->servers.n != 1) {
		snprintf(err, errsz, "ASTRA-sim's analytical network is symmetric: this design has %zu server groups, not one",
			 d->servers.n);
		return false;
	}
	metrics_compute(d, cat, 1024.0 * 1024 * 1024, 0, &m);
	f = &m.fabric;
	if (!f->connected) {
		snprintf(err, errsz, "the design's nodes are not joined by the switches: %s", f->note);
		return false;
	}
	for (t = 0; t < f->ntiers; t++)
		if (f->tiers[t].ratio > 1.0 + 1e-9) {
			snprintf(err, errsz,
				 "ASTRA-sim's analytical backend has no oversubscription: %s is %.3g:1 (it would be exported as non-blocking)",
				 switch_role_names[f->tiers[t].role], f->tiers[t].ratio);
			return false;
		}
	G = f->node.ppn;
	n = f->node.nnodes;
	intra = f->node.nvl > 0 ? f->node.nvl : f->node.pci_intra;
	inter = G > 0 ? f->node_ceiling_GBps / G : 0;
	ar = &m.colls[COLL_ALLREDUCE];
	a = coll_pick(ar, d->job.algo);
	impl_net = a->available && a - ar->algo == UA_TREE ? "doubleBinaryTree" : "ring";
	if (n > 1 && G > 1) {
		yml = fmt("# ncfabric export of %s for ASTRA-sim's analytical network backend.\n"
			  "# Dimension 0 is the %s (%d GPUs on %s), dimension 1 the scale-out fabric (%d nodes).\n"
			  "# Its non-blocking Clos is a Switch dimension; bandwidth is per NPU and direction in GB/s:\n"
			  "# NVLink as NCCL counts it, and the node's %.1f GB/s of NICs shared by its %d GPUs.\n"
			  "# Latencies are ncfabric's assumptions (500 ns in the node, 2000 ns across the network).\n"
			  "topology: [ Switch, Switch ]\nnpus_count: [ %d, %d ]\nbandwidth: [ %.4g, %.4g ]\nlatency: [ 500.0, 2000.0 ]\n",
			  d->name, f->domain_node ? "NVLink domain" : "server", G, f->node.nvl > 0 ? "NVLink" : "PCIe", n,
			  f->node_ceiling_GBps, G, G, n, intra, inter);
		json = fmt("{\n  \"scheduling-policy\": \"LIFO\",\n  \"endpoint-delay\": 10,\n"
			   "  \"active-chunks-per-dimension\": 1,\n  \"preferred-dataset-splits\": 4,\n"
			   "  \"all-reduce-implementation\": [\"ring\", \"%s\"],\n"
			   "  \"all-gather-implementation\": [\"ring\", \"ring\"],\n"
			   "  \"reduce-scatter-implementation\": [\"ring\", \"ring\"],\n"
			   "  \"all-to-all-implementation\": [\"direct\", \"direct\"],\n"
			   "  \"collective-optimization\": \"localBWAware\",\n  \"local-mem-bw\": 1600,\n  \"boost-mode\": 0\n}\n",
			   impl_net);
	} else {
		int npus = n > 1 ? n : G;
		double bw = n > 1 ? inter : intra;
		if (npus < 2) {
			snprintf(err, errsz, "ASTRA-sim needs at least 2 NPUs; the job has one GPU");
			return false;
		}
		yml = fmt("# ncfabric export of %s for ASTRA-sim's analytical network backend: one dimension of %d NPUs.\n"
			  "topology: [ Switch ]\nnpus_count: [ %d ]\nbandwidth: [ %.4g ]\nlatency: [ %s ]\n",
			  d->name, npus, npus, bw, n > 1 ? "2000.0" : "500.0");
		json = fmt("{\n  \"scheduling-policy\": \"LIFO\",\n  \"endpoint-delay\": 10,\n"
			   "  \"active-chunks-per-dimension\": 1,\n  \"preferred-dataset-splits\": 4,\n"
			   "  \"all-reduce-implementation\": [\"%s\"],\n  \"all-gather-implementation\": [\"ring\"],\n"
			   "  \"reduce-scatter-implementation\": [\"ring\"],\n  \"all-to-all-implementation\": [\"direct\"],\n"
			   "  \"collective-optimization\": \"localBWAware\",\n  \"local-mem-bw\": 1600,\n  \"boost-mode\": 0\n}\n",
			   n > 1 ? impl_net : "ring");
	}
	snprintf(path, sizeof path, "%s.network.yml", prefix);
	ok = write_file(path, yml, err, errsz);
	if (ok) {
		snprintf(path, sizeof path, "%s.system.json", prefix);
		ok = write_file(path, json, err, errsz);
	}
	free(yml);
	free(json);
	return ok;
}

/* ---- NetBox --------------------------------------------------------------------------- */

static void slug(const char *vendor, const char *model, char *out, size_t size)
{
	size_t o = 0;
	const char *parts[2] = { vendor, model };
	int k;
	for (k = 0; k < 2; k++) {
		const char *p = parts[k];
		if (!p || !*p)
			continue;
		if (o && o + 1 < size && out[o - 1] != '-')
			out[o++] = '-';
		for (; *p && o + 1 < size; p++) {
			char c = (char)tolower((unsigned char)*p);
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
				out[o++] = c;
			else if (o && out[o - 1] != '-')
				out[o++] = '-';
		}
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
}

static const char *iface_type(int gbps, int protocol)
{
	if (protocol == PROTO_INFINIBAND)
		return gbps >= 800 ? "infiniband-xdr" : gbps >= 400 ? "infiniband-ndr" : gbps >= 200 ? "infiniband-hdr" : "infiniband-edr";
	return gbps >= 800 ? "800gbase-x-osfp" : gbps >= 400 ? "400gbase-x-osfp" : gbps >= 200 ? "200gbase-x-qsfp56"
	       : gbps >= 100 ? "100gbase-x-qsfp28" : gbps >= 25 ? "25gbase-x-sfp28" : "10gbase-x-sfpp";
}

static const char *cable_type(int media, bool single_mode)
{
	switch (media) {
	case MEDIA_DAC: return "dac-passive";
	case MEDIA_ACC: return "dac-active";
	case MEDIA_AOC: return "aoc";
	default: return single_mode ? "smf-os2" : "mmf-om4";
	}
}

static const char *role_label(int kind, int role)
{
	static const char *const roles[] = { "Leaf Switch", "Spine Switch", "Core Switch" };
	return kind == GK_SERVER ? "GPU Server" : roles[role];
}

/* Member name: group-0001, wide enough for the group's count. */
static void member(char *out, size_t size, const char *group, long count, long i)
{
	int w = count >= 100000 ? 6 : count >= 10000 ? 5 : count >= 1000 ? 4 : count >= 100 ? 3 : 2;
	snprintf(out, size, "%.46s-%0*ld", group, w, i + 1);
}

struct nb_type {
	char vendor[24], model[NCF_NAME_MAX], slug[120];
};

static bool netbox(const struct design *d, const struct catalog *cat, const char *dir, char *err, size_t errsz)
{
	char path[1200], f1[200], f2[200], f3[200];
	struct vec types = { 0 };
	struct strbuf dev = { 0 }, cab = { 0 };
	size_t i, k;
	long *port_next = NULL;     /* per to-member: next down port */
	long *up_next = NULL;       /* per from-member switch: next up port */
	bool ok = true;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errsz, "cannot create %s: %s", dir, strerror(errno));
		return false;
	}
	snprintf(path, sizeof path, "%s/device-types", dir);
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errsz, "cannot create %s: %s", path, strerror(errno));
		return false;
	}
	/* Device types: one YAML per server and switch model used. */
	for (i = 0; i < d->servers.n + d->switches.n && ok; i++) {
		struct nb_type *t;
		char *yml, ifaces[65536];
		size_t used = 0;
		double ru = 1;
		int p, nports = 0;
		const char *vendor = "Generic", *model;
		if (i < d->servers.n) {
			const struct server_group *g = DESIGN_SERVER(d, i);
			const struct cat_server *s = catalog_server(cat, g->model);
			model = g->model[0] ? g->model : g->gpu;
			if (s && s->vendor[0])
				vendor = s->vendor;
			if (s && s->rack_units > 0)
				ru = s->rack_units;
			for (k = 0; k < g->nics.n; k++) {
				const struct nic_spec *ns = &VEC_AT(g->nics, struct nic_spec, k);
				const struct cat_nic *c = catalog_nic(cat, ns->model);
				for (p = 0; c && p < ns->count * c->ports && used < sizeof ifaces - 100; p++)
					used += (size_t)snprintf(ifaces + used, sizeof ifaces - used, "  - name: nic%d\n    type: %s\n",
								 ++nports, iface_type(nic_speed_gbps(ns, c), c->protocol));
			}
		} else {
			const struct switch_group *sw = DESIGN_SWITCH(d, i - d->servers.n);
			const struct cat_switch *c = catalog_switch(cat, sw->model);
			model = sw->model;
			if (c && c->vendor[0])
				vendor = c->vendor;
			if (c && c->rack_units > 0)
				ru = c->rack_units;
			for (p = 0; c && p < c->ports * sw->breakout && used < sizeof ifaces - 100; p++)
				used += (size_t)snprintf(ifaces + used, sizeof ifaces - used, "  - name: p%d\n    type: %s\n", p + 1,
							 iface_type(switch_port_gbps(sw, c), c->protocol));
		}
		for (k = 0; k < types.n; k++)
			if (strcmp(VEC_AT(types, struct nb_type, k).model, model) == 0)
				break;
		if (k < types.n)
			continue;
		t = vec_push(&types, sizeof *t);
		snprintf(t->vendor, sizeof t->vendor, "%s", vendor);
		snprintf(t->model, sizeof t->model, "%s", model);
		slug(vendor, model, t->slug, sizeof t->slug);
		yml = fmt("---\nmanufacturer: %s\nmodel: %s\nslug: %s\nu_height: %g\nis_full_depth: true\ninterfaces:\n%s", vendor,
			  model, t->slug, ru, used ? ifaces : "  []\n");
		if (!used) {
			free(yml);
			yml = fmt("---\nmanufacturer: %s\nmodel: %s\nslug: %s\nu_height: %g\nis_full_depth: true\n", vendor, model,
				  t->slug, ru);
		}
		snprintf(path, sizeof path, "%s/device-types/%s.yaml", dir, t->slug);
		ok = write_file(path, yml, err, errsz);
		free(yml);
	}
	/* Devices and cables, built in memory and written atomically like every save. */
	if (ok) {
		sb_printf(&dev, "name,role,manufacturer,device_type,site,status\n");
		for (i = 0; i < d->servers.n + d->switches.n; i++) {
			const char *group, *model, *vendor = "Generic";
			long count, j;
			int kind, role = 0;
			if (i < d->servers.n) {
				const struct server_group *g = DESIGN_SERVER(d, i);
				const struct cat_server *s = catalog_server(cat, g->model);
				group = g->name;
				model = g->model[0] ? g->model : g->gpu;
				count = g->count;
				kind = GK_SERVER;
				if (s && s->vendor[0])
					vendor = s->vendor;
			} else {
				const struct switch_group *sw = DESIGN_SWITCH(d, i - d->servers.n);
				const struct cat_switch *c = catalog_switch(cat, sw->model);
				group = sw->name;
				model = sw->model;
				count = sw->count;
				kind = GK_SWITCH;
				role = sw->role;
				if (c && c->vendor[0])
					vendor = c->vendor;
			}
			for (j = 0; j < count; j++) {
				char name[NCF_NAME_MAX + 40];
				member(name, sizeof name, group, count, j);
				sb_printf(&dev, "%s,%s,%s,%s,dc1,planned\n", csv_field(name, f1, sizeof f1), role_label(kind, role),
					csv_field(vendor, f2, sizeof f2), csv_field(model, f3, sizeof f3));
			}
		}
		sb_printf(&cab, "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status\n");
		for (i = 0; i < d->bundles.n; i++) {
			const struct bundle *b = DESIGN_BUNDLE(d, i);
			long a = design_group_count(d, b->from), z = design_group_count(d, b->to), L = b->links_each, s, j;
			long units = b->wiring == WIRE_RAIL ? (z / L > 1 ? z / L : 1) : 1, per_unit = (a + units - 1) / units;
			long first_nic = 0, down_before = 0, dn, upl;
			size_t gi;
			int media = bundle_media(d, b);
			bool from_switch = design_find(d, b->from, &gi) == GK_SWITCH;
			/* Ports the from-side members already used in earlier bundles. */
			for (k = 0; k < i; k++)
				if (strcmp(DESIGN_BUNDLE(d, k)->from, b->from) == 0)
					first_nic += DESIGN_BUNDLE(d, k)->links_each;
			if (from_switch)
				switch_ports_used(d, DESIGN_SWITCH(d, gi), &dn, &upl), down_before = dn;
			port_next = xcalloc((size_t)z, sizeof *port_next);
			/* Down ports of the to-side used by earlier bundles. */
			for (k = 0; k < i; k++)
				if (strcmp(DESIGN_BUNDLE(d, k)->to, b->to) == 0) {
					long per = design_group_count(d, DESIGN_BUNDLE(d, k)->from) * DESIGN_BUNDLE(d, k)->links_each / z;
					for (s = 0; s < z; s++)
						port_next[s] += per;
				}
			for (s = 0; s < a; s++)
				for (j = 0; j < L; j++) {
					long to;
					char an[NCF_NAME_MAX + 40], zn[NCF_NAME_MAX + 40], ai[32], zi[32];
					if (b->wiring == WIRE_RAIL)
						to = (s / per_unit) * L + j;
					else if (b->wiring == WIRE_TOR)
						to = s * z / a;
					else
						to = (s * L + j) % z;
					if (to >= z)
						to = z - 1;
					member(an, sizeof an, b->from, a, s);
					member(zn, sizeof zn, b->to, z, to);
					if (from_switch)
						snprintf(ai, sizeof ai, "p%ld", down_before + first_nic + j + 1);
					else
						snprintf(ai, sizeof ai, "nic%ld", first_nic + j + 1);
					snprintf(zi, sizeof zi, "p%ld", ++port_next[to]);
					sb_printf(&cab, "%s,dcim.interface,%s,%s,dcim.interface,%s,%s,planned\n",
						csv_field(an, f1, sizeof f1), ai, csv_field(zn, f2, sizeof f2), zi,
						cable_type(media, true));
				}
			free(port_next);
			port_next = NULL;
		}
	}
	if (ok) {
		char *text = sb_take(&dev);
		snprintf(path, sizeof path, "%s/devices.csv", dir);
		ok = write_file(path, text, err, errsz);
		free(text);
	}
	if (ok) {
		char *text = sb_take(&cab);
		snprintf(path, sizeof path, "%s/cables.csv", dir);
		ok = write_file(path, text, err, errsz);
		free(text);
	}
	free(sb_take(&dev));
	free(sb_take(&cab));
	free(up_next);
	vec_release(&types);
	return ok;
}

bool export_files(const struct design *d, const struct catalog *cat, const char *format, const char *out, char *err,
		  size_t errsz)
{
	if (strcmp(format, "astra-sim") == 0)
		return astra(d, cat, out, err, errsz);
	if (strcmp(format, "netbox") == 0)
		return netbox(d, cat, out, err, errsz);
	snprintf(err, errsz, "format '%s' writes one file", format);
	return false;
}
