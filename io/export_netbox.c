/* export_netbox.c: a NetBox import folder for an instance seeded from the community
 * device-type library (netbox-community/devicetype-library).
 *
 * Parts the library has (the catalog's netbox: mapping names the file) are used as the
 * library defines them: its manufacturer, model and interface names; ncfabric does not
 * write them again (library-types.txt lists what to seed). Parts it lacks get device and
 * module types written here in the library's layout and naming rules
 * (device-types/<Manufacturer>/<Model>.yaml; slug = slugified manufacturer-model; power
 * ports or is_powered: false). NICs that are not built into a server are module types in
 * module bays, as the library models NICs. Interfaces the library's type lacks (a typo in
 * its QM9700) and breakout sub-ports are created by interfaces.csv, the sub-ports as physical
 * interfaces with no parent (NetBox lets only virtual interfaces have one, and virtual
 * interfaces take no cable). Devices stand in the
 * racks of the physical layout (floor.h); cables follow the cabling plan (cabling.h) with
 * the cable plan's media and order lengths (cableplan.h), so every cable lands on a port
 * that exists and no port is used twice. README.md in the folder gives the import order. */
#include "io/export.h"
#include "io/codec.h"
#include "io/design_io.h"
#include "io/export_write.h"
#include "io/strbuf.h"
#include "model/alloc.h"
#include "model/cableplan.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST "ncfabric-export.txt"
#define NB_NAME 160

/* ---- naming ------------------------------------------------------------------------- */

