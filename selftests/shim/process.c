// SPDX-License-Identifier: GPL-2.0
/*
 * The shim across the process's own events: fork() from a signal handler
 * that interrupted a refill, the lock token of a child that ran no fork
 * handler, what the fork handler touches, and a generation page that
 * could not be mapped, and which libc the shim trusts across a VM fork.
 * Linked with libarc4.a, so that the hidden arc4_thread_token() and
 * arc4_source_libc_vmsafe() can be asked.
 */
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

unsigned int arc4_thread_token(void);	/* lib/lock.c, hidden */
void arc4_lock(void);			/* lib/lock.c, hidden */
void arc4_unlock(void);
void arc4_source_lock(void);		/* lib/source.c, hidden: fork's */
void arc4_source_unlock(void);		/* prepare and parent stages */
extern __thread void *arc4_tls_strong;	/* lib/buffer.c, hidden */
extern char arc4_strong_none[];
int arc4_source_libc_vmsafe(void);	/* lib/source.c, hidden */

/*
 * The libc's version as the shim reads it: this executable's definition
 * comes before the libc's, for the archive linked in too.  The real one
 * unless a test names another.
 */
static const char *libc_version;

const char *gnu_get_libc_version(void)
{
	const char *(*real)(void);

	if (libc_version)
		return libc_version;
	real = (const char *(*)(void))dlsym(RTLD_NEXT, "gnu_get_libc_version");
	return real ? real() : "0.0";
}

/* The 16 KiB wipe-on-fork mapping: the thread's strong buffer, or NULL. */
static void *buffer_address(void)
{
	void *found;

	wipeonfork_maps(NULL, &found);
	return found;
}

/* Whether this process maps /dev/arc4 (the generation page). */
static int page_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, "/dev/arc4") != NULL;
	if (f)
		fclose(f);
	return n;
}

static int child_status(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

TEST(fork_handler_touches_no_page_of_the_zeroed_buffer)
{
	unsigned char vec[4];
	uint8_t *buf;
	pid_t pid;

	draw_until_buffered();
	buf = buffer_address();
	if (!shim_buffers())
		SKIP(return, "no buffers here (glibc's getrandom() serves)");
	ASSERT_NE(NULL, buf) TH_LOG("the thread holds no buffer");
	pid = fork();
	if (pid == 0) {
		int resident = 0;

		if (mincore(buf, 16384, vec) != 0)
			_exit(100);
		for (int i = 0; i < 4; i++)
			resident += vec[i] & 1;
		_exit(resident);
	}
	EXPECT_EQ(0, child_status(pid))
		TH_LOG("the child's zeroed buffer has pages faulted in");
}

/* A child of _Fork() or of the raw system call runs no fork handler. */
TEST(a_child_that_ran_no_fork_handler_has_its_own_lock_token)
{
	pid_t pid;

	ASSERT_EQ((unsigned int)syscall(SYS_gettid), arc4_thread_token());
	pid = _Fork();
	if (pid == 0)
		_exit(arc4_thread_token() == (unsigned int)syscall(SYS_gettid) ?
		      0 : 1);
	EXPECT_EQ(0, child_status(pid)) TH_LOG("_Fork(): the parent's token");
	pid = shim_sys_fork();
	if (pid == 0)
		_exit(arc4_thread_token() == (unsigned int)syscall(SYS_gettid) ?
		      0 : 1);
	EXPECT_EQ(0, child_status(pid)) TH_LOG("raw fork: the parent's token");
}

/*
 * Bytes of wipe-on-fork mappings: with no strong buffer (no thread here
 * draws), only the page that marks this process's tokens live.
 */
static unsigned long wipeonfork_bytes(void)
{
	return wipeonfork_maps(NULL, NULL);
}

/* At most RACES processes, for at most RACE_SECONDS (a VM runs them too). */
enum { RACERS = 4, RACES = 300, RACE_SECONDS = 5 };
static int racers_ready;

static void *first_token(void *unused)
{
	__atomic_add_fetch(&racers_ready, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&racers_ready, __ATOMIC_RELAXED) < RACERS)
		sched_yield();
	(void)arc4_thread_token();
	arc4_lock();
	arc4_unlock();
	return NULL;
}

