// SPDX-License-Identifier: GPL-2.0
/*
 * arc4random(), arc4random_buf(), arc4random_uniform() and the strong
 * buffer behind them: ranges, uniformity, rejection sampling, threads,
 * fork (libc and raw system call), wipe-on-fork, wiped consumed bytes.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"
#include "../device/pm_cycle.h"

#define MILLION 1000000

TEST(arc4random_covers_all_32_bits_over_a_million_draws)
{
	uint32_t all_or = 0, all_and = ~0u;
	uint64_t hi[16] = { 0 };
	double exp[16];

	for (int i = 0; i < MILLION; i++) {
		uint32_t v = arc4random();

		all_or |= v;
		all_and &= v;
		hi[v >> 28]++;
	}
	EXPECT_EQ(0xffffffffu, all_or) TH_LOG("some bit never set");
	EXPECT_EQ(0u, all_and) TH_LOG("some bit always set");
	for (int i = 0; i < 16; i++)
		exp[i] = MILLION / 16.0;
	EXPECT_LT(chi2_stat(hi, exp, 16), chi2_limit(15))
		TH_LOG("top nibble not uniform");
}

TEST(arc4random_buf_bytes_pass_chi_square)
{
	size_t len = 1 << 22;
	uint8_t *buf = malloc(len);

	ASSERT_NE(NULL, buf);
	/* Small requests through the buffer, then one large direct read. */
	for (size_t off = 0; off < len / 2; off += 7)
		arc4random_buf(buf + off, off + 7 <= len / 2 ? 7 : len / 2 - off);
	arc4random_buf(buf + len / 2, len / 2);
	EXPECT_LT(chi2_bytes(buf, len / 2), chi2_limit(255))
		TH_LOG("small requests not uniform");
	EXPECT_LT(chi2_bytes(buf + len / 2, len / 2), chi2_limit(255))
		TH_LOG("large request not uniform");
	free(buf);
}

TEST(arc4random_buf_writes_exactly_len_bytes)
{
	static const size_t sizes[] = { 0, 1, 3, 4, 5, 63, 64, 65, 4095,
					16376, 16384, 70000 };
	uint8_t *buf = malloc(70000 + 32);

	ASSERT_NE(NULL, buf);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], zeros = 0;

		memset(buf, 0, n + 32);
		arc4random_buf(buf + 16, n);
		for (size_t j = 0; j < 16; j++)
			ASSERT_EQ(0, buf[j] | buf[16 + n + j])
				TH_LOG("wrote outside [buf, buf + %zu)", n);
		for (size_t j = 0; j < n; j++)
			zeros += buf[16 + j] == 0;
		EXPECT_LE(zeros, n / 64 + 4) TH_LOG("%zu of %zu bytes zero",
						    zeros, n);
	}
	free(buf);
}

TEST(arc4random_uniform_zero_and_one_return_zero)
{
	for (int i = 0; i < 1000; i++) {
		ASSERT_EQ(0u, arc4random_uniform(0));
		ASSERT_EQ(0u, arc4random_uniform(1));
	}
}

TEST(arc4random_uniform_small_bounds_pass_chi_square)
{
	static const uint32_t bounds[] = { 2, 3, 7, 10, 100, 1000 };
	uint64_t obs[1000];
	double exp[1000];

	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		uint32_t n = bounds[b];
		int draws = 1000 * n < MILLION ? MILLION : 1000 * n;

		memset(obs, 0, sizeof(obs));
		for (int i = 0; i < draws; i++) {
			uint32_t v = arc4random_uniform(n);

			ASSERT_LT(v, n);
			obs[v]++;
		}
		for (uint32_t i = 0; i < n; i++)
			exp[i] = (double)draws / n;
		EXPECT_LT(chi2_stat(obs, exp, n), chi2_limit(n - 1))
			TH_LOG("bound %u not uniform", n);
	}
}

/*
 * n = 3 * 2^30: plain r % n would put [0, 2^30) at twice the weight of
 * the rest (p = 1/2 instead of 1/3).  Exact rejection gives 1/3 : 2/3.
 */
TEST(arc4random_uniform_has_no_modulo_bias_for_bound_3_times_2_30)
{
	const uint32_t n = 3u << 30;
	uint64_t obs[3] = { 0 };
	double exp[3];

	for (int i = 0; i < MILLION; i++) {
		uint32_t v = arc4random_uniform(n);

		ASSERT_LT(v, n);
		obs[v >> 30]++;
	}
	for (int i = 0; i < 3; i++)
		exp[i] = MILLION / 3.0;
	EXPECT_LT(chi2_stat(obs, exp, 3), chi2_limit(2))
		TH_LOG("thirds %lu %lu %lu", obs[0], obs[1], obs[2]);
}

