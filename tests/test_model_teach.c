/* The ring lesson: the closed form of who holds what checked against a simulation of the
 * ring, the steps adding up to the model's time, and the formulas' numbers on the
 * reference case. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include "fixtures.h"
#include "model/congest.h"
#include "model/teach.h"

static struct catalog cat;
static struct metrics m;

static void setup(void)
{
	fx_catalog(&cat);
}

static void teardown(void)
{
	catalog_free(&cat);
}

TestSuite(teach, .init = setup, .fini = teardown);

static int lowbit_test(int x)
{
	int b = 1;
	while (b < x)
		b *= 2;
	return b == x ? x : -1; /* x itself when x is a power of two */
}

#define GiB (1024.0 * 1024 * 1024)

/* Run the ring for real: every rank sends what ring_sends names to its right neighbour,
 * which adds it (reductions) or copies it (gathers); after each step the state must equal
 * ring_have. */
static void simulate(int coll, int n)
{
	struct ring_lesson l = { 0 };
	int *have = calloc((size_t)n * n, sizeof *have), *next = calloc((size_t)n * n, sizeof *next);
	int s, r, c;
	l.coll = coll;
	l.n = n;
	l.nsteps = coll == COLL_ALLREDUCE ? 2 * (n - 1) : n - 1;
	for (r = 0; r < n; r++)
		for (c = 0; c < n; c++)
			have[r * n + c] = coll == COLL_ALLGATHER ? (r == c ? n : 0) : 1;
	for (s = 0; s <= l.nsteps; s++) {
		for (r = 0; r < n; r++)
			for (c = 0; c < n; c++)
				cr_assert_eq(ring_have(&l, s, r, c), have[r * n + c], "n=%d coll=%d after %d steps: rank %d chunk %d",
					     n, coll, s, r, c);
		if (s == l.nsteps)
			break;
		memcpy(next, have, sizeof *have * (size_t)n * n);
		for (r = 0; r < n; r++) {
			int chunk = ring_sends(&l, s, r), to = (r + 1) % n;
			bool reduce = coll != COLL_ALLGATHER && (coll == COLL_REDUCESCATTER || s < n - 1);
			cr_assert(chunk >= 0 && chunk < n);
			cr_assert_gt(have[r * n + chunk], 0, "rank %d sends chunk %d it does not hold", r, chunk);
			next[to * n + chunk] = reduce ? have[to * n + chunk] + have[r * n + chunk] : have[r * n + chunk];
		}
		memcpy(have, next, sizeof *have * (size_t)n * n);
	}
	for (r = 0; r < n; r++)
		for (c = 0; c < n; c++) {
			if (coll == COLL_REDUCESCATTER)
				cr_assert_eq(have[r * n + c] == n, r == c, "ReduceScatter leaves rank r with the sum of chunk r");
			else
				cr_assert_eq(have[r * n + c], n, "every rank ends with every finished chunk");
		}
	cr_assert_eq(ring_sends(&l, l.nsteps, 0), -1);
	free(have);
	free(next);
}

Test(teach, closed_form_matches_a_simulated_ring)
{
	int n;
	for (n = 2; n <= 12; n++) {
		simulate(COLL_ALLREDUCE, n);
		simulate(COLL_ALLGATHER, n);
		simulate(COLL_REDUCESCATTER, n);
	}
}

