/* Exports: each one parsed back (CSV, YAML, JSON) and checked against the design and
 * against hand-counted numbers (NVIDIA's DGX H100 SuperPOD reference architecture for the
 * 2-unit SuperPOD). tests/check_exports.py, run from tests/cli.sh, adds the checks that
 * need the consumers' own rules (the NetBox library's schemas, dot -Tjson, ASTRA-sim). */
#include <criterion/criterion.h>
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/design_io.h"
#include "io/export.h"
#include "io/parse.h"
#include "layouts/template.h"
#include "model/cabling.h"
#include "model/cableplan.h"
#include "model/inventory.h"

#include "shipped.h"

#define SETS(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

TestSuite(export, .init = setup, .fini = teardown);

static void load(const char *path, struct design *d, struct catalog *cat)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(path, &shipped, d, &diag), "%s: %s", path, diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	diag_free(&diag);
	design_catalog(d, &shipped, cat);
}

static void from_template(const char *name, const char *set, struct design *d, struct catalog *cat)
{
	const struct template *t = template_find(name);
	struct tvalues v;
	char err[300];
	template_defaults(t, &v);
	if (set)
		cr_assert(template_set(t, &v, set, &shipped, err, sizeof err), "%s", err);
	design_init(d);
	cr_assert(template_build(t, &v, &shipped, d, err, sizeof err), "%s", err);
	design_catalog(d, &shipped, cat);
}

/* ---- a small RFC 4180 reader: rows of fields ---------------------------------------- */

#define CSV_COLS 16
struct row {
	char f[CSV_COLS][400];
	int n;
};

static int csv_read(const char *text, struct row *rows, int max)
{
	int r = 0;
	const char *p = text;
	while (*p && r < max) {
		struct row *row = &rows[r];
		int c = 0;
		memset(row, 0, sizeof *row);
		for (;;) {
			size_t o = 0;
			if (*p == '"') {
				for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
					if (*p == '"')
						p++;
					if (o + 1 < sizeof row->f[0])
						row->f[c][o++] = *p;
				}
				if (*p == '"')
					p++;
			} else {
				for (; *p && *p != ',' && *p != '\r' && *p != '\n'; p++)
					if (o + 1 < sizeof row->f[0])
						row->f[c][o++] = *p;
			}
			c++;
			if (*p == ',' && c < CSV_COLS) {
				p++;
				continue;
			}
			break;
		}
		row->n = c;
		while (*p == '\r' || *p == '\n')
			p++;
		r++;
	}
	return r;
}

/* BOM CSV columns. */
enum { B_CAT, B_SUPPLY, B_VENDOR, B_MODEL, B_PART, B_LEN, B_QTY, B_UTYP, B_UMAX, B_TTYP, B_TMAX, B_PSRC, B_NOTES, B_PSTAT };

static struct row rows[4096];

/* Sum of the quantities of the rows of a category (and model, and a text in the notes). */
static long qty(int n, const char *cat, const char *model, const char *supply, const char *note)
{
	long t = 0;
	int i;
	for (i = 1; i < n; i++)
		if (strcmp(rows[i].f[B_CAT], cat) == 0 && (!model || strcmp(rows[i].f[B_MODEL], model) == 0) &&
		    (!supply || strcmp(rows[i].f[B_SUPPLY], supply) == 0) && (!note || strstr(rows[i].f[B_NOTES], note)))
			t += atol(rows[i].f[B_QTY]);
	return t;
}

static int bom_rows(const struct design *d, const struct catalog *cat)
{
	char err[200], *csv = export_text(d, cat, "bom-csv", err, sizeof err);
	int n;
	cr_assert_not_null(csv, "%s", err);
	n = csv_read(csv, rows, 4096);
	free(csv);
	return n;
}

/* The last two rows: the total (sums of the lines) and what the BOM leaves out. */
static void check_totals(int n)
{
	double typ = 0, max = 0;
	int i;
	cr_assert_str_eq(rows[n - 2].f[B_CAT], "total");
	cr_assert_str_eq(rows[n - 1].f[B_CAT], "note");
	cr_expect(strstr(rows[n - 1].f[B_NOTES], "leaves out: the storage, in-band and out-of-band management networks"));
	for (i = 1; i < n - 2; i++)
		if (strcmp(rows[i].f[B_SUPPLY], "buy") == 0) {
			typ += atof(rows[i].f[B_TTYP]);
			max += atof(rows[i].f[B_TMAX]);
		}
	cr_expect_float_eq(atof(rows[n - 2].f[B_TTYP]), typ, 1e-6, "typical total = sum of the lines");
	cr_expect_float_eq(atof(rows[n - 2].f[B_TMAX]), max, 1e-6, "maximum total = sum of the lines");
}

