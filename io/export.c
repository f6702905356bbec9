#include "io/export.h"
#include "io/codec.h"
#include "io/design_io.h"
#include "model/alloc.h"
#include "model/bom.h"
#include "io/strbuf.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const export_formats[] = { "yaml", "json", "bom-csv", "bom-yaml", "bom-json", "dot", "astra-sim", "netbox",
				       NULL };

bool export_known(const char *f)
{
	size_t i;
	for (i = 0; export_formats[i]; i++)
		if (strcmp(export_formats[i], f) == 0)
			return true;
	return false;
}

bool export_multi_file(const char *f)
{
	return strcmp(f, "astra-sim") == 0 || strcmp(f, "netbox") == 0;
}

const char *csv_field(const char *s, char *out, size_t size)
{
	size_t o = 0;
	if (!strpbrk(s, ",\"\r\n")) {
		snprintf(out, size, "%s", s);
		return out;
	}
	if (o + 1 < size)
		out[o++] = '"';
	for (; *s && o + 3 < size; s++) {
		if (*s == '"')
			out[o++] = '"';
		out[o++] = *s;
	}
	if (o + 1 < size)
		out[o++] = '"';
	out[o] = '\0';
	return out;
}

/* ---- bill of materials ------------------------------------------------------------------ */

static char *bom_csv(const struct design *d, const struct catalog *cat)
{
	struct bom b;
	struct strbuf o = { 0 };
	size_t i;
	char f1[200], f2[200], f3[200], f4[400];
	bom_compute(d, cat, &b);
	sb_printf(&o, "category,vendor,model,part_number,quantity,unit_power_W,total_power_W,notes\r\n");
	for (i = 0; i < b.lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b.lines, struct bom_line, i);
		sb_printf(&o, "%s,%s,%s,%s,%ld,", bom_category_names[l->category], csv_field(l->vendor, f1, sizeof f1),
			csv_field(l->model, f2, sizeof f2), csv_field(l->part, f3, sizeof f3), l->quantity);
		if (l->unit_power_W > 0)
			sb_printf(&o, "%g,%g,", l->unit_power_W, l->unit_power_W * l->quantity);
		else
			sb_printf(&o, ",,");
		sb_printf(&o, "%s\r\n", csv_field(l->notes, f4, sizeof f4));
	}
	bom_free(&b);
	return sb_take(&o);
}

static struct tnode *str(const char *s)
{
	return tnode_scalar(s, true);
}

static struct tnode *num(double v)
{
	char buf[40];
	return tnode_scalar(num_format(v, buf, sizeof buf), false);
}

static struct tnode *boolean(bool v)
{
	return tnode_scalar(v ? "true" : "false", false);
}

static void put(struct tnode *map, const char *key, struct tnode *v)
{
	tnode_add(map, key, 0, 0, v);
}

