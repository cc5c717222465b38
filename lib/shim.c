// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shared machinery of the arc4 shim.
 *
 *   1. Environment:     arc4_legacy()
 *   2. Locking, fork:   arc4_lock(), arc4_unlock()
 *   3. ChaCha20:        arc4_chacha20_block()
 *   4. Strong sources:  /dev/arc4, getrandom(), abort()
 *   5. Strong buffer:   arc4_strong_u32(), arc4_strong_u64(), arc4_strong_bytes()
 *   6. Deterministic:   arc4_det_seed(), arc4_det_u32()
 *
 * Everything here is hidden; the family files wrap it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "shim.h"

#define ARC4_DEVICE "/dev/arc4"

/* ---- 1. Environment ------------------------------------------------- */

int arc4_legacy_state;	/* ARC4_LEGACY_UNKNOWN, _OFF or _ON */

/*
 * secure_getenv(): a set-user-ID program must not be talked into
 * deterministic rand() by whoever runs it.
 */
int arc4_legacy_lookup(void)
{
	const char *v = secure_getenv("ARC4_LEGACY");
	int s = (v && strcmp(v, "1") == 0) ? ARC4_LEGACY_ON : ARC4_LEGACY_OFF;
	int listed = s == ARC4_LEGACY_OFF ? arc4_policy_legacy() : 0;

	if (listed < 0)		/* re-entered while reading the policy */
		return 0;
	if (listed)
		s = ARC4_LEGACY_ON;
	__atomic_store_n(&arc4_legacy_state, s, __ATOMIC_RELAXED);
	return s == ARC4_LEGACY_ON;
}

/* ---- 2. Locking and fork -------------------------------------------- */

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

void arc4_lock(void)
{
	pthread_mutex_lock(&state_lock);
}

void arc4_unlock(void)
{
	pthread_mutex_unlock(&state_lock);
}

/* ---- 3. ChaCha20 ------------------------------------------------------ */

static inline uint32_t rotl32(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

static inline uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

#define QUARTER(a, b, c, d) do {				\
	a += b; d = rotl32(d ^ a, 16);				\
	c += d; b = rotl32(b ^ c, 12);				\
	a += b; d = rotl32(d ^ a, 8);				\
	c += d; b = rotl32(b ^ c, 7);				\
} while (0)

/*
 * One block of original ChaCha20: 20 rounds, 64-bit block counter in
 * words 12-13, 64-bit nonce in words 14-15.  This is the no-module half of
 * the deterministic contract; the device computes the same bytes.
 */
