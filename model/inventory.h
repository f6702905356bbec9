/* inventory.h: what a design is made of, counted per group (never per GPU).
 *
 * Links, their media and the transceivers come from the cable plan (cableplan.h: every
 * link's length from the physical layout decides DAC, AOC or transceivers and fibre);
 * power is the bill of materials' maximum (bom.h), so the report, the BOM and the exports
 * count the same things. Switch ports are the cabling plan's: the most down and up ports
 * any switch of the group uses. */
#ifndef NCF_INVENTORY_H
#define NCF_INVENTORY_H
#include "model/design.h"

struct bom;

struct inv_switch_group {
	char name[NCF_NAME_MAX], model[NCF_NAME_MAX];
	int role, count;
	long ports;            /* per switch, after breakout */
	int port_speed_gbps;
	long down, up, free;   /* per switch: the most any switch of the group uses */
	long down_total;       /* down ports used over the whole group */
};

struct inv_link {
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	int speed_gbps, media;    /* media: what most of its links use */
	long links;               /* links that land on a port */
	long by_media[5];         /* of those, per enum media */
	char cable[CP_NAME_MAX]; /* the cable or fibre of the medium most of its links use */
	char optic[2][CP_NAME_MAX]; /* the transceiver at the from and the to end, or "" */
	long transceivers;        /* optics at both ends (one per cage) */
	double min_m, max_m;      /* shortest and longest link, m */
};

struct inventory {
	long servers, gpus, nics_compute, nics_storage, nvlink_domains, nvswitch_trays;
	long switches[3];        /* by role */
	long links;              /* links of all bundles that land on a port */
	long cables_by_media[5]; /* links per enum media; [MEDIA_AUTO] stays 0 */
	long transceivers;       /* modules (a twin-port module serves two links) */
	long cables, fibres;     /* copper and AOC cables, fibre cords */
	long racks;              /* racks of the physical layout */
	struct vec switch_groups; /* struct inv_switch_group */
	struct vec bundles;       /* struct inv_link */
	double power_W, power_typ_W; /* BOM totals, maximum and typical */
	int power_unknown;        /* parts whose maximum power the catalog does not know */
	long power_unknown_items; /* items of them in the design */
	int power_typ_unknown;
	double rack_units;
	int rack_units_unknown;
	struct ncf_diag parts;    /* the cable plan's warnings: over reach, parts not in the catalog */
};

void inventory_compute(const struct design *d, const struct catalog *cat, struct inventory *inv);
/* The same, and the bill of materials it is counted from into *bom (bom_compute's, without
 * walking the cable plan again; the caller frees it with bom_free). */
void inventory_and_bom(const struct design *d, const struct catalog *cat, struct inventory *inv, struct bom *bom);
void inventory_free(struct inventory *inv);
/* Would a and b have the same inventory? They differ at most in what the inventory does
 * not read: the job, the fabric options, the canvas, the name and the description. (The
 * designer recomputes the cable plan only when an edit changes what it is built from.) */
bool inventory_same_inputs(const struct design *a, const struct design *b);

#endif
