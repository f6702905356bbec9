/* safetext.c: the terminal filter and safe file names (safetext.h). */
#include "io/safetext.h"
#include "model/alloc.h"
#include "model/text.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool is_bidi(uint32_t cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The escape for the character at s (k bytes, code point cp; k 0: an invalid byte),
 * into out (at least 8 bytes); its length, or 0 when the text passes as it is. */
static size_t escape_of(const char *s, size_t k, uint32_t cp, enum safe_mode mode, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	if (k == 0) {
		unsigned char b = (unsigned char)s[0];
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[b >> 4];
		out[3] = hex[b & 15];
		return 4;
	}
	if (mode == SAFE_TEXT && (cp == '\n' || cp == '\t'))
		return 0;
	if (cp < 0x80 && text_is_control(cp)) {
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[cp >> 4];
		out[3] = hex[cp & 15];
		return 4;
	}
	if (text_is_control(cp) || is_bidi(cp)) {
		out[0] = '\\';
		out[1] = 'u';
		out[2] = hex[(cp >> 12) & 15];
		out[3] = hex[(cp >> 8) & 15];
		out[4] = hex[(cp >> 4) & 15];
		out[5] = hex[cp & 15];
		return 6;
	}
	return 0;
}

/* Filter n bytes at s into a growing buffer. */
struct out {
	char *p;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->p = xrealloc(o->p, o->cap);
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = '\0';
}

char *safe_dup(const char *s, size_t n, enum safe_mode mode)
{
	struct out o = { 0 };
	size_t i = 0, run = 0;
	put(&o, "", 0);
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp, NULL);
		char esc[8];
		size_t e = escape_of(s + i, k, cp, mode, esc);
		if (!e) {
			i += k;
			run += k;
			continue;
		}
		put(&o, s + i - run, run);
		run = 0;
		put(&o, esc, e);
		i += k ? k : 1;
	}
	put(&o, s + i - run, run);
	return o.p;
}

const char *safe_str(const char *s, char *buf, size_t size)
{
	size_t i = 0, o = 0, n = strlen(s);
	if (!size)
		return buf;
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp, NULL);
		char esc[8];
		size_t e = escape_of(s + i, k, cp, SAFE_LINE, esc);
		const char *src = e ? esc : s + i;
		size_t len = e ? e : k;
		if (o + len + 1 > size)
			break;
		memcpy(buf + o, src, len);
		o += len;
		i += k ? k : 1;
	}
	buf[o] = '\0';
	return buf;
}

bool safe_write(FILE *f, const char *s, size_t n, enum safe_mode mode)
{
	char *t = safe_dup(s, n, mode);
	size_t len = strlen(t);
	bool ok = fwrite(t, 1, len, f) == len;
	free(t);
	return ok && !ferror(f);
}

int safe_eprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return n;
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	/* One message per line: its own final line break is kept, any other is escaped. */
	if (n > 0 && s[n - 1] == '\n') {
		safe_write(f, s, (size_t)n - 1, SAFE_LINE);
		fputc('\n', f);
	} else {
		safe_write(f, s, (size_t)n, SAFE_LINE);
	}
	free(s);
	return n;
}

FILE *safe_capture(struct safe_capture *c, FILE *out)
{
	c->out = out;
	c->buf = NULL;
	c->len = 0;
	c->mem = open_memstream(&c->buf, &c->len);
	if (!c->mem) {
		fputs("ncfabric: out of memory\n", stderr);
		abort();
	}
	return c->mem;
}

void safe_release(struct safe_capture *c)
{
	fclose(c->mem);
	safe_write(c->out, c->buf, c->len, SAFE_TEXT);
	free(c->buf);
	c->buf = NULL;
}

/* Whether the n bytes at s are all below DEL (plain ASCII: nothing to rewrite), looked at 8
 * at a time: a byte of 0x80 or more has its top bit set, and so has 0x7F plus one (a carry
 * into the next byte comes only from 0xFF, itself caught). */
static bool below_del(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof w);
		if ((w | (w + 0x0101010101010101ull)) & 0x8080808080808080ull)
			break;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] >= 0x7F)
			return false;
	return true;
}

char *json_safe(char *text)
{
	struct out o = { 0 };
	size_t i = 0, run = 0, n;
	if (!text)
		return NULL;
	n = strlen(text);
	if (below_del(text, n))
		return text;
	put(&o, "", 0);
	while (i < n) {
		uint32_t cp;
		size_t k;
		char esc[8];
		if ((unsigned char)text[i] < 0x7F) { /* ASCII below DEL: kept as it is, nothing to decode */
			i++;
			run++;
			continue;
		}
		k = utf8_decode(text + i, n - i, &cp, NULL);
		if (k && !(cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || is_bidi(cp))) {
			i += k;
			run += k;
			continue;
		}
		put(&o, text + i - run, run);
		run = 0;
		if (!k)
			cp = 0xFFFD;
		snprintf(esc, sizeof esc, "\\u%04X", (unsigned)cp);
		put(&o, esc, 6);
		i += k ? k : 1;
	}
	if (run == n) { /* nothing rewritten: the text itself */
		free(o.p);
		return text;
	}
	put(&o, text + i - run, run);
	free(text);
	return o.p;
}

const char *safe_filename(const char *name, char *buf, size_t size)
{
	size_t i = 0, o = 0, n = strlen(name);
	bool dash = false;
	if (size < 8) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(name + i, n - i, &cp, NULL);
		unsigned char c = (unsigned char)name[i];
		bool keep;
		if (!k) {
			keep = false;
			k = 1;
		} else if (cp < 0x80) {
			keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
			       c == '_' || c == '+' || c == ',' || c == '@' || c == '=';
		} else {
			keep = !text_is_control(cp) && !is_bidi(cp) && cp != 0xFEFF && !(cp >= 0x2000 && cp <= 0x200F) &&
			       cp != 0x00A0 && cp != 0x2028 && cp != 0x2029 && cp != 0x3000;
		}
		/* No leading dots or dashes: no hidden file, no "..", no option-like name. */
		if (keep && o == 0 && (c == '.' || c == '-'))
			keep = false;
		if (keep) {
			size_t need = k + (dash ? 1 : 0);
			if (o + need + 1 > size || o + need > 100)
				break;
			if (dash) {
				buf[o++] = '-';
				dash = false;
			}
			memcpy(buf + o, name + i, k);
			o += k;
		} else if (o > 0) {
			dash = true;
		}
		i += k;
	}
	/* No trailing dots: Windows shares drop them, and "name." reads as a typo. */
	while (o > 0 && buf[o - 1] == '.')
		o--;
	buf[o] = '\0';
	if (!o)
		snprintf(buf, size, "design");
	return buf;
}
