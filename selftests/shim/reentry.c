// SPDX-License-Identifier: GPL-2.0
/*
 * Re-entry on the same thread: a signal handler that calls the shim while
 * the thread it interrupted is inside it, and a preloaded hook (libhook.so)
 * on the calls the shim makes, which calls rand() from inside them.  Strong
 * output must never come out zeroed or twice, nothing may crash or hang,
 * and a re-entrant call must use whatever strong source is left.
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

/*
 * Timer signals every 20 us; each runs the handler, which draws once.
 * The thread draws in a loop until SIGNALS handlers have run, so the
 * amount of re-entry is a count, whatever the load on the machine.
 */
enum { SIGNALS = 5000, TIMER_US = 20 };

static uint64_t (*draw)(void);
static volatile sig_atomic_t handled;
static uint64_t *handler_values;

/*
 * A handler with no room left to record its value draws nothing: every
 * value drawn is accounted for (a thread starved by its handlers, as under
 * valgrind, saw tens of thousands run, and the deterministic test read
 * past handler_values[SIGNALS - 1]).
 */
static void on_timer(int sig)
{
	if (handled >= SIGNALS)
		return;
	handler_values[handled] = draw();
	handled++;
}

static void timer_start(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };
	struct itimerval it = { { 0, TIMER_US }, { 0, TIMER_US } };

	handled = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void timer_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
}

/* Each draw returned as a whole number; 0 is what a stolen draw reads. */
static uint64_t draw_drand48(void)
{
	return (uint64_t)(drand48() * 0x1p53);
}

static uint64_t draw_arc4random_buf(void)
{
	uint64_t v;

	arc4random_buf(&v, sizeof(v));
	return v;
}

static uint64_t draw_arc4random(void)
{
	return arc4random();
}

static uint64_t draw_rand(void)
{
	return rand();
}

/*
 * Draw under the timer; count zero results of the thread and of the
 * handler.  bits: the width of a draw, which sets how many zeros chance
 * allows: none at 53 or 64 bits; at 31 or 32 bits, 2 plus one per 2^28
 * draws (more than 8 times the expected number; P(fail) below 1e-4).
 */
static void zeros_under_signals(struct __test_metadata *_metadata,
				uint64_t (*fn)(void), int bits)
{
	uint64_t n = 0, zeros = 0, hzeros = 0, allowed;

	draw = fn;
	handler_values = calloc(SIGNALS, sizeof(*handler_values));
	ASSERT_TRUE(handler_values != NULL);
	(void)fn();
	timer_start(on_timer);
	while (handled < SIGNALS) {
		zeros += fn() == 0;
		n++;
	}
	timer_stop();
	for (int i = 0; i < SIGNALS; i++)
		hzeros += handler_values[i] == 0;
	allowed = bits >= 53 ? 0 : 2 + (n >> 28);
	EXPECT_LE(zeros, allowed)
		TH_LOG("%llu zero results of %llu draws under %d signals",
		       (unsigned long long)zeros, (unsigned long long)n,
		       SIGNALS);
	EXPECT_LE(hzeros, allowed)
		TH_LOG("%llu zero results in %d signal handlers",
		       (unsigned long long)hzeros, SIGNALS);
	free(handler_values);
}

TEST(drand48_never_returns_zeros_when_a_signal_handler_draws_too)
{
	zeros_under_signals(_metadata, draw_drand48, 53);
}

TEST(arc4random_buf_never_returns_zeros_when_a_signal_handler_draws_too)
{
	zeros_under_signals(_metadata, draw_arc4random_buf, 64);
}

TEST(arc4random_never_returns_zeros_when_a_signal_handler_draws_too)
{
	zeros_under_signals(_metadata, draw_arc4random, 32);
}

TEST(rand_never_returns_zeros_when_a_signal_handler_draws_too)
{
	zeros_under_signals(_metadata, draw_rand, 31);
}

/*
 * The same under a seccomp policy refusing getrandom(): a handler that
 * interrupts the shim must be served by /dev/arc4, not abort.
 */
TEST(signal_handler_is_served_by_the_device_when_seccomp_refuses_getrandom)
{
	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	(void)arc4random();
	ASSERT_EQ(0, refuse_getrandom(EPERM));
	zeros_under_signals(_metadata, draw_drand48, 53);
}

