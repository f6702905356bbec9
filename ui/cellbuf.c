#include "ui/cellbuf.h"
#include "model/alloc.h"
#include "model/text.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cellbuf_init(struct cellbuf *c, int w, int h)
{
	c->w = w > 0 ? w : 1;
	c->h = h > 0 ? h : 1;
	c->cells = xcalloc((size_t)c->w * (size_t)c->h, sizeof *c->cells);
	c->ascii = 0;
	cellbuf_clear(c);
}

void cellbuf_free(struct cellbuf *c)
{
	free(c->cells);
	c->cells = NULL;
}

void cellbuf_clear(struct cellbuf *c)
{
	size_t i, n = (size_t)c->w * (size_t)c->h;
	for (i = 0; i < n; i++) {
		c->cells[i].ch = ' ';
		c->cells[i].role = ROLE_NORMAL;
	}
}

/* Decode one UTF-8 sequence strictly (model/text.h); invalid bytes become U+FFFD. */
static uint32_t utf8_next(const unsigned char **s)
{
	const char *p = (const char *)*s;
	uint32_t cp;
	size_t n = 0, k;
	while (n < 4 && p[n])
		n++;
	k = utf8_decode(p, n, &cp, NULL);
	*s += k ? k : 1;
	return k ? cp : 0xFFFD;
}

int cellbuf_text(struct cellbuf *c, int x, int y, int max_w, int role, const char *utf8)
{
	const unsigned char *s = (const unsigned char *)utf8;
	int used = 0;
	if (y < 0 || y >= c->h)
		return 0;
	while (*s && used < max_w && x + used < c->w) {
		uint32_t cp = utf8_next(&s);
		if (cp == '\n' || cp == '\t')
			cp = ' ';
		if (x + used >= 0) {
			struct cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)(x + used)];
			/* Nothing that drives a terminal reaches the screen: control characters
			 * (C0, DEL, C1) and bidirectional overrides are drawn as '?'. */
			cell->ch = text_is_control(cp) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ? '?' : cp;
			cell->role = (uint8_t)role;
		}
		used++;
	}
	/* Text cut short says so: its last cell shows an ellipsis (unless only blanks were
	 * left out). */
	if (*s && used > 1) {
		const unsigned char *r = s;
		while (*r == ' ')
			r++;
		if (*r && x + used - 1 >= 0 && x + used - 1 < c->w)
			c->cells[(size_t)y * (size_t)c->w + (size_t)(x + used - 1)].ch = c->ascii ? '~' : 0x2026;
	}
	return used;
}

int cellbuf_printf(struct cellbuf *c, int x, int y, int max_w, int role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return cellbuf_text(c, x, y, max_w, role, buf);
}

int text_cut(const char *p, int w)
{
	int len = (int)strlen(p), cut;
	if (len <= w)
		return len;
	for (cut = w; cut > 0 && p[cut] != ' '; cut--)
		;
	return cut ? cut : w;
}

int cellbuf_wrap(struct cellbuf *c, int x, int y, int w, int max_lines, int role, const char *text)
{
	int lines = 0;
	const char *p = text;
	if (w < 4)
		return 0;
	while (*p && lines < max_lines) {
		size_t rest = strlen(p), cut = (size_t)text_cut(p, w);
		char buf[512];
		if (lines == max_lines - 1 && (int)rest > w) {
			snprintf(buf, sizeof buf, "%.*s...", w - 3, p);
			cellbuf_text(c, x, y + lines, w, role, buf);
			return lines + 1;
		}
		snprintf(buf, sizeof buf, "%.*s", (int)cut, p);
		cellbuf_text(c, x, y + lines, w, role, buf);
		lines++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}

int cellbuf_wrap_lines(int w, const char *text)
{
	int lines = 0;
	const char *p = text;
	if (w < 4)
		return 0;
	while (*p) {
		lines++;
		p += text_cut(p, w);
		while (*p == ' ')
			p++;
	}
	return lines;
}

void cellbuf_put(struct cellbuf *c, int x, int y, uint32_t cp, int role)
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return;
	c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch = cp;
	c->cells[(size_t)y * (size_t)c->w + (size_t)x].role = (uint8_t)role;
}

void cellbuf_hline(struct cellbuf *c, int x, int y, int w, int role)
{
	int i;
	for (i = 0; i < w; i++)
		cellbuf_put(c, x + i, y, c->ascii ? '-' : 0x2500, role);
}

void cellbuf_vline(struct cellbuf *c, int x, int y, int h, int role)
{
	int i;
	for (i = 0; i < h; i++)
		cellbuf_put(c, x, y + i, c->ascii ? '|' : 0x2502, role);
}

void cellbuf_fill(struct cellbuf *c, int x, int y, int w, int h, int role)
{
	int i, j;
	for (j = y; j < y + h; j++)
		for (i = x; i < x + w; i++)
			cellbuf_put(c, i, j, ' ', role);
}

void cellbuf_box(struct cellbuf *c, int x, int y, int w, int h, int role)
{
	if (w < 2 || h < 2)
		return;
	cellbuf_hline(c, x + 1, y, w - 2, role);
	cellbuf_hline(c, x + 1, y + h - 1, w - 2, role);
	cellbuf_vline(c, x, y + 1, h - 2, role);
	cellbuf_vline(c, x + w - 1, y + 1, h - 2, role);
	cellbuf_put(c, x, y, c->ascii ? '+' : 0x250c, role);
	cellbuf_put(c, x + w - 1, y, c->ascii ? '+' : 0x2510, role);
	cellbuf_put(c, x, y + h - 1, c->ascii ? '+' : 0x2514, role);
	cellbuf_put(c, x + w - 1, y + h - 1, c->ascii ? '+' : 0x2518, role);
}

void cellbuf_fill_role(struct cellbuf *c, int x, int y, int w, int role)
{
	int i;
	if (y < 0 || y >= c->h)
		return;
	for (i = x; i < x + w && i < c->w; i++)
		if (i >= 0)
			c->cells[(size_t)y * (size_t)c->w + (size_t)i].role = (uint8_t)role;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

char *cellbuf_dump(const struct cellbuf *c)
{
	char *out = xmalloc((size_t)c->w * (size_t)c->h * 4 + (size_t)c->h + 1), *o = out;
	int x, y;
	for (y = 0; y < c->h; y++) {
		char *line = o;
		for (x = 0; x < c->w; x++)
			o += put_utf8(o, c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch);
		while (o > line && o[-1] == ' ')
			o--;
		*o++ = '\n';
	}
	*o = '\0';
	return out;
}
