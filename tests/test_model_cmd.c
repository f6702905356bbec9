#include <criterion/criterion.h>
#include "fixtures.h"
#include "model/cmd.h"

static struct catalog cat;
static struct design d;
static struct editor ed;

static void setup(void)
{
	fx_catalog(&cat);
	fx_reference(&d);
	ed_init(&ed, &d, &cat);
}

static void teardown(void)
{
	ed_free(&ed);
	design_free(&d);
	catalog_free(&cat);
}

TestSuite(cmd, .init = setup, .fini = teardown);

static int server_id(void) { return DESIGN_SERVER(&d, 0)->id; }
static int switch_id(void) { return DESIGN_SWITCH(&d, 0)->id; }

Test(cmd, set_undo_redo)
{
	cr_assert(ed_set(&ed, server_id(), "count", "6"), "%s", ed.msg);
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 6);
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.5"), "%s", ed.msg);
	cr_assert(ed_undo(&ed));
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
	cr_assert(ed_undo(&ed));
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 4);
	cr_assert_not(ed_undo(&ed));
	cr_assert_str_eq(ed.msg, "nothing to undo");
	cr_assert(ed_redo(&ed));
	cr_assert(ed_redo(&ed));
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 6);
	cr_assert_float_eq(d.job.mfu, 0.5, 1e-12);
	cr_assert_not(ed_redo(&ed));
}

/* Two edits merged are one undo step: u takes both back, Ctrl-R brings both again. */
Test(cmd, merged_edits_undo_together)
{
	size_t depth = ed_depth(&ed);
	cr_assert(ed_set(&ed, server_id(), "count", "6"), "%s", ed.msg);
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.5"), "%s", ed.msg);
	cr_assert_eq(ed_depth(&ed), depth + 2);
	ed_merge_since(&ed, depth);
	cr_assert_eq(ed_depth(&ed), depth + 1);
	cr_assert(ed_undo(&ed));
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 4);
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
	cr_assert_not(ed_undo(&ed), "one step held both");
	cr_assert(ed_redo(&ed));
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 6);
	cr_assert_float_eq(d.job.mfu, 0.5, 1e-12);
	ed_merge_since(&ed, ed_depth(&ed)); /* nothing since: no change */
	cr_assert_eq(ed_depth(&ed), depth + 1);
}

Test(cmd, nested_keys)
{
	cr_assert(ed_set(&ed, server_id(), "nics[0].speed_gbps", "50"), "%s", ed.msg);
	cr_assert_eq(VEC_AT(DESIGN_SERVER(&d, 0)->nics, struct nic_spec, 0).speed_gbps, 50);
	cr_assert_not(ed_set(&ed, server_id(), "nics[0].count", "2"), "fewer NIC ports than the bundle uses");
	cr_assert_str_eq(ed.msg, "bundles take 4 links from each server of 'a100', but its compute NICs have 2 ports");
	cr_assert_not(ed_set(&ed, server_id(), "nics[3].count", "2"));
	cr_assert_str_eq(ed.msg, "no element [3].count in 'nics'");
	cr_assert_not(ed_set(&ed, server_id(), "cout", "2"));
	cr_assert_str_eq(ed.msg, "unknown key 'cout' in server group (did you mean 'count'?)");
}

Test(cmd, refused_edit_changes_nothing)
{
	struct design before;
	design_copy(&before, &d);
	cr_assert_not(ed_set(&ed, server_id(), "count", "9"));
	cr_assert_str_eq(ed.msg,
			 "ports beyond the switch's radix: each switch of 'tor' needs 36 ports (36 down, 0 up), a sw32x100 has 32");
	cr_assert(design_equal(&d, &before));
	cr_assert_not(ed_can_undo(&ed), "a refused edit leaves no undo step");
	cr_assert_not(ed_set(&ed, server_id(), "gpu", "b300"));
	cr_assert_str_eq(ed.msg, "unknown GPU 'b300': not in the catalog");
	cr_assert_not(ed_set(&ed, server_id(), "count", "many"));
	cr_assert_str_eq(ed.msg, "expected a whole number for 'count', got 'many'");
	cr_assert(design_equal(&d, &before));
	design_free(&before);
}