/*
 * Deterministic families: a handler drawing from the stream that the
 * thread it interrupted holds the lock for must neither wait for itself
 * nor be given a position twice: thread and handler together get exactly
 * the first M values of the sequence, in some interleaving.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* At most DET_MAX values of the thread: the sort stays small. */
enum { DET_SIGNALS = 2000, DET_MAX = 1 << 22 };

TEST(deterministic_rand_in_a_signal_handler_serves_each_position_once)
{
	uint64_t *got, *want, n = 0;
	size_t total;

	got = calloc(DET_MAX + SIGNALS, sizeof(*got));
	handler_values = calloc(SIGNALS, sizeof(*handler_values));
	ASSERT_TRUE(got && handler_values);
	draw = draw_rand;
	srand_deterministic(77);
	timer_start(on_timer);
	while (handled < DET_SIGNALS && n < DET_MAX)
		got[n++] = rand();
	timer_stop();
	ASSERT_GE(handled, 100) TH_LOG("only %d signals", handled);
	total = n + handled;
	memcpy(got + n, handler_values, handled * sizeof(*got));
	want = malloc(total * sizeof(*want));
	ASSERT_TRUE(want != NULL);
	srand_deterministic(77);
	for (size_t i = 0; i < total; i++)
		want[i] = rand();
	qsort(got, total, sizeof(*got), cmp_u64);
	qsort(want, total, sizeof(*want), cmp_u64);
	EXPECT_EQ(0, memcmp(got, want, total * sizeof(*got)))
		TH_LOG("thread and %d handlers did not get the first %zu "
		       "values exactly once", handled, total);
	free(got);
	free(want);
	free(handler_values);
}

TEST(deterministic_drand48_in_a_signal_handler_never_hangs)
{
	handler_values = calloc(SIGNALS, sizeof(*handler_values));
	ASSERT_TRUE(handler_values != NULL);
	draw = draw_drand48;
	srand48_deterministic(77);
	timer_start(on_timer);
	while (handled < DET_SIGNALS)
		(void)drand48();
	timer_stop();
	EXPECT_GE(handled, DET_SIGNALS);
	free(handler_values);
}

/* ---- preloaded hooks --------------------------------------------------- */

/*
 * Child mode: with ARC4_REENTRY_CHILD=N set, this program prints N values
 * of rand() after srand_deterministic(2024), then N of random() after
 * srandom_deterministic(7), one a line, and exits before the harness
 * starts.  Run under libhook.so, every open(), ioctl() and pread() the
 * shim makes calls rand() again, on the stream it is refilling.
 */
__attribute__((constructor)) static void child_mode(void)
{
	const char *s = getenv("ARC4_REENTRY_CHILD");
	long n;

	if (!s)
		return;
	n = atol(s);
	srand_deterministic(2024);
	for (long i = 0; i < n; i++)
		printf("%d\n", rand());
	srandom_deterministic(7);
	for (long i = 0; i < n; i++)
		printf("%ld\n", random());
	exit(fflush(stdout) ? 1 : 0);
}

/*
 * Set by a test for run_child(): the child starts in a private /dev that
 * holds the real /dev/urandom and, if child_arc4_node is not 0, that
 * device at /dev/arc4; and with descriptor 0 closed.
 */
static int child_private_dev;
static dev_t child_arc4_node;

static int child_dev_setup(void)
{
	if (!child_private_dev)
		return 0;
	if (private_dev(child_arc4_node) != 0 ||
	    mknod("/dev/urandom", S_IFCHR | 0666, makedev(1, 9)) != 0)
		return -1;
	close(0);
	/* What the harness left open, so that the child can count its own. */
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	return 0;
}

/*
 * Run argv with LD_PRELOAD=preload (and extra, "NAME=VALUE" or NULL) and,
 * if err, a seccomp policy refusing getrandom() with err; a watchdog
 * kills it after 20 s times test_time_scale() (a hang, not a speed limit).  Its stdout in *out;
 * its wait status.
 */
