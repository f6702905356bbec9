/* cableplan.h: what every link is made of: its length, medium, cable or transceivers and
 * fibre, at the length it is ordered in.
 *
 * Built on the cabling plan (cabling.h: ports and cages) and the physical layout
 * (floor.h: lengths). The rules (ncfabric.5, section CABLES AND OPTICS):
 *   - a plug fills a cage: cages are the unit of optics. Copper needs a cable shaped like
 *     the cages it joins: a straight cable when a cage's links all go to one far cage
 *     that holds only them (1:1, or twin-port to twin-port), a 1:N splitter when a cage's
 *     N links each go to a cage of its own;
 *   - with media auto a link is copper (DAC, else ACC) when such a cable exists in the
 *     catalog for the link's speed and cages and reaches the longest link it carries;
 *     else an AOC of that shape that reaches; else transceivers and fibre. A bundle's
 *     own media (dac, acc, aoc, transceiver) is used as it says;
 *   - transceivers: every cage with optical links takes one module whose cage, top
 *     (flat or finned) and capacity match the cage (a twin-port OSFP takes a twin-port
 *     module); a bundle runs on multimode fibre when its longest link is within the
 *     multimode modules' reach at both ends, else on single-mode;
 *   - fibre: one MPO fibre per optical engine a link uses (two for an 800G link on a
 *     twin-port module), or one 1:2 splitter fibre per engine that carries two breakout
 *     links;
 *   - lengths: a cable is ordered at the shortest catalog length that covers its longest
 *     link; without catalog lengths copper comes in 0.5 m steps and fibre in whole metres
 *     to 10 m, 5 m steps to 50 m, then 10 m steps.
 * Parts the catalog does not have become lines named by what they must be ("1600G
 * OSFP transceiver"), with no part number, so the BOM still counts them. */
#ifndef NCF_CABLEPLAN_H
#define NCF_CABLEPLAN_H
#include "model/floor.h"

enum cp_kind { CP_CABLE, CP_TRANSCEIVER, CP_FIBRE };

/* One link as decided (passed to the per-link callback). */
struct cp_link {
	double length_m;        /* routed length of this link */
	double order_m;         /* the length its cable or fibre is ordered in */
	int media;              /* enum media: dac, acc, aoc or transceiver */
	int fibre_mode;         /* transceivers: enum fibre_mode */
	const struct cat_cable *cable;      /* dac/acc/aoc part, NULL when the catalog has none */
	const struct cat_cable *optic[2];   /* module at the from and to end, or NULL */
	const struct cat_fibre *fibre;
	const char *cable_name; /* what the cable or fibre is, always set (valid during the call) */
};

typedef void (*cp_fn)(const struct cab_link *l, const struct cp_link *c, void *ctx);

/* One orderable item, aggregated: a part at one length for one bundle (and end). */
struct cp_line {
	int kind;               /* enum cp_kind */
	const struct cat_cable *cable;   /* CP_CABLE, CP_TRANSCEIVER: the part, or NULL */
	const struct cat_fibre *fibre;   /* CP_FIBRE: the part, or NULL */
	char name[CP_NAME_MAX];          /* catalog name, or what it must be */
	char part[NCF_NAME_MAX];         /* ordering part number ("" when not known) */
	double length_m;        /* order length; 0 for transceivers */
	size_t bundle;
	int end;                /* transceivers: 0 the from end, 1 the to end; -1 otherwise */
	long quantity;
};

struct cp_bundle {
	long links;             /* links that land */
	long by_media[5];       /* links per enum media */
	long cables, fibres;    /* cables (a twin DAC or a splitter is one), fibre cords */
	long optics[2];         /* transceivers at the from and to end */
	double min_m, max_m;    /* shortest and longest link */
	int media;              /* the medium most links use */
	int fibre_mode;
	char cable[CP_NAME_MAX];             /* the cable or fibre of the medium most links use */
	char by_media_cable[5][CP_NAME_MAX]; /* the first link's cable or fibre, per medium */
	char optic[2][CP_NAME_MAX];          /* the module at each end */
	bool twin[2];           /* that end's cages hold two or more links */
	/* Parts used beyond their catalog reach: how many links, the longest, the shortest
	 * such reach and the part that has it. */
	long over_links;
	double over_m, over_reach_m;
	char over_part[CP_NAME_MAX];
	/* Links that use a part the catalog does not have (the first such part's name). */
	long missing_links;
	char missing[CP_NAME_MAX];
};

struct cableplan {
	struct floor floor;
	struct vec lines;       /* struct cp_line, in bundle order */
	struct vec bundles;     /* struct cp_bundle, one per design bundle */
	long links, by_media[5], cables, transceivers, fibres;
	struct ncf_diag problems; /* links that land nowhere, parts that do not fit */
	/* Warnings per bundle (path bundles[i]): links longer than the reach of a part they
	 * use, and parts the catalog lacks. design_load_text adds them to a loaded design's
	 * problems (report, report --json); the inventory keeps a copy. */
	struct ncf_diag parts;
	struct cab_bundle *wb;  /* the bundles as wired (cabling_bundles) */
};

/* Build the plan. fn (may be NULL) sees every link with its decisions, in cabling order. */
void cableplan_build(const struct design *d, const struct catalog *cat, struct cableplan *p, cp_fn fn, void *ctx);
void cableplan_free(struct cableplan *p);

/* The length a cable or fibre covering len metres is ordered in (see above). */
double cableplan_order_length(const struct vec *lengths, double len, bool copper);

#endif
