/* inventory.h: what a design is made of, counted per group (never per GPU).
 *
 * Media rule when a bundle says media: auto (documented in ncfabric.5):
 *   - server to leaf, top-of-rack wiring: DAC (the leaf is in the server's rack);
 *   - server to leaf, rail or spread wiring: transceivers and fibre (rail leaves sit in
 *     network racks, rows away);
 *   - switch to switch: transceivers and fibre.
 * Each transceiver link has two transceivers (one per end). */
#ifndef NCF_INVENTORY_H
#define NCF_INVENTORY_H
#include "model/design.h"

struct inv_switch_group {
	char name[NCF_NAME_MAX], model[NCF_NAME_MAX];
	int role, count;
	long ports;            /* per switch, after breakout */
	int port_speed_gbps;
	long down, up, free;   /* per switch */
};

struct inv_link {
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	int speed_gbps, media;
	long links;
	char cable[NCF_NAME_MAX]; /* catalog cable, or "" when none matches */
	long transceivers;        /* optics at both ends */
};

struct inventory {
	long servers, gpus, nics_compute, nics_storage, nvlink_domains, nvswitch_trays;
	long switches[3];        /* by role */
	long links;              /* cables of all bundles */
	long cables_by_media[5]; /* enum media; [MEDIA_AUTO] stays 0 */
	long transceivers;
	struct vec switch_groups; /* struct inv_switch_group */
	struct vec bundles;       /* struct inv_link */
	double power_W, rack_units;
	int power_unknown;        /* parts whose power the catalog does not know */
	int rack_units_unknown;
};

void inventory_compute(const struct design *d, const struct catalog *cat, struct inventory *inv);
void inventory_free(struct inventory *inv);
/* Media a bundle's links use after the auto rule. */
int bundle_media(const struct design *d, const struct bundle *b);

#endif
