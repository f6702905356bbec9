/* inside.c: inside a server group: its GPUs, scale-up fabric, PCIe, and the NIC entries
 * (select, count, edit, add, remove). */
#include "ui/modes.h"
#include "io/units.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPUs under one PCIe switch: the fabric's, never across a socket (ncfabric(5) HOST PATHS). */
static int gpus_per_switch(const struct server_group *g, const struct cat_fabric *fab)
{
	int sockets = g->sockets > 1 ? g->sockets : 1, per = (g->gpus + sockets - 1) / sockets;
	return fab->max_gpus > 0 && fab->max_gpus < per ? fab->max_gpus : per;
}

static struct server_group *inside_group(struct app *app)
{
	const struct schema *s;
	struct server_group *g = ed_object(&app->design, app->inside_id, &s);
	return g && s == &server_group_schema ? g : NULL;
}

unsigned inside_open(struct app *app)
{
	const struct schema *s;
	if (!ed_object(&app->design, app->selected, &s) || s != &server_group_schema)
		return say(app, true, "select a server group to look inside");
	app->inside_id = app->selected;
	app->inside_cur = 0;
	app->mode = MODE_INSIDE;
	return CHG_VIEW;
}

unsigned inside_action(struct app *app, enum action a)
{
	struct server_group *g;
	if (a != ACT_FIELD_NEXT && a != ACT_FIELD_PREV && a != ACT_INC && a != ACT_DEC && a != ACT_EDIT && a != ACT_ADD &&
	    a != ACT_DELETE && a != ACT_TOP && a != ACT_BOTTOM)
		return CHG_PASS;
	g = inside_group(app);
	if (!g) {
		app->mode = MODE_CANVAS;
		return CHG_VIEW;
	}
	if (app->inside_cur >= (int)g->nics.n)
		app->inside_cur = g->nics.n ? (int)g->nics.n - 1 : 0;
	switch (a) {
	case ACT_FIELD_NEXT:
		if (app->inside_cur + 1 < (int)g->nics.n)
			app->inside_cur++;
		return CHG_VIEW;
	case ACT_FIELD_PREV:
		if (app->inside_cur > 0)
			app->inside_cur--;
		return CHG_VIEW;
	case ACT_TOP:
	case ACT_BOTTOM:
		app->inside_cur = a == ACT_TOP || !g->nics.n ? 0 : (int)g->nics.n - 1;
		return CHG_VIEW;
	case ACT_INC:
	case ACT_DEC:
		if (!g->nics.n)
			return say(app, true, "no NICs: a adds one");
		return edit_result(app, ed_set_nic_count(&app->ed, app->inside_id, (size_t)app->inside_cur,
							 VEC_AT(g->nics, struct nic_spec, app->inside_cur).count + (a == ACT_INC ? 1 : -1)));
	case ACT_EDIT: {
		char prefix[32], title[160];
		if (!g->nics.n)
			return say(app, true, "no NICs: a adds one");
		snprintf(prefix, sizeof prefix, "nics[%d].", app->inside_cur);
		snprintf(title, sizeof title, "NIC entry %d of '%s'", app->inside_cur + 1, g->name);
		form_open(app, FORM_EDIT, &nic_spec_schema, &VEC_AT(g->nics, struct nic_spec, app->inside_cur), app->inside_id,
			  prefix, title);
		return CHG_VIEW;
	}
	case ACT_ADD: {
		struct nic_spec *n = calloc(1, sizeof *n);
		schema_init(&nic_spec_schema, n);
		snprintf(n->model, sizeof n->model, "connectx-7-ndr");
		n->count = 1;
		form_open(app, FORM_ADD, &nic_spec_schema, n, app->inside_id, "", "new NIC entry");
		app->form.draft = n;
		return CHG_VIEW;
	}
	case ACT_DELETE:
		if (!g->nics.n)
			return CHG_NONE;
		return edit_result(app, ed_remove_nic(&app->ed, app->inside_id, (size_t)app->inside_cur));
	default:
		return CHG_NONE;
	}
}

