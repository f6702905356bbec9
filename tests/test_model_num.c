/* The one number parser (model/num.h), the one text policy (model/text.h), and the
 * invariants design_check holds any design to (schema_check). */
#include <criterion/criterion.h>
#include <string.h>
#include "model/design.h"
#include "model/num.h"
#include "model/text.h"

struct int_case {
	const char *text;
	enum num_status st;
	long long value;
	const char *why;
};

Test(num, whole_numbers_mean_what_they_say_or_say_why)
{
	static const struct int_case cases[] = {
		{ "16", NUM_OK, 16, NULL },
		{ "0", NUM_OK, 0, NULL },
		{ "-0", NUM_OK, 0, NULL },
		{ "+5", NUM_OK, 5, NULL },
		{ "-12", NUM_OK, -12, NULL },
		{ "0x10", NUM_BAD, 0, "hexadecimal: write 16" },
		{ "0X1f", NUM_BAD, 0, "hexadecimal: write 31" },
		{ "0x", NUM_BAD, 0, "hexadecimal: write numbers in decimal" },
		{ "007", NUM_BAD, 0, "a leading zero, octal to some readers: write 7" },
		{ "-010", NUM_BAD, 0, "a leading zero, octal to some readers: write -10" },
		{ "00", NUM_BAD, 0, "a leading zero, octal to some readers: write 0" },
		{ "0o17", NUM_BAD, 0, "octal: write 15" },
		{ "0b101", NUM_BAD, 0, "binary: write 5" },
		{ "1e1", NUM_BAD, 0, "an exponent: write 10" },
		{ "1E3", NUM_BAD, 0, "an exponent: write 1000" },
		{ "10.0", NUM_BAD, 0, "a decimal point: write 10" },
		{ "7.5", NUM_BAD, 0, "not a whole number" },
		{ "1e-1", NUM_BAD, 0, "not a whole number" },
		{ "1_000", NUM_BAD, 0, "digit separators: write 1000" },
		{ " 5", NUM_BAD, 0, "a space inside" },
		{ "5 ", NUM_BAD, 0, "a space inside" },
		{ "", NUM_BAD, 0, "nothing" },
		{ "four", NUM_BAD, 0, "not a whole number" },
		{ "inf", NUM_BAD, 0, "not finite" },
		{ "-", NUM_BAD, 0, "not a whole number" },
		{ "99999999999999999999", NUM_RANGE, 0, NULL },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct int_case *c = &cases[i];
		long long v = -777;
		char why[160] = "";
		enum num_status st = num_parse_int(c->text, &v, why, sizeof why);
		cr_expect_eq(st, c->st, "'%s': status %d, wanted %d (%s)", c->text, st, c->st, why);
		if (c->st == NUM_OK)
			cr_expect_eq(v, c->value, "'%s' is %lld, wanted %lld", c->text, v, c->value);
		else
			cr_expect_eq(v, -777, "'%s': a refused number leaves the output alone", c->text);
		if (c->why)
			cr_expect_str_eq(why, c->why, "'%s'", c->text);
	}
}

struct real_case {
	const char *text;
	enum num_status st;
	double value;
	const char *why;
};

Test(num, real_numbers_are_decimal_and_finite)
{
	static const struct real_case cases[] = {
		{ "1e1", NUM_OK, 10, NULL },
		{ "0.5", NUM_OK, 0.5, NULL },
		{ ".5", NUM_OK, 0.5, NULL },
		{ "5.", NUM_OK, 5, NULL },
		{ "-2.5e-3", NUM_OK, -0.0025, NULL },
		{ "0", NUM_OK, 0, NULL },
		{ "0x10", NUM_BAD, 0, "hexadecimal: write 16" },
		{ "0x1p4", NUM_BAD, 0, "hexadecimal: write numbers in decimal" },
		{ "007.5", NUM_BAD, 0, "a leading zero, octal to some readers: write 7.5" },
		{ "007", NUM_BAD, 0, "a leading zero, octal to some readers: write 7" },
		{ "nan", NUM_BAD, 0, "not finite" },
		{ ".inf", NUM_BAD, 0, "not finite" },
		{ "-Infinity", NUM_BAD, 0, "not finite" },
		{ "1e", NUM_BAD, 0, "not a decimal number" },
		{ "1.2.3", NUM_BAD, 0, "not a decimal number" },
		{ "1e-400", NUM_BAD, 0, "too close to zero to hold" },
		{ "1e400", NUM_RANGE, 0, NULL },
		{ "-1e400", NUM_RANGE, 0, NULL },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct real_case *c = &cases[i];
		double v = -777;
		char why[160] = "";
		enum num_status st = num_parse_real(c->text, &v, why, sizeof why);
		cr_expect_eq(st, c->st, "'%s': status %d, wanted %d (%s)", c->text, st, c->st, why);
		if (c->st == NUM_OK)
			cr_expect_eq(v, c->value, "'%s' is %.17g, wanted %.17g", c->text, v, c->value);
		if (c->why)
			cr_expect_str_eq(why, c->why, "'%s'", c->text);
	}
}

