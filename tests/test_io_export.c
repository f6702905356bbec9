/* Exports: each one parsed back (CSV, YAML, JSON) and checked against the design. */
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
#include "model/inventory.h"

#include "shipped.h"

TestSuite(export, .init = setup, .fini = teardown);

static void load(const char *path, struct design *d, struct catalog *cat)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(path, &shipped, d, &diag), "%s", path);
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

/* Quantity of the CSV line whose category and model match (summed over lines). */
static long csv_quantity(const char *csv, const char *category, const char *model)
{
	char *copy = strdup(csv), *line, *save = NULL;
	long total = 0;
	for (line = strtok_r(copy, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		char cat[64], vendor[64], mdl[128];
		long q;
		if (sscanf(line, "%63[^,],%63[^,],%127[^,],%*[^,],%ld", cat, vendor, mdl, &q) == 4 ||
		    (sscanf(line, "%63[^,],,%127[^,],%*[^,],%ld", cat, mdl, &q) == 3 && (vendor[0] = 0, 1)) ||
		    (sscanf(line, "%63[^,],%63[^,],%127[^,],,%ld", cat, vendor, mdl, &q) == 4) ||
		    (sscanf(line, "%63[^,],,%127[^,],,%ld", cat, mdl, &q) == 3)) {
			if (strcmp(cat, category) == 0 && (!model || strcmp(mdl, model) == 0))
				total += q;
		}
	}
	free(copy);
	return total;
}

Test(export, bom_csv_counts_every_part)
{
	struct design d;
	struct catalog cat;
	char err[200], *csv;
	load("share/examples/reference-case.yaml", &d, &cat);
	csv = export_text(&d, &cat, "bom-csv", err, sizeof err);
	cr_assert_not_null(csv, "%s", err);
	cr_assert(strncmp(csv, "category,vendor,model,part_number,quantity,unit_power_W,total_power_W,notes\r\n", 77) == 0);
	cr_expect_eq(csv_quantity(csv, "server", NULL), 4);
	cr_expect_eq(csv_quantity(csv, "gpu", NULL), 32);
	cr_expect_eq(csv_quantity(csv, "nic", "connectx-5-roce-100g"), 16);
	cr_expect_eq(csv_quantity(csv, "switch", "sn2700"), 1);
	cr_expect_eq(csv_quantity(csv, "cable", "dac-100g-qsfp28"), 16, "ToR wiring is DAC: one cable per link");
	cr_expect_eq(csv_quantity(csv, "transceiver", NULL), 0);
	free(csv);
	catalog_free(&cat);
	design_free(&d);
}

Test(export, bom_counts_optics_per_end_with_twin_ports)
{
	struct design d;
	struct catalog cat;
	char err[200], *csv;
	from_template("superpod", "units=2", &d, &cat);
	csv = export_text(&d, &cat, "bom-csv", err, sizeof err);
	cr_assert_not_null(csv);
	/* 512 server-leaf links: 512 single-port optics at the NICs, 256 twin-port at the
	 * leaves; 512 leaf-spine links: 256 twin-port at each end. */
	cr_expect_eq(csv_quantity(csv, "transceiver", "transceiver-400g-dr4"), 512);
	cr_expect_eq(csv_quantity(csv, "transceiver", "transceiver-800g-2xdr4"), 256 + 256 + 256);
	cr_expect_eq(csv_quantity(csv, "fibre", NULL), 1024, "one fibre per optical link");
	cr_expect_eq(csv_quantity(csv, "switch", "qm9700"), 16 + 8);
	cr_expect_eq(csv_quantity(csv, "server", "dgx-h100"), 64);
	free(csv);
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
	cJSON *j, *parts, *e;
	long gpus = 0;
	int nparts;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	json = export_text(&d, &cat, "bom-json", err, sizeof err);
	j = cJSON_Parse(json);
	cr_assert_not_null(j);
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "summary"), "gpus")->valuedouble, 256);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(j, "design")->valuestring, "dgx-h100-1su");
	parts = cJSON_GetObjectItemCaseSensitive(j, "parts");
	cJSON_ArrayForEach(e, parts)
		if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "category")->valuestring, "gpu") == 0)
			gpus += (long)cJSON_GetObjectItemCaseSensitive(e, "quantity")->valuedouble;
	cr_expect_eq(gpus, 256);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "cabling")), 2);
	cr_expect(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "metrics"), "allreduce_busbw_GBps")
			  ->valuedouble > 100);
	cr_expect_not_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "metrics"), "bottleneck"));
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

