#include "model/num.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the decimal real at t ([+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?) if it is
 * one whole, else 0. *int_digits: digits before the point; *has_frac, *has_exp. */
static size_t decimal_len(const char *t, size_t *int_start, size_t *int_digits, bool *has_frac, bool *has_exp)
{
	size_t i = 0, d = 0, f = 0;
	*has_frac = *has_exp = false;
	if (t[i] == '+' || t[i] == '-')
		i++;
	*int_start = i;
	while (digit(t[i]))
		i++, d++;
	*int_digits = d;
	if (t[i] == '.') {
		*has_frac = true;
		i++;
		while (digit(t[i]))
			i++, f++;
	}
	if (d + f == 0)
		return 0;
	if (t[i] == 'e' || t[i] == 'E') {
		size_t e = 0;
		*has_exp = true;
		i++;
		if (t[i] == '+' || t[i] == '-')
			i++;
		while (digit(t[i]))
			i++, e++;
		if (!e)
			return 0;
	}
	return t[i] ? 0 : i;
}

/* Text with the leading zeros of its whole part dropped: "007.5" -> "7.5", "-00" -> "-0". */
static void strip_zeros(const char *t, size_t int_start, char *out, size_t size)
{
	size_t i = int_start;
	while (t[i] == '0' && digit(t[i + 1]))
		i++;
	snprintf(out, size, "%.*s%s", (int)int_start, t, t + i);
}

/* Reasons shared by both kinds: hexadecimal, octal, separators, words. NUM_OK if none. */
static enum num_status common_faults(const char *t, char *why, size_t whysz)
{
	const char *p = t + (t[0] == '+' || t[0] == '-');
	if (!t[0]) {
		snprintf(why, whysz, "nothing");
		return NUM_BAD;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		char *end;
		unsigned long long v;
		errno = 0;
		v = strtoull(p + 2, &end, 16);
		if (p[2] && !*end && !errno && p[2] != '-' && p[2] != '+' && p[2] != ' ' && v <= (1ULL << 53))
			snprintf(why, whysz, "hexadecimal: write %s%llu", t[0] == '-' ? "-" : "", v);
		else
			snprintf(why, whysz, "hexadecimal: write numbers in decimal");
		return NUM_BAD;
	}
	if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O' || p[1] == 'b' || p[1] == 'B')) {
		char *end;
		unsigned long long v;
		int base = p[1] == 'o' || p[1] == 'O' ? 8 : 2;
		errno = 0;
		v = strtoull(p + 2, &end, base);
		if (p[2] && !*end && !errno && digit(p[2]) && v <= (1ULL << 53))
			snprintf(why, whysz, "%s: write %s%llu", base == 8 ? "octal" : "binary", t[0] == '-' ? "-" : "", v);
		else
			snprintf(why, whysz, "%s: write numbers in decimal", base == 8 ? "octal" : "binary");
		return NUM_BAD;
	}
	if (strchr(t, '_') && digit(*p)) {
		char plain[80];
		size_t i, o = 0;
		for (i = 0; t[i] && o + 1 < sizeof plain; i++)
			if (t[i] != '_')
				plain[o++] = t[i];
		plain[o] = '\0';
		snprintf(why, whysz, "digit separators: write %s", plain);
		return NUM_BAD;
	}
	if (strchr(t, ' ') || strchr(t, '\t')) {
		snprintf(why, whysz, "a space inside");
		return NUM_BAD;
	}
	{
		static const char *const words[] = { "inf", "infinity", "nan", ".inf", ".nan", NULL };
		size_t i;
		char low[16];
		size_t k;
		for (k = 0; p[k] && k + 1 < sizeof low; k++)
			low[k] = (char)(p[k] >= 'A' && p[k] <= 'Z' ? p[k] - 'A' + 'a' : p[k]);
		low[k] = '\0';
		for (i = 0; words[i]; i++)
			if (!p[k] && strcmp(low, words[i]) == 0) {
				snprintf(why, whysz, "not finite");
				return NUM_BAD;
			}
	}
	return NUM_OK;
}

enum num_status num_parse_int(const char *t, long long *out, char *why, size_t whysz)
{
	size_t is, nd, len;
	bool frac, exp;
	enum num_status st = common_faults(t, why, whysz);
	char fixed[80];
	long long v;
	char *end;
	if (st != NUM_OK)
		return st;
	len = decimal_len(t, &is, &nd, &frac, &exp);
	if (!len) {
		snprintf(why, whysz, "not a whole number");
		return NUM_BAD;
	}
	if (nd > 1 && t[is] == '0') {
		strip_zeros(t, is, fixed, sizeof fixed);
		snprintf(why, whysz, "a leading zero, octal to some readers: write %s", fixed);
		return NUM_BAD;
	}
	if (frac || exp) {
		double d;
		errno = 0;
		d = strtod(t, NULL);
		if (errno == 0 && isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0)
			snprintf(why, whysz, "%s: write %.0f", exp ? "an exponent" : "a decimal point", d);
		else
			snprintf(why, whysz, "not a whole number");
		return NUM_BAD;
	}
	errno = 0;
	v = strtoll(t, &end, 10);
	if (errno == ERANGE)
		return NUM_RANGE;
	if (*end) {
		snprintf(why, whysz, "not a whole number");
		return NUM_BAD;
	}
	*out = v;
	return NUM_OK;
}

enum num_status num_parse_real(const char *t, double *out, char *why, size_t whysz)
{
	size_t is, nd, len;
	bool frac, exp;
	enum num_status st = common_faults(t, why, whysz);
	char fixed[80];
	double v;
	char *end;
	if (st != NUM_OK)
		return st;
	len = decimal_len(t, &is, &nd, &frac, &exp);
	if (!len) {
		snprintf(why, whysz, "not a decimal number");
		return NUM_BAD;
	}
	if (nd > 1 && t[is] == '0') {
		strip_zeros(t, is, fixed, sizeof fixed);
		snprintf(why, whysz, "a leading zero, octal to some readers: write %s", fixed);
		return NUM_BAD;
	}
	errno = 0;
	v = strtod(t, &end);
	if (*end) {
		snprintf(why, whysz, "not a decimal number");
		return NUM_BAD;
	}
	if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
		return NUM_RANGE;
	if (errno == ERANGE) {
		snprintf(why, whysz, "too close to zero to hold");
		return NUM_BAD;
	}
	*out = v;
	return NUM_OK;
}

bool num_reason_generic(const char *why)
{
	return !strcmp(why, "not a whole number") || !strcmp(why, "not a decimal number") || !strcmp(why, "not finite") ||
	       !strcmp(why, "nothing");
}
