/* recover.c: recovery files (recover.h). The writer uses only async-signal-safe calls
 * and no memory it did not prepare, so the signal handler can use it as it stands. */
#define _GNU_SOURCE
#include "ui/recover.h"
#include "model/alloc.h"
#include "io/design_io.h"
#include "ui/app.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- strings without stdio (safe in a signal handler) -------------------------------- */

static size_t s_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* Append src to dst (capacity size); false if it does not fit. */
static bool s_cat(char *dst, size_t size, const char *src)
{
	size_t n = s_len(dst), k = s_len(src);
	if (n + k + 1 > size)
		return false;
	memcpy(dst + n, src, k + 1);
	return true;
}

static void s_num(char *out, long v)
{
	char tmp[24];
	int n = 0, i;
	if (v < 0)
		v = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < 20);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
}

static void s_put(int fd, const char *s)
{
	size_t n = s_len(s);
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* ---- where ---------------------------------------------------------------------------- */

/* The two bases of a design's recovery files: beside it (empty for the built-in design)
 * and in the state directory (empty if there is none), and the state directory. */
struct bases {
	char beside[RECOVER_PATH], state[RECOVER_PATH], dir[RECOVER_PATH];
};

bool recover_state_dir(char *out, size_t size)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (x && x[0] == '/')
		return snprintf(out, size, "%s/ncfabric", x) < (int)size;
	if (home && home[0] == '/')
		return snprintf(out, size, "%s/.local/state/ncfabric", home) < (int)size;
	out[0] = '\0';
	return false;
}

/* The design's absolute path with '/' as '%' (long paths: a hash, then the tail). */
static void escaped_name(const char *file, char *out, size_t size)
{
	char abs[PATH_MAX * 2], dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file;
	size_t i, n;
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? (slash == file ? "/" : file) : ".");
	if (realpath(dir, real))
		snprintf(abs, sizeof abs, "%s/%s", strcmp(real, "/") ? real : "", base);
	else if (file[0] != '/' && getcwd(real, sizeof real))
		snprintf(abs, sizeof abs, "%s/%s", real, file); /* its directory is gone: as named */
	else
		snprintf(abs, sizeof abs, "%s", file);
	n = strlen(abs);
	if (n > 180) {
		uint64_t h = 1469598103934665603ULL;
		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)abs[i]) * 1099511628211ULL;
		snprintf(out, size, "%016llx%s", (unsigned long long)h, abs + n - 160);
	} else {
		snprintf(out, size, "%s", abs);
	}
	for (i = 0; out[i]; i++)
		if (out[i] == '/')
			out[i] = '%';
}

static void bases_of(const char *file, struct bases *b)
{
	char name[400];
	b->beside[0] = b->state[0] = '\0';
	if (file && file[0])
		snprintf(b->beside, sizeof b->beside, "%s.recover", file);
	if (!recover_state_dir(b->dir, sizeof b->dir))
		return;
	if (file && file[0])
		escaped_name(file, name, sizeof name);
	else
		snprintf(name, sizeof name, "default");
	if ((size_t)snprintf(b->state, sizeof b->state, "%s/%.399s.recover", b->dir, name) >= sizeof b->state)
		b->state[0] = '\0';
}

/* The k-th name of a base: base, base-2, base-3, ... */
static bool name_k(const char *base, int k, char *out, size_t size)
{
	char num[24];
	out[0] = '\0';
	if (!s_cat(out, size, base))
		return false;
	if (k == 1)
		return true;
	s_num(num, k);
	return s_cat(out, size, "-") && s_cat(out, size, num);
}

struct found {
	char path[RECOVER_PATH];
	long long mtime;
};

static int by_mtime(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->path, y->path);
}

int recover_find(const char *file, char paths[][RECOVER_PATH], int max)
{
	struct bases b;
	static struct found f[2 * 99];
	int n = 0, i, k;
	const char *base[2];
	bases_of(file, &b);
	base[0] = b.beside;
	base[1] = b.state;
	for (i = 0; i < 2; i++)
		for (k = 1; base[i][0] && k <= 99; k++) {
			struct stat st;
			if (!name_k(base[i], k, f[n].path, sizeof f[n].path))
				break;
			if (stat(f[n].path, &st) != 0 || !S_ISREG(st.st_mode) || access(f[n].path, R_OK) != 0)
				continue;
			f[n].mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
			n++;
		}
	qsort(f, (size_t)n, sizeof f[0], by_mtime);
	for (i = 0; i < n && i < max; i++)
		memcpy(paths[i], f[i].path, RECOVER_PATH);
	return i;
}

