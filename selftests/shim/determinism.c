// SPDX-License-Identifier: GPL-2.0
/*
 * The deterministic streams of srand_deterministic() and
 * srandom_deterministic(): the documented seed rule checked against
 * OpenSSL's ChaCha20, served by the device when present and computed by
 * the shim when not, unchanged across fork, closed and dup2()ed
 * descriptors.
 */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <openssl/evp.h>
#include <linux/arc4.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

#define NONCE_RAND	"rand\0\0\0\0"
#define NONCE_RANDOM	"random\0\0"

/*
 * OpenSSL's chacha20 takes a 16-byte IV: le32 counter low, le32 counter
 * high, le64 nonce; it carries the counter into word 13.  That is exactly
 * the device's layout, so it is an independent oracle for the stream.
 */
static void openssl_stream(uint32_t seed, const char nonce[8], uint64_t off,
			   uint8_t *out, size_t len)
{
	uint8_t key[32] = { seed, seed >> 8, seed >> 16, seed >> 24 };
	uint8_t iv[16] = { 0 }, *zero = calloc(1, len + 64), *tmp = malloc(len + 64);
	uint64_t block = off / 64;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n;

	for (int i = 0; i < 8; i++)
		iv[i] = block >> (8 * i);
	memcpy(iv + 8, nonce, 8);
	EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
	EVP_EncryptUpdate(c, tmp, &n, zero, off % 64 + len);
	memcpy(out, tmp + off % 64, len);
	EVP_CIPHER_CTX_free(c);
	free(zero);
	free(tmp);
}

/* Values first .. first + n - 1 of a seed, by the documented rule. */
static long *expected_values(uint32_t seed, const char nonce[8], long first,
			     long n)
{
	uint8_t *s = malloc(4 * n);
	long *v = malloc(n * sizeof(*v));

	openssl_stream(seed, nonce, 4 * first, s, 4 * n);
	for (long i = 0; i < n; i++)
		v[i] = (s[4 * i] | s[4 * i + 1] << 8 | s[4 * i + 2] << 16 |
			(uint32_t)s[4 * i + 3] << 24) & 0x7fffffff;
	free(s);
	return v;
}

enum { N = 20000 };	/* 80 KB of stream: many refills */

static long count_mismatches(long *want, long n, int use_random)
{
	long bad = 0;

	for (long i = 0; i < n; i++)
		bad += (use_random ? random() : rand()) != want[i];
	return bad;
}

TEST(srand_deterministic_sequence_is_chacha20_of_the_seed_rule)
{
	static const uint32_t seeds[] = { 0, 1, 42, 0x80000000u, 0xffffffffu };

	for (int i = 0; i < 5; i++) {
		long *want = expected_values(seeds[i], NONCE_RAND, 0, N);

		srand_deterministic(seeds[i]);
		EXPECT_EQ(0, count_mismatches(want, N, 0))
			TH_LOG("seed %u", seeds[i]);
		free(want);
	}
}

TEST(srandom_deterministic_sequence_is_chacha20_of_the_seed_rule)
{
	static const uint32_t seeds[] = { 0, 1, 42, 0xffffffffu };

	for (int i = 0; i < 4; i++) {
		long *want = expected_values(seeds[i], NONCE_RANDOM, 0, N);

		srandom_deterministic(seeds[i]);
		EXPECT_EQ(0, count_mismatches(want, N, 1))
			TH_LOG("seed %u", seeds[i]);
		free(want);
	}
}

/* The fd of ours that reads /dev/arc4, or -1. */
static int find_device_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	while (d && (e = readdir(d))) {
		char path[300], target[64];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = 0;
			if (!strcmp(target, "/dev/arc4"))
				found = atoi(e->d_name);
		}
	}
	if (d)
		closedir(d);
	return found;
}

TEST(deterministic_stream_is_read_from_the_device_when_present)
{
	struct arc4_info info;
	long *want;
	int fd;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	ASSERT_EQ(-1, find_device_fd());
	want = expected_values(77, NONCE_RAND, 0, N);
	srand_deterministic(77);
	EXPECT_EQ(0, count_mismatches(want, N, 0));
	fd = find_device_fd();
	ASSERT_NE(-1, fd) TH_LOG("no /dev/arc4 descriptor after seeding");
	ASSERT_EQ(0, ioctl(fd, ARC4_IOC_GET_INFO, &info));
	EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
	EXPECT_EQ(0, info.position) TH_LOG("shim moved the shared offset");
	free(want);
}

