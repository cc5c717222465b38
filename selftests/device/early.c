// SPDX-License-Identifier: GPL-2.0
/*
 * Before the kernel RNG is ready: open() of /dev/arc4 fails with EAGAIN
 * under O_NONBLOCK, waits interruptibly otherwise, and returns only once
 * the RNG is ready.  Run by early-boot.sh in a VM whose RNG is still
 * uninitialised when userspace starts (no RDRAND, trust_cpu and
 * trust_bootloader off); elsewhere every test is skipped.  The tests run
 * in this order: the first open that waits makes the RNG ready for good.
 */
#include <signal.h>
#include <sys/time.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

static int rng_ready(void)
{
	uint8_t b;

	return getrandom(&b, 1, GRND_NONBLOCK) == 1;
}

static void on_alarm(int sig)
{
	(void)sig;
}

TEST(nonblocking_open_fails_with_eagain)
{
	int i, fd;

	if (rng_ready())
		SKIP(return, "the kernel RNG is already ready");
	for (i = 0; i < 100; i++) {
		fd = arc4_open(O_NONBLOCK);
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(EAGAIN, errno);
	}
	ASSERT_FALSE(rng_ready());
}

TEST(a_signal_interrupts_the_wait)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval t = { .it_value = { 0, 200000 } };
	int fd, err;

	if (rng_ready())
		SKIP(return, "the kernel RNG is already ready");
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &t, NULL));
	fd = arc4_open(0);
	err = errno;
	if (fd >= 0) {
		close(fd);
		/* Became ready within 200 ms: nothing left to interrupt. */
		ASSERT_TRUE(rng_ready());
		SKIP(return, "the RNG became ready before the signal");
	}
	ASSERT_EQ(EINTR, err);
	ASSERT_FALSE(rng_ready());
}

TEST(blocking_open_returns_once_the_rng_is_ready)
{
	uint8_t a[32], b[32];
	int fd;

	if (rng_ready())
		SKIP(return, "the kernel RNG is already ready");
	fd = arc4_open(0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_TRUE(rng_ready());
	ASSERT_EQ((ssize_t)sizeof(a), read(fd, a, sizeof(a)));
	ASSERT_EQ((ssize_t)sizeof(b), read(fd, b, sizeof(b)));
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
	close(fd);
	fd = arc4_open(O_NONBLOCK);
	ASSERT_LE(0, fd) TH_LOG("O_NONBLOCK once ready: %s", strerror(errno));
	close(fd);
}

TEST_HARNESS_MAIN
