// SPDX-License-Identifier: GPL-2.0
/*
 * rand(), srand(), srand_deterministic(), rand_r().
 */
#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

#define MILLION 1000000

static void fill_rand(int *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = rand();
}

TEST(rand_stays_in_0_to_RAND_MAX_over_a_million_draws)
{
	int lo = 0, hi = 0, top = 0;

	for (int i = 0; i < MILLION; i++) {
		int v = rand();

		ASSERT_GE(v, 0);
		ASSERT_LE(v, RAND_MAX);
		lo += v < RAND_MAX / 2;
		hi += v >= RAND_MAX / 2;
		top |= v;
	}
	EXPECT_EQ(RAND_MAX, top) TH_LOG("some bit of RAND_MAX never set");
	EXPECT_LT(abs(lo - hi), 10000) TH_LOG("halves %d %d", lo, hi);
}

TEST(rand_ignores_srand_seed)
{
	int a[16], b[16];
	char *glibc;

	srand(1);
	fill_rand(a, 16);
	srand(1);
	fill_rand(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a))) TH_LOG("srand(1) replayed");
	ASSERT_EQ(0, run_prog("", "ref", "rand 1 1", &glibc));
	EXPECT_NE(strtol(glibc + 5, NULL, 10), a[0])
		TH_LOG("first value is glibc's srand(1) value");
	free(glibc);
}

TEST(rand_unseeded_is_strong)
{
	char *glibc;
	int v = rand();

	ASSERT_EQ(0, run_prog("", "ref", "rand 1 1", &glibc));
	EXPECT_NE(strtol(glibc + 5, NULL, 10), v)
		TH_LOG("unseeded rand() gave glibc's first value");
	free(glibc);
}

/* OpenBSD's patch had this test inverted: strong exactly when seeded. */
TEST(srand_deterministic_replays_its_sequence)
{
	int a[1000], b[1000];

	srand_deterministic(42);
	fill_rand(a, 1000);
	srand_deterministic(42);
	fill_rand(b, 1000);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	for (int i = 0; i < 1000; i++)
		ASSERT_TRUE(a[i] >= 0 && a[i] <= RAND_MAX);
}

TEST(srand_deterministic_different_seeds_differ)
{
	int a[16], b[16];

	srand_deterministic(1);
	fill_rand(a, 16);
	srand_deterministic(2);
	fill_rand(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST(srand_after_srand_deterministic_is_strong_again)
{
	int a[16], b[16];

	srand_deterministic(7);
	srand(7);
	fill_rand(a, 16);
	srand_deterministic(7);
	srand(7);
	fill_rand(b, 16);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
}

TEST(rand_deterministic_stays_in_range_over_a_million_draws)
{
	int top = 0;

	srand_deterministic(3);
	for (int i = 0; i < MILLION; i++) {
		int v = rand();

		ASSERT_TRUE(v >= 0 && v <= RAND_MAX);
		top |= v;
	}
	EXPECT_EQ(RAND_MAX, top);
}

TEST(rand_and_random_of_one_seed_are_different_streams)
{
	int a[16];
	long b[16];
	int same = 0;

	srand_deterministic(5);
	srandom_deterministic(5);
	fill_rand(a, 16);
	for (int i = 0; i < 16; i++)
		b[i] = random();
	for (int i = 0; i < 16; i++)
		same += a[i] == b[i];
	EXPECT_EQ(0, same);
}

TEST(rand_r_matches_glibc)
{
	static const char *const cases[] = { "rand_r 0 1000", "rand_r 1 1000",
					     "rand_r 0xdeadbeef 1000" };

	for (int i = 0; i < 3; i++) {
		char *glibc, *here = scenario_here(cases[i]);

		ASSERT_EQ(0, run_prog("", "ref", cases[i], &glibc));
		ASSERT_NE(NULL, here);
		EXPECT_STREQ(glibc, here);
		free(glibc);
		free(here);
	}
}

TEST_HARNESS_MAIN
