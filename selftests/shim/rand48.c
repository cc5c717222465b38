// SPDX-License-Identifier: GPL-2.0
/*
 * drand48(), lrand48(), mrand48(), erand48(), nrand48(), jrand48(),
 * srand48(), seed48(), lcong48() and their _deterministic forms.
 */
#include <dlfcn.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

#define MILLION 1000000

/* OpenBSD's patch built drand48() from signed shorts: negative values. */
TEST(drand48_stays_in_0_to_1_over_a_million_draws)
{
	int upper = 0, tiny = 0;
	double sum = 0;

	for (int i = 0; i < MILLION; i++) {
		double d = drand48();

		ASSERT_TRUE(d >= 0.0 && d < 1.0) TH_LOG("drand48() = %a", d);
		upper += d >= 0.5;
		tiny += d < 1.0 / 1024;
		sum += d;
	}
	EXPECT_LT(abs(upper - MILLION / 2), 5000);
	EXPECT_GT(tiny, 0);
	EXPECT_LT(fabs(sum / MILLION - 0.5), 0.003);
}

TEST(lrand48_stays_in_0_to_2_31_over_a_million_draws)
{
	long top = 0;

	for (int i = 0; i < MILLION; i++) {
		long v = lrand48();

		ASSERT_TRUE(v >= 0 && v <= 0x7fffffffL);
		top |= v;
	}
	EXPECT_EQ(0x7fffffffL, top);
}

TEST(mrand48_covers_signed_32_bit_range_over_a_million_draws)
{
	long min = 0, max = 0;
	int neg = 0;

	for (int i = 0; i < MILLION; i++) {
		long v = mrand48();

		ASSERT_TRUE(v >= -0x80000000L && v <= 0x7fffffffL);
		neg += v < 0;
		min = v < min ? v : min;
		max = v > max ? v : max;
	}
	EXPECT_LT(abs(neg - MILLION / 2), 5000);
	EXPECT_LT(min, -0x7f000000L);
	EXPECT_GT(max, 0x7f000000L);
}

static void draws(double *d, long *l, long *m, int n)
{
	for (int i = 0; i < n; i++) {
		d[i] = drand48();
		l[i] = lrand48();
		m[i] = mrand48();
	}
}

/* Two identical seedings must not replay: the seed is ignored. */
static int strong_after(void (*seed)(int))
{
	double d1[8], d2[8];
	long l1[8], l2[8], m1[8], m2[8];

	seed(1);
	draws(d1, l1, m1, 8);
	seed(1);
	draws(d2, l2, m2, 8);
	return memcmp(d1, d2, sizeof(d1)) && memcmp(l1, l2, sizeof(l1)) &&
	       memcmp(m1, m2, sizeof(m1));
}

static void seed_srand48(int s)
{
	srand48_deterministic(s);
	srand48(s);
}

static void seed_seed48(int s)
{
	unsigned short x[3] = { s, s, s };

	seed48_deterministic(x);
	seed48(x);
}

static void seed_lcong48(int s)
{
	unsigned short p[7] = { s, s, s, 0xe66d, 0xdeec, 0x5, 0xb };

	lcong48_deterministic(p);
	lcong48(p);
}

TEST(srand48_selects_strong_mode)
{
	EXPECT_TRUE(strong_after(seed_srand48));
}

TEST(seed48_selects_strong_mode_and_returns_its_buffer)
{
	unsigned short x[3] = { 1, 2, 3 }, *p, *q;

	EXPECT_TRUE(strong_after(seed_seed48));
	p = seed48(x);
	q = seed48(x);
	ASSERT_NE(NULL, p);
	EXPECT_EQ((uintptr_t)p, (uintptr_t)q) TH_LOG("seed48() returns one static buffer");
	EXPECT_NE((uintptr_t)x, (uintptr_t)p);
}

TEST(lcong48_selects_strong_mode)
{
	EXPECT_TRUE(strong_after(seed_lcong48));
}

TEST(srand48_deterministic_matches_glibc_srand48)
{
	expect_same_as_glibc(_metadata, "rand48 0 1000");
	expect_same_as_glibc(_metadata, "rand48 1 1000");
	expect_same_as_glibc(_metadata, "rand48 -123456789 1000");
	expect_same_as_glibc(_metadata, "rand48 0x7fffffffffff 1000");
}

/* One case a test: seed48()'s return depends on the state before it. */
TEST(seed48_deterministic_matches_glibc_seed48_of_zero)
{
	expect_same_as_glibc(_metadata, "seed48 0 0 0 500");
}

TEST(seed48_deterministic_matches_glibc_seed48_of_typical_x)
{
	expect_same_as_glibc(_metadata, "seed48 0x330e 0xabcd 0x1234 500");
}

TEST(seed48_deterministic_matches_glibc_seed48_of_all_ones)
{
	expect_same_as_glibc(_metadata, "seed48 65535 65535 65535 500");
}

/* The patch's man page named lcong48_deterministic(); code never had it. */
TEST(lcong48_deterministic_exists_and_is_exported)
{
	void *h = dlopen(libarc4_so(), RTLD_NOW | RTLD_LOCAL);

	ASSERT_NE(NULL, h) TH_LOG("dlopen: %s", dlerror());
	EXPECT_NE(NULL, dlsym(h, "lcong48_deterministic"));
	EXPECT_NE(NULL, dlsym(h, "seed48_deterministic"));
	EXPECT_NE(NULL, dlsym(h, "srand48_deterministic"));
	dlclose(h);
}

TEST(lcong48_deterministic_matches_glibc_lcong48)
{
	expect_same_as_glibc(_metadata,
			     "lcong48 1 2 3 0xe66d 0xdeec 5 11 500");
	expect_same_as_glibc(_metadata,
			     "lcong48 0x1234 0x5678 0x9abc 3 0 0 0 500");
	expect_same_as_glibc(_metadata,
			     "lcong48 7 7 7 0xffff 0xffff 0xffff 0xffff 500");
}

TEST(erand48_nrand48_jrand48_match_glibc)
{
	expect_same_as_glibc(_metadata, "erand48 0 0 0 1000");
	expect_same_as_glibc(_metadata, "erand48 0x330e 1 2 1000");
	expect_same_as_glibc(_metadata, "erand48 65535 0 65535 1000");
}

/* erand48() and friends use lcong48()'s multiplier even in strong mode. */
TEST(erand48_honours_strong_lcong48_parameters_as_glibc)
{
	unsigned short p[7] = { 1, 2, 3, 0x1234, 0x5678, 0x9, 0x77 };
	char *glibc, *here, *want, *got;

	ASSERT_EQ(0, run_prog("", "ref",
			      "lcong48 1 2 3 0x1234 0x5678 9 0x77 50", &glibc));
	lcong48(p);
	here = scenario_here("erand48 1 2 3 50");
	ASSERT_NE(NULL, here);
	for (int t = 0; t < 3; t++) {
		const char *tag = t == 0 ? "erand48" : t == 1 ? "nrand48" :
								 "jrand48";

		want = lines_tagged(glibc, tag);
		got = lines_tagged(here, tag);
		EXPECT_STREQ(want, got);
		free(want);
		free(got);
	}
	free(glibc);
	free(here);
}

TEST_HARNESS_MAIN
