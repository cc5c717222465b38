// SPDX-License-Identifier: GPL-2.0
/*
 * callbench: the per-call side of `make bench`.  Built twice from this
 * file: callbench-shim links -larc4 (before libc), callbench-glibc does not
 * and also measures libbsd's arc4random family (dlopen of Debian's
 * libbsd.so.0, dlvsym so that glibc 2.36's own arc4random does not answer).
 *
 *   callbench [-r REPEATS] [-n CALLS] single [FUNC...]
 *   callbench [-r REPEATS] fastpath [FUNC...]
 *   callbench [-n CALLS] calls FUNC
 *   callbench [-r REPEATS] [-t SECONDS] threads NTHREADS
 *
 * single   ns per call, one thread, of rand(), random(), drand48(),
 *          arc4random(), arc4random_uniform(1000), arc4random_buf(16);
 *          the shim in strong and in deterministic mode (only the FUNCs
 *          named, if any: rand, arc4random, ...)
 * fastpath ns per call of the cheapest of many short blocks of calls,
 *          less the cost of reading the clock: the path a call takes
 *          when the implementation's buffer holds the value (a block
 *          that includes a refill or an interrupt costs more)
 * calls    one call of FUNC (strong where there is a choice), then
 *          getppid(), CALLS calls and getppid() again, no clock: the
 *          system calls between the two getppid() in an strace log are
 *          those of CALLS calls, after the first one set things up
 * threads  aggregate calls per second with 1 and with NTHREADS threads,
 *          alternately, thread i pinned to CPU i, each calling for
 *          SECONDS; and the ratio within each pair
 *
 * Records as devbench's: group impl func mode param median min max unit n.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

#ifdef ARC4_SHIM
#include "arc4random.h"
#define IMPL "shim"
#else
#define IMPL "glibc"
#endif

#define MAX_REPEATS 64

static int repeats = 5;
static long calls = 2000000;
static double seconds = 1.0;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---- what is measured ----------------------------------------------------- */

static uint32_t (*bsd_arc4random)(void);
static uint32_t (*bsd_arc4random_uniform)(uint32_t);
static void (*bsd_arc4random_buf)(void *, size_t);

/*
 * One loop per function, calling it directly (through the PLT, as a
 * program would), so the harness adds the same few instructions to each.
 * *stop ends a threaded run early; single runs pass a flag never set.
 */
static volatile uint32_t sink;

#define LOOP(name, expr)						\
static __attribute__((unused)) long					\
loop_##name(long n, volatile int *stop)					\
{									\
	uint32_t s = 0;							\
	long i;								\
									\
	for (i = 0; i < n && !*stop; i++)				\
		s += (uint32_t)(expr);					\
	sink += s;							\
	return i;							\
}

static uint8_t buf16[16];

LOOP(rand, rand())
LOOP(random, random())
LOOP(drand48, drand48() * 4294967296.0)
LOOP(arc4random, arc4random())
LOOP(arc4random_uniform, arc4random_uniform(1000))
LOOP(arc4random_buf, (arc4random_buf(buf16, 16), buf16[0]))
LOOP(bsd_arc4random, bsd_arc4random())
LOOP(bsd_arc4random_uniform, bsd_arc4random_uniform(1000))
LOOP(bsd_arc4random_buf, (bsd_arc4random_buf(buf16, 16), buf16[0]))

struct bench {
	const char *impl, *func, *mode;
	long (*loop)(long, volatile int *);
	void (*setup)(void);	/* before each run: choose the mode */
	int threads;		/* also measured for thread scaling */
};

static void strong(void)
{
	srand(1);
	srandom(1);
	srand48(1);
}

#ifdef ARC4_SHIM
static void deterministic(void)
{
	srand_deterministic(1);
	srandom_deterministic(1);
	srand48_deterministic(1);
}
#endif

static const struct bench benches[] = {
#ifdef ARC4_SHIM
	{ "shim", "rand", "strong", loop_rand, strong, 1 },
	{ "shim", "random", "strong", loop_random, strong, 1 },
	{ "shim", "drand48", "strong", loop_drand48, strong, 1 },
	{ "shim", "arc4random", "strong", loop_arc4random, strong, 1 },
	{ "shim", "arc4random_uniform", "strong", loop_arc4random_uniform,
	  strong, 0 },
	{ "shim", "arc4random_buf", "strong", loop_arc4random_buf, strong, 0 },
	{ "shim", "rand", "det", loop_rand, deterministic, 1 },
	{ "shim", "random", "det", loop_random, deterministic, 0 },
	{ "shim", "drand48", "det", loop_drand48, deterministic, 0 },
#else
	/* glibc's rand families are deterministic; that is all they do. */
	{ "glibc", "rand", "det", loop_rand, strong, 1 },
	{ "glibc", "random", "det", loop_random, strong, 0 },
	{ "glibc", "drand48", "det", loop_drand48, strong, 0 },
	{ "glibc", "arc4random", "strong", loop_arc4random, NULL, 1 },
	{ "glibc", "arc4random_uniform", "strong", loop_arc4random_uniform,
	  NULL, 0 },
	{ "glibc", "arc4random_buf", "strong", loop_arc4random_buf, NULL, 0 },
	{ "libbsd", "arc4random", "strong", loop_bsd_arc4random, NULL, 1 },
	{ "libbsd", "arc4random_uniform", "strong",
	  loop_bsd_arc4random_uniform, NULL, 0 },
	{ "libbsd", "arc4random_buf", "strong", loop_bsd_arc4random_buf,
	  NULL, 0 },
#endif
};

