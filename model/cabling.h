/* cabling.h: every link of a design, port by port.
 *
 * A design says "each of the 64 DGX sends 8 links to the 16 leaves, rail-wired"; the
 * cabling plan says which port of which member each link leaves and which port of which
 * switch it lands on. The exports (NetBox cables, the BOM's optics per cage, cable lengths)
 * and the rack view all walk this one plan, so they cannot disagree.
 *
 * Wiring: the rules of ncfabric(5) WIRING, as the topology engine reads them (topo.h).
 * Bundles with the same ends, wiring, LAG and speed are one bundle written in parts (the
 * engine folds them): L is the sum of their links_each, and a part's links are the ones
 * from its first link within L on. For a bundle from group X up to switch group Y, p is a
 * member's position among the members of all groups bundled up into Y (those bundles in
 * design order), D their total:
 *   tor     all L links of position p on switch floor(p / per), per = ceil(D / |Y|)
 *   rail    link l of position p on switch u*L + l, u = floor(p / us), us = ceil(D / (|Y|/L));
 *           with L > |Y|, link l on switch l mod |Y|
 *   spread  link l of position p on switch (p*L + l) mod |Y|
 *   mesh    servers to servers: every member of X to every member of Y (every other member
 *           when X is Y), L links per pair
 *   peer    switches to switches of the same tier (or a group to itself): as mesh
 * Ports, all 0-based here:
 *   - a server's ports: its bundles in design order (a folded bundle once, at its first
 *     part, its parts' links consecutive), L ports for a bundle up, L per peer for a mesh;
 *     then the mesh bundles from other groups into its group, L per member of theirs;
 *   - a switch's down ports come first, in walk order (bundles into its group in design
 *     order, member and link order); its up and peer ports start after the most down
 *     ports any switch of its group uses (so no port is used twice), one block per bundle
 *     in design order: L for a bundle up, L per peer for a peer bundle, peers in order.
 * Cages: a switch with q logical ports per cage (ports / cages) and breakout b has q*b
 * ports per cage; port p is in cage p / (q*b), lane (p mod q*b) / b, sub-port p mod b.
 * A server whose catalog entry names nic_cages C for its P compute ports puts port k in
 * cage k*C/P (DGX H100: 8 ports in 4 twin-port OSFP cages); otherwise each port is a cage.
 *
 * Cost: proportional to the number of links and groups (the plan is walked, never stored
 * whole; names are resolved once per bundle end, through design_find's hash index). */
#ifndef NCF_CABLING_H
#define NCF_CABLING_H
#include "model/design.h"

struct cab_end {
	int kind;        /* GK_SERVER or GK_SWITCH */
	size_t group;    /* index in d->servers or d->switches */
	long member;     /* 0-based */
	int port;        /* 0-based: a switch's logical port, a server's compute port */
	int cage;        /* 0-based cage of the port on its device */
	int cage_ports;  /* logical ports one cage of this device holds */
	int lane, sub;   /* switches: native port within the cage, breakout sub-port */
	int nic_spec;    /* servers: index of the NIC entry in the group's nics, -1 if none */
	int nic, nic_port; /* servers: NIC of that entry (0-based) and its port */
};

struct cab_link {
	size_t bundle;   /* index in d->bundles */
	long index;      /* 0-based: member (or pair) * L + link, parts of a folded bundle numbered together */
	struct cab_end a, b; /* a: the bundle's from side, b: its to side */
};

/* A bundle as wired. */
struct cab_bundle {
	int kind;            /* BK_UP, BK_PEER, BK_MESH; -1: not wired (check.c says why) */
	int wiring;          /* enum wiring */
	int fk, tk;          /* kinds of its ends (enum group_kind) */
	size_t fi, ti;       /* their indices in d->servers or d->switches */
	size_t head;         /* the bundle it is folded into (itself when none) */
	long L;              /* links per member (per pair for peer and mesh): the head's sum */
	long lo, n;          /* this part's links: lo .. lo+n-1 of the head's L */
	long offset, D;      /* up: position of the from group's first member in Y; Y's total */
	long from_port;      /* first port of this part on each member of its from end */
	long to_port;        /* peer and mesh: first port on each member of its to end (-1 up) */
	int gbps;            /* link speed, as bundle_speed_gbps */
};

/* The bundles of d as wired (an array of d->bundles.n + 1, the caller frees it). */
struct cab_bundle *cabling_bundles(const struct design *d, const struct catalog *cat);
/* The switch of a group of count switches that link l (of the head's L) of position p of
 * an up bundle lands on, or -1 when the group is empty. */
long cabling_target(const struct cab_bundle *b, long count, long p, long l);

typedef void (*cab_fn)(const struct cab_link *l, void *ctx);

/* Call fn for every link that lands on a port that exists, in bundle order, then member
 * (pair for peer and mesh bundles) and link order. Links that land on no switch or beyond
 * a device's ports are not passed to fn: each bundle that has some adds one error to
 * problems (when not NULL) naming how many and why. Returns the number of links passed to
 * fn. cabling_walk_with takes the bundles from cabling_bundles (to walk several times). */
long cabling_walk(const struct design *d, const struct catalog *cat, cab_fn fn, void *ctx, struct ncf_diag *problems);
long cabling_walk_with(const struct design *d, const struct catalog *cat, const struct cab_bundle *wb, cab_fn fn,
		       void *ctx, struct ncf_diag *problems);

/* Ports per switch of every switch group by the plan: down[g][s] for member s of group g
 * (down ports differ switch by switch), up[g] the up and peer ports each switch of g uses.
 * The caller frees down[g] for every group, down and up. */
void cabling_ports(const struct design *d, const struct cab_bundle *wb, long ***down, long **up);
/* The same for one group (arrays of the group's count, the caller frees both). */
void cabling_switch_use(const struct design *d, const struct catalog *cat, size_t g, long **down, long **up);

/* Logical ports per cage of switch group g (after breakout), at least 1. */
int cabling_switch_cage_ports(const struct switch_group *g, const struct cat_switch *c);
/* Cage of a server group's compute port k (see above). */
int cabling_server_cage(const struct server_group *g, const struct catalog *cat, int port);
/* Cages of one server of g that hold compute ports. */
int cabling_server_cages(const struct server_group *g, const struct catalog *cat);

#endif