void inside_draw(const struct app *app, struct cellbuf *c, int x0, int y0, int w, int h)
{
	const struct schema *s;
	const struct server_group *g = ed_object_const(&app->design, app->inside_id, &s);
	const struct cat_gpu *gpu;
	const struct cat_fabric *fab;
	int y = y0 + 1, i, show;
	size_t k;
	cellbuf_fill(c, x0, y0, w, h, ROLE_NORMAL);
	cellbuf_box(c, x0, y0, w, h, ROLE_HEADING);
	if (!g || s != &server_group_schema)
		return;
	gpu = catalog_gpu(&app->catalog, g->gpu);
	fab = catalog_fabric(&app->catalog, g->scaleup);
	cellbuf_printf(c, x0 + 2, y0, w - 4, ROLE_HEADING, " inside '%s': %d x %s ", g->name, g->count,
		       g->model[0] ? g->model : "server");
	show = g->gpus <= 8 ? g->gpus : 8;
	for (i = 0; i < show; i++) {
		int bw = (w - 4) / show;
		cellbuf_box(c, x0 + 2 + i * bw, y, bw - 1, 3, ROLE_NUMBER);
		cellbuf_printf(c, x0 + 3 + i * bw, y + 1, bw - 3, ROLE_NUMBER, "GPU%d", i);
	}
	if (g->gpus > 8)
		cellbuf_printf(c, x0 + 2, y + 3, w - 4, ROLE_DIM, "... %d GPUs per server (8 shown)", g->gpus);
	y += g->gpus > 8 ? 4 : 3;
	if (fab && gpu) {
		cellbuf_fill(c, x0 + 2, y, w - 4, 1, ROLE_TITLE);
		if (fab->kind == FAB_NVSWITCH)
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE, "%s%s: NVLink %d x %g GB/s = %g GB/s per GPU and direction%s",
				       g->scaleup, fab->nvls ? " (NVLS)" : "", gpu->nvlink_links, gpu->nvlink_link_GBps,
				       gpu->nvlink_links * gpu->nvlink_link_GBps, g->domain[0] ? "; the NVLink domain spans servers" : "");
		else if (fab->kind == FAB_NVLINK_BRIDGE && gpu->nvlink_links > 0)
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE,
				       "%s: NVLink %dx%g GB/s in each %s, PCIe between", g->scaleup, gpu->nvlink_links,
				       gpu->nvlink_link_GBps, fab->max_gpus > 2 ? "group" : "pair");
		else if (fab->kind == FAB_PCIE_SWITCH)
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE,
				       "%s: %d GPUs per switch; P2P inside, host memory between", g->scaleup,
				       gpus_per_switch(g, fab));
		else
			cellbuf_printf(c, x0 + 3, y, w - 6, ROLE_TITLE,
				       "%s: GPUs on CPU root ports, through host memory", g->scaleup);
		y += 2;
	}
	/* PCIe: the switches that join GPUs and NICs, and the CPU behind them. */
	{
		int nics = 0, on_cpu = 0;
		for (k = 0; k < g->nics.n; k++) {
			const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
			if (n->use != NIC_COMPUTE)
				continue;
			if (n->attach == ATTACH_CPU)
				on_cpu += n->count;
			else
				nics += n->count;
		}
		if (gpu)
			cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_NORMAL,
				       "PCIe: each GPU Gen%d x%d (%.1f GB/s)%s%s", gpu->pcie_gen, gpu->pcie_lanes,
				       pcie_GBps(gpu->pcie_gen, gpu->pcie_lanes),
				       nics ? "; GPUs share PCIe switches with compute NICs (GPUDirect RDMA, PXN to other NICs)" : "",
				       on_cpu ? "; some NICs hang off the CPU (no GPUDirect RDMA)" : "");
		if (g->sockets > 1) {
			int per = (g->gpus + g->sockets - 1) / g->sockets;
			cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_NORMAL, "CPU: %d x %s, link %.0f GB/s (NCCL), %d GPUs per socket%s",
				       g->sockets, cpu_vendor_names[g->cpu], cpu_sys_GBps(g->cpu), per,
				       g->domain[0] ? "; NVLink domain shared with other servers of the group" : "");
		} else {
			cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_NORMAL, "CPU: %s, one socket%s", cpu_vendor_names[g->cpu],
				       g->domain[0] ? "; NVLink domain shared with other servers of the group" : "");
		}
		if (gpu && gpu->pcie_p2p == P2P_UNSUPPORTED)
			cellbuf_printf(c, x0 + 2, y++, w - 4, ROLE_WARNING,
				       "%s: no GPU peer-to-peer (driver): every hop via host memory", gpu->name);
		y++;
	}
	cellbuf_text(c, x0 + 2, y++, w - 4, ROLE_HEADING, "NICs (j/k select, +/- count, Enter edit, a add, d remove, Esc back)");
	for (k = 0; k < g->nics.n && y < y0 + h - 1; k++) {
		const struct nic_spec *n = &VEC_AT(g->nics, struct nic_spec, k);
		const struct cat_nic *cn = catalog_nic(&app->catalog, n->model);
		double slot = nic_slot_GBps(n, cn), line = cn ? nic_speed_gbps(n, cn) * cn->ports / 8.0 : 0;
		bool sel = (int)k == app->inside_cur, slow = slot > 0 && line > slot * 1.0001;
		int per = n->count > 0 ? (g->gpus + n->count - 1) / n->count : 0;
		cellbuf_printf(c, x0 + 2, y, w - 4, sel ? ROLE_SELECTED : slow ? ROLE_WARNING : ROLE_NORMAL,
			       "%s %d x %s, %d Gb/s%s, slot %.1f GB/s%s, %s, %s, %d GPU%s each", sel ? ">" : " ", n->count, n->model,
			       cn ? nic_speed_gbps(n, cn) : 0, cn && cn->ports > 1 ? " x2" : "", slot, slow ? " ! SLOWER THAN PORT" : "",
			       nic_attach_names[n->attach], nic_use_names[n->use], per, per == 1 ? "" : "s");
		y++;
	}
	if (!g->nics.n)
		cellbuf_text(c, x0 + 2, y, w - 4, ROLE_DIM, "no NICs: a adds one");
}
