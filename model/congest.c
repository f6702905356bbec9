#include "model/congest.h"
#include "model/alloc.h"
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>

#define EXACT_LIMIT 512L /* F x U beyond which the Poisson form is used */

/* P(every one of U links carries at most m of F flows), exactly: link by link, the number
 * of flows on the next link among r left over b links is Binomial(r, 1/b). */
static double p_max_at_most(int F, int U, int m, double *q, double *nq)
{
	int b, r, i;
	/* q[r]: probability that r flows on the links done so far... processed backwards:
	 * q[r] = P(r flows fit on the remaining links with at most m each). */
	for (r = 0; r <= F; r++)
		q[r] = r <= m ? 1.0 : 0.0; /* one link left: it takes all r */
	for (b = 2; b <= U; b++) {
		double p = 1.0 / b, odds = p / (1 - p), base = 1;
		for (r = 0; r <= F; r++, base *= 1 - p) {
			/* Sum over i flows on this link: C(r,i) p^i (1-p)^(r-i) q[r-i]. */
			double term = base, sum = 0;
			int lim = r < m ? r : m;
			for (i = 0; i <= lim; i++) {
				sum += term * q[r - i];
				term *= (double)(r - i) / (i + 1) * odds;
			}
			nq[r] = sum;
		}
		for (r = 0; r <= F; r++)
			q[r] = nq[r];
	}
	return q[F];
}

static double poisson_cdf(double lambda, int m)
{
	double term = exp(-lambda), sum = 0;
	int i;
	for (i = 0; i <= m; i++) {
		sum += term;
		term *= lambda / (i + 1);
	}
	return sum > 1 ? 1 : sum;
}

static double expected_max(int F, int U, bool exact)
{
	double e, *q = NULL, *nq = NULL;
	int m, start;
	if (F <= 0 || U <= 0)
		return 0;
	if (U == 1)
		return F;
	/* E[max] = sum over m >= 0 of P(max > m); P(max > m) = 1 below ceil(F/U). */
	start = (F + U - 1) / U;
	e = start;
	if (exact) {
		q = xmalloc(sizeof(double) * (size_t)(F + 1));
		nq = xmalloc(sizeof(double) * (size_t)(F + 1));
	}
	for (m = start; m < F; m++) {
		double p_le = q ? p_max_at_most(F, U, m, q, nq) : pow(poisson_cdf((double)F / U, m), U);
		double tail = 1 - p_le;
		if (tail < 1e-12)
			break;
		e += tail;
	}
	free(q);
	free(nq);
	return e;
}

double hash_expected_max_exact(int F, int U)
{
	return expected_max(F, U, true);
}

double hash_expected_max(int F, int U)
{
	return expected_max(F, U, (long)F * U <= EXACT_LIMIT);
}

double hash_efficiency(int flows, int links)
{
	double e;
	if (flows <= 0 || links <= 0)
		return 1;
	e = hash_expected_max(flows, links);
	return e > 0 ? ((double)flows / links) / e : 1;
}
