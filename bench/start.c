// SPDX-License-Identifier: GPL-2.0
/*
 * start: what a process or a thread pays to begin drawing, for make bench.
 *
 *   start [-r REPEATS] first FUNC
 *       ns of the first FUNC() call (arc4random, rand) of a new process,
 *       each repeat a new process (this program again, "once FUNC"); under
 *       VM_ICOUNT=1 an instruction count
 *   start [-r REPEATS] spawn PROG FUNC PRELOAD...
 *       ns from posix_spawn() to waitpid() of "PROG once FUNC" (FUNC none:
 *       it draws nothing) with LD_PRELOAD=PRELOAD, each PRELOAD in turn
 *       (- for none)
 *   start [-r REPEATS] threads N DRAWS
 *       resident memory per thread (KiB) of N threads that each drew DRAWS
 *       arc4random() values and wait, stacks included
 *
 * Built as start-shim (-larc4), start-glibc, and static start-shim-static
 * (libarc4.a) and start-glibc-static.  Prints bench/record.h records.
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#ifdef ARC4_SHIM
#include "arc4random.h"
#define IMPL "shim"
#else
#define IMPL "glibc"
#endif
#include "record.h"

extern char **environ;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile uint32_t sink;

static int draw(const char *func)
{
	if (!strcmp(func, "arc4random"))
		sink = arc4random();
	else if (!strcmp(func, "rand"))
		sink = rand();
	else if (strcmp(func, "none"))
		return -1;
	return 0;
}

/* "once FUNC": one call, its ns on stdout. */
static int once(const char *func)
{
	double t0 = now_ns(), t1;

	if (draw(func))
		return 2;
	t1 = now_ns();
	if (strcmp(func, "none"))
		printf("%.0f\n", t1 - t0);
	return 0;
}

/* Run argv to its end; its stdout's number in *ns (if ns), else its time. */
static int run(char **argv, char **envp, double *ns)
{
	posix_spawn_file_actions_t fa;
	int p[2], st;
	char buf[64] = "";
	double t0 = now_ns();
	pid_t pid;
	ssize_t n;

	if (pipe(p))
		return -1;
	if (posix_spawn_file_actions_init(&fa)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	st = posix_spawn_file_actions_adddup2(&fa, p[1], 1) ||
	     posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (st) {
		close(p[0]);
		return -1;
	}
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	if (ns == NULL)
		return 0;
	if (n > 0)
		*ns = strtod(buf, NULL);
	else
		*ns = now_ns() - t0;
	return 0;
}

static int first(const char *self, const char *func, int reps)
{
	double v[reps];
	char *argv[] = { (char *)self, "once", (char *)func, NULL };

	for (int i = 0; i < reps; i++)
		if (run(argv, environ, &v[i]))
			return 1;
	record("start", IMPL, func, "first", 1, v, reps, "ns");
	return 0;
}

/*
 * The variants take turns, one spawn each a round, starting with the next
 * one each round, so that whatever drifts in the VM meets them all alike.
 * Two records a variant: "spawn-V", all its spawns, and "spawn-V-fast",
 * its faster half, whose median is the lower quartile of all.  Under
 * icount a quarter to a half of the spawns meets a timer tick or an
 * allocator's refill, 70,000 instructions and more, in proportions that
 * move from run to run: the lower quartiles compare the work each variant
 * always does; the medians of all say what a typical spawn costs.
 * Address-space randomisation stays on: with it off, each variant is
 * measured at one layout, where its mappings happen to need a page-table
 * page more or less (the figures moved by 10,000 with the spawning
 * program's build), instead of over the layouts processes get.
 */
static int spawn(char *prog, char *func, char **preloads, int n, int reps)
{
	double (*v)[reps] = calloc(n, sizeof(*v));
	char env[4096], *argv[] = { prog, "once", func, NULL };
	char **envp, mode[256];
	int k, e = 0;

	/* The caller's environment, as a process has one, and LD_PRELOAD. */
	while (environ[e])
		e++;
	envp = calloc(e + 2, sizeof(*envp));
	if (v == NULL || envp == NULL) {
		free(v);
		free(envp);
		return 1;
	}
	e = 0;
	for (char **p = environ; *p; p++)
		if (strncmp(*p, "LD_PRELOAD=", 11))
			envp[e++] = *p;
	envp[e] = env;
	for (int i = 0; i < reps; i++)
		for (int j = 0; j < n; j++) {
			double t0 = now_ns();

			k = (i + j) % n;
			snprintf(env, sizeof(env), "LD_PRELOAD=%s",
				 strcmp(preloads[k], "-") ? preloads[k] : "");
			if (run(argv, envp, NULL)) {
				free(v);
				free(envp);
				return 1;
			}
			v[k][i] = now_ns() - t0;
		}
	for (k = 0; k < n; k++) {
		const char *base = strrchr(preloads[k], '/');

		base = base ? base + 1 : preloads[k];
		snprintf(mode, sizeof(mode), "spawn-%s",
			 !strcmp(preloads[k], "-") ? "plain" :
			 !strncmp(base, "libarc4", 7) ? "preload-shim" :
			 "preload-empty");
		record("start", "process", func, mode, 1, v[k], reps, "ns");
		strcat(mode, "-fast");	/* record() sorted v[k] */
		record("start", "process", func, mode, 1, v[k], (reps + 1) / 2,
		       "ns");
	}
	free(v);
	free(envp);
	return 0;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, res = -1;

	if (f && fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	if (f)
		fclose(f);
	return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static pthread_barrier_t drawn, done;
static long draws;

static void *drawer(void *arg)
{
	for (long i = 0; i < draws; i++)
		sink = arc4random();
	pthread_barrier_wait(&drawn);
	pthread_barrier_wait(&done);
	return arg;
}

static int threads(int n, long d, int reps)
{
	double v[reps];
	pthread_t *t = calloc(n, sizeof(*t));

	draws = d;
	for (int r = 0; r < reps; r++) {
		long before = rss_kib(), after;

		pthread_barrier_init(&drawn, NULL, n + 1);
		pthread_barrier_init(&done, NULL, n + 1);
		for (int i = 0; i < n; i++)
			if (pthread_create(&t[i], NULL, drawer, NULL))
				return 1;
		pthread_barrier_wait(&drawn);
		after = rss_kib();
		pthread_barrier_wait(&done);
		for (int i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&drawn);
		pthread_barrier_destroy(&done);
		v[r] = (double)(after - before) / n;
	}
	free(t);
	record("start", IMPL, "arc4random", "rss-per-thread", d, v, reps,
	       "KiB");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: start [-r REPEATS] first FUNC | spawn PROG FUNC PRELOAD... | threads N DRAWS\n");
	return 2;
}

int main(int argc, char **argv)
{
	int reps = 5, i = 1;

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		reps = atoi(argv[2]);
		i = 3;
	}
	if (reps < 1 || i >= argc)
		return usage();
	if (!strcmp(argv[i], "once") && i + 1 < argc)
		return once(argv[i + 1]);
	if (!strcmp(argv[i], "first") && i + 1 < argc)
		return first(argv[0], argv[i + 1], reps);
	if (!strcmp(argv[i], "spawn") && i + 3 < argc)
		return spawn(argv[i + 1], argv[i + 2], &argv[i + 3],
			     argc - i - 3, reps);
	if (!strcmp(argv[i], "threads") && i + 2 < argc)
		return threads(atoi(argv[i + 1]), atol(argv[i + 2]), reps);
	return usage();
}
