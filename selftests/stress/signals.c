// SPDX-License-Identifier: GPL-2.0
/*
 * Signals in the middle of huge reads: an interrupted read returns
 * promptly with a partial count whose bytes are right, and a reader killed
 * in the middle of a read dies at once and leaves the device working.
 *
 * The 1 GiB destination is one small memfd mapped over and over, so the
 * read is huge without the memory to back it.  ARC4_KILL_ROUNDS (default
 * 20) sets how many readers are killed.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "stress.h"

enum {
	HUGE = 1 << 30,
	ALIAS = 1 << 20,	/* the memfd behind every 1 MiB of it */
};

/* A HUGE-byte buffer backed by one ALIAS-byte memfd; NULL on failure. */
static uint8_t *huge_buffer(void)
{
	uint8_t *base;
	size_t off;
	int fd = memfd_create("arc4-huge", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, ALIAS))
		return NULL;
	base = mmap(NULL, HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	for (off = 0; off < HUGE; off += ALIAS)
		if (mmap(base + off, ALIAS, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
			return NULL;
	close(fd);
	return base;
}

static volatile double signalled_at;

/*
 * What "promptly" is measured against: the seconds an uninterrupted read
 * of HUGE bytes takes on fd here and now (64 MiB read, scaled).  A read
 * that ignored a signal would run on for about that long; a loaded host
 * that slows the VM slows this too, so the bounds below are not a flaky
 * wall-clock limit.
 */
static double huge_read_seconds(int fd, uint8_t *buf)
{
	size_t want = 64 << 20, got = 0;
	double t = now_sec();

	while (got < want) {
		ssize_t n = read(fd, buf + got, want - got);

		if (n <= 0)
			return 0;
		got += n;
	}
	return (now_sec() - t) * (HUGE / want);
}

static double max_d(double a, double b)
{
	return a > b ? a : b;
}

static void on_alarm(int sig)
{
	struct timespec ts;

	(void)sig;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	signalled_at = ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(sig) {
	int fd;
	uint8_t *buf;
	uint8_t key[32];
	uint64_t nonce;
};

FIXTURE_VARIANT(sig) {
	int deterministic;
	int restart;		/* SA_RESTART makes no difference once bytes were read */
};

FIXTURE_VARIANT_ADD(sig, strong) { .deterministic = 0 };
FIXTURE_VARIANT_ADD(sig, strong_sa_restart) { .restart = 1 };
FIXTURE_VARIANT_ADD(sig, deterministic) { .deterministic = 1 };
FIXTURE_VARIANT_ADD(sig, deterministic_sa_restart) {
	.deterministic = 1, .restart = 1,
};

FIXTURE_SETUP(sig)
{
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	self->buf = huge_buffer();
	ASSERT_NE(NULL, self->buf);
	random_fill(self->key, sizeof(self->key));
	self->nonce = random_u64();
	if (variant->deterministic)
		ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
}

FIXTURE_TEARDOWN(sig)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F_TIMEOUT(sig, huge_read_interrupted_returns_partial_count_promptly, 300)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 300000 } };
	uint8_t want[4096];
	double t0, t1, full, bound;
	ssize_t n;

	full = huge_read_seconds(self->fd, self->buf);
	ASSERT_LT(0, full);
	bound = max_d(0.5, full / 4);
	if (variant->deterministic)
		ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	sa.sa_flags = variant->restart ? SA_RESTART : 0;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	signalled_at = 0;
	t0 = now_sec();
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	n = read(self->fd, self->buf, HUGE);
	t1 = now_sec();
	ASSERT_LT(0, n) TH_LOG("read: %s", strerror(errno));
	ASSERT_LT(n, HUGE) TH_LOG("1 GiB read in %.1f s: no interruption", t1 - t0);
	ASSERT_NE(0, signalled_at);
	ksft_print_msg("signals: read of 1 GiB returned %zd bytes after %.3f s, %.1f ms after the signal\n",
		       n, t1 - t0, (t1 - signalled_at) * 1e3);
	EXPECT_LT(t1 - signalled_at, bound)
		TH_LOG("slow to notice the signal: %.2f s (a whole 1 GiB read: %.2f s)",
		       t1 - signalled_at, full);
	if (variant->deterministic) {
		/* The count is exact: the position moved by it, the bytes match. */
		EXPECT_EQ(n, lseek(self->fd, 0, SEEK_CUR));
		ASSERT_LE(4096, n);
		ASSERT_EQ(0, ref_keystream(self->key, self->nonce, n - 4096,
					   want, sizeof(want)));
		EXPECT_EQ(-1, first_diff(self->buf + n - 4096, want,
					 sizeof(want)));
	}
	/* The stream goes on working. */
	EXPECT_EQ(4096, read(self->fd, want, sizeof(want)));
}

FIXTURE(kill) {
	int shared;
};

FIXTURE_SETUP(kill)
{
	self->shared = arc4_open(0);
	if (self->shared < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
}

FIXTURE_TEARDOWN(kill)
{
	if (self->shared >= 0)
		close(self->shared);
}

/*
 * Children read 1 GiB, from their own file or the one they inherited, and
 * are killed after a random delay.  Each must be reaped promptly, and the
 * module's count of open files must fall back to just the parent's one.
 */
TEST_F_TIMEOUT(kill, reader_killed_mid_read_dies_promptly, 600)
{
	unsigned long rounds = stress_knob("ARC4_KILL_ROUNDS", 20), r;
	double worst = 0, full, bound;
	long base = read_long_file("/sys/module/arc4dev/refcnt");
	uint8_t check[64], *buf = huge_buffer();

	ASSERT_NE(NULL, buf);
	full = huge_read_seconds(self->shared, buf);
	ASSERT_LT(0, full);
	bound = max_d(1.0, full / 2);
	munmap(buf, HUGE);

	for (r = 0; r < rounds; r++) {
		int p[2], st, own = r % 2;
		char c;
		pid_t pid;
		double t;

		ASSERT_EQ(0, pipe(p));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			uint8_t *buf = huge_buffer();
			int fd = own ? arc4_open(0) : self->shared;

			if (!buf || fd < 0)
				_exit(2);
			if (own && r % 4 == 1) {
				uint8_t key[32] = { 7 };

				arc4_seed(fd, key, r);
			}
			close(p[0]);
			if (write(p[1], "x", 1) != 1)
				_exit(3);
			read(fd, buf, HUGE);
			_exit(0);
		}
		close(p[1]);
		ASSERT_EQ(1, read(p[0], &c, 1));
		close(p[0]);
		usleep(20000 + random_u64() % 200000);
		t = now_sec();
		ASSERT_EQ(0, kill(pid, SIGKILL));
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		t = now_sec() - t;
		if (t > worst)
			worst = t;
		EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			TH_LOG("round %lu: the reader finished 1 GiB first", r);
	}
	ksft_print_msg("signals: %lu readers killed mid-read, slowest reaped %.1f ms after SIGKILL (a whole read: %.1f ms)\n",
		       rounds, worst * 1e3, full * 1e3);
	EXPECT_LT(worst, bound);
	if (base >= 0)
		EXPECT_EQ(base, read_long_file("/sys/module/arc4dev/refcnt"));
	EXPECT_EQ(64, read(self->shared, check, sizeof(check)));
}

TEST_HARNESS_MAIN
