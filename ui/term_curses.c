/* term_curses.c: curses lives here and nowhere else. It copies a canvas to the screen,
 * maps style roles to attributes, and turns curses keys into the program's key codes. */
#include "ui/term.h"
#include "io/design_io.h"
#include "ui/recover.h"
#include <termios.h>
#include <unistd.h>
#include <curses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <wchar.h>
#include <time.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
	recover_on_signal(sig); /* while the model computes: saves the work and exits from here */
}

/* Mono first: meaning never rests on colour (style.md H10). */
static const attr_t mono[ROLE_COUNT] = {
	[ROLE_NORMAL] = A_NORMAL,   [ROLE_TITLE] = A_REVERSE | A_BOLD, [ROLE_HEADING] = A_BOLD,
	[ROLE_SELECTED] = A_REVERSE, [ROLE_NUMBER] = A_BOLD,           [ROLE_WARNING] = A_BOLD,
	[ROLE_ERROR] = A_BOLD | A_UNDERLINE, [ROLE_STATUS] = A_REVERSE, [ROLE_DIM] = A_DIM,
};
static const short fg[ROLE_COUNT] = {
	[ROLE_NORMAL] = -1, [ROLE_TITLE] = COLOR_CYAN, [ROLE_HEADING] = COLOR_YELLOW, [ROLE_SELECTED] = COLOR_CYAN,
	[ROLE_NUMBER] = COLOR_GREEN, [ROLE_WARNING] = COLOR_YELLOW, [ROLE_ERROR] = COLOR_RED,
	[ROLE_STATUS] = COLOR_BLUE, [ROLE_DIM] = -1,
};
static attr_t attrs[ROLE_COUNT];

static void setup_colors(bool want)
{
	int r;
	const char *nc = getenv("NO_COLOR");
	for (r = 0; r < ROLE_COUNT; r++)
		attrs[r] = mono[r];
	if (!want || (nc && nc[0]) || !has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	for (r = 1; r < ROLE_COUNT; r++) {
		if (fg[r] < 0)
			continue;
		init_pair((short)r, fg[r], -1);
		/* Reverse-video roles keep their reverse; the colour only adds. */
		attrs[r] = (mono[r] & (A_REVERSE | A_BOLD | A_UNDERLINE)) | COLOR_PAIR(r);
	}
}

static void blit(const struct cellbuf *c)
{
	int x, y;
	for (y = 0; y < c->h; y++)
		for (x = 0; x < c->w; x++) {
			const struct cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
			wchar_t wc[2] = { (wchar_t)cell->ch, 0 };
			cchar_t cc;
			if (y == c->h - 1 && x == c->w - 1)
				continue; /* writing the last cell would scroll some terminals */
			setcchar(&cc, wc, attrs[cell->role], 0, NULL);
			mvadd_wch(y, x, &cc);
		}
}

static int translate(int ch, bool is_key)
{
	if (!is_key) {
		if (ch == '\n' || ch == '\r')
			return NK_ENTER;
		if (ch == 27)
			return NK_ESC;
		if (ch == '\t')
			return NK_TAB;
		if (ch == 127 || ch == 8)
			return NK_BACKSPACE;
		return ch; /* Ctrl-C comes as SIGINT (cbreak keeps ISIG); a 0x03 byte is NK_CTRL_C too */
	}
	switch (ch) {
	case KEY_UP: return NK_UP;
	case KEY_DOWN: return NK_DOWN;
	case KEY_LEFT: return NK_LEFT;
	case KEY_RIGHT: return NK_RIGHT;
	case KEY_ENTER: return NK_ENTER;
	case KEY_RESIZE: return NK_RESIZE;
	case KEY_BACKSPACE: return NK_BACKSPACE;
	case KEY_BTAB: return NK_BTAB;
	case KEY_HOME: return NK_HOME;
	case KEY_END: return NK_END;
	case KEY_PPAGE: return NK_PGUP;
	case KEY_NPAGE: return NK_PGDN;
	case KEY_DC: return NK_DELETE;
	case KEY_MOUSE: return NK_MOUSE;
	default:
		if (ch == KEY_F(1))
			return NK_F1;
		return -1;
	}
}

static unsigned mouse_event(struct app *app)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return CHG_NONE;
	if (ev.bstate & BUTTON1_PRESSED)
		return app_mouse(app, MOUSE_PRESS, ev.x, ev.y);
	if (ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED))
		return app_mouse(app, ev.bstate & BUTTON1_CLICKED ? MOUSE_PRESS : MOUSE_RELEASE, ev.x, ev.y);
	if (ev.bstate & BUTTON4_PRESSED)
		return app_mouse(app, MOUSE_WHEEL_UP, ev.x, ev.y);
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED)
		return app_mouse(app, MOUSE_WHEEL_DOWN, ev.x, ev.y);
#endif
	return CHG_NONE;
}

