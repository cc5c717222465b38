// SPDX-License-Identifier: GPL-2.0
/*
 * The read paths besides read(), all served by the device's read_iter:
 * readv() and preadv(), splice() to a pipe, and io_uring reads, in both
 * modes.  A deterministic read must give exactly the bytes pread() gives
 * at the same offsets and move the position as read() does; a strong one
 * must fill every byte it counts, with output that never repeats.
 */
#include <sys/uio.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

#ifdef ARC4_HAVE_LIBURING
#include <liburing.h>
#endif

enum { BLK = 16 };

FIXTURE(iter) {
	int fd;
	off_t start;
};

FIXTURE_VARIANT(iter) {
	bool deterministic;
};

FIXTURE_VARIANT_ADD(iter, strong) {
	.deterministic = false,
};

FIXTURE_VARIANT_ADD(iter, deterministic) {
	.deterministic = true,
};

FIXTURE_SETUP(iter)
{
	uint8_t key[32];

	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	self->start = 0;
	if (variant->deterministic) {
		random_fill(key, sizeof(key));
		ASSERT_EQ(0, arc4_seed(self->fd, key, random_u64()));
		/* An odd start: reads begin inside a ChaCha20 block. */
		self->start = 100003;
		ASSERT_EQ(self->start, lseek(self->fd, self->start, SEEK_SET));
	}
}

FIXTURE_TEARDOWN(iter)
{
	if (self->fd >= 0)
		close(self->fd);
}

static int cmp_block(const void *a, const void *b)
{
	return memcmp(a, b, BLK);
}

/*
 * Strong output, checked without an oracle: every 16-byte block of @buf
 * differs from every other (a repeat, or a stretch left zero, is 2^-128
 * likely per pair otherwise).
 */
static bool blocks_all_differ(const uint8_t *buf, size_t len)
{
	size_t n = len / BLK, i;
	uint8_t *copy = malloc(n * BLK);
	bool ok = true;

	if (!copy)
		return false;
	memcpy(copy, buf, n * BLK);
	qsort(copy, n, BLK, cmp_block);
	for (i = 1; i < n && ok; i++)
		ok = memcmp(copy + (i - 1) * BLK, copy + i * BLK, BLK) != 0;
	free(copy);
	return ok;
}

/*
 * What a read of @len bytes that gave @buf should have given: in
 * deterministic mode the bytes pread() gives at @pos, in strong mode
 * output that never repeats.  Also checks the file position is @after.
 */
static void check_output(struct __test_metadata *_metadata, int fd,
			 bool deterministic, const uint8_t *buf, size_t len,
			 off_t pos, off_t after)
{
	if (deterministic) {
		uint8_t *want = malloc(len);
		int d;

		ASSERT_NE(NULL, want);
		ASSERT_EQ((ssize_t)len, pread(fd, want, len, pos));
		d = first_diff(buf, want, len);
		EXPECT_EQ(-1, d) TH_LOG("first difference from pread() at byte %d of %zu (offset %lld)",
					d, len, (long long)pos);
		free(want);
		EXPECT_EQ(after, lseek(fd, 0, SEEK_CUR))
			TH_LOG("file position after the read");
	} else {
		EXPECT_TRUE(blocks_all_differ(buf, len))
			TH_LOG("strong output of %zu bytes repeats a 16-byte block or left one zero",
			       len);
	}
}

/* Segment sizes crossing block, chunk, page and 64 KiB segment bounds. */
static const size_t seg_sizes[] = { 1, 0, 63, 4096, 5000, 65536 + 7, 31 };
#define NSEGS (sizeof(seg_sizes) / sizeof(seg_sizes[0]))

static size_t make_iov(struct iovec *iov, uint8_t *buf)
{
	size_t total = 0, i;

	for (i = 0; i < NSEGS; i++) {
		iov[i].iov_base = buf + total;
		iov[i].iov_len = seg_sizes[i];
		total += seg_sizes[i];
	}
	return total;
}

TEST_F(iter, readv_fills_every_segment_with_the_stream_in_order)
{
	uint8_t buf[80 * 1024], again[sizeof(buf)];
	struct iovec iov[NSEGS];
	size_t total = make_iov(iov, buf);

	ASSERT_EQ((ssize_t)total, readv(self->fd, iov, NSEGS));
	check_output(_metadata, self->fd, variant->deterministic, buf, total,
		     self->start, self->start + total);

	/* The next readv goes on from there, never back. */
	make_iov(iov, again);
	ASSERT_EQ((ssize_t)total, readv(self->fd, iov, NSEGS));
	check_output(_metadata, self->fd, variant->deterministic, again,
		     total, self->start + total, self->start + 2 * total);
	memcpy(buf + total, again, total);
	if (!variant->deterministic)
		EXPECT_TRUE(blocks_all_differ(buf, 2 * total))
			TH_LOG("two strong readv()s gave a common block");
}

