/* The designer's fuzz seeds (tests/fuzz/designer) and every input fuzzing found a problem
 * with (tests/fuzz/regressions/designer), replayed through the fuzz target on each of its
 * four starting designs. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/design_io.h"
#include "tests/fuzz/targets.h"

struct input {
	char *data;
	size_t len;
};

/* Read every file of dir (absolute) before the target first runs: it works in a private
 * directory of its own. */
static size_t collect(const char *dir, struct input *in, size_t n, size_t max, bool raw_script)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return n;
	while ((e = readdir(d)) && n < max) {
		char path[PATH_MAX + 300], err[200], *buf;
		size_t len;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		buf = file_read(path, &len, err, sizeof err);
		if (!buf)
			continue;
		if (raw_script) {
			/* The built-in design at 80 x 24, as the seeds are fed first. */
			in[n].data = malloc(len + 3);
			memcpy(in[n].data, "\0\050\014", 3);
			memcpy(in[n].data + 3, buf, len);
			in[n].len = len + 3;
			free(buf);
		} else {
			in[n].data = buf;
			in[n].len = len;
		}
		n++;
	}
	closedir(d);
	return n;
}

Test(fuzz, designer_seeds_and_regressions_replay_clean)
{
	static struct input in[256];
	char cwd[PATH_MAX], dir[PATH_MAX + 64];
	size_t n = 0, i;
	int k;
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	snprintf(dir, sizeof dir, "%s/tests/fuzz/designer", cwd);
	n = collect(dir, in, n, 256, true);
	snprintf(dir, sizeof dir, "%s/tests/fuzz/regressions/designer", cwd);
	n = collect(dir, in, n, 256, false);
	cr_assert_geq(n, 10, "%zu inputs", n);
	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++) {
			if (in[i].len >= 3)
				in[i].data[0] = (char)k;
			fuzz_designer((const uint8_t *)in[i].data, in[i].len);
		}
	for (i = 0; i < n; i++)
		free(in[i].data);
}