TEST(deterministic_stream_is_computed_without_the_device)
{
	long *want = expected_values(1234, NONCE_RANDOM, 0, N);

	if (enter_empty_root() != 0)
		SKIP(return, "chroot needs root");
	ASSERT_NE(0, access("/dev/arc4", F_OK));
	srandom_deterministic(1234);
	EXPECT_EQ(0, count_mismatches(want, N, 1));
	free(want);
}

/* Grow the stack now: under a full RLIMIT_AS it could not grow later. */
static __attribute__((noinline)) void stack_grow(void)
{
	volatile char pad[256 * 1024];

	memset((char *)pad, 0, sizeof(pad));
}

/*
 * The stream's 4 KiB buffer is mapped at its first refill; where no
 * mapping can be had (the address space at its limit), a block in the
 * state serves, and the sequence is the same.
 */
TEST(deterministic_sequence_is_the_same_when_no_buffer_can_be_mapped)
{
	long *want = expected_values(777, NONCE_RAND, 0, N), pages = 0, rss;
	struct rlimit lim;
	FILE *f;
	void *m;

	stack_grow();
	f = fopen("/proc/self/statm", "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(2, fscanf(f, "%ld %ld", &pages, &rss));
	fclose(f);
	lim.rlim_cur = lim.rlim_max = (rlim_t)(pages + 8) * getpagesize();
	ASSERT_EQ(0, setrlimit(RLIMIT_AS, &lim));
	/* Fill the few pages left, so that no 4 KiB mapping fits. */
	while ((m = mmap(NULL, getpagesize(), PROT_READ, MAP_PRIVATE |
			 MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
		;
	srand_deterministic(777);
	EXPECT_EQ(0, count_mismatches(want, N, 0));
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT_EQ(MAP_FAILED, m) TH_LOG("a 4 KiB mapping could be had");
	free(want);
}

/* Draw 100, fork by `how`; both draw N more; compare against OpenSSL. */
static void fork_continues(struct __test_metadata *_metadata, int how)
{
	long *want = expected_values(99, NONCE_RAND, 100, N);
	int st;
	pid_t pid;

	srand_deterministic(99);
	for (int i = 0; i < 100; i++)
		rand();
	pid = how ? shim_sys_fork() : fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(count_mismatches(want, N, 0) ? 1 : 0);
	EXPECT_EQ(0, count_mismatches(want, N, 0)) TH_LOG("parent");
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st) TH_LOG("child did not continue the sequence");
	free(want);
}

TEST(deterministic_sequence_continues_identically_after_fork)
{
	fork_continues(_metadata, 0);
}

TEST(deterministic_sequence_continues_identically_after_raw_fork)
{
	fork_continues(_metadata, 1);
}

TEST(child_that_reseeds_leaves_the_parent_stream_alone)
{
	long *want = expected_values(5, NONCE_RANDOM, 10, N);
	long *child = expected_values(6, NONCE_RANDOM, 0, N);
	int st;
	pid_t pid;

	srandom_deterministic(5);
	for (int i = 0; i < 10; i++)
		random();
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		srandom_deterministic(6);
		_exit(count_mismatches(child, N, 1) ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, count_mismatches(want, N, 1));
	free(want);
	free(child);
}

static int max_fd(void)
{
	struct rlimit r;

	getrlimit(RLIMIT_NOFILE, &r);
	return r.rlim_cur > 4096 ? 4096 : (int)r.rlim_cur;
}

TEST(deterministic_stream_survives_closing_every_descriptor)
{
	long *want = expected_values(8, NONCE_RAND, 50, N);

	srand_deterministic(8);
	for (int i = 0; i < 50; i++)
		rand();
	for (int fd = 0; fd < max_fd(); fd++)
		if (fd != 2)
			close(fd);
	EXPECT_EQ(0, count_mismatches(want, N, 0));
	free(want);
}

/* srand_deterministic(8) and its first 50 values drawn. */
static void seed_and_draw_50(void)
{
	srand_deterministic(8);
	for (int i = 0; i < 50; i++)
		rand();
}

/*
 * Descriptor @fd put over every other one from 3 up, then the next N
 * values compared with @want: how many differ.
 */
static int mismatches_with_fd_everywhere(int fd, long *want)
{
	int top = max_fd();

	for (int i = 3; i < top; i++)
		if (i != fd)
			dup2(fd, i);
	return count_mismatches(want, N, 0);
}

/*
 * Another stream of /dev/arc4 (same device, same inode, other key) put
 * over every descriptor: only the stream check tells it from ours.
 */
TEST(deterministic_stream_survives_another_arc4_stream_dup2ed_over_it)
{
	struct arc4_seed other = { .key = { 1, 2, 3 }, .nonce = 7 };
	long *want = expected_values(8, NONCE_RAND, 50, N);
	int fd;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	seed_and_draw_50();
	fd = open("/dev/arc4", O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, ARC4_IOC_SEED, &other));
	EXPECT_EQ(0, mismatches_with_fd_everywhere(fd, want));
	free(want);
}

/*
 * A regular file put over every descriptor (16 MiB of zeroes: were it read
 * as keystream, rand() would give zeroes): it is not the device the shim
 * opened, so the shim opens the stream again and never reads the file.
 */
TEST(deterministic_stream_never_reads_a_file_dup2ed_over_it)
{
	long *want = expected_values(8, NONCE_RAND, 50, N);
	char path[] = "/tmp/arc4-determinism-XXXXXX";
	int fd;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	seed_and_draw_50();
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, 16 << 20));
	EXPECT_EQ(0, mismatches_with_fd_everywhere(fd, want));
	free(want);
}

