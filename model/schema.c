#include "model/schema.h"
#include "model/vec.h"
#include "model/alloc.h"
#include "model/diag.h"
#include "model/num.h"
#include "model/text.h"
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define AT(obj, off) ((char *)(obj) + (off))
#define CAT(obj, off) ((const char *)(obj) + (off))

void schema_init(const struct schema *s, void *obj)
{
	memset(obj, 0, s->size);
	if (s->defaults)
		s->defaults(obj);
}

void schema_free(const struct schema *s, void *obj)
{
	size_t i, j;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST) {
			struct vec *v = (struct vec *)AT(obj, f->off);
			/* borrowed elements own nothing (vec.h) */
			for (j = 0; j < v->n && !vec_borrowed(v); j++)
				schema_free(f->sub, (char *)v->v + j * f->sub->size);
			vec_release(v);
		} else if (f->type == FT_STRUCT) {
			schema_free(f->sub, AT(obj, f->off));
		}
	}
}

static void copy_owned(const struct schema *s, void *dst, const void *src)
{
	size_t i, j;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST) {
			const struct vec *sv = (const struct vec *)CAT(src, f->off);
			struct vec *dv = (struct vec *)AT(dst, f->off);
			dv->v = NULL;
			dv->n = dv->cap = 0;
			for (j = 0; j < sv->n; j++) {
				void *el = vec_push(dv, f->sub->size);
				const void *sel = (const char *)sv->v + j * f->sub->size;
				memcpy(el, sel, f->sub->size);
				copy_owned(f->sub, el, sel);
			}
		} else if (f->type == FT_STRUCT) {
			copy_owned(f->sub, AT(dst, f->off), CAT(src, f->off));
		}
	}
}

void schema_copy(const struct schema *s, void *dst, const void *src)
{
	memcpy(dst, src, s->size);
	copy_owned(s, dst, src);
}

/* The lists of the object whose bytes are at obj (their elements follow at *at): written to
 * out (when not NULL) and counted. */
static size_t image_lists(const struct schema *s, const void *obj, unsigned char *out, size_t at)
{
	size_t i, j;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST) {
			const struct vec *v = (const struct vec *)CAT(obj, f->off);
			size_t bytes = v->n * f->sub->size;
			if (out && bytes)
				memcpy(out + at, v->v, bytes);
			at += bytes;
			for (j = 0; j < v->n; j++)
				at = image_lists(f->sub, (const char *)v->v + j * f->sub->size, out, at);
		} else if (f->type == FT_STRUCT) {
			at = image_lists(f->sub, CAT(obj, f->off), out, at);
		}
	}
	return at;
}

size_t schema_image_write(const struct schema *s, const void *obj, unsigned char *out)
{
	if (out)
		memcpy(out, obj, s->size);
	return image_lists(s, obj, out, s->size);
}

/* Where the lists of the object whose image bytes are at el end, from *at; 0 when they
 * would run past len. With obj, obj's lists (obj holds el's bytes) are made its own. */
static size_t read_lists(const struct schema *s, const unsigned char *el, void *obj, const unsigned char *img, size_t at,
			 size_t len)
{
	size_t i, j;
	for (i = 0; i < s->nfields && at; i++) {
		const struct field *f = &s->fields[i];
		if (f->type == FT_LIST) {
			struct vec iv;
			const unsigned char *first = img + at;
			memcpy(&iv, el + f->off, sizeof iv);
			if (iv.n > (len - at) / (f->sub->size ? f->sub->size : 1))
				return 0;
			at += iv.n * f->sub->size;
			if (obj) {
				struct vec *v = (struct vec *)AT(obj, f->off);
				v->v = iv.n ? xmalloc(iv.n * f->sub->size) : NULL;
				v->n = v->cap = iv.n;
				if (iv.n)
					memcpy(v->v, first, iv.n * f->sub->size);
			}
			for (j = 0; j < iv.n && at; j++)
				at = read_lists(f->sub, first + j * f->sub->size,
						obj ? (char *)((struct vec *)AT(obj, f->off))->v + j * f->sub->size : NULL, img,
						at, len);
		} else if (f->type == FT_STRUCT) {
			at = read_lists(f->sub, el + f->off, obj ? AT(obj, f->off) : NULL, img, at, len);
		}
	}
	return at;
}