/* ---- writing -------------------------------------------------------------------------- */

/* mkdir -p for the state directory (0700: it holds work in progress). */
static void make_dirs(const char *dir)
{
	char p[RECOVER_PATH];
	size_t i, n = s_len(dir);
	if (n + 1 > sizeof p)
		return;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++)
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			mkdir(p, 0700);
			p[i] = c;
		}
}

/* Write text as the first free name of base. Returns 0, or the errno of the failure. */
static int write_new(const char *base, const char *text, size_t len, char *out, size_t outsz)
{
	char tmp[RECOVER_PATH], num[24];
	int fd, k, e = 0;
	size_t off = 0;
	tmp[0] = '\0';
	s_num(num, (long)getpid());
	if (!s_cat(tmp, sizeof tmp, base) || !s_cat(tmp, sizeof tmp, ".tmp-") || !s_cat(tmp, sizeof tmp, num))
		return ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			break;
		}
		off += (size_t)w;
	}
	if (!e && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (e) {
		unlink(tmp);
		return e;
	}
	for (k = 1; k <= 99; k++) {
		if (!name_k(base, k, out, outsz)) {
			e = ENAMETOOLONG;
			break;
		}
		if (link(tmp, out) == 0) {
			unlink(tmp);
			return 0;
		}
		if (errno == EEXIST)
			continue;
		/* No hard links here (some file systems): a name nobody has, by O_EXCL. */
		e = errno;
		{
			int fd2 = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd2 < 0) {
				if (errno == EEXIST)
					continue;
				break;
			}
			for (off = 0; off < len;) {
				ssize_t w = write(fd2, text + off, len - off);
				if (w < 0) {
					if (errno == EINTR)
						continue;
					break;
				}
				off += (size_t)w;
			}
			e = off == len && fsync(fd2) == 0 ? 0 : errno ? errno : EIO;
			close(fd2);
			if (e)
				unlink(out);
			unlink(tmp);
			return e;
		}
	}
	unlink(tmp);
	out[0] = '\0';
	return e ? e : EEXIST;
}

/* Both places in order; `why` gets "PLACE: reason" for each that failed (no stdio:
 * strerror is not async-signal-safe, so the handler passes NULL and gets none). */
static bool write_both(const struct bases *b, const char *text, size_t len, char *where, size_t wsz, char *why,
		       size_t whysz)
{
	int e;
	if (why)
		why[0] = '\0';
	if (b->beside[0]) {
		e = write_new(b->beside, text, len, where, wsz);
		if (!e)
			return true;
		if (why)
			snprintf(why, whysz, "%s: %s", b->beside, strerror(e));
	}
	if (b->state[0]) {
		make_dirs(b->dir);
		e = write_new(b->state, text, len, where, wsz);
		if (!e)
			return true;
		if (why) {
			size_t n = strlen(why);
			snprintf(why + n, whysz - n, "%s%s: %s", n ? "; " : "", b->state, strerror(e));
		}
	} else if (why) {
		size_t n = strlen(why);
		snprintf(why + n, whysz - n, "%sno state directory ($XDG_STATE_HOME and $HOME are not set)", n ? "; " : "");
	}
	where[0] = '\0';
	return false;
}

bool recover_write(const char *file, const char *text, size_t len, char *where, size_t wsz, char *err, size_t esz)
{
	struct bases b;
	bases_of(file, &b);
	return write_both(&b, text, len, where, wsz, err, esz);
}

/* ---- the signal path ------------------------------------------------------------------ */

static struct {
	volatile sig_atomic_t armed, busy, pending;
	char exit_seq[512];
	struct termios modes;
	bool have_modes;
	struct bases bases;         /* of the design being computed */
	char *text[2];              /* double buffer: the handler reads text[cur] */
	size_t len[2];
	volatile sig_atomic_t cur, have;
} sig;

