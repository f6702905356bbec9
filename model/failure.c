/* failure.c: a failure as a modified design (failure.h). The engine is not touched: every
 * failure below is a change to whole groups and bundles of a copy of the design. */
#include "model/failure.h"
#include "model/diag.h"
#include "model/alloc.h"
#include <stdlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const fail_kind_names[] = { "switch", "group", "nic", "link", NULL };


static const char expected[] =
	"expected switch:GROUP, group:GROUP, nic:SERVERGROUP or link:FROM->TO[:N]";

bool fail_parse(const char *text, struct fail_spec *out, char *err, size_t errsz)
{
	const char *colon = text ? strchr(text, ':') : NULL, *name;
	size_t klen, nlen;
	int k;
	memset(out, 0, sizeof *out);
	if (!text || !*text)
		return ncf_fail(err, errsz, "an empty failure: %s", expected);
	if (!colon)
		return ncf_fail(err, errsz, "'%.60s' has no kind: %s", text, expected);
	klen = (size_t)(colon - text);
	for (k = 0; k < FAIL_KIND_COUNT; k++)
		if (strlen(fail_kind_names[k]) == klen && !strncmp(fail_kind_names[k], text, klen))
			break;
	if (k == FAIL_KIND_COUNT)
		return ncf_fail(err, errsz, "unknown failure kind '%.*s': %s", (int)(klen > 40 ? 40 : klen), text, expected);
	out->kind = k;
	name = colon + 1;
	if (k != FAIL_LINK) {
		nlen = strlen(name);
		if (!nlen)
			return ncf_fail(err, errsz, "%s: needs a group name after '%s:'", fail_kind_names[k], fail_kind_names[k]);
		if (nlen >= sizeof out->group)
			return ncf_fail(err, errsz, "%s: the name is longer than %zu characters", fail_kind_names[k],
					sizeof out->group - 1);
		memcpy(out->group, name, nlen + 1);
		return true;
	} else {
		const char *arrow = strstr(name, "->"), *to, *n = NULL;
		size_t tlen;
		out->links = 1;
		if (!arrow)
			return ncf_fail(err, errsz, "link: needs a bundle as FROM->TO, as in link:leaf->spine or link:leaf->spine:2");
		nlen = (size_t)(arrow - name);
		to = arrow + 2;
		tlen = strlen(to);
		/* An optional :N at the end (names may not end in digits after a colon). */
		{
			const char *c = strrchr(to, ':');
			if (c) {
				n = c + 1;
				tlen = (size_t)(c - to);
			}
		}
		if (!nlen || !tlen)
			return ncf_fail(err, errsz, "link: the bundle needs both ends, FROM->TO");
		if (nlen >= sizeof out->group || tlen >= sizeof out->to)
			return ncf_fail(err, errsz, "link: a name is longer than %zu characters", sizeof out->group - 1);
		memcpy(out->group, name, nlen);
		out->group[nlen] = 0;
		memcpy(out->to, to, tlen);
		out->to[tlen] = 0;
		if (n) {
			long v = 0;
			const char *p;
			if (!*n)
				return ncf_fail(err, errsz, "link: expected a number of links after the last ':'");
			for (p = n; *p; p++) {
				if (*p < '0' || *p > '9' || (p == n && *p == '0'))
					return ncf_fail(err, errsz, "link: '%.20s' is not a number of links (1 to 999999)", n);
				v = v * 10 + (*p - '0');
				if (v > 999999)
					return ncf_fail(err, errsz, "link: '%.20s' is not a number of links (1 to 999999)", n);
			}
			out->links = (int)v;
		}
		return true;
	}
}

const char *fail_name(const struct fail_spec *s, char *buf, size_t size)
{
	if (s->kind == FAIL_LINK && s->links != 1)
		snprintf(buf, size, "link:%s->%s:%d", s->group, s->to, s->links);
	else if (s->kind == FAIL_LINK)
		snprintf(buf, size, "link:%s->%s", s->group, s->to);
	else
		snprintf(buf, size, "%s:%s", fail_kind_names[s->kind], s->group);
	return buf;
}

