/* parse_yaml.c: libyaml events to a tree, strictly. */
#include "io/parse.h"
#include "model/alloc.h"
#include <yaml.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void text_position(const char *buf, size_t len, size_t off, int *line, int *col)
{
	size_t i;
	int l = 1, c = 1;
	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)buf[i] & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

bool text_check_nul(const char *buf, size_t len, struct ncf_diag *diag)
{
	const char *z = memchr(buf, '\0', len);
	if (z) {
		int l, c;
		text_position(buf, len, (size_t)(z - buf), &l, &c);
		diag_add_at(diag, NCF_ERROR, l, c, "binary data: a NUL byte where text was expected");
		return false;
	}
	return true;
}

struct frame {
	struct tnode *node;
	char *key;          /* pending key of a map, or NULL */
	int kline, kcol;
};

static const char *kind_name(enum tkind k)
{
	return k == TN_MAP ? "a mapping" : k == TN_SEQ ? "a list" : "a scalar";
}

/* Attach a finished child to the frame on top: a map alternates key, value. */
static bool attach(struct frame *top, struct tnode *child, struct ncf_diag *diag)
{
	if (top->node->kind == TN_SEQ) {
		tnode_add(top->node, NULL, 0, 0, child);
		return true;
	}
	if (!top->key) {
		if (child->kind != TN_SCALAR) {
			diag_add_at(diag, NCF_ERROR, child->line, child->col,
				    "expected a key (a plain word), got %s", kind_name(child->kind));
			tnode_free(child);
			return false;
		}
		if (strcmp(child->text, "<<") == 0 && !child->quoted) {
			diag_add_at(diag, NCF_ERROR, child->line, child->col,
				    "YAML merge keys ('<<') are not allowed in design files: write the keys out");
			tnode_free(child);
			return false;
		}
		/* Repeated keys are found when the mapping ends (tnode_find_duplicate, O(n log n)). */
		top->key = child->text;
		top->kline = child->line;
		top->kcol = child->col;
		child->text = NULL;
		tnode_free(child);
		return true;
	}
	tnode_add(top->node, top->key, top->kline, top->kcol, child);
	free(top->key);
	top->key = NULL;
	return true;
}

