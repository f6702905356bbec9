#include "io/report.h"
#include "io/codec.h"
#include "io/units.h"
#include "io/safetext.h"
#include "io/failreport.h"
#include "io/costreport.h"
#include "model/alloc.h"
#include <cJSON.h>
#include <string.h>
#include <stdlib.h>

#ifndef NCF_VERSION_STRING
#define NCF_VERSION_STRING "0.1.0"
#endif

static void report_model_text(FILE *out, const struct report_in *r);
static void report_model_json(cJSON *root, const struct report_in *r);

static const char *plural(long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_power(FILE *out, const struct inventory *inv)
{
	if (inv->power_W > 0)
		fprintf(out, "  power            %.1f kW maximum%s\n", inv->power_W / 1000.0,
			inv->power_unknown ? " (partial: the catalog lacks the power of some parts)" : "");
	else
		fprintf(out, "  power            not known (the catalog lacks the power of these parts)\n");
	if (inv->rack_units > 0)
		fprintf(out, "  rack units       %.0f U%s\n", inv->rack_units,
			inv->rack_units_unknown ? " (partial)" : "");
	else
		fprintf(out, "  rack units       not known\n");
}

static void report_text_raw(FILE *out, const struct report_in *r);

void report_text(FILE *out, const struct report_in *r)
{
	/* Names, messages and file names are filtered on their way to the terminal. */
	struct safe_capture cap;
	report_text_raw(safe_capture(&cap, out), r);
	safe_release(&cap);
}

const char *report_file_label(const char *file, char *buf, size_t size)
{
	if (file[0] == '(')
		snprintf(buf, size, "%s", file);
	else
		snprintf(buf, size, "(%s)", file);
	return buf;
}

static void report_text_raw(FILE *out, const struct report_in *r)
{
	char label[4200];
	const struct inventory *inv = r->inv;
	const struct design *d = r->design;
	size_t i;
	static const char *role_plural[] = { "leaf switches", "spine switches", "core switches" };

	fprintf(out, "ncfabric report: %s %s\n", d->name, report_file_label(r->file, label, sizeof label));
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
		fprintf(out, "  transceivers     %ld (one per cage: a twin-port module serves two links)\n", inv->transceivers);
	if (inv->cables || inv->fibres)
		fprintf(out, "  cables, fibres   %ld %s, %ld %s\n", inv->cables, plural(inv->cables, "cable", "cables"), inv->fibres,
			plural(inv->fibres, "fibre", "fibres"));
	if (inv->racks)
		fprintf(out, "  racks            %ld (the physical layout: ncfabric.5, PHYSICAL LAYOUT)\n", inv->racks);
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
			if (l->media == MEDIA_TRANSCEIVER && l->optic[0][0])
				fprintf(out, "  %s -> %s: %ld %s x %d Gb/s, optical: %s and %s on %s", l->from, l->to, l->links,
					plural(l->links, "link", "links"), l->speed_gbps, l->optic[0], l->optic[1], l->cable);
			else
				fprintf(out, "  %s -> %s: %ld %s x %d Gb/s, %s%s%s", l->from, l->to, l->links,
					plural(l->links, "link", "links"), l->speed_gbps, media_names[l->media],
					l->cable[0] ? " " : "", l->cable);
			if (l->links)
				fprintf(out, ", %.1f to %.1f m", l->min_m, l->max_m);
			if (l->links && l->by_media[l->media] < l->links) {
				/* Mixed: the lengths (or the cages) decide link by link. */
				int m, first = 1;
				fprintf(out, " (");
				for (m = 1; m < 5; m++)
					if (l->by_media[m]) {
						fprintf(out, "%s%ld %s", first ? "" : ", ", l->by_media[m],
							m == MEDIA_TRANSCEIVER ? "optical" : media_names[m]);
						first = 0;
					}
				fprintf(out, ")");
			}
			fprintf(out, "\n");
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
	if (r->metrics)
		report_model_text(out, r);
	if (r->cost && r->bom)
		cost_text(out, r->bom, r->cost, r->prices_file);
}

char *report_json(const struct report_in *r)
{
	const struct inventory *inv = r->inv;
	cJSON *root = cJSON_CreateObject(), *o, *a, *e;
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
	cJSON_AddNumberToObject(o, "cable_count", (double)inv->cables);
	cJSON_AddNumberToObject(o, "fibres", (double)inv->fibres);
	cJSON_AddNumberToObject(o, "racks", (double)inv->racks);
	/* Power: null when no part publishes the figure (power_*_complete says when a sum is
	 * partial). */
	if (inv->power_W > 0)
		cJSON_AddNumberToObject(o, "power_W", inv->power_W);
	else
		cJSON_AddNullToObject(o, "power_W");
	cJSON_AddBoolToObject(o, "power_complete", !inv->power_unknown);
	if (inv->power_typ_W > 0)
		cJSON_AddNumberToObject(o, "power_typ_W", inv->power_typ_W);
	else
		cJSON_AddNullToObject(o, "power_typ_W");
	cJSON_AddBoolToObject(o, "power_typ_complete", !inv->power_typ_unknown);
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
		{
			cJSON *bm = cJSON_AddObjectToObject(e, "links_by_media");
			for (m = MEDIA_DAC; m <= MEDIA_TRANSCEIVER; m++)
				cJSON_AddNumberToObject(bm, media_names[m], (double)l->by_media[m]);
		}
		cJSON_AddStringToObject(e, "cable", l->cable);
		cJSON_AddStringToObject(e, "optic_from", l->optic[0]);
		cJSON_AddStringToObject(e, "optic_to", l->optic[1]);
		cJSON_AddNumberToObject(e, "transceivers", (double)l->transceivers);
		cJSON_AddNumberToObject(e, "min_length_m", l->min_m);
		cJSON_AddNumberToObject(e, "max_length_m", l->max_m);
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
	if (r->metrics)
		report_model_json(root, r);
	if (r->failure && r->fail_before)
		cJSON_AddItemToObject(root, "failure", failure_json(r->fail_before, r->failure));
	if (r->cost && r->bom)
		cJSON_AddItemToObject(root, "cost", cost_json(r->bom, r->cost, r->prices_file));

	return json_print_free(root);
}

/* ---- the model's numbers ------------------------------------------------------------ */

static const char *ratio_text(double r, char *buf, size_t size)
{
	if (r <= 0)
		snprintf(buf, size, "top tier");
	else
		snprintf(buf, size, "%.3g:1", r);
	return buf;
}

static void report_model_text(FILE *out, const struct report_in *r)
{
	const struct metrics *m = r->metrics;
	const struct fabric *f = &m->fabric;
	const struct design *d = r->design;
	const struct workload *w = &m->work;
	char buf[64], sz[32];
	int c, u, i;
	fprintf(out, "\nFabric\n");
	fprintf(out, "  node             %s of %d GPUs%s; the job: %d GPUs on %d node%s\n",
		f->domain_node ? "NVLink domain" : "server", f->node.ppn * (f->gpus < f->node.ppn ? 1 : 1),
		f->domain_node ? "" : "", f->gpus, f->node.nnodes, f->node.nnodes == 1 ? "" : "s");
	if (f->ports)
		fprintf(out, "  network ceiling  %.1f GB/s per node (%d x %d Gb/s%s)\n", f->node_ceiling_GBps, f->ports,
			f->port_gbps, f->slot_GBps > 0 && f->slot_GBps < f->port_GBps * f->ports / (f->cards ? f->cards : 1)
					      ? ", PCIe-limited" : "");
	if (f->node.nvl > 0)
		fprintf(out, "  NVLink           %.1f GB/s per GPU as NCCL counts it (%.0f GB/s line rate)\n", f->node.nvl,
			f->nvlink_GBps);
	else
		fprintf(out, "  host path        %.1f GB/s per GPU as NCCL counts it, through %s (%d socket%s)\n",
			f->node.pci_intra, host_path_names[f->node.intra_path], f->node.sockets > 1 ? f->node.sockets : 1,
			f->node.sockets > 1 ? "s" : "");
	for (i = 0; i < f->ntiers; i++) {
		const struct tier *t = &f->tiers[i];
		char label[80];
		snprintf(label, sizeof label, "%s '%s'", switch_role_names[t->role], t->group);
		fprintf(out, "  %-16s %s (%.0f down, %.0f up GB/s per switch; %.3g nodes under one%s)\n", label,
			t->peer ? "peer-linked" : ratio_text(t->ratio, buf, sizeof buf), t->down_GBps, t->up_GBps,
			t->nodes_under, t->hash == HASH_ECMP ? "; static ECMP" : t->hash == HASH_IB_STATIC ? "; static routing" :
					  t->hash == HASH_FLUID ? "; adaptive" : "");
	}
	if (f->gpus_per_link > 0)
		fprintf(out, "  GPUs per link    %.3g:1 (GPUs : cross-server links)\n", f->gpus_per_link);
	if (f->design_nodes > 1)
		fprintf(out, "  bisection        %.1f GB/s (%.2f GB/s per GPU%s)\n", f->bisection_GBps, f->bisection_per_gpu_GBps,
			f->bisection_bound > 0 ? "; at most: the split by rank, no exact minimum for this shape"
			: f->bisection_bound < 0 ? "; at least: each plane's worst cut apart" : "");
	if (f->note[0])
		fprintf(out, "  note             %s\n", f->note);

	fprintf(out, "\nCollectives at %s (%d rank%s on %d node%s), GB/s, busbw as nccl-tests reports it\n",
		format_size(m->bytes, sz, sizeof sz), m->nccl.nranks, m->nccl.nranks == 1 ? "" : "s", m->nccl.node.nnodes, m->nccl.node.nnodes == 1 ? "" : "s");
	if (d->job.algo != ALGO_AUTO || d->job.proto != PROTO_AUTO)
		fprintf(out, "  the job sets%s%s%s%s%s\n",
			d->job.algo != ALGO_AUTO ? " NCCL_ALGO=" : "", d->job.algo != ALGO_AUTO ? ualgo_labels[d->job.algo - 1] : "",
			d->job.proto != PROTO_AUTO ? " NCCL_PROTO=" : "",
			d->job.proto != PROTO_AUTO ? nproto_names[d->job.proto - 1] : "",
			d->job.algo != ALGO_AUTO ? " (NCCL's pick below is its own; the job runs the one it sets)"
						 : " (every algorithm below runs that protocol)");
	fprintf(out, "  %-14s %-9s %-7s %12s %9s %9s %11s\n", "pattern", "algorithm", "proto", "time_us", "algbw", "busbw",
		"NCCL alone");
	for (c = 0; c < PATTERNS; c++) {
		const struct coll_result *cr = &m->colls[c];
		bool first = true;
		for (u = 0; u < UA_COUNT; u++) {
			const struct algo_result *a = &cr->algo[u];
			if (!a->available)
				continue;
			fprintf(out, "  %-14s %-9s %-7s %12.1f %9.2f %9.2f %11.2f%s%s\n", first ? coll_names[c] : "",
				ualgo_names[u], nproto_names[a->proto], a->time_us, a->algbw_GBps, a->busbw_GBps,
				a->nccl_busbw_GBps, cr->auto_algo == u ? "  <- NCCL's pick" : "",
				cr->best_algo == u && cr->auto_algo != u ? "  <- fastest here" : "");
			first = false;
		}
		for (u = 0; u < UA_COUNT && first; u++)
			;
		if (first) {
			const struct algo_result *a0 = &cr->algo[c == COLL_ALLTOALL || c == COLL_SENDRECV ? UA_P2P : UA_RING];
			fprintf(out, "  %-14s none: %s%s%s\n", coll_names[c], a0->reason ? a0->reason : "",
				a0->loss.unroutable ? ": " : "", a0->loss.unroutable ? a0->loss.why : "");
		}
	}
	for (u = 0, i = 0; u < UA_P2P; u++)
		if (!m->colls[COLL_ALLREDUCE].algo[u].available)
			fprintf(out, "%s    %-9s %s%s%s\n", i++ ? "" : "  not available for allreduce:\n", ualgo_names[u],
				m->colls[COLL_ALLREDUCE].algo[u].reason,
				m->colls[COLL_ALLREDUCE].algo[u].loss.unroutable ? ": " : "",
				m->colls[COLL_ALLREDUCE].algo[u].loss.unroutable ? m->colls[COLL_ALLREDUCE].algo[u].loss.why : "");

	if (r->sweep) {
		double sizes[40];
		int n = sweep_sizes(sizes, 40), k;
		for (c = 0; c < PATTERNS; c++) {
			fprintf(out, "\n%s sweep (busbw GB/s per algorithm; the last columns are NCCL's pick on this fabric)\n",
				coll_names[c]);
			fprintf(out, "  %10s", "size");
			for (u = 0; u < UA_COUNT; u++)
				if (m->colls[c].algo[u].available)
					fprintf(out, " %9s", ualgo_names[u]);
			fprintf(out, " %12s %9s %9s %9s\n", "time_us", "algbw", "busbw", "algo");
			for (k = 0; k < n; k++) {
				struct coll_result cr;
				const struct algo_result *pick;
				metrics_at(m, (enum coll)c, sizes[k], &cr);
				fprintf(out, "  %10.0f", sizes[k]);
				for (u = 0; u < UA_COUNT; u++)
					if (m->colls[c].algo[u].available)
						fprintf(out, " %9.2f", cr.algo[u].available ? cr.algo[u].busbw_GBps : 0);
				pick = coll_pick(&cr, 0);
				fprintf(out, " %12.1f %9.2f %9.2f %9s\n", pick->time_us, pick->algbw_GBps, pick->busbw_GBps,
					pick->available ? ualgo_names[pick - cr.algo] : "-");
			}
		}
	}

	fprintf(out, "\nWorkload\n");
	if (!w->valid) {
		fprintf(out, "  %s%s\n", w->job_error ? "error: " : "", w->why);
	} else {
		static const char *const dim_label[] = { "DP", "TP", "PP", "EP", "CP" };
		const struct job *j = &r->design->job;
		const struct job_memory *mem = &w->mem;
		fprintf(out, "  job              %s on %d GPUs: DP %d, TP %d, PP %d, CP %d, EP %d\n",
			j->name[0] ? j->name : "(unnamed)", w->gpus, w->dp, w->tp, w->pp, w->cp, w->ep);
		fprintf(out, "  micro-batch      %.3g sequences, %d per step%s; sequence parallelism %s, recompute %s\n",
			w->micro_seqs, w->micro_batches, j->vp > 1 && w->pp > 1 ? ", interleaved" : "", w->sp ? "on" : "off",
			recompute_names[j->recompute]);
		fprintf(out, "  compute          %.2f ms per step%s\n", w->compute_ms,
			w->compute_given ? " (given)"
			: j->recompute == RECOMPUTE_FULL ? " (8 x parameters x tokens / (GPUs x dense TFLOPS x MFU): full recompute)"
							 : " (6 x parameters x tokens / (GPUs x dense TFLOPS x MFU))");
		fprintf(out, "  memory           %.1f GB per GPU%s%.0f GB %s (weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f)\n",
			mem->total / 1e9, !mem->fits ? ", MORE THAN the " : " of ", mem->capacity / 1e9, w->mem_gpu,
			mem->weights / 1e9, mem->grads / 1e9, mem->optimizer / 1e9, mem->activations / 1e9);
		if (w->bubble_ms > 0)
			fprintf(out, "  pipeline bubble  %.2f ms\n", w->bubble_ms);
		for (i = 0; i < DIM_COUNT; i++) {
			const struct dim_traffic *dt = &w->dims[i];
			if (!dt->active)
				continue;
			/* DP's buckets: up to the bucket size (the first and last may be smaller), in
			 * the decimal unit the bucket line and the bottleneck use. */
			bool buckets = i == DIM_DP && j->zero < 3 && dt->buckets > 1;
			fprintf(out, "  %-16s %.2f ms, %.2f exposed: %s, %g x %s%s on %d rank%s (%s, %s, %.1f GB/s busbw)\n",
				dim_label[i], dt->time_ms, dt->exposed_ms, dt->what, dt->ops, buckets ? "up to " : "",
				buckets ? format_bytes_dec(dt->bytes, sz, sizeof sz) : format_size(dt->bytes, sz, sizeof sz),
				dt->ranks, dt->ranks == 1 ? "" : "s", dt->network ? "network" : "inside the node", ualgo_names[dt->algo], dt->busbw_GBps);
			if (i == DIM_DP && j->zero < 3) {
				char a[32], b[32];
				int mid = dt->buckets - 1 - (dt->first_bytes > 0);
				fprintf(out, "  %-16s %d (%s", "  buckets", dt->buckets,
					j->dp_buckets == BUCKETS_DDP ? "PyTorch DDP" : j->overlap > 0 ? "Megatron" : "Megatron, overlap off");
				if (dt->first_bytes > 0)
					fprintf(out, ": 1 x %s (%.1f us), ", format_bytes_dec(dt->first_bytes, a, sizeof a), dt->first_us);
				else
					fprintf(out, ": ");
				if (mid > 0)
					fprintf(out, "%d x %s (%.1f us), ", mid, format_bytes_dec(dt->bucket_bytes, a, sizeof a), dt->bucket_us);
				fprintf(out, "last %s (%.1f us)); window %.2f ms\n", format_bytes_dec(dt->last_bytes, b, sizeof b),
					dt->last_us, dt->window_ms);
			} else if (i == DIM_DP) {
				fprintf(out, "  %-16s %d per-layer units of %s; window %.2f ms\n", "  units", dt->buckets,
					format_size(dt->bucket_bytes, sz, sizeof sz), dt->window_ms);
			}
		}
		{
			/* The window DP hides behind, in the model's words (workload.c): the last
			 * micro-batch's backward for the gradients; with ZeRO 1 and 2 also the next
			 * forward for the parameters' AllGather; with ZeRO 3 the compute; never more
			 * than overlap of the compute. */
			const struct dim_traffic *dp = &w->dims[DIM_DP];
			char why[200];
			if (!dp->active)
				snprintf(why, sizeof why, "no DP traffic");
			else if (j->zero >= 3)
				snprintf(why, sizeof why, "DP hides behind %.2f ms of the compute, at most %.0f%% of it", dp->window_ms,
					 100 * j->overlap);
			else if (j->zero)
				snprintf(why, sizeof why,
					 "DP hides behind %.2f ms: the %.2f ms backward of the last micro-batch and the next forward, at most %.0f%% of the compute",
					 dp->window_ms, w->backward_ms, 100 * j->overlap);
			else
				snprintf(why, sizeof why, "DP hides behind %.2f ms: the backward of the last micro-batch (%.2f ms), at most %.0f%% of the compute",
					 dp->window_ms, w->backward_ms, 100 * j->overlap);
			fprintf(out, "  communication    %.2f ms, exposed %.2f ms (%s)\n", w->comm_ms, w->comm_exposed_ms, why);
		}
		fprintf(out, "  step time        %.2f ms, %.0f tokens/s\n", w->step_ms, w->tokens_per_s);
		fprintf(out, "  speedup          %.1f of %d (efficiency %.0f%%)  [step-time form: N x T_calc / T_step]\n",
			w->speedup, w->gpus, 100 * w->efficiency);
		fprintf(out, "  Amdahl form      %.2f  [the textbook's formula N / (1 + (N-1) r), with r = T_comm / T_calc = %.3f\n"
			"                         read as a serial fraction: a teaching aid, not the prediction]\n",
			w->amdahl_speedup, w->amdahl_r);
		fprintf(out, "  scaling curve    GPUs: speedup (efficiency)\n");
		for (i = 0; i < w->ncurve; i++)
			fprintf(out, "    %8d: %10.1f (%3.0f%%)  Amdahl %.2f\n", w->curve[i].gpus, w->curve[i].speedup,
				100 * w->curve[i].efficiency, w->curve[i].amdahl);
	}
	fprintf(out, "\nBottleneck\n  %s\n", m->bottleneck);
	fprintf(out, "\nAdvice\n");
	if (!m->nadvice)
		fprintf(out, "  none\n");
	for (i = 0; i < m->nadvice; i++)
		fprintf(out, "  - %s\n", m->advice[i]);
}

static cJSON *algo_json(const struct fabric *f, const struct algo_result *a)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "available", a->available);
	if (!a->available) {
		cJSON_AddStringToObject(o, "reason", a->reason ? a->reason : "");
		if (a->loss.unroutable)
			cJSON_AddStringToObject(o, "why", a->loss.why);
		return o;
	}
	cJSON_AddStringToObject(o, "protocol", nproto_names[a->proto]);
	cJSON_AddNumberToObject(o, "time_us", a->time_us);
	cJSON_AddNumberToObject(o, "algbw_GBps", a->algbw_GBps);
	cJSON_AddNumberToObject(o, "busbw_GBps", a->busbw_GBps);
	cJSON_AddNumberToObject(o, "nccl_busbw_GBps", a->nccl_busbw_GBps);
	cJSON_AddNumberToObject(o, "fabric_factor", a->loss.factor);
	if (a->loss.binding >= 0 || a->loss.direct || a->loss.transport) {
		cJSON *b = cJSON_AddObjectToObject(o, "binding");
		cJSON_AddStringToObject(b, "where", a->loss.direct ? "direct links" : a->loss.transport ? "transport" : "switch group");
		if (a->loss.transport)
			cJSON_AddStringToObject(b, "why", a->loss.why);
		else if (!a->loss.direct)
			cJSON_AddStringToObject(b, "group", f->tiers[a->loss.binding].group);
		cJSON_AddNumberToObject(b, "demand_GBps", a->loss.demand_GBps);
		cJSON_AddNumberToObject(b, "capacity_GBps", a->loss.capacity_GBps);
		if (a->loss.hashed) {
			cJSON_AddNumberToObject(b, "flows", (double)a->loss.flows);
			cJSON_AddNumberToObject(b, "links", (double)a->loss.links);
		}
	}
	return o;
}

