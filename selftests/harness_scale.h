/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time limits of the kselftest harness, scaled where the tests run
 * slower than usual.  Where kselftest_harness.h came first, its
 * test_harness_run() is wrapped; test_time_scale() is everyone's.
 */
#ifndef HARNESS_SCALE_H
#define HARNESS_SCALE_H

#include <stdlib.h>

/*
 * How many times longer than usual the same work may take here:
 * ARC4_TIME_SCALE, which the rig sets where it runs the tests on the debug
 * kernel (KASAN, lockdep and KMEMLEAK under QEMU without KVM make a fork
 * or a signal several times dearer); 1 when unset.  The harness's time
 * limit of every test is multiplied by it, and so is the time a test
 * budgets for its own work; never what a test checks.
 */
static inline int test_time_scale(void)
{
	const char *s = getenv("ARC4_TIME_SCALE");
	int v = s ? atoi(s) : 1;

	return v >= 1 && v <= 100 ? v : 1;
}

#ifdef TEST_HARNESS_MAIN
/*
 * The harness's main() calls test_harness_run(); this name for it runs
 * first and multiplies every test's time limit by test_time_scale().
 * (Parenthesised, the name below is the harness's function itself.)
 */
static inline int test_harness_run_scaled(int argc, char **argv)
{
	int scale = test_time_scale();

	for (struct __fixture_metadata *f = __fixture_list; f; f = f->next)
		for (struct __test_metadata *t = f->tests; t; t = t->next)
			t->timeout *= scale;
	return (test_harness_run)(argc, argv);
}
#define test_harness_run(argc, argv) test_harness_run_scaled(argc, argv)
#endif

#endif /* HARNESS_SCALE_H */
