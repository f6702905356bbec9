/* main.c: the command line. Every subcommand calls the same model functions the
 * interactive designer does, so a number on screen and in a report cannot disagree.
 *
 * One option syntax for all of it, getopt_long's: long options as --name VALUE or
 * --name=VALUE, short ones as -x VALUE or -xVALUE and combined (-jS), "--" ends the options,
 * and "-" is standard input for a file to read and standard output for one to write. The
 * subcommands and their options are one table (subcommands[] below): it dispatches, prints
 * each command's --help, and generates the bash completion (--completion bash). */
#include "io/design_io.h"
#include "model/schema.h"
#include "io/diff.h"
#include "io/report.h"
#include "io/failreport.h"
#include "io/costreport.h"
#include "io/prices.h"
#include "model/alloc.h"
#include "io/safetext.h"
#include "io/codec.h"
#include "io/units.h"
#include "io/export.h"
#include "io/nccltests.h"
#include "layouts/template.h"
#include "layouts/optimize.h"
#include "io/optreport.h"
#include "model/num.h"
#include "ui/app.h"
#include "ui/cellbuf.h"
#include "ui/term.h"
#include "ui/script.h"
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERSION "0.1.0"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Options every subcommand takes besides its own (long-only values above 255). */
enum { OPT_CATALOG = 256, OPT_SET, OPT_ASCII, OPT_NO_COLOR, OPT_NO_MOUSE, OPT_SCRIPT, OPT_DUMP, OPT_SCREEN, OPT_COMPLETION,
       OPT_VERSION, OPT_VARY, OPT_JOB, OPT_TARGET, OPT_BUDGET, OPT_PRICES };
#define COMMON_LONG { "help", no_argument, NULL, 'h' }, { "catalog", required_argument, NULL, OPT_CATALOG }

struct ctx {
	const char *argv0;
	const char *catalog_file;
	struct catalog shipped;
	char catalog_source[1024];
};

static int usage_error(const char *fmt, ...) NCF_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	char msg[1200];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Arguments are printed back: filtered, as every message is (io/safetext.h). */
	safe_eprintf(stderr, "ncfabric: %s\n", msg);
	fputs("(ncfabric --help shows the usage; ncfabric COMMAND --help a command's)\n", stderr);
	return EXIT_USAGE;
}

/* Write text (which this frees) to out atomically, or to standard output for NULL or "-". */
static int emit(const char *out, char *text)
{
	char err[600];
	int rc = EXIT_OK;
	if (out && strcmp(out, "-") != 0) {
		if (!file_write_atomic(out, text, strlen(text), err, sizeof err)) {
			safe_eprintf(stderr, "ncfabric: %s\n", err);
			rc = EXIT_FAIL;
		}
	} else {
		fputs(text, stdout);
		if (fflush(stdout) != 0)
			rc = EXIT_FAIL;
	}
	free(text);
	return rc;
}

/* An output (-o) that would replace a file this command reads is refused: an export,
 * a table or a log is never written over the design, the catalog or the log it came from
 * (file.h, file_output_ok: same device and inode, so links count; a file with several
 * names is refused too). fmt: the export format, or NULL. */
static int output_guard(const char *cmd, const char *fmt, const char *out, const struct file_input *in, size_t n)
{
	char err[2400];
	if (fmt ? export_output_ok(fmt, out, in, n, err, sizeof err) : file_output_ok(out, in, n, err, sizeof err))
		return EXIT_OK;
	safe_eprintf(stderr, "ncfabric: %s: %s\n", cmd, err);
	return EXIT_FAIL;
}

static int load_catalog(struct ctx *x)
{
	struct ncf_diag diag = { 0 };
	bool ok;
	if (x->catalog_file) {
		snprintf(x->catalog_source, sizeof x->catalog_source, "%s", x->catalog_file);
		ok = catalog_load_file(x->catalog_file, &x->shipped, &diag);
	} else {
		ok = catalog_load_shipped(x->argv0, &x->shipped, x->catalog_source, sizeof x->catalog_source, &diag);
	}
	if (!ok)
		diag_print(stderr, x->catalog_source, &diag, false);
	diag_free(&diag);
	return ok ? EXIT_OK : EXIT_USAGE;
}

/* Load FILE, or the built-in default when file is NULL. Errors are printed; the
 * design's warnings (with their file positions) are handed back in warnings if wanted. */
static int load_design(struct ctx *x, const char *file, struct design *d, struct ncf_diag *warnings)
{
	struct ncf_diag diag = { 0 };
	bool ok = file ? design_load_file(file, &x->shipped, d, &diag) : design_load_default(&x->shipped, d, &diag);
	if (!ok)
		diag_print(stderr, file ? file : "(built-in default)", &diag, false);
	if (ok && warnings)
		*warnings = diag;
	else
		diag_free(&diag);
	return ok ? EXIT_OK : EXIT_USAGE;
}


/* ---- the command table -------------------------------------------------------------------- */

struct subcommand {
	const char *name;
	const char *args;     /* after the name, for the usage line */
	const char *help;     /* what it does */
	const char *shorts;   /* getopt_long's short options (options may come after the operands) */
	const struct option *longs;
	const char *opthelp;  /* the lines of its --help after the usage */
	const char *operands; /* what bash completes: "design", "design log", "design design", "" */
	int (*run)(struct ctx *x, int argc, char **argv);
	const char *notes;    /* lines after the options (operands, exit status), or NULL */
};

static const struct subcommand *find_subcommand(const char *name);
static int sub_usage(const struct subcommand *c, FILE *out);

/* What getopt_long found wrong, said our way: "ncfabric report: --size needs a value". */
static int option_error(const char *cmd, const char *shorts, const struct option *longs, int argc, char **argv)
{
	const char *bad = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const char *where = cmd ? cmd : "", *sp = cmd ? ": " : "";
	if (!strncmp(bad, "--", 2)) {
		const struct option *o;
		size_t n = strcspn(bad + 2, "=");
		for (o = longs; o->name; o++)
			if (strlen(o->name) == n && !strncmp(o->name, bad + 2, n))
				return usage_error("%s%s--%s %s", where, sp, o->name,
						   o->has_arg == required_argument ? "needs a value" : "takes no value");
		return usage_error("%s%sunknown option '%.*s'", where, sp, (int)(n + 2), bad);
	}
	if (optopt && optopt < 256 && strchr(shorts, optopt) && strchr(shorts, optopt)[1] == ':')
		return usage_error("%s%s-%c needs a value", where, sp, optopt);
	if (optopt && optopt < 256)
		return usage_error("%s%sunknown option -%c%s%s%s", where, sp, optopt, bad[0] ? " (in '" : "", bad, bad[0] ? "')" : "");
	return usage_error("%s%sunknown option '%s'", where, sp, bad);
}

/* getopt_long over a subcommand's own arguments (argv[0] is its name). Returns the option,
 * -1 at the end, or EXIT_USAGE + 1000 after saying what was wrong. */
static int next_option(const struct subcommand *c, int argc, char **argv, struct ctx *x)
{
	int ch;
	for (;;) {
		optopt = 0;
		ch = getopt_long(argc, argv, c->shorts, c->longs, NULL);
		if (ch == OPT_CATALOG) {
			x->catalog_file = optarg;
			continue;
		}
		if (ch == '?' || ch == ':') {
			option_error(c->name, c->shorts, c->longs, argc, argv);
			return EXIT_USAGE + 1000;
		}
		return ch;
	}
}