/*
 * n = 2^31 + 1: r % n would return values below 2^31 - 1 twice as often
 * as the others, so P(v < 2^31 - 1) would be 2/3, not 1/2.
 */
TEST(arc4random_uniform_bound_just_above_2_31_is_uniform)
{
	const uint32_t n = (1u << 31) + 1;
	uint64_t obs[2] = { 0 };
	double exp[2] = { MILLION * ((double)(n / 2) / n),
			  MILLION * ((double)(n - n / 2) / n) };
	int high = 0;

	for (int i = 0; i < MILLION; i++) {
		uint32_t v = arc4random_uniform(n);

		ASSERT_LT(v, n);
		obs[v >= n / 2]++;
		high += v >= (1u << 31) - (1u << 20);
	}
	EXPECT_LT(chi2_stat(obs, exp, 2), chi2_limit(1))
		TH_LOG("halves %lu %lu", obs[0], obs[1]);
	EXPECT_GT(high, 0) TH_LOG("never near the top of the range");
}

/* ---- threads ------------------------------------------------------ */

enum { THREADS = 8, PER_THREAD = 100000 };

struct draw16 {
	uint64_t w[2];
};

static struct draw16 *draws;

static void *draw_thread(void *arg)
{
	struct draw16 *d = draws + (uintptr_t)arg * PER_THREAD;

	for (int i = 0; i < PER_THREAD; i++) {
		if (i % 3 == 0) {
			arc4random_buf(&d[i], sizeof(d[i]));
		} else {
			d[i].w[0] = (uint64_t)arc4random() << 32 | arc4random();
			d[i].w[1] = (uint64_t)arc4random() << 32 | arc4random();
		}
	}
	return NULL;
}

static int cmp16(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct draw16));
}

TEST(threads_never_draw_the_same_16_bytes)
{
	pthread_t t[THREADS];
	size_t n = (size_t)THREADS * PER_THREAD, dups = 0;

	draws = calloc(n, sizeof(*draws));
	ASSERT_NE(NULL, draws);
	for (uintptr_t i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, draw_thread,
					    (void *)i));
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	qsort(draws, n, sizeof(*draws), cmp16);
	for (size_t i = 1; i < n; i++)
		dups += !cmp16(&draws[i - 1], &draws[i]);
	EXPECT_EQ(0, dups) TH_LOG("%zu duplicate 16-byte draws", dups);
	free(draws);
}

/* ---- fork --------------------------------------------------------- */

enum { FORK_BYTES = 64 };

/*
 * Fill the buffer in the parent, fork by `how`, draw FORK_BYTES in both;
 * the child sends its bytes through a pipe.  Returns 1 if they differ.
 */
static int fork_draws_differ(struct __test_metadata *_metadata, int how)
{
	uint8_t mine[FORK_BYTES], theirs[FORK_BYTES];
	int p[2], st;
	pid_t pid;

	(void)arc4random();	/* the parent's buffer now holds bytes */
	ASSERT_EQ(0, pipe(p));
	if (how == 0)
		pid = fork();
	else if (how == 1)
		pid = shim_sys_fork();
	else
		pid = syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		arc4random_buf(mine, sizeof(mine));
		_exit(write(p[1], mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	arc4random_buf(mine, sizeof(mine));
	ASSERT_EQ(sizeof(theirs), read(p[0], theirs, sizeof(theirs)));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, st);
	close(p[0]);
	close(p[1]);
	return memcmp(mine, theirs, sizeof(mine)) != 0;
}

TEST(fork_child_never_repeats_parent_output)
{
	EXPECT_TRUE(fork_draws_differ(_metadata, 0));
}

TEST(raw_fork_syscall_child_never_repeats_parent_output)
{
	EXPECT_TRUE(fork_draws_differ(_metadata, 1));
}

TEST(raw_clone_syscall_child_never_repeats_parent_output)
{
	EXPECT_TRUE(fork_draws_differ(_metadata, 2));
}

TEST(rand_after_raw_fork_differs_between_parent_and_child)
{
	unsigned int mine, theirs;
	int p[2], st;
	pid_t pid;

	(void)rand();
	ASSERT_EQ(0, pipe(p));
	pid = shim_sys_fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		mine = rand() ^ (unsigned int)rand() << 1;
		_exit(write(p[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	mine = rand() ^ (unsigned int)rand() << 1;
	ASSERT_EQ(sizeof(theirs), read(p[0], &theirs, sizeof(theirs)));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_NE(mine, theirs);
}

/* ---- the buffer itself (white box, through /proc/self/smaps) ------ */

/* Find our 16 KiB strong mapping with the wipe-on-fork flag. */
static int find_wipeonfork_map(uintptr_t *start, uintptr_t *end)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	uintptr_t s = 0, e = 0;
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') <
		    strchr(line, ' ')) {
			s = a;
			e = b;
		} else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " wf") &&
			   e - s == 16384) {
			*start = s;
			*end = e;
			found++;
		}
	}
	fclose(f);
	return found == 1;
}