/* The library's slug rule: lower case, spaces and most punctuation to '-', no dots. */
static void slugify(const char *s, char *out, size_t size)
{
	size_t o = 0;
	for (; *s && o + 1 < size; s++) {
		unsigned char c = (unsigned char)tolower((unsigned char)*s);
		if (isalnum(c) || c == '_')
			out[o++] = (char)(c == '_' ? '-' : c);
		else if (c == '+' && o + 5 < size) {
			memcpy(out + o, "-plus", 5);
			o += 5;
		} else if (o && out[o - 1] != '-')
			out[o++] = '-';
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
}

/* A file name for a model: the model with spaces and slashes as '-'. */
static void file_name(const char *model, char *out, size_t size)
{
	size_t o = 0;
	for (; *model && o + 1 < size; model++)
		out[o++] = (*model == ' ' || *model == '/') ? '-' : *model;
	out[o] = '\0';
}

/* Expand an interface name format (catalog.h, struct netbox_map). */
static void iface_name(char *out, size_t size, const char *fmt, int cage, int lane, int sub, int breakout)
{
	size_t o = 0;
	while (*fmt && o + 1 < size) {
		if (*fmt == '{') {
			const char *end = strchr(fmt, '}');
			char key[16];
			int v = -1;
			if (!end || (size_t)(end - fmt) >= sizeof key) {
				out[o++] = *fmt++;
				continue;
			}
			memcpy(key, fmt + 1, (size_t)(end - fmt - 1));
			key[end - fmt - 1] = '\0';
			if (strcmp(key, "cage") == 0)
				v = cage + 1;
			else if (strcmp(key, "cage0") == 0)
				v = cage;
			else if (strcmp(key, "lane") == 0)
				v = lane;
			else if (strcmp(key, "lane1") == 0)
				v = lane + 1;
			else if (strcmp(key, "sub") == 0)
				v = sub;
			else if (strcmp(key, "sub1") == 0)
				v = sub + 1;
			else if (strcmp(key, "subl") == 0)
				v = 1 + sub * (8 / (breakout > 0 ? breakout : 1));
			if (v >= 0) {
				int k = snprintf(out + o, size - o, "%d", v);
				if (k > 0)
					o += (size_t)k < size - o ? (size_t)k : size - o - 1;
				fmt = end + 1;
				continue;
			}
			if (strcmp(key, "module") == 0) {
				/* kept: NetBox replaces it with the module bay's position */
			}
		}
		out[o++] = *fmt++;
	}
	out[o] = '\0';
}

static const char *iface_type(int gbps, int protocol, const char *cage)
{
	if (protocol == PROTO_INFINIBAND)
		return gbps >= 800 ? "infiniband-xdr" : gbps >= 400 ? "infiniband-ndr" : gbps >= 200 ? "infiniband-hdr"
		       : gbps >= 100 ? "infiniband-edr" : "infiniband-fdr";
	if (gbps >= 800)
		return strcmp(cage, "qsfp-dd") == 0 ? "800gbase-x-qsfpdd" : "800gbase-x-osfp";
	if (gbps >= 400)
		return strcmp(cage, "qsfp-dd") == 0 ? "400gbase-x-qsfpdd" : strcmp(cage, "qsfp112") == 0 ? "400gbase-x-qsfp112"
														 : "400gbase-x-osfp";
	if (gbps >= 200)
		return "200gbase-x-qsfp56";
	if (gbps >= 100)
		return "100gbase-x-qsfp28";
	if (gbps >= 50)
		return "50gbase-x-sfp56";
	if (gbps >= 25)
		return "25gbase-x-sfp28";
	return "10gbase-x-sfpp";
}

static const char *cable_type(const struct cp_link *c)
{
	switch (c->media) {
	case MEDIA_DAC: return "dac-passive";
	case MEDIA_ACC: return "dac-active";
	case MEDIA_AOC: return "aoc";
	default: return c->fibre_mode == FIBRE_SMF ? "smf-os2" : "mmf-om4";
	}
}

/* ---- the export's own types ------------------------------------------------------ */

/* How a device type appears in NetBox: the library's, or one written here. */
struct nbtype {
	char manufacturer[NCF_NETBOX_MAX], model[NCF_NETBOX_MAX + 8], slug[NB_NAME];
	const char *library_file;  /* in the library, or NULL */
	char port[NCF_NETBOX_MAX], split[NCF_NETBOX_MAX];
};

static const char *vendor_name(const char *vendor)
{
	/* The library spells NVIDIA "Nvidia" (its slug would collide with "NVIDIA"). */
	if (!vendor || !vendor[0])
		return "Generic";
	return strcmp(vendor, "NVIDIA") == 0 ? "Nvidia" : vendor;
}

static void type_of(const struct netbox_map *m, const char *vendor, const char *fallback_model, struct nbtype *t)
{
	char a[NB_NAME], b[NB_NAME];
	memset(t, 0, sizeof *t);
	snprintf(t->manufacturer, sizeof t->manufacturer, "%s", m && m->manufacturer[0] ? m->manufacturer : vendor_name(vendor));
	snprintf(t->model, sizeof t->model, "%s", m && m->model[0] ? m->model : fallback_model);
	if (m && m->slug[0]) {
		snprintf(t->slug, sizeof t->slug, "%s", m->slug);
	} else {
		slugify(t->manufacturer, a, sizeof a);
		slugify(t->model, b, sizeof b);
		snprintf(t->slug, sizeof t->slug, "%.79s-%.79s", a, b);
	}
	t->library_file = m && m->file[0] ? m->file : NULL;
	if (m && m->port[0])
		snprintf(t->port, sizeof t->port, "%s", m->port);
	if (m && m->split[0])
		snprintf(t->split, sizeof t->split, "%s", m->split);
}

static void switch_type(const struct switch_group *g, const struct cat_switch *c, struct nbtype *t)
{
	type_of(c ? &c->netbox : NULL, c ? c->vendor : NULL, c && c->part[0] ? c->part : g->model, t);
	if (!t->port[0])
		snprintf(t->port, sizeof t->port, "%s", c && c->cages > 0 && c->ports > c->cages ? "p{cage}.{lane1}" : "p{cage}");
	if (!t->split[0])
		snprintf(t->split, sizeof t->split, "%s", "p{cage}.{lane1}s{sub1}");
}

static void server_type(const struct server_group *g, const struct cat_server *s, struct nbtype *t)
{
	type_of(s ? &s->netbox : NULL, s ? s->vendor : NULL, s ? (s->part[0] ? s->part : s->name) : g->name, t);
}

static void nic_type(const struct nic_spec *n, const struct cat_nic *c, struct nbtype *t)
{
	char model[NCF_NETBOX_MAX + 8];
	if (c && c->part[0])
		snprintf(model, sizeof model, "%s", c->part);
	else
		snprintf(model, sizeof model, "%s", n->model);
	type_of(c ? &c->netbox : NULL, c ? c->vendor : NULL, model, t);
	if (!t->port[0])
		snprintf(t->port, sizeof t->port, "%s", "{module} {lane1}");
}

/* Interface name at a cabling end. */
static void end_name(const struct design *d, const struct catalog *cat, const struct cab_end *e, char *out, size_t size)
{
	if (e->kind == GK_SWITCH) {
		const struct switch_group *g = DESIGN_SWITCH(d, e->group);
		const struct cat_switch *c = catalog_switch(cat, g->model);
		struct nbtype t;
		switch_type(g, c, &t);
		iface_name(out, size, g->breakout > 1 ? t.split : t.port, e->cage, e->lane, e->sub, g->breakout);
		return;
	}
	{
		const struct server_group *g = DESIGN_SERVER(d, e->group);
		const struct cat_server *s = catalog_server(cat, g->model);
		if (s && s->nics_included) {
			if (e->cage_ports > 1)
				snprintf(out, size, "osfp%dp%d", e->cage + 1, e->port % e->cage_ports + 1);
			else
				snprintf(out, size, "nic%d", e->port + 1);
		} else {
			/* A NIC module: bay position nic<slot>, the module type's '{module} <port>'. */
			size_t i;
			int slot = 0;
			for (i = 0; i < g->nics.n && (int)i < e->nic_spec; i++)
				slot += VEC_AT(g->nics, struct nic_spec, i).count;
			slot += e->nic + 1;
			{
				const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, e->nic_spec);
				struct nbtype t;
				char bay[24];
				nic_type(n, catalog_nic(cat, n->model), &t);
				snprintf(bay, sizeof bay, "nic%d", slot);
				iface_name(out, size, t.port, 0, e->nic_port, 0, 1);
				/* replace {module} by the bay position */
				{
					char tmp[NB_NAME];
					const char *at = strstr(out, "{module}");
					if (at) {
						snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)(at - out), out, bay, at + 8);
						snprintf(out, size, "%s", tmp);
					}
				}
			}
		}
	}
}

/* ---- YAML types --------------------------------------------------------------------- */

static struct tnode *str(const char *s)
{
	return tnode_scalar(s, true);
}

static struct tnode *num(double v)
{
	char b[40];
	return tnode_scalar(num_format(v, b, sizeof b), false);
}

static struct tnode *yes(bool v)
{
	return tnode_scalar(v ? "true" : "false", false);
}