static struct tnode *bom_tree(const struct design *d, const struct catalog *cat)
{
	static struct metrics m;
	struct bom b;
	struct tnode *root = tnode_new(TN_MAP, 0, 0), *parts, *cab, *sum, *met, *e;
	const struct coll_result *ar;
	const struct algo_result *a;
	size_t i;
	int t;
	bom_compute(d, cat, &b);
	metrics_compute(d, cat, 1024.0 * 1024 * 1024, 0, &m);
	put(root, "ncfabric_bom", num(1));
	put(root, "design", str(d->name));
	put(root, "description", str(d->description));
	sum = tnode_new(TN_MAP, 0, 0);
	{
		struct inventory inv;
		inventory_compute(d, cat, &inv);
		put(sum, "servers", num((double)inv.servers));
		put(sum, "gpus", num((double)inv.gpus));
		put(sum, "nics", num((double)inv.nics_compute));
		put(sum, "switches", num((double)(inv.switches[0] + inv.switches[1] + inv.switches[2])));
		put(sum, "links", num((double)inv.links));
		put(sum, "transceivers", num((double)inv.transceivers));
		inventory_free(&inv);
	}
	put(sum, "power_W", num(b.power_W));
	put(sum, "power_complete", boolean(!b.power_unknown));
	put(sum, "rack_units", num(b.rack_units));
	put(root, "summary", sum);
	parts = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < b.lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b.lines, struct bom_line, i);
		e = tnode_new(TN_MAP, 0, 0);
		put(e, "category", str(bom_category_names[l->category]));
		put(e, "vendor", str(l->vendor));
		put(e, "model", str(l->model));
		put(e, "part_number", str(l->part));
		put(e, "quantity", num((double)l->quantity));
		put(e, "unit_power_W", num(l->unit_power_W));
		put(e, "total_power_W", num(l->unit_power_W * l->quantity));
		put(e, "notes", str(l->notes));
		tnode_add(parts, NULL, 0, 0, e);
	}
	put(root, "parts", parts);
	cab = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < b.cabling.n; i++) {
		const struct bom_cabling *c = &VEC_AT(b.cabling, struct bom_cabling, i);
		e = tnode_new(TN_MAP, 0, 0);
		put(e, "from", str(c->from));
		put(e, "to", str(c->to));
		put(e, "links", num((double)c->links));
		put(e, "speed_gbps", num(c->speed_gbps));
		put(e, "media", str(media_names[c->media]));
		put(e, "cable", str(c->cable));
		put(e, "optic_from", str(c->optic_from));
		put(e, "optics_from", num((double)c->optics_from));
		put(e, "optic_to", str(c->optic_to));
		put(e, "optics_to", num((double)c->optics_to));
		tnode_add(cab, NULL, 0, 0, e);
	}
	put(root, "cabling", cab);
	met = tnode_new(TN_MAP, 0, 0);
	ar = &m.colls[COLL_ALLREDUCE];
	a = coll_pick(ar, d->job.algo);
	put(met, "allreduce_size_bytes", num(m.bytes));
	put(met, "allreduce_algorithm", str(a->available ? ualgo_names[a - ar->algo] : "none"));
	put(met, "allreduce_busbw_GBps", num(a->available ? a->busbw_GBps : 0));
	put(met, "node_ceiling_GBps", num(m.fabric.node_ceiling_GBps));
	for (t = 0; t < m.fabric.ntiers; t++) {
		char key[48];
		snprintf(key, sizeof key, "oversubscription_%s", switch_role_names[m.fabric.tiers[t].role]);
		put(met, key, num(m.fabric.tiers[t].ratio));
	}
	put(met, "bisection_GBps", num(m.fabric.bisection_GBps));
	if (m.work.valid) {
		put(met, "step_time_ms", num(m.work.step_ms));
		put(met, "tokens_per_s", num(m.work.tokens_per_s));
		put(met, "speedup", num(m.work.speedup));
		put(met, "efficiency", num(m.work.efficiency));
	}
	put(met, "bottleneck", str(m.bottleneck));
	put(root, "metrics", met);
	bom_free(&b);
	return root;
}

/* ---- Graphviz ------------------------------------------------------------------------- */

