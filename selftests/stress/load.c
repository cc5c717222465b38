// SPDX-License-Identifier: GPL-2.0
/*
 * Load: many processes and threads read strong output at once, from
 * their own files and from one shared file description, while the budgets
 * rekey streams and another thread reseeds; not one 16-byte block of all
 * that output may repeat.
 *
 * ARC4_LOAD_MIB (default 32) sets the output collected per variant.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "stress.h"

FIXTURE(load) {
	long saved_rekey;
	uint8_t *arena;
	size_t len;
};

FIXTURE_VARIANT(load) {
	int procs, threads;
	int sharing;		/* one of the SHARE_* values below */
	long rekey_bytes;	/* 0: leave the module's budget alone */
	int disrupt;		/* a thread reseeds the shared file meanwhile */
};

enum { SHARE_NONE, SHARE_PER_PROCESS, SHARE_ALL };

FIXTURE_VARIANT_ADD(load, own_files) {
	.procs = 4, .threads = 4, .sharing = SHARE_NONE,
};

FIXTURE_VARIANT_ADD(load, threads_share_a_file_per_process) {
	.procs = 4, .threads = 4, .sharing = SHARE_PER_PROCESS,
	.rekey_bytes = 1 << 20,
};

FIXTURE_VARIANT_ADD(load, all_share_one_file_small_budget_and_reseeds) {
	.procs = 4, .threads = 4, .sharing = SHARE_ALL,
	.rekey_bytes = 65536, .disrupt = 1,
};