TEST(strong_buffer_is_mapped_wipe_on_fork)
{
	uintptr_t s, e;

	draw_until_buffered();
	if (!shim_buffers()) {
		/* No device, a VM-fork-safe getrandom(): no buffer at all. */
		EXPECT_EQ(0, count_wipeonfork_maps());
		return;
	}
	ASSERT_TRUE(find_wipeonfork_map(&s, &e))
		TH_LOG("no single 16 KiB mapping with VmFlags wf");
}

TEST(consumed_bytes_are_wiped_from_the_buffer)
{
	struct draw16 got[64];
	uintptr_t s, e;

	if (!shim_buffers())
		SKIP(return, "no buffer here: no /dev/arc4, and glibc %s's getrandom() serves every value",
		     gnu_get_libc_version());
	draw_until_buffered();
	ASSERT_TRUE(find_wipeonfork_map(&s, &e));
	for (int i = 0; i < 64; i++)
		arc4random_buf(&got[i], sizeof(got[i]));
	for (int i = 0; i < 64; i++) {
		int found = 0;

		for (uintptr_t p = s; p + 16 <= e; p++)
			found |= !memcmp((void *)p, &got[i], 16);
		ASSERT_FALSE(found) TH_LOG("a draw is still in the buffer");
	}
}

TEST(child_buffer_is_zero_after_raw_fork)
{
	uintptr_t s, e;
	int st;
	pid_t pid;

	if (!shim_buffers())
		SKIP(return, "no buffer here: no /dev/arc4, and glibc %s's getrandom() serves every value",
		     gnu_get_libc_version());
	draw_until_buffered();
	ASSERT_TRUE(find_wipeonfork_map(&s, &e));
	pid = shim_sys_fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		for (uintptr_t p = s; p < e; p++)
			if (*(uint8_t *)p)
				_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st) TH_LOG("the child saw the parent's bytes");
}

static void *draw_once(void *arg)
{
	draw_until_buffered();
	return arg;
}

TEST(thread_exit_unmaps_its_buffer)
{
	int before;

	draw_until_buffered();
	before = count_wipeonfork_maps();
	for (int i = 0; i < 200; i++) {
		pthread_t t;

		ASSERT_EQ(0, pthread_create(&t, NULL, draw_once, NULL));
		pthread_join(t, NULL);
	}
	EXPECT_EQ(before, count_wipeonfork_maps());
}

static void *draw_few(void *arg)
{
	int *maps = arg;

	for (int i = 0; i < 4; i++)
		(void)arc4random();
	(void)rand();
	*maps = count_wipeonfork_maps();
	return NULL;
}

/*
 * A thread that draws a few values keeps no 16 KiB buffer: they come
 * straight from getrandom().  (One that keeps drawing gets one: the tests
 * above.)
 */
TEST(a_thread_that_draws_a_few_values_keeps_no_buffer)
{
	pthread_t t;
	int before, during = -1;

	before = count_wipeonfork_maps();
	ASSERT_EQ(0, pthread_create(&t, NULL, draw_few, &during));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(before, during);
}

/*
 * A hibernation (run without an image, pm_cycle.h) moves /dev/arc4's
 * generation page: the buffer counts as empty and the next value comes
 * from a refill.  White box: avail is the word after the generation.
 * Without the device there is no page to move (the host's run).
 */
TEST(a_hibernation_empties_the_strong_buffer)
{
	volatile size_t *avail;
	uintptr_t s, e;
	const char *lack = pm_hibernation_lack();
	size_t before;

	if (!have_device())
		SKIP(return, "no /dev/arc4: the generation page is the module's");
	if (lack)
		SKIP(return, "%s", lack);
	draw_until_buffered();
	ASSERT_TRUE(find_wipeonfork_map(&s, &e));
	avail = (volatile size_t *)(s + 8);
	before = *avail;
	(void)arc4random();
	ASSERT_EQ(before - 4, *avail) TH_LOG("no refill without a resume");
	ASSERT_EQ(0, pm_hibernation_cycle())
		TH_LOG("hibernation test cycle: %s", strerror(errno));
	(void)arc4random();
	EXPECT_EQ(16384 - 16 - 4, *avail)
		TH_LOG("the buffer was not refilled after the resume");
}

TEST_HARNESS_MAIN
