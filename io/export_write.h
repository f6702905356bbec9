/* export_write.h: how the multi-file exports write, without touching what is not theirs.
 *
 * An export writes only its own files. A file it is about to write that already exists
 * must carry the export's mark (a string its earlier run wrote near the start), else the
 * export stops and says so; its own files are replaced atomically and without backups, so
 * a re-export leaves no FILE~ behind (a NetBox import folder must hold only what is to be
 * imported). A file an export replaces must be a regular file with one name: a symbolic
 * link (it could point anywhere, the user's design too), a hard link, a device or anything
 * else stops the export, as does a file the caller names as an input (export.h,
 * export_output_ok). */
#ifndef NCF_EXPORT_WRITE_H
#define NCF_EXPORT_WRITE_H
#include <stdbool.h>
#include <stddef.h>

/* The mark every ncfabric export file carries near its start. */
#define EXPORT_MARK "ncfabric export"

/* Does path not exist, or does it hold mark in its first 4 KiB? */
bool export_owns(const char *path, const char *mark);
/* May the export replace path: it does not exist, or is a regular file (not a symbolic
 * link) with one name? False with err. */
bool export_may_replace(const char *path, char *err, size_t errsz);
/* Write text to path (see above). False with err when path is not the export's. */
bool export_write(const char *path, const char *text, const char *mark, char *err, size_t errsz);
/* mkdir -p of one level; true if it exists as a directory afterwards. */
bool export_mkdir(const char *path, char *err, size_t errsz);

#endif
