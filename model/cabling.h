/* cabling.h: every link of a design, port by port.
 *
 * A design says "each of the 64 DGX sends 8 links to the 16 leaves, rail-wired"; the
 * cabling plan says which port of which member each link leaves and which port of which
 * switch it lands on. The exports (NetBox cables, the BOM's optics per cage, cable lengths)
 * and the rack view all walk this one plan, so they cannot disagree.
 *
 * Wiring (ncfabric.5, section CABLING PLAN). A bundle from group X to switch group Y with
 * L = links_each; p is member j's position among all members of all groups bundled into
 * Y (bundles into Y taken in design order, each contributing its from group's members in
 * order); total is the number of those members:
 *   tor     all L links of member j on switch floor(p / per), per = ceil(total / Y.count)
 *   rail    link l of member j on switch u*L + l, u = floor(p / us), units = Y.count / L,
 *           us = ceil(total / units) (units 0 counts as 1: links with no switch are problems)
 *   spread  link l of member j on switch (p*L + l) mod Y.count
 * Ports, all 0-based here:
 *   - a switch's down ports come first: bundles into its group in design order, each
 *     switch counting its own; its up ports start after the most down ports any switch of
 *     its group uses (so no port is used twice), links_each consecutive ports per bundle;
 *   - a server's bundles take its compute NIC ports in bundle order (NIC entries in
 *     order, the ports of each NIC together).
 * Cages: a switch with q logical ports per cage (ports / cages) and breakout b has q*b
 * ports per cage; port p is in cage p / (q*b), lane (p mod q*b) / b, sub-port p mod b.
 * A server whose catalog entry names nic_cages C for its P compute ports puts port k in
 * cage k*C/P (DGX H100: 8 ports in 4 twin-port OSFP cages); otherwise each port is a cage.
 *
 * Cost: proportional to the number of links (the plan is walked, never stored whole). */
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
	long index;      /* 0-based within the bundle: member * links_each + link */
	struct cab_end a, b; /* a: the bundle's from side, b: the switch it lands on */
};

typedef void (*cab_fn)(const struct cab_link *l, void *ctx);

/* Call fn for every link that lands on a port that exists, in bundle order, then member
 * and link order. Links that land on no switch or beyond a switch's radix are not passed
 * to fn: each bundle that has some adds one error to problems (when not NULL) naming how
 * many and why. Returns the number of links passed to fn. */
long cabling_walk(const struct design *d, const struct catalog *cat, cab_fn fn, void *ctx, struct ncf_diag *problems);

/* Ports each member of switch group g uses down and up by the plan (arrays of the group's
 * count, the caller frees both). */
void cabling_switch_use(const struct design *d, size_t g, long **down, long **up);

/* Logical ports per cage of switch group g (after breakout), at least 1. */
int cabling_switch_cage_ports(const struct switch_group *g, const struct cat_switch *c);
/* Cage of a server group's compute port k (see above). */
int cabling_server_cage(const struct server_group *g, const struct catalog *cat, int port);
/* Cages of one server of g that hold compute ports. */
int cabling_server_cages(const struct server_group *g, const struct catalog *cat);

#endif