double fail_detect_seconds(int ib_timeout, int retries)
{
	/* The IB local ACK timeout is 4.096 us x 2^NCCL_IB_TIMEOUT, tried NCCL_IB_RETRY_CNT times. */
	return 4.096e-6 * ldexp(1.0, ib_timeout) * retries;
}

/* ---- editing a copy --------------------------------------------------------------------- */

static int find_switch(const struct design *d, const char *name)
{
	size_t i;
	return design_find(d, name, &i) == GK_SWITCH ? (int)i : -1;
}

static int find_server(const struct design *d, const char *name)
{
	size_t i;
	return design_find(d, name, &i) == GK_SERVER ? (int)i : -1;
}

/* Remove switch group `name` and every bundle to or from it. */
static void remove_group(struct design *d, const char *name)
{
	size_t i;
	int sw = find_switch(d, name);
	for (i = d->bundles.n; i-- > 0;) {
		struct bundle *b = DESIGN_BUNDLE(d, i);
		if (!strcmp(b->from, name) || !strcmp(b->to, name))
			vec_remove(&d->bundles, sizeof(struct bundle), i);
	}
	/* Canvas positions name blocks; a missing block's position is harmless, but drop it. */
	for (i = d->canvas.positions.n; i-- > 0;)
		if (!strcmp(VEC_AT(d->canvas.positions, struct position, i).block, name))
			vec_remove(&d->canvas.positions, sizeof(struct position), i);
	if (sw >= 0)
		vec_remove(&d->switches, sizeof(struct switch_group), (size_t)sw);
}

/* Bundles into switch group `name` from below (up bundles whose upper end it is). */
static int bundles_into(const struct design *d, const char *name, int *idx, int max)
{
	size_t i;
	int n = 0;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (!strcmp(b->to, name) && bundle_kind(d, b) == BK_UP && n < max)
			idx[n++] = (int)i;
	}
	return n;
}

static const char *lower_kind(const struct design *d, const struct bundle *b)
{
	return find_server(d, b->from) >= 0 ? "server" : "switch";
}

/* Cut n links of every member of bundle bi's lower end (the degraded state of one
 * member losing them, failure.h). A rail-wired bundle loses rails: its upper group then
 * loses that rail's switch in every unit. */
static bool cut_links(struct design *d, int bi, int n, char *what, size_t wsz, char *err, size_t errsz)
{
	struct bundle *b = DESIGN_BUNDLE(d, bi);
	int L = b->links_each, kind = bundle_kind(d, b);
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	snprintf(from, sizeof from, "%s", b->from);
	snprintf(to, sizeof to, "%s", b->to);
	if (n > L)
		return ncf_fail(err, errsz, "bundle %s->%s has %d link%s per %s, not %d", from, to, L, L == 1 ? "" : "s",
				lower_kind(d, b), n);
	if (kind == BK_MESH)
		return ncf_fail(err, errsz,
				"bundle %s->%s links servers directly (mesh): losing one of its links is not a change to whole groups",
				from, to);
	if (kind == BK_UP && b->wiring == WIRE_RAIL) {
		int sw = find_switch(d, to), into[8];
		struct switch_group *up;
		long units;
		if (sw < 0)
			return ncf_fail(err, errsz, "bundle %s->%s: no switch group '%s'", from, to, to);
		up = DESIGN_SWITCH(d, sw);
		if (bundles_into(d, to, into, 8) != 1)
			return ncf_fail(err, errsz,
					"switch group '%s' takes rails from several bundles: losing a rail of '%s' alone is not a change to whole groups",
					to, from);
		if (up->count < L || up->count % L)
			return ncf_fail(err, errsz,
					"bundle %s->%s: %d rails over %d switches is not whole units, so a lost rail differs from unit to unit",
					from, to, L, up->count);
		units = up->count / L;
		if (L - n == 0) {
			snprintf(what, wsz, "%s->%s loses all %d rails: switch group '%s' carries nothing", from, to, L, to);
			remove_group(d, to);
			return true;
		}
		up->count -= (int)(units * n);
		b = DESIGN_BUNDLE(d, bi);
		b->links_each = L - n;
		snprintf(what, wsz, "%s->%s: %d of %d rail%s per %s; '%s' %ld -> %d switches (%ld unit%s, the lost rail's switch in each)",
			 from, to, L - n, L, L == 1 ? "" : "s", lower_kind(d, b), to, (long)up->count + units * n, up->count,
			 units, units == 1 ? "" : "s");
		return true;
	}
	if (L - n == 0) {
		snprintf(what, wsz, "%s->%s: every %s loses all %d link%s (the bundle is gone)", from, to, lower_kind(d, b), L,
			 L == 1 ? "" : "s");
		vec_remove(&d->bundles, sizeof(struct bundle), (size_t)bi);
		return true;
	}
	b->links_each = L - n;
	snprintf(what, wsz, "%s->%s: %d of %d link%s per %s%s", from, to, L - n, L, L == 1 ? "" : "s", lower_kind(d, b),
		 kind == BK_PEER ? " pair" : "");
	return true;
}

