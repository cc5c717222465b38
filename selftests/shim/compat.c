// SPDX-License-Identifier: GPL-2.0
/*
 * What must stay exactly glibc's under the shim, checked against glibc
 * itself (the ref program, built without the shim, and glibc's *_r
 * functions): seed48()'s return after the strong seeders, and the ways
 * srand_deterministic(3) gives to get glibc's exact rand()/random()
 * sequence for a seed, including the example program on that page.
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

/* The numbers of text's lines ("random 123" or "123"), at most max. */
static int numbers(const char *text, long *out, int max)
{
	int n = 0;

	for (const char *l = text; l && *l && n < max; l = strchr(l, '\n')) {
		l += *l == '\n';
		l += strcspn(l, "-0123456789\n");
		if (*l && *l != '\n')
			out[n++] = strtol(l, NULL, 10);
	}
	return n;
}

enum { RECIPE_N = 1000 };

/* ref's values for args (glibc without the shim). */
static int glibc_numbers(const char *args, long *out, int max)
{
	char *text;
	int n = -1;

	if (run_prog("", "ref", args, &text) == 0)
		n = numbers(text, out, max);
	free(text);
	return n;
}

/*
 * The porting recipe: initstate(seed, buf, 128) then random() is glibc's
 * srandom(seed) sequence, and so glibc's srand(seed) rand() sequence.
 */
TEST(initstate_128_then_random_is_glibc_srandom_and_srand_sequence)
{
	static const char *const seeds[] = {
		"0", "1", "2", "42", "12345", "0x7fffffff", "0x80000000",
		"0xffffffff",
	};
	static long here[RECIPE_N], srandom_v[RECIPE_N], srand_v[RECIPE_N];

	for (int i = 0; i < 8; i++) {
		char args[64], *text;

		snprintf(args, sizeof(args), "initstate %s 128 %d", seeds[i],
			 RECIPE_N);
		text = scenario_here(args);
		ASSERT_NE(NULL, text);
		ASSERT_EQ(RECIPE_N, numbers(text, here, RECIPE_N));
		free(text);
		snprintf(args, sizeof(args), "random %s %d", seeds[i], RECIPE_N);
		ASSERT_EQ(RECIPE_N, glibc_numbers(args, srandom_v, RECIPE_N));
		snprintf(args, sizeof(args), "rand %s %d", seeds[i], RECIPE_N);
		ASSERT_EQ(RECIPE_N, glibc_numbers(args, srand_v, RECIPE_N));
		EXPECT_EQ(0, memcmp(srandom_v, here, sizeof(here)))
			TH_LOG("glibc's srandom(%s)", seeds[i]);
		EXPECT_EQ(0, memcmp(srand_v, here, sizeof(here)))
			TH_LOG("glibc's srand(%s)", seeds[i]);
	}
}

/* Whatever random() was doing before: strong, a stream, another state. */
TEST(initstate_recipe_is_exact_after_any_mode)
{
	static char other[64];
	char *glibc, *here;

	ASSERT_EQ(0, run_prog("", "ref", "random 77 500", &glibc));
	srandom_deterministic(3);
	random();
	here = scenario_here("initstate 77 128 500");
	EXPECT_STREQ(glibc, here) TH_LOG("after srandom_deterministic()");
	free(here);
	initstate(5, other, sizeof(other));
	random();
	srandom(9);
	here = scenario_here("initstate 77 128 500");
	EXPECT_STREQ(glibc, here) TH_LOG("after initstate() and srandom()");
	free(here);
	free(glibc);
}

/*
 * The first ".Bd -literal" ... ".Ed" block of page that contains needle,
 * with the roff escapes the examples use undone (\e a backslash, \& none).
 */