FIXTURE_SETUP(load)
{
	int fd = arc4_open(0);

	if (fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	close(fd);
	self->saved_rekey = read_long_file(ARC4_PARAM("rekey_bytes"));
	if (variant->rekey_bytes) {
		if (geteuid())
			SETUP_SKIP("needs root to set rekey_bytes");
		ASSERT_EQ(0, write_long_file(ARC4_PARAM("rekey_bytes"),
					     variant->rekey_bytes));
	}
	self->len = stress_knob("ARC4_LOAD_MIB", 32) << 20;
	self->arena = mmap(NULL, self->len, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->arena);
}

FIXTURE_TEARDOWN(load)
{
	if (variant->rekey_bytes && self->saved_rekey > 0)
		write_long_file(ARC4_PARAM("rekey_bytes"), self->saved_rekey);
	if (self->arena && self->arena != MAP_FAILED)
		munmap(self->arena, self->len);
}

struct worker {
	pthread_t tid;
	int fd;
	uint8_t *p, *end;
	uint64_t rng;
	int err;
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Reads are multiples of 16 bytes stored back to back, so every block
 * checked is one that the device produced 16-byte aligned in one read.
 * A short read (a reseed racing a read may stop it) just reads on.
 */
static void *worker_run(void *arg)
{
	struct worker *w = arg;

	while (w->p < w->end) {
		size_t want = 16 * (1 + xorshift(&w->rng) % 4096);
		ssize_t n;

		if (want > (size_t)(w->end - w->p))
			want = w->end - w->p;
		n = read(w->fd, w->p, want);
		if (n <= 0 || n % 16) {
			w->err = n < 0 ? errno : EIO;
			break;
		}
		w->p += n;
	}
	return NULL;
}

/* One process: its threads fill [p, p + len); exit status 0 if all went well. */
static int process_run(const FIXTURE_VARIANT(load) *v, int shared_fd,
		       uint8_t *p, size_t len, int id)
{
	struct worker w[64];
	size_t per = len / v->threads / 16 * 16;
	int own = -1, i, bad = 0;

	if (v->sharing == SHARE_PER_PROCESS)
		own = arc4_open(0);
	for (i = 0; i < v->threads; i++) {
		w[i].fd = v->sharing == SHARE_ALL ? shared_fd :
			  v->sharing == SHARE_PER_PROCESS ? own : arc4_open(0);
		if (w[i].fd < 0)
			return 2;
		w[i].p = p + i * per;
		w[i].end = i == v->threads - 1 ? p + len : w[i].p + per;
		w[i].rng = 0x9e3779b97f4a7c15ULL * (id * 64 + i + 1);
		w[i].err = 0;
		if (pthread_create(&w[i].tid, NULL, worker_run, &w[i]))
			return 3;
	}
	for (i = 0; i < v->threads; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err) {
			fprintf(stderr, "# worker %d.%d: %s\n", id, i,
				strerror(w[i].err));
			bad = 1;
		}
		if (w[i].p != w[i].end)
			bad = 1;
	}
	return bad;
}

struct disruptor {
	int fd;
	volatile int stop;
	unsigned long calls, failures;
};

/* Reseeds, returns to strong mode and asks for info, over and over. */
static void *disruptor_run(void *arg)
{
	struct disruptor *d = arg;
	struct arc4_info info;

	while (!d->stop) {
		if (ioctl(d->fd, ARC4_IOC_RESEED) ||
		    ioctl(d->fd, ARC4_IOC_STRONG) ||
		    arc4_info(d->fd, &info) || info.mode != ARC4_MODE_STRONG)
			d->failures++;
		d->calls++;
		usleep(200);
	}
	return NULL;
}

TEST_F_TIMEOUT(load, no_16_byte_block_of_concurrent_output_repeats, 600)
{
	size_t per = self->len / variant->procs / 16 * 16, blocks;
	struct disruptor d = { .fd = -1 };
	struct arc4_info before = { 0 }, after = { 0 };
	pthread_t dtid;
	double t0, secs;
	int shared = -1, i, st, failed = 0;
	size_t dups;

	if (variant->sharing == SHARE_ALL) {
		shared = arc4_open(0);
		ASSERT_LE(0, shared);
		ASSERT_EQ(0, arc4_info(shared, &before));
	}
	if (variant->disrupt) {
		d.fd = shared;
		ASSERT_EQ(0, pthread_create(&dtid, NULL, disruptor_run, &d));
	}
	t0 = now_sec();
	for (i = 0; i < variant->procs; i++) {
		size_t len = i == variant->procs - 1 ?
			     self->len - i * per : per;
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid)
			_exit(process_run(variant, shared,
					  self->arena + i * per, len, i));
	}
	for (i = 0; i < variant->procs; i++) {
		ASSERT_LT(0, wait(&st));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	secs = now_sec() - t0;
	if (variant->disrupt) {
		d.stop = 1;
		pthread_join(dtid, NULL);
		EXPECT_EQ(0, d.failures) TH_LOG("reseed/strong/info failed");
	}
	ASSERT_EQ(0, failed) TH_LOG("%d reader processes failed", failed);

	if (shared >= 0) {
		/*
		 * The byte budget holds under concurrency: a strong stream
		 * rekeys at the latest one segment (64 KiB) after its budget.
		 */
		ASSERT_EQ(0, arc4_info(shared, &after));
		if (variant->rekey_bytes)
			EXPECT_LE(self->len / (variant->rekey_bytes + 65536),
				  after.reseeds - before.reseeds)
				TH_LOG("%llu rekeys for %zu bytes",
				       (unsigned long long)(after.reseeds -
							    before.reseeds),
				       self->len);
		ksft_print_msg("load: shared stream rekeyed %llu times (%lu reseed/strong calls)\n",
			       (unsigned long long)(after.reseeds -
						    before.reseeds),
			       d.calls);
		close(shared);
	}

	blocks = self->len / 16;
	dups = block16_repeats((struct block16 *)self->arena, blocks);
	ksft_print_msg("load: %zu blocks of 16 bytes from %d processes x %d threads, %zu repeats, %.1f MiB/s\n",
		       blocks, variant->procs, variant->threads, dups,
		       self->len / secs / (1 << 20));
	EXPECT_EQ(0, dups) TH_LOG("a 16-byte block repeated");
}

TEST_HARNESS_MAIN