static int run_child(char *const argv[], const char *preload,
		     const char *extra, int err, char **out)
{
	char env_preload[PATH_MAX * 2 + 16];
	char *envp[] = { env_preload, (char *)extra, NULL };
	size_t len = 0, cap = 1 << 16;
	int p[2], st;
	pid_t pid;

	*out = calloc(1, cap);
	preload_env_with(env_preload, sizeof(env_preload), preload);
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		alarm(20 * test_time_scale());
		if (child_dev_setup() != 0)
			_exit(125);
		if (err && refuse_getrandom(err))
			_exit(126);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		ssize_t n;

		if (cap - len < 4096)
			*out = realloc(*out, cap *= 2);
		n = read(p[0], *out + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	(*out)[len] = 0;
	close(p[0]);
	waitpid(pid, &st, 0);
	return st;
}

static int lines(const char *s)
{
	int n = 0;

	while ((s = strchr(s, '\n')))
		n++, s++;
	return n;
}

static char hook_so[PATH_MAX];

static const char *hook_preload(void)
{
	snprintf(hook_so, sizeof(hook_so), "%s/libhook.so", test_dir());
	return hook_so;
}

static void reseed_on_signal(int sig)
{
	srand_deterministic(++handled);
}

/*
 * Reseed child: under libhook.so with ARC4_HOOK_RAISE=SIGURG, the shim's
 * ARC4_IOC_SEED ioctl raises SIGURG, whose handler reseeds.
 * srand_deterministic(1) is thus interrupted by a reseed of the stream it
 * is setting up, every time: no timer to race.
 */
__attribute__((constructor)) static void reseed_child_mode(void)
{
	struct sigaction sa = { .sa_handler = reseed_on_signal };

	if (!getenv("ARC4_HOOK_RAISE") || getenv("ARC4_TEST_CONTEND"))
		return;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGURG, &sa, NULL);
	srand_deterministic(1);
	for (int i = 0; i < 1000; i++)
		(void)rand();
	_exit(0);
}

/*
 * Reseeding the stream that the interrupted call is reading cannot be
 * served: the process must end with a message, not hang or go on.
 */
TEST(reseeding_from_a_signal_handler_inside_the_sequence_aborts_with_a_message)
{
	char self[PATH_MAX], env_preload[PATH_MAX * 2 + 16], env_raise[32];
	char *argv[] = { self, NULL };
	char *envp[] = { env_preload, env_raise, NULL };
	char msg[512] = "";
	size_t len = 0;
	int p[2], st;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (!have_device())
		SKIP(return, "no /dev/arc4: the hooked open() is the device's");
	ASSERT_GT(n, 0);
	self[n] = 0;
	preload_env_with(env_preload, sizeof(env_preload), hook_preload());
	snprintf(env_raise, sizeof(env_raise), "ARC4_HOOK_RAISE=%d", SIGURG);
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		alarm(20 * test_time_scale());
		execve(self, argv, envp);
		_exit(127);
	}
	close(p[1]);
	while (len < sizeof(msg) - 1 &&
	       (n = read(p[0], msg + len, sizeof(msg) - 1 - len)) > 0)
		len += n;
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSIGNALED(st)) TH_LOG("exited %d", WEXITSTATUS(st));
	EXPECT_EQ(SIGABRT, WTERMSIG(st)) TH_LOG("killed by signal %d%s",
						WTERMSIG(st),
						WTERMSIG(st) == SIGALRM ?
						" (hung)" : "");
	EXPECT_TRUE(strstr(msg, "arc4: srand_deterministic()") != NULL)
		TH_LOG("stderr: %s", msg);
}

/*
 * Contend child: under libhook.so with ARC4_HOOK_RAISE=SIGUSR2 and
 * ARC4_TEST_CONTEND=CALL (one of contend_calls[]).  srand_deterministic()
 * holds the state lock when
 * its ARC4_IOC_SEED raises SIGUSR2; the handler lets a second thread make
 * the call, which takes the lock, and returns once /proc shows that
 * thread asleep in futex() after it left its own sem_wait(): the owner
 * then unlocks and must wake it.  A
 * call that skipped the lock (and so released the owner's lock in its
 * unlock) never sleeps.
 * Exits 0 if the thread slept on the lock and then got in, 1 if it never
 * slept; SIGALRM kills it if the sleeper is never woken.
 */
