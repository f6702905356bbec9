/* bom.h: the bill of materials of a design: what to buy, counted per group.
 *
 * Parts: servers (or, with no server model, their GPUs), NICs, NVLink switch trays,
 * switches, and for every bundle its cables and optics. Media follow the rule of
 * inventory.h (DAC within a rack, transceivers and fibre between racks and tiers) unless
 * a bundle says otherwise. Optics are counted per end: a switch whose cages hold two
 * ports (twin-port OSFP on NDR and 800G switches) takes one twin-port transceiver per two
 * links; a NIC takes one single-port transceiver per link; each optical link also needs
 * one fibre. */
#ifndef NCF_BOM_H
#define NCF_BOM_H
#include "model/inventory.h"

enum bom_category { BOM_SERVER, BOM_GPU, BOM_NIC, BOM_NVSWITCH_TRAY, BOM_SWITCH, BOM_CABLE, BOM_TRANSCEIVER,
		    BOM_FIBRE, BOM_CATEGORY_COUNT };
extern const char *const bom_category_names[];

struct bom_line {
	int category;
	char vendor[24], model[NCF_NAME_MAX], part[NCF_NAME_MAX];
	long quantity;
	double unit_power_W;      /* 0: not published */
	char notes[160];
};

struct bom_cabling {              /* per bundle */
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	long links;
	int speed_gbps, media;
	char cable[NCF_NAME_MAX];     /* DAC/AOC part, or the fibre */
	char optic_from[NCF_NAME_MAX], optic_to[NCF_NAME_MAX];
	long optics_from, optics_to;  /* transceivers at each end */
	bool twin_from, twin_to;      /* twin-port cages at that end */
};

struct bom {
	struct vec lines;             /* struct bom_line */
	struct vec cabling;           /* struct bom_cabling */
	double power_W, rack_units;
	int power_unknown;
};

void bom_compute(const struct design *d, const struct catalog *cat, struct bom *b);
void bom_free(struct bom *b);

#endif
