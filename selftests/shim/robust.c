// SPDX-License-Identifier: GPL-2.0
/*
 * Strong output where the environment fights back: every descriptor
 * closed or dup2()ed over, chroot() without /dev, seccomp refusing
 * getrandom(), and nothing left at all (abort, never weak bytes).
 */
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/arc4.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

enum { SAMPLE = 1 << 20 };

/* 1 MiB in mixed request sizes (buffered and direct), chi-square'd. */
static double strong_sample_chi2(void)
{
	uint8_t *buf = malloc(SAMPLE);
	double c;

	for (size_t off = 0; off < SAMPLE / 2; off += 4) {
		uint32_t v = arc4random();

		memcpy(buf + off, &v, 4);
	}
	arc4random_buf(buf + SAMPLE / 2, SAMPLE / 2);
	c = chi2_bytes(buf, SAMPLE);
	free(buf);
	return c;
}

static int max_fd(void)
{
	struct rlimit r;

	getrlimit(RLIMIT_NOFILE, &r);
	return r.rlim_cur > 4096 ? 4096 : (int)r.rlim_cur;
}

TEST(strong_output_survives_closing_every_descriptor)
{
	(void)arc4random();
	for (int fd = 0; fd < max_fd(); fd++)
		if (fd != 2)
			close(fd);
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

/* /dev/zero is a character device too: only st_rdev tells it apart. */
TEST(strong_output_never_reads_dev_zero_dup2ed_over_every_descriptor)
{
	int z, top = max_fd();

	(void)arc4random();
	z = open("/dev/zero", O_RDONLY);
	ASSERT_GE(z, 0);
	for (int fd = 0; fd < top; fd++)
		if (fd != 2 && fd != z)
			dup2(z, fd);
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

/* The same device and inode, but a deterministic stream: not strong. */
TEST(strong_output_never_reads_a_seeded_arc4_stream_dup2ed_over_it)
{
	struct arc4_seed seed = { .key = { 9 }, .nonce = 1 };
	struct arc4_info info;
	int a, top = max_fd();

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	(void)arc4random();
	a = open("/dev/arc4", O_RDONLY);
	ASSERT_GE(a, 0);
	ASSERT_EQ(0, ioctl(a, ARC4_IOC_SEED, &seed));
	for (int fd = 3; fd < top; fd++)
		if (fd != a)
			dup2(a, fd);
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
	ASSERT_EQ(0, ioctl(a, ARC4_IOC_GET_INFO, &info));
	EXPECT_EQ(0, info.position) TH_LOG("the shim read the seeded stream");
}

TEST(strong_output_works_in_a_chroot_without_dev)
{
	if (enter_empty_root() != 0)
		SKIP(return, "chroot needs root");
	ASSERT_NE(0, access("/dev/arc4", F_OK));
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

TEST(strong_output_keeps_the_device_opened_before_chroot)
{
	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	(void)arc4random();
	if (enter_empty_root() != 0)
		SKIP(return, "chroot needs root");
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

static void device_under_seccomp(struct __test_metadata *_metadata, int err)
{
	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	ASSERT_EQ(0, refuse_getrandom(err));
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

TEST(strong_output_uses_the_device_when_seccomp_refuses_getrandom_eperm)
{
	device_under_seccomp(_metadata, EPERM);
}

TEST(strong_output_uses_the_device_when_seccomp_refuses_getrandom_enosys)
{
	device_under_seccomp(_metadata, ENOSYS);
}

TEST(strong_output_uses_getrandom_when_chrooted_and_seccomp_allows_it)
{
	if (enter_empty_root() != 0)
		SKIP(return, "chroot needs root");
	EXPECT_LT(strong_sample_chi2(), chi2_limit(255));
}

/*
 * No device reachable and getrandom() refused: the child must die of
 * SIGABRT and never print a value.  Which calls: all strong entry points.
 */
static void aborts_without_source(struct __test_metadata *_metadata, int err,
				  int which)
{
	int p[2], st;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint32_t v = 0;
		uint8_t b[64];

		close(p[0]);
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		if (have_device() && enter_empty_root() != 0)
			_exit(4);	/* cannot hide the device */
		if (refuse_getrandom(err) != 0)
			_exit(3);
		if (which == 0)
			v = arc4random();
		else if (which == 1)
			arc4random_buf(b, sizeof(b)), v = b[0];
		else if (which == 2)
			v = arc4random_uniform(1000);
		else if (which == 3)
			v = rand();
		else if (which == 4)
			v = random();
		else if (which == 5)
			v = lrand48();
		else
			v = drand48() * 1000;
		if (write(p[1], &v, sizeof(v)) < 0)
			_exit(5);
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
		SKIP(return, "hiding /dev/arc4 needs root (chroot)");
	ASSERT_TRUE(WIFSIGNALED(st)) TH_LOG("child exited %d: returned a value",
					    WEXITSTATUS(st));
	EXPECT_EQ(SIGABRT, WTERMSIG(st));
	close(p[0]);
}

TEST(every_strong_call_aborts_when_getrandom_eperm_and_no_device)
{
	for (int which = 0; which < 7; which++)
		aborts_without_source(_metadata, EPERM, which);
}

TEST(every_strong_call_aborts_when_getrandom_enosys_and_no_device)
{
	for (int which = 0; which < 7; which++)
		aborts_without_source(_metadata, ENOSYS, which);
}

TEST_HARNESS_MAIN
