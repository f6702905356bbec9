/* lesson.h: the guided lesson of the teaching view, as data.
 *
 * Each page builds its design from scratch (a template with settings, then ':' commands),
 * so going back and forth always shows the same thing, and its text names the numbers by
 * key ({busbw}, {eff}, ...); they are filled in from the model when the page is drawn, so
 * the words follow the design on screen. */
#ifndef NCF_LESSON_H
#define NCF_LESSON_H
#include <stddef.h>

struct app;

struct lesson_page {
	const char *title;
	const char *template_name;     /* built with its defaults and `sets` */
	const char *sets;              /* "KEY=VALUE ..." for the template */
	const char *cmds[4];           /* ':' commands run after it, NULL-terminated */
	const char *text;              /* with {key} fields */
};

extern const struct lesson_page lesson_pages[];
extern const int lesson_npages;

/* Text of page i with its fields filled in from the app's model. */
void lesson_text(const struct app *app, int i, char *buf, size_t size);

#endif
