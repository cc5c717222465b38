// SPDX-License-Identifier: GPL-2.0
/*
 * random(), srandom(), srandomdev(), srandom_deterministic(),
 * initstate(), setstate().
 */
#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

#define MILLION 1000000

static void fill_random(long *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = random();
}

TEST(random_stays_in_0_to_2_31_over_a_million_draws)
{
	long top = 0;
	int lo = 0;

	for (int i = 0; i < MILLION; i++) {
		long v = random();

		ASSERT_TRUE(v >= 0 && v <= 0x7fffffffL);
		top |= v;
		lo += v < 0x40000000L;
	}
	EXPECT_EQ(0x7fffffffL, top);
	EXPECT_LT(labs(lo - MILLION / 2), 5000L);
}

TEST(random_ignores_srandom_seed)
{
	long a[16], b[16];
	char *glibc;

	srandom(1);
	fill_random(a, 16);
	srandom(1);
	fill_random(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
	ASSERT_EQ(0, run_prog("", "ref", "random 1 1", &glibc));
	EXPECT_NE(strtol(glibc + 7, NULL, 10), a[0]);
	free(glibc);
}

TEST(srandomdev_selects_strong_mode)
{
	long a[16], b[16];

	srandom_deterministic(9);
	srandomdev();
	fill_random(a, 16);
	srandom_deterministic(9);
	srandomdev();
	fill_random(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST(srandom_deterministic_replays_its_sequence)
{
	long a[2000], b[2000];

	srandom_deterministic(42);
	fill_random(a, 2000);
	srandom_deterministic(42);
	fill_random(b, 2000);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	for (int i = 0; i < 2000; i++)
		ASSERT_TRUE(a[i] >= 0 && a[i] <= 0x7fffffffL);
}

TEST(srandom_after_deterministic_is_strong_again)
{
	long a[16], b[16];

	srandom_deterministic(4);
	srandom(4);
	fill_random(a, 16);
	srandom_deterministic(4);
	srandom(4);
	fill_random(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST(initstate_matches_glibc_for_every_state_size)
{
	static const char *const cases[] = {
		"initstate 1 8 50", "initstate 1 31 50", "initstate 2 32 50",
		"initstate 3 64 50", "initstate 4 128 1000",
		"initstate 5 255 1000", "initstate 6 256 5000",
	};

	for (int i = 0; i < 7; i++)
		expect_same_as_glibc(_metadata, cases[i]);
}

/* Return values, saved positions, restore, a too-small buffer. */
TEST(setstate_restores_saved_states_as_glibc_does)
{
	expect_same_as_glibc(_metadata, "setstate");
}

TEST(srandom_after_initstate_is_strong)
{
	static char buf[128];
	long a[16], b[16];

	initstate(1, buf, sizeof(buf));
	srandom(1);
	fill_random(a, 16);
	initstate(1, buf, sizeof(buf));
	srandom(1);
	fill_random(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST_HARNESS_MAIN
