/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One results record of `make bench`, shared by devbench and callbench:
 * a tab-separated line that bench/run and bench/report.awk read.
 */
#ifndef ARC4_BENCH_RECORD_H
#define ARC4_BENCH_RECORD_H

#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Print one record: median, min and max of v[0..n), which it sorts. */
static void record(const char *group, const char *impl, const char *func,
		   const char *mode, long param, double *v, int n,
		   const char *unit)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("%s\t%s\t%s\t%s\t%ld\t%.4f\t%.4f\t%.4f\t%s\t%d\n", group, impl,
	       func, mode, param, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2,
	       v[0], v[n - 1], unit, n);
	fflush(stdout);
}

#endif
