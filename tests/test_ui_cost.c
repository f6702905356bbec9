/* The designer's cost, failures and optimisation: the panel's cost and power with their
 * change after every edit (hand-computed from tests/data/prices-reference.yaml), unknown
 * prices said as unknown, f taking the selected part down through :fail's path and u
 * bringing it back, :prices, and :optimize with its question and its undo. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "screens.h"
#include "ui/app.h"

TestSuite(cost_ui, .init = setup, .fini = teardown);

/* The panel's frame and lines of a screen: the cost is on the top edge at 80x24. */
static void has(const char *t, const char *want)
{
	cr_assert(strstr(t, want), "no '%s' on screen:\n%s", want, t);
}

/* Prices of the reference case: 4 x 150,000 (hgx-a100-8gpu) + 16 x 1,000 (connectx-5) +
 * 1 x 20,000 (MSN2700-CS2F) + 16 x 100 (dac-100g-qsfp28) = 637,600 USD. Power: the servers'
 * maximum 4 x 6.5 kW = 26.0 kW; the SN2700 publishes none, so ">=". */
Test(cost_ui, unknown_prices_are_unknown_then_priced)
{
	char *t;
	open_app(NULL);
	t = screen("", 80, 24);
	has(t, "cost unknown (6 of 6 parts unpriced), >=26.0 kW max");
	free(t);
	t = screen(":prices tests/data/prices-reference.yaml", 80, 24);
	has(t, "cost 637,600 USD, >=26.0 kW max ");
	cr_assert_null(strstr(t, "(+"), "new prices are not an edit of the design:\n%s", t);
	has(t, "prices: tests/data/prices-reference.yaml, then the catalog's;");
	free(t);
	app_free(&app);
}

/* One more server: + 150,000 + 4 NICs x 1,000 + 4 DACs x 100 = +154,400 (792,000) and
 * + 6.5 kW; undo gives the change back with the other sign; moving the selection keeps it. */
Test(cost_ui, every_edit_shows_its_change)
{
	char *t;
	open_app(NULL);
	free(screen(":prices tests/data/prices-reference.yaml", 80, 24));
	t = screen("+", 80, 24);
	has(t, "cost 792,000 USD (+154,400), >=32.5 kW max (+6.5)");
	golden("cost-80x24", t);
	free(t);
	t = screen("b\nb", 80, 24);
	has(t, "cost 792,000 USD (+154,400)");
	free(t);
	t = screen("u", 80, 24);
	has(t, "cost 637,600 USD (-154,400), >=26.0 kW max (-6.5)");
	free(t);
	app_free(&app);
}

/* :set count 8 on the server group: the far servers' links are optics (8 + 8 SR4
 * transceivers and 8 MPO fibres, `ncfabric report` lists them), which the price file does
 * not name, so the cost is unknown (not a partial sum) and says it was known; the power
 * still adds up: 8 x 6.5 = 52.0 kW. */
Test(cost_ui, a_part_without_a_price_makes_the_cost_unknown)
{
	char *t;
	open_app(NULL);
	free(screen(":prices tests/data/prices-reference.yaml", 80, 24));
	t = screen(":set count 8\nz", 80, 24);
	has(t, "cost unknown (3 of 10 parts unpriced; was known), >=52.0 kW max (+26.0)");
	free(t);
	app_free(&app);
}

/* f on the server group: one NIC per server down (as :fail nic:a100), the panel shows the
 * degraded design (3 NICs, 37.5 GB/s) at its as-built cost; u brings the intact one back. */
