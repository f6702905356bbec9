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
/* The same for a file that is not a design: what names it in the messages ("a catalog
 * file": "a directory, not a catalog file"). */
char *file_read_as(const char *path, const char *what, size_t *len, char *err, size_t errsz);

/* Write text to path as described above. False with the reason in err. */
bool file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz);
/* The same without FILE~: for files an export owns (export_files.c). A failed write still
 * leaves the old file as it was. */
bool file_replace(const char *path, const char *text, size_t len, char *err, size_t errsz);

/* The file a path names once symbolic links are followed (the path itself when it is
 * not a link; the link's target when that does not exist yet). False with err on a loop
 * or an unreadable link. */
bool file_resolve(const char *path, char *out, size_t size, char *err, size_t errsz);

/* Are a and b the same file: both exist and, once symbolic links are followed, have the
 * same device and inode (so a hard link or a symbolic link to a file is that file)? */
bool file_same(const char *a, const char *b);
/* A file a command reads, and what it is to the user ("the design", "the log"). */
struct file_input {
	const char *path;
	const char *what;
};
/* May an output (an export, a table, a log: anything that is not the design) be written to
 * path? Refused with the reason in err when it is one of the n files in inputs (file_same;
 * NULL paths and "-" are skipped) or a regular file with more than one name (writing it
 * would change the other names too). A new file, a character device or a FIFO (/dev/null,
 * a pipe) and a regular file with one name pass; symbolic links are followed, as a shell's
 * > follows them. "-" (standard output) always passes. */
bool file_output_ok(const char *path, const struct file_input *inputs, size_t n, char *err, size_t errsz);
/* Only the first test: path is none of the inputs. For a design written where the user
 * said (export --format yaml, json), which is saved as file_write_atomic saves. */
bool file_not_input(const char *path, const struct file_input *inputs, size_t n, char *err, size_t errsz);

/* Flush f and say whether everything written to it arrived (no write error at any time).
 * False with the reason in err. */
#include <stdio.h>
bool stream_finish(FILE *f, char *err, size_t errsz);

#endif