bool schema_image_read(const struct schema *s, void *obj, const unsigned char *img, size_t len)
{
	/* measured first, so that a bad image allocates nothing */
	if (len < s->size || s->size == 0 || read_lists(s, img, NULL, img, s->size, len) != len) {
		schema_init(s, obj);
		return false;
	}
	memcpy(obj, img, s->size);
	read_lists(s, img, obj, img, s->size, len);
	return true;
}

bool schema_equal(const struct schema *s, const void *a, const void *b)
{
	size_t i, j;
	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		const char *pa = CAT(a, f->off), *pb = CAT(b, f->off);
		switch (f->type) {
		case FT_INT:
		case FT_ENUM:
			if (*(const int *)pa != *(const int *)pb)
				return false;
			break;
		case FT_NUM:
			/* Bit-exact: numbers must round-trip exactly. */
			if (memcmp(pa, pb, sizeof(double)) != 0 && *(const double *)pa != *(const double *)pb)
				return false;
			break;
		case FT_BOOL:
			if (*(const bool *)pa != *(const bool *)pb)
				return false;
			break;
		case FT_STR:
			if (strcmp(pa, pb) != 0)
				return false;
			break;
		case FT_LIST: {
			const struct vec *va = (const struct vec *)pa, *vb = (const struct vec *)pb;
			if (va->n != vb->n)
				return false;
			for (j = 0; j < va->n; j++)
				if (!schema_equal(f->sub, (const char *)va->v + j * f->sub->size,
						  (const char *)vb->v + j * f->sub->size))
					return false;
			break;
		}
		case FT_STRUCT:
			if (!schema_equal(f->sub, pa, pb))
				return false;
			break;
		}
	}
	return true;
}

const struct field *schema_field(const struct schema *s, const char *key)
{
	size_t i;
	for (i = 0; i < s->nfields; i++)
		if (strcmp(s->fields[i].key, key) == 0)
			return &s->fields[i];
	return NULL;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64], prev, tmp;
	if (la >= 63 || lb >= 63)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *schema_suggest(const struct schema *s, const char *key)
{
	size_t i, best = 3, len = strlen(key);
	const char *found = NULL;
	for (i = 0; i < s->nfields; i++) {
		const char *k = s->fields[i].key;
		size_t d = edit_distance(key, k);
		if (d < best) {
			best = d;
			found = k;
		}
	}
	if (!found && len >= 3)
		for (i = 0; i < s->nfields; i++)
			if (strncmp(s->fields[i].key, key, len) == 0)
				return s->fields[i].key;
	return found;
}

