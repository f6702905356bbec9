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

Test(cmd, undo_holds_a_long_session)
{
	int i;
	for (i = 0; i < 3000; i++)
		cr_assert(ed_set(&ed, 0, "job.mfu", i % 2 ? "0.3" : "0.5"));
	cr_assert_eq(ed_depth(&ed), 3000);
	for (i = 0; i < 3000; i++)
		cr_assert(ed_undo(&ed));
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
	cr_assert_not(ed_undo(&ed));
	cr_assert_str_eq(ed.msg, "nothing to undo");
}

/* Does every group and bundle of a carry the id of b's, in order (design_equal leaves ids
 * out: undo must give them back too)? */
static bool same_ids(const struct design *a, const struct design *b)
{
	size_t i;
	if (a->next_id != b->next_id || a->servers.n != b->servers.n || a->switches.n != b->switches.n ||
	    a->bundles.n != b->bundles.n || a->domains.n != b->domains.n)
		return false;
	for (i = 0; i < a->servers.n; i++)
		if (DESIGN_SERVER(a, i)->id != DESIGN_SERVER(b, i)->id)
			return false;
	for (i = 0; i < a->switches.n; i++)
		if (DESIGN_SWITCH(a, i)->id != DESIGN_SWITCH(b, i)->id)
			return false;
	for (i = 0; i < a->bundles.n; i++)
		if (DESIGN_BUNDLE(a, i)->id != DESIGN_BUNDLE(b, i)->id)
			return false;
	return true;
}

/* The editor's shared check is the check of the design as it is. */
static void check_is_current(void)
{
	struct catalog merged;
	struct ncf_diag fresh = { 0 };
	const long *down, *up;
	size_t i;
	design_catalog(&d, &cat, &merged);
	design_check(&d, &merged, &fresh);
	cr_assert_eq(diag_count(ed_problems(&ed)), diag_count(&fresh));
	for (i = 0; i < diag_count(&fresh); i++)
		cr_assert_str_eq(diag_get(ed_problems(&ed), i)->msg, diag_get(&fresh, i)->msg);
	cr_assert(schema_equal(&catalog_schema, ed_catalog(&ed), &merged));
	ed_ports(&ed, &down, &up);
	for (i = 0; i < d.switches.n; i++) {
		long dn, upl;
		switch_ports_used(&d, DESIGN_SWITCH(&d, i), &dn, &upl);
		cr_assert_eq(down[i], dn, "switch %zu down", i);
		cr_assert_eq(up[i], upl, "switch %zu up", i);
	}
	catalog_free(&merged);
	diag_free(&fresh);
}

/* Every kind of edit, then all undone and all redone: each state comes back exactly, ids
 * included, and the shared check follows every step. */