/*
 * In a new process, which has no token yet (a forked one inherits its
 * parent's live page, wiped): RACERS threads fetch their first at once.
 * Each may map a live page; one is kept, the others unmapped, and nothing
 * else: 0 when the process keeps exactly one page and every thread could
 * take the lock.
 */
static int token_race(void)
{
	pthread_t t[RACERS];
	int i;

	for (i = 0; i < RACERS; i++)
		if (pthread_create(&t[i], NULL, first_token, NULL) != 0)
			return 2;
	for (i = 0; i < RACERS; i++)
		pthread_join(t[i], NULL);
	arc4_lock();
	arc4_unlock();
	return wipeonfork_bytes() == 4096 ? 0 : 1;
}

/* Refuse the system call nr whose argument arg is value, with errno err. */
static int refuse_call_with(int nr, int arg, unsigned int value, int err)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* the argument's low word (little-endian) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0]) + 8 * arg),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_install(f, sizeof(f) / sizeof(f[0]), 0);
}

/* Refuse mmap() (mmap2() where there is one) whose argument arg is value. */
static int refuse_mmap_with(int arg, unsigned int value, int err)
{
#ifdef __NR_mmap2
	return refuse_call_with(__NR_mmap2, arg, value, err);
#else
	return refuse_call_with(__NR_mmap, arg, value, err);
#endif
}

/* madvise(MADV_WIPEONFORK) refused with EINVAL, as a kernel before 4.14. */
static int refuse_wipeonfork(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int refused;

	if (p == MAP_FAILED ||
	    refuse_call_with(__NR_madvise, 2, MADV_WIPEONFORK, EINVAL) != 0)
		return -1;
	refused = madvise(p, 4096, MADV_WIPEONFORK) == -1 && errno == EINVAL;
	munmap(p, 4096);
	return refused ? 0 : -1;
}

/* Bytes of private read-write mappings without a name (anonymous). */
static unsigned long anon_bytes(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long n = 0, a, b;
	char line[512], perms[8];
	int end;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s%n", &a, &b, perms,
			   &end) == 3 && !strcmp(perms, "rw-p") &&
		    line[end + strspn(line + end, " ")] == '\n')
			n += b - a;
	if (f)
		fclose(f);
	return n;
}

/*
 * In a new process where wipe-on-fork is refused: the live page cannot be
 * had, so the first token fetch unmaps the page it mapped, that page only
 * (not the page mapped just before it, likely its neighbour), and the
 * lock still works.  0 when so.
 */
static int no_wipeonfork(void)
{
	volatile unsigned char *neighbour;
	unsigned long before;

	if (refuse_wipeonfork() != 0)
		return 3;
	neighbour = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (neighbour == MAP_FAILED)
		return 3;
	neighbour[0] = 1;
	(void)anon_bytes();	/* stdio's first buffer */
	before = anon_bytes();
	(void)arc4_thread_token();
	arc4_lock();
	arc4_unlock();
	if (msync((void *)neighbour, 4096, MS_ASYNC) != 0)
		return 1;
#ifndef __SANITIZE_THREAD__
	/* (TSan's runtime maps memory of its own as the lock is taken.) */
	if (anon_bytes() != before)
		return 4;
#else
	(void)before;
#endif
	return neighbour[0] == 1 && wipeonfork_bytes() == 0 ? 0 : 1;
}

/*
 * In a new process where no 4 KiB anonymous page can be mapped (ENOMEM):
 * the first token fetch does without its live page (and maps none); the
 * token is the thread's id; the lock is taken, taken again nested and
 * dropped, and then a second thread takes it.  0 when so, 3 if the
 * refusal could not be set up, 1 if the token is wrong, 2 if the second
 * thread fails, 5 if a live page was mapped all the same.  (Before the
 * shim's own constructor, which registers its fork handlers: a child of
 * fork() is not asked here.)
 */
static void *lock_once(void *unused)
{
	arc4_lock();
	arc4_unlock();
	return (void *)(uintptr_t)arc4_thread_token();
}

static int no_token_page(void)
{
	unsigned int me = (unsigned int)syscall(SYS_gettid);
	pthread_t t;
	void *other;

	if (refuse_mmap_with(1, 4096, ENOMEM) != 0)
		return 3;
	if (mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED ||
	    errno != ENOMEM)
		return 3;
	if (arc4_thread_token() != me)
		return 1;
	arc4_lock();
	arc4_lock();
	arc4_unlock();
	arc4_unlock();
	if (pthread_create(&t, NULL, lock_once, NULL) != 0 ||
	    pthread_join(t, &other) != 0 || other == NULL ||
	    (uintptr_t)other == me)
		return 2;
	return wipeonfork_bytes() == 0 ? 0 : 5;
}

