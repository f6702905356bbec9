/* failwrite.c: an LD_PRELOAD library for tests: every write() to a regular file fails
 * with ENOSPC, as on a full disk; pipes and terminals still work. Two variables narrow
 * the full disk down (both may be set; a file must match both):
 *   NCF_FAILWRITE_UNDER=DIR     only files under DIR fail (a full file system there)
 *   NCF_FAILWRITE_SUFFIX=.yaml  only files whose name ends so fail (FILE, not FILE~.tmp-X) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int selected(int fd)
{
	const char *under = getenv("NCF_FAILWRITE_UNDER"), *suffix = getenv("NCF_FAILWRITE_SUFFIX");
	char link[64], path[4096];
	ssize_t n;
	size_t len;
	if ((!under || !*under) && (!suffix || !*suffix))
		return 1;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	if (n < 0)
		return 1;
	path[n] = '\0';
	len = (size_t)n;
	if (under && *under && strncmp(path, under, strlen(under)) != 0)
		return 0;
	if (suffix && *suffix && (len < strlen(suffix) || strcmp(path + len - strlen(suffix), suffix) != 0))
		return 0;
	return 1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	struct stat st;
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && selected(fd)) {
		errno = ENOSPC;
		return -1;
	}
	return real(fd, buf, n);
}
