/* num.h: the one parser of numbers that people write, for design files, catalog files,
 * `new --set`, the designer's forms and commands, and sizes.
 *
 * A number means exactly what it says or is refused with the reason. Whole numbers are
 * decimal digits with an optional sign: "0x10" (hexadecimal), "007" (a leading zero, which
 * some readers take as octal), "1e1" (an exponent) and "1_000" are refused, each saying
 * what to write instead; so are values beyond the long long range. Real numbers are
 * decimal: digits with an optional fraction and exponent ("1.5", ".5", "1e1"); hexadecimal
 * floats, leading zeros ("007.5"), infinities, NaN and values that overflow a double are
 * refused. White space is never part of a number. */
#ifndef NCF_NUM_H
#define NCF_NUM_H
#include <stdbool.h>
#include <stddef.h>

enum num_status {
	NUM_OK,     /* *out holds the value */
	NUM_BAD,    /* not a number of the kind asked for: why says so */
	NUM_RANGE   /* a number as written, but beyond what the type holds: the caller names its range */
};

/* Parse a whole number. On NUM_BAD, why holds a short reason with the fix where there is
 * one ("hexadecimal: write 16", "a leading zero: write 7", "an exponent: write 10"), or
 * "not a whole number". */
enum num_status num_parse_int(const char *text, long long *out, char *why, size_t whysz);
/* Parse a finite real number; NUM_BAD as above ("not a decimal number"), NUM_RANGE when
 * it overflows a double. */
enum num_status num_parse_real(const char *text, double *out, char *why, size_t whysz);

/* Does why only repeat "this is not a number" (so a message need not add it)? */
bool num_reason_generic(const char *why);

#endif