Test(cmd, every_edit_undoes_and_redoes_exactly)
{
	struct design states[16];
	struct switch_group sp;
	struct bundle b;
	struct nic_spec n;
	struct cat_switch part;
	int k = 0, i, spine = 0;
	design_copy(&states[k++], &d);
	cr_assert(ed_set(&ed, server_id(), "count", "5"), "%s", ed.msg);
	design_copy(&states[k++], &d);
	schema_init(&switch_group_schema, &sp);
	SETS(sp.name, "spine");
	sp.role = ROLE_SPINE;
	sp.count = 2;
	SETS(sp.model, "sw32x100");
	cr_assert(ed_add_switch_group(&ed, &sp, &spine), "%s", ed.msg);
	design_copy(&states[k++], &d);
	schema_init(&bundle_schema, &b);
	SETS(b.from, "tor");
	SETS(b.to, "spine");
	b.links_each = 4;
	cr_assert(ed_add_bundle(&ed, &b, NULL), "%s", ed.msg);
	design_copy(&states[k++], &d);
	cr_assert(ed_set(&ed, switch_id(), "name", "leaf"), "%s", ed.msg); /* renames the bundles' ends */
	design_copy(&states[k++], &d);
	cr_assert(ed_move(&ed, "leaf", 3, 4), "%s", ed.msg);
	design_copy(&states[k++], &d);
	cr_assert(ed_add_note(&ed, "rack row B", 1, 1), "%s", ed.msg);
	design_copy(&states[k++], &d);
	schema_init(&nic_spec_schema, &n);
	SETS(n.model, "cx5-100");
	n.count = 1;
	n.use = NIC_STORAGE;
	cr_assert(ed_add_nic(&ed, server_id(), &n), "%s", ed.msg);
	design_copy(&states[k++], &d);
	cr_assert(ed_set(&ed, 0, "fabric.routing", "adaptive"), "%s", ed.msg);
	design_copy(&states[k++], &d);
	memset(&part, 0, sizeof part);
	SETS(part.name, "sw32x100");
	part.ports = 48;
	part.port_speed_gbps = 100;
	part.max_breakout = 1;
	SETS(part.source, "test");
	cr_assert(ed_add_catalog(&ed, "switches", &part), "%s", ed.msg); /* the design's own catalog */
	design_copy(&states[k++], &d);
	cr_assert(ed_delete(&ed, spine, true), "%s", ed.msg); /* the group and its bundle */
	design_copy(&states[k++], &d);
	check_is_current();
	for (i = k - 2; i >= 0; i--) {
		cr_assert(ed_undo(&ed), "%s", ed.msg);
		cr_assert(design_equal(&d, &states[i]), "undo to state %d", i);
		cr_assert(same_ids(&d, &states[i]), "ids of state %d", i);
		check_is_current();
	}
	cr_assert_not(ed_undo(&ed));
	for (i = 1; i < k; i++) {
		cr_assert(ed_redo(&ed), "%s", ed.msg);
		cr_assert(design_equal(&d, &states[i]), "redo to state %d", i);
		cr_assert(same_ids(&d, &states[i]), "ids of state %d", i);
		check_is_current();
	}
	for (i = 0; i < k; i++)
		design_free(&states[i]);
}

/* A design with n pods of 4 servers, each on a leaf of its own, under one spine group. */
static void pods(struct design *x, int n)
{
	int i;
	struct switch_group *sp;
	design_free(x);
	design_init(x);
	SETS(x->name, "pods");
	sp = vec_push(&x->switches, sizeof *sp);
	SETS(sp->name, "spine");
	sp->role = ROLE_SPINE;
	sp->count = 4;
	SETS(sp->model, "sw64x400");
	sp->breakout = 1;
	for (i = 0; i < n; i++) {
		struct server_group *g = vec_push(&x->servers, sizeof *g);
		struct nic_spec *nic = vec_push(&g->nics, sizeof *nic);
		struct switch_group *leaf = vec_push(&x->switches, sizeof *leaf);
		struct bundle *b = vec_push(&x->bundles, sizeof *b);
		snprintf(g->name, sizeof g->name, "pod%d", i);
		g->count = 4;
		SETS(g->gpu, "h100");
		g->gpus = 8;
		SETS(g->scaleup, "nvswitch-gen3");
		SETS(nic->model, "cx7-400");
		nic->count = 4;
		snprintf(leaf->name, sizeof leaf->name, "leaf%d", i);
		leaf->count = 1;
		SETS(leaf->model, "sw64x400");
		leaf->breakout = 1;
		SETS(b->from, g->name);
		SETS(b->to, leaf->name);
		b->links_each = 4;
		b->wiring = WIRE_TOR;
		b = vec_push(&x->bundles, sizeof *b);
		SETS(b->from, leaf->name);
		SETS(b->to, "spine");
		b->links_each = 4;
		b->wiring = WIRE_SPREAD;
	}
	x->job.tp = 8;
	design_assign_ids(x);
}

/* An undo step holds what its edit changed: the same edit costs the same bytes on a design
 * of 10 groups as on one of 1,000. */
