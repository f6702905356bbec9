/* bom.h: the bill of materials of a design: every orderable item, counted per group.
 *
 * Lines, in this order: servers (with the GPUs and NICs built into them listed as
 * included, not to buy), NICs to buy, NVLink switch trays, switches, and per bundle its
 * cables by length, its transceivers at each end (cableplan.h: one module per cage,
 * twin-port where the cage is twin-port, breakout honoured) and its fibres by length.
 * Each line has a vendor, a model, a part number (when the catalog has one), a quantity,
 * a length for cables and fibres, and power per unit, typical and maximum, as the catalog's
 * sources give them (0: not published; the line says so; the JSON export writes null), and
 * how far its part number identifies what to order (enum bom_part_status). The totals are sums of the
 * lines; lines that are included in another line count neither in the quantities to buy
 * nor in the power (the server's power covers them). */
#ifndef NCF_BOM_H
#define NCF_BOM_H
#include "model/inventory.h"
#include "model/cableplan.h"

enum bom_category { BOM_SERVER, BOM_GPU, BOM_NIC, BOM_NVSWITCH_TRAY, BOM_SWITCH, BOM_CABLE, BOM_TRANSCEIVER,
		    BOM_FIBRE, BOM_CATEGORY_COUNT };
extern const char *const bom_category_names[];
/* What the BOM leaves out, said on every export of it. */
extern const char bom_leaves_out[];
/* What the part_number_status column means, said on the CSV export. */
extern const char bom_part_numbers_note[];

/* How far a line's part number identifies what to order:
 *   stated    a source states this part number for this item (at this length);
 *   family    the number is the product family's: the orderable variant (its length, for a
 *             cable or fibre) is to be chosen, the catalog does not have its number;
 *   unknown   no part number: the part is to be chosen;
 *   included  not ordered on its own (it comes inside another line's part). */
enum bom_part_status { PART_STATED, PART_FAMILY, PART_UNKNOWN, PART_INCLUDED };
extern const char *const bom_part_status_names[];

struct bom_line {
	int category;
	int part_status;          /* enum bom_part_status */
	char vendor[24], model[CP_NAME_MAX], part[NCF_NAME_MAX];
	double length_m;          /* cables and fibres: the length to order; 0 otherwise */
	long quantity;
	bool included;            /* comes inside another line's part: not ordered on its own */
	double unit_typ_W, unit_max_W;   /* per unit; 0: not published */
	double total_typ_W, total_max_W; /* quantity x unit; 0 for included lines */
	char power_note[64];      /* how the power figures were found */
	char notes[200];          /* where it goes: group, bundle, end */
};

struct bom_cabling {              /* per bundle */
	char from[NCF_NAME_MAX], to[NCF_NAME_MAX];
	long links;
	int speed_gbps, media;        /* media: what most links use */
	long by_media[5];             /* links per enum media */
	char cable[CP_NAME_MAX];     /* the cable or fibre most links use */
	char optic_from[CP_NAME_MAX], optic_to[CP_NAME_MAX];
	long optics_from, optics_to;  /* transceivers at each end */
	bool twin_from, twin_to;      /* that end's cages hold two or more links */
	long cables, fibres;
	double min_m, max_m;          /* shortest and longest link */
};

struct bom {
	struct vec lines;             /* struct bom_line */
	struct vec cabling;           /* struct bom_cabling */
	long to_buy[BOM_CATEGORY_COUNT];   /* sums of the quantities of lines not included */
	long included[BOM_CATEGORY_COUNT]; /* sums of the included lines */
	double typ_W, max_W;          /* sums of the lines' totals */
	int typ_unknown, max_unknown; /* parts to buy whose power is not published */
	/* By category (bit 1 << enum bom_category): parts to buy whose typical (maximum) power
	 * is published, and parts whose figure is not (fibre is passive: in neither). */
	unsigned typ_known_cats, typ_unknown_cats, max_known_cats, max_unknown_cats;
	long max_unknown_items;       /* items (quantities) of those parts, for the maximum */
	double rack_units;
	long racks;
	struct ncf_diag problems;     /* from the cabling plan */
	size_t *index, index_cap;     /* private: the lines' hash while they are added */
};

/* The categories of mask (bom.typ_unknown_cats, ...) as words: "servers and switches". */
void bom_categories_text(unsigned mask, char *out, size_t size);
void bom_compute(const struct design *d, const struct catalog *cat, struct bom *b);
/* The same from a plan already built for d (the inventory builds one for both). */
void bom_from_plan(const struct design *d, const struct catalog *cat, const struct cableplan *p, struct bom *b);
void bom_free(struct bom *b);

#endif
