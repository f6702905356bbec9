#include "io/units.h"
#include "model/num.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool parse_size(const char *s, double *bytes, char *err, size_t errsz)
{
	char num[64], why[160];
	size_t n = s ? strlen(s) : 0;
	double v, mul = 1;
	enum num_status st;
	if (!s || !*s || n >= sizeof num) {
		snprintf(err, errsz, "expected a size such as 8, 128K, 1M or 16G, got '%s'", s ? s : "");
		return false;
	}
	memcpy(num, s, n + 1);
	if (n > 1 && (num[n - 1] == 'B' || num[n - 1] == 'b'))
		num[--n] = '\0';
	if (n > 1) {
		switch (num[n - 1]) {
		case 'K': case 'k': mul = 1024.0; break;
		case 'M': case 'm': mul = 1024.0 * 1024; break;
		case 'G': case 'g': mul = 1024.0 * 1024 * 1024; break;
		case 'T': case 't': mul = 1024.0 * 1024 * 1024 * 1024; break;
		default: break;
		}
		if (mul > 1)
			num[--n] = '\0';
	}
	/* The number itself goes through the one strict parser (model/num.h). */
	st = num_parse_real(num, &v, why, sizeof why);
	if (st == NUM_RANGE) {
		snprintf(err, errsz, "size '%s' is out of range", s);
		return false;
	}
	if (st == NUM_BAD || num[0] == '-' || num[0] == '+') {
		if (st == NUM_BAD && !num_reason_generic(why))
			snprintf(err, errsz, "expected a size such as 8, 128K, 1M or 16G, got '%s' (%s)", s, why);
		else
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

bool parse_gpus(const char *s, long *gpus, char *err, size_t errsz)
{
	char why[160];
	long long v = 0;
	enum num_status st = num_parse_int(s ? s : "", &v, why, sizeof why);
	if (st == NUM_OK && v >= 1 && v <= 100000000) {
		*gpus = (long)v;
		return true;
	}
	if (st == NUM_BAD && !num_reason_generic(why))
		snprintf(err, errsz, "expected a whole number of GPUs, got '%s' (%s)", s ? s : "", why);
	else
		snprintf(err, errsz, "expected a whole number of GPUs from 1 to 100000000, got '%s'", s ? s : "");
	return false;
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

const char *format_bytes_dec(double bytes, char *buf, size_t size)
{
	if (bytes >= 1e9)
		snprintf(buf, size, "%.3g GB", bytes / 1e9);
	else if (bytes >= 1e6)
		snprintf(buf, size, "%.3g MB", bytes / 1e6);
	else if (bytes >= 1e3)
		snprintf(buf, size, "%.3g kB", bytes / 1e3);
	else
		snprintf(buf, size, "%.0f B", bytes);
	return buf;
}
