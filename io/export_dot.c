/* export_dot.c: the design as a Graphviz graph for a design review.
 *
 * Every group is a cluster, labelled where its edges do not run. A group of up to
 * DOT_EXPAND members is drawn member by member; a larger one is one node that names its
 * first and last member and its count.
 * Every bundle is drawn from the cabling plan (cabling.h), so an edge joins exactly the
 * members its links join: member to member when both ends are drawn member by member,
 * from the group's node to each member (or between the two nodes) otherwise, labelled with
 * the links it stands for. Links that land nowhere are one dashed edge that says so.
 * Tiers are ranked bottom (servers) to top (core). */
#include "io/export.h"
#include "io/model_view.h"
#include "io/strbuf.h"
#include "model/alloc.h"
#include "model/cabling.h"
#include "model/floor.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOT_EXPAND 8

/* A DOT string: quotes and backslashes escaped, a newline becomes \n. */
static void dot_str(struct strbuf *o, const char *s)
{
	sb_printf(o, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_printf(o, "\\%c", *s);
		else if (*s == '\n')
			sb_printf(o, "\\n");
		else
			sb_printf(o, "%c", *s);
	}
	sb_printf(o, "\"");
}

struct dgroup {
	const char *name;
	long count;
	bool expand;
	int tier;       /* 0 servers and domains, 1 leaf, 2 spine, 3 core */
};

/* The node id of member m of a group (m < 0 or a group not expanded: the group's node). */
static void node_id(char *out, size_t size, const struct dgroup *g, long m)
{
	if (!g->expand || m < 0)
		snprintf(out, size, "group:%s", g->name);
	else
		floor_member_name(out, size, g->name, g->count, m);
}

struct counts {
	const struct design *d;
	struct dgroup *groups;     /* servers, then switches */
	size_t nserver;
	long **cell;               /* per bundle: (DOT_EXPAND+1)^2 link counts */
};

static size_t group_index(const struct counts *c, const struct cab_end *e)
{
	return e->kind == GK_SERVER ? e->group : c->nserver + e->group;
}

static void count_link(const struct cab_link *l, void *v)
{
	struct counts *c = v;
	const struct dgroup *a = &c->groups[group_index(c, &l->a)], *b = &c->groups[group_index(c, &l->b)];
	long ai = a->expand ? l->a.member : 0, bi = b->expand ? l->b.member : 0;
	c->cell[l->bundle][ai * (DOT_EXPAND + 1) + bi]++;
}

/* The members a group's one node stands for. */
static void group_label(char *out, size_t size, const struct dgroup *g)
{
	char first[FLOOR_NAME_MAX], last[FLOOR_NAME_MAX];
	floor_member_name(first, sizeof first, g->name, g->count, 0);
	floor_member_name(last, sizeof last, g->name, g->count, g->count - 1);
	if (g->count <= 0)
		snprintf(out, size, "no members");
	else if (g->count == 1)
		snprintf(out, size, "%s", first);
	else
		snprintf(out, size, "%s .. %s", first, last);
}

/* A group is a cluster. Drawn member by member, its box is labelled with label, at the foot
 * when the group has bundles going up (rankdir=BT: labelloc t is the foot) and at the left,
 * where its edges do not run. Drawn as one node, the node says label and names its first
 * and last member (a box label would sit where the node's edges leave). */
