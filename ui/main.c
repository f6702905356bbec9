/* main.c: the command line. Every subcommand calls the same model functions the
 * interactive designer does, so a number on screen and in a report cannot disagree. */
#include "io/design_io.h"
#include "io/diff.h"
#include "io/report.h"
#include "io/units.h"
#include "io/export.h"
#include "io/nccltests.h"
#include "layouts/template.h"
#include "ui/app.h"
#include "ui/term.h"
#include "ui/script.h"
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERSION "0.1.0"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
	"usage: ncfabric [OPTIONS] [FILE]                open FILE (or the built-in default design)\n"
	"       ncfabric report [FILE] [--json] [--size BYTES] [--gpus N] [--sweep]\n"
	"                                                inventory, problems, bandwidth per pattern and\n"
	"                                                algorithm, speedup, bottleneck and advice\n"
	"       ncfabric new --template NAME [--set KEY=VALUE]... [-o FILE]\n"
	"                                                a design from a template (stdout without -o)\n"
	"       ncfabric templates                       list templates with their parameters\n"
	"       ncfabric export FILE --format FMT [-o OUT]\n"
	"                                                FMT: yaml, json (the design), bom-csv, bom-yaml,\n"
	"                                                bom-json, dot, astra-sim (-o PREFIX), netbox (-o DIR)\n"
	"       ncfabric expect FILE [--collective C] [--gpus N]\n"
	"                                                the nccl-tests table the design should produce\n"
	"       ncfabric compare FILE LOG [--collective C] [--gpus N]\n"
	"                                                measured nccl-tests output against the model\n"
	"       ncfabric diff A B [--json] [--size BYTES]\n"
	"                                                what changed from design A to B, and every\n"
	"                                                headline number with its change\n"
	"       ncfabric --help | --version\n"
	"\n"
	"options:\n"
	"  --catalog FILE   use FILE as the shipped hardware catalog (also $NCFABRIC_CATALOG)\n"
	"  --ascii          draw lines with ASCII characters\n"
	"  --no-color       no colours (also when NO_COLOR is set)\n"
	"  --no-mouse       leave the mouse to the terminal (M toggles it)\n"
	"  --script FILE    run the designer without a terminal on the keys and commands in FILE\n"
	"  --dump-screen OUT  with --script: write the final screen as text to OUT (- for stdout)\n"
	"  --screen WxH     with --script: the screen size (default 80x24)\n"
	"  -h, --help       this text\n"
	"  --version        the version\n"
	"\n"
	"FILE is YAML (.yaml, .yml) or JSON (.json); - reads standard input.\n"
	"BYTES takes the nccl-tests suffixes K, M, G (powers of 1024); the default is 1G.\n"
	"--gpus N limits the job to its first N GPUs; --sweep adds tables from 8 B to 16G.\n"
	"Exit status: 0 success, 1 the operation failed, 2 bad usage or bad input;\n"
	"diff: 0 the designs are the same, 1 they differ, 2 trouble.\n"
	"Errors: ncfabric: FILE:LINE:COL: message. See ncfabric(1) and ncfabric(5).\n";

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
	fprintf(stderr, "ncfabric: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(ncfabric --help shows the usage)\n");
	return EXIT_USAGE;
}

