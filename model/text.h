/* text.h: the one text policy of ncfabric, and UTF-8 decoding.
 *
 * Every string a design or a catalog holds (names, models, descriptions, notes) is valid
 * UTF-8 without control characters, whichever format it came from and whichever way it
 * was typed (a file, a form, a command, a template). Control characters are the C0 set
 * (U+0000-U+001F), DEL (U+007F) and the C1 set (U+0080-U+009F): a terminal acts on them
 * (ESC starts an escape sequence, U+009B is a CSI by itself), so a name holding one could
 * rewrite the screen of whoever prints it. Multi-line fields (descriptions, catalog notes)
 * may hold line breaks and tabs; nothing else in the set is allowed anywhere.
 *
 * The same decoder serves io/'s JSON scan and the terminal sanitiser (io/safetext.h), so
 * "valid UTF-8" means one thing: shortest form, no surrogates, at most U+10FFFF. */
#ifndef NCF_TEXT_H
#define NCF_TEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode the UTF-8 sequence at s (n bytes available). Returns its length (1-4) with the
 * code point in *cp, or 0 if the bytes there are not valid UTF-8; then *why (if not NULL)
 * names the fault as libyaml does ("invalid leading UTF-8 octet", ...). */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp, const char **why);

/* Is cp a control character in the sense above (C0, DEL, C1)? */
bool text_is_control(uint32_t cp);

/* Check s (NUL-terminated) against the text policy. multiline allows '\n' and '\t'.
 * On failure returns false and writes into why the reason and where, e.g.
 * "a control character (U+001B) at character 4" or "not valid UTF-8 (byte 0xFF at
 * character 2)". */
bool text_check(const char *s, bool multiline, char *why, size_t whysz);

#endif
