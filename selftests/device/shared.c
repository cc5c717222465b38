// SPDX-License-Identifier: GPL-2.0
/*
 * One file shared by several threads: a strong read never waits for another
 * reader of the same file, and deterministic reads stay whole (each one
 * starts where the one before it ended, as on a regular file).  SEED and
 * STRONG wait for a deterministic read in flight, so the new stream starts
 * at 0 whatever the old read did, and a process stuck waiting can be killed.
 * A long read that holds no position lock (strong, or pread()) stops where
 * SEED or STRONG changes the stream under it: it never mixes two streams.
 *
 * A reader is stalled for as long as the test likes by reading into memory
 * registered with userfaultfd: its copy_to_user() waits for the fault to be
 * resolved, inside read(), with the VFS's position lock held if the file has
 * one.  Nothing here depends on timing except how long a test waits before
 * it calls a reader stuck; a loaded machine can only make a pass slower.
 */
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

enum { STALL_LEN = 8192, SMALL_LEN = 32 };

struct reader {
	int fd;
	uint8_t *buf;
	size_t len;
	ssize_t ret;
	int done;		/* set when read() returned */
	pthread_t thread;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	r->ret = read(r->fd, r->buf, r->len);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int reader_done(struct reader *r)
{
	return __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);
}

static int reader_start(struct reader *r, int fd, uint8_t *buf, size_t len)
{
	r->fd = fd;
	r->buf = buf;
	r->len = len;
	r->done = 0;
	return pthread_create(&r->thread, NULL, reader_main, r);
}

/* Wait up to ms milliseconds for the reader to return; 1 if it did. */
static int reader_wait(struct reader *r, int ms)
{
	struct timespec tick = { 0, 1000000 };

	while (!reader_done(r) && ms-- > 0)
		nanosleep(&tick, NULL);
	return reader_done(r);
}

/* A thread that issues one ARC4_IOC_SEED or ARC4_IOC_STRONG. */
struct seeder {
	int fd;
	unsigned long cmd;
	struct arc4_seed seed;
	pid_t tid;
	int ret;
	int done;		/* set when ioctl() returned */
	pthread_t thread;
};

static void *seeder_main(void *arg)
{
	struct seeder *s = arg;

	__atomic_store_n(&s->tid, gettid(), __ATOMIC_RELEASE);
	s->ret = ioctl(s->fd, s->cmd, &s->seed);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int seeder_start(struct seeder *s, int fd, unsigned long cmd,
			const uint8_t key[32], uint64_t nonce)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->cmd = cmd;
	memcpy(s->seed.key, key, sizeof(s->seed.key));
	s->seed.nonce = nonce;
	return pthread_create(&s->thread, NULL, seeder_main, s);
}

/*
 * 1 if task tid of process pid sleeps inside ioctl(): /proc says "running"
 * for a task on a CPU or runnable, the system call's number and arguments
 * for one that sleeps in it.
 */
static int sleeps_in_ioctl(pid_t pid, pid_t tid)
{
	char path[64], buf[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == SYS_ioctl;
}

/*
 * Wait up to 10 s for the seeder to either return or sleep inside its
 * ioctl(); 1 if it sleeps there.  The wait ends on an event, not a timer:
 * on a slow machine it only takes longer.
 */
static int seeder_wait_blocked(struct seeder *s)
{
	struct timespec tick = { 0, 1000000 };
	int ms = 10000;
	pid_t tid;

	for (; ms > 0; ms--) {
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			return 0;
		tid = __atomic_load_n(&s->tid, __ATOMIC_ACQUIRE);
		if (tid && sleeps_in_ioctl(getpid(), tid))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

/* The file position as /proc shows it, for a strong file lseek() refuses. */
static long long fdinfo_pos(int fd)
{
	char path[64], buf[256];
	long long pos = -1;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	if (sscanf(buf, "pos: %lld", &pos) != 1)
		return -1;
	return pos;
}

FIXTURE(shared) {
	int fd;
	int uffd;
	uint8_t *stall;		/* STALL_LEN bytes registered with uffd */
	uint8_t key[32];
	uint64_t nonce;
};

FIXTURE_SETUP(shared)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	self->uffd = -1;
	self->stall = MAP_FAILED;
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	self->uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (self->uffd < 0)
		SETUP_SKIP("userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_API, &api));
	self->stall = mmap(NULL, STALL_LEN, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->stall);
	reg.range.start = (uintptr_t)self->stall;
	reg.range.len = STALL_LEN;
	ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_REGISTER, &reg));
	random_fill(self->key, sizeof(self->key));
	self->nonce = random_u64();
}

FIXTURE_TEARDOWN(shared)
{
	if (self->stall != MAP_FAILED)
		munmap(self->stall, STALL_LEN);
	if (self->uffd >= 0)
		close(self->uffd);
	if (self->fd >= 0)
		close(self->fd);
}

/* Wait until the kernel reports a read's fault on the registered memory. */
static void await_fault(struct __test_metadata *_metadata, int uffd)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	ASSERT_EQ(1, poll(&p, 1, 10000)) TH_LOG("the stalled read never faulted");
	ASSERT_EQ((ssize_t)sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
}

/* Fill len registered bytes at start with zeros; the read goes on. */
static void zero_and_join(struct __test_metadata *_metadata, int uffd,
			  void *start, size_t len, pthread_t thread)
{
	struct uffdio_zeropage z = {
		.range = { .start = (uintptr_t)start, .len = len },
	};

	EXPECT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &z));
	EXPECT_EQ(0, pthread_join(thread, NULL));
}

