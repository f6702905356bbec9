/* parse_json.c: a first pass over the text holds it to the file limits and the text policy
 * (depth, items, values, UTF-8, no NUL or raw control character in a string) in constant
 * memory, so cJSON only ever parses a file that fits; cJSON then parses and checks the
 * syntax, and a scan of the same text finds where each key and value stands, so that
 * errors can name a line and column. */
#include "io/parse.h"
#include "model/alloc.h"
#include "model/text.h"
#include <cJSON.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>

/* Does the n bytes at p start with word? (p need not be NUL-terminated.) */
static bool starts(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word);
	return n >= k && memcmp(p, word, k) == 0;
}

struct cursor {
	const char *buf, *p, *end;
	int line, col;
};

static void adv(struct cursor *c)
{
	if (c->p >= c->end)
		return;
	if (*c->p == '\n') {
		c->line++;
		c->col = 1;
	} else if (((unsigned char)*c->p & 0xC0) != 0x80) {
		c->col++;
	}
	c->p++;
}

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		adv(c);
}

static void skip_string(struct cursor *c)
{
	adv(c); /* opening quote */
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\')
			adv(c);
		adv(c);
	}
	adv(c);
}

static struct tnode *scan(struct cursor *c, const cJSON *item, int depth, struct ncf_diag *diag);

static struct tnode *scan_children(struct cursor *c, const cJSON *item, int depth, struct ncf_diag *diag,
				   struct tnode *n)
{
	const cJSON *kid;
	bool is_map = n->kind == TN_MAP;
	adv(c); /* { or [ */
	for (kid = item->child; kid; kid = kid->next) {
		struct tnode *v;
		int kl = 0, kc = 0;
		skip_ws(c);
		if (is_map) {
			kl = c->line;
			kc = c->col;
			skip_string(c);
			skip_ws(c);
			adv(c); /* : */
			skip_ws(c);
		}
		if (n->n >= NCF_MAX_ITEMS) {
			diag_add_at(diag, NCF_ERROR, c->line, c->col, "more than %d items in one list or object", NCF_MAX_ITEMS);
			tnode_free(n);
			return NULL;
		}
		v = scan(c, kid, depth + 1, diag);
		if (!v) {
			tnode_free(n);
			return NULL;
		}
		tnode_add(n, is_map ? kid->string : NULL, kl, kc, v);
		skip_ws(c);
		if (c->p < c->end && *c->p == ',')
			adv(c);
	}
	skip_ws(c);
	adv(c); /* } or ] */
	if (is_map) {
		size_t first, dup;
		if (tnode_find_duplicate(n, &first, &dup)) {
			diag_add_at(diag, NCF_ERROR, n->kline[dup], n->kcol[dup], "duplicate key '%s' (first at line %d)",
				    n->keys[dup], n->kline[first]);
			tnode_free(n);
			return NULL;
		}
	}
	return n;
}

static struct tnode *scan(struct cursor *c, const cJSON *item, int depth, struct ncf_diag *diag)
{
	struct tnode *n;
	const char *start;
	skip_ws(c);
	if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
		if (depth >= NCF_MAX_DEPTH) {
			diag_add_at(diag, NCF_ERROR, c->line, c->col, "nested deeper than %d levels", NCF_MAX_DEPTH);
			return NULL;
		}
		n = tnode_new(cJSON_IsObject(item) ? TN_MAP : TN_SEQ, c->line, c->col);
		return scan_children(c, item, depth, diag, n);
	}
	n = tnode_new(TN_SCALAR, c->line, c->col);
	if (cJSON_IsString(item)) {
		n->text = xstrdup(item->valuestring);
		n->quoted = true;
		skip_string(c);
		return n;
	}
	/* Numbers keep their literal text (exact round trip); true, false and null too. */
	start = c->p;
	while (c->p < c->end && !strchr(",]} \t\r\n", *c->p))
		adv(c);
	n->text = xstrdup_len(start, (size_t)(c->p - start));
	if (strcmp(n->text, "null") == 0) {
		free(n->text);
		n->text = xstrdup("");
	}
	return n;
}

static bool fail_at(const char *buf, size_t len, size_t off, struct ncf_diag *diag, const char *fmt, ...)
	NCF_PRINTF(5, 6);
static bool fail_at(const char *buf, size_t len, size_t off, struct ncf_diag *diag, const char *fmt, ...)
{
	int l, col;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	text_position(buf, len, off, &l, &col);
	diag_add_at(diag, NCF_ERROR, l, col, "%s", msg);
	return false;
}

static bool hex4_is_zero(const char *p, size_t n)
{
	return n >= 4 && p[0] == '0' && p[1] == '0' && p[2] == '0' && p[3] == '0';
}

