#include "io/diff.h"
#include "io/report.h"
#include "io/safetext.h"
#include "io/codec.h"
#include "io/units.h"
#include <cJSON.h>
#include <string.h>

const char *change_text(const struct design_change *c, char *buf, size_t size)
{
	const char *sep = c->field[0] ? " " : "";
	switch (c->kind) {
	case CH_ADDED:
		snprintf(buf, size, "%s%s%s added (%s)", c->what, sep, c->field, c->b);
		break;
	case CH_REMOVED:
		snprintf(buf, size, "%s%s%s removed (%s)", c->what, sep, c->field, c->a);
		break;
	default:
		snprintf(buf, size, "%s: %s %s -> %s", c->what, c->field, c->a[0] ? c->a : "''", c->b[0] ? c->b : "''");
	}
	return buf;
}

static void diff_text_raw(FILE *out, const struct diff_in *d);

void diff_text(FILE *out, const struct diff_in *d)
{
	struct safe_capture cap;
	diff_text_raw(safe_capture(&cap, out), d);
	safe_release(&cap);
}

static void diff_text_raw(FILE *out, const struct diff_in *d)
{
	char line[400], size[32], va[48], vb[48], delta[64], la[4200], lb[4200];
	size_t i;
	int k, verdict;
	fprintf(out, "A  %s %s\nB  %s %s\n\n", d->name_a, report_file_label(d->file_a, la, sizeof la), d->name_b,
		report_file_label(d->file_b, lb, sizeof lb));
	if (d->changes->n == 0)
		fprintf(out, "Design changes: none\n");
	else
		fprintf(out, "Design changes: %zu\n", d->changes->n);
	for (i = 0; i < d->changes->n; i++)
		fprintf(out, "  %s\n", change_text(&VEC_AT(*d->changes, struct design_change, i), line, sizeof line));
	fprintf(out, "\nNumbers (busbw at %s, the job's algorithm or NCCL's pick)\n", format_size(d->bytes, size, sizeof size));
	fprintf(out, "  %-24s %16s %16s  %s\n", "", "A", "B", "B - A");
	for (k = 0; k < d->n; k++) {
		if (!d->ha[k].known && !d->hb[k].known)
			continue; /* not defined for either design (an oversubscription with no such tier) */
		headline_delta(&d->ha[k], &d->hb[k], &verdict, delta, sizeof delta);
		fprintf(out, "  %-24s %16s %16s  %s%s\n", d->ha[k].label, headline_value(&d->ha[k], va, sizeof va),
			headline_value(&d->hb[k], vb, sizeof vb), delta,
			verdict > 0 ? "  better" : verdict < 0 ? "  worse" : "");
	}
}

static cJSON *value_json(const struct headline *h)
{
	return h->known ? cJSON_CreateNumber(h->value) : cJSON_CreateNull();
}

char *diff_json(const struct diff_in *d)
{
	cJSON *root = cJSON_CreateObject(), *o, *a, *e;
	size_t i;
	int k, verdict;
	char delta[64];
	o = cJSON_AddObjectToObject(root, "a");
	cJSON_AddStringToObject(o, "name", d->name_a);
	cJSON_AddStringToObject(o, "file", d->file_a);
	o = cJSON_AddObjectToObject(root, "b");
	cJSON_AddStringToObject(o, "name", d->name_b);
	cJSON_AddStringToObject(o, "file", d->file_b);
	cJSON_AddNumberToObject(root, "bytes", d->bytes);
	a = cJSON_AddArrayToObject(root, "changes");
	for (i = 0; i < d->changes->n; i++) {
		const struct design_change *c = &VEC_AT(*d->changes, struct design_change, i);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "kind", change_kind_names[c->kind]);
		cJSON_AddStringToObject(e, "object", c->what);
		cJSON_AddStringToObject(e, "field", c->field);
		cJSON_AddStringToObject(e, "a", c->a);
		cJSON_AddStringToObject(e, "b", c->b);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(root, "numbers");
	for (k = 0; k < d->n; k++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "key", d->ha[k].key);
		cJSON_AddStringToObject(e, "label", d->ha[k].label);
		cJSON_AddStringToObject(e, "unit", d->ha[k].unit);
		cJSON_AddItemToObject(e, "a", value_json(&d->ha[k]));
		cJSON_AddItemToObject(e, "b", value_json(&d->hb[k]));
		headline_delta(&d->ha[k], &d->hb[k], &verdict, delta, sizeof delta);
		if (d->ha[k].known && d->hb[k].known)
			cJSON_AddNumberToObject(e, "delta", d->hb[k].value - d->ha[k].value);
		else
			cJSON_AddNullToObject(e, "delta");
		/* Unknown on both sides, or known for only some parts: nothing to call the same. */
		cJSON_AddStringToObject(e, "verdict", verdict > 0 ? "better" : verdict < 0 ? "worse"
						      : (!d->ha[k].known && !d->hb[k].known) || !strncmp(delta, "unknown", 7) ? "unknown"
						      : strcmp(delta, "=") == 0 ? "same" : "changed");
		cJSON_AddBoolToObject(e, "partial", d->ha[k].partial || d->hb[k].partial);
		cJSON_AddItemToArray(a, e);
	}
	return json_print_free(root);
}