/* The reference case: 32 ranks, 8 per node, Ring at 1 GiB. */
Test(teach, steps_add_up_to_the_model_on_the_reference_case)
{
	struct design d;
	struct ring_lesson l;
	struct formulas f;
	char why[200];
	double sum = 0;
	int s, r, net = 0;
	fx_reference(&d);
	/* the job of share/examples/reference-case.yaml */
	d.job.params_b = 1.5;
	d.job.layers = 48;
	d.job.hidden = 1600;
	d.job.seq_len = 1024;
	d.job.global_batch = 48;
	d.job.mfu = 0.4;
	d.job.overlap = 0.8;
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(ring_lesson_build(&m, COLL_ALLREDUCE, &l, why, sizeof why), "%s", why);
	cr_assert_eq(l.n, 32);
	cr_assert_eq(l.ppn, 8);
	cr_assert_eq(l.nodes, 4);
	cr_assert_eq(l.nsteps, 62, "2(n-1)");
	cr_assert_float_eq(l.chunk, GiB / 32, 1e-6);
	for (s = 0; s < l.nsteps; s++)
		sum += l.step_us;
	cr_assert_float_eq(sum, m.colls[COLL_ALLREDUCE].algo[UA_RING].time_us, 1e-6, "the steps add up to the model");
	cr_assert_float_eq(l.lat_us + l.bw_us, l.time_us, 1e-9);
	cr_assert_gt(l.lat_us, 0);
	/* A step moves S/n at busbw: 62 x (S/32) / busbw = S / algbw = the time. */
	cr_assert_float_eq(l.step_us, l.chunk / (1000.0 * l.busbw), 1e-9 * l.step_us);
	cr_assert_float_eq(l.bw_us, l.bytes / (1000.0 * l.nccl_algbw * l.loss), 1e-9 * l.bw_us);
	/* NCCL's own: 4 channels x 12 GB/s = busbw 48, so A = 48 x 32/62 */
	cr_assert_eq(l.channels, 4);
	cr_assert_float_eq(l.nccl_algbw, 48.0 * 32 / 62, 1e-9);
	cr_assert_float_eq(l.busbw, l.algbw * 62 / 32, 1e-9);
	for (r = 0; r < l.n; r++)
		net += ring_hop_network(&l, r);
	cr_assert_eq(net, 4, "one network hop per node boundary, the last one wrapping around");
	cr_assert_str_eq(ring_phase(&l, 30), "reduce-scatter");
	cr_assert_str_eq(ring_phase(&l, 31), "all-gather");
	formulas_build(&m, &l, &f);
	cr_assert_geq(f.n, 10, "%d lines, last: %s", f.n, f.line[f.n - 1]);
	cr_assert(strstr(f.line[0], "Ring AllReduce: n = 32 ranks on 4 nodes (8 per node), S = 1073741824 B"), "%s",
		  f.line[0]);
	cr_assert(strstr(f.line[1], "algbw A = 24.77 GB/s (its busbw A x 2(n-1)/n = 48.00 GB/s)"), "%s", f.line[1]);
	{ /* each printed equation holds with the printed numbers */
		double a, fa, prod, lat, bytes, bw, t1, t2, tot, alg, bus;
		cr_assert_eq(sscanf(f.line[3], "on this fabric: A x f = %lf x %lf = %lf", &a, &fa, &prod), 3, "%s", f.line[3]);
		cr_assert_float_eq(a * fa, prod, 0.01);
		cr_assert_eq(sscanf(f.line[4], "time = latency + S / (A f) = %lf us + %lf B / %lf GB/s = %lf + %lf = %lf", &lat,
				    &bytes, &bw, &t1, &t2, &tot), 6, "%s", f.line[4]);
		cr_assert_float_eq(bytes / (1000.0 * bw), t2, 0.001 * t2);
		cr_assert_float_eq(lat + t2, tot, 0.11);
		cr_assert_float_eq(tot, m.colls[COLL_ALLREDUCE].algo[UA_RING].time_us, 0.051);
		cr_assert_eq(sscanf(f.line[5], "algbw = S / time = %lf GB/s (as nccl-tests prints it);  busbw = algbw x 2(n-1)/n = %*f x %*f = %lf", &alg,
				    &bus), 2, "%s", f.line[5]);
		cr_assert_float_eq(bytes / (1000.0 * tot), alg, 0.005);
		cr_assert_float_eq(alg * 62 / 32, bus, 0.01);
	}
	cr_assert(strstr(f.line[6], "62 steps (2(n-1)): each sends S/n = 33554432 B over every hop"), "%s", f.line[6]);
	cr_assert(strstr(f.line[9], "speedup = N T_calc / (T_calc + T_comm) = 32 x"), "%s", f.line[9]);
	{ /* the step-time form with the printed numbers gives the printed speedup */
		double tc, comm, sp;
		cr_assert_eq(sscanf(strstr(f.line[9], "= 32 x ") + 7, "%lf / (%*f + %lf) = %lf", &tc, &comm, &sp), 3,
			     "%s", f.line[9]);
		cr_assert_float_eq(32 * tc / (tc + comm), sp, 0.02, "%s", f.line[9]);
		cr_assert_float_eq(sp, m.work.speedup, 0.005);
	}
	design_free(&d);
}