static void put(struct tnode *m, const char *k, struct tnode *v)
{
	tnode_add(m, k, 0, 0, v);
}

static void power_ports(struct tnode *root, int psus, const char *inlet, double max_W, double typ_W)
{
	struct tnode *pp;
	int i;
	if (psus <= 0)
		return;
	pp = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < psus; i++) {
		struct tnode *p = tnode_new(TN_MAP, 0, 0);
		char name[16];
		snprintf(name, sizeof name, "PSU%d", i + 1);
		put(p, "name", str(name));
		put(p, "type", str(inlet && inlet[0] ? inlet : "other"));
		if (max_W > 0)
			put(p, "maximum_draw", num(ceil(max_W / psus)));
		if (typ_W > 0)
			put(p, "allocated_draw", num(ceil(typ_W / psus)));
		tnode_add(pp, NULL, 0, 0, p);
	}
	put(root, "power-ports", pp);
}

static struct tnode *type_head(const struct nbtype *t, const char *part, double u, double kg, const char *comment)
{
	struct tnode *r = tnode_new(TN_MAP, 0, 0);
	put(r, "manufacturer", str(t->manufacturer));
	put(r, "model", str(t->model));
	put(r, "slug", str(t->slug));
	if (part && part[0])
		put(r, "part_number", str(part));
	put(r, "u_height", num(u > 0 ? u : 1));
	put(r, "is_full_depth", yes(true));
	if (kg > 0) {
		put(r, "weight", num(kg));
		put(r, "weight_unit", str("kg"));
	}
	put(r, "comments", str(comment));
	return r;
}

/* ---- the folder --------------------------------------------------------------------- */

struct out {
	const char *dir;
	struct vec files;       /* char *, relative paths written */
	struct vec old;         /* char *, the previous manifest's files */
	char *err;
	size_t errsz;
	bool ok;
};

static bool listed(const struct vec *v, const char *rel)
{
	size_t i;
	for (i = 0; i < v->n; i++)
		if (strcmp(VEC_AT(*v, char *, i), rel) == 0)
			return true;
	return false;
}

