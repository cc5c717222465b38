// SPDX-License-Identifier: GPL-2.0
/*
 * The shim as a guest in other people's processes: errno untouched on
 * success, descriptors never 0-2 and never leaked, a /dev/arc4 that fails
 * its check closed and never opened again (nor read), a missing one looked
 * for at most once a second and after fork, no call a cancellation point,
 * the program's thread keys never touched.
 *
 * A private /dev (a tmpfs in a mount namespace of the test's own) makes
 * /dev/arc4 missing, or another character device, on the host and in the
 * VM alike.  Opens of it are counted by a seccomp user-notification
 * supervisor: every attempt, failed or not, by libc or raw system call.
 */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

/* /dev/zero's device number: a character device that is not arc4. */
#define NOT_ARC4 makedev(1, 5)

/* The real device's number, or 0 where the module is not loaded. */
static dev_t real_arc4(void)
{
	struct stat st;

	return stat("/dev/arc4", &st) == 0 && S_ISCHR(st.st_mode) ?
	       st.st_rdev : 0;
}

/* Open descriptors; *on_rdev: how many of them are character device rdev. */
static int count_fds(dev_t rdev, int *on_rdev)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	*on_rdev = 0;
	while (d && (e = readdir(d))) {
		struct stat st;
		int fd = atoi(e->d_name);

		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		n++;
		if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
		    st.st_rdev == rdev)
			(*on_rdev)++;
	}
	if (d)
		closedir(d);
	return n;
}

static uint64_t coarse_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/* Sleep until the coarse clock reads at least ms. */
static void sleep_until_ms(uint64_t ms)
{
	while (coarse_ms() < ms)
		usleep(20000);
}

/* ---- errno ------------------------------------------------------------ */

enum { SENTINEL = 0x7e57 };

struct errno_count {
	long calls, changed;
	const char *first;	/* the first call that changed it */
	int value;		/* to what */
};

#define CALL(c, expr) do {						\
	errno = SENTINEL;						\
	(void)(expr);							\
	(c)->calls++;							\
	if (errno != SENTINEL) {					\
		if (!(c)->changed++) {					\
			(c)->first = #expr;				\
			(c)->value = errno;				\
		}							\
	}								\
} while (0)

