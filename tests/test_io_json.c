/* JSON as cJSON writes it: the report's numbers are given to cJSON as the text it would
 * print for them (io/write.c), which must be its text to the byte. */
#include <criterion/criterion.h>
#include <cJSON.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "io/codec.h"

static uint64_t state = 88172645463325252ull;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* One double of many kinds: any bit pattern, integers around 10^15 and 2^31, cents,
 * decimals at every scale, binary fractions, ratios; then the edges. */
static double pick(long i)
{
	static const double edges[] = { 0.0, -0.0, 1e15, -1e15, 999999999999999.0, 1e15 + 1, 2147483647.0, 2147483648.0,
					-2147483649.0, 0.1, 1.0 / 3, 6.25, 43940.901333333342, DBL_MAX, DBL_MIN, 5e-324,
					9007199254740993.0, 1e300, -1e-300 };
	uint64_t r = next();
	double d;
	if (i < (long)(sizeof edges / sizeof edges[0]))
		return edges[i];
	switch (i % 6) {
	case 0:
		memcpy(&d, &r, sizeof d);
		return d;
	case 1:
		return (double)(int64_t)(r % 4000000000000000ull) - 2e15;
	case 2:
		return (double)(r % 100000) / 100.0;
	case 3:
		return (double)(r % 1000000) * pow(10, (int)(r >> 50) % 40 - 20);
	case 4:
		return ldexp((double)(r % 1000), (int)(r >> 54) % 120 - 60);
	default:
		return (i & 1 ? -1 : 1) * (double)(r % 100000000) / (double)((r >> 40) % 1000 + 1);
	}
}

Test(json, numbers_are_printed_as_cjson_prints_them)
{
	long i, n = 60000;
	cJSON *mine = cJSON_CreateObject(), *theirs, *a = cJSON_AddArrayToObject(mine, "n");
	char *want, *got;
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pick(i)));
	/* NaN and infinities are null; repeated numbers (the memo) the same each time */
	cJSON_AddItemToArray(a, cJSON_CreateNumber(NAN));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(-INFINITY));
	for (i = 0; i < 200; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pick(i % 23)));
	cJSON_AddNumberToObject(mine, "nested", 0.1);
	theirs = cJSON_Duplicate(mine, 1);
	want = cJSON_Print(theirs);
	got = json_print_free(mine);
	cr_assert_not_null(want);
	cr_assert_not_null(got);
	cr_assert_eq(strlen(got), strlen(want) + 1, "the text and a newline");
	cr_assert_eq(got[strlen(want)], '\n');
	cr_assert(!strncmp(got, want, strlen(want)), "json_print_free and cJSON_Print differ");
	cr_assert(strstr(got, "null") != NULL);
	free(got);
	cJSON_free(want);
	cJSON_Delete(theirs);
}

/* A tree left to the exit (json_trees_to_exit) prints the same text as one freed; past the
 * eight kept, trees are freed again (valgrind and LeakSanitizer see the kept ones still
 * reachable, never lost). */
Test(json, trees_left_to_the_exit_print_the_same)
{
	int k;
	for (k = 0; k < 12; k++) {
		cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();
		char *sa, *sb;
		cJSON_AddNumberToObject(a, "x", 0.1 * k);
		cJSON_AddStringToObject(a, "name", "pod\x7f");
		cJSON_AddNumberToObject(b, "x", 0.1 * k);
		cJSON_AddStringToObject(b, "name", "pod\x7f");
		json_trees_to_exit(false);
		sa = json_print_free(a);
		json_trees_to_exit(true);
		sb = json_print_free(b);
		json_trees_to_exit(false);
		cr_assert_not_null(sa);
		cr_assert_not_null(sb);
		cr_assert_str_eq(sa, sb);
		cr_assert(strstr(sa, "\"x\":") != NULL);
		free(sa);
		free(sb);
	}
}
