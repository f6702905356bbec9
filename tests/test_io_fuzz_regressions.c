/* Every input fuzzing found a crash with (tests/fuzz/regressions/TARGET/), replayed
 * plus the seed corpora, through the fuzz targets. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/design_io.h"
#include "tests/fuzz/targets.h"

static int replay_prefixed(const char *dir, int (*fn)(const uint8_t *, size_t), char prefix);

static int replay(const char *dir, int (*fn)(const uint8_t *, size_t))
{
	return replay_prefixed(dir, fn, 0);
}

/* With prefix, each input is fed with that byte before it (the pipeline target's format
 * byte: 'X' YAML, 'Y' JSON). */
static int replay_prefixed(const char *dir, int (*fn)(const uint8_t *, size_t), char prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[1024], err[200], *buf;
		size_t len;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		buf = file_read(path, &len, err, sizeof err);
		if (!buf)
			continue;
		if (prefix) {
			char *p = malloc(len + 1);
			p[0] = prefix;
			memcpy(p + 1, buf, len);
			fn((const uint8_t *)p, len + 1);
			free(p);
		} else {
			fn((const uint8_t *)buf, len);
		}
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

Test(fuzz, regressions_and_seeds_replay_clean)
{
	int n = 0;
	n += replay("tests/fuzz/regressions/design_yaml", fuzz_design_yaml);
	n += replay("tests/fuzz/regressions/design_json", fuzz_design_json);
	n += replay("tests/fuzz/regressions/catalog", fuzz_catalog);
	n += replay("tests/fuzz/regressions/nccltests", fuzz_nccltests);
	n += replay("tests/fuzz/regressions/set", fuzz_set);
	n += replay("tests/fuzz/regressions/prices", fuzz_prices);
	n += replay("tests/fuzz/regressions/fail", fuzz_fail);
	n += replay("share/examples", fuzz_design_yaml);
	n += replay("tests/data/bad", fuzz_design_yaml);
	n += replay("tests/data/bad", fuzz_design_json);
	n += replay("tests/data/nccl", fuzz_nccltests);
	n += replay("tests/fuzz/regressions/pipeline", fuzz_pipeline);
	n += replay_prefixed("share/examples", fuzz_pipeline, 'X');
	n += replay_prefixed("tests/data/bad", fuzz_pipeline, 'X');
	n += replay_prefixed("tests/data/bad", fuzz_pipeline, 'Y');
	cr_assert_gt(n, 40, "replayed %d inputs", n);
}