/* Write text (which this frees) to out atomically, or to standard output for NULL or "-". */
static int emit(const char *out, char *text)
{
	char err[600];
	int rc = EXIT_OK;
	if (out && strcmp(out, "-") != 0) {
		if (!file_write_atomic(out, text, strlen(text), err, sizeof err)) {
			fprintf(stderr, "ncfabric: %s\n", err);
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

static int cmd_report(struct ctx *x, int argc, char **argv)
{
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
	int i, rc;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (strcmp(argv[i], "--sweep") == 0) {
			sweep = true;
		} else if (strcmp(argv[i], "--size") == 0 || strncmp(argv[i], "--size=", 7) == 0) {
			const char *v = argv[i][6] == '=' ? argv[i] + 7 : (i + 1 < argc ? argv[++i] : "");
			if (!parse_size(v, &size, err, sizeof err))
				return usage_error("report --size: %s", err);
		} else if (strcmp(argv[i], "--gpus") == 0 || strncmp(argv[i], "--gpus=", 7) == 0) {
			const char *v = argv[i][6] == '=' ? argv[i] + 7 : (i + 1 < argc ? argv[++i] : "");
			char *end;
			gpus = strtol(v, &end, 10);
			if (!*v || *end || gpus < 1 || gpus > 100000000)
				return usage_error("report --gpus: expected a whole number of GPUs, got '%s'", v);
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("report: unknown option '%s'", argv[i]);
		else if (file)
			return usage_error("report: one design at a time ('%s' is extra)", argv[i]);
		else
			file = argv[i];
	}
	if ((rc = load_design(x, file, &d, &problems)) != EXIT_OK)
		return rc;
	design_catalog(&d, &x->shipped, &cat);
	inventory_compute(&d, &cat, &inv);
	metrics_compute(&d, &cat, size, (int)gpus, &met);
	r.design = &d;
	r.catalog = &cat;
	r.catalog_source = x->catalog_source;
	r.file = file ? file : "(built-in default)";
	r.inv = &inv;
	r.problems = &problems;
	r.metrics = &met;
	r.sweep = sweep;
	if (json) {
		char *s = report_json(&r);
		if (s)
			fputs(s, stdout);
		else
			rc = EXIT_FAIL;
		free(s);
	} else {
		report_text(stdout, &r);
	}
	inventory_free(&inv);
	diag_free(&problems);
	catalog_free(&cat);
	design_free(&d);
	if (fflush(stdout) != 0)
		rc = EXIT_FAIL;
	return rc;
}

static int cmd_export(struct ctx *x, int argc, char **argv)
{
	const char *file = NULL, *fmt = NULL, *out = NULL;
	struct design d;
	struct catalog cat;
	char *text, err[600];
	int i, rc;
	for (i = 0; i < argc; i++) {
		if ((strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "-f") == 0) && i + 1 < argc)
			fmt = argv[++i];
		else if (strncmp(argv[i], "--format=", 9) == 0)
			fmt = argv[i] + 9;
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("export: unknown option or missing value '%s'", argv[i]);
		else if (file)
			return usage_error("export: one design at a time ('%s' is extra)", argv[i]);
		else
			file = argv[i];
	}
	if (!file)
		return usage_error("export: which design? (ncfabric export FILE --format FMT)");
	if (!fmt)
		return usage_error("export: --format is required (yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim or netbox)");
	if (!export_known(fmt))
		return usage_error("export: unknown format '%s' (expected yaml, json, bom-csv, bom-yaml, bom-json, dot, astra-sim or netbox)",
				   fmt);
	if (export_multi_file(fmt) && (!out || strcmp(out, "-") == 0))
		return usage_error("export: %s writes several files: give -o %s", fmt,
				   strcmp(fmt, "netbox") == 0 ? "DIRECTORY" : "PREFIX");
	if ((rc = load_design(x, file, &d, NULL)) != EXIT_OK)
		return rc;
	design_catalog(&d, &x->shipped, &cat);
	if (export_multi_file(fmt)) {
		if (!export_files(&d, &cat, fmt, out, err, sizeof err)) {
			fprintf(stderr, "ncfabric: export %s: %s\n", fmt, err);
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
		fprintf(stderr, "ncfabric: export %s: %s\n", fmt, err);
		return EXIT_FAIL;
	}
	return emit(out, text);
}

/* Options shared by expect and compare: --collective C, --gpus N. */
static int nt_options(int argc, char **argv, int *coll, long *gpus, const char **files, int nfiles, const char *cmd)
{
	int i, got = 0;
	for (i = 0; i < argc; i++) {
		if ((strcmp(argv[i], "--collective") == 0 || strcmp(argv[i], "-c") == 0) && i + 1 < argc) {
			*coll = nt_coll_from_name(argv[++i]);
			if (*coll < 0 || *coll >= PATTERNS)
				return usage_error("%s: unknown collective '%s' (expected allreduce, allgather, reducescatter, alltoall or sendrecv)",
						   cmd, argv[i]);
		} else if (strcmp(argv[i], "--gpus") == 0 && i + 1 < argc) {
			char *end;
			*gpus = strtol(argv[++i], &end, 10);
			if (*end || *gpus < 1)
				return usage_error("%s --gpus: expected a whole number of GPUs, got '%s'", cmd, argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("%s: unknown option '%s'", cmd, argv[i]);
		} else if (got < nfiles) {
			files[got++] = argv[i];
		} else {
			return usage_error("%s: '%s' is extra", cmd, argv[i]);
		}
	}
	if (got < nfiles)
		return usage_error("%s: expected %s", cmd, nfiles == 1 ? "a design FILE" : "a design FILE and an nccl-tests LOG");
	return EXIT_OK;
}

static int cmd_expect(struct ctx *x, int argc, char **argv)
{
	const char *files[1];
	int coll = COLL_ALLREDUCE, rc;
	long gpus = 0;
	struct design d;
	struct catalog cat;
	static struct metrics m;
	if ((rc = nt_options(argc, argv, &coll, &gpus, files, 1, "expect")) != EXIT_OK)
		return rc;
	if ((rc = load_design(x, files[0], &d, NULL)) != EXIT_OK)
		return rc;
	design_catalog(&d, &x->shipped, &cat);
	metrics_compute(&d, &cat, 1024.0 * 1024 * 1024, (int)gpus, &m);
	nt_expect(stdout, &m, d.name, (enum coll)coll, d.job.algo);
	catalog_free(&cat);
	design_free(&d);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

static int cmd_compare(struct ctx *x, int argc, char **argv)
{
	const char *files[2];
	int coll = -1, rc;
	long gpus = 0;
	struct design d;
	struct catalog cat;
	struct nt_log log;
	struct ncf_diag diag = { 0 };
	static struct metrics m;
	char err[256], *buf;
	size_t len;
	if ((rc = nt_options(argc, argv, &coll, &gpus, files, 2, "compare")) != EXIT_OK)
		return rc;
	if ((rc = load_design(x, files[0], &d, NULL)) != EXIT_OK)
		return rc;
	buf = file_read(files[1], &len, err, sizeof err);
	if (!buf) {
		fprintf(stderr, "ncfabric: %s: %s\n", files[1], err);
		design_free(&d);
		return EXIT_USAGE;
	}
	if (!nt_parse(buf, len, &log, &diag)) {
		diag_print(stderr, files[1], &diag, false);
		diag_free(&diag);
		free(buf);
		design_free(&d);
		return EXIT_USAGE;
	}
	free(buf);
	if (coll < 0)
		coll = log.coll;
	if (coll < 0 || coll >= PATTERNS) {
		fprintf(stderr, "ncfabric: %s: the log does not say which test wrote it: give --collective\n", files[1]);
		nt_log_free(&log);
		design_free(&d);
		return EXIT_USAGE;
	}
	if (!gpus && log.ranks)
		gpus = log.ranks;
	design_catalog(&d, &x->shipped, &cat);
	metrics_compute(&d, &cat, 1024.0 * 1024 * 1024, (int)gpus, &m);
	nt_compare(stdout, &m, &d, &log, (enum coll)coll, files[1]);
	nt_log_free(&log);
	catalog_free(&cat);
	design_free(&d);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* diff A B: exit 0 when the designs are the same, 1 when they differ, 2 on trouble. */
static int cmd_diff(struct ctx *x, int argc, char **argv)
{
	const char *files[2] = { NULL, NULL };
	bool json = false;
	double size = 1024.0 * 1024 * 1024;
	char err[200];
	struct design d[2];
	struct catalog cat;
	struct headline h[2][HEADLINES_MAX];
	struct vec changes = { 0 };
	struct diff_in in;
	int i, n = 0, nfiles = 0, rc;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (strcmp(argv[i], "--size") == 0 || strncmp(argv[i], "--size=", 7) == 0) {
			const char *v = argv[i][6] == '=' ? argv[i] + 7 : (i + 1 < argc ? argv[++i] : "");
			if (!parse_size(v, &size, err, sizeof err))
				return usage_error("diff --size: %s", err);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("diff: unknown option '%s'", argv[i]);
		} else if (nfiles == 2) {
			return usage_error("diff: two designs ('%s' is extra)", argv[i]);
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (nfiles != 2)
		return usage_error("diff needs two designs: ncfabric diff A B");
	if ((rc = load_design(x, files[0], &d[0], NULL)) != EXIT_OK)
		return rc;
	if ((rc = load_design(x, files[1], &d[1], NULL)) != EXIT_OK) {
		design_free(&d[0]);
		return rc;
	}
	for (i = 0; i < 2; i++) {
		design_catalog(&d[i], &x->shipped, &cat);
		n = headlines_of(&d[i], &cat, size, h[i], HEADLINES_MAX);
		catalog_free(&cat);
	}
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
	design_free(&d[0]);
	design_free(&d[1]);
	if (fflush(stdout) != 0)
		rc = EXIT_USAGE;
	return rc;
}

static int cmd_templates(void)
{
	size_t i, k;
	char range[200];
	for (i = 0; i < ntemplates; i++) {
		const struct template *t = &templates[i];
		printf("%s\n  %s\n", t->name, t->help);
		for (k = 0; k < t->nparams; k++)
			printf("  %-18s default %-18s %s; %s\n", t->params[k].name, t->params[k].def, t->params[k].help,
			       tparam_range(&t->params[k], range, sizeof range));
		printf("\n");
	}
	return EXIT_OK;
}

static int cmd_new(struct ctx *x, int argc, char **argv)
{
	const struct template *t = NULL;
	const char *out = NULL;
	struct tvalues v;
	struct design d;
	char err[600], *text;
	int i;
	for (i = 0; i < argc; i++)
		if ((strcmp(argv[i], "--template") == 0 || strcmp(argv[i], "-t") == 0) && i + 1 < argc) {
			t = template_find(argv[++i]);
			if (!t)
				return usage_error("new: no template named '%s' (ncfabric templates lists them)", argv[i]);
		}
	if (!t)
		return usage_error("new: --template NAME is required (ncfabric templates lists them)");
	template_defaults(t, &v);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--template") == 0 || strcmp(argv[i], "-t") == 0) {
			i++;
		} else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			if (!template_set(t, &v, argv[++i], &x->shipped, err, sizeof err))
				return usage_error("%s", err);
		} else if (strncmp(argv[i], "--set=", 6) == 0) {
			if (!template_set(t, &v, argv[i] + 6, &x->shipped, err, sizeof err))
				return usage_error("%s", err);
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else {
			return usage_error("new: unknown argument '%s'", argv[i]);
		}
	}
	design_init(&d);
	if (!template_build(t, &v, &x->shipped, &d, err, sizeof err)) {
		fprintf(stderr, "ncfabric: %s\n", err);
		design_free(&d);
		return EXIT_USAGE;
	}
	text = design_to_text(&d, out ? format_guess(out, "", 0) : FMT_YAML);
	design_free(&d);
	if (!text)
		return EXIT_FAIL;
	return emit(out, text);
}

struct script_opts {
	const char *script, *dump;
	int w, h;
};

static int cmd_interactive(struct ctx *x, const char *file, const struct term_opts *o, const struct script_opts *so)
{
	struct design d;
	static struct app app;
	char recovered[1200], rpath[1200];
	int rc;
	if (!so->script && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "ncfabric: the designer needs a terminal (try 'ncfabric report' for text output, or --script)\n");
		return EXIT_USAGE;
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
		if ((rc = load_design(x, file, &d, NULL)) != EXIT_OK)
			return rc;
		app_init(&app, &d, &x->shipped, file);
	}
	app.mouse = o->mouse;
	app_recovery_path(file, rpath, sizeof rpath);
	if (access(rpath, R_OK) == 0)
		app_offer_recovery(&app, rpath);
	if (so->script) {
		char err[400];
		size_t len;
		char *text = file_read(so->script, &len, err, sizeof err);
		FILE *dump = stdout;
		if (!text) {
			fprintf(stderr, "ncfabric: %s: %s\n", so->script, err);
			app_free(&app);
			return EXIT_USAGE;
		}
		if (so->dump && strcmp(so->dump, "-") && !(dump = fopen(so->dump, "w"))) {
			fprintf(stderr, "ncfabric: cannot write %s\n", so->dump);
			free(text);
			app_free(&app);
			return EXIT_FAIL;
		}
		rc = script_run(&app, text, so->w, so->h, so->dump ? dump : NULL, err, sizeof err);
		if (rc)
			fprintf(stderr, "ncfabric: %s: %s\n", so->script, err);
		if (dump != stdout && fclose(dump) != 0)
			rc = EXIT_FAIL;
		free(text);
		app_free(&app);
		return rc;
	}
	rc = term_run(&app, o, recovered, sizeof recovered);
	if (recovered[0])
		fprintf(stderr, "ncfabric: unsaved changes written to %s\n", recovered);
	app_free(&app);
	return rc;
}

int main(int argc, char **argv)
{
	struct ctx x;
	struct term_opts topts = { false, true, true };
	struct script_opts sopts = { NULL, NULL, 80, 24 };
	const char *file = NULL, *sub = NULL;
	int i, rest = argc, rc;

	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C"); /* files always use a decimal point */
	/* Line drawing: UTF-8 when the locale is, ASCII otherwise (or with --ascii). */
	topts.ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	memset(&x, 0, sizeof x);
	x.argv0 = argv[0];

	/* Global options come before the subcommand. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("ncfabric %s\n", VERSION);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--catalog") == 0) {
			if (i + 1 >= argc)
				return usage_error("--catalog needs a FILE");
			x.catalog_file = argv[++i];
		} else if (strcmp(argv[i], "--ascii") == 0) {
			topts.ascii = true;
		} else if (strcmp(argv[i], "--no-color") == 0) {
			topts.color = false;
		} else if (strcmp(argv[i], "--no-mouse") == 0) {
			topts.mouse = false;
		} else if (strcmp(argv[i], "--script") == 0) {
			if (i + 1 >= argc)
				return usage_error("--script needs a FILE");
			sopts.script = argv[++i];
		} else if (strcmp(argv[i], "--dump-screen") == 0) {
			if (i + 1 >= argc)
				return usage_error("--dump-screen needs a FILE (- for standard output)");
			sopts.dump = argv[++i];
		} else if (strcmp(argv[i], "--screen") == 0) {
			if (i + 1 >= argc || sscanf(argv[i + 1], "%dx%d", &sopts.w, &sopts.h) != 2 || sopts.w < 1 || sopts.h < 1 ||
			    sopts.w > 1000 || sopts.h > 1000)
				return usage_error("--screen needs WxH, such as 80x24");
			i++;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("unknown option '%s'", argv[i]);
		} else if (!sub && (strcmp(argv[i], "report") == 0 || strcmp(argv[i], "export") == 0 ||
				    strcmp(argv[i], "new") == 0 || strcmp(argv[i], "templates") == 0 ||
				    strcmp(argv[i], "expect") == 0 || strcmp(argv[i], "compare") == 0 ||
				    strcmp(argv[i], "diff") == 0)) {
			sub = argv[i];
			rest = i + 1;
			break;
		} else if (file) {
			return usage_error("one design at a time ('%s' is extra)", argv[i]);
		} else {
			file = argv[i];
		}
	}
	if ((rc = load_catalog(&x)) != EXIT_OK)
		return rc;
	if (sub && strcmp(sub, "report") == 0)
		rc = cmd_report(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "export") == 0)
		rc = cmd_export(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "expect") == 0)
		rc = cmd_expect(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "compare") == 0)
		rc = cmd_compare(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "diff") == 0)
		rc = cmd_diff(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "new") == 0)
		rc = cmd_new(&x, argc - rest, argv + rest);
	else if (sub && strcmp(sub, "templates") == 0)
		rc = argc > rest ? usage_error("templates takes no arguments") : cmd_templates();
	else
		rc = cmd_interactive(&x, file, &topts, &sopts);
	catalog_free(&x.shipped);
	return rc;
}
