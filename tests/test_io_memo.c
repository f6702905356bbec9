/* The routing's memos and shortcuts are transparent (model/route.c: a communicator's
 * segments kept for the next evaluation of the same nodes; a ring's or all-to-all's piece
 * taking the last piece's capacity when its loads and its level's make are the same; a tree
 * level's capacities kept by edge count; a kept ring's base per run of alike recipes; an
 * all-to-all level that holds the whole communicator in one component left out). Every
 * traffic of a set is evaluated one after another with them on, and alone with them off;
 * the results must be the same to the bit.
 *
 * The designs are those the memos are for and against: pods alike but for one thing, each on
 * its own leaf switch (consecutive pieces with equal loads on levels of different make: leaf
 * uplinks 8 or 16, pods of 2 or 4 servers, InfiniBand or Ethernet with ECMP over LAGs), and
 * the shipped examples and test designs. The memos must be used (hits counted), so the check
 * is not vacuous. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "io/design_io.h"
#include "model/route.h"
#include "model/topo.h"

#include "shipped.h"

TestSuite(memo, .init = setup, .fini = teardown);

/* A design of `pods` pods, pod i with servers[i % ns] servers and its leaf with up[i % nu]
 * uplinks (each leaf one switch of its own), at half speed every third leaf when `slow`, a
 * spine of 16 and a core of 8. */
static size_t pods_yaml(char *buf, size_t size, int pods, const int *servers, int ns, const int *up, int nu, bool eth,
			const char *routing, bool slow)
{
	const char *nic = eth ? "connectx-7-400gbe" : "connectx-7-ndr", *sw = eth ? "sn5600" : "qm9700";
	size_t n = 0;
	int i;
#define OUT(...) (n += (size_t)snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
	OUT("ncfabric: 1\nname: memo\nservers:\n");
	for (i = 0; i < pods; i++)
		OUT("- name: p%d\n  count: %d\n  model: dgx-h100\n  gpu: h100-sxm5\n  gpus: 8\n  scaleup: nvswitch-gen3\n"
		    "  cpu: intel\n  nics:\n  - model: %s\n    count: 8\n    attach: pcie-switch\n    use: compute\n",
		    i, servers[i % ns], nic);
	OUT("switches:\n- name: spine\n  role: spine\n  count: 16\n  model: %s\n- name: core\n  role: core\n  count: 8\n"
	    "  model: %s\n",
	    sw, sw);
	for (i = 0; i < pods; i++)
		OUT("- name: l%d\n  role: leaf\n  count: 1\n  model: %s\n", i, sw);
	OUT("bundles:\n");
	for (i = 0; i < pods; i++)
		OUT("- from: p%d\n  to: l%d\n  links_each: 8\n  wiring: tor\n", i, i);
	for (i = 0; i < pods; i++) {
		OUT("- from: l%d\n  to: spine\n  links_each: %d\n  wiring: rail\n%s", i, up[i % nu], eth ? "  lag: true\n" : "");
		if (slow && i % 3 == 2)
			OUT("  speed_gbps: 200\n");
	}
	OUT("- from: spine\n  to: core\n  links_each: 16\n  wiring: spread\n");
	OUT("fabric:\n  routing: %s\n  pxn: true\n  cross_nic: true\n", routing);
#undef OUT
	return n;
}

/* The traffics: rings of two channel counts, pairs one and two nodes apart (with and
 * without a wrap, on one rail or across), all-to-all with and without PXN, trees, at
 * random and contiguous, over spans of the whole job, two halves and every other node. */
static int traffics(long n, struct route_in *in, int max)
{
	struct span sp[4];
	int ns = 0, k = 0, q, v;
	sp[ns++] = span_all(n);
	if (n >= 4) {
		sp[ns] = span_all(n / 2);
		sp[ns].count = 2;
		sp[ns].stride = n / 2;
		ns++;
		sp[ns++] = span_all(n / 2); /* the first half: the nodes of the next, but one apart */
	}
	if (n >= 6) {
		sp[ns] = span_all(n / 2);
		sp[ns].step = 2;
		ns++;
	}
	/* Span by span for each traffic: one communicator's segments are asked for right
	 * after another's. */
	for (v = 0; v < 11; v++)
		for (q = 0; q < ns && k < max; q++) {
			struct route_in *r = &in[k++];
			memset(r, 0, sizeof *r);
			r->rate = 1;
			r->channels = 8;
			r->runtime = 4;
			r->p2p_channels = 4;
			r->gpus = 8;
			r->concurrent = 1;
			r->pxn = true;
			r->span = sp[q];
			switch (v) {
			case 0:
				r->kind = TK_RING;
				r->cross_rail = true;
				break;
			case 1:
				r->kind = TK_RING;
				r->channels = 2;
				r->runtime = 2;
				r->gpus = 1;
				r->concurrent = 8;
				break;
			case 2:
				r->kind = TK_PAIRS;
				r->distance = 1;
				r->pair_wrap = true;
				break;
			case 3:
				r->kind = TK_PAIRS;
				r->distance = 2;
				r->pair_cross_rail = true;
				r->pxn = false;
				break;
			case 4:
				r->kind = TK_ALLTOALL;
				break;
			case 5:
				r->kind = TK_ALLTOALL;
				r->pxn = false;
				r->gpus = 4;
				break;
			case 6:
				r->kind = TK_TREE;
				break;
			case 7:
				r->kind = TK_TREE;
				r->channels = 2;
				r->runtime = 2;
				r->concurrent = 8;
				break;
			case 8:
				r->kind = TK_TREE;
				r->placement = PLACE_RANDOM;
				break;
			case 9:
				r->kind = TK_RING;
				r->placement = PLACE_RANDOM;
				break;
			default:
				r->kind = TK_RING;
				r->channels = 16;
				r->runtime = 2;
				break;
			}
		}
	return k;
}