static sem_t contend_go;
static pid_t contend_tid;
static char contend_path[64], contend_want[16];
static volatile sig_atomic_t contend_slept;
/* Set past sem_wait(), whose own futex must not count as the lock's. */
static int contend_calling;

static unsigned short contend_x[3] = { 1, 2, 3 };

static void contend_erand48(void) { (void)erand48(contend_x); }
static void contend_nrand48(void) { (void)nrand48(contend_x); }
static void contend_jrand48(void) { (void)jrand48(contend_x); }
static void contend_lrand48(void) { (void)lrand48(); }
static void contend_mrand48(void) { (void)mrand48(); }
static void contend_drand48(void) { (void)drand48(); }
static void contend_random(void) { (void)random(); }
static void contend_rand(void) { (void)rand(); }

/*
 * Calls that take the state lock in the modes the contend thread sets up
 * (rand(), random() and the rand48 family deterministic; the xsubi calls
 * always).
 */
static const struct {
	const char *name;
	void (*call)(void);
} contend_calls[] = {
	{ "erand48", contend_erand48 },
	{ "nrand48", contend_nrand48 },
	{ "jrand48", contend_jrand48 },
	{ "lrand48", contend_lrand48 },
	{ "mrand48", contend_mrand48 },
	{ "drand48", contend_drand48 },
	{ "random", contend_random },
	{ "rand", contend_rand },
};

static void *contend_thread(void *arg)
{
	void (*call)(void) = arg;

	srand_deterministic(1);
	srandom_deterministic(1);
	srand48_deterministic(1);
	__atomic_store_n(&contend_tid, gettid(), __ATOMIC_RELEASE);
	while (sem_wait(&contend_go) != 0)
		;
	__atomic_store_n(&contend_calling, 1, __ATOMIC_RELEASE);
	call();
	return NULL;
}

