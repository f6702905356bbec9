/* Capital cost line by line (model/cost.h) and the user's price file (io/prices.h). */
#include <criterion/criterion.h>
#include <string.h>
#include "io/design_io.h"
#include "io/prices.h"
#include "model/metrics.h"
#include "model/bom.h"

#include "shipped.h"

TestSuite(cost, .init = setup, .fini = teardown);

static void load(const char *path, struct design *d, struct catalog *cat)
{
	struct ncf_diag diag = { 0 };
	cr_assert(design_load_file(path, &shipped, d, &diag), "%s", path);
	diag_free(&diag);
	design_catalog(d, &shipped, cat);
}

static bool prices(const char *text, struct price_list *p, char *msg, size_t size)
{
	struct ncf_diag diag = { 0 };
	bool ok = prices_load_text(text, strlen(text), p, &diag);
	if (!ok && diag_count(&diag)) {
		const struct ncf_problem *e = diag_get(&diag, 0);
		snprintf(msg, size, "%d:%d: %s", e->line, e->col, e->msg);
	}
	diag_free(&diag);
	return ok;
}

/* The reference case: 4 servers x 150,000 + 16 NICs x 1,000 + 1 switch x 20,000 (matched by
 * its part number MSN2700-CS2F) + 16 DAC x 100 (three lengths, 4 + 8 + 4) = 637,600; 32 GPUs:
 * 19,925 each; bisection 100 GB/s: 6,376 per GB/s. */
Test(cost, prices_add_up_line_by_line)
{
	struct design d;
	struct catalog cat;
	struct price_list p;
	struct ncf_diag diag = { 0 };
	struct bom b;
	struct cost c;
	size_t i;
	double sum = 0;
	load("share/examples/reference-case.yaml", &d, &cat);
	cr_assert(prices_load_file("tests/data/prices-reference.yaml", &p, &diag));
	bom_compute(&d, &cat, &b);
	cost_compute(&b, &cat, &p, 32, 100, 282083, &c);
	cr_assert(c.complete);
	cr_assert_eq(c.from_user, 6);
	cr_assert_eq(c.lines.n, 6);
	for (i = 0; i < c.lines.n; i++) {
		const struct cost_line *l = &VEC_AT(c.lines, struct cost_line, i);
		cr_assert_float_eq(l->total, l->unit * VEC_AT(b.lines, struct bom_line, l->line).quantity, 1e-9);
		sum += l->total;
	}
	cr_assert_float_eq(sum, 637600, 1e-6);
	cr_assert_float_eq(c.total, 637600, 1e-6);
	cr_assert_float_eq(c.by_category[BOM_SERVER], 600000, 1e-6);
	cr_assert_float_eq(c.by_category[BOM_NIC], 16000, 1e-6);
	cr_assert_float_eq(c.by_category[BOM_SWITCH], 20000, 1e-6);
	cr_assert_float_eq(c.by_category[BOM_CABLE], 1600, 1e-6);
	cr_assert_float_eq(c.per_gpu, 19925, 1e-9);
	cr_assert_float_eq(c.per_bisection_GBps, 6376, 1e-9);
	cr_assert_float_eq(c.per_token_s, 637600.0 / 282083, 1e-12);
	cr_assert_str_eq(c.currency, "USD");
	cost_free(&c);
	bom_free(&b);
	price_list_free(&p);
	catalog_free(&cat);
	design_free(&d);
}

/* Only the DGX A100 has a stated list price (199,000 USD, 2020-05-14); everything else is
 * unknown, and the total says so rather than guess. With EUR prices the catalog's USD
 * price is not used. */
Test(cost, catalog_list_prices_and_unknowns)
{
	struct design d;
	struct catalog cat;
	struct price_list p;
	struct bom b;
	struct cost c;
	char msg[400];
	load("share/examples/reference-case.yaml", &d, &cat);
	snprintf(DESIGN_SERVER(&d, 0)->model, sizeof DESIGN_SERVER(&d, 0)->model, "dgx-a100");
	bom_compute(&d, &cat, &b);
	cost_compute(&b, &cat, NULL, 32, 100, 0, &c);
	cr_assert(!c.complete);
	cr_assert_eq(c.from_catalog, 1);
	cr_assert_float_eq(c.by_category[BOM_SERVER], 4 * 199000.0, 1e-6);
	cr_assert_float_eq(c.total, 796000, 1e-6);
	cr_assert_gt(c.unknown, 0);
	cr_assert(strstr(VEC_AT(c.lines, struct cost_line, 0).source, "199,000"));
	cr_assert_str_eq(VEC_AT(c.lines, struct cost_line, 0).date, "2020-05-14");
	cost_free(&c);
	cr_assert(prices("prices:\n  - {part: sn2700, price: 18000, currency: EUR}\n", &p, msg, sizeof msg), "%s", msg);
	cost_compute(&b, &cat, &p, 32, 100, 0, &c);
	cr_assert_eq(c.from_catalog, 0);
	cr_assert_eq(c.from_user, 1);
	cr_assert_str_eq(c.currency, "EUR");
	cr_assert_float_eq(c.total, 18000, 1e-9);
	cost_free(&c);
	price_list_free(&p);
	bom_free(&b);
	catalog_free(&cat);
	design_free(&d);
}

