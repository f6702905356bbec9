/* failure.h: a failure as a modified design.
 *
 * A failure takes down part of a design; the model computes the design that is left with
 * the same engine as any other (topo.h, route.h, fabric.h, collective.h), so what a
 * failure costs is the difference between two ordinary designs. Nothing here routes or
 * prices: it edits a copy of the design and says, in words, what NCCL and the fabric do
 * (shared/docs/fabric-physics.md section 9).
 *
 * Specs (ncfabric(1) "FAILURES"):
 *   switch:GROUP        one switch of switch group GROUP
 *   group:GROUP         the whole switch group GROUP and every bundle to or from it
 *   nic:GROUP           one compute NIC of every server of server group GROUP
 *   link:FROM->TO[:N]   N links (default 1) of one member of the bundle FROM->TO
 *
 * How each becomes a design (why, fabric-physics.md section 9):
 *   - A server that loses a NIC, a NIC's link or its rail leaf makes NCCL fail (no failover
 *     by default, nccl#998); the communicator rebuilt on the degraded node runs every rank
 *     at the minimum channel count and speed over all ranks (src/init.cc:1436-1442). So
 *     the degraded steady state is every server of the group with one NIC fewer: the
 *     bundle wiring it loses a link per server, and a rail-wired leaf group loses the
 *     rail's leaf in every unit (the other units' leaf of that rail carries nothing).
 *   - A switch-tier link or switch (a spine) is rerouted by the fabric (IB SHIELD and the
 *     SM, Ethernet ECMP re-hashing): the job continues. The leaf that lost an uplink has
 *     U - 1 of them; a synchronous collective is paced by its slowest member (section 1.5),
 *     so the model takes every member of the group at U - 1 (its bisection is then that of
 *     every member degraded: a bound, said in fail_effect.caveat).
 *   - One switch of a group: the group has count - 1 switches, and every bundle into it
 *     loses the links to the dead one: spread wiring with L links over c switches loses
 *     L / c per member (exact only when c divides L); rail wiring loses the rail (as a NIC
 *     does); top-of-rack wiring loses the servers under that switch (they have no network
 *     left on that plane: the job restarts without them, if it still fits).
 * A failure that does not reduce to whole-group changes (spread wiring with L not a
 * multiple of c: each member loses a different number of links) is refused with a
 * message that says so; nothing is approximated silently.
 *
 * Ownership: fail_apply fills a design the caller frees (design_free). */
#ifndef NCF_FAILURE_H
#define NCF_FAILURE_H
#include <stdbool.h>
#include <stddef.h>
#include "model/metrics.h"

enum fail_kind { FAIL_SWITCH, FAIL_GROUP, FAIL_NIC, FAIL_LINK, FAIL_KIND_COUNT };
extern const char *const fail_kind_names[]; /* "switch", "group", "nic", "link" */

struct fail_spec {
	int kind;                     /* enum fail_kind */
	char group[NCF_NAME_MAX];     /* the group, or the bundle's lower end */
	char to[NCF_NAME_MAX];        /* the bundle's upper end (FAIL_LINK) */
	int links;                    /* FAIL_LINK: links down (1 unless :N) */
};

/* What NCCL and the fabric do after the failure, as fabric-physics.md section 9 says. */
enum fail_response {
	FR_REROUTE,      /* the fabric reroutes (SHIELD/SM on IB, ECMP re-hash); the job continues */
	FR_JOB_FAILS,    /* NCCL errors after the IB timeout x retries; restart, degraded */
	FR_NO_NETWORK    /* nothing of the job's network is left */
};

struct fail_effect {
	int response;                 /* enum fail_response */
	double detect_s;              /* FR_JOB_FAILS: NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT */
	char change[320];             /* the design change, in words */
	char nccl[600];               /* what NCCL and the fabric do */
	char caveat[240];             /* what the modified design overstates, or "" */
	bool port_failover;           /* the lost NIC has another port: NCCL's opt-in failover applies */
};

/* Parse SPEC (strict: a known kind, a name, an optional :N of 1..999999 for link). On
 * failure err says what was expected. */