Test(cost_ui, f_fails_the_selected_part_and_u_undoes_it)
{
	char *t;
	open_app(NULL);
	free(screen(":prices tests/data/prices-reference.yaml", 80, 24));
	t = screen(":select a100\nf", 80, 24);
	has(t, "nic:a100 down (job-fails)");
	has(t, "network 37.5 GB/s per node (3 x 100G)");
	has(t, "cost 637,600 USD as built");
	free(t);
	t = screen("u", 80, 24);
	has(t, "network 50.0 GB/s per node (4 x 100G)");
	has(t, "cost 637,600 USD, ");
	free(t);
	t = screen(":select tor\nf", 80, 24);
	has(t, "switch:tor down");
	free(t);
	t = screen("u\n:select a100->tor\nf", 80, 24);
	has(t, "link:a100->tor down");
	free(t);
	t = screen("u\n:messages", 80, 24);
	has(t, "undone");
	free(t);
	cr_assert(!app_dirty(&app), "every failure undone: the design is as loaded");
	app_free(&app);
}

Test(cost_ui, a_bad_price_file_changes_nothing)
{
	char path[] = "/tmp/ncf-prices-XXXXXX", *t;
	int fd = mkstemp(path);
	FILE *f;
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs("currency: USD\nprices:\n  - part: hgx-a100-8gpu\n    price: -3\n", f);
	fclose(f);
	open_app(NULL);
	free(screen(":prices tests/data/prices-reference.yaml", 80, 24));
	{
		char cmd[100];
		snprintf(cmd, sizeof cmd, ":prices %s", path);
		t = screen(cmd, 80, 24);
	}
	has(t, path);
	has(t, ":4:");
	has(t, "cost 637,600 USD");
	free(t);
	unlink(path);
	app_free(&app);
}

/* :optimize on the reference case: the NICs (2, 4, 8 per server), the ToR's model (the
 * catalog's Ethernet switches at 100G) and routing. With prices for the SN2700 only, the
 * priced candidates are the three NIC counts: 2 NICs 628,800 (-8 NICs -8 DACs), 4 NICs
 * 637,600, 8 NICs 655,200 (+16 x 1,000 + 16 x 100). 90% efficiency needs 8 NICs. */
Test(cost_ui, optimize_offers_the_cheapest_and_y_applies_it)
{
	char *t;
	open_app(NULL);
	free(screen(":prices tests/data/prices-reference.yaml", 80, 24));
	t = screen(":optimize efficiency=50%", 80, 24);
	has(t, "optimize: the design as it is is the cheapest that reaches 50.0%");
	free(t);
	t = screen(":optimize efficiency=0.9", 80, 24);
	cr_assert_eq(app.mode, MODE_CONFIRM, "%s", t);
	has(t, "655,200 USD");
	has(t, "a100.nics=8");
	free(t);
	t = screen("y", 80, 24);
	has(t, "applied a100.nics=8 (u undoes it)");
	has(t, "cost 655,200 USD (+17,600)");
	has(t, "network 100.0 GB/s per node (8 x 100G)");
	free(t);
	t = screen(":messages", 80, 24);
	has(t, "628,800 USD  47.0%  a100.nics=2");
	has(t, "655,200 USD  99.3% meets  a100.nics=8");
	free(t);
	t = screen("<Esc>\nu", 80, 24);
	has(t, "network 50.0 GB/s per node (4 x 100G)");
	free(t);
	t = screen(":optimize efficiency=0.9\nn", 80, 24);
	has(t, "kept the design");
	cr_assert(!app_dirty(&app));
	free(t);
	t = screen(":optimize efficiency=0.9 budget=650000", 80, 24);
	has(t, "none of 18 candidates reaches 90.0% within the budget");
	free(t);
	app_free(&app);
}

Test(cost_ui, optimize_says_what_it_cannot_do)
{
	char *t;
	open_app(NULL);
	t = screen(":optimize efficiency=0.5", 80, 24);
	has(t, "no candidate has a known cost: no price for");
	free(t);
	t = screen(":optimize speed=3", 80, 24);
	has(t, ":optimize target: unknown metric 'speed'");
	free(t);
	t = screen(":optimize busbw=40 tor.colour=red", 80, 24);
	has(t, "no axis 'tor.colour'");
	free(t);
	t = screen(":optimize busbw=40 a100.nics=0", 80, 24);
	has(t, "a100.nics: expected whole numbers from 1 to 4096");
	free(t);
	cr_assert(!app_dirty(&app));
	app_free(&app);
}
