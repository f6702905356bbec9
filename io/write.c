/* write.c: a tree printed as YAML (libyaml's emitter) or JSON (cJSON), deterministically. */
#include "io/codec.h"
#include "io/safetext.h"
#include "model/alloc.h"
#include <yaml.h>
#include <cJSON.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static char write_problem[200]; /* why the last tree_to_yaml failed */

struct sbuf {
	char *p;
	size_t n, cap;
};

static int sbuf_write(void *data, unsigned char *bytes, size_t size)
{
	struct sbuf *b = data;
	if (b->n + size + 1 > b->cap) {
		b->cap = (b->n + size + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, bytes, size);
	b->n += size;
	b->p[b->n] = '\0';
	return 1;
}

static int emit_node(yaml_emitter_t *e, const struct tnode *n)
{
	yaml_event_t ev;
	size_t i;
	if (n->kind == TN_SCALAR) {
		/* A string that would read back as a number, boolean or null is quoted. */
		int plain = !n->quoted || !scalar_is_special(n->text);
		if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)n->text, (int)strlen(n->text), plain,
						  !plain || n->quoted, YAML_ANY_SCALAR_STYLE)) {
			/* libyaml refuses a value that is not UTF-8 before the emitter sees it. */
			snprintf(write_problem, sizeof write_problem, "a value is not valid UTF-8 text");
			return 0;
		}
		return yaml_emitter_emit(e, &ev);
	}
	if (n->kind == TN_SEQ) {
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  n->n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(e, &ev))
			return 0;
		for (i = 0; i < n->n; i++)
			if (!emit_node(e, n->kids[i]))
				return 0;
		return yaml_sequence_end_event_initialize(&ev) && yaml_emitter_emit(e, &ev);
	}
	if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						 n->n ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE) ||
	    !yaml_emitter_emit(e, &ev))
		return 0;
	for (i = 0; i < n->n; i++) {
		if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)n->keys[i], (int)strlen(n->keys[i]), 1,
						  0, YAML_PLAIN_SCALAR_STYLE) ||
		    !yaml_emitter_emit(e, &ev) || !emit_node(e, n->kids[i]))
			return 0;
	}
	return yaml_mapping_end_event_initialize(&ev) && yaml_emitter_emit(e, &ev);
}

static char *to_yaml(const struct tnode *root, bool explicit_start)
{
	yaml_emitter_t e;
	yaml_event_t ev;
	struct sbuf b = { 0 };
	int ok;
	if (!yaml_emitter_initialize(&e))
		return NULL;
	write_problem[0] = '\0';
	yaml_emitter_set_output(&e, sbuf_write, &b);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, -1);
	yaml_emitter_set_indent(&e, 2);
	yaml_emitter_set_break(&e, YAML_LN_BREAK);
	/* After a failed emit the emitter is not touched again (libyaml #258). */
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(&e, &ev) &&
	     yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, !explicit_start) && yaml_emitter_emit(&e, &ev) &&
	     emit_node(&e, root) && yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
	     yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) && yaml_emitter_flush(&e);
	if (!ok && e.problem)
		snprintf(write_problem, sizeof write_problem, "%s", e.problem);
	else if (!ok && !write_problem[0])
		snprintf(write_problem, sizeof write_problem, "the YAML emitter failed");
	yaml_emitter_delete(&e);
	if (!ok) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

char *tree_to_yaml(const struct tnode *root)
{
	return to_yaml(root, false);
}

char *tree_to_yaml_doc(const struct tnode *root)
{
	return to_yaml(root, true);
}

const char *tree_write_problem(void)
{
	return write_problem[0] ? write_problem : "the text could not be formatted";
}

static cJSON *to_json(const struct tnode *n)
{
	cJSON *j;
	size_t i;
	if (n->kind == TN_SCALAR) {
		if (n->quoted)
			return cJSON_CreateString(n->text);
		if (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0)
			return cJSON_CreateBool(n->text[0] == 't');
		/* Numbers are inserted as written: cJSON 1.7.15 prints some doubles lossily. */
		return cJSON_CreateRaw(n->text);
	}
	j = n->kind == TN_SEQ ? cJSON_CreateArray() : cJSON_CreateObject();
	for (i = 0; i < n->n; i++) {
		if (n->kind == TN_SEQ)
			cJSON_AddItemToArray(j, to_json(n->kids[i]));
		else
			cJSON_AddItemToObject(j, n->keys[i], to_json(n->kids[i]));
	}
	return j;
}

