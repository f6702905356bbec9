/* export.c: the single-file exports (the design, the bill of materials, Graphviz) and the
 * dispatch of every format. */
#include "io/export.h"
#include "io/codec.h"
#include "io/design_io.h"
#include "io/model_view.h"
#include "io/strbuf.h"
#include "model/alloc.h"
#include "model/bom.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool export_output_ok(const char *format, const char *out, const struct file_input *inputs, size_t n, char *err,
		      size_t errsz)
{
	char path[4200];
	if (strcmp(format, "yaml") == 0 || strcmp(format, "json") == 0)
		return file_not_input(out, inputs, n, err, errsz); /* a design, saved as designs are */
	if (strcmp(format, "astra-sim") != 0)
		return file_output_ok(out, inputs, n, err, errsz);
	snprintf(path, sizeof path, "%s.network.yml", out);
	if (!file_output_ok(path, inputs, n, err, errsz))
		return false;
	snprintf(path, sizeof path, "%s.system.json", out);
	return file_output_ok(path, inputs, n, err, errsz);
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

static const char *num(double v, char *buf, size_t size)
{
	return num_format(v, buf, size);
}

/* A power cell: the figure, or empty when it is not published. */
static const char *watts(double w, char *buf, size_t size)
{
	if (w <= 0) {
		buf[0] = '\0';
		return buf;
	}
	return num_format(w, buf, size);
}

static char *bom_csv(const struct design *d, const struct catalog *cat)
{
	struct bom b;
	struct strbuf o = { 0 };
	size_t i;
	char f[6][400], n[6][48];
	bom_compute(d, cat, &b);
	sb_printf(&o, "category,supply,vendor,model,part_number,length_m,quantity,unit_power_typ_W,unit_power_max_W,"
		      "total_power_typ_W,total_power_max_W,power_source,notes,part_number_status\r\n");
	for (i = 0; i < b.lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b.lines, struct bom_line, i);
		sb_printf(&o, "%s,%s,%s,%s,%s,%s,%ld,%s,%s,%s,%s,%s,%s,%s\r\n", bom_category_names[l->category],
			  l->included ? "included" : "buy", csv_field(l->vendor, f[0], sizeof f[0]),
			  csv_field(l->model, f[1], sizeof f[1]), csv_field(l->part, f[2], sizeof f[2]),
			  l->length_m > 0 ? num(l->length_m, n[0], sizeof n[0]) : "", l->quantity,
			  watts(l->unit_typ_W, n[1], sizeof n[1]), watts(l->unit_max_W, n[2], sizeof n[2]),
			  watts(l->total_typ_W, n[3], sizeof n[3]), watts(l->total_max_W, n[4], sizeof n[4]),
			  csv_field(l->power_note, f[3], sizeof f[3]), csv_field(l->notes, f[4], sizeof f[4]),
			  bom_part_status_names[l->part_status]);
	}
	/* The totals are the sums of the lines above; then what the BOM leaves out. */
	snprintf(f[5], sizeof f[5], "sum of the lines to buy%s%s", b.typ_unknown ? "; typical power partial" : "",
		 b.max_unknown ? "; maximum power partial (not published for some parts)" : "");
	sb_printf(&o, "total,buy,,,,,,,,%s,%s,,%s,\r\n", watts(b.typ_W, n[0], sizeof n[0]), watts(b.max_W, n[1], sizeof n[1]),
		  csv_field(f[5], f[0], sizeof f[0]));
	{
		/* f[1] is 400 bytes: the note is longer, so it is quoted here. */
		struct strbuf note = { 0 };
		char *t, *q;
		sb_printf(&note, "%s %s", bom_leaves_out, bom_part_numbers_note);
		t = sb_take(&note);
		sb_printf(&o, "note,,,,,,,,,,,,\"");
		for (q = t; *q; q++)
			sb_printf(&o, *q == '"' ? "\"\"" : "%c", *q);
		sb_printf(&o, "\",\r\n");
		free(t);
	}
	bom_free(&b);
	return sb_take(&o);
}