Test(export, bom_csv_reference_case)
{
	struct design d;
	struct catalog cat;
	int n;
	load("share/examples/reference-case.yaml", &d, &cat);
	n = bom_rows(&d, &cat);
	cr_assert_str_eq(rows[0].f[0], "category");
	cr_assert_eq(rows[0].n, 14);
	cr_assert_str_eq(rows[0].f[B_UTYP], "unit_power_typ_W");
	cr_assert_str_eq(rows[0].f[B_PSTAT], "part_number_status");
	cr_expect_eq(qty(n, "server", "hgx-a100-8gpu", "buy", NULL), 4);
	cr_expect_eq(qty(n, "gpu", NULL, "included", NULL), 32, "the GPUs come in the servers");
	cr_expect_eq(qty(n, "nic", "connectx-5-roce-100g", "buy", NULL), 16, "PCIe NICs of an HGX server: to buy");
	cr_expect_eq(qty(n, "switch", "sn2700", NULL, NULL), 1);
	/* One rack: 4 x 6U from U1 (centres 3, 9, 15, 21U), the ToR at U42 (centre 41.5U), 0.5 m
	 * slack: 1.41, 1.68, 1.94, 2.21 m, so 4 DACs of 1.5 m, 8 of 2 m, 4 of 2.5 m. */
	cr_expect_eq(qty(n, "cable", "dac-100g-qsfp28", NULL, NULL), 16);
	cr_expect_str_eq(rows[5].f[B_LEN], "1.5");
	cr_expect_str_eq(rows[5].f[B_QTY], "4");
	cr_expect_str_eq(rows[6].f[B_LEN], "2");
	cr_expect_str_eq(rows[6].f[B_QTY], "8");
	cr_expect_str_eq(rows[7].f[B_LEN], "2.5");
	cr_expect_eq(qty(n, "transceiver", NULL, NULL, NULL), 0);
	cr_expect_str_eq(rows[1].f[B_UMAX], "6500");
	cr_expect_str_eq(rows[1].f[B_TMAX], "26000");
	cr_expect_str_eq(rows[4].f[B_PSRC], "not published", "switch power: not in a source read, said so");
	/* Part numbers: stated where a source gives one (the NetBox library's MSN2700-CS2F),
	 * "unknown" where none is known (the HGX board's server, the generic DAC): never made up. */
	cr_expect_str_eq(rows[4].f[B_PART], "MSN2700-CS2F");
	cr_expect_str_eq(rows[4].f[B_PSTAT], "stated");
	cr_expect_str_eq(rows[3].f[B_PSTAT], "stated", "MCX555A-ECAT");
	cr_expect_str_eq(rows[1].f[B_PART], "");
	cr_expect_str_eq(rows[1].f[B_PSTAT], "unknown");
	cr_expect_str_eq(rows[2].f[B_PSTAT], "included");
	cr_expect_str_eq(rows[5].f[B_PART], "");
	cr_expect_str_eq(rows[5].f[B_PSTAT], "unknown", "the DAC has no part number in the catalog");
	cr_expect_str_eq(rows[n - 2].f[B_TTYP], "", "no typical power published: an empty total, not 0");
	{
		char err[200], *csv = export_text(&d, &cat, "bom-csv", err, sizeof err);
		cr_expect(strstr(csv, "part_number_status: stated (a source states this part number for this item and length); "
				      "family (the product family's number"), "the note says what the column means");
		free(csv);
	}
	check_totals(n);
	catalog_free(&cat);
	design_free(&d);
}

/* NVIDIA, DGX SuperPOD reference architecture (DGX H100), "Network Fabrics", Table 4
 * (hardware.md 8.1): 2 SU, 16 leaves, 8 spines, 512 spine-leaf cables, 508 compute + UFM
 * cables for 63 nodes (63 x 8 = 504, and 4 for UFM). The template fills the 64th node
 * position with a DGX (512 node cables); the RA's own node count is checked below. */
Test(export, superpod_two_units_matches_the_reference_architecture)
{
	struct design d;
	struct catalog cat;
	int n;
	from_template("superpod", "units=2", &d, &cat);
	n = bom_rows(&d, &cat);
	cr_expect_eq(qty(n, "switch", "qm9700", NULL, "leaf"), 16);
	cr_expect_eq(qty(n, "switch", "qm9700", NULL, "spine"), 8);
	cr_expect_eq(qty(n, "server", "dgx-h100", "buy", NULL), 64);
	cr_expect_eq(qty(n, "nic", "connectx-7-ndr", "included", NULL), 512, "the DGX H100's ConnectX-7 are built in");
	cr_expect_eq(qty(n, "nic", NULL, "buy", NULL), 0);
	/* Cables per tier: one fibre per link, all within 50 m: multimode. */
	cr_expect_eq(qty(n, "fibre", "fibre-mmf-mpo12", NULL, "dgx -> leaf"), 512);
	cr_expect_eq(qty(n, "fibre", "fibre-mmf-mpo12", NULL, "leaf -> spine"), 512);
	/* Optics by type at each end: a twin-port module per cage. The DGX's four OSFP
	 * cages take flat-top twin-port modules (64 x 4); each leaf's 32 down ports fill 16
	 * cages, its 32 up ports 16 more; each spine's 64 ports fill 32 cages. */
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4-flat", NULL, "dgx end of dgx -> leaf"), 256);
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4", NULL, "leaf end of dgx -> leaf"), 256);
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4", NULL, "leaf end of leaf -> spine"), 256);
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4", NULL, "spine end of leaf -> spine"), 256);
	cr_expect_eq(qty(n, "transceiver", NULL, NULL, NULL), 1024);
	cr_expect_eq(qty(n, "transceiver", "transceiver-400g-dr4", NULL, NULL), 0, "no single-port module at a twin-port cage");
	/* MFP7E10 is the fibre's family: the catalog has no per-length part numbers, so every
	 * length says its variant is to be chosen; the modules' numbers are stated. */
	{
		int i, fibres = 0;
		for (i = 1; i < n - 2; i++) {
			if (!strcmp(rows[i].f[B_CAT], "fibre")) {
				fibres++;
				cr_expect_str_eq(rows[i].f[B_PART], "MFP7E10");
				cr_expect_str_eq(rows[i].f[B_PSTAT], "family", "row %d (%s m)", i, rows[i].f[B_LEN]);
			}
			if (!strcmp(rows[i].f[B_CAT], "transceiver"))
				cr_expect_str_eq(rows[i].f[B_PSTAT], "stated");
		}
		cr_expect_gt(fibres, 1, "several lengths");
	}
	check_totals(n);
	catalog_free(&cat);
	design_free(&d);
	/* The RA's 63 nodes: 504 compute cables (its 508 less the 4 of UFM, which ncfabric does
	 * not model), 512 spine-leaf cables, 16 leaves, 8 spines, 63 x 4 twin-port modules. */
	load("tests/data/superpod-h100-2su-ra.yaml", &d, &cat);
	n = bom_rows(&d, &cat);
	cr_expect_eq(qty(n, "switch", "qm9700", NULL, "leaf"), 16);
	cr_expect_eq(qty(n, "switch", "qm9700", NULL, "spine"), 8);
	cr_expect_eq(qty(n, "fibre", NULL, NULL, "dgx -> leaf") + 4, 508, "the RA's compute + UFM cables");
	cr_expect_eq(qty(n, "fibre", NULL, NULL, "leaf -> spine"), 512, "the RA's spine-leaf cables");
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4-flat", NULL, "dgx end"), 252);
	catalog_free(&cat);
	design_free(&d);
}