Test(export, dot_is_well_formed_and_renders)
{
	struct design d;
	struct catalog cat;
	char err[200], *dot;
	const char *p;
	int depth = 0, edges = 0;
	load("share/examples/reference-case.yaml", &d, &cat);
	dot = export_text(&d, &cat, "dot", err, sizeof err);
	cr_assert_not_null(dot);
	cr_assert(strncmp(dot, "graph \"reference-case\" {", 24) == 0, "%s", dot);
	for (p = dot; *p; p++)
		depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
	cr_expect_eq(depth, 0, "braces balance");
	for (p = dot; (p = strstr(p, "\" -- \"")); p++)
		edges++;
	cr_expect_eq(edges, 4, "one edge per server to the ToR");
	if (access("/usr/bin/dot", X_OK) == 0) {
		FILE *f = fopen("/tmp/ncf-test.dot", "w");
		fputs(dot, f);
		fclose(f);
		cr_expect_eq(system("dot -Tsvg /tmp/ncf-test.dot -o /tmp/ncf-test.svg 2>/tmp/ncf-dot.err"), 0, "dot renders it");
	}
	free(dot);
	catalog_free(&cat);
	design_free(&d);
}

Test(export, astra_sim_two_files_and_refusals)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	char err[300], *yml, *json;
	size_t len;
	struct tnode *t;
	cJSON *j;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cr_assert(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra", err, sizeof err), "%s", err);
	yml = file_read("/tmp/ncf-astra.network.yml", &len, err, sizeof err);
	cr_assert_not_null(yml);
	t = parse_yaml(yml, len, &diag);
	cr_assert_not_null(t);
	cr_expect_eq(tnode_get(t, "topology", NULL)->n, 2);
	cr_expect_eq(tnode_get(t, "npus_count", NULL)->n, 2);
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[0]->text, "8");
	cr_expect_str_eq(tnode_get(t, "npus_count", NULL)->kids[1]->text, "32");
	cr_expect_str_eq(tnode_get(t, "topology", NULL)->kids[0]->text, "Switch");
	cr_expect_eq(tnode_get(t, "bandwidth", NULL)->n, 2);
	cr_expect_eq(tnode_get(t, "latency", NULL)->n, 2);
	tnode_free(t);
	json = file_read("/tmp/ncf-astra.system.json", &len, err, sizeof err);
	j = cJSON_Parse(json);
	cr_assert_not_null(j);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "all-reduce-implementation")), 2);
	cJSON_Delete(j);
	free(yml);
	free(json);
	catalog_free(&cat);
	design_free(&d);
	/* What ASTRA-sim cannot express is refused, never flattened. */
	from_template("leaf-spine", "oversubscription=2", &d, &cat);
	cr_assert_not(export_files(&d, &cat, "astra-sim", "/tmp/ncf-astra2", err, sizeof err));
	cr_expect_str_eq(err, "ASTRA-sim's analytical backend has no oversubscription: leaf is 2:1 (it would be exported as non-blocking)");
	catalog_free(&cat);
	design_free(&d);
	diag_free(&diag);
}

Test(export, netbox_devices_cables_and_types)
{
	struct design d;
	struct catalog cat;
	struct inventory inv;
	char err[300], line[512], *yml;
	FILE *f;
	long devices = 0, cables = 0;
	size_t len;
	struct ncf_diag diag = { 0 };
	struct tnode *t;
	load("share/examples/dgx-h100-1su.yaml", &d, &cat);
	cr_assert(system("rm -rf /tmp/ncf-netbox") == 0);
	cr_assert(export_files(&d, &cat, "netbox", "/tmp/ncf-netbox", err, sizeof err), "%s", err);
	inventory_compute(&d, &cat, &inv);
	f = fopen("/tmp/ncf-netbox/devices.csv", "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof line, f))
		devices++;
	fclose(f);
	cr_expect_eq(devices - 1, inv.servers + inv.switches[0] + inv.switches[1] + inv.switches[2]);
	f = fopen("/tmp/ncf-netbox/cables.csv", "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(line, sizeof line, f));
	cr_expect_str_eq(line, "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status\n");
	while (fgets(line, sizeof line, f))
		cables++;
	fclose(f);
	cr_expect_eq(cables, inv.links);
	/* Every interface appears in one cable at most. */
	cr_expect_eq(system("awk -F, 'NR>1{print $1\":\"$3; print $4\":\"$6}' /tmp/ncf-netbox/cables.csv | sort | uniq -d | "
			    "grep -q . && exit 1 || exit 0"),
		     0);
	yml = file_read("/tmp/ncf-netbox/device-types/nvidia-qm9700.yaml", &len, err, sizeof err);
	cr_assert_not_null(yml, "%s", err);
	t = parse_yaml(yml, len, &diag);
	cr_assert_not_null(t);
	cr_expect_str_eq(tnode_get(t, "slug", NULL)->text, "nvidia-qm9700");
	cr_expect_str_eq(tnode_get(t, "manufacturer", NULL)->text, "NVIDIA");
	cr_expect_eq(tnode_get(t, "interfaces", NULL)->n, 64);
	cr_expect_str_eq(tnode_get(tnode_get(t, "interfaces", NULL)->kids[0], "type", NULL)->text, "infiniband-ndr");
	tnode_free(t);
	free(yml);
	diag_free(&diag);
	inventory_free(&inv);
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