static struct tnode *s_(const char *s)
{
	return tnode_scalar(s, true);
}

static struct tnode *n_(double v)
{
	char buf[40];
	return tnode_scalar(num_format(v, buf, sizeof buf), false);
}

/* A power figure: null when it is not known (0 in struct bom_line). */
static struct tnode *w_(double v)
{
	return v > 0 ? n_(v) : tnode_scalar("null", false);
}

static struct tnode *b_(bool v)
{
	return tnode_scalar(v ? "true" : "false", false);
}

static void put(struct tnode *map, const char *key, struct tnode *v)
{
	tnode_add(map, key, 0, 0, v);
}

static struct tnode *bom_tree(const struct design *d, const struct catalog *cat)
{
	struct bom b;
	struct model_view mv;
	struct inventory inv;
	struct tnode *root = tnode_new(TN_MAP, 0, 0), *parts, *cab, *sum, *met, *e, *probs;
	size_t i;
	int t;
	inventory_and_bom(d, cat, &inv, &b); /* one walk of the cable plan for both */
	model_view_compute(d, cat, &mv);
	put(root, "ncfabric_bom", n_(2));
	put(root, "design", s_(d->name));
	put(root, "description", s_(d->description));
	put(root, "leaves_out", s_(bom_leaves_out));
	put(root, "part_numbers", s_(bom_part_numbers_note));
	sum = tnode_new(TN_MAP, 0, 0);
	put(sum, "servers", n_((double)b.to_buy[BOM_SERVER]));
	put(sum, "gpus", n_((double)(b.to_buy[BOM_GPU] + b.included[BOM_GPU])));
	put(sum, "gpus_included", n_((double)b.included[BOM_GPU]));
	put(sum, "nics", n_((double)b.to_buy[BOM_NIC]));
	put(sum, "nics_included", n_((double)b.included[BOM_NIC]));
	put(sum, "nvswitch_trays", n_((double)b.to_buy[BOM_NVSWITCH_TRAY]));
	put(sum, "switches", n_((double)b.to_buy[BOM_SWITCH]));
	put(sum, "cables", n_((double)b.to_buy[BOM_CABLE]));
	put(sum, "transceivers", n_((double)b.to_buy[BOM_TRANSCEIVER]));
	put(sum, "fibres", n_((double)b.to_buy[BOM_FIBRE]));
	put(sum, "links", n_((double)inv.links));
	put(sum, "racks", n_((double)b.racks));
	put(sum, "rack_units", n_(b.rack_units));
	put(sum, "power_typ_W", b.typ_W > 0 ? n_(b.typ_W) : tnode_scalar("null", false));
	put(sum, "power_typ_complete", b_(!b.typ_unknown));
	put(sum, "power_max_W", b.max_W > 0 ? n_(b.max_W) : tnode_scalar("null", false));
	put(sum, "power_max_complete", b_(!b.max_unknown));
	put(root, "summary", sum);
	parts = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < b.lines.n; i++) {
		const struct bom_line *l = &VEC_AT(b.lines, struct bom_line, i);
		e = tnode_new(TN_MAP, 0, 0);
		put(e, "category", s_(bom_category_names[l->category]));
		put(e, "supply", s_(l->included ? "included" : "buy"));
		put(e, "vendor", s_(l->vendor));
		put(e, "model", s_(l->model));
		put(e, "part_number", s_(l->part));
		put(e, "part_number_status", s_(bom_part_status_names[l->part_status]));
		put(e, "length_m", n_(l->length_m));
		put(e, "quantity", n_((double)l->quantity));
		/* Power not published (and included lines, whose power is their host's): null. */
		put(e, "unit_power_typ_W", w_(l->unit_typ_W));
		put(e, "unit_power_max_W", w_(l->unit_max_W));
		put(e, "total_power_typ_W", w_(l->total_typ_W));
		put(e, "total_power_max_W", w_(l->total_max_W));
		put(e, "power_source", s_(l->power_note));
		put(e, "notes", s_(l->notes));
		tnode_add(parts, NULL, 0, 0, e);
	}
	put(root, "parts", parts);
	cab = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < b.cabling.n; i++) {
		const struct bom_cabling *c = &VEC_AT(b.cabling, struct bom_cabling, i);
		struct tnode *bm = tnode_new(TN_MAP, 0, 0);
		int m;
		e = tnode_new(TN_MAP, 0, 0);
		put(e, "from", s_(c->from));
		put(e, "to", s_(c->to));
		put(e, "links", n_((double)c->links));
		put(e, "speed_gbps", n_(c->speed_gbps));
		put(e, "media", s_(media_names[c->media]));
		for (m = MEDIA_DAC; m <= MEDIA_TRANSCEIVER; m++)
			put(bm, media_names[m], n_((double)c->by_media[m]));
		put(e, "links_by_media", bm);
		put(e, "cable", s_(c->cable));
		put(e, "cables", n_((double)c->cables));
		put(e, "optic_from", s_(c->optic_from));
		put(e, "optics_from", n_((double)c->optics_from));
		put(e, "optic_to", s_(c->optic_to));
		put(e, "optics_to", n_((double)c->optics_to));
		put(e, "fibres", n_((double)c->fibres));
		put(e, "min_length_m", n_(c->min_m));
		put(e, "max_length_m", n_(c->max_m));
		tnode_add(cab, NULL, 0, 0, e);
	}
	put(root, "cabling", cab);
	met = tnode_new(TN_MAP, 0, 0);
	put(met, "allreduce_size_bytes", n_(mv.allreduce_bytes));
	put(met, "allreduce_algorithm", s_(mv.allreduce_algo));
	put(met, "allreduce_busbw_GBps", n_(mv.allreduce_busbw_GBps));
	put(met, "node_ceiling_GBps", n_(mv.node_GBps));
	for (t = 0; t < mv.ntiers; t++) {
		char key[48];
		snprintf(key, sizeof key, "oversubscription_%s", switch_role_names[mv.tiers[t].role]);
		put(met, key, n_(mv.tiers[t].ratio));
	}
	put(met, "bisection_GBps", n_(mv.bisection_GBps));
	if (mv.workload_valid) {
		put(met, "step_time_ms", n_(mv.step_ms));
		put(met, "tokens_per_s", n_(mv.tokens_per_s));
		put(met, "speedup", n_(mv.speedup));
		put(met, "efficiency", n_(mv.efficiency));
	}
	put(met, "bottleneck", s_(mv.bottleneck));
	put(root, "metrics", met);
	probs = tnode_new(TN_SEQ, 0, 0);
	for (i = 0; i < diag_count(&b.problems); i++)
		tnode_add(probs, NULL, 0, 0, s_(diag_get(&b.problems, i)->msg));
	put(root, "problems", probs);
	inventory_free(&inv);
	bom_free(&b);
	return root;
}

char *export_text(const struct design *d, const struct catalog *cat, const char *format, char *err, size_t errsz)
{
	if (strcmp(format, "yaml") == 0 || strcmp(format, "json") == 0) {
		char *s = design_to_text(d, format[0] == 'j' ? FMT_JSON : FMT_YAML);
		if (!s)
			snprintf(err, errsz, "cannot write the design as %s: %s", format, tree_write_problem());
		return s;
	}
	if (strcmp(format, "bom-csv") == 0)
		return bom_csv(d, cat);
	if (strcmp(format, "bom-yaml") == 0 || strcmp(format, "bom-json") == 0) {
		struct tnode *t = bom_tree(d, cat);
		char *s = tree_to_text(t, format[4] == 'j' ? FMT_JSON : FMT_YAML);
		tnode_free(t);
		if (!s)
			snprintf(err, errsz, "cannot write the bill of materials as %s: %s", format + 4, tree_write_problem());
		return s;
	}
	if (strcmp(format, "dot") == 0)
		return export_dot(d, cat);
	snprintf(err, errsz, "format '%s' writes several files: give -o", format);
	return NULL;
}
