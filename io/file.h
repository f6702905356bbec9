/* file.h: files on disk, read with bounds and written as vim writes them.
 *
 * Reading: a file is read whole, at most NCF_MAX_FILE_BYTES. Regular files, pipes and
 * FIFOs are read (a FIFO is opened without blocking, so one nobody writes to is an error,
 * not a hang); directories, devices and sockets are refused. "-" is standard input.
 *
 * Writing (file_write_atomic) never replaces what it should write through, and never
 * loses the old text:
 *   - a symbolic link is followed to its target (a dangling one creates the target), and
 *     the link stays a link;
 *   - a regular file with one name, owned by us or whose owner we can give the new file,
 *     with no extended attributes (ACLs, labels), is replaced atomically: the new text is
 *     written and fsynced beside it, the old version is kept as FILE~, then renamed into
 *     place; mode and owner are copied to the new file;
 *   - any other regular file (hard links, a foreign owner, extended attributes) is written
 *     in place, so every name, the owner, the mode and the attributes stay: a copy of the
 *     old text is made first, and put back if the write fails (a full disk);
 *   - a character device or a FIFO is written into directly (nothing is renamed or backed
 *     up: /dev/null stays /dev/null); a directory, a block device or a socket is refused;
 *   - FILE~ is replaced only once the new text is in place: a failed save leaves the old
 *     file and the old backup as they were, and no temporary file behind.
 * A new file gets mode 0666 minus the umask. */
#ifndef NCF_FILE_H
#define NCF_FILE_H
#include <stdbool.h>
#include <stddef.h>

/* Read a whole file into a NUL-terminated buffer (the caller frees it). NULL with the
 * reason in err ("cannot open: ...", "a directory, not a design file", ...). */
char *file_read(const char *path, size_t *len, char *err, size_t errsz);

/* Write text to path as described above. False with the reason in err. */
bool file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz);
/* The same without FILE~: for files an export owns (export_files.c). A failed write still
 * leaves the old file as it was. */
bool file_replace(const char *path, const char *text, size_t len, char *err, size_t errsz);

/* The file a path names once symbolic links are followed (the path itself when it is
 * not a link; the link's target when that does not exist yet). False with err on a loop
 * or an unreadable link. */
bool file_resolve(const char *path, char *out, size_t size, char *err, size_t errsz);

/* Flush f and say whether everything written to it arrived (no write error at any time).
 * False with the reason in err. */
#include <stdio.h>
bool stream_finish(FILE *f, char *err, size_t errsz);

#endif