/*
 * Start a reader into the registered memory and wait until the kernel
 * reports its fault: from then on it sits inside read() until resolved.
 */
static void stall_reader(struct __test_metadata *_metadata,
			 FIXTURE_DATA(shared) *self, struct reader *r)
{
	ASSERT_EQ(0, reader_start(r, self->fd, self->stall, STALL_LEN));
	await_fault(_metadata, self->uffd);
}

static void release_reader(struct __test_metadata *_metadata,
			   FIXTURE_DATA(shared) *self, struct reader *r)
{
	zero_and_join(_metadata, self->uffd, self->stall, STALL_LEN, r->thread);
}

TEST_F(shared, a_strong_read_does_not_wait_for_a_stalled_reader)
{
	struct reader stalled, small;
	uint8_t buf[SMALL_LEN];
	int returned;

	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, reader_start(&small, self->fd, buf, sizeof(buf)));
	returned = reader_wait(&small, 10000);
	/* Both readers still ran through the same file when it returned. */
	EXPECT_FALSE(reader_done(&stalled));
	release_reader(_metadata, self, &stalled);
	EXPECT_EQ(0, pthread_join(small.thread, NULL));
	ASSERT_TRUE(returned) TH_LOG("read(32) queued behind a stalled read");
	EXPECT_EQ(SMALL_LEN, small.ret);
	EXPECT_EQ(STALL_LEN, stalled.ret);
}

TEST_F(shared, deterministic_reads_stay_whole_behind_a_stalled_reader)
{
	uint8_t buf[SMALL_LEN], want[SMALL_LEN];
	struct reader stalled, small;
	int early;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, reader_start(&small, self->fd, buf, sizeof(buf)));
	/* A read that skipped the position lock would return at once. */
	early = reader_wait(&small, 300);
	release_reader(_metadata, self, &stalled);
	EXPECT_EQ(0, pthread_join(small.thread, NULL));
	EXPECT_FALSE(early) TH_LOG("read(32) overtook a stalled read");
	ASSERT_EQ(STALL_LEN, stalled.ret);
	ASSERT_EQ(SMALL_LEN, small.ret);
	/* The small read began where the stalled one ended. */
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, STALL_LEN,
				   want, sizeof(want)));
	EXPECT_EQ(0, memcmp(want, buf, sizeof(buf)));
	EXPECT_EQ(STALL_LEN + SMALL_LEN, lseek(self->fd, 0, SEEK_CUR));
}

TEST_F(shared, returning_to_strong_mode_drops_the_position_lock)
{
	struct reader stalled, small;
	uint8_t buf[SMALL_LEN];
	int returned;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_STRONG));
	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, reader_start(&small, self->fd, buf, sizeof(buf)));
	returned = reader_wait(&small, 10000);
	release_reader(_metadata, self, &stalled);
	EXPECT_EQ(0, pthread_join(small.thread, NULL));
	EXPECT_TRUE(returned);
}

/*
 * A read of the old stream is stalled after SMALL_LEN bytes of it were
 * read; SEED comes from another thread, then the read goes on.  The read
 * keeps its old bytes, and the new stream still starts at 0: the read's
 * end position must not land after the SEED's reset.
 */