static long checked, hits;

/* Designs of up to max_nodes nodes. */
static bool same_with_and_without(const struct design *d, const struct catalog *cat, const char *what, long max_nodes)
{
	struct topo t;
	struct route_in in[48];
	struct route_out on[48], off;
	int n, i;
	topo_build(d, cat, 0, &t);
	if (t.nodes > max_nodes) {
		topo_free(&t);
		return false;
	}
	n = traffics(t.nodes, in, 48);
	route_memos(true);
	for (i = 0; i < n; i++)
		route_eval(&t, &in[i], &on[i]);
	hits += route_memo_hits();
	for (i = 0; i < n; i++) {
		route_memos(false);
		route_eval(&t, &in[i], &off);
		cr_assert(!memcmp(&on[i], &off, sizeof off),
			  "%s, traffic %d (kind %d, span %ld x %ld step %ld): with the memos factor %.17g at group %d plane %d "
			  "level %d (demand %.17g, capacity %.17g); without %.17g at %d %d %d (%.17g, %.17g)",
			  what, i, in[i].kind, in[i].span.count, in[i].span.len, in[i].span.step, on[i].factor, on[i].ng,
			  on[i].plane, on[i].level, on[i].demand, on[i].capacity, off.factor, off.ng, off.plane, off.level,
			  off.demand, off.capacity);
		checked++;
	}
	route_memos(true);
	topo_free(&t);
	return true;
}

static void check_text(const char *buf, size_t len, const char *what)
{
	struct design d;
	struct catalog merged;
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_text(buf, len, FMT_YAML, &shipped, &d, &diag), "%s: %s", what,
		  diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	cr_assert_eq(design_check_loaded(&d, &shipped, &diag), 0, "%s: %s", what,
		     diag_count(&diag) ? diag_get(&diag, 0)->msg : "");
	design_catalog(&d, &shipped, &merged);
	cr_assert(same_with_and_without(&d, &merged, what, 1L << 40));
	catalog_free(&merged);
	design_free(&d);
	diag_free(&diag);
}

Test(memo, alike_pods_route_the_same_with_and_without)
{
	static const int servers[][5] = { { 4 }, { 2 }, { 4, 4, 2 }, { 2, 4, 4, 4, 2 }, { 4, 2, 2, 4 } };
	static const int nservers[] = { 1, 1, 3, 5, 4 };
	static const int up[][4] = { { 16 }, { 8 }, { 16, 8 }, { 8, 8, 16 }, { 16, 16, 16, 8 } };
	static const int nup[] = { 1, 1, 2, 3, 4 };
	static const char *const routing[] = { "ecmp", "adaptive", "spray" };
	static char buf[1 << 17];
	int a, b, e, r, w, pods;
	checked = hits = 0;
	for (a = 0; a < 5; a++)
		for (b = 0; b < 5; b++)
			for (e = 0; e < 2; e++)
				for (r = 0; r < 3; r++)
					for (w = 0; w < 2; w++) {
						char what[96];
						size_t n;
						pods = 9 + 4 * a + b;
						n = pods_yaml(buf, sizeof buf, pods, servers[a], nservers[a], up[b], nup[b], e,
							      routing[r], w);
						cr_assert_lt(n, sizeof buf);
						snprintf(what, sizeof what, "%d pods, servers %d, uplinks %d, %s, %s%s", pods, a, b,
							 e ? "Ethernet" : "InfiniBand", routing[r], w ? ", slow leaves" : "");
						check_text(buf, n, what);
					}
	cr_assert_gt(checked, 3000, "%ld evaluations", checked);
	cr_assert_gt(hits, 10000, "the memos were used %ld times", hits);
}

static void same_file(const struct design *d, const struct catalog *cat, const char *path, void *arg)
{
	(void)arg;
	same_with_and_without(d, cat, path, 1L << 40);
}

Test(memo, files_route_the_same_with_and_without)
{
	checked = hits = 0;
	shipped_each_design("share/examples/*.yaml", same_file, NULL);
	shipped_each_design("tests/data/*.yaml", same_file, NULL);
	shipped_each_design("tests/data/*/*.yaml", same_file, NULL);
	cr_assert_gt(checked, 1000, "%ld evaluations", checked);
	cr_assert_gt(hits, 100, "the memos were used %ld times", hits);
}
