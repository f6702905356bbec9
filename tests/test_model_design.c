#include <criterion/criterion.h>
#include "fixtures.h"
#include "model/strmap.h"
#include "model/cmd.h"
#include "model/inventory.h"

static struct catalog cat;
static struct design d;
static struct ncf_diag diag;

static void setup(void)
{
	fx_catalog(&cat);
	fx_reference(&d);
	memset(&diag, 0, sizeof diag);
}

static void teardown(void)
{
	design_free(&d);
	catalog_free(&cat);
	diag_free(&diag);
}

TestSuite(design, .init = setup, .fini = teardown);

Test(design, reference_is_clean)
{
	cr_assert_eq(design_check(&d, &cat, &diag), 0);
	cr_assert_eq(diag.n_warnings, 0, "%s", diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
}

Test(design, inventory_counts)
{
	struct inventory inv;
	inventory_compute(&d, &cat, &inv);
	cr_assert_eq(inv.servers, 4);
	cr_assert_eq(inv.gpus, 32);
	cr_assert_eq(inv.nics_compute, 16);
	cr_assert_eq(inv.switches[ROLE_LEAF], 1);
	cr_assert_eq(inv.links, 16);
	cr_assert_eq(inv.cables_by_media[MEDIA_DAC], 16, "ToR wiring is DAC by the media rule");
	cr_assert_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).down, 16);
	cr_assert_eq(VEC_AT(inv.switch_groups, struct inv_switch_group, 0).free, 16);
	cr_assert_eq(VEC_AT(inv.bundles, struct inv_link, 0).speed_gbps, 100, "speed from the slower end");
	cr_assert_eq(inv.power_unknown, 4, "BOM lines without a maximum power: the server (no model), its NICs, the switch, the DAC");
	cr_assert_eq(inv.power_W, 32 * 400.0, "what is known: 32 GPUs of 400 W, the GPU line of a server without a model");
	inventory_free(&inv);
}

/* The designer keeps the inventory across edits that leave the hardware alone. */
Test(design, inventory_inputs)
{
	struct design e;
	design_copy(&e, &d);
	cr_assert(inventory_same_inputs(&e, &d));
	e.job.tp = 8;
	e.fabric.sharp = !e.fabric.sharp;
	snprintf(e.name, sizeof e.name, "renamed");
	cr_assert(inventory_same_inputs(&e, &d), "the job, the fabric options and the name are not the inventory's");
	DESIGN_SERVER(&e, 0)->count++;
	cr_assert_not(inventory_same_inputs(&e, &d), "a count is");
	DESIGN_SERVER(&e, 0)->count--;
	DESIGN_BUNDLE(&e, 0)->media = MEDIA_AOC;
	cr_assert_not(inventory_same_inputs(&e, &d), "a bundle's media is");
	DESIGN_BUNDLE(&e, 0)->media = DESIGN_BUNDLE(&d, 0)->media;
	e.physical.rack_power_kW = 20;
	cr_assert_not(inventory_same_inputs(&e, &d), "the physical layout is");
	design_free(&e);
}

Test(design, unknown_gpu_suggests)
{
	SETS(DESIGN_SERVER(&d, 0)->gpu, "a10");
	cr_assert_eq(design_check(&d, &cat, &diag), 1);
	cr_assert_str_eq(diag_get(&diag, 0)->msg, "unknown GPU 'a10' (did you mean 'a100'?)");
	cr_assert_str_eq(diag_get(&diag, 0)->path, "servers[0].gpu");
}

Test(design, ports_beyond_radix)
{
	DESIGN_SERVER(&d, 0)->count = 9; /* 36 links on a 32-port switch */
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR,
			 "ports beyond the switch's radix: each switch of 'tor' needs 36 ports (36 down, 0 up), a sw32x100 has 32"));
}

Test(design, nic_faster_than_slot)
{
	SETS(VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).model, "cx7-400-gen3");
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_WARNING, "NIC faster than its PCIe slot: cx7-400-gen3 carries 50.0 GB/s, its slot 15.8 GB/s"));
	cr_assert(fx_has(&diag, NCF_WARNING, "mismatched speeds: 'a100' ports run at 400 Gb/s, 'tor' ports at 100 Gb/s"));
}

Test(design, unconnected_nics_and_too_many_links)
{
	DESIGN_BUNDLE(&d, 0)->links_each = 2;
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_WARNING, "unconnected NICs: 2 of 4 compute NIC ports per server of 'a100' have no bundle"));
	diag_clear(&diag);
	DESIGN_BUNDLE(&d, 0)->links_each = 6;
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "bundles take 6 links from each server of 'a100', but its compute NICs have 4 ports"));
}

Test(design, dangling_and_downward_bundles)
{
	SETS(DESIGN_BUNDLE(&d, 0)->to, "spine");
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "no switch group named 'spine'"));
	diag_clear(&diag);
	SETS(DESIGN_BUNDLE(&d, 0)->to, "a100");
	SETS(DESIGN_BUNDLE(&d, 0)->from, "tor");
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "'a100' is not a switch group: bundles end on switches"));
}

Test(design, duplicate_names)
{
	SETS(DESIGN_SWITCH(&d, 0)->name, "a100");
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "duplicate group name 'a100' (also servers[0])"));
}