Test(num, field_parse_gives_the_reason)
{
	const struct field *count = schema_field(&switch_group_schema, "count");
	const struct field *mfu = schema_field(&job_schema, "mfu");
	struct switch_group s;
	struct job j;
	char err[320];
	schema_init(&switch_group_schema, &s);
	schema_init(&job_schema, &j);
	cr_assert_not(field_parse(count, &s, "0x10", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a whole number for 'count', got '0x10' (hexadecimal: write 16)");
	cr_assert_not(field_parse(count, &s, "007", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a whole number for 'count', got '007' (a leading zero, octal to some readers: write 7)");
	cr_assert_not(field_parse(count, &s, "1e1", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a whole number for 'count', got '1e1' (an exponent: write 10)");
	cr_assert_not(field_parse(count, &s, "four", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a whole number for 'count', got 'four'");
	cr_assert(field_parse(mfu, &j, "5e-1", false, err, sizeof err), "%s", err);
	cr_expect_eq(j.mfu, 0.5);
	cr_assert_not(field_parse(mfu, &j, "0x1p-1", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a finite decimal number for 'mfu', got '0x1p-1' (hexadecimal: write numbers in decimal)");
	cr_assert_not(field_parse(mfu, &j, "1e400", false, err, sizeof err));
	cr_expect_str_eq(err, "expected a finite decimal number for 'mfu', got '1e400'");
}

Test(text, utf8_decoding_is_strict)
{
	uint32_t cp;
	const char *why;
	cr_expect_eq(utf8_decode("\xc3\xa9", 2, &cp, &why), 2);
	cr_expect_eq(cp, 0xE9);
	cr_expect_eq(utf8_decode("\xf0\x9f\x98\x80", 4, &cp, &why), 4);
	cr_expect_eq(cp, 0x1F600);
	cr_expect_eq(utf8_decode("\xc0\x80", 2, &cp, &why), 0, "an overlong NUL");
	cr_expect_str_eq(why, "invalid length of a UTF-8 sequence");
	cr_expect_eq(utf8_decode("\xed\xa0\x80", 3, &cp, &why), 0, "a surrogate");
	cr_expect_str_eq(why, "invalid Unicode character");
	cr_expect_eq(utf8_decode("\xf4\x90\x80\x80", 4, &cp, &why), 0, "beyond U+10FFFF");
	cr_expect_eq(utf8_decode("\xff", 1, &cp, &why), 0);
	cr_expect_str_eq(why, "invalid leading UTF-8 octet");
	cr_expect_eq(utf8_decode("\xc3(", 2, &cp, &why), 0);
	cr_expect_str_eq(why, "invalid trailing UTF-8 octet");
	cr_expect_eq(utf8_decode("\xe2\x82", 2, &cp, &why), 0);
	cr_expect_str_eq(why, "incomplete UTF-8 octet sequence");
}

Test(text, names_are_plain_text)
{
	char why[160];
	cr_expect(text_check("leaf-01 Zürich", false, why, sizeof why));
	cr_expect_not(text_check("a\x1b[31mb", false, why, sizeof why));
	cr_expect_str_eq(why, "a control character (U+001B) at character 2");
	cr_expect_not(text_check("ab\xc2\x9b" "31m", false, why, sizeof why));
	cr_expect_str_eq(why, "a control character (U+009B) at character 3");
	cr_expect_not(text_check("del\x7f", false, why, sizeof why));
	cr_expect_str_eq(why, "a control character (U+007F) at character 4");
	cr_expect_not(text_check("caf\xe9", false, why, sizeof why));
	cr_expect_str_eq(why, "not valid UTF-8 (incomplete UTF-8 octet sequence 0xE9 at character 4)");
	cr_expect_not(text_check("two\nlines", false, why, sizeof why));
	cr_expect(text_check("two\nlines\tand a tab", true, why, sizeof why), "multi-line fields keep line breaks");
	cr_expect_not(text_check("cr\r", true, why, sizeof why), "but not a carriage return");
}

/* A design built in code (as a template or an edit builds one) is held to the same
 * ranges a file is: a bundle of 0 links per member never reaches a division. */
Test(invariants, design_check_refuses_what_a_file_could_not_hold)
{
	struct design d;
	struct catalog cat;
	struct ncf_diag diag = { 0 };
	struct switch_group *s;
	struct bundle *b;
	design_init(&d);
	memset(&cat, 0, sizeof cat);
	s = vec_push(&d.switches, sizeof *s);
	schema_init(&switch_group_schema, s);
	strcpy(s->name, "leaf");
	strcpy(s->model, "x");
	s->count = 3;
	b = vec_push(&d.bundles, sizeof *b);
	schema_init(&bundle_schema, b);
	strcpy(b->from, "leaf");
	strcpy(b->to, "leaf");
	b->links_each = 0;
	b->wiring = WIRE_RAIL;
	cr_assert_eq(design_check(&d, &cat, &diag), 1);
	cr_expect_str_eq(diag_get(&diag, 0)->path, "bundles[0].links_each");
	cr_expect_str_eq(diag_get(&diag, 0)->msg, "'links_each' must be from 1 to 4096, got 0");
	diag_free(&diag);
	b->links_each = 1;
	strcpy(s->name, "le\x1b[2Jaf");
	cr_assert_eq(design_check(&d, &cat, &diag), 1);
	cr_expect_str_eq(diag_get(&diag, 0)->path, "switches[0].name");
	cr_expect_str_eq(diag_get(&diag, 0)->msg, "'name' must be plain text: a control character (U+001B) at character 3");
	diag_free(&diag);
	design_free(&d);
}