static void append(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf), k;
	if (n && n + 2 < size) {
		memcpy(buf + n, "; ", 3);
		n += 2;
	}
	k = strlen(s);
	if (k > size - 1 - n)
		k = size - 1 - n;
	memcpy(buf + n, s, k);
	buf[n + k] = 0;
}

/* Does a server group plug into switch group `name` (directly)? */
static bool servers_below(const struct design *d, const char *name)
{
	size_t i;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (!strcmp(b->to, name) && find_server(d, b->from) >= 0)
			return true;
	}
	return false;
}

/* The job fails and restarts. lost: servers are left out (they have no network on this
 * fabric); else every rank of the restarted job runs at the degraded node's minimum. */
static void say_job_fails_as(struct fail_effect *e, const char *what, bool lost)
{
	e->response = FR_JOB_FAILS;
	e->detect_s = fail_detect_seconds(20, 7);
	snprintf(e->nccl, sizeof e->nccl,
		 "%s: NCCL does not fail over to another NIC (nccl#998: \"If something fails ... NCCL is going to fail\"); "
		 "the job errors after NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT = 4.096 us x 2^20 x 7 = %.1f s, the framework "
		 "aborts and restarts from its last checkpoint%s (ncfabric(1) FAILURES)",
		 what, e->detect_s,
		 lost ? " without the servers that have no network, if the job still fits on the rest, as below"
		      : ". Restarted on the degraded node, every rank runs at the minimum channel count and NIC speed over "
			"all ranks (NCCL src/init.cc:1436-1442), so the whole job runs as below");
}

static void say_job_fails(struct fail_effect *e, const char *what)
{
	say_job_fails_as(e, what, false);
}

static void say_reroute(struct fail_effect *e, const struct design *d)
{
	e->response = FR_REROUTE;
	if (d->fabric.routing == ROUTE_ECMP)
		snprintf(e->nccl, sizeof e->nccl,
			 "the fabric reroutes and the job continues: on Ethernet ECMP drops the member and re-hashes the "
			 "flows over U - 1 uplinks (hash-threshold ECMP moves flows that did not use it too; resilient hashing "
			 "only the failed member's), so collisions rise; on InfiniBand SHIELD uses another port at once and the "
			 "SM recomputes the tables. NCCL itself sees nothing (ncfabric(1) FAILURES)");
	else
		snprintf(e->nccl, sizeof e->nccl,
			 "the fabric reroutes and the job continues: adaptive routing (or spraying) spreads the traffic over "
			 "the remaining links; on InfiniBand SHIELD uses another port at once and the SM recomputes the tables. "
			 "NCCL itself sees nothing (ncfabric(1) FAILURES)");
}

