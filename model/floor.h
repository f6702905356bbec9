/* floor.h: the physical layout: racks in rows, where every server and switch stands, and
 * how long a cable between any two of them is.
 *
 * Derived from the design and the catalog; the design's physical: section (design.h)
 * overrides each choice. The rules (ncfabric.5, section PHYSICAL LAYOUT):
 *   - servers per rack: as many as fit the rack's units and its power budget (catalog
 *     maximum power; switches standing in the rack count too); servers fill racks in
 *     design order, consecutive groups of the same model as one group (the same hardware,
 *     the same layout), another model starts a rack; an NVLink domain (an NVL72) is one
 *     rack of its trays;
 *   - rows: server racks in design order, racks_per_row to a row; by default one row per
 *     scalable unit (the servers that share one set of rail leaves), else 10;
 *   - leaves stand at the top of the rack of the first server wired to them (top), or in
 *     network racks in the middle or at the end of that server's row; spines and core
 *     switches stand in network racks in the middle or at the end of the middle row.
 *     auto: top for leaves fed only by top-of-rack bundles, middle for the rest;
 *   - a cable between two racks rises from each device to the top of its rack, climbs
 *     riser_m to the tray, runs along the row (rack_width_m per rack) and across rows
 *     (row_pitch_m per row), and carries slack_m; inside one rack it is the height
 *     between the two devices plus the slack.
 * Units: metres; rack units of 44.45 mm; power in W. */
#ifndef NCF_FLOOR_H
#define NCF_FLOOR_H
#include "model/cabling.h"

#define FLOOR_U_M 0.04445
#define FLOOR_NAME_MAX (NCF_NAME_MAX + 24) /* a member name: group, dash, number */

enum rack_kind { RACK_SERVER, RACK_DOMAIN, RACK_NETWORK };
extern const char *const rack_kind_names[];

struct floor_rack {
	char name[28];          /* "R01-03": row 1, position 3 */
	int row, pos;           /* 0-based */
	int kind;               /* enum rack_kind */
	int units_used;
	double power_W;         /* maximum power of the parts in it whose power is known */
	int devices;
	char first[FLOOR_NAME_MAX]; /* the first device in it, e.g. "dgx-01" */
	char last[FLOOR_NAME_MAX];
};

struct floor_spot {
	int rack;               /* index in racks; -1: not placed */
	int u;                  /* lowest rack unit, 1-based */
	int height;             /* rack units */
};

struct floor {
	struct physical p;      /* the knobs with every default filled in */
	int rows, racks_per_row;
	int place[3];           /* enum rack_place per switch role, as resolved (auto never stays) */
	struct vec racks;       /* struct floor_rack, row by row, position by position */
	struct floor_spot **server; /* [server group][member] */
	struct floor_spot **sw;     /* [switch group][member] */
	struct floor_spot **tray;   /* [domain group][domain * switch_trays + tray] */
	int *servers_per_rack;  /* per server group (domain members: servers_each) */
	size_t nserver, nsw, ndomain;
	char note[400];         /* assumptions the layout had to make, "" when none */
};

void floor_build(const struct design *d, const struct catalog *cat, struct floor *f);
void floor_free(struct floor *f);

/* Where the device at a cabling end stands (NULL when it has no place). */
const struct floor_spot *floor_spot_at(const struct floor *f, const struct cab_end *e);
/* Length of a cable between two placed devices, m. */
double floor_cable_m(const struct floor *f, const struct floor_spot *a, const struct floor_spot *b);
/* Name of a member of a group as the exports write it: "dgx-01", zero-padded to the
 * width of the group's count (at least two digits). */
void floor_member_name(char *out, size_t size, const char *group, long count, long member);

#endif