static void yaml_error(yaml_parser_t *p, const char *buf, size_t len, struct ncf_diag *diag)
{
	int line, col;
	char ctx[160] = "";
	if (p->error == YAML_READER_ERROR) {
		text_position(buf, len, p->problem_offset, &line, &col);
		if (p->problem_value != -1)
			diag_add_at(diag, NCF_ERROR, line, col, "not valid UTF-8 text: %s (byte 0x%02X)", p->problem,
				    (unsigned)p->problem_value & 0xFF);
		else
			diag_add_at(diag, NCF_ERROR, line, col, "not valid UTF-8 text: %s", p->problem);
		return;
	}
	if (p->error == YAML_MEMORY_ERROR) {
		diag_add_at(diag, NCF_ERROR, 1, 1, "out of memory while reading YAML");
		return;
	}
	if (p->context)
		snprintf(ctx, sizeof ctx, " (%s at line %lu)", p->context, (unsigned long)p->context_mark.line + 1);
	diag_add_at(diag, NCF_ERROR, (int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1,
		    "invalid YAML: %s%s", p->problem ? p->problem : "syntax error", ctx);
}

struct tnode *parse_yaml(const char *buf, size_t len, struct ncf_diag *diag)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct frame stack[NCF_MAX_DEPTH + 1];
	int depth = 0, docs = 0;
	long nodes = 0;
	struct tnode *root = NULL;
	bool ok = true, done = false;

	if (!text_check_nul(buf, len, diag))
		return NULL;
	if (!yaml_parser_initialize(&p)) {
		diag_add_at(diag, NCF_ERROR, 1, 1, "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (ok && !done) {
		struct tnode *n = NULL;
		int line, col;
		if (!yaml_parser_parse(&p, &ev)) {
			yaml_error(&p, buf, len, diag);
			ok = false;
			break;
		}
		line = (int)ev.start_mark.line + 1;
		col = (int)ev.start_mark.column + 1;
		/* Limits hold while parsing: memory stays bounded whatever the file holds. */
		if ((ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
		     ev.type == YAML_MAPPING_START_EVENT) && ++nodes > NCF_MAX_NODES) {
			diag_add_at(diag, NCF_ERROR, line, col, "more than %d values in one file", NCF_MAX_NODES);
			ok = false;
			yaml_event_delete(&ev);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1) {
				diag_add_at(diag, NCF_ERROR, line, col, "more than one YAML document: a file holds one design");
				ok = false;
			}
			break;
		case YAML_ALIAS_EVENT:
			diag_add_at(diag, NCF_ERROR, line, col,
				    "YAML aliases ('*%s') are not allowed in design files: write the value out",
				    (const char *)ev.data.alias.anchor);
			ok = false;
			break;
		case YAML_SCALAR_EVENT:
			if (ev.data.scalar.tag && !ev.data.scalar.plain_implicit && !ev.data.scalar.quoted_implicit) {
				diag_add_at(diag, NCF_ERROR, line, col, "YAML tags ('%s') are not allowed in design files",
					    (const char *)ev.data.scalar.tag);
				ok = false;
				break;
			}
			n = tnode_new(TN_SCALAR, line, col);
			n->text = xstrdup_len((const char *)ev.data.scalar.value, ev.data.scalar.length);
			n->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
			if (strlen(n->text) != ev.data.scalar.length) {
				diag_add_at(diag, NCF_ERROR, line, col, "a NUL character inside a string");
				tnode_free(n);
				ok = false;
				break;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			const yaml_char_t *tag = ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.tag
										       : ev.data.mapping_start.tag;
			int implicit = ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.implicit
									     : ev.data.mapping_start.implicit;
			if (tag && !implicit) {
				diag_add_at(diag, NCF_ERROR, line, col, "YAML tags ('%s') are not allowed in design files",
					    (const char *)tag);
				ok = false;
				break;
			}
			if (depth >= NCF_MAX_DEPTH) {
				diag_add_at(diag, NCF_ERROR, line, col, "nested deeper than %d levels", NCF_MAX_DEPTH);
				ok = false;
				break;
			}
			stack[depth].node = tnode_new(ev.type == YAML_SEQUENCE_START_EVENT ? TN_SEQ : TN_MAP, line, col);
			stack[depth].key = NULL;
			depth++;
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			size_t first, dup;
			n = stack[--depth].node;
			free(stack[depth].key);
			if (tnode_find_duplicate(n, &first, &dup)) {
				diag_add_at(diag, NCF_ERROR, n->kline[dup], n->kcol[dup], "duplicate key '%s' (first at line %d)",
					    n->keys[dup], n->kline[first]);
				tnode_free(n);
				n = NULL;
				ok = false;
			}
			break;
		}
		default:
			break;
		}
		if (ok && n) {
			if (depth == 0)
				root = n;
			else if (depth > 0 && stack[depth - 1].node->n >= NCF_MAX_ITEMS) {
				diag_add_at(diag, NCF_ERROR, line, col, "more than %d items in one list or mapping", NCF_MAX_ITEMS);
				tnode_free(n);
				ok = false;
			} else if (!attach(&stack[depth - 1], n, diag))
				ok = false;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	while (depth > 0) { /* frames still open were never attached to a parent */
		depth--;
		free(stack[depth].key);
		tnode_free(stack[depth].node);
	}
	if (!ok) {
		tnode_free(root);
		return NULL;
	}
	if (!root) {
		diag_add_at(diag, NCF_ERROR, 1, 1, "empty file: expected a mapping starting with 'ncfabric: 1'");
		return NULL;
	}
	return root;
}

enum file_format format_guess(const char *name, const char *buf, size_t len)
{
	size_t i, n = name ? strlen(name) : 0;
	if (n >= 5 && strcmp(name + n - 5, ".json") == 0)
		return FMT_JSON;
	if ((n >= 5 && strcmp(name + n - 5, ".yaml") == 0) || (n >= 4 && strcmp(name + n - 4, ".yml") == 0))
		return FMT_YAML;
	for (i = 0; i < len; i++) {
		if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r')
			continue;
		return buf[i] == '{' ? FMT_JSON : FMT_YAML;
	}
	return FMT_YAML;
}

struct tnode *parse_text(const char *buf, size_t len, enum file_format fmt, struct ncf_diag *diag)
{
	return fmt == FMT_JSON ? parse_json(buf, len, diag) : parse_yaml(buf, len, diag);
}

/* Byte offset of character index ci in UTF-8 buf (libyaml's marks count characters). */
static size_t char_offset(const char *buf, size_t len, size_t *at_byte, size_t *at_char, size_t ci)
{
	if (ci < *at_char)
		*at_byte = *at_char = 0;
	while (*at_char < ci && *at_byte < len) {
		(*at_byte)++;
		while (*at_byte < len && ((unsigned char)buf[*at_byte] & 0xC0) == 0x80)
			(*at_byte)++;
		(*at_char)++;
	}
	return *at_byte;
}

bool yaml_comments(const char *buf, size_t len, size_t *head)
{
	yaml_parser_t p;
	yaml_token_t t;
	size_t i = 0, byte = 0, chr = 0, from = 0;
	bool found = false, done = false;
	/* The leading block, line by line. */
	*head = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
			j++;
		if (j < len && buf[j] != '\n' && buf[j] != '\r' && buf[j] != '#')
			break;
		while (j < len && buf[j] != '\n')
			j++;
		if (j >= len)
			break; /* a last line without its newline is not whole: left to the rest */
		i = j + 1;
		*head = i;
	}
	if (!yaml_parser_initialize(&p))
		return memchr(buf + *head, '#', len - *head) != NULL;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done && !found) {
		size_t start, end;
		if (!yaml_parser_scan(&p, &t)) {
			found = memchr(buf + *head, '#', len - *head) != NULL;
			break;
		}
		start = char_offset(buf, len, &byte, &chr, t.start_mark.index);
		if (start > from && start <= len) {
			size_t a = from > *head ? from : *head;
			found = a < start && memchr(buf + a, '#', start - a) != NULL;
		}
		end = char_offset(buf, len, &byte, &chr, t.end_mark.index);
		from = end > from ? end : from;
		done = t.type == YAML_STREAM_END_TOKEN;
		yaml_token_delete(&t);
	}
	yaml_parser_delete(&p);
	return found;
}
