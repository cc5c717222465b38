// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate: the guest side of scripts/hibernate-test, the only program of
 * its VM's initramfs.  It opens strong streams, maps the generation page,
 * starts two shim processes (static and dynamic, shim_child.h) with full
 * buffers and a thread that watches the page, prints "# hibernate: ready"
 * and hibernates to the swap disk.  The first boot writes the image and
 * powers off; the host resumes two copies of it, and in each the write to
 * /sys/power/state returns here.  Then it checks that the page had moved
 * before the watcher ran again (no task of a resumed copy sees the image's
 * generation) and prints, on one line, what the copy hands out next: 64
 * bytes of each old stream, 64 of a new one, 16 values of each shim
 * process.  The host compares the two copies' lines: nothing may be shared.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/arc4.h>
#include <linux/random.h>

#include "../device/pm_cycle.h"
#include "shim_child.h"

enum {
	STREAMS = 8,
	PEEK = 64,		/* bytes of each stream a copy prints */
	SHIMS = 2,
};

/* The hibernation's pause is longer than this, in ns (50 s or more here). */
#define GAP_NS 20000000000LL

#define SHIM_DYNAMIC "/vmfork-shim"

static const volatile struct arc4_generation *gen;
static volatile int watching = 1;

/* Around the hibernation's pause: its length, the values read on each side. */
static uint64_t gen_before, gen_after_gap;
static int64_t pause_ns;
static bool pending, late;

static int64_t boottime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/*
 * Spins until told to stop, on CPU 0.  The freezer stops it during the
 * hibernation; the boot clock jumps by the time the copy was off (more
 * than GAP_NS), and what it reads right after that is what every
 * task of the copy sees first.  Just before the hibernation it gets a
 * real-time priority, so that it runs as soon as the scheduler lets it
 * after the thaw.  That is not always before what follows the thaw
 * (PM_POST_HIBERNATION's notifiers): a module that moved the page only
 * there passed this check too in the test VM.  After the pause it drops
 * the priority.
 */
static void *watch(void *arg)
{
	int64_t last = boottime_ns(), t1, t2;
	uint64_t g = gen->generation, prev;
	struct sched_param other = { 0 };
	bool dropped = false;

	(void)arg;
	/*
	 * A read that straddled the pause leaves the answer to the next one,
	 * which comes even when main, resumed first, has said stop: then it
	 * is late (after the PM notifiers) and says little.
	 */
	while (watching || pending) {
		prev = g;
		t1 = boottime_ns();
		g = gen->generation;
		t2 = boottime_ns();
		if (pending) {
			/* The pause came between the last two clock reads. */
			gen_after_gap = g;
			pending = false;
			late = !watching;
		} else if (!pause_ns && t1 - last > GAP_NS) {
			pause_ns = t1 - last;
			gen_before = prev;
			gen_after_gap = g;
		} else if (!pause_ns && t2 - t1 > GAP_NS) {
			/* g may have been read on either side: the next one. */
			pause_ns = t2 - t1;
			gen_before = prev;
			pending = true;
		}
		if (pause_ns && !dropped)
			dropped = !pthread_setschedparam(pthread_self(),
							 SCHED_OTHER, &other);
		last = t2;
	}
	return NULL;
}

static void hex(const uint8_t *p, size_t n)
{
	while (n--)
		printf("%02x", *p++);
}

/* The page's next value: it skips 0. */
static uint64_t gen_next(uint64_t g)
{
	return g + 1 ? g + 1 : 1;
}

int main(void)
{
	uint8_t out[(STREAMS + 1) * PEEK + SHIMS * SHIM_BYTES], b[16];
	int fd[STREAMS + 1], i, rnd, fails = 0;
	struct shim_child shim[SHIMS];
	pthread_t watcher;
	struct sched_param fifo = { .sched_priority = 1 };
	pthread_attr_t attr;
	cpu_set_t cpu0;
	uint64_t g0;
	bool ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..3\n");
	for (i = 0; i < STREAMS; i++) {
		fd[i] = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
		if (fd[i] < 0 || read(fd[i], b, sizeof(b)) != sizeof(b)) {
			printf("Bail out! /dev/arc4: %s\n", strerror(errno));
			return 1;
		}
	}
	gen = mmap(NULL, sizeof(*gen), PROT_READ, MAP_SHARED, fd[0], 0);
	if (gen == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < SHIMS; i++)
		if (!shim_child_start(&shim[i],
				      i == 1 ? SHIM_DYNAMIC : NULL)) {
			printf("Bail out! shim process %d did not start\n", i);
			return 1;
		}
	g0 = gen->generation;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setaffinity_np(&attr, sizeof(cpu0), &cpu0) ||
	    pthread_create(&watcher, &attr, watch, NULL)) {
		printf("Bail out! the watcher on CPU 0: %s\n", strerror(errno));
		return 1;
	}
	/*
	 * The kernel RNG reseeds now, so that it does not on its own schedule
	 * in the first seconds after the resume: until it does, it gives both
	 * copies the same bytes.
	 */
	rnd = open("/dev/random", O_RDONLY | O_CLOEXEC);
	if (rnd < 0 || ioctl(rnd, RNDRESEEDCRNG)) {
		printf("Bail out! RNDRESEEDCRNG: %s\n", strerror(errno));
		return 1;
	}
	close(rnd);
	printf("# hibernate: ready, generation %llu\n", (unsigned long long)g0);
	errno = pthread_setschedparam(watcher, SCHED_FIFO, &fifo);
	if (errno) {
		printf("Bail out! SCHED_FIFO: %s\n", strerror(errno));
		return 1;
	}
	if (pm_write("/sys/power/disk", "shutdown") ||
	    pm_write("/sys/power/state", "disk")) {
		printf("Bail out! hibernation: %s\n", strerror(errno));
		return 1;
	}
	/* Only a resumed copy gets here. */
	watching = 0;
	pthread_join(watcher, NULL);
	printf("# hibernate: resumed, generation %llu, the watcher saw %llu before and %llu first after\n",
	       (unsigned long long)gen->generation,
	       (unsigned long long)gen_before,
	       (unsigned long long)gen_after_gap);
	/*
	 * Exactly two moves: the resumed kernel's syscore resume, before any
	 * task thaws, and the PM notifier after.  One alone is the notifier:
	 * the tasks ran on the image's generation first.
	 */
	ok = gen->generation == gen_next(gen_next(g0));
	fails += !ok;
	printf("%sok 1 the generation moved twice: before the tasks thawed and after\n",
	       ok ? "" : "not ");
	ok = pause_ns && !pending && gen_before == g0 &&
	     gen_after_gap != g0;
	fails += !ok;
	if (late)
		printf("# hibernate: the watcher's first read after the pause came after main resumed (after the PM notifiers): check 2 is weak in this copy\n");
	printf("%sok 2 no task of the copy saw the image's generation after the resume (pause %lld ms)\n",
	       ok ? "" : "not ", (long long)(pause_ns / 1000000));
	fd[STREAMS] = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	ok = true;
	for (i = 0; i <= STREAMS; i++)
		ok = ok && fd[i] >= 0 && read(fd[i], out + i * PEEK, PEEK) == PEEK;
	for (i = 0; i < SHIMS; i++)
		ok = shim_child_next(&shim[i], out + (STREAMS + 1) * PEEK +
			       i * SHIM_BYTES) && ok;
	fails += !ok;
	printf("%sok 3 the copy read its streams and shim processes\n",
	       ok ? "" : "not ");
	printf("# hibernate: after ");
	hex(out, sizeof(out));
	printf("\n");
	return fails ? 1 : 0;
}