void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
			 uint64_t nonce, uint8_t out[64])
{
	uint32_t in[16], x[16];
	int i;

	in[0] = 0x61707865;	/* "expand 32-byte k" */
	in[1] = 0x3320646e;
	in[2] = 0x79622d32;
	in[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		in[4 + i] = load_le32(key + 4 * i);
	in[12] = (uint32_t)counter;
	in[13] = (uint32_t)(counter >> 32);
	in[14] = (uint32_t)nonce;
	in[15] = (uint32_t)(nonce >> 32);

	memcpy(x, in, sizeof(x));
	for (i = 0; i < 10; i++) {
		QUARTER(x[0], x[4], x[8], x[12]);
		QUARTER(x[1], x[5], x[9], x[13]);
		QUARTER(x[2], x[6], x[10], x[14]);
		QUARTER(x[3], x[7], x[11], x[15]);
		QUARTER(x[0], x[5], x[10], x[15]);
		QUARTER(x[1], x[6], x[11], x[12]);
		QUARTER(x[2], x[7], x[8], x[13]);
		QUARTER(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		store_le32(out + 4 * i, x[i] + in[i]);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(in, sizeof(in));
}

/* ---- 4. Strong sources ------------------------------------------------ */

/*
 * The process-wide strong descriptor.  A program may close it, or dup2()
 * something else over its number, at any time; before every read we check
 * with fstat() that it is still the character device we opened (same
 * st_rdev and inode) and with ARC4_IOC_GET_INFO that it is in strong mode.
 * A descriptor that fails the check is no longer ours: we forget it
 * without closing it.
 */
static int strong_fd = -1;
static dev_t strong_rdev;
static ino_t strong_ino;

/*
 * glibc 2.33 and later implement fstat() as fstatat(fd, "", AT_EMPTY_PATH),
 * which copies in and looks up the empty path: about six times the cost of
 * the fstat system call, on every refill.  Where the kernel's struct stat
 * is glibc's (x86-64), make the system call.
 */
static int fd_stat(int fd, struct stat *st)
{
#if defined(__x86_64__) && !defined(__ILP32__) && defined(SYS_fstat)
	return syscall(SYS_fstat, fd, st);
#else
	return fstat(fd, st);
#endif
}

static int fd_is(int fd, dev_t rdev, ino_t ino)
{
	struct stat st;

	return fd >= 0 && fd_stat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == rdev && st.st_ino == ino;
}

/* Open /dev/arc4, close-on-exec; record what it is. */
static int device_open(dev_t *rdev, ino_t *ino)
{
	struct stat st;
	int fd;

	do
		fd = open(ARC4_DEVICE, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -1;
	if (fd_stat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return -1;
	}
	*rdev = st.st_rdev;
	*ino = st.st_ino;
	return fd;
}

static int strong_fd_get(void)
{
	struct arc4_info info;

	if (strong_fd >= 0 &&
	    !(fd_is(strong_fd, strong_rdev, strong_ino) &&
	      ioctl(strong_fd, ARC4_IOC_GET_INFO, &info) == 0 &&
	      info.mode == ARC4_MODE_STRONG))
		strong_fd = -1;
	if (strong_fd < 0)
		strong_fd = device_open(&strong_rdev, &strong_ino);
	return strong_fd;
}

/*
 * fd_lock guards our record of the descriptor, not the read, so threads
 * refill in parallel; holding it across the read would not protect
 * against the program's own close() or dup2() anyway.  pread() rather
 * than read(): a strong stream ignores the offset, and pread() never
 * takes the VFS's file position lock, so refills never queue in the
 * kernel whatever the file's mode.
 */
static int device_fill(uint8_t *buf, size_t len)
{
	int fd, positional = 1;

	pthread_mutex_lock(&fd_lock);
	fd = strong_fd_get();
	pthread_mutex_unlock(&fd_lock);
	while (fd >= 0 && len > 0) {
		ssize_t n = positional ? pread(fd, buf, len, 0) :
					 read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ESPIPE && positional) {
			positional = 0;
			continue;
		}
		if (n <= 0)
			break;
		buf += n;
		len -= n;
	}
	return fd >= 0 && len == 0;
}

static int getrandom_fill(uint8_t *buf, size_t len, int raw)
{
	while (len > 0) {
		ssize_t n = raw ? syscall(SYS_getrandom, buf, len, 0) :
				  getrandom(buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		buf += n;
		len -= n;
	}
	return 1;
}

/*
 * Fill buf from /dev/arc4, else getrandom().  Both block until the kernel
 * RNG is ready, so early-boot callers wait rather than get weak bytes.
 * With neither source left there is nothing safe to return: abort.
 */
static __thread int tls_busy __attribute__((tls_model("initial-exec")));

static void strong_fill(uint8_t *buf, size_t len)
{
	int ok;

	/*
	 * Re-entered on this thread: something we called (a preloaded hook on
	 * open(), read() or mmap(), say) called arc4random() or rand().  Take
	 * no lock and call nothing interposable but the system call itself.
	 */
	if (arc4_unlikely(tls_busy)) {
		ok = getrandom_fill(buf, len, 1);
	} else {
		tls_busy = 1;
		ok = device_fill(buf, len) || getrandom_fill(buf, len, 0);
		tls_busy = 0;
	}
	if (ok)
		return;
	explicit_bzero(buf, len);
	abort();
}

/* ---- 5. Strong buffer ------------------------------------------------- */

/*
 * Each thread draws from its own mapping, refilled in one large read and
 * consumed from the end, every consumed byte zeroed at once.  The mapping
 * is MADV_WIPEONFORK: a child of any fork, the libc wrapper or a raw
 * system call, sees it zeroed, so avail == 0 and it refills from its own
 * reads.  pthread_atfork wipes the forking thread's buffer as well.  A
 * kernel without MADV_WIPEONFORK (before 4.14) gets no buffer at all:
 * every call reads its source, slower but never shared with a child.
 */
enum { STRONG_MAP = ARC4_STRONG_MAP };

_Static_assert(sizeof(struct arc4_strong) == STRONG_MAP, "one mapping");

__thread struct arc4_strong *arc4_tls_strong
	__attribute__((tls_model("initial-exec")));
#define tls_strong arc4_tls_strong
static __thread int tls_unbuffered __attribute__((tls_model("initial-exec")));

static pthread_once_t strong_once = PTHREAD_ONCE_INIT;
static pthread_key_t strong_key;

static void strong_wipe(struct arc4_strong *s)
{
	explicit_bzero(s, sizeof(*s));
}

static void strong_thread_exit(void *p)
{
	strong_wipe(p);
	munmap(p, STRONG_MAP);
	tls_strong = NULL;
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&state_lock);
	pthread_mutex_lock(&fd_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&fd_lock);
	pthread_mutex_unlock(&state_lock);
}

static void fork_child(void)
{
	if (tls_strong)
		strong_wipe(tls_strong);
	pthread_mutex_unlock(&fd_lock);
	pthread_mutex_unlock(&state_lock);
}

/*
 * At load time, not on first use: pthread_atfork() may allocate, and an
 * allocator that calls arc4random() must not find us half-initialised.
 */
__attribute__((constructor)) static void arc4_atfork_init(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void strong_once_init(void)
{
	pthread_key_create(&strong_key, strong_thread_exit);
}

static struct arc4_strong *strong_map(void)
{
	struct arc4_strong *s;

	s = mmap(NULL, STRONG_MAP, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	if (madvise(s, STRONG_MAP, MADV_WIPEONFORK) != 0) {
		munmap(s, STRONG_MAP);
		return NULL;
	}
	madvise(s, STRONG_MAP, MADV_DONTDUMP);
	if (pthread_setspecific(strong_key, s) != 0) {
		munmap(s, STRONG_MAP);
		return NULL;
	}
	return s;
}

/* Slow path: the thread's buffer is empty, or there is none yet. */
static struct arc4_strong *strong_refill(void)
{
	struct arc4_strong *s = tls_strong;

	/* Re-entered from a hook while refilling: leave the buffer alone. */
	if (arc4_unlikely(tls_busy || tls_unbuffered))
		return NULL;
	if (arc4_unlikely(s == NULL)) {
		tls_busy = 1;
		pthread_once(&strong_once, strong_once_init);
		s = strong_map();
		tls_busy = 0;
		if (s == NULL) {
			tls_unbuffered = 1;
			return NULL;
		}
		tls_strong = s;
	}
	/*
	 * Every consumed byte is already zero and the fill overwrites the
	 * rest, so there is nothing to wipe first (a 16 KiB memset per
	 * refill).  But avail must read 0 while the fill runs: a hook that
	 * re-enters must not take bytes the read is writing.
	 */
	s->avail = 0;
	strong_fill(s->buf, sizeof(s->buf));
	s->avail = sizeof(s->buf);
	return s;
}

/* Take len bytes when the buffer is short or missing: refill it first. */
static void strong_take_slow(void *out, size_t len)
{
	struct arc4_strong *s = strong_refill();

	if (s == NULL) {
		strong_fill(out, len);
		return;
	}
	arc4_strong_take(out, arc4_strong_claim(len), len);
}

/* The slow paths of the inline arc4_strong_u32() and _u64() (shim.h). */
uint32_t arc4_strong_u32_slow(void)
{
	uint32_t v;

	strong_take_slow(&v, sizeof(v));
	return v;
}

uint64_t arc4_strong_u64_slow(void)
{
	uint64_t v;

	strong_take_slow(&v, sizeof(v));
	return v;
}

void arc4_strong_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	const size_t chunk = sizeof(((struct arc4_strong *)0)->buf);

	/* A request as large as the buffer is itself a large read. */
	if (len >= chunk) {
		strong_fill(p, len);
		return;
	}
	while (len > 0) {
		struct arc4_strong *s = tls_strong;
		size_t n;

		if (s == NULL || s->avail == 0) {
			s = strong_refill();
			if (s == NULL) {
				strong_fill(p, len);
				return;
			}
		}
		n = len < s->avail ? len : s->avail;
		arc4_strong_take(p, arc4_strong_claim(n), n);
		p += n;
		len -= n;
	}
}

/* ---- 6. Deterministic streams ----------------------------------------- */

/*
 * A stream's descriptor is its own open of /dev/arc4 seeded once; nothing
 * ever re-seeds it.  A new seed opens a new descriptor, so after fork() a
 * child that seeds again leaves its parent's stream (the shared open file)
 * alone, and one that does not reads the same bytes at the same position.
 * Reads are pread() at our position, never the shared file offset.  If
 * the descriptor is lost (closed, dup2()ed over, chroot without /dev) we
 * open and seed another, or compute the stream ourselves: the same bytes.
 */
static int det_fd_valid(struct arc4_det *d)
{
	uint8_t check[sizeof(d->check)];
	int ok;

	if (!fd_is(d->fd, d->rdev, d->ino))
		return 0;
	ok = pread(d->fd, check, sizeof(check), 0) == (ssize_t)sizeof(check) &&
	     memcmp(check, d->check, sizeof(check)) == 0;
	explicit_bzero(check, sizeof(check));
	return ok;
}

static void det_fd_open(struct arc4_det *d)
{
	int fd = device_open(&d->rdev, &d->ino);

	d->fd = -1;
	if (fd < 0)
		return;
	if (ioctl(fd, ARC4_IOC_SEED, &d->seed) != 0 ||
	    pread(fd, d->check, sizeof(d->check), 0) !=
			(ssize_t)sizeof(d->check)) {
		close(fd);
		return;
	}
	d->fd = fd;
}

void arc4_det_seed(struct arc4_det *d, uint64_t nonce, uint32_t seed)
{
	if (d->fd >= 0 && det_fd_valid(d))
		close(d->fd);
	explicit_bzero(d, sizeof(*d));
	store_le32(d->seed.key, seed);
	d->seed.nonce = nonce;
	det_fd_open(d);
}

static void det_compute(struct arc4_det *d)
{
	size_t off;

	for (off = 0; off < sizeof(d->buf); off += 64)
		arc4_chacha20_block(d->seed.key, (d->base + off) / 64,
				    d->seed.nonce, d->buf + off);
	d->len = sizeof(d->buf);
}

static int det_read(struct arc4_det *d)
{
	size_t got = 0;

	if (d->fd >= 0 && !det_fd_valid(d))
		d->fd = -1;
	if (d->fd < 0)
		det_fd_open(d);
	while (d->fd >= 0 && got < sizeof(d->buf)) {
		ssize_t n = pread(d->fd, d->buf + got, sizeof(d->buf) - got,
				  d->base + got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		got += n;
	}
	d->len = got;
	return d->fd >= 0;
}

static void det_refill(struct arc4_det *d)
{
	d->base = d->pos - d->pos % sizeof(d->buf);
	if (!det_read(d))
		det_compute(d);
}

uint32_t arc4_det_u32(struct arc4_det *d)
{
	uint32_t v;

	if (d->pos < d->base || d->pos + 4 > d->base + d->len)
		det_refill(d);
	v = load_le32(d->buf + (d->pos - d->base));
	d->pos += 4;
	return v;
}