static bool nic_multiport(const struct design *d, const struct catalog *cat, int sg)
{
	const struct server_group *g = DESIGN_SERVER(d, sg);
	size_t i;
	for (i = 0; i < g->nics.n; i++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		const struct cat_nic *c = catalog_nic(cat, n->model);
		if (n->use == NIC_COMPUTE && n->count > 0 && c && c->ports > 1)
			return true;
	}
	return false;
}

/* Bundles with group name at either end. */
static int bundles_naming(const struct design *d, const char *name)
{
	size_t i;
	int n = 0;
	for (i = 0; i < d->bundles.n; i++)
		n += !strcmp(DESIGN_BUNDLE(d, i)->from, name) || !strcmp(DESIGN_BUNDLE(d, i)->to, name);
	return n;
}

static bool apply_link(struct design *d, const struct catalog *cat, const struct fail_spec *s, struct fail_effect *e,
		       char *err, size_t errsz)
{
	size_t i;
	int bi = -1, found = 0, sg;
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (!strcmp(b->from, s->group) && !strcmp(b->to, s->to)) {
			if (bi < 0)
				bi = (int)i;
			found++;
		}
	}
	if (bi < 0)
		return ncf_fail(err, errsz, "no bundle %s->%s (a bundle is named FROM->TO, as in the design)", s->group, s->to);
	if (found > 1)
		return ncf_fail(err, errsz, "%d bundles are %s->%s: which one's link is meant is ambiguous", found, s->group,
				s->to);
	sg = find_server(d, s->group);
	if (sg >= 0 && s->links == DESIGN_BUNDLE(d, bi)->links_each && DESIGN_SERVER(d, sg)->count > 1 &&
	    bundles_naming(d, s->group) == 1) {
		/* One server loses every link of its only bundle: it has no network left, so the
		 * job restarts without it (as under a dead top-of-rack switch), if it still fits. */
		struct server_group *g = DESIGN_SERVER(d, sg);
		if (g->domain[0])
			return ncf_fail(err, errsz, "link:%s->%s:%d: the server is part of an NVLink domain: not modelled",
					s->group, s->to, s->links);
		snprintf(e->change, sizeof e->change,
			 "'%s': %d -> %d servers (one loses all %d of its links to '%s': no network left)", g->name,
			 g->count, g->count - 1, s->links, s->to);
		g->count--;
		say_job_fails_as(e, "a server's every link down (it has no network)", true);
		return true;
	}
	if (!cut_links(d, bi, s->links, e->change, sizeof e->change, err, errsz))
		return false;
	if (sg >= 0) {
		char what[120];
		snprintf(what, sizeof what, "a server's link%s to '%s' down%s", s->links > 1 ? "s" : "", s->to,
			 s->links > 1 ? "" : " (its NIC port is dead)");
		say_job_fails(e, what);
		e->port_failover = nic_multiport(d, cat, sg);
	} else {
		say_reroute(e, d);
		snprintf(e->caveat, sizeof e->caveat,
			 "the model takes every member of '%s' at the degraded link count (the slowest member paces a "
			 "synchronous collective), so the bisection shown is a lower bound",
			 s->group);
	}
	return true;
}

