#include "io/report.h"
#include "model/alloc.h"
#include <cJSON.h>
#include <string.h>
#include <stdlib.h>

#ifndef NCF_VERSION_STRING
#define NCF_VERSION_STRING "0.1.0"
#endif

static const char *plural(long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_power(FILE *out, const struct inventory *inv)
{
	if (inv->power_W > 0)
		fprintf(out, "  power            %.1f kW%s\n", inv->power_W / 1000.0,
			inv->power_unknown ? " (partial: the catalog lacks the power of some parts)" : "");
	else
		fprintf(out, "  power            not known (the catalog lacks the power of these parts)\n");
	if (inv->rack_units > 0)
		fprintf(out, "  rack units       %.0f U%s\n", inv->rack_units,
			inv->rack_units_unknown ? " (partial)" : "");
	else
		fprintf(out, "  rack units       not known\n");
}

void report_text(FILE *out, const struct report_in *r)
{
	const struct inventory *inv = r->inv;
	const struct design *d = r->design;
	size_t i;
	static const char *role_plural[] = { "leaf switches", "spine switches", "core switches" };

	fprintf(out, "ncfabric report: %s (%s)\n", d->name, r->file);
	if (d->description[0])
		fprintf(out, "  %s\n", d->description);
	fprintf(out, "  catalog: %s\n\n", r->catalog_source);

	fprintf(out, "Inventory\n");
	fprintf(out, "  servers          %ld\n", inv->servers);
	fprintf(out, "  GPUs             %ld\n", inv->gpus);
	fprintf(out, "  NICs             %ld compute, %ld storage\n", inv->nics_compute, inv->nics_storage);
	if (inv->nvlink_domains)
		fprintf(out, "  NVLink domains   %ld (%ld NVLink switch trays)\n", inv->nvlink_domains, inv->nvswitch_trays);
	for (i = 0; i < 3; i++)
		if (inv->switches[i])
			fprintf(out, "  %-16s %ld\n", role_plural[i], inv->switches[i]);
	fprintf(out, "  links            %ld", inv->links);
	if (inv->links) {
		const char *sep = " (";
		int m;
		for (m = MEDIA_DAC; m <= MEDIA_TRANSCEIVER; m++)
			if (inv->cables_by_media[m]) {
				fprintf(out, "%s%ld %s", sep, inv->cables_by_media[m],
					m == MEDIA_TRANSCEIVER ? "optical" : media_names[m]);
				sep = ", ";
			}
		fprintf(out, ")");
	}
	fprintf(out, "\n");
	if (inv->transceivers)
		fprintf(out, "  transceivers     %ld\n", inv->transceivers);
	print_power(out, inv);

	if (inv->switch_groups.n) {
		fprintf(out, "\nSwitch ports (per switch)\n");
		fprintf(out, "  %-14s %-6s %5s %-18s %6s %6s %6s %6s\n", "group", "role", "count", "model", "ports", "down",
			"up", "free");
		for (i = 0; i < inv->switch_groups.n; i++) {
			const struct inv_switch_group *s = &VEC_AT(inv->switch_groups, struct inv_switch_group, i);
			fprintf(out, "  %-14s %-6s %5d %-18s %6ld %6ld %6ld %6ld%s\n", s->name, switch_role_names[s->role],
				s->count, s->model, s->ports, s->down, s->up, s->free, s->free < 0 ? "  OVER RADIX" : "");
		}
	}
	if (inv->bundles.n) {
		fprintf(out, "\nLinks by bundle\n");
		for (i = 0; i < inv->bundles.n; i++) {
			const struct inv_link *l = &VEC_AT(inv->bundles, struct inv_link, i);
			fprintf(out, "  %s -> %s: %ld %s x %d Gb/s, %s%s%s\n", l->from, l->to, l->links,
				plural(l->links, "link", "links"), l->speed_gbps, media_names[l->media],
				l->cable[0] ? " " : "", l->cable);
		}
	}
	fprintf(out, "\nProblems\n");
	if (!diag_count(r->problems))
		fprintf(out, "  none\n");
	for (i = 0; i < diag_count(r->problems); i++) {
		const struct ncf_problem *p = diag_get(r->problems, i);
		fprintf(out, "  %s: %s", p->sev == NCF_ERROR ? "error" : "warning", p->msg);
		if (p->line)
			fprintf(out, " (%s:%d:%d)", r->file, p->line, p->col);
		else if (p->path[0])
			fprintf(out, " (%s)", p->path);
		fprintf(out, "\n");
	}
}

char *report_json(const struct report_in *r)
{
	const struct inventory *inv = r->inv;
	cJSON *root = cJSON_CreateObject(), *o, *a, *e;
	char *text, *out;
	size_t i;
	int m;

	cJSON_AddStringToObject(root, "ncfabric_version", NCF_VERSION_STRING);
	cJSON_AddStringToObject(root, "design", r->design->name);
	cJSON_AddStringToObject(root, "file", r->file);
	cJSON_AddStringToObject(root, "catalog", r->catalog_source);

	o = cJSON_AddObjectToObject(root, "inventory");
	cJSON_AddNumberToObject(o, "servers", (double)inv->servers);
	cJSON_AddNumberToObject(o, "gpus", (double)inv->gpus);
	cJSON_AddNumberToObject(o, "nics", (double)inv->nics_compute);
	cJSON_AddNumberToObject(o, "nics_storage", (double)inv->nics_storage);
	cJSON_AddNumberToObject(o, "nvlink_domains", (double)inv->nvlink_domains);
	cJSON_AddNumberToObject(o, "nvswitch_trays", (double)inv->nvswitch_trays);
	e = cJSON_AddObjectToObject(o, "switches");
	for (m = 0; m < 3; m++)
		cJSON_AddNumberToObject(e, switch_role_names[m], (double)inv->switches[m]);
	cJSON_AddNumberToObject(o, "links", (double)inv->links);
	e = cJSON_AddObjectToObject(o, "cables");
	for (m = MEDIA_DAC; m <= MEDIA_TRANSCEIVER; m++)
		cJSON_AddNumberToObject(e, media_names[m], (double)inv->cables_by_media[m]);
	cJSON_AddNumberToObject(o, "transceivers", (double)inv->transceivers);
	cJSON_AddNumberToObject(o, "power_W", inv->power_W);
	cJSON_AddBoolToObject(o, "power_complete", !inv->power_unknown);
	cJSON_AddNumberToObject(o, "rack_units", inv->rack_units);
	cJSON_AddBoolToObject(o, "rack_units_complete", !inv->rack_units_unknown);
	a = cJSON_AddArrayToObject(o, "switch_groups");
	for (i = 0; i < inv->switch_groups.n; i++) {
		const struct inv_switch_group *s = &VEC_AT(inv->switch_groups, struct inv_switch_group, i);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", s->name);
		cJSON_AddStringToObject(e, "role", switch_role_names[s->role]);
		cJSON_AddStringToObject(e, "model", s->model);
		cJSON_AddNumberToObject(e, "count", s->count);
		cJSON_AddNumberToObject(e, "ports", (double)s->ports);
		cJSON_AddNumberToObject(e, "port_speed_gbps", s->port_speed_gbps);
		cJSON_AddNumberToObject(e, "ports_down", (double)s->down);
		cJSON_AddNumberToObject(e, "ports_up", (double)s->up);
		cJSON_AddNumberToObject(e, "ports_free", (double)s->free);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "bundles");
	for (i = 0; i < inv->bundles.n; i++) {
		const struct inv_link *l = &VEC_AT(inv->bundles, struct inv_link, i);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "from", l->from);
		cJSON_AddStringToObject(e, "to", l->to);
		cJSON_AddNumberToObject(e, "links", (double)l->links);
		cJSON_AddNumberToObject(e, "speed_gbps", l->speed_gbps);
		cJSON_AddStringToObject(e, "media", media_names[l->media]);
		cJSON_AddStringToObject(e, "cable", l->cable);
		cJSON_AddNumberToObject(e, "transceivers", (double)l->transceivers);
		cJSON_AddItemToArray(a, e);
	}

	a = cJSON_AddArrayToObject(root, "problems");
	for (i = 0; i < diag_count(r->problems); i++) {
		const struct ncf_problem *p = diag_get(r->problems, i);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "severity", p->sev == NCF_ERROR ? "error" : "warning");
		cJSON_AddStringToObject(e, "where", p->path);
		cJSON_AddNumberToObject(e, "line", p->line);
		cJSON_AddNumberToObject(e, "column", p->col);
		cJSON_AddStringToObject(e, "message", p->msg);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddNumberToObject(root, "errors", r->problems->n_errors);
	cJSON_AddNumberToObject(root, "warnings", r->problems->n_warnings);

	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return NULL;
	out = xmalloc(strlen(text) + 2);
	strcpy(out, text);
	strcat(out, "\n");
	cJSON_free(text);
	return out;
}