/*
 * The tests below exec this program with PROCESS_CHILD set to run one of
 * these in a process of its own, before main(): its exit status.
 */
__attribute__((constructor)) static void process_child(void)
{
	const char *what = getenv("PROCESS_CHILD");

	if (what && !strcmp(what, "token-race"))
		_exit(token_race());
	if (what && !strcmp(what, "no-wipeonfork"))
		_exit(no_wipeonfork());
	if (what && !strcmp(what, "no-token-page"))
		_exit(no_token_page());
}

/*
 * Run this program as PROCESS_CHILD=what (and the coverage run's preload,
 * if any): its wait status.
 */
static int run_child_process(const char *what)
{
	char env[64], preload[PATH_MAX + 32], *argv[] = { "process", NULL };
	char *envp[] = { env, preload, NULL };
	pid_t pid;
	int st;

	snprintf(env, sizeof(env), "PROCESS_CHILD=%s", what);
	preload_env_with(preload, sizeof(preload), "");
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp) != 0 ||
	    waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

TEST(threads_fetching_their_first_tokens_at_once_keep_one_live_page)
{
	time_t end = time(NULL) + RACE_SECONDS;
	int crashed = 0, wrong = 0, st;

	if (under_valgrind())
		SKIP(return, "valgrind keeps no MADV_WIPEONFORK");
	for (int r = 0; r < RACES && time(NULL) < end; r++) {
		st = run_child_process("token-race");
		ASSERT_NE(-1, st);
		crashed += !WIFEXITED(st);
		wrong += WIFEXITED(st) && WEXITSTATUS(st) != 0;
	}
	EXPECT_EQ(0, crashed) TH_LOG("processes killed by a signal");
	EXPECT_EQ(0, wrong) TH_LOG("processes left other than one live page");
}