static void contend_on_signal(int sig)
{
	struct timespec tick = { 0, 1000000 };
	char buf[sizeof(contend_want)];
	size_t want = strlen(contend_want);
	int ms, fd;
	ssize_t n;

	sem_post(&contend_go);
	for (ms = 0; ms < 10000 &&
	     !__atomic_load_n(&contend_calling, __ATOMIC_ACQUIRE); ms++)
		nanosleep(&tick, NULL);
	for (ms = 0; ms < 10000 && !contend_slept; ms++) {
		fd = open(contend_path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (fd >= 0)
			close(fd);
		contend_slept = n >= (ssize_t)want && !memcmp(buf, contend_want, want);
		if (!contend_slept)
			nanosleep(&tick, NULL);
	}
}

__attribute__((constructor)) static void contend_child_mode(void)
{
	struct sigaction sa = { .sa_handler = contend_on_signal };
	const char *name = getenv("ARC4_TEST_CONTEND");
	void (*call)(void) = NULL;
	pthread_t t;
	size_t i;

	if (!name)
		return;
	for (i = 0; i < sizeof(contend_calls) / sizeof(contend_calls[0]); i++)
		if (!strcmp(name, contend_calls[i].name))
			call = contend_calls[i].call;
	if (!call)
		_exit(3);
	/* The thread's own seeds go through the hooked ioctl too. */
	signal(SIGUSR2, SIG_IGN);
	sem_init(&contend_go, 0, 0);
	if (pthread_create(&t, NULL, contend_thread, call) != 0)
		_exit(2);
	while (!__atomic_load_n(&contend_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	snprintf(contend_path, sizeof(contend_path), "/proc/self/task/%d/syscall",
		 (int)contend_tid);
	snprintf(contend_want, sizeof(contend_want), "%d ", (int)SYS_futex);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	srand_deterministic(1);
	pthread_join(t, NULL);
	_exit(contend_slept ? 0 : 1);
}

/*
 * A thread that finds the state lock held sleeps until the owner lets go,
 * and is woken then: the lock's futex wait and wake, run every time (the
 * owner is held inside srand_deterministic() by a signal handler, not by
 * a race that a quiet machine might never lose).  Each call that takes
 * the lock is tried: one that skipped it (its unlock kept) would not
 * sleep, and would free the owner's lock under it.
 */
TEST(a_thread_sleeps_on_the_held_state_lock_and_is_woken_when_it_is_released)
{
	char self[PATH_MAX], env_preload[PATH_MAX * 2 + 16], env_raise[32];
	char env_contend[64];
	char *argv[] = { self, NULL };
	char *envp[] = { env_preload, env_raise, env_contend, NULL };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t i;
	pid_t pid;
	int st;

	if (!have_device())
		SKIP(return, "no /dev/arc4: the hooked ioctl is the device's");
	ASSERT_GT(n, 0);
	self[n] = 0;
	preload_env_with(env_preload, sizeof(env_preload), hook_preload());
	snprintf(env_raise, sizeof(env_raise), "ARC4_HOOK_RAISE=%d", SIGUSR2);
	for (i = 0; i < sizeof(contend_calls) / sizeof(contend_calls[0]); i++) {
		snprintf(env_contend, sizeof(env_contend), "ARC4_TEST_CONTEND=%s",
			 contend_calls[i].name);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			alarm(20 * test_time_scale());
			execve(self, argv, envp);
			_exit(127);
		}
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		ASSERT_TRUE(WIFEXITED(st))
			TH_LOG("%s: killed by signal %d%s", contend_calls[i].name,
			       WTERMSIG(st), WTERMSIG(st) == SIGALRM ?
			       " (the sleeper was never woken)" : "");
		EXPECT_EQ(0, WEXITSTATUS(st))
			TH_LOG("%s: the second thread never slept on the held lock",
			       contend_calls[i].name);
	}
}

/* Each line of sub a line of full, in order: a subsequence.  Skipped: *gaps. */
static int is_subsequence(const char *sub, const char *full, long *gaps)
{
	const char *s = sub, *f = full;

	*gaps = 0;
	while (*s) {
		const char *se = strchrnul(s, '\n');
		size_t n = se - s;

		for (;;) {
			const char *fe = strchrnul(f, '\n');

			if (!*f)
				return 0;
			if ((size_t)(fe - f) == n && !memcmp(f, s, n)) {
				f = *fe ? fe + 1 : fe;
				break;
			}
			(*gaps)++;
			f = *fe ? fe + 1 : fe;
		}
		s = *se ? se + 1 : se;
	}
	return 1;
}

/*
 * Each family's values under the hooks are its sequence with the values
 * the hooks drew left out: a subsequence of the unhooked run's (which is
 * longer, to leave room), in order, nothing repeated.
 */
TEST(hooks_calling_deterministic_rand_inside_the_shim_neither_hang_nor_repeat)
{
	char self[PATH_MAX], *hooked, *plain, *argv[] = { self, NULL };
	char *h_rand, *h_random, *p_rand, *p_random, *split;
	long gaps_rand, gaps_random;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int st;

	ASSERT_GT(n, 0);
	self[n] = 0;
	st = run_child(argv, hook_preload(), "ARC4_REENTRY_CHILD=6000", 0,
		       &hooked);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("under libhook.so: wait status %#x (%s)", st,
		       WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ?
		       "hung" : "failed");
	st = run_child(argv, "", "ARC4_REENTRY_CHILD=8000", 0, &plain);
	ASSERT_EQ(0, st);
	/* Split each output into its rand() and its random() half. */
	h_rand = hooked;
	for (split = hooked, n = 0; n < 6000; n++)
		split = strchr(split, '\n') + 1;
	h_random = strdup(split);
	*split = 0;
	p_rand = plain;
	for (split = plain, n = 0; n < 8000; n++)
		split = strchr(split, '\n') + 1;
	p_random = strdup(split);
	*split = 0;
	EXPECT_TRUE(is_subsequence(h_rand, p_rand, &gaps_rand))
		TH_LOG("rand() under hooks is not its sequence");
	EXPECT_TRUE(is_subsequence(h_random, p_random, &gaps_random))
		TH_LOG("random() under hooks is not its sequence");
	/* With the device, every refill's pread() runs the hook. */
	if (have_device())
		EXPECT_GT(gaps_rand + gaps_random, 0)
			TH_LOG("the hooks never drew: nothing was tested");
	free(h_random);
	free(p_random);
	free(hooked);
	free(plain);
}

/*
 * libhook.so calls rand() and arc4random() from inside the open(),
 * ioctl() and pread() of a refill, so those calls re-enter; with
 * getrandom() refused they must read /dev/arc4.
 */
TEST(reentrant_calls_use_the_device_when_seccomp_refuses_getrandom)
{
	char ref[PATH_MAX], preload[PATH_MAX * 3], *out, *glibc;
	char *argv[] = { ref, "rand", "1", "64", NULL };
	int st;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	snprintf(ref, sizeof(ref), "%s/ref", test_dir());
	snprintf(preload, sizeof(preload), "%s %s", hook_preload(),
		 libarc4_so());
	ASSERT_EQ(0, run_prog("", "ref", "rand 1 64", &glibc));
	st = run_child(argv, preload, NULL, EPERM, &out);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("wait status %#x (SIGABRT is %d)", st, SIGABRT);
	EXPECT_EQ(64, lines(out)) TH_LOG("%s", out);
	EXPECT_STRNE(glibc, out);
	free(out);
	free(glibc);
}

/*
 * Strong child: with ARC4_REENTRY_STRONG=N set, this program prints N
 * values of arc4random(), one a line, and exits before the harness starts:
 * 0, or 3 if descriptor 0 (which the test closed) is open, 4 if a
 * descriptor above 2 is.
 */
__attribute__((constructor)) static void strong_child_mode(void)
{
	const char *s = getenv("ARC4_REENTRY_STRONG");
	long n;

	if (!s)
		return;
	n = atol(s);
	for (long i = 0; i < n; i++)
		printf("%u\n", arc4random());
	if (fflush(stdout))
		exit(1);
	exit(fcntl(0, F_GETFD) != -1 ? 3 : fds_above_stdio() != 0 ? 4 : 0);
}

/*
 * libhook.so's hooks with getrandom() answering ENOSYS, descriptor 0
 * closed, and at /dev/arc4 node (another device) or nothing: the calls
 * the hooks make inside the shim's open() of /dev/arc4 find no strong
 * descriptor and open their own, which lands on 0 and is moved above 2,
 * and is refused (not an arc4 stream) or missing; the device is then
 * refused for good, and /dev/urandom serves every call.  arc4random()
 * stays strong: 64 values, none repeated, none 0; 0 is left closed and
 * nothing is leaked.
 */
static void hooked_without_device(struct __test_metadata *_metadata,
				  dev_t node)
{
	char self[PATH_MAX], *out, *l, *argv[] = { self, NULL };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int st;

	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	if (geteuid() != 0)
		SKIP(return, "a private /dev needs root (a mount namespace)");
	ASSERT_GT(n, 0);
	self[n] = 0;
	child_private_dev = 1;
	child_arc4_node = node;
	st = run_child(argv, hook_preload(), "ARC4_REENTRY_STRONG=64", ENOSYS,
		       &out);
	child_private_dev = 0;
	ASSERT_TRUE(WIFEXITED(st))
		TH_LOG("wait status %#x (SIGABRT is %d)", st, SIGABRT);
	ASSERT_NE(125, WEXITSTATUS(st)) TH_LOG("no private /dev");
	EXPECT_NE(3, WEXITSTATUS(st)) TH_LOG("descriptor 0 was left open");
	EXPECT_NE(4, WEXITSTATUS(st)) TH_LOG("a descriptor was leaked");
	EXPECT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(64, lines(out)) TH_LOG("%s", out);
	for (l = out; *l; l = strchr(l, '\n') + 1) {
		size_t len = strcspn(l, "\n");

		EXPECT_NE(0, strncmp(l, "0\n", 2)) TH_LOG("a zero value");
		for (char *m = strchr(l, '\n') + 1; *m;
		     m = strchr(m, '\n') + 1) {
			EXPECT_FALSE(strcspn(m, "\n") == len &&
				     !memcmp(l, m, len))
				TH_LOG("value %.*s repeats", (int)len, l);
		}
	}
	free(out);
}

TEST(reentrant_calls_never_read_another_device_at_dev_arc4)
{
	hooked_without_device(_metadata, makedev(1, 5));	/* /dev/zero */
}

TEST(reentrant_calls_read_dev_urandom_where_dev_arc4_is_missing)
{
	hooked_without_device(_metadata, 0);
}

TEST_HARNESS_MAIN
