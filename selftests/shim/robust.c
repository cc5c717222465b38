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

/* One strong call of the shim, chosen by number: all its entry points. */
static uint32_t strong_call(int which)
{
	uint8_t b[64];

	switch (which) {
	case 0:
		return arc4random();
	case 1:
		arc4random_buf(b, sizeof(b));
		return b[0];
	case 2:
		return arc4random_uniform(1000);
	case 3:
		return rand();
	case 4:
		return random();
	case 5:
		return lrand48();
	default:
		return drand48() * 1000;
	}
}

/*
 * The exec'd half of aborts_without_source(): ARC4_ROBUST_CALL names the
 * call, ARC4_ROBUST_FD the pipe for a value it must never return.  A
 * constructor, so that it runs before the harness and before anything else
 * in the new image could reach getrandom().
 */
__attribute__((constructor)) static void robust_exec_call(void)
{
	const char *which = getenv("ARC4_ROBUST_CALL");
	const char *fd = getenv("ARC4_ROBUST_FD");
	uint32_t v;

	if (!which || !fd)
		return;
	v = strong_call(atoi(which));
	if (write(atoi(fd), &v, sizeof(v)) < 0)
		_exit(5);
	_exit(0);
}

/*
 * No device reachable and getrandom() refused: the call must die of
 * SIGABRT and never return a value.  It runs in a fresh image (exec after
 * the seccomp filter is in place): glibc 2.41 and later serve getrandom()
 * from the vDSO once a process has set that up, and a process that did so
 * before the filter still has a strong source, which the shim rightly
 * uses; a new image must ask the kernel, and is refused.
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
		char call[16], fd[16];

		close(p[0]);
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		if (have_device() && private_dev(0) != 0)
			_exit(4);	/* cannot hide the device */
		if (refuse_getrandom(err) != 0)
			_exit(3);
		snprintf(call, sizeof(call), "%d", which);
		snprintf(fd, sizeof(fd), "%d", p[1]);
		setenv("ARC4_ROBUST_CALL", call, 1);
		setenv("ARC4_ROBUST_FD", fd, 1);
		execl("/proc/self/exe", "robust", (char *)NULL);
		_exit(6);
	}
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
		SKIP(return, "hiding /dev/arc4 needs root (a mount namespace)");
	ASSERT_TRUE(WIFSIGNALED(st)) TH_LOG("call %d: child exited %d (3: no filter, 6: no exec, else returned a value)",
					    which, WEXITSTATUS(st));
	EXPECT_EQ(SIGABRT, WTERMSIG(st));
	close(p[0]);
}

TEST(every_strong_call_aborts_when_getrandom_eperm_and_no_device)
{
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	for (int which = 0; which < 7; which++)
		aborts_without_source(_metadata, EPERM, which);
}

TEST(every_strong_call_aborts_when_getrandom_enosys_and_no_device)
{
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	for (int which = 0; which < 7; which++)
		aborts_without_source(_metadata, ENOSYS, which);
}

TEST_HARNESS_MAIN