/* The one FILE a command takes after its options (NULL: none given); more is bad usage. */
static int one_operand(const char *cmd, int argc, char **argv, const char **file)
{
	*file = optind < argc ? argv[optind++] : NULL;
	if (optind < argc)
		return usage_error("%s: one design at a time ('%s' is extra)", cmd, argv[optind]);
	return EXIT_OK;
}

/* --gpus N through the one number parser (model/num.h): 08 and 0x8 say why they are refused. */
static bool gpus_option(const char *cmd, const char *text, long *gpus)
{
	char err[200];
	if (parse_gpus(text, gpus, err, sizeof err))
		return true;
	usage_error("%s --gpus: %s", cmd, err);
	return false;
}

/* ---- report ---------------------------------------------------------------------------------- */

static const struct option report_longs[] = {
	COMMON_LONG, { "json", no_argument, NULL, 'j' }, { "size", required_argument, NULL, 's' },
	{ "gpus", required_argument, NULL, 'g' }, { "sweep", no_argument, NULL, 'S' },
	{ "fail", required_argument, NULL, 'F' }, { "prices", required_argument, NULL, 'P' }, { NULL, 0, NULL, 0 },
};

/* --prices FILE into p (errors printed as FILE:LINE:COL); EXIT_OK or EXIT_USAGE. */
static int load_prices(const char *file, struct price_list *p)
{
	struct ncf_diag diag = { 0 };
	bool ok = prices_load_file(file, p, &diag);
	if (!ok)
		diag_print(stderr, file, &diag, false);
	diag_free(&diag);
	return ok ? EXIT_OK : EXIT_USAGE;
}

static const char *shown_name(const char *file)
{
	return file ? (strcmp(file, "-") ? file : "(standard input)") : "(built-in default)";
}

static int cmd_report(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("report");
	const char *file = NULL;
	bool json = false, sweep = false;
	double size = 1024.0 * 1024 * 1024;
	long gpus = 0;
	char err[200];
	struct design d;
	struct catalog cat;
	struct inventory inv;
	struct ncf_diag problems = { 0 };
	static struct metrics met;
	struct report_in r;
	struct fail_spec fspec;
	static struct fail_outcome fout;
	struct fail_point fbefore;
	bool fail = false;
	const char *prices_file = NULL;
	struct price_list prices;
	struct bom bom;
	struct cost cost;
	int ch, rc;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 'j':
			json = true;
			break;
		case 'S':
			sweep = true;
			break;
		case 'F':
			if (!fail_parse(optarg, &fspec, err, sizeof err))
				return usage_error("report --fail: %s", err);
			fail = true;
			break;
		case 'P':
			prices_file = optarg;
			break;
		case 's':
			if (!parse_size(optarg, &size, err, sizeof err))
				return usage_error("report --size: %s", err);
			break;
		case 'g':
			if (!gpus_option("report", optarg, &gpus))
				return EXIT_USAGE;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if ((rc = one_operand("report", argc, argv, &file)) != EXIT_OK)
		return rc;
	price_list_init(&prices);
	if (prices_file && (rc = load_prices(prices_file, &prices)) != EXIT_OK)
		return rc;
	if ((rc = load_catalog(x)) != EXIT_OK) {
		price_list_free(&prices);
		return rc;
	}
	if ((rc = load_design(x, file, &d, &problems)) != EXIT_OK) {
		price_list_free(&prices);
		return rc;
	}
	design_catalog_take(&d, &x->shipped, &cat);
	inventory_and_bom(&d, &cat, &inv, &bom); /* one walk of the cable plan for both */
	metrics_compute(&d, &cat, size, (int)gpus, &met);
	if (met.work.job_error) {
		/* The job's degrees do not fit these GPUs (another --gpus): a design error. */
		struct ncf_diag bad = { 0 };
		workload_problems(&met.work, &bad);
		diag_print(stderr, file ? (strcmp(file, "-") ? file : "(standard input)") : "(built-in default)", &bad, false);
		diag_free(&bad);
		bom_free(&bom);
		inventory_free(&inv);
		diag_free(&problems);
		catalog_free(&cat);
		design_free(&d);
		price_list_free(&prices);
		return EXIT_USAGE;
	}
	workload_problems(&met.work, &problems);
	memset(&r, 0, sizeof r);
	if (fail) {
		char name[160];
		fail_point_from(&met, d.job.algo, &fbefore);
		fail_evaluate(&d, &cat, &fspec, size, (int)gpus, &fbefore, &fout);
		if (!fout.ok) {
			safe_eprintf(stderr, "ncfabric: %s: --fail %s: %s\n", shown_name(file),
				     fail_name(&fspec, name, sizeof name), fout.why);
			price_list_free(&prices);
			bom_free(&bom);
			inventory_free(&inv);
			diag_free(&problems);
			catalog_free(&cat);
			design_free(&d);
			return EXIT_USAGE;
		}
		r.fail_before = &fbefore;
		r.failure = &fout;
	}
	if (prices_file) {
		/* A price whose part nothing here is called: a typo, said with the nearest name. */
		struct ncf_diag w = { 0 };
		prices_check_parts(&prices, &cat, &bom, &w);
		diag_print(stderr, prices_file, &w, true);
		diag_free(&w);
	}
	cost_compute(&bom, &cat, &prices, inv.gpus, met.fabric.bisection_GBps, met.work.valid ? met.work.tokens_per_s : 0,
		     &cost);
	r.bom = &bom;
	r.cost = &cost;
	r.prices_file = prices_file;
	r.design = &d;
	r.catalog = &cat;
	r.catalog_source = x->catalog_source;
	r.file = file ? (strcmp(file, "-") ? file : "(standard input)") : "(built-in default)";
	r.inv = &inv;
	r.problems = &problems;
	r.metrics = &met;
	r.sweep = sweep;
	if (json) {
		char *s;
		json_trees_to_exit(true); /* the process ends after it */
		s = report_json(&r);
		if (s)
			fputs(s, stdout);
		else
			rc = EXIT_FAIL;
		free(s);
	} else if (fail) {
		failure_text(stdout, r.file, &d, &fbefore, &fout);
	} else {
		report_text(stdout, &r);
	}
	cost_free(&cost);
	bom_free(&bom);
	price_list_free(&prices);
	inventory_free(&inv);
	diag_free(&problems);
	catalog_free(&cat);
	design_free(&d);
	if (fflush(stdout) != 0)
		rc = EXIT_FAIL;
	return rc;
}

/* ---- failures (N-1) ---------------------------------------------------------------------------- */

static const struct option failures_longs[] = {
	COMMON_LONG, { "json", no_argument, NULL, 'j' }, { "size", required_argument, NULL, 's' },
	{ "gpus", required_argument, NULL, 'g' }, { NULL, 0, NULL, 0 },
};