TEST_F(iter, preadv_reads_at_its_offset)
{
	uint8_t buf[80 * 1024];
	struct iovec iov[NSEGS];
	size_t total = make_iov(iov, buf);
	off_t at = 7 * 64 + 5;

	ASSERT_EQ((ssize_t)total, preadv(self->fd, iov, NSEGS, at));
	/* The position stays where it was. */
	check_output(_metadata, self->fd, variant->deterministic, buf, total,
		     at, self->start);
}

/* splice() @len bytes from the device into a pipe and read them back. */
static ssize_t splice_through_pipe(int fd, loff_t *off, uint8_t *buf,
				   size_t len)
{
	size_t done = 0;
	int p[2];

	if (pipe(p))
		return -1;
	/* Room for the whole read, so one splice() may carry it. */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	while (done < len) {
		ssize_t n = splice(fd, off, p[1], NULL, len - done, 0);

		if (n <= 0 || read_full(p[0], buf + done, n) != n) {
			done = n < 0 ? (size_t)-1 : done;
			break;
		}
		done += n;
	}
	close(p[0]);
	close(p[1]);
	return done;
}

TEST_F(iter, splice_to_a_pipe_carries_the_stream)
{
	static uint8_t buf[200 * 1024];
	size_t len = sizeof(buf) - 3;
	ssize_t n;

	n = splice_through_pipe(self->fd, NULL, buf, len);
	ASSERT_EQ((ssize_t)len, n) TH_LOG("splice: %s", strerror(errno));
	check_output(_metadata, self->fd, variant->deterministic, buf, len,
		     self->start, self->start + len);
}

TEST_F(iter, splice_at_an_offset_leaves_the_position)
{
	static uint8_t buf[9000];
	loff_t off = 3 * 4096 - 1;
	ssize_t n;

	n = splice_through_pipe(self->fd, &off, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), n) TH_LOG("splice: %s", strerror(errno));
	if (variant->deterministic)
		EXPECT_EQ((loff_t)(3 * 4096 - 1 + sizeof(buf)), off);
	check_output(_metadata, self->fd, variant->deterministic, buf,
		     sizeof(buf), 3 * 4096 - 1, self->start);
}

#ifdef ARC4_HAVE_LIBURING
/* One io_uring read or readv; its result, or a negative errno. */
static int uring_read(struct io_uring *ring, int fd, struct iovec *iov,
		      unsigned int nr, int64_t off)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	if (nr == 1)
		io_uring_prep_read(sqe, fd, iov->iov_base, iov->iov_len, off);
	else
		io_uring_prep_readv(sqe, fd, iov, nr, off);
	ret = io_uring_submit(ring);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

TEST_F(iter, io_uring_reads_carry_the_stream)
{
	static uint8_t buf[80 * 1024], vbuf[80 * 1024];
	struct iovec one = { buf, 70000 }, iov[NSEGS];
	size_t total = make_iov(iov, vbuf);
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret == -ENOSYS || ret == -EPERM)
		SKIP(return, "io_uring unavailable: %s", strerror(-ret));
	ASSERT_EQ(0, ret) TH_LOG("io_uring_queue_init: %s", strerror(-ret));

	/* At the file position (offset -1), which it then moves. */
	ASSERT_EQ((int)one.iov_len, uring_read(&ring, self->fd, &one, 1, -1));
	check_output(_metadata, self->fd, variant->deterministic, buf,
		     one.iov_len, self->start, self->start + one.iov_len);

	/* A readv at an offset, which leaves the position. */
	ASSERT_EQ((int)total, uring_read(&ring, self->fd, iov, NSEGS, 999));
	check_output(_metadata, self->fd, variant->deterministic, vbuf,
		     total, 999, self->start + one.iov_len);

	if (!variant->deterministic) {
		memcpy(buf + one.iov_len, vbuf, 4096);
		EXPECT_TRUE(blocks_all_differ(buf, one.iov_len + 4096))
			TH_LOG("two strong io_uring reads gave a common block");
	}
	io_uring_queue_exit(&ring);
}
#else
TEST_F(iter, io_uring_reads_carry_the_stream)
{
	SKIP(return, "built without liburing (liburing-dev)");
}
#endif

TEST_HARNESS_MAIN
