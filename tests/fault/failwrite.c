/* failwrite.c: an LD_PRELOAD library for tests: every write() to a regular file fails
 * with ENOSPC, as on a full disk; pipes and terminals still work. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	struct stat st;
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		errno = ENOSPC;
		return -1;
	}
	return real(fd, buf, n);
}
