/* cellbuf.h: a grid of cells the screen is painted into; no curses here.
 *
 * Each frame the whole canvas is cleared and repainted from the program's state; the
 * terminal back end (term_curses.c) copies it out and curses sends the difference. Tests
 * paint into a canvas and compare its text with golden files. A cell holds one character
 * (a Unicode code point) and a style role; roles become attributes in the back end. */
#ifndef NCF_CELLBUF_H
#define NCF_CELLBUF_H
#include <stdint.h>
#include <stddef.h>

/* Style roles, not colours (the back end maps them to mono attributes or colours). */
#define STYLE_ROLES(X) \
	X(NORMAL)      \
	X(TITLE)       \
	X(HEADING)     \
	X(SELECTED)    \
	X(NUMBER)      \
	X(WARNING)     \
	X(ERROR)       \
	X(STATUS)      \
	X(DIM)
#define ROLE_ENUM(n) ROLE_##n,
enum style_role { STYLE_ROLES(ROLE_ENUM) ROLE_COUNT };
#undef ROLE_ENUM

struct cell {
	uint32_t ch;
	uint8_t role;
};

struct cellbuf {
	int w, h;
	struct cell *cells;
	int ascii; /* draw lines with + - | only */
};

void cellbuf_init(struct cellbuf *c, int w, int h);
void cellbuf_free(struct cellbuf *c);
void cellbuf_clear(struct cellbuf *c);
/* Write UTF-8 text at (x, y), clipped at max_w columns (and the canvas edge). Returns columns used. */
int cellbuf_text(struct cellbuf *c, int x, int y, int max_w, int role, const char *utf8);
int cellbuf_printf(struct cellbuf *c, int x, int y, int max_w, int role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Word-wrapped text in a w-wide column from (x, y), at most max_lines lines; the last
 * line ends in "..." if the text does not fit. Returns the lines used. */
int cellbuf_wrap(struct cellbuf *c, int x, int y, int w, int max_lines, int role, const char *text);
/* How many bytes of text p go on a line w columns wide: up to the last space that fits, or
 * w when none does (a word longer than the line is cut). Every word wrap uses it. */
int text_cut(const char *p, int w);
/* How many lines cellbuf_wrap needs for text in a w-wide column (with no limit). */
int cellbuf_wrap_lines(int w, const char *text);
/* One code point at (x, y). */
void cellbuf_put(struct cellbuf *c, int x, int y, uint32_t cp, int role);
/* A box outline, UTF-8 or ASCII; its inside is left alone. */
void cellbuf_box(struct cellbuf *c, int x, int y, int w, int h, int role);
/* Clear a rectangle to spaces of role. */
void cellbuf_fill(struct cellbuf *c, int x, int y, int w, int h, int role);
void cellbuf_vline(struct cellbuf *c, int x, int y, int h, int role);
void cellbuf_hline(struct cellbuf *c, int x, int y, int w, int role);
void cellbuf_fill_role(struct cellbuf *c, int x, int y, int w, int role);
/* The canvas as UTF-8 text, one line per row, trailing spaces trimmed; caller frees. */
char *cellbuf_dump(const struct cellbuf *c);

#endif
