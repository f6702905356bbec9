/* export.h: a design in the forms other people and tools take, each as its consumer reads
 * it (ncfabric.1, EXPORTS, says which consumer and how):
 *
 *   yaml, json      the design itself (loadable)
 *   bom-csv         the bill of materials (bom.h), one line per orderable item, for a
 *                   spreadsheet or a procurement system; totals and what it leaves out at
 *                   the end
 *   bom-yaml/json   the same lines, the cabling per bundle, the racks and the model's
 *                   headline numbers
 *   dot             Graphviz: groups as clusters, small groups member by member, large
 *                   ones summarised with their count, every bundle drawn (export_dot.c)
 *   astra-sim       ASTRA-sim's analytical network YAML and system JSON (OUT is a prefix:
 *                   OUT.network.yml, OUT.system.json; export_astra.c)
 *   netbox          a NetBox import folder: device and module types in the community
 *                   device-type library's layout, CSVs of sites, roles, manufacturers,
 *                   racks, devices, modules, interfaces and cables, and the import order
 *                   (OUT is a directory; export_netbox.c)
 * Nothing here computes: numbers come from model/ (bom.h, cableplan.h) and, for the
 * model's results, io/model_view.h. YAML goes through libyaml's emitter and JSON through
 * cJSON (io/codec.h); CSV fields are quoted as RFC 4180 says. */
#ifndef NCF_EXPORT_H
#define NCF_EXPORT_H
#include <stdbool.h>
#include <stddef.h>
#include "model/design.h"

extern const char *const export_formats[];

bool export_known(const char *format);
/* Whether the format writes several files (and so needs OUT). */
bool export_multi_file(const char *format);
/* Single-file formats: the text (caller frees), or NULL with err. */
char *export_text(const struct design *d, const struct catalog *cat, const char *format, char *err, size_t errsz);
/* Multi-file formats: write under out. False with err; what was there before is kept
 * unless it was an earlier export of the same format. */
bool export_files(const struct design *d, const struct catalog *cat, const char *format, const char *out, char *err,
		  size_t errsz);
/* May an export in format write to out, given the files the caller read (the design):
 * file_output_ok (file.h) for each file the export names directly (out; for yaml and
 * json, which write the design and are saved as designs are, only file_not_input; for astra-sim
 * OUT.network.yml and OUT.system.json; for netbox the folder, whose files carry the
 * export's own rules, export_write.h). False with err. */
struct file_input;
bool export_output_ok(const char *format, const char *out, const struct file_input *inputs, size_t n, char *err,
		      size_t errsz);
/* RFC 4180 field: quoted when it holds a comma, quote or line break; into buf. */
const char *csv_field(const char *s, char *buf, size_t size);

/* The formats one by one (export_text and export_files dispatch to them). */
char *export_dot(const struct design *d, const struct catalog *cat);
bool export_astra(const struct design *d, const struct catalog *cat, const char *prefix, char *err, size_t errsz);
bool export_netbox(const struct design *d, const struct catalog *cat, const char *dir, char *err, size_t errsz);

#endif