Test(cost, price_files_are_strict)
{
	struct price_list p;
	char msg[400];
	cr_assert(prices("currency: USD\nprices: []\n", &p, msg, sizeof msg), "%s", msg);
	cr_assert_eq(p.entries.n, 0);
	price_list_free(&p);
	cr_assert(!prices("prices:\n  - part: a\n    price: 1\n    colour: red\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "4:5: unknown key 'colour' in a price (expected part, price, currency)");
	cr_assert(!prices("currency: USD\nprices:\n  - {part: a, price: 1}\n  - {part: a, price: 2}\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "4:12: part 'a' is priced twice (first at line 3 column 12)");
	cr_assert(!prices("prices:\n  - {part: a, price: 1, currency: USD}\n  - {part: b, price: 2, currency: EUR}\n", &p, msg,
			  sizeof msg));
	cr_assert_str_eq(msg, "3:35: all prices must be in one currency: EUR here, USD at line 2 column 35");
	cr_assert(!prices("currency: USD\nprices:\n  - {part: a, price: -3}\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "3:22: expected a price above 0 (up to 1e12) for 'price', got '-3'");
	cr_assert(!prices("currency: USD\nprices:\n  - {part: a, price: \"100\"}\n", &p, msg, sizeof msg));
	cr_assert(strstr(msg, "expected a price above 0"), "%s", msg);
	cr_assert(!prices("currency: USD\nprices:\n  - {part: a}\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "3:5: a price needs 'price'");
	cr_assert(!prices("prices:\n  - {part: a, price: 5}\n", &p, msg, sizeof msg));
	cr_assert(strstr(msg, "names no currency"), "%s", msg);
	cr_assert(!prices("currency: usd\nprices: []\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "1:11: expected a currency code of three capital letters (USD, EUR, ...), got 'usd'");
	cr_assert(!prices("- a\n", &p, msg, sizeof msg));
	cr_assert(strstr(msg, "expected a mapping with 'prices'"), "%s", msg);
	cr_assert(!prices("currency: USD\n", &p, msg, sizeof msg));
	cr_assert(strstr(msg, "needs 'prices'"), "%s", msg);
	cr_assert(!prices("", &p, msg, sizeof msg));
	cr_assert(!prices("prices: [a: *x]\n", &p, msg, sizeof msg));
	cr_assert(!prices("prices: {}\n", &p, msg, sizeof msg));
	cr_assert_str_eq(msg, "1:9: expected a list of prices for 'prices'");
	cr_assert(!prices("prices:\n  - 3\n", &p, msg, sizeof msg));
	cr_assert(strstr(msg, "2:5: expected a price as a mapping"), "%s", msg);
}

/* One run reports every error of a price file: a negative price, a second currency and a
 * part priced twice, each at its FILE:LINE:COL; nothing loads. */
Test(cost, price_file_errors_all_in_one_run)
{
	struct price_list p;
	struct ncf_diag diag = { 0 };
	const char *text = "currency: USD\n"
			   "prices:\n"
			   "  - {part: qm9700, price: -5}\n"
			   "  - {part: sn2700, price: 5, currency: EUR}\n"
			   "  - {part: connectx-7-ndr, price: 7}\n"
			   "  - {part: connectx-7-ndr, price: 8}\n";
	cr_assert_not(prices_load_text(text, strlen(text), &p, &diag));
	cr_assert_eq(diag_count(&diag), 3);
	cr_expect_str_eq(diag_get(&diag, 0)->msg, "expected a price above 0 (up to 1e12) for 'price', got '-5'");
	cr_expect_eq(diag_get(&diag, 0)->line, 3);
	cr_expect_str_eq(diag_get(&diag, 1)->msg, "all prices must be in one currency: EUR here, USD at line 1 column 11");
	cr_expect_eq(diag_get(&diag, 1)->line, 4);
	cr_expect_str_eq(diag_get(&diag, 2)->msg, "part 'connectx-7-ndr' is priced twice (first at line 5 column 12)");
	cr_expect_eq(diag_get(&diag, 2)->line, 6);
	cr_expect_eq(diag_get(&diag, 2)->col, 12);
	cr_expect_eq(p.entries.n, 0, "a price file never loads half");
	diag_free(&diag);
}

/* A price whose part nothing is called is a warning at its position, with the nearest
 * name; catalog names and part numbers, and the design's BOM lines, are known. */
Test(cost, unknown_part_in_a_price_file_is_a_warning)
{
	struct design d;
	struct catalog cat;
	struct bom b;
	struct price_list p;
	struct ncf_diag w = { 0 };
	char msg[400];
	load("share/examples/reference-case.yaml", &d, &cat);
	bom_compute(&d, &cat, &b);
	cr_assert(prices("currency: USD\nprices:\n  - {part: sn27000, price: 5}\n  - {part: MSN2700-CS2F, price: 5}\n"
			 "  - {part: qm9700, price: 5}\n  - {part: dac-100g-qsfp28, price: 5}\n  - {part: zzqqxx, price: 1}\n",
			 &p, msg, sizeof msg), "%s", msg);
	prices_check_parts(&p, &cat, &b, &w);
	cr_assert_eq(diag_count(&w), 2, "qm9700 is a catalog part even if this design has none");
	cr_expect_eq(diag_get(&w, 0)->sev, NCF_WARNING);
	cr_expect_eq(diag_get(&w, 0)->line, 3);
	cr_expect_eq(diag_get(&w, 0)->col, 12);
	cr_expect_str_eq(diag_get(&w, 0)->msg, "part 'sn27000' is neither a catalog part nor a line of this design's BOM: its "
						"price is not used (did you mean 'sn2700'?)");
	cr_expect_eq(diag_get(&w, 1)->line, 7);
	cr_expect_str_eq(diag_get(&w, 1)->msg, "part 'zzqqxx' is neither a catalog part nor a line of this design's BOM: its "
						"price is not used");
	diag_free(&w);
	price_list_free(&p);
	bom_free(&b);
	catalog_free(&cat);
	design_free(&d);
}