enum { T_THREADS = 4, T_EACH = 5000 };

static long thread_draws[T_THREADS * T_EACH];

static void *draw_rand(void *arg)
{
	long *out = thread_draws + (uintptr_t)arg * T_EACH;

	for (int i = 0; i < T_EACH; i++)
		out[i] = rand();
	return NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* One sequence per process: threads share it, no value lost or repeated. */
TEST(threads_share_one_deterministic_sequence)
{
	long n = T_THREADS * T_EACH, *want = expected_values(31, NONCE_RAND, 0, n);
	pthread_t t[T_THREADS];

	srand_deterministic(31);
	for (uintptr_t i = 0; i < T_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, draw_rand, (void *)i));
	for (int i = 0; i < T_THREADS; i++)
		pthread_join(t[i], NULL);
	qsort(want, n, sizeof(*want), cmp_long);
	qsort(thread_draws, n, sizeof(*want), cmp_long);
	EXPECT_EQ(0, memcmp(want, thread_draws, n * sizeof(*want)));
	free(want);
}

/* ---- the state lock ----------------------------------------------------- */

static char lock_state[128];

static void c_rand(void) { srand_deterministic(1); (void)rand(); }
static void c_random(void) { srandom_deterministic(1); (void)random(); }
static void c_srandom(void) { srandom(1); (void)random(); }
static void c_srand(void) { srand(1); (void)rand(); }
static void c_srandomdev(void) { srandomdev(); (void)random(); }
static void c_initstate(void)
{
	setstate(initstate(1, lock_state, sizeof(lock_state)));
	(void)random();
}
static void c_state_random(void)
{
	char *old = initstate(1, lock_state, sizeof(lock_state));

	(void)random();
	setstate(old);
}
static void c_drand48(void) { srand48_deterministic(1); (void)drand48(); }
static void c_lrand48(void) { srand48(1); (void)lrand48(); (void)mrand48(); }
static void c_seed48(void)
{
	unsigned short x[3] = { 1, 2, 3 };

	(void)seed48_deterministic(x);
	(void)seed48(x);
}
static void c_lcong48(void)
{
	unsigned short p[7] = { 1, 2, 3, 0xe66d, 0xdeec, 5, 11 };

	lcong48_deterministic(p);
	lcong48(p);
}
static void c_xrand48(void)
{
	unsigned short x[3] = { 1, 2, 3 };

	(void)erand48(x);
	(void)nrand48(x);
	(void)jrand48(x);
}

static void *call_in_thread(void *fn)
{
	((void (*)(void))fn)();
	return NULL;
}

/*
 * Every call releases the state lock: each runs in a thread of its own,
 * then another thread takes the lock.  A call that kept it (the lock is
 * recursive for its owner, so the calling thread alone would never know)
 * leaves the second thread waiting for good; 10 s is a hang, not a speed
 * (the harness would end the test at 30).
 */
TEST(every_call_releases_the_state_lock)
{
	static void (*const calls[])(void) = {
		c_rand, c_random, c_srandom, c_srand, c_srandomdev,
		c_initstate, c_state_random, c_drand48, c_lrand48, c_seed48,
		c_lcong48, c_xrand48,
	};

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct timespec until;
		pthread_t a, b;

		ASSERT_EQ(0, pthread_create(&a, NULL, call_in_thread,
					    (void *)calls[i]));
		ASSERT_EQ(0, pthread_join(a, NULL));
		ASSERT_EQ(0, pthread_create(&b, NULL, call_in_thread,
					    (void *)c_rand));
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 10;
		ASSERT_EQ(0, pthread_timedjoin_np(b, NULL, &until))
			TH_LOG("call %zu kept the state lock", i);
	}
}

TEST_HARNESS_MAIN
