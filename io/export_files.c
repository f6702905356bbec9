/* export_files.c: the exports that write several files (ASTRA-sim, NetBox): dispatch, and
 * the writing rules of export_write.h. */
#include "io/export.h"
#include "io/export_write.h"
#include "io/design_io.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool export_may_replace(const char *path, char *err, size_t errsz)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return true;
		snprintf(err, errsz, "cannot look at %s: %s", path, strerror(errno));
		return false;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errsz, "%s is a symbolic link: an export replaces only the regular files it wrote; remove the link "
				     "or choose another -o", path);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s is not a regular file: not overwritten; choose another -o", path);
		return false;
	}
	if (st.st_nlink > 1) {
		snprintf(err, errsz, "%s has %lu names (hard links): writing it would change the others too; choose another -o",
			 path, (unsigned long)st.st_nlink);
		return false;
	}
	return true;
}

bool export_owns(const char *path, const char *mark)
{
	char buf[4097];
	size_t n;
	struct stat st;
	FILE *f;
	if (lstat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_nlink > 1))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, mark) != NULL;
}

bool export_write(const char *path, const char *text, const char *mark, char *err, size_t errsz)
{
	if (!export_may_replace(path, err, errsz))
		return false;
	if (!export_owns(path, mark)) {
		snprintf(err, errsz, "%s exists and was not written by an ncfabric export: move it away or choose another -o",
			 path);
		return false;
	}
	return file_replace(path, text, strlen(text), err, errsz);
}

bool export_mkdir(const char *path, char *err, size_t errsz)
{
	struct stat st;
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errsz, "cannot create %s: %s", path, strerror(errno));
		return false;
	}
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errsz, "%s exists and is not a directory", path);
		return false;
	}
	return true;
}

bool export_files(const struct design *d, const struct catalog *cat, const char *format, const char *out, char *err,
		  size_t errsz)
{
	if (strcmp(format, "astra-sim") == 0)
		return export_astra(d, cat, out, err, errsz);
	if (strcmp(format, "netbox") == 0)
		return export_netbox(d, cat, out, err, errsz);
	snprintf(err, errsz, "format '%s' writes one file", format);
	return false;
}