static bool apply_nic(struct design *d, const struct catalog *cat, const struct fail_spec *s, struct fail_effect *e,
		      char *err, size_t errsz)
{
	int sg = find_server(d, s->group), ports, newports, wired = 0, excess;
	struct server_group *g;
	struct nic_spec *nic = NULL;
	const struct cat_nic *cn;
	size_t i, ni = 0;
	if (sg < 0)
		return ncf_fail(err, errsz, "nic: no server group '%s'", s->group);
	g = DESIGN_SERVER(d, sg);
	for (i = g->nics.n; i-- > 0;) {
		struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, i);
		if (n->use == NIC_COMPUTE && n->count > 0) {
			nic = n;
			ni = i;
			break;
		}
	}
	if (!nic)
		return ncf_fail(err, errsz, "nic: server group '%s' has no compute NIC", s->group);
	cn = catalog_nic(cat, nic->model);
	if (!cn)
		return ncf_fail(err, errsz, "nic: server group '%s' uses NIC '%s', which the catalog does not know", s->group,
				nic->model);
	e->port_failover = cn->ports > 1;
	ports = server_compute_ports(g, cat);
	newports = ports - (cn->ports > 0 ? cn->ports : 1);
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		if (!strcmp(b->from, s->group) || (!strcmp(b->to, s->group) && bundle_kind(d, b) == BK_MESH))
			wired += (int)bundle_ports_each(d, b, !strcmp(b->from, s->group));
	}
	if (nic->count == 1)
		vec_remove(&g->nics, sizeof(struct nic_spec), ni);
	else
		nic->count--;
	snprintf(e->change, sizeof e->change, "'%s': %d -> %d compute NIC ports per server", s->group, ports,
		 newports < 0 ? 0 : newports);
	/* The ports lost are the server's last ones: the last bundles wired them. */
	excess = wired - (newports < 0 ? 0 : newports);
	for (i = d->bundles.n; excess > 0 && i-- > 0;) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		char what[320];
		int cut;
		if (!strcmp(b->to, s->group) && bundle_kind(d, b) == BK_MESH)
			return ncf_fail(err, errsz, "nic: '%s' wires that NIC directly to other servers (mesh): not modelled",
					s->group);
		if (strcmp(b->from, s->group))
			continue;
		if (bundle_kind(d, b) == BK_MESH)
			return ncf_fail(err, errsz, "nic: '%s' wires that NIC directly to other servers (mesh): not modelled",
					s->group);
		cut = excess < b->links_each ? excess : b->links_each;
		if (!cut_links(d, (int)i, cut, what, sizeof what, err, errsz))
			return false;
		append(e->change, sizeof e->change, what);
		excess -= cut;
	}
	say_job_fails(e, "a NIC down");
	return true;
}

/* One switch of group sw (count > 1): count - 1, and the bundles into it lose their links
 * to it. */
