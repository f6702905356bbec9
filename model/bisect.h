/* bisect.h: the bisection bandwidth of a job's nodes, as a network architect means it.
 *
 * Bisection = the minimum, over every way of cutting the job's n nodes into two halves of
 * floor(n/2) and ceil(n/2) nodes, of the capacity between the halves (GB/s per direction):
 * the worst-case balanced cut. By max-flow/min-cut, the capacity between two given halves
 * is the most one can send to the other, so this is also the least, over balanced splits,
 * of that max-flow.
 *
 * Where it is exact: on a tree of components (topo.h "Levels": blocks of consecutive
 * positions, or interleaved components with one component above them; no peer stage, no
 * direct links, no node whose servers sit in different leaf components, rail groups alike
 * at every level), bisect_tree computes the minimum exactly, at a cost in components, not
 * nodes (bisect.c). Nodes whose links differ are exact too (the programme then counts
 * nodes, within a work budget; past it, a node moved is charged the least node's links: a
 * lower bound, exact when the least cut moves none). Several switch planes (the same split
 * applies to every plane) give the sum of each plane's own minimum: exact when every plane
 * is the same tree with its capacities scaled by one factor (then every split costs each
 * plane that factor times the first's, so one split is worst for all), else a lower bound;
 * a sum of 0 is exact. *exact says which.
 *
 * Ownership: nothing is kept between calls. */
#ifndef NCF_BISECT_H
#define NCF_BISECT_H
#include <stdbool.h>
#include "model/topo.h"

/* The worst-case balanced cut of t's job nodes in *GBps; *exact false when it is the lower
 * bound above. Returns false (nothing written) when the shape is not such a tree or the
 * exact programme would exceed its work budget; the caller then has no exact minimum. */
bool bisect_tree(const struct topo *t, double *GBps, bool *exact);

#endif
