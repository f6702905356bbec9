/* congest.c: E[max] of F balls in U bins, exact for small cases, Poisson beyond. */
#include "model/congest.h"
#include "model/alloc.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define EXACT_LIMIT 512L /* F x U beyond which the Poisson form is used */

/* P(every one of U links carries at most m of F flows), exactly: link by link, the number
 * of flows on the next link among r left over b links is Binomial(r, 1/b). */
static double p_max_at_most(int F, int U, int m, double *q, double *nq)
{
	int b, r, i;
	/* q[r] = P(r flows fit on the links done so far with at most m each). */
	for (r = 0; r <= F; r++)
		q[r] = r <= m ? 1.0 : 0.0; /* one link: it takes all r */
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

double hash_expected_max_exact(int F, int U)
{
	double e, *q, *nq;
	int m;
	if (F <= 0 || U <= 0)
		return 0;
	if (U == 1)
		return F;
	q = xmalloc(sizeof(double) * (size_t)(F + 1));
	nq = xmalloc(sizeof(double) * (size_t)(F + 1));
	/* E[max] = sum over m >= 0 of P(max > m); P(max > m) = 1 below ceil(F/U). */
	e = (F + U - 1) / U;
	for (m = (F + U - 1) / U; m < F; m++) {
		double tail = 1 - p_max_at_most(F, U, m, q, nq);
		if (tail < 1e-12)
			break;
		e += tail;
	}
	free(q);
	free(nq);
	return e;
}

#define NORMAL_FROM 400.0 /* mean flows per link from which the Poisson is taken as normal */

double hash_expected_max_poisson(long F, long U)
{
	double lambda, e, sd, stop;
	long m, start;
	if (F <= 0 || U <= 0)
		return 0;
	if (U == 1)
		return (double)F;
	lambda = (double)F / U;
	sd = sqrt(lambda);
	start = (F + U - 1) / U; /* P(max > m) = 1 below ceil(F/U) */
	e = (double)start;
	/* Beyond 40 standard deviations the tail is below 1e-300 for any U that fits a long. */
	stop = lambda + 40 * sd + 40;
	if (lambda < NORMAL_FROM) {
		/* Exact Poisson CDF, summed from 0 (exp(-lambda) > 1e-174 here). */
		double cdf = 0, pmf = exp(-lambda);
		long k;
		for (k = 0; k <= start; k++) {
			cdf += pmf;
			pmf *= lambda / (double)(k + 1);
		}
		for (m = start; m < F && m < stop; m++) {
			double tail = cdf >= 1 ? 0 : -expm1((double)U * log1p(-(1 - cdf)));
			if (tail < 1e-12)
				break;
			e += tail;
			cdf += pmf; /* pmf is P(X = m + 1) here */
			pmf *= lambda / (double)(m + 2);
		}
		return e;
	}
	/* Large means: the Poisson is normal to within its skewness 1/sd (under 5% of sd for
	 * lambda >= 400); P(X > m) from erfc with the continuity correction, so the far tail
	 * keeps its precision. The tail is smooth over many flows: step it by sd/64. */
	{
		long step = (long)(sd / 64) > 1 ? (long)(sd / 64) : 1;
		for (m = start; m < F && m < stop; m += step) {
			double q = 0.5 * erfc(((double)m + 0.5 - lambda) / (sd * 1.4142135623730951));
			double tail = -expm1((double)U * log1p(-q));
			if (tail < 1e-12)
				break;
			e += tail * (double)step;
		}
		return e;
	}
}

/* A small direct-mapped cache: a recompute asks for the same (F, U) pairs every time. */
#define CACHE_SIZE 256
static struct {
	long f, u;
	double e;
} cache[CACHE_SIZE];

double hash_expected_max(long F, long U)
{
	unsigned long h;
	double e;
	if (F <= 0 || U <= 0)
		return 0;
	if (U == 1)
		return (double)F;
	h = ((unsigned long)F * 2654435761u ^ (unsigned long)U * 40503u) % CACHE_SIZE;
	if (cache[h].f == F && cache[h].u == U)
		return cache[h].e;
	e = F * U <= EXACT_LIMIT ? hash_expected_max_exact((int)F, (int)U) : hash_expected_max_poisson(F, U);
	cache[h].f = F;
	cache[h].u = U;
	cache[h].e = e;
	return e;
}

double hash_efficiency(long flows, long links)
{
	double e;
	if (flows <= 0 || links <= 0)
		return 1;
	e = hash_expected_max(flows, links);
	return e > 0 ? ((double)flows / links) / e : 1;
}