/* SN5600 leaves broken out 2 x 400G: one twin-port module per cage, not a single-port
 * module per port (64 cages, 128 logical ports). */
Test(export, breakout_takes_twin_port_modules_per_cage)
{
	struct design d;
	struct catalog cat;
	int n;
	load("tests/data/sn5600-breakout.yaml", &d, &cat);
	DESIGN_BUNDLE(&d, 0)->media = MEDIA_TRANSCEIVER;
	n = bom_rows(&d, &cat);
	/* 32 servers x 8 NICs rail-wired on 8 leaves: 32 ports a leaf = 16 cages; 8 x 16. */
	cr_expect_eq(qty(n, "transceiver", "transceiver-800g-2xsr4", NULL, "leaf end"), 128);
	cr_expect_eq(qty(n, "transceiver", "transceiver-400g-sr4-qsfp112", NULL, "srv end"), 256, "a QSFP112 module per NIC");
	cr_expect_eq(qty(n, "fibre", NULL, NULL, NULL), 256);
	check_totals(n);
	/* media auto: the servers next to the network rack are within the 3 m of a splitter
	 * DAC (a leaf cage's two links go to two single cages): those cages take one cable,
	 * the others a module; 128 leaf cages either way. */
	DESIGN_BUNDLE(&d, 0)->media = MEDIA_AUTO;
	n = bom_rows(&d, &cat);
	cr_expect_eq(qty(n, "cable", "dac-800g-split-2x400-qsfp112", NULL, NULL) +
			     qty(n, "transceiver", "transceiver-800g-2xsr4", NULL, "leaf end"),
		     128);
	cr_expect_eq(2 * qty(n, "cable", "dac-800g-split-2x400-qsfp112", NULL, NULL) +
			     qty(n, "transceiver", "transceiver-400g-sr4-qsfp112", NULL, "srv end"),
		     256);
	cr_expect_gt(qty(n, "cable", "dac-800g-split-2x400-qsfp112", NULL, NULL), 0);
	check_totals(n);
	catalog_free(&cat);
	design_free(&d);
}

/* Power nobody publishes is null in bom-json, not 0: the HGX A100 board's server has a
 * maximum (6,500 W, x 4 = 26,000 W) and no typical figure; the NIC and the switch have
 * neither. */
Test(export, bom_json_unknown_power_is_null)
{
	struct design d;
	struct catalog cat;
	char err[200], *text;
	cJSON *root, *parts, *p0, *nic, *sum;
	load("share/examples/reference-case.yaml", &d, &cat);
	text = export_text(&d, &cat, "bom-json", err, sizeof err);
	cr_assert_not_null(text, "%s", err);
	root = cJSON_Parse(text);
	cr_assert_not_null(root);
	parts = cJSON_GetObjectItem(root, "parts");
	p0 = cJSON_GetArrayItem(parts, 0);
	nic = cJSON_GetArrayItem(parts, 2);
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(p0, "unit_power_typ_W")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(p0, "total_power_typ_W")));
	cr_expect_float_eq(cJSON_GetObjectItem(p0, "unit_power_max_W")->valuedouble, 6500, 1e-9);
	cr_expect_float_eq(cJSON_GetObjectItem(p0, "total_power_max_W")->valuedouble, 26000, 1e-9);
	cr_expect_str_eq(cJSON_GetObjectItem(p0, "part_number_status")->valuestring, "unknown");
	cr_expect_str_eq(cJSON_GetObjectItem(nic, "model")->valuestring, "connectx-5-roce-100g");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(nic, "unit_power_max_W")));
	cr_expect_str_eq(cJSON_GetObjectItem(nic, "part_number_status")->valuestring, "stated");
	sum = cJSON_GetObjectItem(root, "summary");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(sum, "power_typ_W")));
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(sum, "power_typ_complete")));
	cr_expect_float_eq(cJSON_GetObjectItem(sum, "power_max_W")->valuedouble, 26000, 1e-9);
	cJSON_Delete(root);
	free(text);
	catalog_free(&cat);
	design_free(&d);
}

