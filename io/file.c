/* file.c: reading with bounds, and saving as vim does (file.h has the rules). */
#define _GNU_SOURCE
#include "io/file.h"
#include "io/tree.h"
#include "model/alloc.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISFIFO(m))
		return "a FIFO";
	return "not a regular file";
}

char *file_read(const char *path, size_t *len, char *err, size_t errsz)
{
	return file_read_as(path, "a design file", len, err, errsz);
}

char *file_read_as(const char *path, const char *what, size_t *len, char *err, size_t errsz)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	const size_t max = (size_t)NCF_MAX_FILE_BYTES;
	if (fd < 0) {
		snprintf(err, errsz, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errsz, "cannot read: %s", strerror(errno));
		goto fail;
	}
	/* A FIFO was opened without blocking (no writer: open would wait forever); pipes and
	 * FIFOs are read up to the limit like files. Devices and sockets are refused: reading
	 * /dev/zero or a terminal would never end. Standard input is whatever the user gave. */
	if (!is_stdin && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, errsz, "%s, not %s", file_kind(st.st_mode), what);
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)max) {
		snprintf(err, errsz, "file larger than %ld MiB: too large for %s", NCF_MAX_FILE_BYTES / (1024 * 1024), what);
		goto fail;
	}
	if (!is_stdin) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	for (;;) {
		ssize_t got;
		if (n + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 65536 * 2;
			if (cap > max + 65536 + 2)
				cap = max + 65536 + 2;
			buf = xrealloc(buf, cap);
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errsz, "cannot read: %s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			snprintf(err, errsz, "file larger than %ld MiB: too large for %s", NCF_MAX_FILE_BYTES / (1024 * 1024), what);
			goto fail;
		}
	}
	if (n == 0 && S_ISFIFO(st.st_mode) && !is_stdin) {
		snprintf(err, errsz, "a FIFO with nothing written to it");
		goto fail;
	}
	if (!is_stdin)
		close(fd);
	if (!buf)
		buf = xmalloc(1);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	if (!is_stdin)
		close(fd);
	return NULL;
}

/* ---- writing ------------------------------------------------------------------------- */

bool file_resolve(const char *path, char *out, size_t size, char *err, size_t errsz)
{
	char cur[PATH_MAX], link[PATH_MAX];
	int hops;
	if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
		snprintf(err, errsz, "file name too long");
		return false;
	}
	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		ssize_t n;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			snprintf(out, size, "%s", cur);
			return true;
		}
		n = readlink(cur, link, sizeof link - 1);
		if (n < 0) {
			snprintf(err, errsz, "cannot read the link %s: %s", cur, strerror(errno));
			return false;
		}
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof cur, "%s", link);
		} else {
			/* Relative to the directory holding the link. */
			char *slash = strrchr(cur, '/');
			char joined[PATH_MAX];
			if (slash) {
				slash[1] = '\0';
				if (snprintf(joined, sizeof joined, "%s%s", cur, link) >= (int)sizeof joined) {
					snprintf(err, errsz, "file name too long");
					return false;
				}
				snprintf(cur, sizeof cur, "%s", joined);
			} else {
				snprintf(cur, sizeof cur, "%s", link);
			}
		}
	}
	snprintf(err, errsz, "%s: too many levels of symbolic links", path);
	return false;
}

/* Write all of text; *done (if not NULL) says how much reached the file. */
static bool write_some(int fd, const char *text, size_t len, size_t *done)
{
	size_t off = 0;
	bool ok = true;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			ok = false;
			break;
		}
		off += (size_t)w;
	}
	if (done)
		*done = off;
	return ok;
}

static bool write_all(int fd, const char *text, size_t len)
{
	return write_some(fd, text, len, NULL);
}

/* Copy the whole of fd `from` (from its start) to fd `to`; false with errno set. */
static bool copy_fd(int from, int to)
{
	char buf[65536];
	if (lseek(from, 0, SEEK_SET) < 0)
		return false;
	for (;;) {
		ssize_t n = read(from, buf, sizeof buf);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (n == 0)
			return true;
		if (!write_all(to, buf, (size_t)n))
			return false;
	}
}

static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;
	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static bool has_xattrs(const char *path)
{
#ifdef __linux__
	ssize_t n = listxattr(path, NULL, 0);
	return n > 0;
#else
	(void)path;
	return false;
#endif
}

static mode_t new_file_mode(void)
{
	mode_t um = umask(0);
	umask(um);
	return 0666 & ~um;
}

