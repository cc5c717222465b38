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

/* glibc's own sequence of initstate(seed, <size bytes>), by random_r(). */
static void glibc_initstate_values(unsigned int seed, size_t size, long *v,
				   int n)
{
	struct random_data rd = { 0 };
	static char buf[256];
	int32_t x;

	initstate_r(seed, buf, size, &rd);
	for (int i = 0; i < n; i++) {
		random_r(&rd, &x);
		v[i] = x;
	}
}

/*
 * A buffer left while random() was strong keeps a record of that; an
 * initstate() of it drops the record and seeds it, exactly as glibc.
 */
TEST(initstate_of_a_buffer_saved_while_strong_seeds_it_as_glibc)
{
	static char a[128], b[128];
	long got[16], want[16];

	initstate(1, a, sizeof(a));
	srandom(5);			/* strong, on a */
	initstate(2, b, sizeof(b));	/* a saved as strong */
	EXPECT_EQ((char *)b, initstate(3, a, sizeof(a)));
	fill_random(got, 16);
	glibc_initstate_values(3, sizeof(a), want, 16);
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)))
		TH_LOG("random() after initstate(3, a) is not glibc's sequence");
}

/* A buffer glibc's setstate() rejects: NULL, EINVAL, and nothing changes. */
TEST(setstate_of_a_buffer_glibc_rejects_fails_einval_and_changes_nothing)
{
	static int32_t bad[32] = { -1 };	/* no valid generator type */
	long got[8], want[8];

	srandom_deterministic(9);
	fill_random(want, 8);
	srandom_deterministic(9);
	fill_random(got, 4);
	errno = 0;
	EXPECT_EQ((char *)NULL, setstate((char *)bad));
	EXPECT_EQ(EINVAL, errno);
	fill_random(got + 4, 4);
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)))
		TH_LOG("the stream did not go on after the refused setstate()");
}

TEST_HARNESS_MAIN