static void emit(struct out *o, const char *rel, char *text)
{
	char path[1200];
	if (!o->ok || !text) {
		if (!text && o->ok) {
			snprintf(o->err, o->errsz, "the YAML emitter failed for %s", rel);
			o->ok = false;
		}
		free(text);
		return;
	}
	if (listed(&o->files, rel)) {
		free(text);
		return;
	}
	snprintf(path, sizeof path, "%s/%s", o->dir, rel);
	{
		/* Create the sub-directories. */
		char sub[1200];
		char *s;
		snprintf(sub, sizeof sub, "%s", path);
		for (s = sub + strlen(o->dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
			*s = '\0';
			if (!export_mkdir(sub, o->err, o->errsz)) {
				o->ok = false;
				free(text);
				return;
			}
			*s = '/';
		}
	}
	if (!export_may_replace(path, o->err, o->errsz)) {
		o->ok = false;
	} else if (access(path, F_OK) == 0 && !listed(&o->old, rel)) {
		snprintf(o->err, o->errsz, "%s exists and was not written by an ncfabric export: move it away or choose another -o",
			 path);
		o->ok = false;
	} else if (!file_replace(path, text, strlen(text), o->err, o->errsz)) {
		o->ok = false;
	}
	if (o->ok)
		*(char **)vec_push(&o->files, sizeof(char *)) = xstrdup(rel);
	free(text);
}

static void free_list(struct vec *v);

/* Split text at sep into a list of copies (empty pieces and # lines skipped). */
static void split_into(const char *text, char sep, struct vec *out)
{
	while (*text) {
		const char *end = strchr(text, sep);
		size_t n = end ? (size_t)(end - text) : strlen(text);
		if (n && text[0] != '#')
			*(char **)vec_push(out, sizeof(char *)) = xstrdup_len(text, n);
		text += n;
		if (*text)
			text++;
	}
}

/* The folder must be new, empty, or an earlier export of this kind (its manifest). */
static bool open_folder(struct out *o)
{
	char path[1200], *text, err[200];
	size_t len;
	DIR *dir;
	struct dirent *e;
	bool empty = true;
	if (!export_mkdir(o->dir, o->err, o->errsz))
		return false;
	snprintf(path, sizeof path, "%s/%s", o->dir, MANIFEST);
	if (!export_may_replace(path, o->err, o->errsz))
		return false;
	text = file_read_as(path, "an export manifest", &len, err, sizeof err);
	if (text) {
		if (!strstr(text, EXPORT_MARK)) {
			free(text);
			snprintf(o->err, o->errsz, "%s is not an ncfabric export's manifest: choose another -o", path);
			return false;
		}
		split_into(text, '\n', &o->old);
		free(text);
		return true;
	}
	dir = opendir(o->dir);
	if (!dir) {
		snprintf(o->err, o->errsz, "cannot read %s: %s", o->dir, strerror(errno));
		return false;
	}
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(dir);
	if (!empty) {
		snprintf(o->err, o->errsz, "%s is not empty and holds no earlier ncfabric export (%s): choose a new or empty folder",
			 o->dir, MANIFEST);
		return false;
	}
	return true;
}

static void free_list(struct vec *v)
{
	size_t i;
	for (i = 0; i < v->n; i++)
		free(VEC_AT(*v, char *, i));
	vec_release(v);
}

/* ---- the export ---------------------------------------------------------------------- */

struct nbctx {
	const struct design *d;
	const struct catalog *cat;
	struct strbuf cab;
	long count;
};

static void cable_row(const struct cab_link *l, const struct cp_link *c, void *v)
{
	struct nbctx *x = v;
	char a[FLOOR_NAME_MAX], z[FLOOR_NAME_MAX], ai[NB_NAME], zi[NB_NAME], f[6][NB_NAME * 2], len[40], label[NB_NAME];
	const struct bundle *b = DESIGN_BUNDLE(x->d, l->bundle);
	const char *ga = l->a.kind == GK_SERVER ? DESIGN_SERVER(x->d, l->a.group)->name : DESIGN_SWITCH(x->d, l->a.group)->name;
	long ca = l->a.kind == GK_SERVER ? DESIGN_SERVER(x->d, l->a.group)->count : DESIGN_SWITCH(x->d, l->a.group)->count;
	const char *gb = l->b.kind == GK_SERVER ? DESIGN_SERVER(x->d, l->b.group)->name : DESIGN_SWITCH(x->d, l->b.group)->name;
	long cb = l->b.kind == GK_SERVER ? DESIGN_SERVER(x->d, l->b.group)->count : DESIGN_SWITCH(x->d, l->b.group)->count;
	floor_member_name(a, sizeof a, ga, ca, l->a.member);
	floor_member_name(z, sizeof z, gb, cb, l->b.member);
	end_name(x->d, x->cat, &l->a, ai, sizeof ai);
	end_name(x->d, x->cat, &l->b, zi, sizeof zi);
	snprintf(label, sizeof label, "%s-%s-%ld", b->from, b->to, l->index + 1);
	sb_printf(&x->cab, "%s,dcim.interface,%s,%s,dcim.interface,%s,%s,planned,%s,m,%s,%s\n", csv_field(a, f[0], sizeof f[0]),
		  csv_field(ai, f[1], sizeof f[1]), csv_field(z, f[2], sizeof f[2]), csv_field(zi, f[3], sizeof f[3]),
		  cable_type(c), num_format(c->order_m, len, sizeof len), csv_field(label, f[4], sizeof f[4]),
		  csv_field(c->cable_name, f[5], sizeof f[5]));
	x->count++;
}

static const char *role_name(int kind, int role)
{
	static const char *const roles[] = { "Leaf Switch", "Spine Switch", "Core Switch" };
	return kind == GK_SERVER ? "GPU Server" : kind == GK_DOMAIN ? "NVLink Switch" : roles[role];
}

bool export_netbox(const struct design *d, const struct catalog *cat, const char *dir, char *err, size_t errsz)
{
	struct out o;
	struct cableplan plan;
	struct nbctx x;
	struct strbuf dev = { 0 }, mod = { 0 }, ifc = { 0 }, mfr = { 0 }, racks = { 0 }, roles = { 0 }, sites = { 0 },
		      lib = { 0 }, readme = { 0 }, man = { 0 };
	struct vec own_mfrs = { 0 }, lib_mfrs = { 0 }, used_roles = { 0 };
	size_t i, k;
	char f[6][NB_NAME * 2], site[NB_NAME], rel[NB_NAME * 2], fname[NB_NAME];
	bool ok;
	memset(&o, 0, sizeof o);
	o.dir = dir;
	o.err = err;
	o.errsz = errsz;
	o.ok = true;
	memset(&x, 0, sizeof x);
	x.d = d;
	x.cat = cat;

	/* The cabling plan first: a cable that would land nowhere stops the export. */
	sb_printf(&x.cab, "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,length,"
			  "length_unit,label,description\n");
	cableplan_build(d, cat, &plan, cable_row, &x);
	for (i = 0; i < diag_count(&plan.problems); i++)
		if (diag_get(&plan.problems, i)->sev == NCF_ERROR) {
			snprintf(err, errsz, "the cabling plan does not close: %s", diag_get(&plan.problems, i)->msg);
			cableplan_free(&plan);
			free(sb_take(&x.cab));
			return false;
		}
	if (!open_folder(&o)) {
		cableplan_free(&plan);
		free(sb_take(&x.cab));
		return false;
	}
	slugify(d->name, site, sizeof site);
	if (!site[0])
		snprintf(site, sizeof site, "site");

	/* Device types: the library's are listed, the others written. */
	sb_printf(&lib, "# Device and module types of netbox-community/devicetype-library this %s uses:\n"
			"# import them into NetBox first (their manufacturers come with them).\n",
		  EXPORT_MARK);
	for (i = 0; i < d->servers.n + d->switches.n + d->domains.n; i++) {
		struct nbtype t;
		struct tnode *root = NULL, *ifs;
		char comment[1024];
		const char *source = "";
		if (i < d->servers.n) {
			const struct server_group *g = DESIGN_SERVER(d, i);
			const struct cat_server *s = catalog_server(cat, g->model);
			server_type(g, s, &t);
			if (!t.library_file) {
				source = s ? s->source : "no catalog server: a generic box of the group's GPUs and NICs";
				snprintf(comment, sizeof comment, "Written by %s from the ncfabric catalog entry %s. Only the compute "
								   "fabric ports are modelled. Source: %s",
					 EXPORT_MARK, s ? s->name : g->name, source);
				/* The height the physical layout gave it (an unknown one is assumed there). */
				root = type_head(&t, s ? s->part : "",
						 g->count > 0 && plan.floor.server[i][0].height > 0 ? plan.floor.server[i][0].height
												   : (s ? s->rack_units : 0),
						 s ? s->weight_kg : 0, comment);
				if (s && s->psus > 0)
					power_ports(root, s->psus, s->psu_inlet, s->power_W, s->power_typ_W);
				else
					put(root, "is_powered", yes(false));
				if (s && s->nics_included) {
					int ports = server_compute_ports(g, cat), p;
					ifs = tnode_new(TN_SEQ, 0, 0);
					for (p = 0; p < ports; p++) {
						struct cab_end e;
						struct tnode *it = tnode_new(TN_MAP, 0, 0);
						char nm[NB_NAME];
						int base = 0;
						const struct cat_nic *nc = NULL;
						const struct nic_spec *ns = NULL;
						memset(&e, 0, sizeof e);
						e.kind = GK_SERVER;
						e.group = i;
						e.port = p;
						e.cage = cabling_server_cage(g, cat, p);
						e.cage_ports = cabling_server_cages(g, cat) > 0 && ports > cabling_server_cages(g, cat)
								       ? (ports + cabling_server_cages(g, cat) - 1) / cabling_server_cages(g, cat)
								       : 1;
						for (k = 0; k < g->nics.n; k++) {
							const struct nic_spec *n2 = &VEC_AT(g->nics, struct nic_spec, k);
							const struct cat_nic *c2 = catalog_nic(cat, n2->model);
							if (n2->use != NIC_COMPUTE || !c2)
								continue;
							if (p < base + n2->count * c2->ports) {
								ns = n2;
								nc = c2;
								break;
							}
							base += n2->count * c2->ports;
						}
						end_name(d, cat, &e, nm, sizeof nm);
						put(it, "name", str(nm));
						put(it, "type", str(iface_type(ns ? nic_speed_gbps(ns, nc) : 0, nc ? nc->protocol : PROTO_ETHERNET,
										s->nic_cage)));
						tnode_add(ifs, NULL, 0, 0, it);
					}
					if (ifs->n)
						put(root, "interfaces", ifs);
					else
						tnode_free(ifs);
				}
				if (g->nics.n) {
					/* A module bay for every NIC that is not built in (slots count them all). */
					struct tnode *bays = tnode_new(TN_SEQ, 0, 0);
					int slot = 0, j;
					for (k = 0; k < g->nics.n; k++) {
						const struct nic_spec *n2 = &VEC_AT(g->nics, struct nic_spec, k);
						bool built_in = s && s->nics_included && n2->use == NIC_COMPUTE;
						for (j = 0; j < n2->count; j++) {
							struct tnode *bay;
							char nm[32], pos[32];
							slot++;
							if (built_in)
								continue;
							bay = tnode_new(TN_MAP, 0, 0);
							snprintf(nm, sizeof nm, "NIC %d", slot);
							snprintf(pos, sizeof pos, "nic%d", slot);
							put(bay, "name", str(nm));
							put(bay, "position", str(pos));
							tnode_add(bays, NULL, 0, 0, bay);
						}
					}
					if (bays->n)
						put(root, "module-bays", bays);
					else
						tnode_free(bays);
				}
			}
		} else if (i < d->servers.n + d->switches.n) {
			const struct switch_group *g = DESIGN_SWITCH(d, i - d->servers.n);
			const struct cat_switch *c = catalog_switch(cat, g->model);
			switch_type(g, c, &t);
			if (!t.library_file && c) {
				int p, per = c->cages > 0 && c->ports >= c->cages ? c->ports / c->cages : 1;
				snprintf(comment, sizeof comment, "Written by %s from the ncfabric catalog entry %s. Source: %s", EXPORT_MARK,
					 c->name, c->source);
				root = type_head(&t, c->part, c->rack_units, c->weight_kg, comment);
				if (c->psus > 0)
					power_ports(root, c->psus, c->psu_inlet, c->power_max_W, c->power_W);
				else
					power_ports(root, 1, "other", c->power_max_W, c->power_W);
				ifs = tnode_new(TN_SEQ, 0, 0);
				for (p = 0; p < c->ports; p++) {
					struct tnode *it = tnode_new(TN_MAP, 0, 0);
					char nm[NB_NAME];
					iface_name(nm, sizeof nm, t.port, p / per, p % per, 0, 1);
					put(it, "name", str(nm));
					put(it, "type", str(iface_type(c->port_speed_gbps, c->protocol, c->cage)));
					tnode_add(ifs, NULL, 0, 0, it);
				}
				put(root, "interfaces", ifs);
			}
		} else {
			const struct domain_group *m = DESIGN_DOMAIN(d, i - d->servers.n - d->switches.n);
			const struct cat_fabric *tr = catalog_fabric(cat, m->tray);
			type_of(tr ? &tr->netbox : NULL, tr ? tr->vendor : NULL, m->tray, &t);
			if (!t.library_file) {
				snprintf(comment, sizeof comment, "Written by %s from the ncfabric catalog entry %s. Source: %s", EXPORT_MARK,
					 m->tray, tr ? tr->source : "");
				root = type_head(&t, tr ? tr->part : "", tr ? tr->rack_units : 1, 0, comment);
				put(root, "is_powered", yes(false));
			}
		}
		if (t.library_file) {
			if (!strstr(lib.p ? lib.p : "", t.library_file))
				sb_printf(&lib, "%s\n", t.library_file);
			if (!listed(&lib_mfrs, t.manufacturer))
				*(char **)vec_push(&lib_mfrs, sizeof(char *)) = xstrdup(t.manufacturer);
		} else if (root) {
			file_name(t.model, fname, sizeof fname);
			snprintf(rel, sizeof rel, "device-types/%s/%s.yaml", t.manufacturer, fname);
			emit(&o, rel, tree_to_yaml_doc(root));
			if (!listed(&own_mfrs, t.manufacturer))
				*(char **)vec_push(&own_mfrs, sizeof(char *)) = xstrdup(t.manufacturer);
		}
		if (root)
			tnode_free(root);
	}
	/* Module types: NICs that are not built in. */
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *s = catalog_server(cat, g->model);
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			const struct cat_nic *c = catalog_nic(cat, n->model);
			struct nbtype t;
			char comment[1024];
			if ((s && s->nics_included && n->use == NIC_COMPUTE) || !c)
				continue;
			nic_type(n, c, &t);
			if (t.library_file) {
				if (!strstr(lib.p ? lib.p : "", t.library_file))
					sb_printf(&lib, "%s\n", t.library_file);
				if (!listed(&lib_mfrs, t.manufacturer))
					*(char **)vec_push(&lib_mfrs, sizeof(char *)) = xstrdup(t.manufacturer);
			} else {
				struct tnode *root = tnode_new(TN_MAP, 0, 0), *ifs = tnode_new(TN_SEQ, 0, 0);
				int p;
				put(root, "manufacturer", str(t.manufacturer));
				put(root, "model", str(t.model));
				if (c->part[0])
					put(root, "part_number", str(c->part));
				snprintf(comment, sizeof comment, "Written by %s from the ncfabric catalog entry %s. Source: %s", EXPORT_MARK,
					 c->name, c->source);
				put(root, "comments", str(comment));
				for (p = 0; p < c->ports; p++) {
					struct tnode *it = tnode_new(TN_MAP, 0, 0);
					char nm[NB_NAME];
					iface_name(nm, sizeof nm, t.port, 0, p, 0, 1);
					put(it, "name", str(nm));
					put(it, "type", str(iface_type(nic_speed_gbps(n, c), c->protocol, c->cage)));
					tnode_add(ifs, NULL, 0, 0, it);
				}
				put(root, "interfaces", ifs);
				file_name(c->part[0] ? c->part : t.model, fname, sizeof fname);
				snprintf(rel, sizeof rel, "module-types/%s/%s.yaml", t.manufacturer, fname);
				emit(&o, rel, tree_to_yaml_doc(root));
				tnode_free(root);
				if (!listed(&own_mfrs, t.manufacturer))
					*(char **)vec_push(&own_mfrs, sizeof(char *)) = xstrdup(t.manufacturer);
			}
		}
	}

	/* Organisation: manufacturers the library does not bring, the site, roles, racks. */
	sb_printf(&mfr, "name,slug,description\n");
	for (i = 0; i < own_mfrs.n; i++) {
		const char *m = VEC_AT(own_mfrs, char *, i);
		char sl[NB_NAME];
		if (listed(&lib_mfrs, m))
			continue;
		slugify(m, sl, sizeof sl);
		sb_printf(&mfr, "%s,%s,%s\n", csv_field(m, f[0], sizeof f[0]), sl, "manufacturer of device types written by ncfabric");
	}
	sb_printf(&sites, "name,slug,status,description\n%s,%s,planned,%s\n", csv_field(d->name, f[0], sizeof f[0]), site,
		  csv_field(d->description[0] ? d->description : "GPU cluster designed with ncfabric", f[1], sizeof f[1]));
	sb_printf(&racks, "site,name,status,width,u_height,description\n");
	for (i = 0; i < plan.floor.racks.n; i++) {
		const struct floor_rack *r = &VEC_AT(plan.floor.racks, struct floor_rack, i);
		char desc[200];
		int u = r->units_used > plan.floor.p.rack_units ? r->units_used : plan.floor.p.rack_units;
		snprintf(desc, sizeof desc, "%s rack, row %d position %d: %s%s%s", rack_kind_names[r->kind], r->row + 1, r->pos + 1,
			 r->first, r->devices > 1 ? " .. " : "", r->devices > 1 ? r->last : "");
		sb_printf(&racks, "%s,%s,planned,19,%d,%s\n", csv_field(d->name, f[0], sizeof f[0]), r->name, u,
			  csv_field(desc, f[1], sizeof f[1]));
	}
	/* Devices, in their racks; modules into the servers' NIC bays. */
	sb_printf(&dev, "name,role,manufacturer,device_type,status,site,rack,position,face,description\n");
	sb_printf(&mod, "device,module_bay,module_type,status\n");
	sb_printf(&ifc, "device,name,type,description\n");
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		const struct cat_server *s = catalog_server(cat, g->model);
		struct nbtype t;
		long j;
		server_type(g, s, &t);
		if (g->count > 0 && !listed(&used_roles, role_name(GK_SERVER, 0)))
			*(char **)vec_push(&used_roles, sizeof(char *)) = xstrdup(role_name(GK_SERVER, 0));
		for (j = 0; j < g->count; j++) {
			char name[FLOOR_NAME_MAX];
			const struct floor_spot *sp = &plan.floor.server[i][j];
			int slot = 0, q;
			floor_member_name(name, sizeof name, g->name, g->count, j);
			sb_printf(&dev, "%s,%s,%s,%s,planned,%s,%s,%d,front,%s\n", csv_field(name, f[0], sizeof f[0]),
				  role_name(GK_SERVER, 0), csv_field(t.manufacturer, f[1], sizeof f[1]),
				  csv_field(t.model, f[2], sizeof f[2]), csv_field(d->name, f[3], sizeof f[3]),
				  sp->rack >= 0 ? VEC_AT(plan.floor.racks, struct floor_rack, sp->rack).name : "", sp->u,
				  csv_field(g->name, f[4], sizeof f[4]));
			for (k = 0; k < g->nics.n; k++) {
				const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
				const struct cat_nic *c = catalog_nic(cat, n->model);
				struct nbtype nt;
				if (s && s->nics_included && n->use == NIC_COMPUTE) {
					slot += n->count;
					continue;
				}
				nic_type(n, c, &nt);
				for (q = 0; q < n->count; q++) {
					char bay[32];
					snprintf(bay, sizeof bay, "NIC %d", ++slot);
					sb_printf(&mod, "%s,%s,%s,planned\n", csv_field(name, f[0], sizeof f[0]), bay,
						  csv_field(nt.model, f[1], sizeof f[1]));
				}
			}
		}
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		const struct cat_fabric *tr = catalog_fabric(cat, m->tray);
		struct nbtype t;
		long j;
		type_of(tr ? &tr->netbox : NULL, tr ? tr->vendor : NULL, m->tray, &t);
		if ((long)m->count * m->switch_trays > 0 && !listed(&used_roles, role_name(GK_DOMAIN, 0)))
			*(char **)vec_push(&used_roles, sizeof(char *)) = xstrdup(role_name(GK_DOMAIN, 0));
		for (j = 0; j < (long)m->count * m->switch_trays; j++) {
			char dn[FLOOR_NAME_MAX], name[FLOOR_NAME_MAX + 16];
			const struct floor_spot *sp = &plan.floor.tray[i][j];
			floor_member_name(dn, sizeof dn, m->name, m->count, j / m->switch_trays);
			snprintf(name, sizeof name, "%s-sw%02ld", dn, j % m->switch_trays + 1);
			sb_printf(&dev, "%s,%s,%s,%s,planned,%s,%s,%d,front,%s\n", csv_field(name, f[0], sizeof f[0]),
				  role_name(GK_DOMAIN, 0), csv_field(t.manufacturer, f[1], sizeof f[1]),
				  csv_field(t.model, f[2], sizeof f[2]), csv_field(d->name, f[3], sizeof f[3]),
				  sp->rack >= 0 ? VEC_AT(plan.floor.racks, struct floor_rack, sp->rack).name : "", sp->u,
				  csv_field(m->name, f[4], sizeof f[4]));
		}
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		const struct cat_switch *c = catalog_switch(cat, g->model);
		struct nbtype t;
		long j;
		int p, per = c && c->cages > 0 && c->ports >= c->cages ? c->ports / c->cages : 1;
		switch_type(g, c, &t);
		if (g->count > 0 && !listed(&used_roles, role_name(GK_SWITCH, g->role)))
			*(char **)vec_push(&used_roles, sizeof(char *)) = xstrdup(role_name(GK_SWITCH, g->role));
		for (j = 0; j < g->count; j++) {
			char name[FLOOR_NAME_MAX];
			const struct floor_spot *sp = &plan.floor.sw[i][j];
			floor_member_name(name, sizeof name, g->name, g->count, j);
			sb_printf(&dev, "%s,%s,%s,%s,planned,%s,%s,%d,front,%s\n", csv_field(name, f[0], sizeof f[0]),
				  role_name(GK_SWITCH, g->role), csv_field(t.manufacturer, f[1], sizeof f[1]),
				  csv_field(t.model, f[2], sizeof f[2]), csv_field(d->name, f[3], sizeof f[3]),
				  sp->rack >= 0 ? VEC_AT(plan.floor.racks, struct floor_rack, sp->rack).name : "", sp->u,
				  csv_field(g->name, f[4], sizeof f[4]));
			if (!c)
				continue;
			/* Interfaces the library's type lacks. */
			if (t.library_file && c->netbox.missing[0]) {
				struct vec miss = { 0 };
				size_t mi;
				split_into(c->netbox.missing, ' ', &miss);
				for (mi = 0; mi < miss.n; mi++)
					sb_printf(&ifc, "%s,%s,%s,%s\n", csv_field(name, f[0], sizeof f[0]),
						  csv_field(VEC_AT(miss, char *, mi), f[1], sizeof f[1]),
						  iface_type(c->port_speed_gbps, c->protocol, c->cage),
						  "missing from the community library's device type");
				free_list(&miss);
			}
			/* Breakout sub-ports: physical interfaces of their own, as NetBox models a
			 * breakout (its Interface.clean() lets only virtual interfaces have a parent,
			 * and a virtual interface takes no cable). The cage they share is named in the
			 * description. */
			if (g->breakout > 1)
				for (p = 0; p < c->ports; p++) {
					int sub;
					char cage[NB_NAME];
					iface_name(cage, sizeof cage, t.port, p / per, p % per, 0, 1);
					for (sub = 0; sub < g->breakout; sub++) {
						char nm[NB_NAME], desc[NB_NAME + 64];
						iface_name(nm, sizeof nm, t.split, p / per, p % per, sub, g->breakout);
						snprintf(desc, sizeof desc, "breakout sub-port %d of %d of port %s", sub + 1, g->breakout, cage);
						sb_printf(&ifc, "%s,%s,%s,%s\n", csv_field(name, f[0], sizeof f[0]),
							  csv_field(nm, f[1], sizeof f[1]),
							  iface_type(switch_port_gbps(g, c), c->protocol, c->cage),
							  csv_field(desc, f[2], sizeof f[2]));
					}
				}
		}
	}
	sb_printf(&roles, "name,slug,color,description\n");
	for (i = 0; i < used_roles.n; i++) {
		const char *r = VEC_AT(used_roles, char *, i);
		char sl[NB_NAME];
		static const char *const colours[] = { "2196f3", "4caf50", "ff9800", "f44336", "9c27b0" };
		slugify(r, sl, sizeof sl);
		sb_printf(&roles, "%s,%s,%s,%s\n", r, sl, colours[i % 5], "ncfabric role");
	}

	sb_printf(&readme,
		  "# NetBox import of %s\n\n"
		  "Written by %s. Import the files in this order (in NetBox: the Import button of each list;\n"
		  "device and module types take YAML, everything else CSV). A file with only its header line\n"
		  "has nothing to import. Rows for objects your instance already has are refused by NetBox:\n"
		  "delete those rows and import the rest.\n\n"
		  "1. The community device-type library's types listed in `library-types.txt`\n"
		  "   (netbox-community/devicetype-library; its importer or Device Types > Import). Their\n"
		  "   manufacturers come with them.\n"
		  "2. `manufacturers.csv`: Organization > Manufacturers.\n"
		  "3. `sites.csv`: Organization > Sites.\n"
		  "4. `device-roles.csv`: Devices > Device Roles.\n"
		  "5. `racks.csv`: Racks > Racks.\n"
		  "6. `device-types/` (Devices > Device Types) and `module-types/` (Devices > Module Types),\n"
		  "   one YAML file at a time: the types the library does not have.\n"
		  "7. `devices.csv`: Devices > Devices (each in its rack and position).\n"
		  "8. `modules.csv`: Devices > Modules (NICs into the servers' NIC bays).\n"
		  "9. `interfaces.csv`: Devices > Interfaces (ports the library's types lack, breakout sub-ports).\n"
		  "10. `cables.csv`: Connections > Cables (%ld cables, with their lengths).\n\n"
		  "The cabling follows ncfabric's cabling plan (ncfabric(5), CABLING PLAN); lengths are the\n"
		  "lengths to order from the physical layout (PHYSICAL LAYOUT). `%s` lists the files this\n"
		  "export owns: a later export into this folder replaces them and removes the ones it no longer\n"
		  "writes, and leaves every other file alone.\n",
		  d->name, EXPORT_MARK, x.count, MANIFEST);
	emit(&o, "README.md", sb_take(&readme));
	emit(&o, "library-types.txt", sb_take(&lib));
	emit(&o, "manufacturers.csv", sb_take(&mfr));
	emit(&o, "sites.csv", sb_take(&sites));
	emit(&o, "device-roles.csv", sb_take(&roles));
	emit(&o, "racks.csv", sb_take(&racks));
	emit(&o, "devices.csv", sb_take(&dev));
	emit(&o, "modules.csv", sb_take(&mod));
	emit(&o, "interfaces.csv", sb_take(&ifc));
	emit(&o, "cables.csv", sb_take(&x.cab));
	ok = o.ok;
	if (ok) {
		/* The manifest last, then what an earlier export wrote and this one does not. */
		char path[1200];
		sb_printf(&man, "# %s manifest: the files below were written by ncfabric and are replaced or removed by a later "
				"export into this folder.\n",
			  EXPORT_MARK);
		for (i = 0; i < o.files.n; i++)
			sb_printf(&man, "%s\n", VEC_AT(o.files, char *, i));
		{
			char *text = sb_take(&man);
			snprintf(path, sizeof path, "%s/%s", dir, MANIFEST);
			ok = export_may_replace(path, err, errsz) && file_replace(path, text, strlen(text), err, errsz);
			free(text);
		}
		for (i = 0; ok && i < o.old.n; i++) {
			const char *r = VEC_AT(o.old, char *, i);
			if (!listed(&o.files, r) && !strstr(r, "..")) {
				snprintf(path, sizeof path, "%s/%s", dir, r);
				if (unlink(path) != 0 && errno != ENOENT) {
					snprintf(err, errsz, "cannot remove %s: %s", path, strerror(errno));
					ok = false;
				}
			}
		}
	}
	free(sb_take(&dev));
	free(sb_take(&mod));
	free(sb_take(&ifc));
	free(sb_take(&mfr));
	free(sb_take(&racks));
	free(sb_take(&roles));
	free(sb_take(&sites));
	free(sb_take(&lib));
	free(sb_take(&readme));
	free(sb_take(&man));
	free(sb_take(&x.cab));
	free_list(&o.files);
	free_list(&o.old);
	free_list(&own_mfrs);
	free_list(&lib_mfrs);
	free_list(&used_roles);
	cableplan_free(&plan);
	return ok;
}
