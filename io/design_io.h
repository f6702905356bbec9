/* design_io.h: designs and catalogs to and from files.
 *
 * Loading is all or nothing: a file is read whole, parsed, decoded into a fresh design and
 * checked against the catalog; only if every step passes is the result handed back. On
 * failure the caller's design is untouched and diag holds the errors, each with the file's
 * line and column where one is known. Saving goes through file_write_atomic (file.h): as vim
 * saves, through links, keeping mode, owner and a backup FILE~. */
#ifndef NCF_DESIGN_IO_H
#define NCF_DESIGN_IO_H
#include <stdio.h>
#include "io/file.h"
#include "io/parse.h"
#include "model/design.h"


/* Load a design from text or a file against the shipped catalog. Warnings of the design
 * check are added to diag too (they do not fail the load). */
bool design_load_text(const char *buf, size_t len, enum file_format fmt, const struct catalog *shipped,
		      struct design *out, struct ncf_diag *diag);
bool design_load_file(const char *path, const struct catalog *shipped, struct design *out, struct ncf_diag *diag);
/* The built-in default design (the reference case of DESIGN.md). */
bool design_load_default(const struct catalog *shipped, struct design *out, struct ncf_diag *diag);
/* The checks every loaded design goes through (design_check, then topo_check and the cable
 * plan's warnings when it has no errors), against the shipped catalog with the design's own
 * parts; returns the errors. */
int design_check_loaded(const struct design *d, const struct catalog *shipped, struct ncf_diag *diag);
/* Whether loads add the cable plan's warnings (default on). The plan walks every link (about
 * 25 ms at 1,000 groups, 150 ms at 131,072 GPUs): the designer, which shows no load
 * warnings and makes its inventory only when a view asks, turns them off for its process. */
void design_load_plan_warnings(bool on);

/* The design as text in fmt; caller frees. */
char *design_to_text(const struct design *d, enum file_format fmt);
/* Atomic save to path (format from its name). Returns false with errno-style text in err. */
bool design_save(const struct design *d, const char *path, char *err, size_t errsz);
/* design_save that keeps the leading comment block (yaml_comments) of the YAML file `from`
 * (NULL: path itself, as it is on disk before the save) at the top of a YAML path: libyaml's
 * emitter writes no comments, so that block is written as it stood, before the emitter's
 * text. *dropped (may be NULL) says whether from had comments that were not kept (every one
 * of them for a JSON path). A from that cannot be read keeps nothing and drops nothing. */
bool design_save_keeping(const struct design *d, const char *path, const char *from, bool *dropped, char *err,
			 size_t errsz);

bool catalog_load_text(const char *buf, size_t len, enum file_format fmt, struct catalog *out, struct ncf_diag *diag);
bool catalog_load_file(const char *path, struct catalog *out, struct ncf_diag *diag);
/* The shipped catalog: $NCFABRIC_CATALOG; else, relative to the executable, the installed
 * one (BINDIR/../share/ncfabric/catalog.yaml: any PREFIX, and a tree staged with DESTDIR and
 * moved) or the source tree's (build/../share/catalog.yaml); else the one at the data
 * directory compiled in (NCF_DATADIR); else the copy built into the binary. Where it came
 * from is written to source (a path, or "built-in"). */
bool catalog_load_shipped(const char *argv0, struct catalog *out, char *source, size_t size,
			  struct ncf_diag *diag);
bool catalog_load_builtin(struct catalog *out, struct ncf_diag *diag);

/* Print diag's problems as "ncfabric: FILE:LINE:COL: message" (or "FILE: path: message"). */
void diag_print(FILE *f, const char *file, const struct ncf_diag *diag, bool warnings);

#endif
