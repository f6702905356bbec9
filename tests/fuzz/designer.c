/* designer.c: the headless designer as a fuzz target. The input is a --script (keys,
 * @actions, :commands, size WxH, click and drag) run on one of four designs at a screen
 * size the input picks, and the final screen is dumped, as `ncfabric --script F
 * --dump-screen -` does. Every mode, form, command and resize is reachable from there.
 *
 * The fuzzer must not write where it likes (it runs as whoever starts it): the process
 * works in a private directory, and the fuzz build (NCF_FUZZ_SANDBOX) wraps
 * file_write_atomic and mkdir (-Wl,--wrap) so that only relative names without ".." are
 * written. The test suite replays the seeds and regressions through the same function,
 * unwrapped, in a private directory of their own. */
#include "tests/fuzz/targets.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/design_io.h"
#include "layouts/template.h"
#include "ui/app.h"
#include "ui/script.h"

#ifdef NCF_FUZZ_SANDBOX
bool __real_file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz);
bool __wrap_file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz);
int __real_mkdir(const char *path, mode_t mode);
int __wrap_mkdir(const char *path, mode_t mode);

/* A plain name in the working directory, or one level below a plain name (an export
 * directory's files): nothing absolute, no "..". */
static bool allowed(const char *path)
{
	const char *slash = strchr(path, '/');
	if (!path[0] || path[0] == '/' || strstr(path, ".."))
		return false;
	return !slash || (!strchr(slash + 1, '/') || !strchr(strchr(slash + 1, '/') + 1, '/'));
}

bool __wrap_file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz)
{
	if (!allowed(path)) {
		snprintf(err, errsz, "fuzzing writes only plain names in its directory");
		return false;
	}
	return __real_file_write_atomic(path, text, len, err, errsz);
}

int __wrap_mkdir(const char *path, mode_t mode)
{
	if (!allowed(path)) {
		errno = EACCES;
		return -1;
	}
	return __real_mkdir(path, mode);
}
#endif

static const struct catalog *catalog(void)
{
	static struct catalog cat;
	static int loaded;
	if (!loaded) {
		struct ncf_diag diag = { 0 };
		if (!catalog_load_builtin(&cat, &diag))
			abort();
		diag_free(&diag);
		if (chdir(fuzz_scratch_dir()) != 0)
			abort();
		loaded = 1;
	}
	return &cat;
}

/* The design to start from: the built-in one, or a small template. */
static bool start_design(int which, struct design *d)
{
	static const char *const tmpl[][3] = {
		{ "leaf-spine", "servers=4", "nics=2" },
		{ "nvl72", "racks=2", "nics=2" },
		{ "pcie-box", "gpus=4", "nics=1" },
	};
	struct ncf_diag diag = { 0 };
	const struct template *t;
	struct tvalues v;
	char err[600];
	int k;
	if (which == 0) {
		bool ok = design_load_default(catalog(), d, &diag);
		diag_free(&diag);
		return ok;
	}
	t = template_find(tmpl[which - 1][0]);
	template_defaults(t, &v);
	for (k = 1; k < 3; k++)
		if (!template_set(t, &v, tmpl[which - 1][k], catalog(), err, sizeof err))
			return false;
	design_init(d);
	return template_build(t, &v, catalog(), d, err, sizeof err);
}

int fuzz_designer(const uint8_t *data, size_t size)
{
	static struct app app;
	struct design d;
	char *text, err[400];
	FILE *null;
	int w, h;
	if (size < 3)
		return 0;
	if (!start_design(data[0] % 4, &d))
		abort();
	w = 40 + data[1] % 161;
	h = 12 + data[2] % 49;
	text = malloc(size - 3 + 1);
	memcpy(text, data + 3, size - 3);
	text[size - 3] = '\0';
	null = fopen("/dev/null", "w");
	app_init(&app, &d, catalog(), "");
	script_run(&app, text, w, h, null, err, sizeof err);
	app_free(&app);
	fclose(null);
	free(text);
	return 0;
}