static void report_model_json(cJSON *root, const struct report_in *r)
{
	const struct metrics *m = r->metrics;
	const struct fabric *f = &m->fabric;
	const struct workload *w = &m->work;
	cJSON *o, *e, *a;
	int c, u, i;
	o = cJSON_AddObjectToObject(root, "oversubscription");
	{
		/* Per role, the most oversubscribed group of it (null: the top, no uplinks). */
		int role;
		for (role = ROLE_LEAF; role <= ROLE_CORE; role++) {
			double worst = -1;
			for (i = 0; i < f->ntiers; i++)
				if (f->tiers[i].role == role && f->tiers[i].ratio > worst)
					worst = f->tiers[i].ratio;
			if (worst > 0)
				cJSON_AddNumberToObject(o, switch_role_names[role], worst);
			else if (worst == 0)
				cJSON_AddNullToObject(o, switch_role_names[role]);
		}
	}
	cJSON_AddNumberToObject(o, "gpus_per_uplink", f->gpus_per_link);
	a = cJSON_AddArrayToObject(root, "switch_groups");
	for (i = 0; i < f->ntiers; i++) {
		const struct tier *t = &f->tiers[i];
		static const char *const hash_names[] = { "none", "ecmp", "static", "adaptive" };
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", t->group);
		cJSON_AddStringToObject(e, "role", switch_role_names[t->role]);
		cJSON_AddNumberToObject(e, "level", t->level);
		if (t->ratio > 0)
			cJSON_AddNumberToObject(e, "oversubscription", t->ratio);
		else
			cJSON_AddNullToObject(e, "oversubscription");
		cJSON_AddNumberToObject(e, "down_GBps", t->down_GBps);
		cJSON_AddNumberToObject(e, "up_GBps", t->up_GBps);
		cJSON_AddNumberToObject(e, "nodes_under", t->nodes_under);
		cJSON_AddStringToObject(e, "hashing", hash_names[t->hash >= 0 && t->hash < 4 ? t->hash : 0]);
		cJSON_AddBoolToObject(e, "peer", t->peer);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddBoolToObject(root, "connected", f->connected);
	cJSON_AddNumberToObject(root, "bisection_GBps", f->bisection_GBps);
	cJSON_AddNumberToObject(root, "bisection_per_gpu_GBps", f->bisection_per_gpu_GBps);
	cJSON_AddStringToObject(root, "bisection_bound", f->bisection_bound > 0 ? "upper" : f->bisection_bound < 0 ? "lower" : "exact");
	o = cJSON_AddObjectToObject(root, "node");
	cJSON_AddStringToObject(o, "kind", f->domain_node ? "nvlink-domain" : "server");
	cJSON_AddNumberToObject(o, "gpus", f->node.ppn);
	cJSON_AddNumberToObject(o, "nodes", f->node.nnodes);
	cJSON_AddNumberToObject(o, "ceiling_GBps", f->node_ceiling_GBps);
	cJSON_AddNumberToObject(o, "nvlink_GBps", f->node.nvl);
	cJSON_AddNumberToObject(o, "host_GBps", f->node.pci_intra);
	cJSON_AddStringToObject(o, "host_path", host_path_names[f->node.intra_path]);
	cJSON_AddNumberToObject(o, "sockets", f->node.sockets > 1 ? f->node.sockets : 1);
	o = cJSON_AddObjectToObject(root, "collectives");
	for (c = 0; c < PATTERNS; c++) {
		const struct coll_result *cr = &m->colls[c];
		e = cJSON_AddObjectToObject(o, coll_names[c]);
		cJSON_AddNumberToObject(e, "size_bytes", cr->bytes);
		cJSON_AddNumberToObject(e, "ranks", cr->ranks);
		cJSON_AddNumberToObject(e, "nodes", cr->nodes);
		for (u = 0; u < UA_COUNT; u++)
			if (u != UA_P2P || c == COLL_ALLTOALL || c == COLL_SENDRECV)
				cJSON_AddItemToObject(e, ualgo_names[u], algo_json(f, &cr->algo[u]));
		a = cr->auto_algo >= 0 ? algo_json(f, &cr->algo[cr->auto_algo]) : cJSON_CreateObject();
		cJSON_AddStringToObject(a, "algorithm", cr->auto_algo >= 0 ? ualgo_names[cr->auto_algo] : "none");
		cJSON_AddItemToObject(e, "auto", a);
		cJSON_AddStringToObject(e, "fastest", cr->best_algo >= 0 ? ualgo_names[cr->best_algo] : "none");
	}
	if (r->sweep) {
		/* --sweep: every pattern at nccl-tests' sizes, 8 B to 16 GiB, in the form of collectives */
		double sizes[40];
		int n = sweep_sizes(sizes, 40), k;
		o = cJSON_AddObjectToObject(root, "sweep");
		for (c = 0; c < PATTERNS; c++) {
			cJSON *rows = cJSON_AddArrayToObject(o, coll_names[c]);
			for (k = 0; k < n; k++) {
				struct coll_result cr;
				metrics_at(m, (enum coll)c, sizes[k], &cr);
				e = cJSON_CreateObject();
				cJSON_AddNumberToObject(e, "size_bytes", sizes[k]);
				for (u = 0; u < UA_COUNT; u++)
					if (m->colls[c].algo[u].available && (u != UA_P2P || c == COLL_ALLTOALL || c == COLL_SENDRECV))
						cJSON_AddItemToObject(e, ualgo_names[u], algo_json(f, &cr.algo[u]));
				a = cr.auto_algo >= 0 ? algo_json(f, &cr.algo[cr.auto_algo]) : cJSON_CreateObject();
				cJSON_AddStringToObject(a, "algorithm", cr.auto_algo >= 0 ? ualgo_names[cr.auto_algo] : "none");
				cJSON_AddItemToObject(e, "auto", a);
				cJSON_AddItemToArray(rows, e);
			}
		}
	}
	o = cJSON_AddObjectToObject(root, "speedup");
	cJSON_AddBoolToObject(o, "valid", w->valid);
	if (!w->valid)
		cJSON_AddStringToObject(o, "reason", w->why);
	cJSON_AddNumberToObject(o, "gpus", w->gpus);
	cJSON_AddNumberToObject(o, "compute_ms", w->compute_ms);
	cJSON_AddNumberToObject(o, "bubble_ms", w->bubble_ms);
	cJSON_AddNumberToObject(o, "comm_ms", w->comm_ms);
	cJSON_AddNumberToObject(o, "comm_exposed_ms", w->comm_exposed_ms);
	cJSON_AddNumberToObject(o, "step_time_ms", w->step_ms);
	cJSON_AddNumberToObject(o, "tokens_per_s", w->tokens_per_s);
	cJSON_AddNumberToObject(o, "speedup", w->speedup);
	cJSON_AddNumberToObject(o, "efficiency", w->efficiency);
	cJSON_AddNumberToObject(o, "amdahl_r", w->amdahl_r);
	cJSON_AddNumberToObject(o, "amdahl_speedup", w->amdahl_speedup);
	if (w->valid) {
		cJSON_AddNumberToObject(o, "dp", w->dp);
		cJSON_AddNumberToObject(o, "tp", w->tp);
		cJSON_AddNumberToObject(o, "pp", w->pp);
		cJSON_AddNumberToObject(o, "cp", w->cp);
		cJSON_AddNumberToObject(o, "ep", w->ep);
		cJSON_AddBoolToObject(o, "sequence_parallel", w->sp);
		cJSON_AddNumberToObject(o, "micro_batch_sequences", w->micro_seqs);
		cJSON_AddNumberToObject(o, "backward_ms", w->backward_ms);
		cJSON_AddNumberToObject(o, "forward_ms", w->forward_ms);
		e = cJSON_AddObjectToObject(o, "memory");
		cJSON_AddNumberToObject(e, "total_GB", w->mem.total / 1e9);
		cJSON_AddNumberToObject(e, "weights_GB", w->mem.weights / 1e9);
		cJSON_AddNumberToObject(e, "gradients_GB", w->mem.grads / 1e9);
		cJSON_AddNumberToObject(e, "optimizer_GB", w->mem.optimizer / 1e9);
		cJSON_AddNumberToObject(e, "activations_GB", w->mem.activations / 1e9);
		cJSON_AddNumberToObject(e, "gpu_GB", w->mem.capacity / 1e9);
		cJSON_AddStringToObject(e, "gpu", w->mem_gpu);
		cJSON_AddBoolToObject(e, "fits", w->mem.fits);
	} else if (w->job_error) {
		cJSON_AddStringToObject(o, "error", w->why);
		cJSON_AddStringToObject(o, "error_field", w->why_field);
	}
	a = cJSON_AddArrayToObject(o, "dimensions");
	for (i = 0; i < DIM_COUNT; i++) {
		const struct dim_traffic *dt = &w->dims[i];
		if (!dt->active)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "dimension", dim_names[i]);
		cJSON_AddStringToObject(e, "collective", coll_names[dt->coll]);
		cJSON_AddNumberToObject(e, "ranks", dt->ranks);
		cJSON_AddNumberToObject(e, "bytes", dt->bytes);
		cJSON_AddNumberToObject(e, "ops", dt->ops);
		cJSON_AddNumberToObject(e, "time_ms", dt->time_ms);
		cJSON_AddNumberToObject(e, "exposed_ms", dt->exposed_ms);
		cJSON_AddNumberToObject(e, "op_us", dt->op_us);
		cJSON_AddNumberToObject(e, "busbw_GBps", dt->busbw_GBps);
		cJSON_AddStringToObject(e, "algorithm", ualgo_names[dt->algo]);
		cJSON_AddBoolToObject(e, "network", dt->network);
		if (i == DIM_DP) {
			cJSON_AddNumberToObject(e, "buckets", dt->buckets);
			cJSON_AddNumberToObject(e, "first_bucket_bytes", dt->first_bytes);
			cJSON_AddNumberToObject(e, "bucket_bytes", dt->bucket_bytes);
			cJSON_AddNumberToObject(e, "last_bucket_bytes", dt->last_bytes);
			cJSON_AddNumberToObject(e, "first_bucket_us", dt->first_us);
			cJSON_AddNumberToObject(e, "bucket_us", dt->bucket_us);
			cJSON_AddNumberToObject(e, "last_bucket_us", dt->last_us);
			cJSON_AddNumberToObject(e, "window_ms", dt->window_ms);
		}
		cJSON_AddStringToObject(e, "bound", bound_names[dt->bound.kind >= 0 && dt->bound.kind <= BOUND_PATH ? dt->bound.kind : 0]);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "curve");
	for (i = 0; i < w->ncurve; i++) {
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "gpus", w->curve[i].gpus);
		cJSON_AddNumberToObject(e, "speedup", w->curve[i].speedup);
		cJSON_AddNumberToObject(e, "efficiency", w->curve[i].efficiency);
		cJSON_AddNumberToObject(e, "amdahl_speedup", w->curve[i].amdahl);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddStringToObject(root, "bottleneck", m->bottleneck);
	a = cJSON_AddArrayToObject(root, "advice");
	for (i = 0; i < m->nadvice; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(m->advice[i]));
	/* Parallel to advice: the designer's ':' commands that make the change it names, or "". */
	a = cJSON_AddArrayToObject(root, "advice_commands");
	for (i = 0; i < m->nadvice; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(m->advice_do[i]));
}
