// SPDX-License-Identifier: GPL-2.0
/*
 * Strong output where the environment fights back: every descriptor
 * closed or dup2()ed over, chroot() without /dev, seccomp refusing
 * getrandom(), /dev/urandom where getrandom() answers ENOSYS (the real
 * device only), and nothing left at all (abort, never weak bytes).
 */
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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
 * A sample of every strong path, for urandom_sample(): a thread's first
 * values (unbuffered), then buffered ones, then one large request.
 * errno stays as set around each call, and no descriptor is left open.
 */
enum { FIRST_VALUES = 2 * SHIM_BUFFERED_AFTER, LARGE = 1 << 16 };
struct sample {
	uint32_t values[FIRST_VALUES];
	uint8_t large[LARGE];
};

static void robust_exec_sample(int out)
{
	static struct sample s;
	int before, after;

	/* ARC4_ROBUST_NO_STDIN: the shim's opens get 0 first; it is left so. */
	if (getenv("ARC4_ROBUST_NO_STDIN"))
		close(0);
	/* Counted, not probed with dup(): with 0 closed, dup() finds 0. */
	before = fds_above_stdio();
	for (int i = 0; i < FIRST_VALUES; i++) {
		errno = EDOM;
		s.values[i] = i % 2 ? arc4random() : (uint32_t)rand();
		if (errno != EDOM)
			_exit(7);
	}
	errno = EDOM;
	arc4random_buf(s.large, sizeof(s.large));
	if (errno != EDOM)
		_exit(7);
	if (getenv("ARC4_ROBUST_NO_STDIN") && fcntl(0, F_GETFD) != -1)
		_exit(9);
	after = fds_above_stdio();
	if (before < 0 || after != before)
		_exit(8);
	if (write(out, &s, sizeof(s)) != sizeof(s))
		_exit(5);
	_exit(0);
}

/*
 * The exec'd half of aborts_without_source(): ARC4_ROBUST_CALL names the
 * call, ARC4_ROBUST_FD the pipe for a value it must never return; or of
 * urandom_sample(): ARC4_ROBUST_SAMPLE, a sample to write there.  A
 * constructor, so that it runs before the harness and before anything else
 * in the new image could reach getrandom().
 */
__attribute__((constructor)) static void robust_exec_call(void)
{
	const char *which = getenv("ARC4_ROBUST_CALL");
	const char *fd = getenv("ARC4_ROBUST_FD");
	uint32_t v;

	if (fd && getenv("ARC4_ROBUST_SAMPLE"))
		robust_exec_sample(atoi(fd));
	if (!which || !fd)
		return;
	v = strong_call(atoi(which));
	if (write(atoi(fd), &v, sizeof(v)) < 0)
		_exit(5);
	_exit(0);
}

/* What a child finds at /dev/urandom in its private /dev. */
enum urandom_node {
	URANDOM_NONE,
	URANDOM_REAL,		/* the character device 1:9 */
	URANDOM_FILE,		/* a regular file of FAKE_BYTE */
	URANDOM_ZERO,		/* the character device 1:5, /dev/zero */
};

enum { FAKE_BYTE = 0x5a };

/* Set by a test: urandom_sample()'s child starts with descriptor 0 closed. */
static int sample_no_stdin;

/* An empty private /dev (no /dev/arc4) holding node: 0, or -1. */
static int dev_with_urandom(enum urandom_node node)
{
	static uint8_t fake[LARGE];
	int fd, ok;

	if (private_dev(0) != 0)
		return -1;
	switch (node) {
	case URANDOM_REAL:
		return mknod("/dev/urandom", S_IFCHR | 0666, makedev(1, 9));
	case URANDOM_ZERO:
		return mknod("/dev/urandom", S_IFCHR | 0666, makedev(1, 5));
	case URANDOM_FILE:
		memset(fake, FAKE_BYTE, sizeof(fake));
		fd = open("/dev/urandom", O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			return -1;
		ok = write(fd, fake, sizeof(fake)) == sizeof(fake);
		return close(fd) == 0 && ok ? 0 : -1;
	default:
		return 0;
	}
}

/*
 * A fresh image (as in aborts_without_source()) without /dev/arc4, with
 * getrandom() refused with err and node at /dev/urandom, writes a sample
 * to *s.  The child's exit status, or -1 if it was killed.
 */
static int urandom_sample(struct __test_metadata *_metadata, int err,
			  enum urandom_node node, struct sample *s)
{
	size_t got = 0;
	int p[2], st;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char fd[16];

		close(p[0]);
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		if (dev_with_urandom(node) != 0)
			_exit(4);
		if (refuse_getrandom(err) != 0)
			_exit(3);
		snprintf(fd, sizeof(fd), "%d", p[1]);
		setenv("ARC4_ROBUST_SAMPLE", "1", 1);
		setenv("ARC4_ROBUST_FD", fd, 1);
		if (sample_no_stdin)
			setenv("ARC4_ROBUST_NO_STDIN", "1", 1);
		execl("/proc/self/exe", "robust", (char *)NULL);
		_exit(6);
	}
	close(p[1]);
	while (got < sizeof(*s)) {
		ssize_t n = read(p[0], (char *)s + got, sizeof(*s) - got);

		if (n <= 0)
			break;
		got += n;
	}
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (!WIFEXITED(st))
		return -1;
	if (WEXITSTATUS(st) == 0)
		ASSERT_EQ(sizeof(*s), got);
	return WEXITSTATUS(st);
}

