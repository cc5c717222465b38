// SPDX-License-Identifier: GPL-2.0
/*
 * What must stay exactly glibc's under the shim, checked against glibc
 * itself (the ref program, built without the shim, and glibc's *_r
 * functions): seed48()'s return after the strong seeders.
 */
#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

/* glibc's tst-rand48 starts with this: srand48(0x98765432), seed48(). */
TEST(seed48_after_srand48_returns_the_x_glibc_returns)
{
	unsigned short x[3] = { 1, 2, 3 }, *got;
	struct drand48_data d;

	memset(&d, 0, sizeof(d));
	srand48_r(0x98765432, &d);
	seed48_r(x, &d);
	srand48(0x98765432);
	got = seed48(x);
	EXPECT_EQ(d.__old_x[0], got[0]);
	EXPECT_EQ(d.__old_x[1], got[1]);
	EXPECT_EQ(d.__old_x[2], got[2]);
	EXPECT_EQ(0x330e, got[0]) TH_LOG("X = seed << 16 | 0x330e");
	EXPECT_EQ(0x5432, got[1]);
	EXPECT_EQ(0x9876, got[2]);
}

/* After srand48(), seed48() and lcong48(), for seeds of every size. */
TEST(seed48_after_each_strong_seeder_returns_what_glibc_returns)
{
	expect_same_as_glibc(_metadata, "seed48x 0x98765432");
	expect_same_as_glibc(_metadata, "seed48x 0");
	expect_same_as_glibc(_metadata, "seed48x -1");
	expect_same_as_glibc(_metadata, "seed48x 0x123456789abc");
}

/* ... and the generator stays strong: the stored X is not used. */
TEST(strong_seeders_store_x_but_stay_strong)
{
	unsigned short x[3] = { 0x330e, 0x5432, 0x9876 };
	struct drand48_data d;
	long got[8], glibc[8];

	memset(&d, 0, sizeof(d));
	srand48_r(0x98765432, &d);
	for (int i = 0; i < 8; i++)
		lrand48_r(&d, &glibc[i]);
	srand48(0x98765432);
	for (int i = 0; i < 8; i++)
		got[i] = lrand48();
	EXPECT_NE(0, memcmp(glibc, got, sizeof(got)));
	seed48(x);
	for (int i = 0; i < 8; i++)
		got[i] = lrand48();
	EXPECT_NE(0, memcmp(glibc, got, sizeof(got)));
}

TEST_HARNESS_MAIN