Test(cmd, rename_updates_references)
{
	cr_assert(ed_move(&ed, "tor", 10, 2), "%s", ed.msg);
	cr_assert(ed_set(&ed, switch_id(), "name", "leaf1"), "%s", ed.msg);
	cr_assert_str_eq(DESIGN_BUNDLE(&d, 0)->to, "leaf1");
	cr_assert_str_eq(VEC_AT(d.canvas.positions, struct position, 0).block, "leaf1");
	cr_assert_not(ed_set(&ed, switch_id(), "name", "a100"));
	cr_assert_str_eq(ed.msg, "a group named 'a100' exists already");
}

Test(cmd, delete_names_orphans_then_cascades)
{
	cr_assert_not(ed_delete(&ed, switch_id(), false));
	cr_assert_str_eq(ed.msg, "deleting 'tor' would orphan 1 bundle: a100->tor");
	cr_assert_eq(d.switches.n, 1);
	cr_assert(ed_delete(&ed, switch_id(), true), "%s", ed.msg);
	cr_assert_eq(d.switches.n, 0);
	cr_assert_eq(d.bundles.n, 0);
	cr_assert(ed_undo(&ed));
	cr_assert_eq(d.switches.n, 1);
	cr_assert_eq(d.bundles.n, 1);
}

Test(cmd, add_groups_bundles_nics)
{
	struct switch_group sp;
	struct bundle b;
	struct nic_spec n;
	int id = 0;
	schema_init(&switch_group_schema, &sp);
	SETS(sp.name, "spine");
	sp.role = ROLE_SPINE;
	sp.count = 2;
	SETS(sp.model, "sw32x100");
	cr_assert(ed_add_switch_group(&ed, &sp, &id), "%s", ed.msg);
	cr_assert_gt(id, 0);
	cr_assert_not(ed_add_switch_group(&ed, &sp, NULL));
	cr_assert_str_eq(ed.msg, "a group named 'spine' exists already");
	schema_init(&bundle_schema, &b);
	SETS(b.from, "tor");
	SETS(b.to, "spine");
	b.links_each = 8;
	cr_assert(ed_add_bundle(&ed, &b, NULL), "%s", ed.msg);
	schema_init(&bundle_schema, &b);
	SETS(b.from, "spine");
	SETS(b.to, "tor");
	b.links_each = 1;
	cr_assert_not(ed_add_bundle(&ed, &b, NULL), "bundles go up a tier");
	schema_init(&nic_spec_schema, &n);
	SETS(n.model, "cx5-100");
	n.count = 1;
	n.use = NIC_STORAGE;
	cr_assert(ed_add_nic(&ed, server_id(), &n), "%s", ed.msg);
	cr_assert_eq(DESIGN_SERVER(&d, 0)->nics.n, 2);
	cr_assert(ed_remove_nic(&ed, server_id(), 1), "%s", ed.msg);
	cr_assert_eq(DESIGN_SERVER(&d, 0)->nics.n, 1);
}

Test(cmd, step_count_clamps)
{
	cr_assert_not(ed_step_count(&ed, server_id(), -1), "the job needs all 32 GPUs");
	cr_assert_str_eq(ed.msg, "the job asks for 32 GPUs, the design has 24");
	cr_assert(ed_set(&ed, 0, "job.gpus", "0"), "%s", ed.msg);
	cr_assert(ed_set(&ed, 0, "job.dp", "0"), "%s", ed.msg);
	cr_assert(ed_step_count(&ed, server_id(), -1), "%s", ed.msg);
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 3);
	cr_assert(ed_step_count(&ed, server_id(), -10), "%s", ed.msg);
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 0);
	cr_assert(ed_step_count(&ed, DESIGN_BUNDLE(&d, 0)->id, -1), "%s", ed.msg);
	cr_assert_eq(DESIGN_BUNDLE(&d, 0)->links_each, 3, "on a bundle, +/- changes its links");
}

Test(cmd, undo_is_unlimited)
{
	int i;
	for (i = 0; i < 300; i++)
		cr_assert(ed_set(&ed, 0, "job.mfu", i % 2 ? "0.3" : "0.5"));
	for (i = 0; i < 300; i++)
		cr_assert(ed_undo(&ed));
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
}