TEST(the_lock_works_and_unmaps_nothing_else_where_wipe_on_fork_is_refused)
{
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	st = run_child_process("no-wipeonfork");
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("wait status %#x", st);
	ASSERT_NE(3, WEXITSTATUS(st)) TH_LOG("madvise() could not be refused");
	EXPECT_NE(1, WEXITSTATUS(st))
		TH_LOG("the mapping before the token's page is gone");
	EXPECT_NE(4, WEXITSTATUS(st)) TH_LOG("the token's page is kept");
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/*
 * Where no page can be had for the token's liveness (a refused 4 KiB
 * mapping): the lock still works, nested and from a second thread.
 */
TEST(the_lock_works_where_the_token_page_cannot_be_mapped)
{
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	st = run_child_process("no-token-page");
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("wait status %#x (SIGSEGV is %d)",
					  st, SIGSEGV);
	ASSERT_NE(3, WEXITSTATUS(st)) TH_LOG("mmap() could not be refused");
	EXPECT_NE(1, WEXITSTATUS(st)) TH_LOG("the token is not the thread's id");
	EXPECT_NE(2, WEXITSTATUS(st)) TH_LOG("a second thread could not lock");
	EXPECT_NE(5, WEXITSTATUS(st)) TH_LOG("a live page was mapped");
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/* ---- fork() from a signal handler -------------------------------------- */

static int forked_ok;

static void fork_in_handler(int sig)
{
	int saved = errno;
	pid_t pid = fork();

	if (pid == 0)
		_exit(arc4random() == arc4random() ? 1 : 0);
	forked_ok = child_status(pid) == 0;
	errno = saved;
}

struct interrupter {
	int listener;
	pid_t tid;
	int signalled;
};

/* At the first fstat of the shim's number, signal the thread in it. */
static void *interrupt_fstat(void *arg)
{
	struct interrupter *in = arg;

	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(in->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (!in->signalled) {
			in->signalled = 1;
			syscall(SYS_tgkill, getpid(), in->tid, SIGUSR1);
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(in->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/* The shim's /dev/arc4 descriptor: the highest one on the node. */
static int shim_fd(void)
{
	char path[64], target[64];
	int fd = -1;

	for (int i = 3; i < 1024; i++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", i);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0 && (target[n] = 0, !strcmp(target, "/dev/arc4")))
			fd = i;
	}
	return fd;
}

/*
 * The refill's check of its descriptor (an fstat under the descriptor
 * record's lock) is held by a seccomp supervisor, which signals the
 * thread there; the handler forks.  A fork handler that waits for that
 * lock waits forever: alarm() ends the test then.
 */
TEST(fork_from_a_handler_that_interrupted_a_refill_does_not_deadlock)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
#ifdef __NR_fstat
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fstat, 1, 0),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_newfstatat, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),	/* the fd */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	static struct interrupter in;
	static uint8_t big[20000];
	pthread_t t;
	int fd;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	draw_until_buffered();
	arc4random_buf(big, sizeof(big));
	fd = shim_fd();
	ASSERT_LE(3, fd);
	f[sizeof(f) / sizeof(f[0]) - 3].k = fd;
	signal(SIGUSR1, fork_in_handler);
	in.tid = syscall(SYS_gettid);
	in.listener = seccomp_install(f, sizeof(f) / sizeof(f[0]),
				      SECCOMP_FILTER_FLAG_NEW_LISTENER);
	ASSERT_LE(0, in.listener);
	ASSERT_EQ(0, pthread_create(&t, NULL, interrupt_fstat, &in));
	alarm(20);
	arc4random_buf(big, sizeof(big));
	alarm(0);
	EXPECT_EQ(1, in.signalled) TH_LOG("no fstat of the descriptor seen");
	EXPECT_EQ(1, forked_ok) TH_LOG("the handler's child failed");
}

/*
 * A thread's first token fetch (a gettid system call) is held by a
 * seccomp supervisor, which signals the thread there; the handler forks.
 * The fetch must not run while the descriptor record's lock is taken
 * but not yet marked as the thread's: the fork handler would wait for
 * its own thread.  alarm() ends the test then.
 */
TEST(fork_from_a_handler_at_the_first_token_fetch_does_not_deadlock)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_gettid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static struct interrupter in;
	pthread_t t;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	SKIP(return, "a sanitizer's runtime does not survive fork() in a signal handler");
#endif

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	in.tid = syscall(SYS_gettid);
	signal(SIGUSR1, fork_in_handler);
	in.listener = seccomp_install(f, sizeof(f) / sizeof(f[0]),
				      SECCOMP_FILTER_FLAG_NEW_LISTENER);
	ASSERT_LE(0, in.listener);
	ASSERT_EQ(0, pthread_create(&t, NULL, interrupt_fstat, &in));
	alarm(20);
	for (int i = 0; i < 2000; i++)
		(void)arc4random();
	alarm(0);
	EXPECT_EQ(1, in.signalled) TH_LOG("no gettid seen");
	EXPECT_EQ(1, forked_ok) TH_LOG("the handler's child failed");
}

/*
 * A handler that forks and lets its child return into the call it
 * interrupted (a take, a refill): the child's buffer was zeroed under
 * that call, which must not then count those zeroes as strong bytes.  A
 * thread signals the drawing thread every 2 ms; each child draws 4096
 * pairs of words and counts the pairs that are both 0 (by chance:
 * 2^-64 each).
 */
static volatile sig_atomic_t zf_in_child, zf_bad, zf_stop;
static volatile int zf_forks, zf_hung;
static pid_t zf_tid;

/*
 * The child's status, waiting at most 5 s (times test_time_scale()): a
 * child that has not ended by then is killed and counted apart (the test
 * says how many), so that no single child can hold the handler past the
 * harness's timeout.
 */
static int zf_wait_ms;

static int zf_wait(pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	int st, i;

	for (i = 0; i < zf_wait_ms; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
		if (r < 0)
			return 1;
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	zf_hung++;
	return 0;
}

static void zf_handler(int sig)
{
	int saved = errno;
	pid_t pid = fork();

	(void)sig;
	if (pid == 0) {
		zf_in_child = 1;
		return;
	}
	if (pid > 0 && zf_wait(pid))
		zf_bad = 1;
	zf_forks++;
	errno = saved;
}

/*
 * Signals until told to stop, or until the test's time or fork count is
 * spent: each handler waits for its child's draws, so under a slow VM the
 * handlers alone could outlast the harness's timeout.
 */
static time_t zf_end;

static void *zf_pest(void *arg)
{
	while (!zf_stop && zf_forks < 400 && time(NULL) < zf_end) {
		syscall(SYS_tgkill, getpid(), zf_tid, SIGUSR1);
		usleep(2000);
	}
	return NULL;
}

static void zf_child_draws(void)
{
	sigset_t all;
	int zeros = 0;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	for (int i = 0; i < 4096; i++) {
		uint32_t a = arc4random(), b = arc4random();

		zeros += a == 0 && b == 0;
	}
	_exit(zeros ? 1 : 0);
}

TEST(a_child_forked_in_a_handler_never_takes_the_zeroed_buffer)
{
	struct sigaction sa;
	pthread_t t;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	SKIP(return, "a sanitizer's runtime does not survive fork() in a signal handler");
#endif

	if (under_valgrind())
		SKIP(return, "under valgrind, whose forks from a handler outlast the test's time");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = zf_handler;
	sa.sa_flags = SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	zf_tid = syscall(SYS_gettid);
	draw_until_buffered();
	zf_wait_ms = 5000 * test_time_scale();
	zf_end = time(NULL) + 4 * test_time_scale();
	ASSERT_EQ(0, pthread_create(&t, NULL, zf_pest, NULL));
	while (!zf_bad && zf_forks < 400 && time(NULL) < zf_end) {
		(void)arc4random();
		if (zf_in_child)
			zf_child_draws();
	}
	zf_stop = 1;
	pthread_join(t, NULL);
	signal(SIGUSR1, SIG_DFL);
	if (zf_hung)
		ksft_print_msg("%d of %d children forked in the handler did not end in %d ms\n",
			       zf_hung, zf_forks, zf_wait_ms);
	EXPECT_EQ(0, zf_bad) TH_LOG("a child handed out zeroed words");
	if (!zf_bad)
		EXPECT_LT(10, zf_forks - zf_hung) TH_LOG("too few forks to tell");
}

/* ---- a generation page that cannot be mapped --------------------------- */

/*
 * A generation page that cannot be mapped (every shared mapping refused,
 * ENOMEM): the thread keeps no buffer, however long it draws, also once
 * the mapping is due to be tried again (a second later), and its values
 * are still strong.  Exit codes: 4 the page was mapped before, 3 no
 * filter, 1 a buffer kept, 2 the page mapped, 5 a value repeated.
 */
static int draw_distinct(int n)
{
	/* 64-bit values: 32-bit ones repeat by chance once in 4,000 runs. */
	static uint64_t v[512];

	for (int i = 0; i < n; i++) {
		v[i % 512] = (uint64_t)arc4random() << 32 | arc4random();
		for (int j = 0; j < i % 512; j++)
			if (v[j] == v[i % 512])
				return 0;
	}
	return 1;
}

TEST(no_buffer_while_the_generation_page_cannot_be_mapped)
{
	pid_t pid;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	pid = fork();
	if (pid == 0) {
		if (page_mapped())
			_exit(4);
		if (refuse_mmap_with(3, MAP_SHARED, ENOMEM) != 0)
			_exit(3);
		if (!draw_distinct(2000))
			_exit(5);
		if (count_wipeonfork_maps() != 0)
			_exit(1);
		usleep(1100 * 1000);
		if (!draw_distinct(2000))
			_exit(5);
		if (page_mapped())
			_exit(2);
		_exit(count_wipeonfork_maps() == 0 ? 0 : 1);
	}
	EXPECT_EQ(0, child_status(pid))
		TH_LOG("4: mapped before; 3: no filter; 1: a buffer kept; 2: mapped; 5: a value repeated");
}

/*
 * Under READ_IMPLIES_EXEC a PROT_READ mmap() asks for PROT_EXEC too,
 * which a module may refuse.  Whatever it does, a thread keeps a buffer
 * only while the page is mapped; and once the personality is back to
 * normal, the mapping is tried again within a second or so.
 */
TEST(no_buffer_without_the_generation_page_and_the_page_is_retried)
{
	pid_t pid;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	pid = fork();
	if (pid == 0) {
		int mapped, bufs;

		if (personality(PER_LINUX | READ_IMPLIES_EXEC) < 0)
			_exit(100);
		for (int i = 0; i < 1000; i++)
			(void)arc4random();
		mapped = page_mapped();
		bufs = count_wipeonfork_maps();
		if (bufs != (mapped ? 1 : 0))
			_exit(1);
		personality(PER_LINUX);
		usleep(1100 * 1000);
		for (int i = 0; i < 5000; i++)
			(void)arc4random();
		if (!page_mapped())
			_exit(2);
		_exit(count_wipeonfork_maps() == 1 ? 0 : 3);
	}
	/*
	 * 1: a buffer kept without the page mapped; 2: the page not mapped
	 * again; 3: no buffer after it was.
	 */
	EXPECT_EQ(0, child_status(pid));
}

/*
 * The thread holds the descriptor record (as fork()'s prepare stage does)
 * when it forks (as a handler run inside that stage may): the inner
 * fork's stages must leave it to the outer one, which drops it.  A thread
 * then waits for it forever if it was left held: alarm() ends the test.
 */
static void *take_the_record(void *unused)
{
	(void)unused;
	arc4_source_lock();
	arc4_source_unlock();
	return NULL;
}

TEST(a_fork_inside_the_prepare_stage_leaves_the_record_to_it)
{
	pthread_t t;
	pid_t pid;

	alarm(20);
	arc4_source_lock();
	pid = fork();
	if (pid == 0)
		_exit(0);
	arc4_source_unlock();
	EXPECT_EQ(0, child_status(pid));
	ASSERT_EQ(0, pthread_create(&t, NULL, take_the_record, NULL));
	pthread_join(t, NULL);
	alarm(0);
}

/*
 * A child forked while its thread held the state lock (a handler that
 * interrupted a deterministic call forks) holds it under its own token:
 * a nested arc4_lock() and a fork() there go on instead of waiting for
 * the parent's thread.  A hung child is killed by its alarm().
 */
TEST(a_child_forked_under_the_state_lock_holds_it_as_its_own)
{
	pid_t pid;

	arc4_lock();
	pid = fork();
	if (pid == 0) {
		pid_t p2;

		alarm(10);
		arc4_lock();
		arc4_unlock();
		p2 = fork();
		if (p2 == 0)
			_exit(0);
		_exit(child_status(p2));
	}
	arc4_unlock();
	EXPECT_EQ(0, child_status(pid)) TH_LOG("the child waited for itself");
}

/* The same for the descriptor record (a handler that interrupted a refill). */
TEST(a_child_forked_under_the_record_holds_it_as_its_own)
{
	pid_t pid;

	arc4_source_lock();
	pid = fork();
	if (pid == 0) {
		pid_t p2;

		alarm(10);
		p2 = fork();
		if (p2 == 0)
			_exit(0);
		_exit(child_status(p2));
	}
	arc4_source_unlock();
	EXPECT_EQ(0, child_status(pid)) TH_LOG("the child waited for itself");
}

/*
 * A take interrupted on a thread without a buffer by a handler whose
 * draw made one restores "no buffer" when it ends (set here by hand: the
 * interruption itself is not reproduced).  The next draws must find the
 * buffer again, not take the re-entered path (a system call each) for
 * good.
 */
TEST(a_buffer_made_by_a_handler_inside_a_take_serves_the_next_draws)
{
	size_t before;
	uint8_t *buf;

	draw_until_buffered();
	buf = buffer_address();
	if (!shim_buffers())
		SKIP(return, "no buffers here (glibc's getrandom() serves)");
	ASSERT_NE(NULL, buf) TH_LOG("the thread holds no buffer");
	ASSERT_EQ(buf, arc4_tls_strong);
	arc4_tls_strong = arc4_strong_none;
	memcpy(&before, buf + 8, sizeof(before));	/* its avail */
	for (int i = 0; i < 100; i++)
		(void)arc4random();
	EXPECT_EQ(buf, arc4_tls_strong) TH_LOG("the buffer is not used again");
	EXPECT_NE(0, memcmp(&before, buf + 8, sizeof(before)))
		TH_LOG("no draw came from the buffer");
}

enum { DRAWS = 128 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * A child of fork() (kind 0) or of the raw system call (kind 1): its
 * DRAWS strong values against the parent's next DRAWS, none the same, and
 * where rand() is seeded, its next rand() the parent's.
 */
static void child_shares_nothing(struct __test_metadata *_metadata, int kind,
				 int seeded)
{
	uint32_t mine[DRAWS + 1], theirs[DRAWS + 1];
	int p[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = kind ? shim_sys_fork() : fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (int i = 0; i < DRAWS; i++)
			theirs[i] = arc4random();
		theirs[DRAWS] = rand();
		_exit(write(p[1], theirs, sizeof(theirs)) == sizeof(theirs) ? 0 : 1);
	}
	close(p[1]);
	ASSERT_EQ(sizeof(theirs), read(p[0], theirs, sizeof(theirs)));
	close(p[0]);
	ASSERT_EQ(0, child_status(pid));
	for (int i = 0; i < DRAWS; i++)
		mine[i] = arc4random();
	mine[DRAWS] = rand();
	for (int i = 0; i < DRAWS; i++) {
		for (int j = 0; j < DRAWS; j++) {
			ASSERT_NE(mine[i], theirs[j])
				TH_LOG("kind %d: the child's value %d is the parent's %d",
				       kind, j, i);
		}
	}
	if (seeded)
		EXPECT_EQ(mine[DRAWS], theirs[DRAWS])
			TH_LOG("kind %d: the seeded rand() did not go on in the child",
			       kind);
}

/*
 * A kernel before 4.14 refuses MADV_WIPEONFORK (EINVAL): a thread then
 * keeps no strong buffer (a child would inherit its bytes), and the lock
 * falls back to a token no fork clears.  A child of fork() or of the raw
 * system call still returns none of its parent's values, and a seeded
 * sequence still goes on in both.
 */
TEST(where_madv_wipeonfork_is_refused_no_buffer_and_no_child_repeats)
{
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	ASSERT_EQ(0, refuse_wipeonfork());
	srand_deterministic(7);
	(void)rand();
	for (int i = 0; i < 1000; i++)
		(void)arc4random();
	EXPECT_EQ(0, count_wipeonfork_maps());
	child_shares_nothing(_metadata, 0, 1);
	child_shares_nothing(_metadata, 1, 1);
}

/*
 * The buffer's mapping refused (ENOMEM; 16384 is ARC4_STRONG_MAP in
 * lib/shim.h): the thread draws without one, every value strong, errno
 * kept.  Were the size to change, the buffer would be mapped here and the
 * count of MADV_WIPEONFORK mappings says so.
 */
TEST(where_the_buffer_cannot_be_mapped_values_stay_strong)
{
	enum { N = 2000 };
	static uint64_t v[N];

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	ASSERT_EQ(0, refuse_mmap_with(1, 16384, ENOMEM));
	errno = 0;
	for (int i = 0; i < N; i++) {
		v[i] = (uint64_t)arc4random() << 32 | arc4random();
		ASSERT_NE(0, v[i]);
	}
	EXPECT_EQ(0, errno);
	EXPECT_EQ(0, count_wipeonfork_maps()) TH_LOG("a buffer was mapped");
	qsort(v, N, sizeof(v[0]), cmp_u64);
	for (int i = 1; i < N; i++) {
		ASSERT_NE(v[i - 1], v[i]) TH_LOG("a value repeats");
	}
	child_shares_nothing(_metadata, 0, 0);
	child_shares_nothing(_metadata, 1, 0);
}

/*
 * glibc's getrandom() serves from state the kernel invalidates on a VM
 * fork from 2.41 on; before, a buffer-less shim must not lean on it.  The
 * shim remembers its answer: each version is asked in a child of its own
 * (the harness's process has not asked).
 */
static int vmsafe_as(const char *version)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		libc_version = version;
		_exit(arc4_source_libc_vmsafe());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

TEST(only_glibc_2_41_and_later_count_as_vm_fork_safe)
{
	static const char *const unsafe[] = {
		"2.36", "2.37", "2.38", "2.39", "2.40", "1.99", "2.4",
	};
	static const char *const safe[] = {
		"2.41", "2.42", "2.50", "2.100", "3.0", "10.1",
	};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++) {
		v = unsafe[i];
		EXPECT_EQ(0, vmsafe_as(v)) TH_LOG("glibc %s", v);
	}
	for (i = 0; i < sizeof(safe) / sizeof(safe[0]); i++) {
		v = safe[i];
		EXPECT_EQ(1, vmsafe_as(v)) TH_LOG("glibc %s", v);
	}
}

TEST_HARNESS_MAIN