/* A character device or a FIFO: write into it, as `cat > /dev/null` would. */
static bool write_direct(const char *target, const struct stat *st, const char *text, size_t len, char *err,
			 size_t errsz)
{
	int fd = open(target, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC), fl;
	if (fd < 0) {
		if (errno == ENXIO && S_ISFIFO(st->st_mode))
			snprintf(err, errsz, "cannot write %s: a FIFO that no process reads", target);
		else
			snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		return false;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (!write_all(fd, text, len)) {
		snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		close(fd);
		return false;
	}
	if (close(fd) != 0) {
		snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		return false;
	}
	return true;
}

/* A temporary file beside target: "target<tag>XXXXXX". */
static int temp_beside(const char *target, const char *tag, char *tmp, size_t size, char *err, size_t errsz)
{
	int fd;
	if (snprintf(tmp, size, "%s%sXXXXXX", target, tag) >= (int)size) {
		snprintf(err, errsz, "file name too long");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		snprintf(err, errsz, "cannot create a file beside %s: %s", target, strerror(errno));
	return fd;
}

/* The new text into a fresh temporary file beside target, with mode (and owner when
 * st is given); fsynced and closed. False on failure (nothing is left behind). */
static bool write_temp(const char *target, const char *text, size_t len, mode_t mode, const struct stat *st,
		       bool *owner_kept, char *tmp, size_t size, char *err, size_t errsz)
{
	int fd = temp_beside(target, ".tmp-", tmp, size, err, errsz);
	if (fd < 0)
		return false;
	*owner_kept = true;
	if (st && (st->st_uid != geteuid() || st->st_gid != getegid()) && fchown(fd, st->st_uid, st->st_gid) != 0)
		*owner_kept = false;
	if (!write_all(fd, text, len) || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		close(fd);
		unlink(tmp);
		return false;
	}
	if (close(fd) != 0) {
		snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

/* A copy of the file at `target` (open as fd) in a new temporary file beside it, with
 * its mode and, where we may, its owner: the backup to be. */
static bool copy_to_temp(const char *target, int fd, const struct stat *st, char *tmp, size_t size, char *err,
			 size_t errsz)
{
	int out = temp_beside(target, "~.tmp-", tmp, size, err, errsz);
	if (out < 0)
		return false;
	if (fchown(out, st->st_uid, st->st_gid) != 0) {
		/* Not ours to give: the backup is ours, with the file's mode. */
	}
	if (!copy_fd(fd, out) || fchmod(out, st->st_mode & 07777) != 0 || fsync(out) != 0) {
		snprintf(err, errsz, "cannot make a backup of %s: %s", target, strerror(errno));
		close(out);
		unlink(tmp);
		return false;
	}
	if (close(out) != 0) {
		snprintf(err, errsz, "cannot make a backup of %s: %s", target, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

/* The current version of target under a fresh temporary name: a hard link when the file
 * system has them, else a copy. */
static bool backup_temp(const char *target, const struct stat *st, char *tmp, size_t size, char *err, size_t errsz)
{
	int fd, k;
	for (k = 0; k < 100; k++) {
		if (snprintf(tmp, size, "%s~.tmp-%ld-%d", target, (long)getpid(), k) >= (int)size) {
			snprintf(err, errsz, "file name too long");
			return false;
		}
		if (link(target, tmp) == 0)
			return true;
		if (errno != EEXIST)
			break;
	}
	fd = open(target, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "cannot make a backup of %s: %s", target, strerror(errno));
		return false;
	}
	k = copy_to_temp(target, fd, st, tmp, size, err, errsz);
	close(fd);
	return k;
}

/* Replace target by rename: new text beside, backup linked, new renamed in, then the
 * backup renamed to FILE~. */
static bool save_by_rename(const char *target, const char *tmp, const struct stat *st, bool backup, char *err,
			   size_t errsz)
{
	char bak[PATH_MAX], held[PATH_MAX];
	bool have_backup = false;
	if (snprintf(bak, sizeof bak, "%s~", target) >= (int)sizeof bak) {
		snprintf(err, errsz, "file name too long");
		unlink(tmp);
		return false;
	}
	if (st && backup)
		have_backup = backup_temp(target, st, held, sizeof held, err, errsz);
	if (st && backup && !have_backup) {
		unlink(tmp);
		return false;
	}
	if (rename(tmp, target) != 0) {
		snprintf(err, errsz, "cannot replace %s: %s", target, strerror(errno));
		unlink(tmp);
		if (have_backup)
			unlink(held);
		return false;
	}
	/* The new text is in place: only now does the old version become FILE~. */
	if (have_backup && rename(held, bak) != 0)
		unlink(held);
	sync_dir(target);
	return true;
}

/* Write into target itself (its inode stays: hard links, owner, mode and attributes),
 * after copying it aside; put the old text back if the write fails. */
static bool save_in_place(const char *target, const struct stat *st, const char *text, size_t len, bool backup,
			  char *err, size_t errsz)
{
	char held[PATH_MAX], bak[PATH_MAX];
	size_t done = 0;
	int fd = open(target, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
		return false;
	}
	if (snprintf(bak, sizeof bak, "%s~", target) >= (int)sizeof bak) {
		snprintf(err, errsz, "file name too long");
		close(fd);
		return false;
	}
	if (!copy_to_temp(target, fd, st, held, sizeof held, err, errsz)) {
		size_t n = strlen(err);
		snprintf(err + n, errsz - n, ": not saved");
		close(fd);
		return false;
	}
	if (lseek(fd, 0, SEEK_SET) < 0 || !write_some(fd, text, len, &done) || ftruncate(fd, (off_t)len) != 0 ||
	    fsync(fd) != 0) {
		int e = errno, in = done ? open(held, O_RDONLY | O_CLOEXEC) : -1;
		/* Nothing reached the file: it is as it was. Else the old text goes back. */
		bool back = !done || (in >= 0 && lseek(fd, 0, SEEK_SET) == 0 && copy_fd(in, fd) &&
				      ftruncate(fd, st->st_size) == 0 && fsync(fd) == 0);
		if (in >= 0)
			close(in);
		close(fd);
		if (back) {
			unlink(held);
			snprintf(err, errsz, "cannot write %s: %s (%s)", target, strerror(e),
				 done ? "its old text was put back" : "it is unchanged");
		} else {
			snprintf(err, errsz, "cannot write %s: %s (its old text is in %s)", target, strerror(e), held);
		}
		return false;
	}
	if (close(fd) != 0) {
		snprintf(err, errsz, "cannot write %s: %s (its old text is in %s)", target, strerror(errno), held);
		return false;
	}
	if (!backup || rename(held, bak) != 0)
		unlink(held); /* no FILE~ wanted: the copy was only for putting the old text back */
	sync_dir(target);
	return true;
}

static bool write_file(const char *path, const char *text, size_t len, bool backup, char *err, size_t errsz)
{
	char target[PATH_MAX], tmp[PATH_MAX];
	struct stat st;
	bool owner_kept;
	if (!file_resolve(path, target, sizeof target, err, errsz))
		return false;
	if (stat(target, &st) != 0) {
		if (errno != ENOENT) {
			snprintf(err, errsz, "cannot write %s: %s", target, strerror(errno));
			return false;
		}
		/* A new file. */
		return write_temp(target, text, len, new_file_mode(), NULL, &owner_kept, tmp, sizeof tmp, err, errsz) &&
		       save_by_rename(target, tmp, NULL, backup, err, errsz);
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return write_direct(target, &st, text, len, err, errsz);
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s is %s: not overwritten", target,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISBLK(st.st_mode) ? "a block device"
			 : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file");
		return false;
	}
	if (access(target, W_OK) != 0) {
		snprintf(err, errsz, "%s is read-only (%s): not overwritten", target, strerror(errno));
		return false;
	}
	if (st.st_nlink == 1 && !has_xattrs(target)) {
		if (!write_temp(target, text, len, st.st_mode & 07777, &st, &owner_kept, tmp, sizeof tmp, err, errsz))
			return false;
		if (owner_kept)
			return save_by_rename(target, tmp, &st, backup, err, errsz);
		unlink(tmp); /* another owner we cannot give the new file: write in place */
	}
	return save_in_place(target, &st, text, len, backup, err, errsz);
}

bool file_same(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool file_not_input(const char *path, const struct file_input *inputs, size_t n, char *err, size_t errsz)
{
	size_t i;
	if (!path || !strcmp(path, "-"))
		return true;
	for (i = 0; i < n; i++)
		if (inputs[i].path && strcmp(inputs[i].path, "-") != 0 && file_same(path, inputs[i].path)) {
			if (strcmp(path, inputs[i].path) == 0)
				snprintf(err, errsz, "%s is %s: writing there would replace it; choose another output", path,
					 inputs[i].what);
			else
				snprintf(err, errsz, "%s is %s %s (the same file by another name): writing there would replace it; "
						     "choose another output", path, inputs[i].what, inputs[i].path);
			return false;
		}
	return true;
}

bool file_output_ok(const char *path, const struct file_input *inputs, size_t n, char *err, size_t errsz)
{
	struct stat st;
	if (!file_not_input(path, inputs, n, err, errsz))
		return false;
	if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1) {
		snprintf(err, errsz, "%s has %lu names (hard links): writing it would change the others too; choose another output",
			 path, (unsigned long)st.st_nlink);
		return false;
	}
	return true;
}

bool file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errsz)
{
	return write_file(path, text, len, true, err, errsz);
}

bool file_replace(const char *path, const char *text, size_t len, char *err, size_t errsz)
{
	return write_file(path, text, len, false, err, errsz);
}

bool stream_finish(FILE *f, char *err, size_t errsz)
{
	int e;
	errno = 0;
	if (fflush(f) != 0) {
		snprintf(err, errsz, "%s", strerror(errno));
		return false;
	}
	e = errno;
	if (ferror(f)) {
		/* An earlier write failed; its errno is long gone. */
		snprintf(err, errsz, "%s", e ? strerror(e) : "the output is incomplete");
		return false;
	}
	return true;
}
