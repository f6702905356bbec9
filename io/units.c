#include "io/units.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool parse_size(const char *s, double *bytes, char *err, size_t errsz)
{
	char *end;
	double v, mul = 1;
	errno = 0;
	if (!s || !*s || !((*s >= '0' && *s <= '9') || *s == '.')) {
		snprintf(err, errsz, "expected a size such as 8, 128K, 1M or 16G, got '%s'", s ? s : "");
		return false;
	}
	v = strtod(s, &end);
	if (errno || !isfinite(v)) {
		snprintf(err, errsz, "size '%s' is out of range", s);
		return false;
	}
	switch (*end) {
	case 'K': case 'k': mul = 1024.0; end++; break;
	case 'M': case 'm': mul = 1024.0 * 1024; end++; break;
	case 'G': case 'g': mul = 1024.0 * 1024 * 1024; end++; break;
	case 'T': case 't': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end) {
		snprintf(err, errsz, "expected a size such as 8, 128K, 1M or 16G, got '%s'", s);
		return false;
	}
	v *= mul;
	if (v < 1 || v > 1024.0 * 1024 * 1024 * 1024) {
		snprintf(err, errsz, "size '%s' must be from 1 byte to 1T", s);
		return false;
	}
	*bytes = floor(v);
	return true;
}

const char *format_size(double bytes, char *buf, size_t size)
{
	static const char *suffix[] = { "", "K", "M", "G", "T" };
	int i = 0;
	double v = bytes;
	while (i < 4 && v >= 1024 && fmod(v, 1024) == 0) {
		v /= 1024;
		i++;
	}
	if (v == floor(v) && (i > 0 || bytes < 1000))
		snprintf(buf, size, "%.0f%s", v, suffix[i]);
	else if (bytes >= 1e9)
		snprintf(buf, size, "%.3g GB", bytes / 1e9);
	else if (bytes >= 1e6)
		snprintf(buf, size, "%.3g MB", bytes / 1e6);
	else if (bytes >= 1e3)
		snprintf(buf, size, "%.3g kB", bytes / 1e3);
	else
		snprintf(buf, size, "%.0f", bytes);
	return buf;
}