const char *schema_keys(const struct schema *s, char *buf, size_t size)
{
	size_t i, used = 0;
	buf[0] = '\0';
	for (i = 0; i < s->nfields && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", s->fields[i].key);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int field_enum_parse(const struct field *f, const char *name)
{
	int i;
	for (i = 0; f->names[i]; i++)
		if (strcmp(f->names[i], name) == 0)
			return i;
	return -1;
}

const char *field_enum_name(const struct field *f, int v)
{
	int i;
	for (i = 0; f->names[i]; i++)
		if (i == v)
			return f->names[i];
	return "?";
}

const char *field_enum_list(const struct field *f, char *buf, size_t size)
{
	size_t used = 0;
	int i, n = 0;
	while (f->names[n])
		n++;
	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++) {
		const char *sep = i == 0 ? "" : (i == n - 1 ? " or " : ", ");
		int k = snprintf(buf + used, size - used, "%s%s", sep, f->names[i]);
		if (k < 0)
			break;
		used += (size_t)k;
	}
	return buf;
}

int *field_int(const struct field *f, void *obj) { return (int *)AT(obj, f->off); }
double *field_num(const struct field *f, void *obj) { return (double *)AT(obj, f->off); }
bool *field_bool(const struct field *f, void *obj) { return (bool *)AT(obj, f->off); }
char *field_str(const struct field *f, void *obj) { return AT(obj, f->off); }
struct vec *field_list(const struct field *f, void *obj) { return (struct vec *)AT(obj, f->off); }
void *field_struct(const struct field *f, void *obj) { return AT(obj, f->off); }

bool field_is_empty(const struct field *f, const void *obj)
{
	const char *p = CAT(obj, f->off);
	switch (f->type) {
	case FT_INT:
	case FT_ENUM:
		return *(const int *)p == 0;
	case FT_NUM:
		return *(const double *)p == 0.0;
	case FT_BOOL:
		return !*(const bool *)p;
	case FT_STR:
		return p[0] == '\0';
	case FT_LIST:
		return ((const struct vec *)p)->n == 0;
	case FT_STRUCT: {
		size_t i;
		for (i = 0; i < f->sub->nfields; i++)
			if (!field_is_empty(&f->sub->fields[i], p))
				return false;
		return true;
	}
	}
	return true;
}

/* ---- scalars ---------------------------------------------------------------------- */

static bool is_int_text(const char *t)
{
	const char *p = t;
	if (*p == '-' || *p == '+')
		p++;
	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static bool is_num_text(const char *t, double *out)
{
	char *end;
	const char *p = t;
	double v;
	/* Decimal only: no hex, no inf/nan words, no leading dot oddities beyond strtod's. */
	if (*p == '-' || *p == '+')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return false;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return false;
	errno = 0;
	v = strtod(t, &end);
	if (*end || end == t)
		return false;
	if (errno == ERANGE || !isfinite(v))
		return false;
	if (out)
		*out = v;
	return true;
}

bool scalar_is_special(const char *t)
{
	static const char *const words[] = { "true", "false", "True", "False", "TRUE", "FALSE", "null", "Null",
					     "NULL", "~", "yes", "no", "Yes", "No", "YES", "NO", "on", "off",
					     "On", "Off", "ON", "OFF", "y", "n", "Y", "N", ".inf", ".nan",
					     "-.inf", ".Inf", ".NaN", NULL };
	size_t i;
	if (!t[0])
		return true;
	for (i = 0; words[i]; i++)
		if (strcmp(t, words[i]) == 0)
			return true;
	if (is_num_text(t, NULL) || is_int_text(t))
		return true;
	/* Other YAML 1.1 number forms: 0x1F, 0o17, 1_000, 1:30 (sexagesimal). */
	{
		const char *p = t + (t[0] == '-' || t[0] == '+');
		bool digit = false;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o') && p[2]) {
			for (p += 2; *p; p++)
				if (!strchr("0123456789abcdefABCDEF_", *p))
					return false;
			return true;
		}
		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			return false;
		for (; *p; p++) {
			if (*p >= '0' && *p <= '9')
				digit = true;
			else if (!strchr("_.:eE+-", *p))
				return false;
		}
		return digit;
	}
}

/* What a scalar that did not fit looks like, for messages: 'four', the string "32", nothing. */
static const char *describe(const char *t, bool quoted, char *buf, size_t size)
{
	if (quoted)
		snprintf(buf, size, "the string \"%.40s%s\"", t, strlen(t) > 40 ? "..." : "");
	else if (!t[0] || strcmp(t, "null") == 0 || strcmp(t, "~") == 0)
		snprintf(buf, size, "nothing");
	else
		snprintf(buf, size, "'%.40s%s'", t, strlen(t) > 40 ? "..." : "");
	return buf;
}

bool field_parse(const struct field *f, void *obj, const char *t, bool quoted, char *err, size_t errsz)
{
	char buf[256], what[80], why[160];
	switch (f->type) {
	case FT_INT: {
		long long v = 0;
		enum num_status st = quoted ? NUM_BAD : num_parse_int(t, &v, why, sizeof why);
		if (st == NUM_BAD) {
			snprintf(err, errsz, "expected a whole number for '%s', got %s%s%s%s", f->key,
				 describe(t, quoted, what, sizeof what), quoted || num_reason_generic(why) ? "" : " (",
				 quoted || num_reason_generic(why) ? "" : why, quoted || num_reason_generic(why) ? "" : ")");
			return false;
		}
		if (st == NUM_RANGE || v < (long long)f->min || v > (long long)f->max) {
			snprintf(err, errsz, "'%s' must be from %.0f to %.0f, got %s", f->key, f->min, f->max, t);
			return false;
		}
		*field_int(f, obj) = (int)v;
		return true;
	}
	case FT_NUM: {
		double v = 0;
		enum num_status st = quoted ? NUM_BAD : num_parse_real(t, &v, why, sizeof why);
		if (st != NUM_OK) {
			bool plain = quoted || st == NUM_RANGE || num_reason_generic(why);
			snprintf(err, errsz, "expected a finite decimal number for '%s', got %s%s%s%s", f->key,
				 describe(t, quoted, what, sizeof what), plain ? "" : " (", plain ? "" : why, plain ? "" : ")");
			return false;
		}
		if (v < f->min || v > f->max) {
			snprintf(err, errsz, "'%s' must be from %g to %g, got %s", f->key, f->min, f->max, t);
			return false;
		}
		*field_num(f, obj) = v;
		return true;
	}
	case FT_BOOL:
		if (!quoted && strcmp(t, "true") == 0)
			*field_bool(f, obj) = true;
		else if (!quoted && strcmp(t, "false") == 0)
			*field_bool(f, obj) = false;
		else {
			snprintf(err, errsz, "expected true or false for '%s', got %s", f->key,
				 describe(t, quoted, what, sizeof what));
			return false;
		}
		return true;
	case FT_STR:
		if (!quoted && scalar_is_special(t)) {
			snprintf(err, errsz, "expected a string for '%s', got %s (quote it to use it as text)", f->key,
				 t[0] ? t : "nothing");
			return false;
		}
		if (strlen(t) >= f->size) {
			snprintf(err, errsz, "'%s' is longer than %zu characters", f->key, f->size - 1);
			return false;
		}
		if (memchr(t, '\n', strlen(t)) && f->size < 256) {
			snprintf(err, errsz, "'%s' must be one line", f->key);
			return false;
		}
		if (!text_check(t, f->size >= 256, why, sizeof why)) {
			snprintf(err, errsz, "'%s' must be plain text: %s", f->key, why);
			return false;
		}
		strcpy(field_str(f, obj), t);
		return true;
	case FT_ENUM: {
		int v = field_enum_parse(f, t);
		if (v < 0) {
			snprintf(err, errsz, "expected %s for '%s', got '%s'", field_enum_list(f, buf, sizeof buf), f->key, t);
			return false;
		}
		*field_int(f, obj) = v;
		return true;
	}
	case FT_LIST:
		snprintf(err, errsz, "expected a list for '%s', got %s", f->key, describe(t, quoted, what, sizeof what));
		return false;
	case FT_STRUCT:
		snprintf(err, errsz, "expected a mapping for '%s', got %s", f->key, describe(t, quoted, what, sizeof what));
		return false;
	}
	return false;
}

const char *num_format(double v, char *buf, size_t size)
{
	int prec;
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, size, "%.0f", v);
		return buf;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

const char *field_format(const struct field *f, const void *obj, char *buf, size_t size)
{
	const char *p = (const char *)obj + f->off;
	switch (f->type) {
	case FT_INT:
		snprintf(buf, size, "%d", *(const int *)p);
		return buf;
	case FT_NUM:
		return num_format(*(const double *)p, buf, size);
	case FT_BOOL:
		return *(const bool *)p ? "true" : "false";
	case FT_STR:
		return p;
	case FT_ENUM:
		return field_enum_name(f, *(const int *)p);
	default:
		return "";
	}
}

/* ---- invariants --------------------------------------------------------------------- */

/* Where check_obj is: a chain from the object checked up to the top. A path such as
 * "servers[3].nics[1].speed_gbps" is written out only when a problem is found (the check
 * runs on every edit of designs of thousands of elements), cut to 127 bytes as snprintf
 * into a buffer of 128 at each level would cut it. */
struct at {
	const struct at *up; /* NULL: the top, whose text is key (the caller's prefix) */
	const char *key;
	size_t index;
	bool list;           /* an element of a list: "key[index]." (else "key.") */
};

static size_t at_put(char *out, size_t n, const char *s, size_t len)
{
	if (len > 127 - n)
		len = 127 - n;
	memcpy(out + n, s, len);
	return n + len;
}

static size_t at_text(const struct at *at, char *out)
{
	size_t n;
	if (!at->up)
		return at_put(out, 0, at->key, strlen(at->key));
	n = at_text(at->up, out);
	n = at_put(out, n, at->key, strlen(at->key));
	if (at->list) {
		char rev[24];
		size_t m = 0, v = at->index;
		do
			rev[m++] = (char)('0' + v % 10);
		while ((v /= 10) && m < sizeof rev);
		n = at_put(out, n, "[", 1);
		while (m) {
			char c = rev[--m];
			n = at_put(out, n, &c, 1);
		}
		n = at_put(out, n, "]", 1);
	}
	return at_put(out, n, ".", 1);
}

/* The path of field f of the object at at, into path (128 bytes). */
static const char *at_path(const struct at *at, const struct field *f, char *path)
{
	size_t n = at_text(at, path);
	n = at_put(path, n, f->key, strlen(f->key));
	path[n] = '\0';
	return path;
}

static int check_obj(const struct schema *s, const void *obj, const struct at *at, struct ncf_diag *diag, int limit)
{
	size_t i, j;
	int bad = 0;
	char path[128], why[160];
	for (i = 0; i < s->nfields && bad < limit; i++) {
		const struct field *f = &s->fields[i];
		const char *p = CAT(obj, f->off);
		switch (f->type) {
		case FT_INT: {
			int v = *(const int *)p;
			if (v < f->min || v > f->max) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' must be from %.0f to %.0f, got %d", f->key, f->min, f->max, v);
				bad++;
			}
			break;
		}
		case FT_NUM: {
			double v = *(const double *)p;
			if (!isfinite(v) || v < f->min || v > f->max) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' must be from %g to %g, got %g", f->key, f->min, f->max, v);
				bad++;
			}
			break;
		}
		case FT_ENUM: {
			int v = *(const int *)p, n = 0;
			while (f->names[n])
				n++;
			if (v < 0 || v >= n) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' holds no known value (%d)", f->key, v);
				bad++;
			}
			break;
		}
		case FT_BOOL:
			break;
		case FT_STR:
			if (!memchr(p, '\0', f->size)) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' is longer than %zu characters", f->key, f->size - 1);
				bad++;
			} else if ((memchr(p, '\n', strlen(p)) && f->size < 256)) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' must be one line", f->key);
				bad++;
			} else if (!text_check(p, f->size >= 256, why, sizeof why)) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "'%s' must be plain text: %s", f->key, why);
				bad++;
			}
			break;
		case FT_LIST: {
			const struct vec *v = (const struct vec *)p;
			if (v->n > SCHEMA_MAX_LIST) {
				diag_add(diag, NCF_ERROR, at_path(at, f, path), "more than %d entries in '%s'", SCHEMA_MAX_LIST, f->key);
				bad++;
				break;
			}
			for (j = 0; j < v->n && bad < limit; j++) {
				struct at sub = { at, f->key, j, true };
				bad += check_obj(f->sub, (const char *)v->v + j * f->sub->size, &sub, diag, limit - bad);
			}
			break;
		}
		case FT_STRUCT: {
			struct at sub = { at, f->key, 0, false };
			bad += check_obj(f->sub, p, &sub, diag, limit - bad);
			break;
		}
		}
	}
	return bad;
}

int schema_check(const struct schema *s, const void *obj, const char *prefix, struct ncf_diag *diag, int limit)
{
	struct at top = { NULL, prefix ? prefix : "", 0, false };
	return check_obj(s, obj, &top, diag, limit);
}