#define NBENCH (sizeof(benches) / sizeof(benches[0]))

static int usable(const struct bench *b)
{
	return strcmp(b->impl, "libbsd") != 0 || bsd_arc4random;
}

/* The FUNCs named on the command line; none named selects them all. */
static char **wanted;
static int nwanted;

static int selected(const struct bench *b)
{
	if (!usable(b))
		return 0;
	for (int i = 0; i < nwanted; i++)
		if (strcmp(wanted[i], b->func) == 0)
			return 1;
	return nwanted == 0;
}

/* Every FUNC named is one this build measures; else say which is not. */
static int known_funcs(void)
{
	for (int i = 0; i < nwanted; i++) {
		size_t j = 0;

		while (j < NBENCH && strcmp(wanted[i], benches[j].func) != 0)
			j++;
		if (j == NBENCH) {
			fprintf(stderr, "callbench: no function %s here\n",
				wanted[i]);
			return 0;
		}
	}
	return 1;
}

static __attribute__((unused)) void load_libbsd(void)
{
	void *h = dlopen("libbsd.so.0", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "callbench: no libbsd.so.0 (%s); skipped\n",
			dlerror());
		return;
	}
	bsd_arc4random = dlvsym(h, "arc4random", "LIBBSD_0.0");
	bsd_arc4random_uniform = dlvsym(h, "arc4random_uniform", "LIBBSD_0.2");
	bsd_arc4random_buf = dlvsym(h, "arc4random_buf", "LIBBSD_0.2");
	if (!bsd_arc4random || !bsd_arc4random_uniform || !bsd_arc4random_buf)
		bsd_arc4random = NULL;
}

/* ---- one thread: ns per call ------------------------------------------- */

/*
 * For each selected bench: choose its mode, warm up with warm calls, then
 * one record of group, param over the repeats of measure(b).
 */
static void measure_each(const char *group, long param, long warm,
			 double (*measure)(const struct bench *))
{
	static int never;
	double v[MAX_REPEATS];

	for (size_t i = 0; i < NBENCH; i++) {
		const struct bench *b = &benches[i];

		if (!selected(b))
			continue;
		if (b->setup)
			b->setup();
		b->loop(warm, &never);
		for (int r = 0; r < repeats; r++)
			v[r] = measure(b);
		record(group, b->impl, b->func, b->mode, param, v, repeats,
		       "ns");
	}
}

/* single: the mean over many calls, refills and all. */
static double ns_per_call(const struct bench *b)
{
	static int never;
	uint64_t t0 = now_ns();

	b->loop(calls, &never);
	return (double)(now_ns() - t0) / calls;
}

/*
 * fastpath: blocks short enough that most hold no refill of the shim's
 * 16 KiB buffer (4094 values) and no timer interrupt; the cheapest of
 * them is the fast path alone.  Under VM_ICOUNT=1 that is exact to the
 * instruction, the clock reads excepted, which are measured the same way
 * and taken off.
 */
enum { BLOCK_CALLS = 256, BLOCKS = 64 };

static double ns_fastpath(const struct bench *b)
{
	static int never;
	uint64_t clock = UINT64_MAX, best = UINT64_MAX;

	for (int k = 0; k < BLOCKS; k++) {
		uint64_t t0 = now_ns(), t1 = now_ns();

		if (t1 - t0 < clock)
			clock = t1 - t0;
	}
	for (int k = 0; k < BLOCKS; k++) {
		uint64_t t0 = now_ns(), d;

		b->loop(BLOCK_CALLS, &never);
		d = now_ns() - t0;
		if (d < best)
			best = d;
	}
	return (double)(best - clock) / BLOCK_CALLS;
}

/* ---- calls: nothing but the calls, between two markers for strace ------ */

/*
 * The first bench of the FUNC named: strong for the shim, glibc's own.
 * getppid() marks where the calls start and end: nothing else here
 * calls it, and it has no effect.
 */
static int calls_only(void)
{
	static int never;

	for (size_t i = 0; i < NBENCH; i++) {
		const struct bench *b = &benches[i];

		if (!selected(b))
			continue;
		if (b->setup)
			b->setup();
		b->loop(1, &never);	/* opens, maps, allocates */
		syscall(SYS_getppid);
		b->loop(calls, &never);
		syscall(SYS_getppid);
		return 0;
	}
	return 1;
}

