/* congest.h: flows hashed statically onto links (balls into bins).
 *
 * F equal flows are placed on U equal links uniformly at random (static ECMP or LAG
 * hashing). A synchronous collective runs at the pace of its slowest flow, which shares
 * the busiest link with max_load - 1 others. The expected busiest load E[max] is computed
 * exactly by a recursion over links (each link's share of the remaining flows is binomial),
 * for F x U up to 512; beyond that the links are treated as independent Poisson counts,
 * which is within 0.1% of the exact value from 64 flows on (tests check it), and keeps a
 * recompute in microseconds. */
#ifndef NCF_CONGEST_H
#define NCF_CONGEST_H

/* Expected number of flows on the busiest of U links when F flows are hashed onto them. */
double hash_expected_max(int flows, int links);
/* The same, always by the exact recursion (cost F x U x E[max]: for tests and small cases). */
double hash_expected_max_exact(int flows, int links);
/* Throughput as a share of the links' capacity: (F/U) / E[max]. 1 for F = 0. */
double hash_efficiency(int flows, int links);

#endif