static bool apply_switch(struct design *d, const struct fail_spec *s, struct fail_effect *e, char *err, size_t errsz)
{
	int sw = find_switch(d, s->group), into[64], n, k, c;
	bool to_servers = servers_below(d, s->group), lost_servers = false;
	struct switch_group *g;
	char what[320];
	g = DESIGN_SWITCH(d, sw);
	c = g->count;
	n = bundles_into(d, s->group, into, 64);
	/* Check every bundle first: a design is never changed half. */
	for (k = 0; k < n; k++) {
		const struct bundle *b = DESIGN_BUNDLE(d, into[k]);
		int L = b->links_each;
		if (b->wiring == WIRE_SPREAD && L % c)
			return ncf_fail(err, errsz,
					"switch:%s: bundle %s->%s spreads %d links per %s over %d switches, so members lose "
					"different numbers of links to one switch: not a change to whole groups",
					s->group, b->from, b->to, L, lower_kind(d, b), c);
		if (b->wiring == WIRE_RAIL && (c < L || c % L))
			return ncf_fail(err, errsz,
					"switch:%s: bundle %s->%s has %d rails over %d switches (not whole units)", s->group,
					b->from, b->to, L, c);
		if (b->wiring == WIRE_RAIL && n > 1)
			return ncf_fail(err, errsz, "switch:%s: it takes rails from several bundles: not modelled", s->group);
		if (b->wiring == WIRE_TOR) {
			int sg = find_server(d, b->from);
			if (n > 1)
				return ncf_fail(err, errsz, "switch:%s: top-of-rack from several groups: not modelled", s->group);
			if (sg < 0)
				return ncf_fail(err, errsz,
						"switch:%s: %s->%s wires switches top-of-rack: the members under the dead "
						"switch lose every uplink, not modelled",
						s->group, b->from, b->to);
			if (DESIGN_SERVER(d, sg)->domain[0])
				return ncf_fail(err, errsz,
						"switch:%s: the servers under it are part of NVLink domains: not modelled",
						s->group);
			if (DESIGN_SERVER(d, sg)->count % c)
				return ncf_fail(err, errsz,
						"switch:%s: %d servers of '%s' over %d switches are not the same number per switch",
						s->group, DESIGN_SERVER(d, sg)->count, b->from, c);
		}
	}
	snprintf(e->change, sizeof e->change, "'%s': %d -> %d switches", s->group, c, c - 1);
	for (k = n; k-- > 0;) {
		struct bundle *b = DESIGN_BUNDLE(d, into[k]);
		int L = b->links_each;
		if (b->wiring == WIRE_SPREAD) {
			b->links_each = L - L / c;
			snprintf(what, sizeof what, "%s->%s: %d -> %d links per %s", b->from, b->to, L, b->links_each,
				 lower_kind(d, b));
			append(e->change, sizeof e->change, what);
		} else if (b->wiring == WIRE_RAIL) {
			if (!cut_links(d, into[k], 1, what, sizeof what, err, errsz))
				return false;
			/* cut_links says how many switches the group keeps: its words replace ours. */
			snprintf(e->change, sizeof e->change, "%s", what);
			/* cut_links took the rail's switch of every unit (this one among them). */
			return to_servers ? (say_job_fails(e, "a rail's leaf down (every server of its unit loses that rail's NIC)"), true)
					  : (say_reroute(e, d), true);
		} else if (b->wiring == WIRE_TOR) {
			struct server_group *sgp = DESIGN_SERVER(d, find_server(d, b->from));
			int per = sgp->count / c;
			snprintf(what, sizeof what, "'%s': %d -> %d servers (the %d under the dead switch have no network on it)",
				 sgp->name, sgp->count, sgp->count - per, per);
			sgp->count -= per;
			append(e->change, sizeof e->change, what);
			lost_servers = true;
		}
	}
	sw = find_switch(d, s->group);
	DESIGN_SWITCH(d, sw)->count = c - 1;
	if (lost_servers)
		say_job_fails_as(e, "a top-of-rack switch down (its servers lose that network)", true);
	else if (to_servers)
		say_job_fails(e, "a leaf down (its servers' NIC links are dead)");
	else
		say_reroute(e, d);
	return true;
}

bool fail_apply(const struct design *d, const struct catalog *cat, const struct fail_spec *s, struct design *out,
		struct fail_effect *e, char *err, size_t errsz)
{
	int sw;
	memset(e, 0, sizeof *e);
	design_copy(out, d);
	switch (s->kind) {
	case FAIL_LINK:
		return apply_link(out, cat, s, e, err, errsz);
	case FAIL_NIC:
		return apply_nic(out, cat, s, e, err, errsz);
	case FAIL_SWITCH:
	case FAIL_GROUP:
		sw = find_switch(out, s->group);
		if (sw < 0)
			return ncf_fail(err, errsz, "%s: no switch group '%s'%s", fail_kind_names[s->kind], s->group,
					find_server(out, s->group) >= 0 ? " (it is a server group: try nic:)" : "");
		if (s->kind == FAIL_SWITCH && DESIGN_SWITCH(out, sw)->count > 1)
			return apply_switch(out, s, e, err, errsz);
		{
			bool below = servers_below(out, s->group);
			snprintf(e->change, sizeof e->change, "'%s' (%d switch%s) and its bundles removed", s->group,
				 DESIGN_SWITCH(out, sw)->count, DESIGN_SWITCH(out, sw)->count == 1 ? "" : "es");
			remove_group(out, s->group);
			if (below)
				say_job_fails(e, "the switches the servers plug into are down");
			else
				say_reroute(e, out);
		}
		return true;
	default:
		return ncf_fail(err, errsz, "%s", expected);
	}
}