void recover_arm(const char *exit_seq, const struct termios *modes)
{
	snprintf(sig.exit_seq, sizeof sig.exit_seq, "%s", exit_seq ? exit_seq : "");
	sig.have_modes = modes != NULL;
	if (modes)
		sig.modes = *modes;
	sig.armed = 1;
}

void recover_disarm(void)
{
	sig.armed = 0;
	sig.busy = 0;
	sig.have = 0;
	free(sig.text[0]);
	free(sig.text[1]);
	sig.text[0] = sig.text[1] = NULL;
}

static void emergency(int s)
{
	static char where[RECOVER_PATH];
	bool ok = true;
	/* The terminal first: the user sees a shell, not a frozen screen. */
	s_put(STDOUT_FILENO, sig.exit_seq);
	if (sig.have_modes)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &sig.modes);
	if (sig.have) {
		int c = sig.cur;
		ok = write_both(&sig.bases, sig.text[c], sig.len[c], where, sizeof where, NULL, 0);
		if (ok) {
			s_put(STDERR_FILENO, "ncfabric: unsaved changes written to ");
			s_put(STDERR_FILENO, where);
			s_put(STDERR_FILENO, "\n");
		} else {
			s_put(STDERR_FILENO, "ncfabric: unsaved changes could not be written to ");
			s_put(STDERR_FILENO, sig.bases.beside[0] ? sig.bases.beside : sig.bases.state);
			if (sig.bases.beside[0] && sig.bases.state[0]) {
				s_put(STDERR_FILENO, " nor to ");
				s_put(STDERR_FILENO, sig.bases.state);
			}
			s_put(STDERR_FILENO, ": they are lost\n");
		}
	}
	_exit(ok ? 128 + s : 1);
}

void recover_compute_begin(const char *file, const char *text)
{
	if (!sig.armed)
		return;
	if (text) {
		int next = !sig.cur;
		/* The handler may run at any point here: it reads text[cur] only. */
		free(sig.text[next]);
		sig.len[next] = strlen(text);
		sig.text[next] = xmalloc(sig.len[next] + 1);
		memcpy(sig.text[next], text, sig.len[next] + 1);
		sig.have = 0;
		bases_of(file, &sig.bases);
		sig.cur = next;
		sig.have = 1;
	} else {
		sig.have = 0;
	}
	sig.busy++;
	if (sig.pending)
		emergency(sig.pending); /* a signal came while the text was being made */
}

void recover_compute_end(void)
{
	if (sig.busy > 0)
		sig.busy--;
}

bool recover_armed(void)
{
	return sig.armed != 0;
}

void recover_app_begin(const struct app *app)
{
	const struct design *d;
	const char *file;
	char *text = NULL;
	if (!sig.armed)
		return;
	if (app_work(app, &d, &file))
		text = design_to_text(d, FMT_YAML);
	recover_compute_begin(file, text);
	free(text);
}

int recover_save_app(const struct app *app, char *msg, size_t size)
{
	const struct design *d;
	const char *file;
	char *text, where[RECOVER_PATH], why[2 * RECOVER_PATH + 200];
	bool ok;
	msg[0] = '\0';
	if (!app_work(app, &d, &file))
		return 0;
	text = design_to_text(d, FMT_YAML);
	if (!text) {
		snprintf(msg, size, "unsaved changes could not be written (the design cannot be formatted): they are lost");
		return 1;
	}
	ok = recover_write(file, text, strlen(text), where, sizeof where, why, sizeof why);
	free(text);
	if (ok && why[0])
		snprintf(msg, size, "unsaved changes written to %s (%s)", where, why);
	else if (ok)
		snprintf(msg, size, "unsaved changes written to %s", where);
	else
		snprintf(msg, size, "unsaved changes could not be written (%s): they are lost", why);
	return ok ? 0 : 1;
}

void recover_on_signal(int s)
{
	if (!sig.armed)
		return;
	/* SIGINT is a key (C-c asks, as q does) unless the model holds the loop: then it too
	 * writes the work and ends the program. */
	if (s != SIGINT)
		sig.pending = s;
	if (sig.busy)
		emergency(s);
}