static SCREEN *open_screen(void)
{
	const char *term = getenv("TERM");
	SCREEN *s = NULL;
	if (term && term[0])
		s = newterm(term, stdout, stdin);
	/* An unknown TERM (an old terminfo over SSH) falls back instead of aborting. */
	if (!s)
		s = newterm("xterm-256color", stdout, stdin);
	if (!s)
		s = newterm("vt100", stdout, stdin);
	return s;
}

/* What endwin would send, as bytes the signal path can write (recover.h). */
static void exit_sequence(char *out, size_t size, bool mouse)
{
	static const char *const caps[] = { "sgr0", "cnorm", "rmkx", "rmcup" };
	size_t i;
	out[0] = '\0';
	for (i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		const char *v = tigetstr(caps[i]);
		if (i == 3 && mouse) /* xterm mouse reporting off, before leaving the screen */
			strncat(out, "\033[?1000l\033[?1002l\033[?1006l", size - strlen(out) - 1);
		if (v && v != (char *)-1)
			strncat(out, v, size - strlen(out) - 1);
	}
}

static bool set_mouse(bool on)
{
	mmask_t mask = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
	mask |= BUTTON5_PRESSED;
#endif
	mousemask(on ? mask : 0, NULL);
	return on;
}

int term_run(struct app *app, const struct term_opts *o, char *recovered, size_t size)
{
	bool mask_on = false;
	unsigned idle = 0;
	SCREEN *scr;
	struct cellbuf c;
	int errors = 0;
	struct sigaction sa;
	struct termios modes;
	bool have_modes = tcgetattr(STDIN_FILENO, &modes) == 0;
	char seq[512];

	recovered[0] = '\0';
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	scr = open_screen();
	if (!scr) {
		fprintf(stderr, "ncfabric: cannot use this terminal (TERM=%s)\n", getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(APP_TICK_MS); /* wake up to notice signals, and to play the teaching view */
	setup_colors(o->color);
	app->mouse = o->mouse;
	mask_on = set_mouse(o->mouse);
	mouseinterval(0);
	cellbuf_init(&c, COLS, LINES);
	c.ascii = o->ascii;
	exit_sequence(seq, sizeof seq, o->mouse);
	recover_arm(seq, have_modes ? &modes : NULL);
	app_layout(app, COLS, LINES);
	for (;;) {
		wint_t wch;
		struct timespec t0, t1;
		int rc, key;
		unsigned chg;
		cellbuf_clear(&c);
		app_draw(app, &c);
		blit(&c);
		refresh();
		if (app_idle_pending(app)) {
			/* Work the last edit left (the cost): only when no key waits. */
			timeout(0);
			rc = get_wch(&wch);
			timeout(APP_TICK_MS);
			if (rc == ERR && !got_signal) {
				app_settle(app, app_idle(app));
				continue;
			}
			t0 = t1 = (struct timespec){ 0, 0 };
		} else {
			clock_gettime(CLOCK_MONOTONIC, &t0);
			rc = get_wch(&wch);
			clock_gettime(CLOCK_MONOTONIC, &t1);
		}
		if (got_signal == SIGINT) {
			/* Ctrl-C is a key like q (it asks before losing work), not a way to die. */
			got_signal = 0;
			chg = app_key(app, NK_CTRL_C);
			app_settle(app, chg);
			if (chg & CHG_QUIT)
				break;
			continue;
		}
		if (got_signal)
			break;
		if (rc == ERR) {
			/* A timeout takes 250 ms; a dead terminal returns ERR at once, again and again. */
			long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
			if (ms < 100 && ++errors > 100)
				break;
			if (ms >= 100)
				app_settle(app, app_tick(app)); /* the teaching view plays on these ticks */
			if (ms >= 100 && ++idle % 8 == 0) /* every 2 s idle: did someone else save the file? */
				app_settle(app, app_check_disk(app));
			continue;
		}
		errors = 0;
		key = translate((int)wch, rc == KEY_CODE_YES);
		if (key == NK_RESIZE) {
			cellbuf_free(&c);
			cellbuf_init(&c, COLS, LINES);
			c.ascii = o->ascii;
			app_layout(app, COLS, LINES);
			continue;
		}
		if (key < 0)
			continue;
		if (c.w < 80 || c.h < 24) {
			if (key == 'q')
				break;
			continue;
		}
		chg = key == NK_MOUSE ? mouse_event(app) : app_key(app, key);
		if (key == NK_CTRL_L)
			clearok(curscr, TRUE);
		if (app->mouse != mask_on)
			mask_on = set_mouse(app->mouse);
		app_settle(app, chg);
		if (chg & CHG_QUIT)
			break;
	}
	recover_disarm();
	cellbuf_free(&c);
	endwin();
	delscreen(scr);
	/* Unsaved work that could be written nowhere: said on stderr, and the status is 1. */
	if ((got_signal || errors > 100 || app->quit_recover) && recover_save_app(app, recovered, size))
		return 1;
	/* As a shell reports a program a signal ended: 128 + the signal (130 for Ctrl-C). */
	if (got_signal)
		return 128 + got_signal;
	if (errors > 100)
		return 128 + SIGHUP;
	return app->interrupted ? 128 + SIGINT : 0;
}