static int cmd_failures(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("failures");
	const char *file = NULL;
	bool json = false;
	double size = 1024.0 * 1024 * 1024;
	long gpus = 0;
	char err[200];
	struct design d;
	struct catalog cat;
	struct metrics *met;
	struct fail_point before;
	struct fail_spec *specs;
	struct fail_outcome *out;
	int ch, rc, n, i;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 'j':
			json = true;
			break;
		case 's':
			if (!parse_size(optarg, &size, err, sizeof err))
				return usage_error("failures --size: %s", err);
			break;
		case 'g':
			if (!gpus_option("failures", optarg, &gpus))
				return EXIT_USAGE;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if ((rc = one_operand("failures", argc, argv, &file)) != EXIT_OK)
		return rc;
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	if ((rc = load_design(x, file, &d, NULL)) != EXIT_OK)
		return rc;
	design_catalog_take(&d, &x->shipped, &cat);
	met = xmalloc(sizeof *met);
	metrics_compute(&d, &cat, size, (int)gpus, met);
	if (met->work.job_error) {
		struct ncf_diag bad = { 0 };
		workload_problems(&met->work, &bad);
		diag_print(stderr, shown_name(file), &bad, false);
		diag_free(&bad);
		free(met);
		catalog_free(&cat);
		design_free(&d);
		return EXIT_USAGE;
	}
	fail_point_from(met, d.job.algo, &before);
	free(met);
	n = fail_enumerate(&d, &cat, NULL, 0);
	specs = xcalloc((size_t)(n > 0 ? n : 1), sizeof *specs);
	out = xcalloc((size_t)(n > 0 ? n : 1), sizeof *out);
	fail_enumerate(&d, &cat, specs, n);
	for (i = 0; i < n; i++)
		fail_evaluate(&d, &cat, &specs[i], size, (int)gpus, &before, &out[i]);
	fail_rank(out, n);
	rc = EXIT_OK;
	if (json) {
		char *s = failures_json(shown_name(file), &d, &before, out, n);
		if (s)
			fputs(s, stdout);
		else
			rc = EXIT_FAIL;
		free(s);
	} else {
		failures_text(stdout, shown_name(file), &d, &before, out, n);
	}
	free(specs);
	free(out);
	catalog_free(&cat);
	design_free(&d);
	if (fflush(stdout) != 0)
		rc = EXIT_FAIL;
	return rc;
}

/* ---- export ---------------------------------------------------------------------------------- */