static void cluster(struct strbuf *o, const struct dgroup *g, const char *cid, const char *label, const char *fill,
		    bool goes_up)
{
	char id[FLOOR_NAME_MAX + 16], nl[2 * FLOOR_NAME_MAX + 64], full[4 * FLOOR_NAME_MAX + 160];
	long m;
	sb_printf(o, "  subgraph ");
	dot_str(o, cid);
	sb_printf(o, " {\n    label=");
	dot_str(o, g->expand ? label : "");
	sb_printf(o, ";\n    labelloc=%s; labeljust=l; style=\"rounded\"; color=\"gray50\";\n", goes_up ? "t" : "b");
	if (g->expand) {
		for (m = 0; m < g->count; m++) {
			node_id(id, sizeof id, g, m);
			sb_printf(o, "    ");
			dot_str(o, id);
			sb_printf(o, " [fillcolor=\"%s\"];\n", fill);
		}
	} else {
		node_id(id, sizeof id, g, -1);
		group_label(nl, sizeof nl, g);
		snprintf(full, sizeof full, "%s\n%s", label, nl);
		sb_printf(o, "    ");
		dot_str(o, id);
		sb_printf(o, " [label=");
		dot_str(o, full);
		sb_printf(o, ", fillcolor=\"%s\", peripheries=2];\n", fill);
	}
	sb_printf(o, "  }\n");
}

/* Does group i of kind have a bundle going up (drawn above it)? */
static bool goes_up(const struct design *d, const struct cab_bundle *wb, int kind, size_t i)
{
	size_t k;
	for (k = 0; k < d->bundles.n; k++)
		if (wb[k].kind == BK_UP && wb[k].fk == kind && wb[k].fi == i)
			return true;
	return false;
}

static void edge(struct strbuf *o, const char *a, const char *b, const char *label, long links, bool dashed)
{
	double w = links > 0 ? 1 + log2((double)links) / 2 : 1;
	sb_printf(o, "  ");
	dot_str(o, a);
	sb_printf(o, " -- ");
	dot_str(o, b);
	sb_printf(o, " [label=");
	dot_str(o, label);
	sb_printf(o, ", penwidth=%.2f%s];\n", w > 5 ? 5 : w, dashed ? ", style=dashed, color=\"red3\"" : "");
}