bool fail_parse(const char *text, struct fail_spec *out, char *err, size_t errsz);
/* The spec as text ("switch:spine", "link:leaf->spine:2"). */
const char *fail_name(const struct fail_spec *s, char *buf, size_t size);
/* The design d with failure s applied, into out (initialised here; free with design_free
 * whatever the result). false, with err, when d has no such part or the failure cannot be
 * expressed as a change to whole groups. */
bool fail_apply(const struct design *d, const struct catalog *cat, const struct fail_spec *s, struct design *out,
		struct fail_effect *e, char *err, size_t errsz);
/* Every single failure of d (N-1): per switch group one switch and the whole group, per
 * bundle one link, per server group with compute NICs one NIC. Returns how many (at most
 * max are written). */
int fail_enumerate(const struct design *d, const struct catalog *cat, struct fail_spec *out, int max);

/* NCCL's detection time with the default NCCL_IB_TIMEOUT=20 and NCCL_IB_RETRY_CNT=7:
 * 4.096 us x 2^20 x 7 = 30.06 s (fabric-physics.md 9.2, NCCL env.rst). */
double fail_detect_seconds(int ib_timeout, int retries);

/* ---- what a failure costs: the model's figures before and after ------------------------- */

/* The figures a failure changes, taken from one metrics_compute. */
struct fail_tier {
	char group[NCF_NAME_MAX];
	int count;                    /* switches */
	int uplinks;                  /* per switch */
	int hash;                     /* enum hash_kind at its uplinks */
	double up_GBps;               /* per switch */
};
struct fail_point {
	bool valid;                   /* the job has a step time on this design */
	char why[320];                /* why not */
	bool connected;
	bool avail[PATTERNS];
	int algo[PATTERNS];           /* enum ualgo that runs (job.algo, else NCCL's pick) */
	double busbw[PATTERNS];       /* GB/s, at the report's message size */
	double cap[PATTERNS];         /* capacity at its binding switch group, GB/s (0: none binds) */
	char bound[PATTERNS][NCF_NAME_MAX]; /* that group, "" when none */
	double step_ms, tokens_per_s, speedup, efficiency;
	int gpus;
	double bisection_GBps, node_ceiling_GBps;
	int ports;                    /* wired compute NIC ports per node (rails) */
	int ntiers;
	struct fail_tier tiers[FABRIC_MAX_TIERS];
};
void fail_point_from(const struct metrics *m, int job_algo, struct fail_point *p);

struct fail_outcome {
	struct fail_spec spec;
	bool ok;                      /* applied; else why says why not */
	char why[320];
	struct fail_effect effect;
	struct fail_point after;
	double tokens_loss;           /* share of the tokens/s lost, 0..1 (1: the job cannot run);
				       * with no job on the intact design, the share of AllReduce's
				       * busbw lost instead (by_busbw) */
	bool by_busbw;
	double step_gain;             /* after / before step time (0 when it cannot run) */
};
/* Apply s to d and compute the design left (bytes and gpus as metrics_compute takes
 * them); before is the intact design's point. */
void fail_evaluate(const struct design *d, const struct catalog *cat, const struct fail_spec *s, double bytes,
		   int gpus, const struct fail_point *before, struct fail_outcome *out);
/* Sort outcomes by what they cost the job: those that stop it first, then by tokens/s
 * lost, then by their spec's text; those that could not be applied last. */
void fail_rank(struct fail_outcome *o, int n);

/* What shrinks: the rails (wired NIC ports per node), a switch group's switches, its
 * uplinks per switch (its ECMP group when it hashes), or the whole group. */
enum shrink_what { SHRINK_RAILS, SHRINK_SWITCHES, SHRINK_UPLINKS, SHRINK_GONE };
extern const char *const shrink_names[]; /* "rails", "switches", "uplinks", "gone" */
struct fail_shrink {
	int what;                     /* enum shrink_what */
	char group[NCF_NAME_MAX];     /* "" for rails */
	int before, after;
	int hash;                     /* SHRINK_UPLINKS: enum hash_kind there */
};
int fail_shrinks(const struct fail_point *before, const struct fail_point *after, struct fail_shrink *out, int max);

#endif