static const struct option export_longs[] = {
	COMMON_LONG, { "format", required_argument, NULL, 'f' }, { "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_export(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("export");
	const char *file = NULL, *fmt = NULL, *out = NULL;
	struct design d;
	struct catalog cat;
	char *text, err[600];
	int ch, rc;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 'f':
			fmt = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if ((rc = one_operand("export", argc, argv, &file)) != EXIT_OK)
		return rc;
	if (!file)
		return usage_error("export: which design? (ncfabric export FILE --format FMT; - reads standard input)");
	if (!fmt)
		return usage_error("export: --format is required (yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim or netbox)");
	if (!export_known(fmt))
		return usage_error("export: unknown format '%s' (expected yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim or netbox)",
				   fmt);
	if (export_multi_file(fmt) && (!out || strcmp(out, "-") == 0))
		return usage_error("export: %s writes several files: give -o %s", fmt,
				   strcmp(fmt, "netbox") == 0 ? "DIRECTORY" : "PREFIX");
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	{
		const struct file_input in[] = { { file, "the design being exported" }, { x->catalog_source, "the catalog" } };
		if (out && (rc = output_guard("export", fmt, out, in, 2)) != EXIT_OK)
			return rc;
	}
	if ((rc = load_design(x, file, &d, NULL)) != EXIT_OK)
		return rc;
	design_catalog_take(&d, &x->shipped, &cat);
	if (export_multi_file(fmt)) {
		if (!export_files(&d, &cat, fmt, out, err, sizeof err)) {
			safe_eprintf(stderr, "ncfabric: export %s: %s\n", fmt, err);
			rc = EXIT_FAIL;
		}
		catalog_free(&cat);
		design_free(&d);
		return rc;
	}
	text = export_text(&d, &cat, fmt, err, sizeof err);
	catalog_free(&cat);
	design_free(&d);
	if (!text) {
		safe_eprintf(stderr, "ncfabric: export %s: %s\n", fmt, err);
		return EXIT_FAIL;
	}
	return emit(out, text);
}

/* ---- expect and compare -------------------------------------------------------------------------- */

static const struct option nt_longs[] = {
	COMMON_LONG, { "collective", required_argument, NULL, 'c' }, { "gpus", required_argument, NULL, 'g' },
	{ "output", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 },
};

/* Options shared by expect and compare: --collective C, --gpus N, -o OUT; then the files. */
static int nt_options(const struct subcommand *me, struct ctx *x, int argc, char **argv, int *coll, long *gpus,
		      const char **out, const char **files, int nfiles)
{
	int ch, got = 0;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			sub_usage(me, stdout);
			return -1;
		case 'c':
			*coll = nt_coll_from_name(optarg);
			if (*coll < 0)
				return usage_error("%s: unknown collective '%s' (expected allreduce, allgather, reducescatter, alltoall, sendrecv, broadcast or reduce)",
						   me->name, optarg);
			break;
		case 'g':
			if (!gpus_option(me->name, optarg, gpus))
				return EXIT_USAGE;
			break;
		case 'o':
			*out = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	while (optind < argc) {
		if (got == nfiles)
			return usage_error("%s: '%s' is extra", me->name, argv[optind]);
		files[got++] = argv[optind++];
	}
	if (got < nfiles)
		return usage_error("%s: expected %s", me->name, nfiles == 1 ? "a design FILE" : "a design FILE and an nccl-tests LOG");
	if (nfiles == 2 && !strcmp(files[0], "-") && !strcmp(files[1], "-"))
		return usage_error("%s: the design and the log cannot both come from standard input", me->name);
	return EXIT_OK;
}

/* Standard output, or the file -o names (written whole at the end, atomically). */
static FILE *out_open(const char *out, char **buf, size_t *len)
{
	if (!out || !strcmp(out, "-"))
		return stdout;
	return open_memstream(buf, len);
}

static int out_close(const char *out, FILE *f, char **buf)
{
	if (f == stdout)
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
	if (fclose(f) != 0 || !*buf) {
		free(*buf);
		safe_eprintf(stderr, "ncfabric: %s: out of memory\n", out);
		return EXIT_FAIL;
	}
	return emit(out, *buf); /* fclose set *buf */
}

static int cmd_expect(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("expect");
	const char *files[1], *out = NULL;
	int coll = COLL_ALLREDUCE, rc;
	long gpus = 0;
	struct design d;
	struct catalog cat;
	static struct metrics m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	if ((rc = nt_options(me, x, argc, argv, &coll, &gpus, &out, files, 1)) != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (coll >= PATTERNS) {
		safe_eprintf(stderr, "ncfabric: %s_perf is not modelled yet (ncfabric models all_reduce, all_gather, reduce_scatter, alltoall and sendrecv)\n",
			nt_test_name(coll));
		return EXIT_USAGE;
	}
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	{
		const struct file_input in[] = { { files[0], "the design" }, { x->catalog_source, "the catalog" } };
		if ((rc = output_guard("expect", NULL, out, in, 2)) != EXIT_OK)
			return rc;
	}
	if ((rc = load_design(x, files[0], &d, NULL)) != EXIT_OK)
		return rc;
	design_catalog_take(&d, &x->shipped, &cat);
	metrics_compute(&d, &cat, 1024.0 * 1024 * 1024, (int)gpus, &m);
	f = out_open(out, &buf, &len);
	nt_expect(f, &m, d.name, (enum coll)coll, d.job.algo);
	catalog_free(&cat);
	design_free(&d);
	return out_close(out, f, &buf);
}

static int cmd_compare(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("compare");
	const char *files[2], *out = NULL;
	int coll = -1, rc, low;
	long gpus = 0;
	struct design d;
	struct catalog cat;
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	static struct metrics m;
	char err[256], *buf, *obuf = NULL;
	size_t len, olen = 0;
	FILE *f;
	if ((rc = nt_options(me, x, argc, argv, &coll, &gpus, &out, files, 2)) != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	{
		const struct file_input in[] = { { files[0], "the design" }, { files[1], "the nccl-tests log" },
						 { x->catalog_source, "the catalog" } };
		if ((rc = output_guard("compare", NULL, out, in, 3)) != EXIT_OK)
			return rc;
	}
	buf = file_read_as(files[1], "an nccl-tests log", &len, err, sizeof err);
	if (!buf) {
		safe_eprintf(stderr, "ncfabric: %s: %s\n", files[1], err);
		return EXIT_USAGE;
	}
	if (!nt_parse(buf, len, &log, &diag)) {
		diag_print(stderr, files[1], &diag, false);
		diag_free(&diag);
		free(buf);
		return EXIT_USAGE;
	}
	free(buf);
	if (coll < 0)
		coll = log.coll;
	if (coll < 0) {
		if (log.coll_columns == NT_AMBIGUOUS)
			safe_eprintf(stderr, "ncfabric: %s: all_gather_perf or alltoall_perf (their columns are alike, and the log does not name its test): give --collective\n",
				files[1]);
		else
			safe_eprintf(stderr, "ncfabric: %s: the log does not say which test wrote it, nor do its columns: give --collective\n",
				files[1]);
		nt_log_free(&log);
		return EXIT_USAGE;
	}
	if (coll >= PATTERNS) {
		safe_eprintf(stderr, "ncfabric: %s: %s_perf is not modelled yet (ncfabric models all_reduce, all_gather, reduce_scatter, alltoall and sendrecv): nothing comparable\n",
			files[1], nt_test_name(coll));
		nt_log_free(&log);
		return EXIT_USAGE;
	}
	if ((rc = load_design(x, files[0], &d, NULL)) != EXIT_OK) {
		nt_log_free(&log);
		return rc;
	}
	if (!gpus)
		gpus = log.ranks ? log.ranks : log.ranks_columns;
	design_catalog_take(&d, &x->shipped, &cat);
	metrics_compute(&d, &cat, 1024.0 * 1024 * 1024, (int)gpus, &m);
	f = out_open(out, &obuf, &olen);
	low = nt_compare(f, &m, &d, &log, (enum coll)coll, strcmp(files[1], "-") ? files[1] : "(standard input)");
	nt_log_free(&log);
	catalog_free(&cat);
	design_free(&d);
	rc = out_close(out, f, &obuf);
	if (low < 0) {
		safe_eprintf(stderr, "ncfabric: %s: nothing comparable\n", files[1]);
		return EXIT_USAGE;
	}
	return rc;
}

/* ---- diff ---------------------------------------------------------------------------------- */

static const struct option diff_longs[] = {
	COMMON_LONG, { "json", no_argument, NULL, 'j' }, { "size", required_argument, NULL, 's' },
	{ "prices", required_argument, NULL, 'P' }, { NULL, 0, NULL, 0 },
};

/* The value of headline `key` among n, 0 when absent or unknown. */
static double headline_get(const struct headline *h, int n, const char *key)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(h[i].key, key))
			return h[i].known ? h[i].value : 0;
	return 0;
}

/* diff A B: exit 0 when the designs are the same, 1 when they differ, 2 on trouble. */
static int cmd_diff(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("diff");
	const char *files[2] = { NULL, NULL };
	bool json = false;
	double size = 1024.0 * 1024 * 1024;
	char err[200];
	struct design d[2];
	struct catalog cat;
	struct headline h[2][HEADLINES_MAX];
	struct vec changes = { 0 };
	struct diff_in in;
	const char *prices_file = NULL;
	struct price_list prices;
	struct cost cost[2];
	struct ncf_diag unpriced[2];
	int i, n = 0, nfiles = 0, rc, ch;
	memset(unpriced, 0, sizeof unpriced);
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 'j':
			json = true;
			break;
		case 's':
			if (!parse_size(optarg, &size, err, sizeof err))
				return usage_error("diff --size: %s", err);
			break;
		case 'P':
			prices_file = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++) {
		if (nfiles == 2)
			return usage_error("diff: two designs ('%s' is extra)", argv[optind]);
		files[nfiles++] = argv[optind];
	}
	if (nfiles != 2)
		return usage_error("diff needs two designs: ncfabric diff A B");
	if (!strcmp(files[0], "-") && !strcmp(files[1], "-"))
		return usage_error("diff: A and B cannot both come from standard input");
	price_list_init(&prices);
	if (prices_file && (rc = load_prices(prices_file, &prices)) != EXIT_OK)
		return rc;
	if ((rc = load_catalog(x)) != EXIT_OK || (rc = load_design(x, files[0], &d[0], NULL)) != EXIT_OK) {
		price_list_free(&prices);
		return rc;
	}
	if ((rc = load_design(x, files[1], &d[1], NULL)) != EXIT_OK) {
		design_free(&d[0]);
		price_list_free(&prices);
		return rc;
	}
	for (i = 0; i < 2; i++) {
		struct bom bom;
		design_catalog(&d[i], &x->shipped, &cat);
		n = headlines_of(&d[i], &cat, size, h[i], HEADLINES_MAX);
		bom_compute(&d[i], &cat, &bom);
		if (prices_file)
			prices_check_parts(&prices, &cat, &bom, &unpriced[i]);
		cost_compute(&bom, &cat, &prices, (long)headline_get(h[i], n, "gpus"), headline_get(h[i], n, "bisection"),
			     headline_get(h[i], n, "tokens_per_s"), &cost[i]);
		n += cost_headlines(&cost[i], &bom, h[i] + n, HEADLINES_MAX - n);
		bom_free(&bom);
		catalog_free(&cat);
	}
	if (prices_file) {
		/* Warned when neither design knows the part (the same entry in both lists). */
		struct ncf_diag both = { 0 };
		size_t a, b2;
		for (a = 0; a < diag_count(&unpriced[0]); a++)
			for (b2 = 0; b2 < diag_count(&unpriced[1]); b2++)
				if (diag_get(&unpriced[0], a)->line == diag_get(&unpriced[1], b2)->line &&
				    diag_get(&unpriced[0], a)->col == diag_get(&unpriced[1], b2)->col) {
					const struct ncf_problem *pr = diag_get(&unpriced[0], a);
					diag_add_at(&both, NCF_WARNING, pr->line, pr->col, "%s", pr->msg);
					break;
				}
		diag_print(stderr, prices_file, &both, true);
		diag_free(&both);
	}
	diag_free(&unpriced[0]);
	diag_free(&unpriced[1]);
	design_diff(&d[0], &d[1], &changes);
	in = (struct diff_in){ d[0].name, files[0], d[1].name, files[1], size, &changes, h[0], h[1], n };
	rc = changes.n ? EXIT_FAIL : EXIT_OK;
	if (json) {
		char *s = diff_json(&in);
		if (s)
			fputs(s, stdout);
		else
			rc = EXIT_USAGE;
		free(s);
	} else {
		diff_text(stdout, &in);
	}
	vec_release(&changes);
	cost_free(&cost[0]);
	cost_free(&cost[1]);
	price_list_free(&prices);
	design_free(&d[0]);
	design_free(&d[1]);
	if (fflush(stdout) != 0)
		rc = EXIT_USAGE;
	return rc;
}

/* ---- templates and new ------------------------------------------------------------------------ */

static const struct option plain_longs[] = { COMMON_LONG, { NULL, 0, NULL, 0 } };