static const char *dot_id(const char *s, char *out, size_t size)
{
	size_t o = 0;
	if (o + 1 < size)
		out[o++] = '"';
	for (; *s && o + 3 < size; s++) {
		if (*s == '"' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o++] = '"';
	out[o] = '\0';
	return out;
}

#define DOT_EXPAND 8 /* groups up to this size get one node per member */

static void dot_members(struct strbuf *o, const char *name, long count, char *id, size_t idsz)
{
	long i;
	char member[NCF_NAME_MAX + 40];
	if (count <= DOT_EXPAND) {
		for (i = 1; i <= count; i++) {
			snprintf(member, sizeof member, "%s-%ld", name, i);
			sb_printf(o, " %s;", dot_id(member, id, idsz));
		}
	} else {
		sb_printf(o, " %s;", dot_id(name, id, idsz));
	}
}

static char *dot(const struct design *d, const struct catalog *cat)
{
	struct strbuf o = { 0 };
	char id[256], id2[256], label[256];
	size_t i;
	int role;
	sb_printf(&o, "graph %s {\n", dot_id(d->name, id, sizeof id));
	sb_printf(&o, "  graph [rankdir=BT, label=%s];\n", dot_id(d->description[0] ? d->description : d->name, id, sizeof id));
	sb_printf(&o, "  node [shape=box];\n");
	for (role = ROLE_CORE; role >= ROLE_LEAF; role--)
		for (i = 0; i < d->switches.n; i++) {
			const struct switch_group *s = DESIGN_SWITCH(d, i);
			char cl[96];
			if (s->role != role)
				continue;
			snprintf(cl, sizeof cl, "cluster_%zu", i);
			snprintf(label, sizeof label, "%s: %d x %s (%s)", s->name, s->count, s->model, switch_role_names[s->role]);
			sb_printf(&o, "  subgraph %s { label=%s;", dot_id(cl, id2, sizeof id2), dot_id(label, id, sizeof id));
			dot_members(&o, s->name, s->count, id, sizeof id);
			sb_printf(&o, " }\n");
		}
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		char cl[96];
		snprintf(cl, sizeof cl, "cluster_s%zu", i);
		snprintf(label, sizeof label, "%s: %d x %s%s%d x %s", g->name, g->count, g->model[0] ? g->model : "",
			 g->model[0] ? ", " : "", g->gpus, g->gpu);
		sb_printf(&o, "  subgraph %s { label=%s;", dot_id(cl, id2, sizeof id2), dot_id(label, id, sizeof id));
		dot_members(&o, g->name, g->count, id, sizeof id);
		sb_printf(&o, " }\n");
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		long fc = design_group_count(d, b->from), tc = design_group_count(d, b->to), total = fc * b->links_each;
		int speed = bundle_speed_gbps(d, cat, b);
		if (fc <= DOT_EXPAND && tc <= DOT_EXPAND && fc > 0 && tc > 0) {
			/* Member to member, as the wiring pattern connects them. */
			long a, k;
			for (a = 1; a <= fc; a++) {
				long per[DOT_EXPAND + 1] = { 0 };
				for (k = 0; k < b->links_each; k++) {
					long z = b->wiring == WIRE_TOR ? (a - 1) * tc / fc : (b->wiring == WIRE_RAIL ? k % tc : ((a - 1) * b->links_each + k) % tc);
					per[z]++;
				}
				for (k = 0; k < tc; k++) {
					char m1[NCF_NAME_MAX + 40], m2[NCF_NAME_MAX + 40];
					if (!per[k])
						continue;
					snprintf(m1, sizeof m1, "%s-%ld", b->from, a);
					snprintf(m2, sizeof m2, "%s-%ld", b->to, k + 1);
					snprintf(label, sizeof label, "%ldx%dG", per[k], speed);
					sb_printf(&o, "  %s -- ", dot_id(m1, id, sizeof id));
					sb_printf(&o, "%s [label=%s];\n", dot_id(m2, id2, sizeof id2), dot_id(label, id, sizeof id));
				}
			}
		} else {
			char n1[NCF_NAME_MAX + 40], n2[NCF_NAME_MAX + 40];
			snprintf(n1, sizeof n1, fc <= DOT_EXPAND ? "%s-1" : "%s", b->from);
			snprintf(n2, sizeof n2, tc <= DOT_EXPAND ? "%s-1" : "%s", b->to);
			snprintf(label, sizeof label, "%ld x %dG, %s", total, speed, wiring_names[b->wiring]);
			sb_printf(&o, "  %s -- ", dot_id(n1, id, sizeof id));
			sb_printf(&o, "%s [label=%s, penwidth=2];\n", dot_id(n2, id2, sizeof id2), dot_id(label, id, sizeof id));
		}
	}
	sb_printf(&o, "}\n");
	return sb_take(&o);
}

char *export_text(const struct design *d, const struct catalog *cat, const char *format, char *err, size_t errsz)
{
	if (strcmp(format, "yaml") == 0)
		return design_to_text(d, FMT_YAML);
	if (strcmp(format, "json") == 0)
		return design_to_text(d, FMT_JSON);
	if (strcmp(format, "bom-csv") == 0)
		return bom_csv(d, cat);
	if (strcmp(format, "bom-yaml") == 0 || strcmp(format, "bom-json") == 0) {
		struct tnode *t = bom_tree(d, cat);
		char *s = tree_to_text(t, format[4] == 'j' ? FMT_JSON : FMT_YAML);
		tnode_free(t);
		return s;
	}
	if (strcmp(format, "dot") == 0)
		return dot(d, cat);
	snprintf(err, errsz, "format '%s' writes several files: give -o", format);
	return NULL;
}
