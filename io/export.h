/* export.h: a design in the forms other people and tools take.
 *
 *   yaml, json      the design itself (loadable)
 *   bom-csv         one line per part: category, vendor, model, part number, quantity,
 *                   unit and total power, notes
 *   bom-yaml/json   the BOM, the cabling plan per bundle and the model's headline numbers
 *   dot             Graphviz: one node per group (per switch when a group is small)
 *   astra-sim       ASTRA-sim analytical network YAML + system JSON (two files: OUT is a
 *                   prefix, OUT.network.yml and OUT.system.json)
 *   netbox          NetBox device-type YAML per part, devices.csv and cables.csv (OUT is a
 *                   directory)
 * Nothing here computes: numbers come from model/ (bom.h, metrics.h). */
#ifndef NCF_EXPORT_H
#define NCF_EXPORT_H
#include <stdbool.h>
#include <stddef.h>
#include "model/metrics.h"

extern const char *const export_formats[];

bool export_known(const char *format);
/* Whether the format writes several files (and so needs OUT). */
bool export_multi_file(const char *format);
/* Single-file formats: the text (caller frees), or NULL with err. */
char *export_text(const struct design *d, const struct catalog *cat, const char *format, char *err, size_t errsz);
/* Multi-file formats: write under out. */
bool export_files(const struct design *d, const struct catalog *cat, const char *format, const char *out, char *err,
		  size_t errsz);
/* RFC 4180 field: quoted when it holds a comma, quote or line break; into buf. */
const char *csv_field(const char *s, char *buf, size_t size);

#endif