int fail_enumerate(const struct design *d, const struct catalog *cat, struct fail_spec *out, int max)
{
	size_t i, j;
	int n = 0;
#define PUSH(k, a, b, l)                                                                     \
	do {                                                                                 \
		if (n < max) {                                                               \
			memset(&out[n], 0, sizeof out[n]);                                   \
			out[n].kind = (k);                                                   \
			snprintf(out[n].group, sizeof out[n].group, "%s", (a));              \
			snprintf(out[n].to, sizeof out[n].to, "%s", (b));                    \
			out[n].links = (l);                                                  \
		}                                                                            \
		n++;                                                                         \
	} while (0)
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		bool any = false;
		for (j = 0; j < g->nics.n; j++)
			if (VEC_AT(g->nics, struct nic_spec, j).use == NIC_COMPUTE && VEC_AT(g->nics, struct nic_spec, j).count > 0)
				any = true;
		if (any && server_compute_ports(g, cat) > 0)
			PUSH(FAIL_NIC, g->name, "", 0);
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		if (g->count > 1)
			PUSH(FAIL_SWITCH, g->name, "", 0);
		PUSH(FAIL_GROUP, g->name, "", 0);
	}
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		bool dup = false;
		for (j = 0; j < i; j++)
			if (!strcmp(DESIGN_BUNDLE(d, j)->from, b->from) && !strcmp(DESIGN_BUNDLE(d, j)->to, b->to))
				dup = true;
		if (!dup)
			PUSH(FAIL_LINK, b->from, b->to, 1);
	}
#undef PUSH
	return n;
}

/* ---- before and after ------------------------------------------------------------------- */

void fail_point_from(const struct metrics *m, int job_algo, struct fail_point *p)
{
	int c, i;
	memset(p, 0, sizeof *p);
	p->valid = m->work.valid;
	snprintf(p->why, sizeof p->why, "%s", m->work.valid ? "" : m->work.why);
	p->connected = m->fabric.connected;
	for (c = 0; c < PATTERNS; c++) {
		const struct algo_result *a = coll_pick(&m->colls[c], job_algo);
		p->avail[c] = a->available;
		p->algo[c] = (int)(a - m->colls[c].algo);
		p->busbw[c] = a->available ? a->busbw_GBps : 0;
		if (a->available && a->loss.binding >= 0 && a->loss.binding < m->fabric.ntiers) {
			p->cap[c] = a->loss.capacity_GBps;
			snprintf(p->bound[c], sizeof p->bound[c], "%s", m->fabric.tiers[a->loss.binding].group);
		}
	}
	if (m->work.valid) {
		p->step_ms = m->work.step_ms;
		p->tokens_per_s = m->work.tokens_per_s;
		p->speedup = m->work.speedup;
		p->efficiency = m->work.efficiency;
		p->gpus = m->work.gpus;
	}
	p->bisection_GBps = m->fabric.bisection_GBps;
	p->node_ceiling_GBps = m->fabric.node_ceiling_GBps;
	p->ports = m->fabric.ports;
	p->ntiers = m->fabric.ntiers;
	for (i = 0; i < m->fabric.ntiers && i < FABRIC_MAX_TIERS; i++) {
		const struct tier *t = &m->fabric.tiers[i];
		snprintf(p->tiers[i].group, sizeof p->tiers[i].group, "%s", t->group);
		p->tiers[i].count = t->count;
		p->tiers[i].uplinks = t->uplinks;
		p->tiers[i].hash = t->hash;
		p->tiers[i].up_GBps = t->up_GBps;
	}
}

