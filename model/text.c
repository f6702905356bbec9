#include "model/text.h"
#include <stdio.h>

size_t utf8_decode(const char *str, size_t n, uint32_t *cp, const char **why)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len, i;
	uint32_t c, min;
	const char *dummy;
	if (!why)
		why = &dummy;
	if (n == 0) {
		*why = "incomplete UTF-8 octet sequence";
		return 0;
	}
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
		min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
		min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		*why = "invalid leading UTF-8 octet";
		return 0;
	}
	if (n < len) {
		*why = "incomplete UTF-8 octet sequence";
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*why = "invalid trailing UTF-8 octet";
			return 0;
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min) {
		*why = "invalid length of a UTF-8 sequence";
		return 0;
	}
	if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) {
		*why = "invalid Unicode character";
		return 0;
	}
	*cp = c;
	return len;
}

bool text_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

bool text_check(const char *s, bool multiline, char *why, size_t whysz)
{
	size_t i = 0, n = 0, chars = 1;
	const char *fault;
	uint32_t cp;
	while (s[n])
		n++;
	while (i < n) {
		size_t k;
		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F) {
			i++; /* printable ASCII, what names are made of: nothing to decode */
			chars++;
			continue;
		}
		k = utf8_decode(s + i, n - i, &cp, &fault);
		if (!k) {
			snprintf(why, whysz, "not valid UTF-8 (%s 0x%02X at character %zu)", fault, (unsigned char)s[i], chars);
			return false;
		}
		if (text_is_control(cp) && !(multiline && (cp == '\n' || cp == '\t'))) {
			snprintf(why, whysz, "a control character (U+%04X) at character %zu", (unsigned)cp, chars);
			return false;
		}
		i += k;
		chars++;
	}
	return true;
}