static char *page_example(const char *page, const char *needle)
{
	static char block[8192];
	char line[512];
	size_t len = 0;
	int in = 0;
	FILE *f = fopen(page, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!in) {
			in = !strncmp(line, ".Bd -literal", 12);
			len = 0;
		} else if (!strncmp(line, ".Ed", 3)) {
			block[len] = 0;
			if (strstr(block, needle)) {
				fclose(f);
				return strdup(block);
			}
			in = 0;
		} else {
			for (char *p = line; *p && len < sizeof(block) - 1; p++) {
				if (p[0] == '\\' && p[1] == 'e')
					block[len++] = *p++;
				else if (p[0] == '\\' && p[1] == '&')
					p++;
				else
					block[len++] = *p;
			}
		}
	}
	if (f)
		fclose(f);
	return NULL;
}

/*
 * The example is compiled where the test runs: in an emulated VM the
 * compiler alone can take most of the harness's usual 30 s.
 */
FIXTURE(recipe) {};
FIXTURE_SETUP(recipe) {}
FIXTURE_TEARDOWN(recipe) {}

TEST_F_TIMEOUT(recipe, man_page_recipe_program_prints_glibc_srandom_sequence, 180)
{
	static const char *const seeds[] = { "1", "2024", "0xdeadbeef" };
	char dir[] = "/tmp/arc4-recipe-XXXXXX", page[PATH_MAX];
	char cmd[PATH_MAX * 4], *text, *out, *page_text;
	long got[64], want[64];
	FILE *f;
	int n;

	snprintf(page, sizeof(page), "%s/man/srand_deterministic.3", top_dir());
	text = page_example(page, "initstate(");
	ASSERT_NE(NULL, text) TH_LOG("no example calling initstate() in %s", page);
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s/recipe.c", dir);
	f = fopen(cmd, "w");
	ASSERT_NE(NULL, f);
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "cc -Wall -Wextra -Werror -I'%s/include' -o %s/recipe "
		 "%s/recipe.c -L'%s/lib' -Wl,-rpath,'%s/lib' -larc4 2>&1",
		 top_dir(), dir, dir, top_dir(), top_dir());
	EXPECT_EQ(0, run_capture(cmd, &out)) TH_LOG("%s\n%s", text, out);
	free(out);
	for (int i = 0; i < 3; i++) {
		char args[64];

		snprintf(cmd, sizeof(cmd), "env -u ARC4_LEGACY %s/recipe %s", dir,
			 seeds[i]);
		ASSERT_EQ(0, run_capture(cmd, &out));
		n = numbers(out, got, 64);
		free(out);
		snprintf(args, sizeof(args), "random %s 64", seeds[i]);
		ASSERT_EQ(64, glibc_numbers(args, want, 64));
		EXPECT_GE(n, 3) TH_LOG("the example prints values");
		EXPECT_EQ(0, memcmp(want, got, n * sizeof(long)))
			TH_LOG("seed %s: glibc's first is %ld, the example's %ld",
			       seeds[i], want[0], got[0]);
	}
	/* The page says what it prints without an argument: glibc's seed 1. */
	snprintf(cmd, sizeof(cmd), "cat '%s'", page);
	ASSERT_EQ(0, run_capture(cmd, &page_text));
	ASSERT_EQ(3, glibc_numbers("random 1 3", want, 3));
	snprintf(cmd, sizeof(cmd), "%ld, %ld and %ld", want[0], want[1], want[2]);
	EXPECT_NE(NULL, strstr(page_text, cmd))
		TH_LOG("srand_deterministic(3) does not say '%s'", cmd);
	snprintf(cmd, sizeof(cmd), "env -u ARC4_LEGACY %s/recipe", dir);
	ASSERT_EQ(0, run_capture(cmd, &out));
	EXPECT_EQ(3, numbers(out, got, 64));
	EXPECT_EQ(0, memcmp(want, got, 3 * sizeof(long)));
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ASSERT_EQ(0, run_capture(cmd, &out));
	free(out);
	free(page_text);
	free(text);
}

TEST_HARNESS_MAIN