TEST_F(shared, a_seed_waits_for_the_deterministic_read_in_flight)
{
	uint8_t key2[32], buf[SMALL_LEN], want[STALL_LEN];
	uint64_t nonce2 = random_u64();
	struct reader stalled;
	struct seeder seeder;
	int blocked;

	random_fill(key2, sizeof(key2));
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(SMALL_LEN, read(self->fd, buf, sizeof(buf)));
	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, seeder_start(&seeder, self->fd, ARC4_IOC_SEED, key2,
				  nonce2));
	blocked = seeder_wait_blocked(&seeder);
	release_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, pthread_join(seeder.thread, NULL));
	EXPECT_TRUE(blocked) TH_LOG("SEED returned during a read in flight");
	ASSERT_EQ(0, seeder.ret);
	/* The stalled read is whole, and all of the old stream. */
	ASSERT_EQ(STALL_LEN, stalled.ret);
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, SMALL_LEN, want,
				   STALL_LEN));
	EXPECT_EQ(0, memcmp(want, self->stall, STALL_LEN));
	/* The new seed's stream starts at 0. */
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR))
		TH_LOG("the new stream starts after the old read's end");
	ASSERT_EQ(SMALL_LEN, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, ref_keystream(key2, nonce2, 0, want, SMALL_LEN));
	EXPECT_EQ(0, memcmp(want, buf, SMALL_LEN));
}

TEST_F(shared, strong_waits_for_the_deterministic_read_in_flight)
{
	uint8_t buf[SMALL_LEN];
	struct reader stalled;
	struct seeder seeder;
	struct arc4_info info;
	int blocked;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(SMALL_LEN, read(self->fd, buf, sizeof(buf)));
	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, seeder_start(&seeder, self->fd, ARC4_IOC_STRONG,
				  self->key, 0));
	blocked = seeder_wait_blocked(&seeder);
	release_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, pthread_join(seeder.thread, NULL));
	EXPECT_TRUE(blocked) TH_LOG("STRONG returned during a read in flight");
	ASSERT_EQ(0, seeder.ret);
	ASSERT_EQ(STALL_LEN, stalled.ret);
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(ARC4_MODE_STRONG, info.mode);
	/* A strong file has no position to seek; /proc still shows f_pos. */
	EXPECT_EQ(0, fdinfo_pos(self->fd))
		TH_LOG("the old read's end position outlived STRONG");
}

/*
 * A strong read has no position, so it holds no position lock and SEED
 * does not wait for it.  When it returns, after SEED and deterministic
 * reads moved the position, the position must still be where those reads
 * left it: the strong read must not put back the position it began with,
 * which would make the next read serve the seeded stream's bytes again.
 */
TEST_F(shared, a_strong_read_in_flight_keeps_no_position_to_put_back)
{
	enum { N = 100 };
	uint8_t buf[N], want[N];
	struct arc4_info info;
	struct reader stalled;

	stall_reader(_metadata, self, &stalled);
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce))
		TH_LOG("SEED failed during a strong read in flight");
	ASSERT_EQ(N, read(self->fd, buf, N));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 0, want, N));
	ASSERT_EQ(0, memcmp(want, buf, N));
	release_reader(_metadata, self, &stalled);
	ASSERT_EQ(STALL_LEN, stalled.ret);
	EXPECT_EQ(N, lseek(self->fd, 0, SEEK_CUR))
		TH_LOG("the strong read's start position came back");
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(N, info.position);
	/* The next read goes on with bytes N.. of the seeded stream. */
	ASSERT_EQ(N, read(self->fd, buf, N));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, N, want, N));
	EXPECT_EQ(0, memcmp(want, buf, N))
		TH_LOG("the seeded stream's first bytes were served again");
}

/*
 * SEED from a second process sharing the file waits for the stalled read;
 * SIGKILL ends that wait, and the seed it never applied changes nothing.
 */
TEST_F(shared, a_seed_waiting_for_a_stalled_read_can_be_killed)
{
	struct timespec tick = { 0, 1000000 };
	uint8_t buf[SMALL_LEN], want[SMALL_LEN];
	int blocked = 0, dead = 0, status = 0, ms;
	struct reader stalled;
	pid_t pid;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	stall_reader(_metadata, self, &stalled);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(arc4_seed(self->fd, self->key, self->nonce + 1) ? 1 : 0);
	for (ms = 10000; ms > 0 && !blocked; ms--) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			dead = 1;
			break;
		}
		blocked = sleeps_in_ioctl(pid, pid);
		if (!blocked)
			nanosleep(&tick, NULL);
	}
	if (blocked) {
		kill(pid, SIGKILL);
		for (ms = 10000; ms > 0 && !dead; ms--) {
			dead = waitpid(pid, &status, WNOHANG) == pid;
			if (!dead)
				nanosleep(&tick, NULL);
		}
	}
	release_reader(_metadata, self, &stalled);
	if (!dead)
		waitpid(pid, &status, 0);
	ASSERT_TRUE(blocked) TH_LOG("SEED did not wait for the read in flight");
	ASSERT_TRUE(dead) TH_LOG("SIGKILL did not end SEED's wait");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* The old stream goes on after the stalled read. */
	ASSERT_EQ(STALL_LEN, stalled.ret);
	ASSERT_EQ(SMALL_LEN, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, STALL_LEN, want,
				   sizeof(want)));
	EXPECT_EQ(0, memcmp(want, buf, sizeof(buf)));
}