static int cmd_templates(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("templates");
	size_t i, k;
	char range[200];
	int ch;
	while ((ch = next_option(me, argc, argv, x)) != -1)
		return ch == 'h' ? sub_usage(me, stdout) : EXIT_USAGE;
	if (optind < argc)
		return usage_error("templates takes no arguments ('%s' is extra)", argv[optind]);
	for (i = 0; i < ntemplates; i++) {
		const struct template *t = &templates[i];
		printf("%s\n  %s\n", t->name, t->help);
		for (k = 0; k < t->nparams; k++)
			printf("  %-18s default %-18s %s; %s\n", t->params[k].name, t->params[k].def, t->params[k].help,
			       tparam_range(&t->params[k], range, sizeof range));
		printf("\n");
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

static const struct option new_longs[] = {
	COMMON_LONG, { "template", required_argument, NULL, 't' }, { "set", required_argument, NULL, OPT_SET },
	{ "output", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 },
};

static int cmd_new(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("new");
	const struct template *t = NULL;
	const char *out = NULL, *sets[64];
	struct tvalues v;
	struct design d;
	char err[600], *text;
	int ch, nsets = 0, i, rc;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 't':
			t = template_find(optarg);
			if (!t)
				return usage_error("new: no template named '%s' (ncfabric templates lists them)", optarg);
			break;
		case OPT_SET:
			if (nsets == 64)
				return usage_error("new: at most 64 --set");
			sets[nsets++] = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("new: unknown argument '%s' (settings go with --set KEY=VALUE)", argv[optind]);
	if (!t)
		return usage_error("new: --template NAME is required (ncfabric templates lists them)");
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	template_defaults(t, &v);
	for (i = 0; i < nsets; i++) /* after every option: --set before --template is fine too */
		if (!template_set(t, &v, sets[i], &x->shipped, err, sizeof err))
			return usage_error("%s", err);
	design_init(&d);
	if (!template_build(t, &v, &x->shipped, &d, err, sizeof err)) {
		safe_eprintf(stderr, "ncfabric: %s\n", err);
		design_free(&d);
		return EXIT_USAGE;
	}
	text = design_to_text(&d, out && strcmp(out, "-") ? format_guess(out, "", 0) : FMT_YAML);
	design_free(&d);
	if (!text) {
		safe_eprintf(stderr, "ncfabric: cannot format the design: %s\n", tree_write_problem());
		return EXIT_FAIL;
	}
	return emit(out, text);
}

/* ---- optimize --------------------------------------------------------------------------------- */

static const struct option optimize_longs[] = {
	COMMON_LONG, { "template", required_argument, NULL, 't' }, { "job", required_argument, NULL, OPT_JOB },
	{ "target", required_argument, NULL, OPT_TARGET }, { "budget", required_argument, NULL, OPT_BUDGET },
	{ "prices", required_argument, NULL, 'P' }, { "vary", required_argument, NULL, OPT_VARY },
	{ "set", required_argument, NULL, OPT_SET }, { "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' }, { "size", required_argument, NULL, 's' }, { NULL, 0, NULL, 0 },
};

static int cmd_optimize(struct ctx *x, int argc, char **argv)
{
	const struct subcommand *me = find_subcommand("optimize");
	const struct template *t = NULL;
	const char *out = NULL, *sets[64], *varies[OPT_MAX_AXES], *jobfile = NULL, *target = NULL, *prices_file = NULL;
	static struct opt_space space;
	struct opt_request req;
	struct opt_result res;
	struct tvalues v;
	struct design jd;
	struct price_list prices;
	char err[600], why[120];
	double budget = 0, size = 1024.0 * 1024 * 1024;
	bool json = false;
	int ch, nsets = 0, nvary = 0, i, rc, metric = 0;
	double tval = 0;
	while ((ch = next_option(me, argc, argv, x)) != -1) {
		switch (ch) {
		case 'h':
			return sub_usage(me, stdout);
		case 't':
			if (!(t = template_find(optarg)))
				return usage_error("optimize: no template named '%s' (ncfabric templates lists them)", optarg);
			break;
		case OPT_SET:
			if (nsets == 64)
				return usage_error("optimize: at most 64 --set");
			sets[nsets++] = optarg;
			break;
		case OPT_VARY:
			if (nvary == OPT_MAX_AXES)
				return usage_error("optimize: at most %d --vary", OPT_MAX_AXES);
			varies[nvary++] = optarg;
			break;
		case OPT_JOB:
			jobfile = optarg;
			break;
		case OPT_TARGET:
			if (!opt_target_parse(optarg, &metric, &tval, err, sizeof err))
				return usage_error("optimize %s", err);
			target = optarg;
			break;
		case OPT_BUDGET:
			if (num_parse_real(optarg, &budget, why, sizeof why) != NUM_OK || !(budget > 0))
				return usage_error("optimize --budget: expected an amount above 0, got '%s'", optarg);
			break;
		case 'P':
			prices_file = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 's':
			if (!parse_size(optarg, &size, err, sizeof err))
				return usage_error("optimize --size: %s", err);
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("optimize: unknown argument '%s' (the job goes with --job FILE)", argv[optind]);
	if (!t)
		return usage_error("optimize: --template NAME is required (ncfabric templates lists them)");
	if (!target)
		return usage_error("optimize: --target METRIC=VALUE is required (efficiency, tokens or busbw)");
	if ((rc = load_catalog(x)) != EXIT_OK)
		return rc;
	template_defaults(t, &v);
	for (i = 0; i < nsets; i++)
		if (!template_set(t, &v, sets[i], &x->shipped, err, sizeof err))
			return usage_error("%s", err);
	opt_space_default(t, &v, &space);
	opt_space_parts(&space, &x->shipped);
	for (i = 0; i < nvary; i++)
		if (!opt_axis_set(&space, varies[i], &x->shipped, err, sizeof err))
			return usage_error("optimize %s", err);
	price_list_init(&prices);
	if (prices_file && (rc = load_prices(prices_file, &prices)) != EXIT_OK)
		return rc;
	design_init(&jd);
	if (jobfile && (rc = load_design(x, jobfile, &jd, NULL)) != EXIT_OK) {
		price_list_free(&prices);
		return rc;
	}
	memset(&req, 0, sizeof req);
	req.metric = metric;
	req.target = tval;
	req.budget = budget;
	req.bytes = size;
	req.job = jobfile ? &jd.job : NULL;
	req.prices = &prices;
	if (!opt_run(&space, &x->shipped, &req, &res, err, sizeof err)) {
		safe_eprintf(stderr, "ncfabric: optimize: %s\n", err);
		design_free(&jd);
		price_list_free(&prices);
		return EXIT_USAGE;
	}
	rc = EXIT_OK;
	{
		const char *currency = prices.currency[0] ? prices.currency : "USD";
		if (json) {
			char *s = opt_json(&space, &req, &res, currency);
			if (s)
				fputs(s, stdout);
			else
				rc = EXIT_FAIL;
			free(s);
		} else {
			opt_text(stdout, &space, &req, &res, currency);
		}
	}
	if (res.best >= 0 && out) {
		struct design best;
		char *text;
		if (!opt_build(&space, &x->shipped, req.job, res.c[res.best].choice, &best, err, sizeof err)) {
			safe_eprintf(stderr, "ncfabric: optimize: %s\n", err);
			rc = EXIT_FAIL;
		} else if (!(text = design_to_text(&best, strcmp(out, "-") ? format_guess(out, "", 0) : FMT_YAML))) {
			safe_eprintf(stderr, "ncfabric: cannot format the design: %s\n", tree_write_problem());
			rc = EXIT_FAIL;
		} else if (emit(out, text) != EXIT_OK) {
			rc = EXIT_FAIL;
		}
		design_free(&best);
	}
	if (res.best < 0 && rc == EXIT_OK)
		rc = EXIT_FAIL; /* nothing meets the target */
	opt_result_free(&res);
	design_free(&jd);
	price_list_free(&prices);
	if (fflush(stdout) != 0)
		rc = EXIT_FAIL;
	return rc;
}

/* ---- the table ------------------------------------------------------------------------------- */

static const struct subcommand subcommands[] = {
	{ "report", "[FILE] [--json] [--size BYTES] [--gpus N] [--sweep] [--fail SPEC] [--prices FILE]",
	  "inventory, problems, bandwidth per pattern and algorithm, speedup, bottleneck and advice", "hjs:g:SF:P:",
	  report_longs,
	  "  -j, --json          one JSON object (its keys are in ncfabric(1))\n"
	  "  -s, --size BYTES    the message size (K, M, G are powers of 1024; default 1G)\n"
	  "  -g, --gpus N        the job on its first N GPUs: tp, pp, cp, ep kept, DP = N / (tp pp cp)\n"
	  "  -S, --sweep         every pattern from 8 B to 16G, as nccl-tests sweeps (in the JSON too)\n"
	  "  -F, --fail SPEC     what a failure costs, before and after: switch:GROUP (one switch),\n"
	  "                      group:GROUP (the whole switch group), nic:SERVERGROUP (one NIC per\n"
	  "                      server), link:FROM->TO[:N] (N links of one member; quote the '>')\n"
	  "  -P, --prices FILE   the user's prices (YAML: prices: [{part, price, currency}]) for the\n"
	  "                      cost; without it only the catalog's stated list prices are known\n",
	  "design", cmd_report, NULL },
	{ "failures", "[FILE] [--json] [--size BYTES] [--gpus N]",
	  "every single failure (N-1) ranked by what it costs the job", "hjs:g:", failures_longs,
	  "  -j, --json          one JSON object (its keys are in ncfabric(1))\n"
	  "  -s, --size BYTES    the message size of the busbw numbers (default 1G)\n"
	  "  -g, --gpus N        the job on its first N GPUs\n",
	  "design", cmd_failures, NULL },
	{ "new", "--template NAME [--set KEY=VALUE]... [-o FILE]",
	  "a design from a template (standard output without -o)", "ht:o:", new_longs,
	  "  -t, --template NAME a template (ncfabric templates lists them)\n"
	  "      --set KEY=VALUE one of its parameters (as often as needed)\n"
	  "  -o, --output FILE   where to write it (.json for JSON; - standard output)\n",
	  "", cmd_new, NULL },
	{ "optimize", "--template NAME --target M=V [--job FILE] [--prices FILE] [-o OUT]",
	  "the cheapest design of a template meeting a target, and the Pareto front of cost against it", "ht:P:o:js:",
	  optimize_longs,
	  "  -t, --template NAME a template (ncfabric templates lists them)\n"
	  "      --job FILE      a design file whose job every candidate runs (default: the template's)\n"
	  "      --target M=V    at least V of efficiency (0..1 or 80%), tokens (tokens/s) or busbw\n"
	  "                      (AllReduce GB/s at --size)\n"
	  "      --budget X      at most this cost\n"
	  "  -P, --prices FILE   the user's prices (as report --prices): a candidate's cost is known\n"
	  "                      only when every part has a price\n"
	  "      --vary K=V,...  search parameter K over these values (LO..HI for whole numbers, * for\n"
	  "                      every choice or catalog part); default: every choice parameter,\n"
	  "                      oversubscription 1..4, routing ecmp,adaptive, and NIC and switch\n"
	  "                      models with same-speed alternatives in the catalog\n"
	  "      --set K=V       a parameter's value off the grid (as new --set)\n"
	  "  -o, --output OUT    write the cheapest design meeting the target (.json for JSON)\n"
	  "  -j, --json          one JSON object (its keys are in ncfabric(1))\n"
	  "  -s, --size BYTES    the message size of busbw (default 1G)\n",
	  "", cmd_optimize, "Exit status 0 when a candidate meets the target, 1 when none does, 2 trouble.\n" },
	{ "templates", "", "list templates with their parameters", "h", plain_longs, "", "", cmd_templates, NULL },
	{ "export", "FILE --format FMT [-o OUT]",
	  "the design for other tools: yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim (-o PREFIX), netbox (-o DIR)",
	  "hf:o:", export_longs,
	  "  -f, --format FMT    yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim, netbox\n"
	  "  -o, --output OUT    where to write it (- standard output); a PREFIX for astra-sim, a DIR for netbox\n",
	  "design", cmd_export, NULL },
	{ "expect", "FILE [--collective C] [--gpus N] [-o OUT]",
	  "the nccl-tests table the design should produce", "hc:g:o:", nt_longs,
	  "  -c, --collective C  allreduce (default), allgather, reducescatter, alltoall, sendrecv\n"
	  "  -g, --gpus N        the job on its first N GPUs\n"
	  "  -o, --output OUT    where to write it (- standard output)\n",
	  "design", cmd_expect, NULL },
	{ "compare", "FILE LOG [--collective C] [--gpus N] [-o OUT]",
	  "measured nccl-tests output against the model", "hc:g:o:", nt_longs,
	  "  -c, --collective C  the test, when the log cannot tell (its header names it, else its columns)\n"
	  "  -g, --gpus N        the ranks (default: the log's)\n"
	  "  -o, --output OUT    where to write it (- standard output)\n",
	  "design log", cmd_compare, "LOG may be - (standard input). Exit status 2 when nothing is comparable.\n" },
	{ "diff", "A B [--json] [--size BYTES] [--prices FILE]",
	  "what changed from design A to B, and every headline number with its change", "hjs:P:", diff_longs,
	  "  -j, --json          one JSON object\n"
	  "  -s, --size BYTES    the message size of the busbw numbers (default 1G)\n"
	  "  -P, --prices FILE   the user's prices for the cost rows (as report --prices)\n",
	  "design design", cmd_diff, "Exit status 0 the designs are the same, 1 they differ, 2 trouble.\n" },
};
#define NSUBCOMMANDS (sizeof subcommands / sizeof subcommands[0])

static const struct subcommand *find_subcommand(const char *name)
{
	size_t i;
	for (i = 0; i < NSUBCOMMANDS; i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static int sub_usage(const struct subcommand *c, FILE *out)
{
	fprintf(out, "usage: ncfabric %s%s%s\n%s.\n\noptions:\n%s  -h, --help          this text\n"
		     "      --catalog FILE  the shipped hardware catalog to use (also $NCFABRIC_CATALOG)\n",
		c->name, c->args[0] ? " " : "", c->args, c->help, c->opthelp);
	if (!strcmp(c->operands, "design") || !strcmp(c->operands, "design log") || !strcmp(c->operands, "design design"))
		fprintf(out, "\nFILE is YAML (.yaml, .yml) or JSON (.json); - reads standard input.\n");
	if (c->notes)
		fprintf(out, "%s%s", strcmp(c->operands, "") ? "" : "\n", c->notes);
	return fflush(out) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* ---- the designer's own options, and the usage ---------------------------------------------- */

static const struct option main_longs[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "catalog", required_argument, NULL, OPT_CATALOG },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "script", required_argument, NULL, OPT_SCRIPT },
	{ "dump-screen", required_argument, NULL, OPT_DUMP },
	{ "screen", required_argument, NULL, OPT_SCREEN },
	{ "completion", required_argument, NULL, OPT_COMPLETION },
	{ "prices", required_argument, NULL, OPT_PRICES },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	size_t i;
	fprintf(out, "usage: ncfabric [OPTIONS] [FILE]                open FILE (or the built-in default design)\n");
	for (i = 0; i < NSUBCOMMANDS; i++) {
		const char *p = subcommands[i].help;
		int col = fprintf(out, "       ncfabric %s%s%s", subcommands[i].name, subcommands[i].args[0] ? " " : "",
				  subcommands[i].args);
		/* its help in a column from 48, word-wrapped at 80 */
		while (*p) {
			int cut = text_cut(p, 32);
			if (col > 47) {
				fputc('\n', out);
				col = 0;
			}
			fprintf(out, "%*s%.*s", 48 - col, "", cut, p);
			col = 80;
			p += cut;
			while (*p == ' ')
				p++;
		}
		fputc('\n', out);
	}
	fputs("       ncfabric --help | --version | --completion bash\n"
	      "\n"
	      "options:\n"
	      "  --catalog FILE   use FILE as the shipped hardware catalog (also $NCFABRIC_CATALOG)\n"
	      "  --ascii          draw lines with ASCII characters\n"
	      "  --no-color       no colours (also when NO_COLOR is set)\n"
	      "  --no-mouse       leave the mouse to the terminal (M toggles it)\n"
	      "  --script FILE    run the designer without a terminal on the keys and commands in FILE\n"
	      "  --dump-screen OUT  with --script: write the final screen as text to OUT (- for stdout)\n"
	      "  --screen WxH     with --script: the screen size (default 80x24)\n"
	      "  --prices FILE    the panel's cost uses FILE's prices, then the catalog's list prices\n"
	      "  --completion bash  print the bash completion script\n"
	      "  -h, --help       this text (ncfabric COMMAND --help: a command's options)\n"
	      "  --version        the version\n"
	      "\n"
	      "Options take --name VALUE or --name=VALUE, -x VALUE or -xVALUE, and combine (-jS);\n"
	      "-- ends the options. FILE is YAML (.yaml, .yml) or JSON (.json); - reads standard input,\n"
	      "and -o - writes to standard output. A designer FILE that does not exist is a new design.\n"
	      "BYTES takes the nccl-tests suffixes K, M, G (powers of 1024); the default is 1G.\n"
	      "Exit status: 0 success, 1 the operation failed, 2 bad usage or bad input;\n"
	      "diff: 0 the designs are the same, 1 they differ, 2 trouble; the designer: 130 after\n"
	      "Ctrl-C, 128 + the signal after SIGHUP or SIGTERM.\n"
	      "Errors: ncfabric: FILE:LINE:COL: message. See ncfabric(1) and ncfabric(5).\n",
	      out);
}

/* The bash completion, from the same tables: subcommands, their options, what they take. */
static void completion_bash(FILE *out)
{
	size_t i, k;
	fprintf(out, "# bash completion for ncfabric (generated by ncfabric --completion bash)\n");
	fprintf(out, "_ncfabric()\n{\n\tlocal cur prev words cword\n\t_init_completion || return\n");
	fprintf(out, "\tlocal sub= i\n\tfor ((i = 1; i < cword; i++)); do\n\t\tcase ${words[i]} in\n\t\t");
	for (i = 0; i < NSUBCOMMANDS; i++)
		fprintf(out, "%s%s", i ? "|" : "", subcommands[i].name);
	fprintf(out, ") sub=${words[i]}; break ;;\n\t\tesac\n\tdone\n");
	fprintf(out, "\tcase $prev in\n");
	fprintf(out, "\t--catalog|--script|-o|--output) _filedir; return ;;\n");
	fprintf(out, "\t--dump-screen) _filedir; return ;;\n");
	fprintf(out, "\t--screen) COMPREPLY=($(compgen -W '80x24 100x30 120x40 160x48 200x60' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t--completion) COMPREPLY=($(compgen -W 'bash' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t-f|--format) COMPREPLY=($(compgen -W '");
	for (k = 0; export_formats[k]; k++)
		fprintf(out, "%s%s", k ? " " : "", export_formats[k]);
	fprintf(out, "' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t-t|--template) COMPREPLY=($(compgen -W '");
	for (k = 0; k < ntemplates; k++)
		fprintf(out, "%s%s", k ? " " : "", templates[k].name);
	fprintf(out, "' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t-c|--collective) COMPREPLY=($(compgen -W 'allreduce allgather reducescatter alltoall sendrecv broadcast reduce' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t-s|--size) COMPREPLY=($(compgen -W '8 1K 64K 1M 16M 128M 1G 4G 16G' -- \"$cur\")); return ;;\n");
	fprintf(out, "\t-g|--gpus|--set) return ;;\n");
	fprintf(out, "\tesac\n");
	fprintf(out, "\tcase $sub in\n");
	for (i = 0; i < NSUBCOMMANDS; i++) {
		const struct subcommand *c = &subcommands[i];
		const struct option *o;
		fprintf(out, "\t%s)\n\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W '", c->name);
		for (o = c->longs; o->name; o++)
			fprintf(out, "%s--%s", o == c->longs ? "" : " ", o->name);
		fprintf(out, "' -- \"$cur\"))\n\t\telse\n\t\t\t");
		if (!strcmp(c->operands, "design") || !strcmp(c->operands, "design design"))
			fprintf(out, "_filedir '@(yaml|yml|json)'");
		else if (!strcmp(c->operands, "design log"))
			fprintf(out, "_filedir");
		else
			fprintf(out, "COMPREPLY=()");
		fprintf(out, "\n\t\tfi ;;\n");
	}
	fprintf(out, "\t*)\n\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W '");
	for (k = 0; main_longs[k].name; k++)
		fprintf(out, "%s--%s", k ? " " : "", main_longs[k].name);
	fprintf(out, "' -- \"$cur\"))\n\t\telse\n\t\t\tCOMPREPLY=($(compgen -W '");
	for (i = 0; i < NSUBCOMMANDS; i++)
		fprintf(out, "%s%s", i ? " " : "", subcommands[i].name);
	fprintf(out, "' -- \"$cur\"))\n\t\t\t_filedir '@(yaml|yml|json)'\n\t\tfi ;;\n\tesac\n} &&\n");
	fprintf(out, "\tcomplete -F _ncfabric ncfabric\n");
}

struct script_opts {
	const char *script, *dump, *prices;
	int w, h;
};

static int cmd_interactive(struct ctx *x, const char *file, const struct term_opts *o, const struct script_opts *so)
{
	struct design d;
	static struct app app;
	char recovered[3000];
	struct price_list prices;
	int rc;
	if (!so->script && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		safe_eprintf(stderr, "ncfabric: the designer needs a terminal (try 'ncfabric report' for text output, or --script)\n");
		return EXIT_USAGE;
	}
	design_load_plan_warnings(false); /* the designer shows no load warnings */
	price_list_init(&prices);
	if (so->prices && (rc = load_prices(so->prices, &prices)) != EXIT_OK) {
		price_list_free(&prices);
		return rc;
	}
	if (file && strcmp(file, "-") && access(file, F_OK) != 0 && errno == ENOENT) {
		/* As vi: a name that is not there yet is a new design that w will create. */
		design_init(&d);
		app_init(&app, &d, &x->shipped, file);
		app_start_new(&app, file);
	} else if (file && strcmp(file, "-")) {
		struct ncf_diag diag = { 0 };
		if (design_load_file(file, &x->shipped, &d, &diag)) {
			app_init(&app, &d, &x->shipped, file);
		} else {
			/* A file with errors opens into the list of them; it is never overwritten. */
			design_init(&d);
			app_init(&app, &d, &x->shipped, file);
			app_start_broken(&app, file, &diag);
		}
		diag_free(&diag);
	} else {
		if ((rc = load_design(x, file, &d, NULL)) != EXIT_OK) {
			price_list_free(&prices);
			return rc;
		}
		app_init(&app, &d, &x->shipped, file);
	}
	app.mouse = o->mouse;
	if (so->prices)
		app_set_prices(&app, &prices, so->prices);
	price_list_free(&prices);
	app.ascii = o->ascii;
	app_offer_recoveries(&app);
	if (so->script) {
		char err[400];
		size_t len;
		char *text = file_read_as(so->script, "a script", &len, err, sizeof err);
		FILE *dump = stdout;
		if (!text) {
			safe_eprintf(stderr, "ncfabric: %s: %s\n", so->script, err);
			app_free(&app);
			return EXIT_USAGE;
		}
		if (so->dump && strcmp(so->dump, "-") && !(dump = fopen(so->dump, "w"))) {
			safe_eprintf(stderr, "ncfabric: cannot write %s\n", so->dump);
			free(text);
			app_free(&app);
			return EXIT_FAIL;
		}
		rc = script_run(&app, text, so->w, so->h, so->dump ? dump : NULL, err, sizeof err);
		if (rc)
			safe_eprintf(stderr, "ncfabric: %s: %s\n", so->script, err);
		if (dump != stdout && fclose(dump) != 0)
			rc = EXIT_FAIL;
		free(text);
		app_free(&app);
		return rc;
	}
	rc = term_run(&app, o, recovered, sizeof recovered);
	if (recovered[0])
		safe_eprintf(stderr, "ncfabric: %s\n", recovered);
	app_free(&app);
	return rc;
}


/* Output that did not reach standard output (a full disk, a closed pipe) is a failure said
 * on stderr: 1, or 2 for diff, whose 1 means "the designs differ". */
static int stdout_checked(int rc, bool diff)
{
	char err[200];
	if (stream_finish(stdout, err, sizeof err))
		return rc;
	safe_eprintf(stderr, "ncfabric: cannot write to standard output: %s\n", err);
	return diff ? EXIT_USAGE : EXIT_FAIL;
}

/* The user's character set (line drawing, wide characters) and messages (strerror);
 * numbers, times and everything else stay in the C locale: files always use a decimal
 * point. Only the categories used are loaded (each is files to read at every start). */
static void use_locale(void)
{
	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
}

/* Whether the user's messages are the C locale's (LC_ALL, LC_MESSAGES, LANG unset, C, POSIX
 * or C.anything such as C.UTF-8, and no LANGUAGE list): strerror then says the same with or
 * without use_locale, which a subcommand skips (it draws no lines: the character set does
 * not matter to it). Loading C.UTF-8 costs a tenth of a report's time on Debian 12, which
 * has no locale archive. */
static bool c_messages(void)
{
	const char *v = getenv("LC_ALL"), *language = getenv("LANGUAGE");
	if (!v || !*v)
		v = getenv("LC_MESSAGES");
	if (!v || !*v)
		v = getenv("LANG");
	if (language && *language)
		return false;
	return !v || !*v || !strcmp(v, "C") || !strcmp(v, "POSIX") || !strncmp(v, "C.", 2);
}

int main(int argc, char **argv)
{
	struct ctx x;
	struct term_opts topts = { false, true, true };
	struct script_opts sopts = { NULL, NULL, NULL, 80, 24 };
	const char *file = NULL;
	bool file_is_named = false; /* FILE came after --: a name, never a mistyped command */
	int ch, rc;

	alloc_keep_freed(); /* the designer recomputes on every edit (model/alloc.h) */
	memset(&x, 0, sizeof x);
	x.argv0 = argv[0];
	opterr = 0; /* option_error says it, naming the command */

	/* The designer's options, up to a subcommand; FILE may come before or after them. */
	for (;;) {
		optopt = 0;
		ch = getopt_long(argc, argv, "+h", main_longs, NULL);
		if (ch == -1) {
			const struct subcommand *sub;
			bool dashdash = optind > 1 && !strcmp(argv[optind - 1], "--");
			if (optind >= argc)
				break;
			sub = dashdash || file ? NULL : find_subcommand(argv[optind]);
			if (sub) {
				int sargc = argc - optind;
				char **sargv = argv + optind;
				optind = 0; /* getopt_long anew, over the subcommand's arguments */
				if (!c_messages())
					use_locale();
				rc = sub->run(&x, sargc, sargv);
				catalog_free(&x.shipped);
				return stdout_checked(rc, strcmp(sub->name, "diff") == 0);
			}
			if (file)
				return usage_error("one design at a time ('%s' is extra)", argv[optind]);
			file = argv[optind++];
			file_is_named = dashdash;
			if (dashdash) {
				if (optind < argc)
					return usage_error("one design at a time ('%s' is extra)", argv[optind]);
				break;
			}
			continue;
		}
		switch (ch) {
		case 'h':
			usage(stdout);
			return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
		case OPT_VERSION:
			printf("ncfabric %s\n", VERSION);
			return EXIT_OK;
		case OPT_CATALOG:
			x.catalog_file = optarg;
			break;
		case OPT_ASCII:
			topts.ascii = true;
			break;
		case OPT_NO_COLOR:
			topts.color = false;
			break;
		case OPT_NO_MOUSE:
			topts.mouse = false;
			break;
		case OPT_SCRIPT:
			sopts.script = optarg;
			break;
		case OPT_DUMP:
			sopts.dump = optarg;
			break;
		case OPT_PRICES:
			sopts.prices = optarg;
			break;
		case OPT_SCREEN: {
			char tail;
			if (sscanf(optarg, "%dx%d%c", &sopts.w, &sopts.h, &tail) != 2 || sopts.w < 1 || sopts.h < 1 || sopts.w > 1000 ||
			    sopts.h > 1000)
				return usage_error("--screen needs WxH, such as 80x24, got '%s'", optarg);
			break;
		}
		case OPT_COMPLETION:
			if (strcmp(optarg, "bash"))
				return usage_error("--completion: only bash, got '%s'", optarg);
			completion_bash(stdout);
			return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
		default:
			return option_error(NULL, "h", main_longs, argc, argv);
		}
	}
	if (file && !file_is_named && !strpbrk(file, "./") && access(file, F_OK) != 0) {
		/* A word near a command and no such file is most likely the command mistyped:
		 * say so rather than open a new design named after it. */
		size_t i, best = 3;
		const char *near = NULL;
		for (i = 0; i < NSUBCOMMANDS; i++) {
			size_t dist = edit_distance(file, subcommands[i].name);
			if (dist < best && dist < strlen(file)) {
				best = dist;
				near = subcommands[i].name;
			}
		}
		if (near)
			return usage_error("'%s' is not a command, and no file of that name exists: did you mean 'ncfabric %s'? "
					   "(a new design of that name: ncfabric ./%s)",
					   file, near, file);
	}
	use_locale();
	/* Line drawing: UTF-8 when the locale is, ASCII otherwise (or with --ascii). */
	topts.ascii = topts.ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if ((rc = load_catalog(&x)) != EXIT_OK)
		return rc;
	rc = cmd_interactive(&x, file, &topts, &sopts);
	catalog_free(&x.shipped);
	return stdout_checked(rc, false);
}