/* The first pass: limits and text policy, in O(depth) memory. Syntax is left to cJSON. */
static bool json_precheck(const char *buf, size_t len, struct ncf_diag *diag)
{
	struct level {
		bool object, expect_key;
		long items;
	} st[NCF_MAX_DEPTH + 1];
	int depth = 0;
	long nodes = 0;
	size_t i = 0, k;
	bool in_token = false;
	const char *why;
	uint32_t cp;
#define VALUE_AT(off)                                                                                      \
	do {                                                                                               \
		if (++nodes > NCF_MAX_NODES)                                                               \
			return fail_at(buf, len, (off), diag, "more than %d values in one file", NCF_MAX_NODES); \
	} while (0)
	while (i < len) {
		unsigned char ch = (unsigned char)buf[i];
		if (ch >= 0x80) {
			if (!(k = utf8_decode(buf + i, len - i, &cp, &why)))
				return fail_at(buf, len, i, diag, "not valid UTF-8 text: %s (byte 0x%02X)", why, ch);
			if (!in_token)
				VALUE_AT(i);
			in_token = true;
			i += k;
			continue;
		}
		if (ch == '"') {
			if (!(depth > 0 && st[depth - 1].object && st[depth - 1].expect_key))
				VALUE_AT(i);
			for (i++; i < len && buf[i] != '"';) {
				ch = (unsigned char)buf[i];
				if (ch == '\\') {
					if (i + 1 < len && buf[i + 1] == 'u' && hex4_is_zero(buf + i + 2, len - i - 2))
						return fail_at(buf, len, i, diag, "a NUL character (\\u0000) inside a string");
					i += 2;
				} else if (ch < 0x20) {
					return fail_at(buf, len, i, diag,
						       "a control character (U+%04X) inside a string: JSON strings must not hold one raw",
						       ch);
				} else if (ch >= 0x80) {
					if (!(k = utf8_decode(buf + i, len - i, &cp, &why)))
						return fail_at(buf, len, i, diag, "not valid UTF-8 text: %s (byte 0x%02X)", why, ch);
					i += k;
				} else {
					i++;
				}
			}
			i++;
			in_token = false;
			continue;
		}
		if (ch == '{' || ch == '[') {
			VALUE_AT(i);
			if (depth >= NCF_MAX_DEPTH)
				return fail_at(buf, len, i, diag, "nested deeper than %d levels", NCF_MAX_DEPTH);
			st[depth].object = ch == '{';
			st[depth].expect_key = ch == '{';
			st[depth].items = 0;
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (depth > 0)
				depth--;
		} else if (ch == ',') {
			if (depth > 0) {
				st[depth - 1].expect_key = st[depth - 1].object;
				if (++st[depth - 1].items >= NCF_MAX_ITEMS)
					return fail_at(buf, len, i + 1, diag, "more than %d items in one list or object",
						       NCF_MAX_ITEMS);
			}
		} else if (ch == ':') {
			if (depth > 0)
				st[depth - 1].expect_key = false;
		} else if (!strchr(" \t\r\n", ch)) {
			if (!in_token)
				VALUE_AT(i);
			in_token = true;
			i++;
			continue;
		}
		in_token = false;
		i++;
	}
#undef VALUE_AT
	return true;
}

struct tnode *parse_json(const char *buf, size_t len, struct ncf_diag *diag)
{
	const char *end = NULL;
	cJSON *json;
	struct cursor c;
	struct tnode *root;
	if (!text_check_nul(buf, len, diag) || !json_precheck(buf, len, diag))
		return NULL;
	json = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (json && end) {
		/* Only white space may follow the value. */
		const char *q = end;
		while (q < buf + len && strchr(" \t\r\n", *q))
			q++;
		if (q < buf + len) {
			int l, col;
			text_position(buf, len, (size_t)(q - buf), &l, &col);
			diag_add_at(diag, NCF_ERROR, l, col, "invalid JSON: text after the end of the document");
			cJSON_Delete(json);
			return NULL;
		}
	}
	if (!json) {
		int l, col;
		size_t off = end && end >= buf ? (size_t)(end - buf) : 0;
		bool blank = true;
		size_t i;
		for (i = 0; i < len; i++)
			if (!strchr(" \t\r\n", buf[i]))
				blank = false;
		if (blank) {
			diag_add_at(diag, NCF_ERROR, 1, 1, "empty file: expected an object starting with \"ncfabric\": 1");
			return NULL;
		}
		text_position(buf, len, off, &l, &col);
		for (i = off; i < len && strchr(" \t\r\n", buf[i]); i++)
			;
		{
			/* A comma before a closing bracket: JSON allows none (cJSON stops at the
			 * bracket). */
			size_t q = off < len ? off : len, pc;
			/* cJSON may stop at the bracket or just past it: the bracket is the last
			 * character that is not white space at or before where it stopped. */
			if (q < len && !strchr(" \t\r\n", buf[q]) && buf[q] != '}' && buf[q] != ']')
				q = len; /* not a bracket there: no such case */
			else
				while (q > 0 && (q >= len || strchr(" \t\r\n", buf[q])))
					q--;
			pc = q;
			while (pc > 0 && strchr(" \t\r\n", buf[pc - 1]))
				pc--;
			if (q < len && (buf[q] == '}' || buf[q] == ']') && pc > 0 && buf[pc - 1] == ',') {
				text_position(buf, len, q, &l, &col);
				diag_add_at(diag, NCF_ERROR, l, col,
					    "invalid JSON: expected %s after the comma, got '%c' (JSON allows no comma before a "
					    "closing bracket)", buf[q] == '}' ? "another \"key\": value" : "another value", buf[q]);
				return NULL;
			}
		}
		if (i >= len || (i + 1 >= len && off + 1 >= len)) {
			diag_add_at(diag, NCF_ERROR, l, col, "invalid JSON: the text ends early (truncated file?)");
		} else {
			int n = 0;
			while (n < 12 && off + (size_t)n < len && buf[off + (size_t)n] != '\n' && buf[off + (size_t)n] != '\r')
				n++;
			diag_add_at(diag, NCF_ERROR, l, col, "invalid JSON near '%.*s'%s", n, buf + off,
				    (starts(buf + off, len - off, "NaN") || starts(buf + off, len - off, "Inf") ||
				     starts(buf + off, len - off, "-Inf")) ? " (numbers must be finite)" : "");
		}
		return NULL;
	}
	c.buf = buf;
	c.p = buf;
	c.end = buf + len;
	c.line = c.col = 1;
	/* A UTF-8 byte order mark is not JSON; cJSON would have refused it already. */
	root = scan(&c, json, 0, diag);
	cJSON_Delete(json);
	return root;
}