Test(design, job_mismatch_and_nvls)
{
	d.job.dp = 16;
	d.job.algo = ALGO_NVLS;
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_WARNING,
			 "a design that does not match the job: DP 16 x TP 1 x PP 1 x CP 1 = 16, not the 32 GPUs taking part; the model runs DP 32"));
	cr_assert(fx_has(&diag, NCF_WARNING, "NVLS asked for without NVSwitch"));
	diag_clear(&diag);
	d.job.gpus = 40;
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "the job asks for 40 GPUs, the design has 32"));
}

Test(design, breakout_limit)
{
	SETS(DESIGN_SWITCH(&d, 0)->model, "sw64x400");
	DESIGN_SWITCH(&d, 0)->breakout = 4;
	design_check(&d, &cat, &diag);
	cr_assert(fx_has(&diag, NCF_ERROR, "a sw64x400 port splits into at most 2, not 4"));
}

Test(design, copy_and_equal)
{
	struct design e;
	design_copy(&e, &d);
	cr_assert(design_equal(&d, &e));
	VEC_AT(DESIGN_SERVER(&e, 0)->nics, struct nic_spec, 0).count = 3;
	cr_assert_not(design_equal(&d, &e), "deep copy: the NIC list is not shared");
	cr_assert_eq(VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).count, 4);
	design_free(&e);
}

Test(design, catalog_merge_overrides_by_name)
{
	struct catalog over = { 0 }, merged;
	fx_nic(&over, "cx5-100", 200, 1, 4);  /* override */
	fx_nic(&over, "new-nic", 800, 1, 6);  /* addition */
	catalog_merge(&merged, &cat, &over);
	cr_assert_eq(catalog_nic(&merged, "cx5-100")->speed_gbps, 200);
	cr_assert_not_null(catalog_nic(&merged, "new-nic"));
	cr_assert_eq(merged.nics.n, cat.nics.n + 1);
	cr_assert_eq(catalog_nic(&cat, "cx5-100")->speed_gbps, 100, "the base is not changed");
	catalog_free(&merged);
	catalog_free(&over);
}

Test(design, pcie_rates)
{
	cr_assert_float_eq(pcie_GBps(3, 16), 15.76, 1e-9);
	cr_assert_float_eq(pcie_GBps(4, 16), 31.504, 1e-9);
	cr_assert_float_eq(pcie_GBps(5, 16), 63.008, 1e-9);
	cr_assert_eq(pcie_GBps(0, 16), 0);
}

/* Many groups: lookups go through a sorted index, which must never give a wrong answer,
 * even when a group is renamed in place (the index is then stale) or names repeat. */
Test(design, name_lookups_on_many_groups_stay_right)
{
	struct design big;
	size_t i, at;
	design_init(&big);
	for (i = 0; i < 40; i++) {
		struct switch_group *s = vec_push(&big.switches, sizeof *s);
		schema_init(&switch_group_schema, s);
		snprintf(s->name, sizeof s->name, "sw%02zu", i);
		s->count = (int)i + 1;
	}
	cr_assert_eq(design_find(&big, "sw17", &at), GK_SWITCH);
	cr_expect_eq(at, 17);
	cr_expect_eq(design_group_count(&big, "sw39"), 40);
	cr_expect_eq(design_find(&big, "nope", &at), GK_NONE);
	/* Renamed in place: the old name is gone, the new one found. */
	snprintf(DESIGN_SWITCH(&big, 17)->name, sizeof DESIGN_SWITCH(&big, 17)->name, "renamed");
	cr_expect_eq(design_find(&big, "sw17", &at), GK_NONE);
	cr_assert_eq(design_find(&big, "renamed", &at), GK_SWITCH);
	cr_expect_eq(at, 17);
	/* A repeated name: the first in file order, as a scan finds it. */
	snprintf(DESIGN_SWITCH(&big, 30)->name, sizeof DESIGN_SWITCH(&big, 30)->name, "sw05");
	cr_assert_eq(design_find(&big, "sw05", &at), GK_SWITCH);
	cr_expect_eq(at, 5);
	cr_assert_gt(design_check(&big, &cat, &diag), 0);
	{
		size_t k;
		bool named = false;
		for (k = 0; k < diag_count(&diag); k++)
			if (!strcmp(diag_get(&diag, k)->msg, "duplicate group name 'sw05' (also switches[5])") &&
			    !strcmp(diag_get(&diag, k)->path, "switches[30].name"))
				named = true;
		cr_expect(named, "the repeat names the first");
	}
	design_free(&big);
}

/* The names map keeps the first value of a name, finds every name among thousands, and
 * misses names it does not hold. */
Test(design, strmap_first_of_each_name)
{
	struct strmap m;
	char names[3000][16];
	int i;
	strmap_init(&m, 4); /* grows */
	for (i = 0; i < 3000; i++) {
		snprintf(names[i], sizeof names[i], "%s%d", i % 2 ? "leaf" : "pod", i / 2);
		cr_assert_eq(strmap_add(&m, names[i], i), i);
	}
	cr_assert_eq(strmap_add(&m, "pod7", 99), 14, "the first pod7 stays");
	for (i = 0; i < 3000; i++)
		cr_assert_eq(strmap_get(&m, names[i]), i, "%s", names[i]);
	cr_assert_eq(strmap_get(&m, "pod1500"), -1);
	cr_assert_eq(strmap_get(&m, ""), -1);
	strmap_set(&m, "pod7", 5);
	cr_assert_eq(strmap_get(&m, "pod7"), 5);
	cr_assert_eq(m.n, 3000);
	strmap_free(&m);
}