Test(teach, patterns_without_a_ring_say_why)
{
	struct design d;
	struct ring_lesson l;
	char why[200];
	fx_reference(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_not(ring_lesson_build(&m, COLL_ALLTOALL, &l, why, sizeof why));
	cr_assert_str_eq(why, "alltoall has no ring: the lesson shows AllReduce, AllGather and ReduceScatter");
	design_free(&d);
}

Test(teach, the_hash_is_fixed_and_even)
{
	int count[8] = { 0 }, i;
	/* the same draw on every machine: seed 1, 8 flows on 4 links */
	static const int seed1[8] = { 0, 3, 2, 3, 1, 2, 3, 3 }; /* splitmix64, checked in Python */
	for (i = 0; i < 8; i++)
		cr_expect_eq(congestion_link(1, i, 4), seed1[i], "flow %d", i);
	for (i = 0; i < 80000; i++)
		count[congestion_link(7, i, 8)]++;
	for (i = 0; i < 8; i++)
		cr_expect(abs(count[i] - 10000) < 400, "link %d got %d of 80000", i, count[i]);
}

Test(teach, congestion_only_where_a_switch_hashes)
{
	struct design d;
	struct congestion_lesson g;
	char why[200];
	/* The reference case: one ToR, each channel on its NIC: nothing is hashed. */
	fx_reference(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert_not(congestion_lesson_build(&m, 1, &g, why, sizeof why));
	cr_assert(strstr(why, "nothing is hashed"), "%s", why);
	design_free(&d);
	/* Two racks under two spines: the ring's 8 connections (4 channels, doubled at run time)
	 * leave each ToR over its 4 uplinks by static ECMP. */
	fx_two_racks(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(congestion_lesson_build(&m, 1, &g, why, sizeof why), "%s", why);
	cr_assert(g.hashed);
	cr_assert_eq(g.flows, 8, "4 ring channels, doubled at run time");
	cr_assert_eq(g.links, 4);
	cr_assert_float_eq(g.link_GBps, 12.5, 1e-9);
	cr_assert_eq(g.load[0] + g.load[1] + g.load[2] + g.load[3], 8);
	cr_assert_eq(g.max_load, 4, "seed 1 puts 4 flows on link 3");
	cr_assert_float_eq(g.draw_GBps, 25.0, 1e-9, "8 x 12.5 / 4");
	cr_assert_float_eq(g.emax, hash_expected_max(8, 4), 1e-12);
	cr_assert_float_eq(g.model_GBps, 100.0 / g.emax, 1e-9);
	cr_assert_float_eq(g.even_GBps, 50.0, 1e-9, "2 per link");
	cr_assert_float_eq(g.want_GBps, 48.0, 1e-9, "the ring's own rate, one hop per channel leaving the ToR");
	/* The model's factor is exactly this page's model rate over what the ring wants. */
	cr_assert_float_eq(m.colls[COLL_ALLREDUCE].algo[UA_RING].loss.factor, g.model_GBps / g.want_GBps, 1e-9);
	design_free(&d);
}

/* Tree A over K nodes: a tree (one root, parents 2^j away in rank order, at most two
 * children), and the lockstep wave checked against a simulation of the sums and the result. */
Test(teach, tree_is_a_binary_tree_and_the_wave_adds_up)
{
	int k;
	for (k = 2; k <= 40; k++) {
		struct tree_lesson l = { 0 };
		int p, s, roots = 0, count[41], got[41], next[41];
		bool result[41], nres[41];
		l.k = k;
		for (p = 1; p <= k; p++) {
			int q = tree_parent(k, p), a, b;
			if (q == 0) {
				roots++;
				l.root = p;
				continue;
			}
			cr_assert(q >= 1 && q <= k, "k=%d: parent of %d is %d", k, p, q);
			cr_assert_eq(lowbit_test(abs(q - p)), abs(q - p), "k=%d: %d and its parent %d are 2^j apart", k, p, q);
			tree_children(k, q, &a, &b);
			cr_assert(a == p || b == p, "k=%d: %d is a child of %d", k, p, q);
		}
		cr_assert_eq(roots, 1);
		cr_assert_eq(tree_subtree(k, l.root), k, "k=%d: every node under the root", k);
		l.depth = 0;
		for (p = 1; p <= k; p++)
			if (tree_node_depth(k, p) > l.depth)
				l.depth = tree_node_depth(k, p);
		l.nsteps = 2 * l.depth;
		for (p = 1; p <= k; p++) {
			count[p] = 1;
			result[p] = false;
		}
		for (s = 0; s <= l.nsteps; s++) {
			for (p = 1; p <= k; p++) {
				int st = tree_state(&l, s, p);
				got[p] = count[p];
				cr_assert_eq(st == 2, result[p] || (p == l.root && count[p] == k), "k=%d s=%d node %d: result", k,
					     s, p);
				if (st == 1)
					cr_assert_eq(count[p], tree_subtree(k, p), "k=%d s=%d node %d: its subtree's sum", k, s, p);
			}
			memcpy(next, got, sizeof next);
			memcpy(nres, result, sizeof nres);
			for (p = 1; p <= k; p++) {
				int how = tree_sends(&l, s, p), a, b;
				if (how == 1) {
					cr_assert_eq(count[p], tree_subtree(k, p), "k=%d: %d sends before its subtree is in", k, p);
					next[tree_parent(k, p)] += count[p];
				} else if (how == 2) {
					cr_assert(result[p] || p == l.root);
					tree_children(k, p, &a, &b);
					if (a)
						nres[a] = true;
					if (b)
						nres[b] = true;
				}
			}
			if (s == l.depth - 1 || l.depth == 0)
				nres[l.root] = true; /* the root's sum is complete: it holds the result */
			memcpy(count, next, sizeof count);
			memcpy(result, nres, sizeof result);
		}
		for (p = 1; p <= k; p++)
			cr_assert_eq(tree_state(&l, l.nsteps, p), 2, "k=%d: node %d ends with the result", k, p);
	}
}

Test(teach, alltoall_network_sends_match_a_count)
{
	int ppn, nodes, s;
	for (ppn = 1; ppn <= 8; ppn *= 2)
		for (nodes = 1; nodes <= 5; nodes++) {
			struct a2a_lesson l = { 0 };
			l.ppn = ppn;
			l.nodes = nodes;
			l.n = ppn * nodes;
			l.nsteps = l.n - 1;
			for (s = 0; s < l.nsteps; s++) {
				long want = 0;
				int r;
				for (r = 0; r < l.n; r++)
					want += r / ppn != ((r + s + 1) % l.n) / ppn;
				cr_assert_eq(a2a_network_sends(&l, s), want, "ppn %d nodes %d step %d", ppn, nodes, s);
			}
			for (s = 0; s <= l.nsteps; s++)
				cr_assert_eq(a2a_has(&l, s, 0, 0), true);
			cr_assert(a2a_has(&l, l.nsteps, 0, l.n - 1) || l.n == 1);
		}
}

Test(teach, nvls_reduces_in_the_switch_then_multicasts)
{
	struct nvls_lesson l = { 0 };
	int g, c;
	l.ppn = 8;
	for (g = 0; g < 8; g++)
		for (c = 0; c < 8; c++) {
			cr_assert_eq(nvls_have(&l, 0, g, c), 1, "own data first");
			cr_assert_eq(nvls_have(&l, 1, g, c), g == c ? 8 : 1, "GPU g holds the sum of slice g");
			cr_assert_eq(nvls_have(&l, 2, g, c), 8, "then every GPU holds every sum");
		}
}

/* Tree and AllToAll: their steps add up to the model's time too. */
Test(teach, tree_and_alltoall_steps_add_up)
{
	struct design d;
	struct tree_lesson t;
	struct a2a_lesson a;
	char why[200];
	fx_reference(&d);
	metrics_compute(&d, &cat, GiB, 0, &m);
	cr_assert(tree_lesson_build(&m, &t, why, sizeof why), "%s", why);
	cr_assert_eq(t.k, 4);
	cr_assert_eq(t.root, 4, "the root of 4 nodes is position 4 (node 3)");
	cr_assert_eq(t.depth, 2);
	cr_assert_float_eq(t.step_us * t.nsteps, m.colls[COLL_ALLREDUCE].algo[UA_TREE].time_us, 1e-6);
	cr_assert(a2a_lesson_build(&m, &a, why, sizeof why), "%s", why);
	cr_assert_eq(a.nsteps, 31);
	cr_assert_float_eq(a.step_us * a.nsteps, m.colls[COLL_ALLTOALL].algo[UA_P2P].time_us, 1e-6);
	cr_assert_float_eq(a.block, GiB / 32, 1e-6);
	design_free(&d);
}
