// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Deterministic streams: arc4_det_seed(), arc4_det_u32().
 *
 * A stream is ARC4_IOC_SEED's ChaCha20 keystream for a key and nonce
 * derived from the caller's seed (the rule is in arc4random.h), read from
 * /dev/arc4 or computed by chacha20.c: the same bytes either way.  Every
 * function here runs under arc4_lock() and leaves errno as it found it.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "chacha20.h"
#include "det.h"
#include "shim.h"

/*
 * A stream's descriptor is its own open of /dev/arc4 seeded once; nothing
 * ever re-seeds it.  A new seed opens a new descriptor, so after fork() a
 * child that seeds again leaves its parent's stream (the shared open file)
 * alone, and one that does not reads the same bytes at the same position.
 * Reads are pread() at our position, never the shared file offset.  If
 * the descriptor is lost (closed, dup2()ed over, chroot without /dev) we
 * open and seed another, or compute the stream ourselves: the same bytes.
 * A device that refuses the seed, or answers it with other bytes than the
 * documented stream, is not asked again.
 *
 * Re-entry: the lock's owner may call in again from a signal handler or a
 * preloaded hook on the open(), ioctl() or pread() below, while d->inuse
 * says an outer call is in the middle of d.  The nested call then takes
 * its position with an atomic add (one step the outer call cannot be
 * split around) and computes its value, touching neither the buffer nor
 * the descriptor: every position is served once and the outer call finds
 * d as it left it.
 *
 * open(), pread() and close() are cancellation points: seeding and
 * refilling run with cancellation off, so no thread is cancelled holding
 * the state lock; taking a value from the buffer makes no call at all.  A nested seeding of that stream cannot be served
 * without pulling the stream from under the outer call: it aborts.
 */
static int det_refused;

static int det_fd_valid(struct arc4_det *d)
{
	uint8_t check[sizeof(d->check)];
	int ok;

	if (!arc4_fd_is(d->fd, d->rdev, d->ino))
		return 0;
	ok = pread(d->fd, check, sizeof(check), 0) == (ssize_t)sizeof(check) &&
	     memcmp(check, d->check, sizeof(check)) == 0;
	explicit_bzero(check, sizeof(check));
	return ok;
}

static void det_fd_open(struct arc4_det *d)
{
	uint8_t want[64];
	int fd;

	d->fd = -1;
	if (__atomic_load_n(&det_refused, __ATOMIC_RELAXED))
		return;
	fd = arc4_device_open(&d->rdev, &d->ino);
	if (fd < 0)
		return;
	arc4_chacha20_block(d->seed.key, 0, d->seed.nonce, want);
	if (ioctl(fd, ARC4_IOC_SEED, &d->seed) != 0 ||
	    pread(fd, d->check, sizeof(d->check), 0) !=
			(ssize_t)sizeof(d->check) ||
	    memcmp(d->check, want, sizeof(d->check)) != 0) {
		close(fd);
		__atomic_store_n(&det_refused, 1, __ATOMIC_RELAXED);
	} else {
		d->fd = fd;
	}
	explicit_bzero(want, sizeof(want));
}

void arc4_det_seed(struct arc4_det *d, uint64_t nonce, uint32_t seed)
{
	int saved_errno = errno, cancel;

	if (d->inuse)
		arc4_die("srand_deterministic() or srandom_deterministic() "
			 "called from a signal handler or hook while the same "
			 "thread was inside that family");
	d->inuse = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cancel = arc4_cancel_off();
	if (d->fd > 0 && det_fd_valid(d))
		close(d->fd);
	d->fd = -1;
	explicit_bzero(&d->seed, sizeof(d->seed));
	arc4_store_le32(d->seed.key, seed);
	d->seed.nonce = nonce;
	d->pos = d->base = d->len = 0;
	det_fd_open(d);
	arc4_cancel_restore(cancel);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	d->inuse = 0;
	errno = saved_errno;
}

/* The buffer computed here, as arc4_stream computes it (SIMD where it can). */
static void det_compute(struct arc4_det *d)
{
	uint32_t in[16];

	arc4_chacha20_init(in, d->seed.key, d->base / 64, d->seed.nonce);
	arc4_chacha20_blocks(in, d->buf, d->cap / 64);
	explicit_bzero(in, sizeof(in));
	d->len = d->cap;
}

/*
 * pread() at a 64-bit stream offset.  Where off_t has 32 bits (i386) that
 * is pread64(): pread() would wrap the offset at 4 GiB and read the start
 * of the stream again.  Elsewhere pread() itself, not pread64() (what
 * _FILE_OFFSET_BITS=64 would call): the symbol a preloaded hook wraps.
 */
static ssize_t det_pread(int fd, void *buf, size_t len, uint64_t off)
{
#ifdef __LP64__
	return pread(fd, buf, len, off);
#else
	return pread64(fd, buf, len, off);
#endif
}

static int det_read(struct arc4_det *d)
{
	size_t got = 0;

	if (d->fd > 0 && !det_fd_valid(d))
		d->fd = -1;
	if (d->fd <= 0)
		det_fd_open(d);
	while (d->fd > 0 && got < d->cap) {
		ssize_t n = det_pread(d->fd, d->buf + got,
				      d->cap - got, d->base + got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		got += n;
	}
	d->len = got;
	return d->fd > 0;
}

/*
 * The buffer, mapped at the first refill: a process that never seeds
 * keeps none.  Where no mapping can be had, one block in d serves (the
 * same bytes, fetched 64 at a time).
 */
static void det_buf_map(struct arc4_det *d)
{
	void *m = mmap(NULL, ARC4_DET_BUF, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m != MAP_FAILED) {
		d->buf = m;
		d->cap = ARC4_DET_BUF;
	} else {
		d->buf = d->block;
		d->cap = sizeof(d->block);
	}
}

/* Load the buffer that holds stream offset p. */
static void det_refill(struct arc4_det *d, uint64_t p)
{
	int saved_errno = errno, cancel = arc4_cancel_off();

	if (!d->buf)
		det_buf_map(d);
	d->len = 0;
	d->base = p - p % d->cap;
	if (!det_read(d))
		det_compute(d);
	arc4_cancel_restore(cancel);
	errno = saved_errno;
}

/* A nested call's value: one block computed, nothing of d touched. */
static uint32_t det_u32_computed(struct arc4_det *d, uint64_t p)
{
	uint8_t block[64];
	uint32_t v;

	arc4_chacha20_block(d->seed.key, p / 64, d->seed.nonce, block);
	v = arc4_load_le32(block + p % 64);
	explicit_bzero(block, sizeof(block));
	return v;
}

uint32_t arc4_det_u32(struct arc4_det *d)
{
	uint64_t p;
	uint32_t v;

	if (arc4_unlikely(d->inuse)) {
		p = __atomic_fetch_add(&d->pos, 4, __ATOMIC_RELAXED);
		return det_u32_computed(d, p);
	}
	d->inuse = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p = __atomic_fetch_add(&d->pos, 4, __ATOMIC_RELAXED);
	if (p < d->base || p + 4 > d->base + d->len)
		det_refill(d, p);
	v = arc4_load_le32(d->buf + (p - d->base));
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	d->inuse = 0;
	return v;
}