Test(export, bom_json_and_yaml_read_back)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	struct tnode *t;
	char err[200], *json, *yaml;
	cJSON *j, *parts, *e, *sum;
	long gpus = 0, optics = 0;
	int nparts;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	json = export_text(&d, &cat, "bom-json", err, sizeof err);
	j = cJSON_Parse(json);
	cr_assert_not_null(j);
	sum = cJSON_GetObjectItemCaseSensitive(j, "summary");
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(sum, "gpus")->valuedouble, 256);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(j, "design")->valuestring, "dgx-h100-1su");
	parts = cJSON_GetObjectItemCaseSensitive(j, "parts");
	cJSON_ArrayForEach(e, parts) {
		const char *c = cJSON_GetObjectItemCaseSensitive(e, "category")->valuestring;
		if (strcmp(c, "gpu") == 0)
			gpus += (long)cJSON_GetObjectItemCaseSensitive(e, "quantity")->valuedouble;
		if (strcmp(c, "transceiver") == 0)
			optics += (long)cJSON_GetObjectItemCaseSensitive(e, "quantity")->valuedouble;
	}
	cr_expect_eq(gpus, 256);
	cr_expect_eq(optics, (long)cJSON_GetObjectItemCaseSensitive(sum, "transceivers")->valuedouble,
		     "the summary's transceivers are the sum of its lines");
	cr_expect_eq(optics, 128 + 128 + 128 + 128, "32 DGX x 4; 8 leaves x 16 down and 16 up; 4 spines x 32");
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "cabling")), 2);
	cr_expect_not_null(cJSON_GetObjectItemCaseSensitive(j, "leaves_out"));
	cr_expect(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "metrics"), "allreduce_busbw_GBps")
			  ->valuedouble > 100);
	nparts = cJSON_GetArraySize(parts);
	cJSON_Delete(j);
	yaml = export_text(&d, &cat, "bom-yaml", err, sizeof err);
	t = parse_yaml(yaml, strlen(yaml), &diag);
	cr_assert_not_null(t, "bom-yaml parses: %s", diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	cr_expect_eq((int)tnode_get(t, "parts", NULL)->n, nparts, "the YAML and JSON BOMs list the same parts");
	tnode_free(t);
	free(json);
	free(yaml);
	diag_free(&diag);
	catalog_free(&cat);
	design_free(&d);
}

/* A part named with YAML's and CSV's special characters comes back intact. */
Test(export, odd_names_survive_every_format)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	struct tnode *t;
	char err[200], *yaml, *json;
	cJSON *j;
	int n;
	load("share/examples/reference-case.yaml", &d, &cat);
	SETS(VEC_AT(cat.switches, struct cat_switch, 0).vendor, "Acme: \"X1\", #1");
	{
		size_t i;
		for (i = 0; i < cat.switches.n; i++)
			if (strcmp(VEC_AT(cat.switches, struct cat_switch, i).name, "sn2700") == 0)
				SETS(VEC_AT(cat.switches, struct cat_switch, i).vendor, "Acme: \"X1\", #1");
	}
	yaml = export_text(&d, &cat, "bom-yaml", err, sizeof err);
	t = parse_yaml(yaml, strlen(yaml), &diag);
	cr_assert_not_null(t, "%s", yaml);
	tnode_free(t);
	json = export_text(&d, &cat, "bom-json", err, sizeof err);
	j = cJSON_Parse(json);
	cr_assert_not_null(j);
	cJSON_Delete(j);
	n = bom_rows(&d, &cat);
	cr_expect_eq(qty(n, "switch", "sn2700", NULL, NULL), 1);
	cr_expect_str_eq(rows[4].f[B_VENDOR], "Acme: \"X1\", #1");
	free(yaml);
	free(json);
	diag_free(&diag);
	catalog_free(&cat);
	design_free(&d);
}