/*
 * The module serves a long read in 64 KiB segments, each begun under the
 * stream lock, and a read never mixes two streams: when SEED or STRONG
 * changes the stream between two segments, the read stops after the first
 * and returns what it has, all of the old stream.  The read is stalled in
 * its first segment (its first page registered with userfaultfd) while the
 * stream changes.  A strong read, and a pread() of a deterministic file,
 * hold no position lock, so the change does not wait for them.
 */
enum { SEGMENT = 64 * 1024, LONG_LEN = 2 * SEGMENT };

struct long_read {
	int fd;
	off_t off;		/* pread() there; -1: read() */
	uint8_t *buf;		/* LONG_LEN bytes, the first page registered */
	ssize_t ret;
	pthread_t thread;
};

static void *long_read_main(void *arg)
{
	struct long_read *r = arg;

	r->ret = r->off < 0 ? read(r->fd, r->buf, LONG_LEN) :
			      pread(r->fd, r->buf, LONG_LEN, r->off);
	return NULL;
}

/* Start the read and wait until it faults on its first page. */
static void long_read_stall(struct __test_metadata *_metadata,
			    FIXTURE_DATA(shared) *self, struct long_read *r,
			    off_t off)
{
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	r->fd = self->fd;
	r->off = off;
	r->buf = mmap(NULL, LONG_LEN, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r->buf);
	reg.range.start = (uintptr_t)r->buf;
	reg.range.len = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_REGISTER, &reg));
	ASSERT_EQ(0, pthread_create(&r->thread, NULL, long_read_main, r));
	await_fault(_metadata, self->uffd);
}

static void long_read_release(struct __test_metadata *_metadata,
			      FIXTURE_DATA(shared) *self, struct long_read *r)
{
	zero_and_join(_metadata, self->uffd, r->buf, sysconf(_SC_PAGESIZE),
		      r->thread);
}

TEST_F(shared, a_long_pread_stops_where_a_seed_changes_the_stream)
{
	uint64_t nonce2 = random_u64();
	struct long_read r;
	uint8_t key2[32];
	uint8_t *want;

	random_fill(key2, sizeof(key2));
	want = malloc(SEGMENT);
	ASSERT_NE(NULL, want);
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	long_read_stall(_metadata, self, &r, 0);
	ASSERT_EQ(0, arc4_seed(self->fd, key2, nonce2))
		TH_LOG("SEED failed during a pread() in flight");
	long_read_release(_metadata, self, &r);
	EXPECT_EQ(SEGMENT, r.ret)
		TH_LOG("the read went on with the new stream, or stopped early");
	/* What it returned is the old stream's, from its offset. */
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 0, want, SEGMENT));
	EXPECT_EQ(0, memcmp(want, r.buf, SEGMENT));
	munmap(r.buf, LONG_LEN);
	free(want);
}

TEST_F(shared, a_long_strong_read_stops_where_strong_renews_the_stream)
{
	struct long_read r;

	long_read_stall(_metadata, self, &r, -1);
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_STRONG))
		TH_LOG("STRONG failed during a strong read in flight");
	long_read_release(_metadata, self, &r);
	EXPECT_EQ(SEGMENT, r.ret)
		TH_LOG("the read went on with the new key, or stopped early");
	munmap(r.buf, LONG_LEN);
}

/*
 * A SEED during a strong read makes the stream deterministic: the strong
 * read stops at its segment, never going on with the seeded stream's
 * bytes, and the next read() starts the seeded stream at position 0.
 */
TEST_F(shared, a_long_strong_read_stops_where_a_seed_makes_it_deterministic)
{
	uint64_t nonce2 = random_u64();
	uint8_t key2[32], got[SMALL_LEN], want[SMALL_LEN];
	struct long_read r;

	random_fill(key2, sizeof(key2));
	long_read_stall(_metadata, self, &r, -1);
	ASSERT_EQ(0, arc4_seed(self->fd, key2, nonce2))
		TH_LOG("SEED failed during a strong read in flight");
	long_read_release(_metadata, self, &r);
	EXPECT_EQ(SEGMENT, r.ret)
		TH_LOG("the strong read went on with the seeded stream, or stopped early");
	ASSERT_EQ(0, ref_keystream(key2, nonce2, 0, want, sizeof(want)));
	EXPECT_NE(0, memcmp(want, r.buf + SEGMENT - sizeof(want), sizeof(want)));
	ASSERT_EQ(SMALL_LEN, read(self->fd, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)))
		TH_LOG("the seeded stream does not start at position 0");
	munmap(r.buf, LONG_LEN);
}

TEST_HARNESS_MAIN
