// SPDX-License-Identifier: GPL-2.0
/*
 * Faults and churn: unload/load cycles with thousands of opens between
 * them lose no kernel memory, opens race with unloads without harm, and a
 * process may hold far more open streams than the usual file limit.
 *
 * ARC4_CHURN_CYCLES (default 30) and ARC4_CHURN_OPENS (default 2000) size
 * the reload test, ARC4_RACE_CYCLES (default 100) the unload race and
 * ARC4_MANY_FILES (default 50000) the open-file test.
 */
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "stress.h"

/*
 * Loads and unloads go straight to finit_module() and delete_module(),
 * without forking modprobe, so that hundreds of cycles stay cheap.
 * modprobe itself loads the module first, with its dependencies.
 */
static char ko_path[4096];

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int mod_load(void)
{
	int fd = open(ko_path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

static int mod_unload(void)
{
	return syscall(SYS_delete_module, "arc4dev", O_NONBLOCK);
}

static int mod_loaded(void)
{
	return !access("/sys/module/arc4dev", F_OK);
}

/* Open the device, waiting a little for devtmpfs to create the node. */
static int open_after_load(void)
{
	int i, fd = -1;

	for (i = 0; i < 2000 && fd < 0; i++) {
		fd = arc4_open(0);
		if (fd < 0)
			usleep(1000);
	}
	return fd;
}

struct memsnap {
	long sunreclaim, slab, vmalloc, percpu, memfree;
};

static void snap(struct memsnap *m)
{
	sync();
	write_file("/proc/sys/vm/drop_caches", "3");
	usleep(100000);
	m->sunreclaim = meminfo_kb("SUnreclaim");
	m->slab = meminfo_kb("Slab");
	m->vmalloc = meminfo_kb("VmallocUsed");
	m->percpu = meminfo_kb("Percpu");
	m->memfree = meminfo_kb("MemFree");
}

FIXTURE(churn) {
	int ready;
};

FIXTURE_SETUP(churn)
{
	FILE *p;

	if (geteuid())
		SETUP_SKIP("needs root");
	if (!mod_loaded())
		SETUP_SKIP("arc4dev not loaded");
	p = popen("modinfo -n arc4dev", "r");
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, fgets(ko_path, sizeof(ko_path), p));
	pclose(p);
	ko_path[strcspn(ko_path, "\n")] = 0;
	self->ready = 1;
}

FIXTURE_TEARDOWN(churn)
{
	/* Leave the module loaded for whatever runs next. */
	if (self->ready && !mod_loaded())
		run("modprobe arc4dev");
}

/* Open n streams, use each (strong and deterministic), close them all. */
static int open_use_close(int *fds, int n)
{
	uint8_t key[32] = { 1 }, buf[64];
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		fds[i] = arc4_open(0);
		if (fds[i] < 0)
			return -1;
		if (read(fds[i], buf, sizeof(buf)) != sizeof(buf))
			bad++;
		if (i % 3 == 0 && (arc4_seed(fds[i], key, i) ||
				   pread(fds[i], buf, 32, i) != 32))
			bad++;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	return bad;
}

TEST_F_TIMEOUT(churn, reload_cycles_with_thousands_of_opens_lose_no_memory, 600)
{
	unsigned long cycles = stress_knob("ARC4_CHURN_CYCLES", 30);
	unsigned long opens = stress_knob("ARC4_CHURN_OPENS", 2000);
	struct memsnap before, after;
	struct rlimit rl = { opens + 64, opens + 64 };
	int *fds = calloc(opens, sizeof(int));
	unsigned long c;
	long grew, leak_if_one_per_open;
	int fd;

	ASSERT_NE(NULL, fds);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	/* One cycle first, so that one-time allocations are not counted. */
	ASSERT_EQ(0, open_use_close(fds, opens));
	ASSERT_EQ(0, mod_unload());
	ASSERT_EQ(0, mod_load());
	snap(&before);
	for (c = 0; c < cycles; c++) {
		fd = open_after_load();
		ASSERT_LE(0, fd) TH_LOG("cycle %lu: no device", c);
		close(fd);
		ASSERT_EQ(0, open_use_close(fds, opens))
			TH_LOG("cycle %lu: a stream misbehaved", c);
		ASSERT_EQ(0, mod_unload())
			TH_LOG("cycle %lu: unload: %s", c, strerror(errno));
		ASSERT_EQ(0, mod_load())
			TH_LOG("cycle %lu: load: %s", c, strerror(errno));
	}
	fd = open_after_load();
	ASSERT_LE(0, fd);
	close(fd);
	snap(&after);
	ksft_print_msg("churn: %lu unload/load cycles, %lu opens each (%lu in all)\n",
		       cycles, opens, cycles * opens);
	ksft_print_msg("churn: memory before: SUnreclaim %ld kB, Slab %ld kB, VmallocUsed %ld kB, Percpu %ld kB, MemFree %ld kB\n",
		       before.sunreclaim, before.slab, before.vmalloc,
		       before.percpu, before.memfree);
	ksft_print_msg("churn: memory after:  SUnreclaim %ld kB, Slab %ld kB, VmallocUsed %ld kB, Percpu %ld kB, MemFree %ld kB\n",
		       after.sunreclaim, after.slab, after.vmalloc,
		       after.percpu, after.memfree);
	/*
	 * A stream is a small kmalloc object.  Leaking one per open would
	 * grow unreclaimable slab by at least 64 bytes times the opens;
	 * allow an eighth of that for the kernel's own noise.
	 */
	leak_if_one_per_open = cycles * opens * 64 / 1024;
	grew = after.sunreclaim - before.sunreclaim;
	/*
	 * On the debug kernel KASAN's quarantine and stack depot keep freed
	 * memory on purpose; kmemleak judges leaks there instead.
	 */
	if (getenv("ARC4_NO_MEMCHECK")) {
		ksft_print_msg("churn: ARC4_NO_MEMCHECK set: figures only\n");
		free(fds);
		return;
	}
	EXPECT_LT(grew, leak_if_one_per_open / 8 + 256)
		TH_LOG("unreclaimable slab grew %ld kB", grew);
	/* The module image is vmalloc'ed: a lost one per cycle would show. */
	EXPECT_LT(after.vmalloc - before.vmalloc, (long)cycles * 8 + 256)
		TH_LOG("vmalloc grew %ld kB", after.vmalloc - before.vmalloc);
	EXPECT_LT(after.percpu - before.percpu, 64);
	free(fds);
}

struct racer {
	pthread_t tid;
	volatile int *stop;
	unsigned long opened, refused, bad;
};

/*
 * Open, read and close as fast as possible while the module comes and
 * goes: an open either fails cleanly (no node, or no driver behind it) or
 * gives a stream that works until it is closed.
 */
static void *racer_run(void *arg)
{
	struct racer *r = arg;
	uint8_t buf[256];

	while (!*r->stop) {
		int fd = arc4_open(0);

		if (fd < 0) {
			if (errno != ENOENT && errno != ENXIO && errno != ENODEV)
				r->bad++;
			r->refused++;
			continue;
		}
		r->opened++;
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			r->bad++;
		close(fd);
		/* Leave the unloader a window now and then. */
		if (r->opened % 4 == 0)
			usleep(100);
	}
	return NULL;
}

TEST_F_TIMEOUT(churn, opens_racing_unloads_fail_cleanly_or_work, 600)
{
	unsigned long cycles = stress_knob("ARC4_RACE_CYCLES", 100);
	unsigned long done = 0, busy = 0, opened = 0, refused = 0;
	struct racer r[4];
	volatile int stop = 0;
	double deadline = now_sec() + 120;
	int i;

	for (i = 0; i < 4; i++) {
		r[i] = (struct racer){ .stop = &stop };
		ASSERT_EQ(0, pthread_create(&r[i].tid, NULL, racer_run, &r[i]));
	}
	while (done < cycles && now_sec() < deadline) {
		if (mod_unload()) {
			/*
			 * EAGAIN (O_NONBLOCK) while a racer holds a file:
			 * the module stays.
			 */
			EXPECT_EQ(EAGAIN, errno);
			busy++;
			if (errno != EAGAIN)
				break;
			continue;
		}
		EXPECT_EQ(0, mod_load()) TH_LOG("load: %s", strerror(errno));
		done++;
	}
	stop = 1;
	for (i = 0; i < 4; i++) {
		pthread_join(r[i].tid, NULL);
		EXPECT_EQ(0, r[i].bad);
		opened += r[i].opened;
		refused += r[i].refused;
	}
	ksft_print_msg("churn: %lu unloads raced %lu opens (%lu refused cleanly, %lu unloads refused busy)\n",
		       done, opened, refused, busy);
	EXPECT_EQ(cycles, done);
	if (!mod_loaded())
		ASSERT_EQ(0, mod_load());
}

TEST_F_TIMEOUT(churn, far_more_open_streams_than_the_usual_file_limit, 600)
{
	unsigned long n = stress_knob("ARC4_MANY_FILES", 50000);
	struct rlimit rl = { n + 64, n + 64 };
	struct block16 *b = calloc(n, sizeof(*b));
	int *fds = calloc(n, sizeof(int));
	unsigned long i;
	pid_t pid;
	int st;

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, fds);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	for (i = 0; i < n; i++) {
		fds[i] = arc4_open(0);
		ASSERT_LE(0, fds[i]) TH_LOG("open %lu: %s", i, strerror(errno));
		ASSERT_EQ(16, read(fds[i], &b[i], 16));
	}
	EXPECT_EQ((long)n, read_long_file("/sys/module/arc4dev/refcnt"));
	/* A child inherits them all, and its exit closes them all. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		uint8_t x[16];

		_exit(read(fds[n / 2], x, 16) == 16 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, read_long_file("/sys/module/arc4dev/refcnt"));
	ksft_print_msg("churn: %lu streams open at once, first blocks all distinct: %s\n",
		       n, block16_repeats(b, n) ? "no" : "yes");
	EXPECT_EQ(0, block16_repeats(b, n));
	free(b);
	free(fds);
}

TEST_HARNESS_MAIN