static int count(const char *text, const char *what)
{
	int n = 0;
	const char *p;
	for (p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

Test(export, dot_draws_every_bundle_to_the_right_members)
{
	struct design d;
	struct catalog cat;
	char err[200], *dot;
	const char *p;
	int depth = 0;
	load("share/examples/reference-case.yaml", &d, &cat);
	dot = export_text(&d, &cat, "dot", err, sizeof err);
	cr_assert_not_null(dot);
	cr_assert(strncmp(dot, "graph \"reference-case\" {", 24) == 0, "%s", dot);
	for (p = dot; *p; p++)
		depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
	cr_expect_eq(depth, 0, "braces balance");
	cr_expect_eq(count(dot, "\" -- \"tor-01\""), 4, "each of the 4 servers to the ToR");
	cr_expect_eq(count(dot, "\"a100-03\" -- \"tor-01\" [label=\"4 x 100G\""), 1);
	free(dot);
	catalog_free(&cat);
	design_free(&d);
	/* The SuperPOD: 64 servers and 16 leaves are summarised; all 8 spines get an edge. */
	from_template("superpod", "units=2", &d, &cat);
	dot = export_text(&d, &cat, "dot", err, sizeof err);
	cr_expect_eq(count(dot, "\"group:dgx\" -- \"group:leaf\" [label=\"512 x 400G\\nrail, 8 per dgx\""), 1, "%s", dot);
	cr_expect_eq(count(dot, "\"group:leaf\" -- \"spine-0"), 8);
	cr_expect_eq(count(dot, "\"-1\""), 0, "no member -1");
	cr_expect(strstr(dot, "[label=\"dgx: 64 x dgx-h100, 8 x h100-sxm5\\ndgx-01 .. dgx-64\""), "%s", dot);
	cr_expect(strstr(dot, "subgraph \"cluster_server_0\" {\n    label=\"\";"), "a box without a label around the one node");
	free(dot);
	catalog_free(&cat);
	design_free(&d);
	/* Rail-only: 8 rails, each with its edge. */
	from_template("rail-only", NULL, &d, &cat);
	dot = export_text(&d, &cat, "dot", err, sizeof err);
	cr_expect_eq(count(dot, "\"group:srv\" -- \"rail-0"), 8, "%s", dot);
	cr_expect_eq(count(dot, "[label=\"32 x 400G on each of 8 edges\""), 1);
	free(dot);
	catalog_free(&cat);
	design_free(&d);
}

/* The buffer overflow of a bundle to a switch group of count 0: now a clear error in
 * NetBox, an edge that says so in Graphviz, and nothing to order in the BOM. */
Test(export, switch_group_of_count_zero)
{
	struct design d;
	struct catalog cat;
	char err[400], *dot;
	int n;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	DESIGN_SWITCH(&d, 0)->count = 0;
	cr_assert(system("rm -rf /tmp/ncf-netbox-zero") == 0);
	cr_assert_not(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox-zero", err, sizeof err));
	cr_expect_str_eq(err, "the cabling plan does not close: dgx -> leaf: 256 of 256 links land on no switch (leaf has 0)");
	cr_expect_neq(access("/tmp/ncf-netbox-zero", F_OK), 0, "nothing written");
	dot = export_text(&d, &cat, "dot", err, sizeof err);
	cr_expect(strstr(dot, "\"group:dgx\" -- \"group:leaf\" [label=\"256 of 256 links land nowhere\""), "%s", dot);
	free(dot);
	n = bom_rows(&d, &cat);
	cr_expect_eq(qty(n, "fibre", NULL, NULL, "dgx -> leaf"), 0);
	catalog_free(&cat);
	design_free(&d);
}

Test(export, astra_sim_units_and_latency)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	char err[300], *yml, *json;
	size_t len;
	struct tnode *t, *bw, *lat;
	cJSON *j;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cr_assert(system("rm -f /tmp/ncf-astra.network.yml* /tmp/ncf-astra.system.json*") == 0);
	cr_assert(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra", err, sizeof err), "%s", err);
	yml = file_read("/tmp/ncf-astra.network.yml", &len, err, sizeof err);
	cr_assert_not_null(yml);
	cr_expect(strncmp(yml, "# ncfabric export of dgx-h100-1su", 33) == 0);
	t = parse_yaml(yml, len, &diag);
	cr_assert_not_null(t);
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[0]->text, "8");
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[1]->text, "32");
	cr_expect_str_eq(tnode_get(t, "topology", NULL)->kids[1]->text, "Switch");
	bw = tnode_get(t, "bandwidth", NULL);
	lat = tnode_get(t, "latency", NULL);
	/* The node: 8 x 400 Gb/s = 400 GB/s, 50 GB/s a GPU = 50e9 / 2^30 GiB/s = 46.566129. */
	cr_expect_str_eq(bw->kids[1]->text, "46.566129");
	/* NVLink 370.8 GB/s per GPU as NCCL counts it = 345.334411 GiB/s. */
	cr_expect_str_eq(bw->kids[0]->text, "345.334411");
	/* Switch counts two hops: NCCL's 3.4 us and 14 us per step, halved. */
	cr_expect_str_eq(lat->kids[0]->text, "1700");
	cr_expect_str_eq(lat->kids[1]->text, "7000");
	tnode_free(t);
	json = file_read("/tmp/ncf-astra.system.json", &len, err, sizeof err);
	j = cJSON_Parse(json);
	cr_assert_not_null(j);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "all-reduce-implementation")), 2);
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(j, "local-mem-bw")->valuedouble, 3350, "H100 HBM3, GB/s");
	cJSON_Delete(j);
	free(yml);
	free(json);
	catalog_free(&cat);
	design_free(&d);
	/* Re-export in place: no backups; a file that is not ours is left alone. */
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cr_assert(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra", err, sizeof err), "%s", err);
	cr_expect_neq(access("/tmp/ncf-astra.network.yml~", F_OK), 0, "no backup file");
	cr_assert(system("echo '{}' > /tmp/ncf-astra-mine.system.json") == 0);
	cr_assert_not(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra-mine", err, sizeof err));
	cr_expect_str_eq(err, "/tmp/ncf-astra-mine.system.json exists and was not written by an ncfabric export: move it away or "
			      "choose another -o");
	catalog_free(&cat);
	design_free(&d);
	diag_free(&diag);
}

/* Oversubscription that splits the nodes evenly becomes a dimension; hashing, and what
 * cannot be split, are said in the comment; the built-in default design exports. */
Test(export, astra_sim_expresses_what_it_can)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	char err[300], *yml;
	size_t len;
	struct tnode *t;
	load("tests/data/tor-2to1.yaml", &d, &cat);
	cr_assert(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra3", err, sizeof err), "%s", err);
	yml = file_read("/tmp/ncf-astra3.network.yml", &len, err, sizeof err);
	t = parse_yaml(yml, len, &diag);
	cr_assert_not_null(t);
	/* 32 nodes, 8 under each 2:1 leaf: [8 GPUs, 8 nodes, 4 leaves]; 4 x 400 Gb/s over 8
	 * GPUs = 25 GB/s under a leaf, 12.5 GB/s across leaves. */
	cr_expect_eq(tnode_get(t, "npus_count", NULL)->n, 3);
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[1]->text, "8");
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[2]->text, "4");
	cr_expect_str_eq(tnode_get(t, "bandwidth", NULL)->kids[1]->text, "23.283064");
	cr_expect_str_eq(tnode_get(t, "bandwidth", NULL)->kids[2]->text, "11.641532");
	cr_expect(strstr(yml, "#   - static path choice at the uplinks of leaf: InfiniBand's static routing, one uplink per destination;"),
		  "%s", yml);
	tnode_free(t);
	free(yml);
	catalog_free(&cat);
	design_free(&d);
	cr_assert(design_load_default(&shipped, &d, &diag));
	design_catalog(&d, &shipped, &cat);
	cr_assert(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra4", err, sizeof err), "the default design: %s", err);
	yml = file_read("/tmp/ncf-astra4.network.yml", &len, err, sizeof err);
	/* One leaf: nothing chooses among paths (NCCL binds each channel to one NIC). */
	cr_expect_null(strstr(yml, "static path choice"), "%s", yml);
	free(yml);
	catalog_free(&cat);
	design_free(&d);
	/* Refused only what it cannot express: nodes that differ. */
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	{
		struct server_group *g = vec_push(&d.servers, sizeof *g);
		*g = *DESIGN_SERVER(&d, 0);
		memset(&g->nics, 0, sizeof g->nics);
		SETS(g->name, "small");
		g->gpus = 4;
		g->count = 1;
	}
	cr_assert_not(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra5", err, sizeof err));
	cr_expect(strncmp(err, "ASTRA-sim's analytical network is symmetric", 43) == 0, "%s", err);
	catalog_free(&cat);
	design_free(&d);
	diag_free(&diag);
}

static long lines_of(const char *path)
{
	char line[1024];
	long n = 0;
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof line, f))
		n++;
	fclose(f);
	return n;
}

