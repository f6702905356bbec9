/* congest.h: flows hashed statically onto links (balls into bins).
 *
 * F equal flows are placed on U equal links uniformly at random: what a switch's static
 * ECMP does with the queue pairs crossing it (a 5-tuple hash; the RoCE UDP source port
 * comes from the QP numbers), and what a LAG does with its members (fabric-physics.md
 * sections 1.2-1.5). A synchronous collective runs at the pace of its slowest flow, which
 * shares the busiest link with max_load - 1 others. The expected busiest load E[max] is
 * computed exactly by a recursion over links (each link's share of the remaining flows is
 * binomial) for F x U up to 512; beyond that the links are treated as independent Poisson
 * counts, E[max] = sum over m >= 0 of 1 - P(Pois(F/U) <= m)^U, summed in log space from the
 * Poisson mode outwards, so it stays exact to rounding for any flow count (no underflow of
 * exp(-F/U)) and costs O(sqrt(F/U)) terms. Results are cached per (F, U): a recompute asks
 * for the same few pairs again and again. */
#ifndef NCF_CONGEST_H
#define NCF_CONGEST_H

/* Expected number of flows on the busiest of U links when F flows are hashed onto them
 * (0 for F <= 0; F for U == 1). */
double hash_expected_max(long flows, long links);
/* The same, always by the exact recursion (cost F x U x E[max]: for tests and small cases). */
double hash_expected_max_exact(int flows, int links);
/* The same, always by the Poisson form (for tests). */
double hash_expected_max_poisson(long flows, long links);
/* Throughput as a share of the links' capacity: (F/U) / E[max]. 1 for F = 0. */
double hash_efficiency(long flows, long links);

#endif