/* ---- threads: aggregate calls per second ------------------------------- */

struct worker {
	pthread_t tid;
	int cpu;
	const struct bench *b;
	pthread_barrier_t *start;
	volatile int *stop;
	long done;
	double cpu_ns;		/* this thread's CPU time while it called */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void *worker_run(void *p)
{
	struct worker *w = p;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	w->b->loop(1000, w->stop);	/* this thread's buffer, outside the clock */
	pthread_barrier_wait(w->start);
	w->done = 0;
	w->cpu_ns = thread_cpu_ns();
	while (!*w->stop)
		w->done += w->b->loop(1L << 40, w->stop);
	w->cpu_ns = thread_cpu_ns() - w->cpu_ns;
	return NULL;
}

/*
 * Aggregate calls per second of wall time; *per_cpu gets the sum over the
 * threads of calls per second of that thread's own CPU time, which other
 * load on the machine does not dilute (but which does not see time a
 * thread spends asleep on a lock either).
 */
static double threaded_run(const struct bench *b, int nthreads,
			   double *per_cpu)
{
	struct worker w[64];
	pthread_barrier_t start;
	volatile int stop = 0;
	uint64_t t0, t1;
	long total = 0;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	pthread_barrier_init(&start, NULL, nthreads + 1);
	for (int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .cpu = i % ncpu, .b = b,
					.start = &start, .stop = &stop };
		pthread_create(&w[i].tid, NULL, worker_run, &w[i]);
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	usleep((useconds_t)(seconds * 1e6));
	stop = 1;
	t1 = now_ns();
	*per_cpu = 0;
	for (int i = 0; i < nthreads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].done;
		if (w[i].cpu_ns > 0)
			*per_cpu += w[i].done / (w[i].cpu_ns / 1e9);
	}
	pthread_barrier_destroy(&start);
	return total / ((t1 - t0) / 1e9);
}

/*
 * Runs with one thread and with nthreads alternate, so that each pair
 * sees about the same load from the rest of the machine; "scaling" is
 * the ratio within each pair.
 */
static void threads(int nthreads)
{
	double one[MAX_REPEATS], many[MAX_REPEATS], ratio[MAX_REPEATS];
	double cpu1, cpun, cratio[MAX_REPEATS];

	if (nthreads < 2 || nthreads > 64)
		nthreads = 2;
	for (size_t i = 0; i < NBENCH; i++) {
		const struct bench *b = &benches[i];

		if (!b->threads || !usable(b))
			continue;
		if (b->setup)
			b->setup();
		for (int r = 0; r < repeats; r++) {
			one[r] = threaded_run(b, 1, &cpu1);
			many[r] = threaded_run(b, nthreads, &cpun);
			ratio[r] = many[r] / one[r];
			cratio[r] = cpun / cpu1;
		}
		record("threads", b->impl, b->func, b->mode, 1, one, repeats,
		       "calls/s");
		record("threads", b->impl, b->func, b->mode, nthreads, many,
		       repeats, "calls/s");
		record("scaling", b->impl, b->func, b->mode, nthreads, ratio,
		       repeats, "ratio");
		record("scaling-cpu", b->impl, b->func, b->mode, nthreads,
		       cratio, repeats, "ratio");
	}
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "r:n:t:")) != -1) {
		switch (opt) {
		case 'r':
			repeats = atoi(optarg);
			break;
		case 'n':
			calls = atol(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (repeats < 1 || repeats > MAX_REPEATS || calls < 1 ||
	    optind >= argc)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
#ifndef ARC4_SHIM
	load_libbsd();
#endif
	wanted = argv + optind + 1;
	nwanted = argc - optind - 1;
	if (strcmp(argv[optind], "single") == 0 ||
	    strcmp(argv[optind], "fastpath") == 0 ||
	    strcmp(argv[optind], "calls") == 0) {
		if (!known_funcs())
			return 2;
	}
	if (strcmp(argv[optind], "single") == 0)
		measure_each("call", 1, calls / 10 + 1, ns_per_call);
	else if (strcmp(argv[optind], "fastpath") == 0)
		measure_each("fastpath", BLOCK_CALLS, BLOCK_CALLS, ns_fastpath);
	else if (strcmp(argv[optind], "calls") == 0 && nwanted == 1)
		return calls_only();
	else if (strcmp(argv[optind], "threads") == 0 && nwanted == 1)
		threads(atoi(wanted[0]));
	else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: callbench [-r REPEATS] [-n CALLS] single [FUNC...]\n"
		"       callbench [-r REPEATS] fastpath [FUNC...]\n"
		"       callbench [-n CALLS] calls FUNC\n"
		"       callbench [-r REPEATS] [-t SECONDS] threads N\n");
	return 2;
}