/* Every public call, first calls and many refills of each family. */
static void errno_sweep(struct errno_count *c)
{
	static const size_t sizes[] = { 1, 7, 16, 100, 4096, 16376, 70000 };
	unsigned short x[3] = { 1, 2, 3 }, p[7] = { 1, 2, 3, 4, 5, 6, 7 };
	static char state[128];
	uint8_t *buf = malloc(70000);
	char *old;

	CALL(c, rand());
	CALL(c, random());
	CALL(c, drand48());
	CALL(c, arc4random());
	for (long i = 0; i < 100000; i++) {
		CALL(c, rand());
		CALL(c, random());
		CALL(c, drand48());
		CALL(c, lrand48());
		CALL(c, mrand48());
		CALL(c, arc4random());
		CALL(c, arc4random_uniform(1000));
	}
	for (int r = 0; r < 20; r++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			CALL(c, arc4random_buf(buf, sizes[i]));
	CALL(c, srand(1));
	CALL(c, srandom(1));
	CALL(c, srandomdev());
	CALL(c, srand48(1));
	CALL(c, seed48(x));
	CALL(c, lcong48(p));
	CALL(c, srand_deterministic(2));
	for (long i = 0; i < 20000; i++)
		CALL(c, rand());
	CALL(c, srand_deterministic(3));
	CALL(c, srandom_deterministic(4));
	for (long i = 0; i < 20000; i++)
		CALL(c, random());
	CALL(c, srand48_deterministic(5));
	CALL(c, drand48());
	CALL(c, seed48_deterministic(x));
	CALL(c, lcong48_deterministic(p));
	CALL(c, lrand48());
	CALL(c, erand48(x));
	CALL(c, nrand48(x));
	CALL(c, jrand48(x));
	CALL(c, old = initstate(6, state, sizeof(state)));
	CALL(c, random());
	CALL(c, setstate(old));
	free(buf);
}

static void expect_errno_kept(struct __test_metadata *_metadata)
{
	struct errno_count c = { 0 };

	errno_sweep(&c);
	EXPECT_EQ(0, c.changed)
		TH_LOG("%ld of %ld calls changed errno; the first: %s, to %d",
		       c.changed, c.calls, c.first, c.value);
}

TEST(no_call_changes_errno_on_success)
{
	expect_errno_kept(_metadata);
}

TEST(no_call_changes_errno_where_dev_arc4_is_missing)
{
	if (private_dev(0) != 0)
		SKIP(return, "a private /dev needs root");
	expect_errno_kept(_metadata);
}

TEST(no_call_changes_errno_where_dev_arc4_is_another_device)
{
	if (private_dev(NOT_ARC4) != 0)
		SKIP(return, "a private /dev needs root");
	expect_errno_kept(_metadata);
}

/* ---- descriptors ------------------------------------------------------ */

/*
 * In a child with 0, 1 and 2 closed, draw strong and deterministic
 * values; report which of 0-2 are open afterwards (bits 0-2) and how many
 * descriptors are on rdev (the rest).
 */
static int draws_with_stdio_closed(struct __test_metadata *_metadata,
				   dev_t rdev)
{
	int p[2], st, report = -1;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint8_t b[20000];
		int on_rdev, r = 0;

		close(0);
		close(1);
		close(2);
		/* A stale EINTR must not make the shim open the device again. */
		errno = EINTR;
		(void)arc4random();
		arc4random_buf(b, sizeof(b));
		srand_deterministic(1);
		(void)rand();
		for (int fd = 0; fd < 3; fd++)
			r |= (fcntl(fd, F_GETFD) >= 0) << fd;
		count_fds(rdev, &on_rdev);
		r |= on_rdev << 3;
		_exit(write(p[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(p[1]);
	EXPECT_EQ(sizeof(report), read(p[0], &report, sizeof(report)));
	close(p[0]);
	EXPECT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	return report;
}

TEST(device_descriptors_stay_off_0_1_2_when_the_program_closed_them)
{
	dev_t rdev = real_arc4();
	int r;

	if (!rdev)
		SKIP(return, "no /dev/arc4 (module not loaded)");
	r = draws_with_stdio_closed(_metadata, rdev);
	EXPECT_EQ(0, r & 7) TH_LOG("the shim's descriptors took %s%s%s",
				   r & 1 ? "0 " : "", r & 2 ? "1 " : "",
				   r & 4 ? "2" : "");
	/* The strong descriptor and the seeded stream's. */
	EXPECT_EQ(2, r >> 3) TH_LOG("%d descriptors on /dev/arc4", r >> 3);
}

TEST(a_dev_arc4_that_is_another_device_is_closed_not_kept_on_0_1_2)
{
	int r;

	if (private_dev(NOT_ARC4) != 0)
		SKIP(return, "a private /dev needs root");
	r = draws_with_stdio_closed(_metadata, NOT_ARC4);
	EXPECT_EQ(0, r & 7) TH_LOG("descriptors left on 0-2: %d", r & 7);
	EXPECT_EQ(0, r >> 3) TH_LOG("%d descriptors on the other device",
				    r >> 3);
}

/* A /dev/zero at /dev/arc4 is a character device: only the check tells. */
TEST(a_dev_arc4_that_is_another_device_is_never_read)
{
	size_t len = 1 << 16;
	uint8_t *buf = malloc(len);

	if (private_dev(NOT_ARC4) != 0)
		SKIP(return, "a private /dev needs root");
	for (size_t off = 0; off < len; off += 8)
		arc4random_buf(buf + off, 8);
	EXPECT_LT(chi2_bytes(buf, len), chi2_limit(255))
		TH_LOG("strong output is not uniform: read from /dev/zero?");
	free(buf);
}

/* ---- counting opens ---------------------------------------------------- */

/*
 * A seccomp supervisor thread counting this process's (and its
 * children's) opens of "/dev/arc4", whether by libc or by raw system
 * call, successful or not, and letting each go on.
 */
static volatile int arc4_opens, unread_opens;

static void *count_opens(void *arg)
{
	int listener = (intptr_t)arg;

	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		char path[16] = "";
		struct iovec local = { path, sizeof(path) - 1 }, remote;

		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		remote.iov_base = (void *)(uintptr_t)req.data.args[
			req.data.nr == __NR_openat ? 1 : 0];
		remote.iov_len = sizeof(path) - 1;
		if (process_vm_readv(req.pid, &local, 1, &remote, 1, 0) <= 0)
			__atomic_add_fetch(&unread_opens, 1, __ATOMIC_SEQ_CST);
		else if (!strcmp(path, "/dev/arc4"))
			__atomic_add_fetch(&arc4_opens, 1, __ATOMIC_SEQ_CST);
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/*
 * Whether this kernel can count: the supervisor reads each path with
 * process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH, which Debian's kernels
 * have; without it every open would go uncounted).
 */
/* 0 where the kernel has no process_vm_readv() (ENOSYS); any other
 * failure is not a configuration and fails the tests that count. */
static int can_count_opens(void)
{
	char src = 'a', dst = 0;
	struct iovec local = { &dst, 1 }, remote = { &src, 1 };

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1 ||
	       errno != ENOSYS;
}

static int count_opens_start(void)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
#ifdef __NR_open
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 1, 0),
#else	/* arm64 has openat() only */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 1, 0),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	pthread_t t;
	int listener;

	listener = seccomp_install(f, sizeof(f) / sizeof(f[0]),
				   SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		return -1;
	/* The supervisor inherits the filter but opens nothing. */
	return pthread_create(&t, NULL, count_opens,
			      (void *)(intptr_t)listener) ? -1 : 0;
}

static int opens(void)
{
	return __atomic_load_n(&arc4_opens, __ATOMIC_SEQ_CST);
}

/* Opens whose path the supervisor could not read (uncounted): none. */
static int unread(void)
{
	return __atomic_load_n(&unread_opens, __ATOMIC_SEQ_CST);
}

/* ---- descriptors of a /dev/arc4 that is not arc4 ----------------------- */

/* More draws than 50 refills of the 16 KiB buffer, both kinds of stream. */
static void fifty_refills(void)
{
	for (long i = 0; i < 50 * 4096 + 100; i++)
		(void)arc4random();
	srand_deterministic(3);
	srandom_deterministic(4);
	for (long i = 0; i < 20000; i++)
		(void)(rand() + random());
}

TEST(a_dev_arc4_that_fails_its_check_is_opened_once_and_never_leaked)
{
	int before, after, on;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here (opens are counted by one)");
	if (!can_count_opens())
		SKIP(return, "no process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH): "
			     "opens are counted through it");
	if (private_dev(NOT_ARC4) != 0)
		SKIP(return, "a private /dev needs root");
	ASSERT_EQ(0, count_opens_start());
	before = count_fds(NOT_ARC4, &on);
	fifty_refills();
	after = count_fds(NOT_ARC4, &on);
	EXPECT_EQ(1, opens()) TH_LOG("opened %d times", opens());
	EXPECT_EQ(0, unread()) TH_LOG("%d opens went uncounted", unread());
	EXPECT_EQ(before, after) TH_LOG("%d descriptors before, %d after "
					"(%d on the node)", before, after, on);
}


/* ---- the missing device ---------------------------------------------- */

TEST(a_missing_dev_arc4_is_looked_for_at_most_once_a_second_and_after_fork)
{
	dev_t real = real_arc4();
	uint8_t big[20000];
	uint64_t t0, t1, elapsed_s;
	int n1, n2, st, on;
	pid_t pid;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here (opens are counted by one)");
	if (!can_count_opens())
		SKIP(return, "no process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH): "
			     "opens are counted through it");
	if (private_dev(0) != 0)
		SKIP(return, "a private /dev needs root");
	ASSERT_EQ(0, count_opens_start());
	ASSERT_NE(0, access("/dev/arc4", F_OK));

	t0 = coarse_ms();
	for (long i = 0; i < 100000; i++)
		(void)(arc4random() + random());
	srand_deterministic(5);
	for (long i = 0; i < 20000; i++)
		(void)rand();
	t1 = coarse_ms();
	n1 = opens();
	elapsed_s = (t1 - t0) / 1000;
	EXPECT_GE(n1, 1) TH_LOG("never looked for /dev/arc4: nothing tested");
	EXPECT_LE(n1, 2 + (int)elapsed_s)
		TH_LOG("%d failed opens of /dev/arc4 in %lu ms", n1, t1 - t0);

	/* A second later, the next refill looks again, once. */
	sleep_until_ms(t1 + 1100);
	arc4random_buf(big, sizeof(big));
	(void)arc4random();
	n2 = opens();
	EXPECT_EQ(n1 + 1, n2) TH_LOG("%d opens after a second", n2 - n1);

	/* A child looks at once. */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		(void)arc4random();
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	EXPECT_EQ(n2 + 1, opens()) TH_LOG("the child looked %d times",
					  opens() - n2);
	EXPECT_EQ(0, unread()) TH_LOG("%d opens went uncounted", unread());

	/* The module appears: found within a second, and used. */
	if (!real)
		return;
	ASSERT_EQ(0, mknod("/dev/arc4", S_IFCHR | 0666, real));
	sleep_until_ms(coarse_ms() + 1100);
	arc4random_buf(big, sizeof(big));
	count_fds(real, &on);
	EXPECT_EQ(1, on) TH_LOG("the device that appeared is not used");
}

/*
 * A thread with a cancel pending calls every family, seeders included, and
 * returns from each (none is a cancellation point); only its own
 * pthread_testcancel() ends it.  Afterwards no lock of the shim is left
 * held: other threads draw and seed (an alarm ends a hang).
 */
static int cancel_steps;

static void *draw_with_cancel_pending(void *arg)
{
	sem_t *cancelled = arg;
	uint8_t buf[64];
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	while (sem_wait(cancelled) != 0)
		;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	(void)rand();
	cancel_steps = 1;
	srand_deterministic(7);
	(void)rand();
	cancel_steps = 2;
	srandom_deterministic(7);
	(void)random();
	cancel_steps = 3;
	srand48_deterministic(7);
	(void)lrand48();
	cancel_steps = 4;
	for (int i = 0; i < SHIM_BUFFERED_AFTER; i++)
		(void)arc4random();
	arc4random_buf(buf, sizeof(buf));
	(void)drand48();
	srand(1);
	(void)rand();
	cancel_steps = 5;
	pthread_testcancel();
	cancel_steps = 6;
	return NULL;
}

TEST(no_call_is_a_cancellation_point_and_no_lock_is_lost)
{
	pthread_t t;
	sem_t cancelled;
	void *ret = NULL;
	uint8_t buf[64];

	ASSERT_EQ(0, sem_init(&cancelled, 0, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, draw_with_cancel_pending,
				    &cancelled));
	ASSERT_EQ(0, pthread_cancel(t));
	ASSERT_EQ(0, sem_post(&cancelled));
	ASSERT_EQ(0, pthread_join(t, &ret));
	EXPECT_EQ(PTHREAD_CANCELED, ret);
	EXPECT_EQ(5, cancel_steps)
		TH_LOG("the thread was cancelled inside the shim after step %d",
		       cancel_steps);
	/* Whatever the thread held must be free: these would hang. */
	alarm(20);
	arc4random_buf(buf, sizeof(buf));
	for (int i = 0; i < 5000; i++)
		(void)arc4random();
	srand_deterministic(9);
	(void)rand();
	srandom_deterministic(9);
	(void)random();
	(void)lrand48();
	alarm(0);
}

/*
 * A program that has taken every thread-specific key: the shim has none
 * of its own then, and must not write to one of the program's; it keeps
 * no buffer (nothing could wipe it at thread exit) and still draws.
 */
static void *draw_many(void *arg)
{
	uint32_t *v = arg;

	for (int i = 0; i < 4 * SHIM_BUFFERED_AFTER; i++)
		v[i] = arc4random();
	(void)rand();
	(void)random();
	(void)lrand48();
	return NULL;
}

static int keys_intact(pthread_key_t *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (pthread_getspecific(keys[i]) != (void *)(keys + i))
			return 0;
	return 1;
}

TEST(a_program_holding_every_thread_key_keeps_its_keys)
{
	static pthread_key_t keys[PTHREAD_KEYS_MAX];
	static uint32_t v[2][4 * SHIM_BUFFERED_AFTER];
	pid_t pid = fork();
	int st, n = 0;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_key_t extra;
		pthread_t t;

		while (n < PTHREAD_KEYS_MAX &&
		       pthread_key_create(&keys[n], NULL) == 0) {
			pthread_setspecific(keys[n], keys + n);
			n++;
		}
		if (n == 0 || pthread_key_create(&extra, NULL) == 0)
			_exit(10);	/* keys did not run out */
		draw_many(v[0]);
		if (!keys_intact(keys, n))
			_exit(11);
		if (pthread_create(&t, NULL, draw_many, v[1]) != 0 ||
		    pthread_join(t, NULL) != 0)
			_exit(12);
		if (!keys_intact(keys, n))
			_exit(13);
		if (count_wipeonfork_maps() != 0)
			_exit(14);	/* a buffer no destructor wipes */
		for (int i = 1; i < 4 * SHIM_BUFFERED_AFTER; i++)
			if (v[0][i] == v[0][i - 1] || v[1][i] == v[1][i - 1] ||
			    v[0][i] == v[1][i])
				_exit(15);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("status %#x", st);
	EXPECT_EQ(0, WEXITSTATUS(st))
		TH_LOG("10: keys did not run out, 11/13: a key of the program's "
		       "was changed (main thread / new thread), 12: thread, "
		       "14: a buffer was kept, 15: repeated values");
}

TEST_HARNESS_MAIN