void fail_evaluate(const struct design *d, const struct catalog *cat, const struct fail_spec *s, double bytes,
		   int gpus, const struct fail_point *before, struct fail_outcome *out)
{
	struct design after;
	memset(out, 0, sizeof *out);
	out->spec = *s;
	out->ok = fail_apply(d, cat, s, &after, &out->effect, out->why, sizeof out->why);
	if (out->ok) {
		struct metrics *m = xmalloc(sizeof *m);
		metrics_compute_some(&after, cat, bytes, gpus, 0, m); /* no scaling curve */
		fail_point_from(m, after.job.algo, &out->after);
		free(m);
		if (!out->after.connected) {
			/* Nothing left to reroute over: the job's connections time out. */
			out->effect.response = FR_NO_NETWORK;
			snprintf(out->effect.nccl, sizeof out->effect.nccl,
				 "some of the job's nodes have no path left to each other: their NCCL connections time out "
				 "(NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT = %.1f s) and the job cannot restart on this fabric "
				 "(ncfabric(1) FAILURES)",
				 fail_detect_seconds(20, 7));
			out->effect.detect_s = fail_detect_seconds(20, 7);
		}
		if (out->after.valid && before->valid && before->tokens_per_s > 0) {
			out->tokens_loss = 1 - out->after.tokens_per_s / before->tokens_per_s;
			out->step_gain = before->step_ms > 0 ? out->after.step_ms / before->step_ms : 0;
		} else if (!before->valid && before->avail[COLL_ALLREDUCE] && before->busbw[COLL_ALLREDUCE] > 0) {
			/* No job to lose tokens: rank by what AllReduce loses. */
			out->by_busbw = true;
			out->tokens_loss = out->after.avail[COLL_ALLREDUCE] && out->after.connected
						   ? 1 - out->after.busbw[COLL_ALLREDUCE] / before->busbw[COLL_ALLREDUCE]
						   : 1;
		} else {
			out->tokens_loss = 1;
		}
	}
	design_free(&after);
}

static int outcome_cmp(const void *a, const void *b)
{
	const struct fail_outcome *x = a, *y = b;
	char nx[160], ny[160];
	if (x->ok != y->ok)
		return x->ok ? -1 : 1;
	if (x->tokens_loss > y->tokens_loss + 1e-12)
		return -1;
	if (y->tokens_loss > x->tokens_loss + 1e-12)
		return 1;
	return strcmp(fail_name(&x->spec, nx, sizeof nx), fail_name(&y->spec, ny, sizeof ny));
}

void fail_rank(struct fail_outcome *o, int n)
{
	if (n > 1)
		qsort(o, (size_t)n, sizeof *o, outcome_cmp);
}

const char *const shrink_names[] = { "rails", "switches", "uplinks", "gone", NULL };

int fail_shrinks(const struct fail_point *before, const struct fail_point *after, struct fail_shrink *out, int max)
{
	int n = 0, i, j;
#define SHRINK(w, g, b, a, h)                                                                        \
	do {                                                                                         \
		if (n < max) {                                                                       \
			out[n].what = (w);                                                           \
			snprintf(out[n].group, sizeof out[n].group, "%s", (g));                      \
			out[n].before = (b);                                                         \
			out[n].after = (a);                                                          \
			out[n].hash = (h);                                                           \
		}                                                                                    \
		n++;                                                                                 \
	} while (0)
	if (after->ports < before->ports)
		SHRINK(SHRINK_RAILS, "", before->ports, after->ports, 0);
	for (i = 0; i < before->ntiers; i++) {
		const struct fail_tier *b = &before->tiers[i], *a = NULL;
		for (j = 0; j < after->ntiers; j++)
			if (!strcmp(after->tiers[j].group, b->group))
				a = &after->tiers[j];
		if (!a) {
			SHRINK(SHRINK_GONE, b->group, b->count, 0, b->hash);
			continue;
		}
		if (a->count < b->count)
			SHRINK(SHRINK_SWITCHES, b->group, b->count, a->count, b->hash);
		if (a->uplinks < b->uplinks)
			SHRINK(SHRINK_UPLINKS, b->group, b->uplinks, a->uplinks, b->hash);
	}
#undef SHRINK
	return n;
}