/* A number as cJSON (1.7) prints it: "%1.15g", or "%1.17g" when that does not read back
 * as the same double (cJSON's compare_double), null for NaN and infinities. An integer
 * below 10^15 is its digits under "%1.15g" (exact, so it reads back), and is written here
 * without printf's floating-point path. */
static void number_text(double d, char buf[32])
{
	if (isnan(d) || isinf(d)) {
		strcpy(buf, "null");
	} else if (d == trunc(d) && fabs(d) < 1e15) {
		char digits[24], *p = digits + sizeof digits;
		unsigned long long u = (unsigned long long)fabs(d);
		size_t n = 0;
		*--p = '\0';
		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (signbit(d))
			buf[n++] = '-';
		strcpy(buf + n, p);
	} else {
		double back, most;
		snprintf(buf, 32, "%1.15g", d);
		back = strtod(buf, NULL);
		most = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
		if (!(fabs(back - d) <= most * DBL_EPSILON))
			snprintf(buf, 32, "%1.17g", d);
	}
}

/* The texts of the numbers converted so far, by their bits: a report repeats many of its
 * numbers (a bandwidth per algorithm and again as the automatic choice's). */
struct number_memo {
	struct {
		double d;
		char text[32];
	} e[64];
	bool used[64];
};

static const char *memo_text(struct number_memo *m, double d)
{
	uint64_t bits;
	size_t h;
	memcpy(&bits, &d, sizeof bits);
	h = (size_t)((bits * 0x9e3779b97f4a7c15ull) >> 58);
	if (!m->used[h] || memcmp(&m->e[h].d, &d, sizeof d)) {
		m->e[h].d = d;
		number_text(d, m->e[h].text);
		m->used[h] = true;
	}
	return m->e[h].text;
}

/* Every number of the tree made raw JSON of the text cJSON would print for it: the same
 * bytes, without a printf, a sscanf and often a second printf per number (a third of what
 * `report --json` cost). False when out of memory (the tree is then partly converted). */
static bool numbers_raw(cJSON *j, struct number_memo *m)
{
	for (; j; j = j->next) {
		if (cJSON_IsNumber(j) && !(j->type & cJSON_IsReference)) {
			const char *text = memo_text(m, j->valuedouble);
			size_t n = strlen(text) + 1;
			if (!(j->valuestring = cJSON_malloc(n)))
				return false;
			memcpy(j->valuestring, text, n);
			j->type = (j->type & ~0xff) | cJSON_Raw;
		} else if (j->child && !numbers_raw(j->child, m)) {
			return false;
		}
	}
	return true;
}

static struct {
	bool on;
	cJSON *kept[8];
	int n;
} to_exit;

void json_trees_to_exit(bool on)
{
	to_exit.on = on;
}

char *json_print_free(void *cjson)
{
	cJSON *j = cjson;
	struct number_memo memo;
	char *s, *out;
	memset(memo.used, 0, sizeof memo.used);
	s = numbers_raw(j, &memo) ? cJSON_Print(j) : NULL;
	if (to_exit.on && to_exit.n < (int)(sizeof to_exit.kept / sizeof *to_exit.kept))
		to_exit.kept[to_exit.n++] = j;
	else
		cJSON_Delete(j);
	if (!s)
		return NULL;
	out = xmalloc(strlen(s) + 2);
	strcpy(out, s);
	strcat(out, "\n");
	cJSON_free(s);
	/* C1 controls, bidirectional overrides and stray bytes as \u escapes (safetext.h). */
	return json_safe(out);
}

char *tree_to_json(const struct tnode *root)
{
	return json_print_free(to_json(root));
}

char *tree_to_text(const struct tnode *root, enum file_format fmt)
{
	return fmt == FMT_JSON ? tree_to_json(root) : tree_to_yaml(root);
}
