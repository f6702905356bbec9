/* safetext.h: text on its way to a terminal, and names on their way to a file system.
 *
 * A terminal acts on what it is sent: ESC starts an escape sequence (colours, a moved
 * cursor, a new window title, on some terminals a file written), U+009B is a CSI by
 * itself, CR and BS overwrite what was shown, and U+202E turns the rest of a line around.
 * Names, keys, file names and messages reach the terminal from files, the command line
 * and the network, so every command prints them through this filter: printable text
 * passes, and control characters (C0, DEL, C1), bidirectional overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069) and bytes that are not UTF-8 are shown escaped, as
 * \x1B, \u009B, \u202E and \xFF. SAFE_TEXT keeps line breaks and tabs (a report's own
 * layout); SAFE_LINE escapes them too (one message, one line).
 *
 * JSON printed by cJSON escapes C0 but passes C1, bidirectional controls and invalid
 * bytes through: json_safe() rewrites those as \u escapes (U+FFFD for invalid bytes),
 * which is the same JSON value, never raw on a terminal. */
#ifndef NCF_SAFETEXT_H
#define NCF_SAFETEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum safe_mode { SAFE_LINE, SAFE_TEXT };

/* A filtered copy of the n bytes at s (the caller frees it). */
char *safe_dup(const char *s, size_t n, enum safe_mode mode);
/* s filtered into buf (truncated to fit, never in the middle of an escape); returns buf. */
const char *safe_str(const char *s, char *buf, size_t size);
/* Write the n bytes at s to f, filtered. False if the stream reports an error. */
bool safe_write(FILE *f, const char *s, size_t n, enum safe_mode mode);
/* printf to f, the whole result filtered as one line plus a final '\n' kept. */
int safe_eprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print into memory, then to out filtered (SAFE_TEXT): the report, expect, compare and
 * diff texts go through this. safe_capture returns the stream to print into (it aborts,
 * as xmalloc does, when there is no memory); safe_release writes to out and frees. */
struct safe_capture {
	FILE *mem, *out;
	char *buf;
	size_t len;
};
FILE *safe_capture(struct safe_capture *c, FILE *out);
void safe_release(struct safe_capture *c);

/* JSON text with C1, bidirectional controls and invalid bytes rewritten as \u escapes;
 * takes text (freed) and returns the new text. */
char *json_safe(char *text);

/* One safe path component made from a name (a design's name, for the export dialog's
 * suggested file names): '/' and NUL are never kept, "." and ".." and a leading '.'
 * cannot come out, control characters, spaces, quotes and shell metacharacters become
 * '-', and the result is at most size-1 bytes (cut at a character boundary) and never
 * empty ("design" then). Returns buf. */
const char *safe_filename(const char *name, char *buf, size_t size);

#endif