Test(export, netbox_folder)
{
	struct design d;
	struct catalog cat;
	struct inventory inv;
	char err[300], *yml, *text;
	size_t len;
	struct ncf_diag diag = { 0 };
	struct tnode *t;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cr_assert(system("rm -rf /tmp/ncf-netbox") == 0);
	cr_assert(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox", err, sizeof err), "%s", err);
	inventory_compute(&d, &cat, &inv);
	cr_expect_eq(lines_of("/tmp/ncf-netbox/devices.csv") - 1, inv.servers + inv.switches[0] + inv.switches[1]);
	cr_expect_eq(lines_of("/tmp/ncf-netbox/cables.csv") - 1, inv.links);
	cr_expect_eq(lines_of("/tmp/ncf-netbox/racks.csv") - 1, inv.racks);
	/* The library's QM9700 lacks P22.1 and P23.0: 2 interfaces for each of 12 switches. */
	cr_expect_eq(lines_of("/tmp/ncf-netbox/interfaces.csv") - 1, 24);
	text = file_read("/tmp/ncf-netbox/library-types.txt", &len, err, sizeof err);
	cr_expect(strstr(text, "\ndevice-types/Nvidia/QM9700.yaml\n"), "%s", text);
	free(text);
	cr_expect_neq(access("/tmp/ncf-netbox/device-types/Nvidia/QM9700.yaml", F_OK), 0, "the library's types are not rewritten");
	yml = file_read("/tmp/ncf-netbox/device-types/Nvidia/DGX-H100.yaml", &len, err, sizeof err);
	cr_assert_not_null(yml, "%s", err);
	cr_expect(strncmp(yml, "---\n", 4) == 0);
	t = parse_yaml(yml, len, &diag);
	cr_assert_not_null(t);
	cr_expect_str_eq(tnode_get(t, "manufacturer", NULL)->text, "Nvidia");
	cr_expect_str_eq(tnode_get(t, "slug", NULL)->text, "nvidia-dgx-h100");
	cr_expect_eq(tnode_get(t, "interfaces", NULL)->n, 8);
	cr_expect_str_eq(tnode_get(tnode_get(t, "interfaces", NULL)->kids[3], "name", NULL)->text, "osfp2p2");
	cr_expect_eq(tnode_get(t, "power-ports", NULL)->n, 6);
	cr_expect_str_eq(tnode_get(tnode_get(t, "power-ports", NULL)->kids[0], "maximum_draw", NULL)->text, "1700",
			 "10.2 kW over 6 supplies");
	tnode_free(t);
	free(yml);
	/* Re-export: no backup files; a file that was ours and is no longer written goes. */
	cr_assert(system("echo stale > /tmp/ncf-netbox/device-types/Nvidia/Old.yaml && "
			 "echo device-types/Nvidia/Old.yaml >> /tmp/ncf-netbox/ncfabric-export.txt") == 0);
	cr_assert(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox", err, sizeof err), "%s", err);
	cr_expect_eq(system("find /tmp/ncf-netbox -name '*~' | grep -q . && exit 1 || exit 0"), 0, "no ~ files");
	cr_expect_neq(access("/tmp/ncf-netbox/device-types/Nvidia/Old.yaml", F_OK), 0, "the stale file of an earlier export");
	/* A folder that holds someone else's files is refused. */
	cr_assert(system("rm -rf /tmp/ncf-netbox-other && mkdir /tmp/ncf-netbox-other && touch /tmp/ncf-netbox-other/mine.csv") == 0);
	cr_assert_not(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox-other", err, sizeof err));
	cr_expect_str_eq(err, "/tmp/ncf-netbox-other is not empty and holds no earlier ncfabric export (ncfabric-export.txt): "
			      "choose a new or empty folder");
	diag_free(&diag);
	inventory_free(&inv);
	catalog_free(&cat);
	design_free(&d);
}

/* Breakout sub-ports as NetBox takes them: physical interfaces of their own with no
 * parent (NetBox's Interface.clean() gives a parent only to virtual interfaces, and a
 * virtual interface takes no cable). 8 SN5600 of 64 cages, 2 sub-ports each: 1024 rows;
 * the 256 cables (32 servers x 8 NICs) all land on sub-ports the CSV creates. */
Test(export, netbox_breakout_sub_ports_are_physical)
{
	struct design d;
	struct catalog cat;
	char err[300], *ifc, *cab;
	size_t len;
	int n, nc, i, j;
	static struct row cabs[300];
	load("tests/data/sn5600-breakout.yaml", &d, &cat);
	cr_assert(system("rm -rf /tmp/ncf-netbox-bo") == 0);
	cr_assert(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox-bo", err, sizeof err), "%s", err);
	ifc = file_read("/tmp/ncf-netbox-bo/interfaces.csv", &len, err, sizeof err);
	cab = file_read("/tmp/ncf-netbox-bo/cables.csv", &len, err, sizeof err);
	cr_assert(ifc && cab, "%s", err);
	n = csv_read(ifc, rows, 4096);
	nc = csv_read(cab, cabs, 300);
	cr_expect_eq(n - 1, 8 * 64 * 2);
	cr_expect_eq(nc - 1, 32 * 8);
	cr_expect_eq(rows[0].n, 4);
	cr_expect_str_eq(rows[0].f[3], "description", "no parent column");
	cr_expect_str_eq(rows[1].f[1], "swp1s0");
	cr_expect_str_eq(rows[1].f[2], "400gbase-x-osfp");
	cr_expect_str_eq(rows[1].f[3], "breakout sub-port 1 of 2 of port swp1");
	cr_expect_str_eq(rows[2].f[1], "swp1s1");
	for (i = 1; i < nc; i++) {
		int found = 0;
		for (j = 1; j < n && !found; j++)
			found = strcmp(rows[j].f[0], cabs[i].f[3]) == 0 && strcmp(rows[j].f[1], cabs[i].f[5]) == 0;
		cr_expect(found, "cable %d lands on %s %s, not a sub-port the CSV creates", i, cabs[i].f[3], cabs[i].f[5]);
	}
	free(ifc);
	free(cab);
	catalog_free(&cat);
	design_free(&d);
}

/* Links beyond the reach of what they are made of, counted independently link by link:
 * the fat tree of k = 32 runs edge -> aggregation up to 110.8 m (the physical layout), on
 * single-mode MPO fibre the catalog gives 100 m (MFP7E30) and modules that reach 100 m
 * (MMS4X00-NS400): the links over 100 m are the warning's count, and their cages have no
 * module that reaches. */
struct reach_count {
	long over[3], links[3];
	double max[3];
};

static void count_reach(const struct cab_link *l, const struct cp_link *c, void *v)
{
	struct reach_count *r = v;
	if (l->bundle > 2)
		return;
	r->links[l->bundle]++;
	if (c->length_m > 100 + 1e-9)
		r->over[l->bundle]++;
	if (c->length_m > r->max[l->bundle])
		r->max[l->bundle] = c->length_m;
}

Test(export, over_reach_and_parts_not_in_the_catalog_are_warnings)
{
	struct design d;
	struct catalog cat;
	struct cableplan p;
	struct reach_count r = { { 0 }, { 0 }, { 0 } };
	const struct cp_bundle *b;
	char want[400];
	from_template("fat-tree", "k=32", &d, &cat);
	cableplan_build(&d, &cat, &p, count_reach, &r);
	b = &VEC_AT(p.bundles, struct cp_bundle, 1);
	cr_assert_eq(r.links[1], 8192, "k^3/4 links edge -> aggregation");
	cr_assert_gt(r.over[1], 0);
	cr_expect_eq(b->over_links, r.over[1]);
	cr_expect_float_eq(b->over_m, r.max[1], 1e-9);
	cr_expect_float_eq(b->over_reach_m, 100, 1e-9);
	cr_expect_str_eq(b->over_part, "fibre-smf-mpo12");
	cr_expect_eq(b->missing_links, r.over[1], "the cages of those links have no module that reaches");
	cr_expect_eq(r.over[0] + r.over[2], 0);
	cr_expect_eq(VEC_AT(p.bundles, struct cp_bundle, 0).missing_links, 0, "the template's 400G OSFP cages take SR4");
	cr_expect_str_eq(VEC_AT(p.bundles, struct cp_bundle, 0).optic[0], "transceiver-400g-sr4");
	cr_assert_eq(diag_count(&p.parts), 2);
	snprintf(want, sizeof want,
		 "edge -> aggregation: %ld of 8192 links are longer than fibre-smf-mpo12 reaches (up to %.1f m, reach 100 m): "
		 "shorten the runs (the physical layout) or use a part that reaches", r.over[1], r.max[1]);
	cr_expect_str_eq(diag_get(&p.parts, 0)->msg, want);
	cr_expect_str_eq(diag_get(&p.parts, 0)->path, "bundles[1]");
	cr_expect_eq(diag_get(&p.parts, 0)->sev, NCF_WARNING);
	cr_expect(strstr(diag_get(&p.parts, 1)->msg, "links use a part the catalog does not have: 400G osfp transceiver (flat "
						     "top, smf, beyond the reach of the catalog's)"), "%s", diag_get(&p.parts, 1)->msg);
	cableplan_free(&p);
	catalog_free(&cat);
	design_free(&d);
	/* 800G: the catalog has no single-port 800G module; every link of the three bundles. */
	from_template("fat-tree", "speed=800", &d, &cat);
	cableplan_build(&d, &cat, &p, NULL, NULL);
	cr_assert_eq(diag_count(&p.parts), 3);
	cr_expect_str_eq(diag_get(&p.parts, 0)->msg, "host -> edge: 128 of 128 links use a part the catalog does not have: "
						      "800G unknown-cage transceiver (smf, not in the catalog); the BOM counts it "
						      "with no part number");
	cableplan_free(&p);
	catalog_free(&cat);
	design_free(&d);
	/* The shipped examples use parts that reach. */
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cableplan_build(&d, &cat, &p, NULL, NULL);
	cr_expect_eq(diag_count(&p.parts), 0);
	cableplan_free(&p);
	catalog_free(&cat);
	design_free(&d);
}

/* Rail wiring of 32 DGX (8 NICs) on 2 leaves: NIC l on leaf l mod 2, 128 links a leaf of 64
 * ports. The plan does not close: refused, nothing half written. */
Test(export, netbox_refuses_a_plan_that_does_not_close)
{
	struct design d;
	struct catalog cat;
	char err[400];
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	DESIGN_SWITCH(&d, 0)->count = 2;
	cr_assert_not(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox-2", err, sizeof err));
	cr_expect_str_eq(err, "the cabling plan does not close: dgx -> leaf: 128 of 256 links need a port beyond what the devices "
			      "have");
	catalog_free(&cat);
	design_free(&d);
}

Test(export, csv_quoting)
{
	char buf[64];
	cr_assert_str_eq(csv_field("plain", buf, sizeof buf), "plain");
	cr_assert_str_eq(csv_field("a,b", buf, sizeof buf), "\"a,b\"");
	cr_assert_str_eq(csv_field("say \"hi\"", buf, sizeof buf), "\"say \"\"hi\"\"\"");
	cr_assert_str_eq(csv_field("two\nlines", buf, sizeof buf), "\"two\nlines\"");
}

/* The plan's ports per switch (what the report shows and NetBox cables) and the check's
 * (switch_ports_used, what the radix check reads) are the same numbers, and so are the
 * link speeds, on every shipped example, test design and template. */
static void same_ports(const char *what, const struct design *d, const struct catalog *cat)
{
	struct inventory inv;
	size_t i;
	inventory_compute(d, cat, &inv);
	for (i = 0; i < d->switches.n; i++) {
		const struct inv_switch_group *s = &VEC_AT(inv.switch_groups, struct inv_switch_group, i);
		long down, up;
		switch_ports_used(d, DESIGN_SWITCH(d, i), &down, &up);
		cr_expect_eq(s->down, down, "%s, %s: the plan uses %ld down ports, the check counts %ld", what, s->name, s->down,
			     down);
		cr_expect_eq(s->up, up, "%s, %s: the plan uses %ld up ports, the check counts %ld", what, s->name, s->up, up);
	}
	inventory_free(&inv);
	{
		/* The plan's link speeds (resolved once) are bundle_speed_gbps's. */
		struct cab_bundle *wb = cabling_bundles(d, cat);
		for (i = 0; i < d->bundles.n; i++)
			cr_expect_eq(wb[i].gbps, bundle_speed_gbps(d, cat, DESIGN_BUNDLE(d, i)), "%s, bundle %zu", what, i);
		free(wb);
	}
}

Test(export, plan_and_check_count_the_same_ports)
{
	static const char *const files[] = { "share/examples/dgx-h100-1su.yaml", "share/examples/gb200-nvl72.yaml",
					     "share/examples/reference-case.yaml", "tests/data/sn5600-breakout.yaml",
					     "tests/data/superpod-h100-2su-ra.yaml", "tests/data/tor-2to1.yaml",
					     "tests/data/tor-pair-mesh.yaml" };
	struct design d;
	struct catalog cat;
	size_t i;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		load(files[i], &d, &cat);
		same_ports(files[i], &d, &cat);
		catalog_free(&cat);
		design_free(&d);
	}
	for (i = 0; i < ntemplates; i++) {
		from_template(templates[i].name, NULL, &d, &cat);
		same_ports(templates[i].name, &d, &cat);
		catalog_free(&cat);
		design_free(&d);
	}
}