static int sample_has_value(const struct sample *s, uint32_t v, int below)
{
	for (int i = 0; i < below; i++)
		if (s->values[i] == v)
			return 1;
	return 0;
}

/*
 * getrandom() missing (ENOSYS, as on a kernel before 3.17) and no
 * /dev/arc4: the real /dev/urandom serves every strong path, errno kept,
 * no descriptor left open; two processes draw different values.
 */
TEST(strong_output_reads_dev_urandom_when_getrandom_enosys_and_no_device)
{
	static struct sample a, b;
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	st = urandom_sample(_metadata, ENOSYS, URANDOM_REAL, &a);
	if (st == 4)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	ASSERT_EQ(0, st) TH_LOG("child: %d (-1: killed, 3: no filter, 7: errno changed, 8: a descriptor left open)",
				st);
	ASSERT_EQ(0, urandom_sample(_metadata, ENOSYS, URANDOM_REAL, &b));
	for (int i = 1; i < FIRST_VALUES; i++) {
		ASSERT_FALSE(sample_has_value(&a, a.values[i], i))
			TH_LOG("value %d repeats an earlier one", i);
	}
	EXPECT_LT(chi2_bytes(a.large, sizeof(a.large)), chi2_limit(255));
	EXPECT_NE(0, memcmp(a.values, b.values, sizeof(a.values)))
		TH_LOG("two processes drew the same values");
	EXPECT_NE(0, memcmp(a.large, b.large, sizeof(a.large)));
}

/*
 * The same with descriptor 0 closed: each /dev/urandom open gets 0 and is
 * moved above 2, and 0 is left closed (the program's next open() of a
 * file it means as stdin is not met by ours), nothing leaked.
 */
TEST(dev_urandom_is_never_left_at_a_closed_stdin)
{
	static struct sample a;
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	sample_no_stdin = 1;
	st = urandom_sample(_metadata, ENOSYS, URANDOM_REAL, &a);
	sample_no_stdin = 0;
	if (st == 4)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	ASSERT_EQ(0, st) TH_LOG("child: %d (-1: killed, 7: errno changed, 8: a descriptor left open, 9: descriptor 0 taken)",
				st);
	for (int i = 1; i < FIRST_VALUES; i++) {
		ASSERT_FALSE(sample_has_value(&a, a.values[i], i))
			TH_LOG("value %d repeats an earlier one", i);
	}
	EXPECT_LT(chi2_bytes(a.large, sizeof(a.large)), chi2_limit(255));
}

/* EPERM is a policy, not an old kernel: /dev/urandom is not used. */
TEST(strong_output_never_reads_dev_urandom_when_getrandom_eperm)
{
	static struct sample a;
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	st = urandom_sample(_metadata, EPERM, URANDOM_REAL, &a);
	if (st == 4)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	EXPECT_EQ(-1, st) TH_LOG("child exited %d: it drew values", st);
}

/* Not the real device at /dev/urandom: never read, the process aborts. */
static void fake_urandom(struct __test_metadata *_metadata,
			 enum urandom_node node)
{
	static struct sample a;
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	memset(&a, 0, sizeof(a));
	st = urandom_sample(_metadata, ENOSYS, node, &a);
	if (st == 4)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	EXPECT_EQ(-1, st) TH_LOG("child exited %d: it drew values", st);
	EXPECT_FALSE(sample_has_value(&a, FAKE_BYTE * 0x01010101u, 1));
}

TEST(strong_output_never_reads_a_regular_file_at_dev_urandom)
{
	fake_urandom(_metadata, URANDOM_FILE);
}

TEST(strong_output_never_reads_dev_zero_at_dev_urandom)
{
	fake_urandom(_metadata, URANDOM_ZERO);
}

/*
 * A FIFO at /dev/arc4 (no writer): opening it for reading blocks, unless
 * the shim opens without waiting and refuses what is not a character
 * device.  alarm() ends a child that waits.
 */
TEST(strong_output_never_waits_on_a_fifo_at_dev_arc4)
{
	int st;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint32_t v = 0;

		if (private_dev(0) != 0)
			_exit(4);
		if (mkfifo("/dev/arc4", 0666) != 0)
			_exit(5);
		alarm(10);
		for (int i = 0; i < 2000; i++)
			v |= arc4random();
		_exit(v ? 0 : 6);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("killed by signal %d (14: it waited)",
					  WTERMSIG(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
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
		/* Hide /dev/arc4, and /dev/urandom from ENOSYS's fallback. */
		if ((have_device() || err == ENOSYS) && private_dev(0) != 0)
			_exit(4);
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
		SKIP(return, "hiding /dev needs root (a mount namespace)");
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