char *export_dot(const struct design *d, const struct catalog *cat)
{
	struct strbuf o = { 0 };
	struct model_view mv;
	struct counts c;
	struct cab_bundle *wb;
	size_t n = d->servers.n + d->switches.n, i, k;
	char label[1024], cid[96], what[160];
	int t, role;
	static const char *const fills[] = { "#e8f0fe", "#e6f4ea", "#fef7e0", "#fce8e6" };
	memset(&c, 0, sizeof c);
	c.d = d;
	c.nserver = d->servers.n;
	c.groups = xcalloc(n + 1, sizeof *c.groups);
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		c.groups[i] = (struct dgroup){ g->name, g->count, g->count > 0 && g->count <= DOT_EXPAND, 0 };
	}
	for (i = 0; i < d->switches.n; i++) {
		const struct switch_group *g = DESIGN_SWITCH(d, i);
		c.groups[d->servers.n + i] = (struct dgroup){ g->name, g->count, g->count > 0 && g->count <= DOT_EXPAND,
							      1 + g->role };
	}
	c.cell = xcalloc(d->bundles.n + 1, sizeof *c.cell);
	for (i = 0; i < d->bundles.n; i++)
		c.cell[i] = xcalloc((DOT_EXPAND + 1) * (DOT_EXPAND + 1), sizeof **c.cell);
	wb = cabling_bundles(d, cat);
	cabling_walk_with(d, cat, wb, count_link, &c, NULL);
	model_view_compute(d, cat, &mv);

	sb_printf(&o, "graph ");
	dot_str(&o, d->name);
	snprintf(label, sizeof label, "%s%s%s", d->name, d->description[0] ? "\n" : "", d->description);
	for (t = 0; t < mv.ntiers; t++) {
		size_t used = strlen(label);
		if (mv.tiers[t].ratio > 0)
			snprintf(label + used, sizeof label - used, "\n%s tier (%s): %.3g:1 down:up", switch_role_names[mv.tiers[t].role],
				 mv.tiers[t].group, mv.tiers[t].ratio);
	}
	sb_printf(&o, " {\n  graph [rankdir=BT, newrank=true, ranksep=1.2, nodesep=0.3, fontname=\"Helvetica\", labelloc=t, label=");
	dot_str(&o, label);
	sb_printf(&o, "];\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n");
	sb_printf(&o, "  edge [fontname=\"Helvetica\", fontsize=9, color=\"gray30\"];\n");

	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		snprintf(cid, sizeof cid, "cluster_server_%zu", i);
		snprintf(what, sizeof what, "%s%s%d x %s", g->model[0] ? g->model : "", g->model[0] ? ", " : "", g->gpus, g->gpu);
		snprintf(label, sizeof label, "%s: %d x %s", g->name, g->count, what);
		cluster(&o, &c.groups[i], cid, label, fills[0], goes_up(d, wb, GK_SERVER, i));
	}
	for (i = 0; i < d->domains.n; i++) {
		const struct domain_group *m = DESIGN_DOMAIN(d, i);
		struct dgroup dg = { m->name, m->count, m->count > 0 && m->count <= DOT_EXPAND, 0 };
		snprintf(cid, sizeof cid, "cluster_domain_%zu", i);
		snprintf(label, sizeof label, "%s: %d NVLink domain%s of %d servers, %d x %s", m->name, m->count,
			 m->count == 1 ? "" : "s", m->servers_each, m->switch_trays, m->tray);
		cluster(&o, &dg, cid, label, fills[0], false);
	}
	for (role = ROLE_LEAF; role <= ROLE_CORE; role++)
		for (i = 0; i < d->switches.n; i++) {
			const struct switch_group *g = DESIGN_SWITCH(d, i);
			if (g->role != role)
				continue;
			snprintf(cid, sizeof cid, "cluster_switch_%zu", i);
			snprintf(label, sizeof label, "%s: %d x %s (%s%s)", g->name, g->count, g->model, switch_role_names[g->role],
				 g->breakout > 1 ? ", breakout" : "");
			cluster(&o, &c.groups[d->servers.n + i], cid, label, fills[1 + role], goes_up(d, wb, GK_SWITCH, i));
		}
	/* Same rank per tier, across clusters. */
	for (t = 0; t < 4; t++) {
		bool any = false;
		for (i = 0; i < n; i++) {
			const struct dgroup *g = &c.groups[i];
			long m;
			char id[FLOOR_NAME_MAX + 16];
			if (g->tier != t)
				continue;
			if (!any)
				sb_printf(&o, "  { rank=same;");
			any = true;
			for (m = 0; m < (g->expand ? g->count : 1); m++) {
				node_id(id, sizeof id, g, g->expand ? m : -1);
				sb_printf(&o, " ");
				dot_str(&o, id);
				sb_printf(&o, ";");
			}
		}
		if (t == 0)
			for (i = 0; i < d->domains.n; i++) {
				const struct domain_group *m = DESIGN_DOMAIN(d, i);
				struct dgroup dg = { m->name, m->count, m->count > 0 && m->count <= DOT_EXPAND, 0 };
				long dm;
				char id[FLOOR_NAME_MAX + 16];
				if (!any)
					sb_printf(&o, "  { rank=same;");
				any = true;
				for (dm = 0; dm < (dg.expand ? dg.count : 1); dm++) {
					node_id(id, sizeof id, &dg, dg.expand ? dm : -1);
					sb_printf(&o, " ");
					dot_str(&o, id);
					sb_printf(&o, ";");
				}
			}
		if (any)
			sb_printf(&o, " }\n");
	}

	/* Domains: the servers that join each. */
	for (i = 0; i < d->servers.n; i++) {
		const struct server_group *g = DESIGN_SERVER(d, i);
		size_t mi;
		if (!g->domain[0] || design_find(d, g->domain, &mi) != GK_DOMAIN)
			continue;
		{
			const struct domain_group *m = DESIGN_DOMAIN(d, mi);
			struct dgroup dg = { m->name, m->count, m->count > 0 && m->count <= DOT_EXPAND, 0 };
			long dm;
			char a[FLOOR_NAME_MAX + 16], b[FLOOR_NAME_MAX + 16];
			node_id(a, sizeof a, &c.groups[i], -1);
			for (dm = 0; dm < (dg.expand ? dg.count : 1); dm++) {
				node_id(b, sizeof b, &dg, dg.expand ? dm : -1);
				snprintf(label, sizeof label, "NVLink: %d servers each", m->servers_each);
				sb_printf(&o, "  ");
				dot_str(&o, a);
				sb_printf(&o, " -- ");
				dot_str(&o, b);
				sb_printf(&o, " [label=");
				dot_str(&o, label);
				sb_printf(&o, ", style=dotted, color=\"purple\"];\n");
			}
		}
	}
	/* Bundles. */
	for (i = 0; i < d->bundles.n; i++) {
		const struct bundle *b = DESIGN_BUNDLE(d, i);
		size_t fi, ti;
		enum group_kind fk = design_find(d, b->from, &fi), tk = design_find(d, b->to, &ti);
		const struct dgroup *ga, *gb;
		long ai, bi, total = 0, landed = 0, same = 0, nedges = 0;
		bool first;
		int speed = bundle_speed_gbps(d, cat, b);
		char a[FLOOR_NAME_MAX + 16], z[FLOOR_NAME_MAX + 16];
		if (wb[i].kind < 0)
			continue;
		ga = &c.groups[fk == GK_SERVER ? fi : d->servers.n + fi];
		gb = &c.groups[tk == GK_SERVER ? ti : d->servers.n + ti];
		total = bundle_links(d, b);
		{
			/* Many edges of one size: the size is said once. */
			long v = -1, edges = 0;
			for (ai = 0; ai <= DOT_EXPAND * (DOT_EXPAND + 2); ai++) {
				long cnt = c.cell[i][ai];
				if (!cnt)
					continue;
				edges++;
				if (v < 0)
					v = cnt;
				else if (v != cnt)
					v = 0;
			}
			same = edges > 4 && v > 0 ? v : 0;
			nedges = edges;
		}
		first = true;
		for (ai = 0; ai <= DOT_EXPAND; ai++)
			for (bi = 0; bi <= DOT_EXPAND; bi++) {
				long cnt = c.cell[i][ai * (DOT_EXPAND + 1) + bi];
				if (!cnt)
					continue;
				landed += cnt;
				node_id(a, sizeof a, ga, ga->expand ? ai : -1);
				node_id(z, sizeof z, gb, gb->expand ? bi : -1);
				if (!ga->expand && !gb->expand)
					snprintf(label, sizeof label, "%ld x %dG\n%s, %d per %s", cnt, speed,
						 wb[i].kind == BK_PEER ? "peer" : wiring_names[b->wiring], b->links_each,
						 wb[i].kind == BK_UP ? b->from : "pair");
				else if (same && first)
					snprintf(label, sizeof label, "%ld x %dG on each of %ld edges", cnt, speed, nedges);
				else if (same)
					label[0] = '\0';
				else
					snprintf(label, sizeof label, "%ld x %dG", cnt, speed);
				first = false;
				edge(&o, a, z, label, cnt, false);
			}
		if (landed < total) {
			node_id(a, sizeof a, ga, -1);
			if (ga->expand)
				floor_member_name(a, sizeof a, ga->name, ga->count, 0);
			node_id(z, sizeof z, gb, -1);
			if (gb->expand)
				floor_member_name(z, sizeof z, gb->name, gb->count, 0);
			snprintf(label, sizeof label, "%ld of %ld links land nowhere", total - landed, total);
			edge(&o, a, z, label, total - landed, true);
		}
	}
	sb_printf(&o, "}\n");
	for (k = 0; k < d->bundles.n; k++)
		free(c.cell[k]);
	free(c.cell);
	free(c.groups);
	free(wb);
	return sb_take(&o);
}