Test(cmd, a_step_holds_only_what_changed)
{
	size_t small, large;
	int id;
	ed_free(&ed);
	pods(&d, 5);
	ed_init(&ed, &d, &cat);
	id = DESIGN_SERVER(&d, 2)->id;
	cr_assert(ed_set(&ed, id, "count", "3"), "%s", ed.msg);
	small = ed_history_bytes(&ed);
	ed_free(&ed);
	pods(&d, 500);
	ed_init(&ed, &d, &cat);
	id = DESIGN_SERVER(&d, 250)->id;
	cr_assert(ed_set(&ed, id, "count", "3"), "%s", ed.msg);
	large = ed_history_bytes(&ed);
	cr_assert_eq(small, large, "%zu bytes at 10 groups, %zu at 1,000", small, large);
	/* One server group and its NIC list, and the step's own bookkeeping. */
	cr_assert_geq(large, sizeof(struct server_group) + sizeof(struct nic_spec));
	cr_assert_leq(large, sizeof(struct server_group) + 4 * sizeof(struct nic_spec) + 256);
	cr_assert(ed_undo(&ed));
	cr_assert_eq(DESIGN_SERVER(&d, 250)->count, 4);
}

/* The history keeps at most 4 MiB: past that the oldest steps go, the newest stay and
 * undo says why it stops; depths still count every step, so merges stay right. */
Test(cmd, history_is_bounded)
{
	size_t i, kept, depth;
	struct design big;
	ed_free(&ed);
	pods(&d, 400);
	ed_init(&ed, &d, &cat);
	/* Opening another design is one step holding the whole design it replaced. */
	for (i = 0; i < 60; i++) {
		design_init(&big);
		pods(&big, i % 2 ? 300 : 400);
		cr_assert(ed_replace(&ed, &big));
		cr_assert_leq(ed_history_bytes(&ed), (size_t)4 << 20, "step %zu: %zu bytes", i, ed_history_bytes(&ed));
	}
	cr_assert_eq(ed_depth(&ed), 60, "every step counted");
	for (kept = 0; ed_undo(&ed); kept++)
		;
	cr_assert_lt(kept, 60, "old steps were forgotten");
	cr_assert_gt(kept, 1);
	cr_assert_str_eq(ed.msg, "nothing more to undo (the oldest edits were forgotten: the history keeps 4 MiB)");
	/* Back at the design the oldest step kept was made on: one of the opened ones. */
	cr_assert_eq(d.servers.n, (60 - kept) % 2 ? 400 : 300, "%zu kept", kept);
	/* Depths count the forgotten steps: a merge after them takes exactly the new edits. */
	depth = ed_depth(&ed);
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.5"), "%s", ed.msg);
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.6"), "%s", ed.msg);
	ed_merge_since(&ed, depth);
	cr_assert_eq(ed_depth(&ed), depth + 1);
	cr_assert(ed_undo(&ed));
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
}

/* Writing the design outside the commands (which cmd.h forbids) is taken as it is: the next
 * edit starts from it and undo does not take it back. */
Test(cmd, a_write_outside_the_commands_is_kept)
{
	SETS(d.name, "renamed outside");
	DESIGN_SERVER(&d, 0)->count = 3;
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.5"), "%s", ed.msg);
	cr_assert(ed_undo(&ed));
	cr_assert_str_eq(d.name, "renamed outside");
	cr_assert_eq(DESIGN_SERVER(&d, 0)->count, 3);
	cr_assert_float_eq(d.job.mfu, 0.4, 1e-12);
	check_is_current();
}

/* A history that no longer fits the design (a group removed outside the commands) is
 * dropped with a message, never applied to the wrong elements. */
Test(cmd, a_history_that_no_longer_fits_is_dropped)
{
	cr_assert(ed_set(&ed, 0, "job.mfu", "0.5"), "%s", ed.msg);
	cr_assert(ed_set(&ed, server_id(), "count", "5"), "%s", ed.msg); /* a step on the server list */
	d.servers.n = 0; /* forbidden by cmd.h: the server group vanishes under the editor */
	schema_free(&server_group_schema, &VEC_AT(d.servers, struct server_group, 0));
	cr_assert_not(ed_undo(&ed));
	cr_assert_str_eq(ed.msg, "the design was changed outside the editor: its history was dropped");
	cr_assert_not(ed_can_undo(&ed));
	cr_assert_eq(ed_history_bytes(&ed), 0);
}
