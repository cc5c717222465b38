// SPDX-License-Identifier: GPL-2.0
/*
 * One file shared by several threads: a strong read never waits for another
 * reader of the same file, and deterministic reads stay whole (each one
 * starts where the one before it ended, as on a regular file).
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
#include <sys/mman.h>
#include <sys/syscall.h>
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

/*
 * Start a reader into the registered memory and wait until the kernel
 * reports its fault: from then on it sits inside read() until resolved.
 */
static void stall_reader(struct __test_metadata *_metadata,
			 FIXTURE_DATA(shared) *self, struct reader *r)
{
	struct pollfd p = { .fd = self->uffd, .events = POLLIN };
	struct uffd_msg msg;

	ASSERT_EQ(0, reader_start(r, self->fd, self->stall, STALL_LEN));
	ASSERT_EQ(1, poll(&p, 1, 10000)) TH_LOG("the stalled read never faulted");
	ASSERT_EQ((ssize_t)sizeof(msg), read(self->uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
}

/* Fill the registered pages with zeros so the stalled read can go on. */
static void release_reader(struct __test_metadata *_metadata,
			   FIXTURE_DATA(shared) *self, struct reader *r)
{
	struct uffdio_zeropage z = {
		.range = { .start = (uintptr_t)self->stall, .len = STALL_LEN },
	};

	EXPECT_EQ(0, ioctl(self->uffd, UFFDIO_ZEROPAGE, &z));
	EXPECT_EQ(0, pthread_join(r->thread, NULL));
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

TEST_HARNESS_MAIN
