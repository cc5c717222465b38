// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shared machinery of the arc4 shim.
 *
 *   1. Environment:     arc4_legacy(), arc4_die()
 *   2. Locking, fork:   arc4_lock(), arc4_unlock()
 *   3. Strong sources:  /dev/arc4 (arc4_device_open(), arc4_fd_is()),
 *                       getrandom(), abort()
 *   4. Strong buffer:   arc4_strong_u32(), arc4_strong_u64(), arc4_strong_bytes()
 *
 * The deterministic streams are in det.c, the ChaCha20 they fall back on
 * in chacha20.c.  Everything here is hidden; the family files wrap it.
 *
 * The shim lives in other people's processes.  Every entry point here
 * leaves errno as it found it; descriptors are close-on-exec, never 0, 1
 * or 2, and never leaked; a signal handler or a preloaded hook that calls
 * the shim while the same thread is inside it gets strong bytes that no
 * other call gets, and never waits for a lock its own thread holds.
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
#include <time.h>
#include <linux/futex.h>

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

/*
 * Nothing safe to return: say why on stderr, then abort().  A raw write:
 * a preloaded write() could call back into us.
 */
void arc4_die(const char *why)
{
	static const char prefix[] = "arc4: ";

	if (syscall(SYS_write, 2, prefix, sizeof(prefix) - 1) > 0 &&
	    syscall(SYS_write, 2, why, strlen(why)) > 0)
		syscall(SYS_write, 2, "\n", 1);
	abort();
}

/* ---- 2. Locking and fork -------------------------------------------- */

/*
 * The state lock is a futex word holding its owner's token (LOCK_WAITERS
 * set while someone sleeps on it), not a pthread mutex: a thread must be
 * able to tell in one atomic step whether it holds the lock itself.  A
 * signal handler, or a preloaded hook on a call made under the lock, that
 * re-enters the shim on the owning thread then goes on as the owner
 * (tls_nested counts its levels) instead of waiting for itself forever.
 * Other threads stay out.  What a nested call may do with the state it
 * interrupted is up to each family: the deterministic streams serve it
 * without touching their buffer (det.c); the rand48 and initstate()
 * families run glibc's *_r() functions on it, which is what glibc's own
 * unlocked drand48() does.
 */
enum { LOCK_WAITERS = 1u << 31 };

static unsigned int state_lock;		/* owner's token | LOCK_WAITERS, or 0 */
static unsigned int lock_tokens;	/* the last token handed out */
static __thread unsigned int tls_token __attribute__((tls_model("initial-exec")));
static __thread unsigned int tls_nested __attribute__((tls_model("initial-exec")));
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

/* This thread's token: non-zero, without LOCK_WAITERS, its own. */
static unsigned int lock_token(void)
{
	unsigned int t = tls_token;

	if (arc4_unlikely(t == 0)) {
		do
			t = __atomic_add_fetch(&lock_tokens, 1,
					       __ATOMIC_RELAXED) & ~LOCK_WAITERS;
		while (t == 0);
		tls_token = t;
	}
	return t;
}

static void lock_futex(int op, unsigned int val)
{
	int saved_errno = errno;

	syscall(SYS_futex, &state_lock, op | FUTEX_PRIVATE_FLAG, val, NULL,
		NULL, 0);
	errno = saved_errno;
}

void arc4_lock(void)
{
	unsigned int me = lock_token(), cur = 0;

	if (__atomic_compare_exchange_n(&state_lock, &cur, me, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	if ((cur & ~LOCK_WAITERS) == me) {
		tls_nested++;
		return;
	}
	for (;;) {
		if (cur != 0) {
			if (!(cur & LOCK_WAITERS) &&
			    !__atomic_compare_exchange_n(&state_lock, &cur,
							 cur | LOCK_WAITERS, 0,
							 __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
				continue;
			lock_futex(FUTEX_WAIT, cur | LOCK_WAITERS);
		}
		/* Woken, or it was free: others may still sleep. */
		cur = 0;
		if (__atomic_compare_exchange_n(&state_lock, &cur,
						me | LOCK_WAITERS, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
}

void arc4_unlock(void)
{
	if (tls_nested) {
		tls_nested--;
		return;
	}
	if (__atomic_exchange_n(&state_lock, 0, __ATOMIC_RELEASE) &
	    LOCK_WAITERS)
		lock_futex(FUTEX_WAKE, 1);
}

/* ---- 3. Strong sources ------------------------------------------------ */

/*
 * Whether /dev/arc4 is worth opening.  A node there that fails the check
 * below (another device, an ioctl filter) is refused for the life of the
 * process: opening it again would give the same answer.  A missing one is
 * looked for again at most once a second by the coarse monotonic clock
 * (no system call), and at once after fork(), so a module loaded later is
 * found without a failed open() on every refill.
 */
static int device_refused;
static unsigned long device_missing_ms;	/* when last not found; 0: found */

static unsigned long coarse_ms(void)
{
	struct timespec ts;
	unsigned long ms;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) != 0)
		return 1;
	ms = (unsigned long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return ms ? ms : 1;
}

static int device_may_open(void)
{
	unsigned long last = __atomic_load_n(&device_missing_ms,
					     __ATOMIC_RELAXED);
	unsigned long now;

	if (__atomic_load_n(&device_refused, __ATOMIC_RELAXED))
		return 0;
	if (last == 0)
		return 1;
	now = coarse_ms();
	if (now - last < 1000)
		return 0;
	/* One thread looks; the others wait for the next second. */
	return __atomic_compare_exchange_n(&device_missing_ms, &last, now, 0,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

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

int arc4_fd_is(int fd, dev_t rdev, ino_t ino)
{
	struct stat st;

	return fd >= 0 && fd_stat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == rdev && st.st_ino == ino;
}

/* An arc4 stream in strong mode: the ioctl's magic is arc4's alone. */
static int fd_is_strong_stream(int fd)
{
	struct arc4_info info;

	return ioctl(fd, ARC4_IOC_GET_INFO, &info) == 0 &&
	       info.mode == ARC4_MODE_STRONG;
}

/*
 * Keep our descriptors off 0, 1 and 2: a program that closed them would
 * meet ours on its next open() or dup2() of stderr.
 */
static int fd_above_stdio(int fd)
{
	int high;

	if (fd > 2)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return high;
}

/*
 * Open /dev/arc4, close-on-exec, above 2, checked to be an arc4 stream in
 * strong mode; record what it is.  A node that fails the check is closed
 * and refused for good.
 */
int arc4_device_open(dev_t *rdev, ino_t *ino)
{
	struct stat st;
	int fd;

	if (!device_may_open())
		return -1;
	do
		fd = open(ARC4_DEVICE, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd >= 0)
		fd = fd_above_stdio(fd);
	if (fd < 0) {
		__atomic_store_n(&device_missing_ms, coarse_ms(),
				 __ATOMIC_RELAXED);
		return -1;
	}
	if (fd_stat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    !fd_is_strong_stream(fd)) {
		close(fd);
		__atomic_store_n(&device_refused, 1, __ATOMIC_RELAXED);
		return -1;
	}
	__atomic_store_n(&device_missing_ms, 0, __ATOMIC_RELAXED);
	*rdev = st.st_rdev;
	*ino = st.st_ino;
	return fd;
}

/*
 * The process-wide strong descriptor.  A program may close it, or dup2()
 * something else over its number, at any time; before every read we check
 * with fstat() that it is still the character device we opened (same
 * st_rdev and inode) and with ARC4_IOC_GET_INFO that it is in strong mode.
 * A number that fails the check is no longer ours: we forget it without
 * closing it (it is the program's now).
 */
static int strong_fd = -1;
static dev_t strong_rdev;
static ino_t strong_ino;

static int strong_fd_get(void)
{
	int fd = strong_fd;

	if (fd >= 0 && !(arc4_fd_is(fd, strong_rdev, strong_ino) &&
			 fd_is_strong_stream(fd)))
		fd = -1;
	if (fd < 0)
		fd = arc4_device_open(&strong_rdev, &strong_ino);
	__atomic_store_n(&strong_fd, fd, __ATOMIC_RELAXED);
	return fd;
}

/*
 * Read len bytes of fd, or of getrandom() for fd FROM_GETRANDOM; raw: by
 * system calls, which nothing can interpose.
 */
enum { FROM_GETRANDOM = -1 };

static int fill_from(int fd, uint8_t *buf, size_t len, int raw)
{
	int positional = 1;

	while (len > 0) {
		ssize_t n;

		if (fd == FROM_GETRANDOM)
			n = raw ? syscall(SYS_getrandom, buf, len, 0) :
				  getrandom(buf, len, 0);
		else if (positional)
			n = raw ? syscall(SYS_pread64, fd, buf, len, 0) :
				  pread(fd, buf, len, 0);
		else
			n = raw ? syscall(SYS_read, fd, buf, len) :
				  read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ESPIPE && positional) {
			positional = 0;
			continue;
		}
		if (n <= 0)
			return 0;
		buf += n;
		len -= n;
	}
	return 1;
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
	int fd;

	pthread_mutex_lock(&fd_lock);
	fd = strong_fd_get();
	pthread_mutex_unlock(&fd_lock);
	return fd >= 0 && fill_from(fd, buf, len, 0);
}

/*
 * device_fill() for a call that re-entered the shim on a thread already
 * inside it (a signal handler, or a preloaded hook on something we
 * called): the thread may hold fd_lock, so take no lock, and call nothing
 * a preloaded library can interpose, which could re-enter again.  The
 * strong descriptor we already have, else one of our own for this call.
 */
static int device_fill_raw(uint8_t *buf, size_t len)
{
	int fd = __atomic_load_n(&strong_fd, __ATOMIC_RELAXED), own = 0, ok;
	struct arc4_info info;

	if (fd < 0 || syscall(SYS_ioctl, fd, ARC4_IOC_GET_INFO, &info) != 0 ||
	    info.mode != ARC4_MODE_STRONG) {
		if (__atomic_load_n(&device_refused, __ATOMIC_RELAXED))
			return 0;
		fd = syscall(SYS_openat, AT_FDCWD, ARC4_DEVICE,
			     O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 0;
		own = 1;
		if (syscall(SYS_ioctl, fd, ARC4_IOC_GET_INFO, &info) != 0 ||
		    info.mode != ARC4_MODE_STRONG) {
			syscall(SYS_close, fd);
			return 0;
		}
	}
	ok = fill_from(fd, buf, len, 1);
	if (own)
		syscall(SYS_close, fd);
	return ok;
}

/*
 * Fill buf from /dev/arc4, else getrandom(); re-entered, getrandom()
 * first (no descriptor to check), else the device, where a seccomp policy
 * refuses getrandom().  Both block until the kernel RNG is ready, so
 * early-boot callers wait rather than get weak bytes.  With neither
 * source left there is nothing safe to return: abort.
 */
static void strong_fill(uint8_t *buf, size_t len, int reentered)
{
	if (reentered ? fill_from(FROM_GETRANDOM, buf, len, 1) ||
			device_fill_raw(buf, len) :
			device_fill(buf, len) ||
			fill_from(FROM_GETRANDOM, buf, len, 0))
		return;
	explicit_bzero(buf, len);
	arc4_die("no strong random source left (/dev/arc4 and getrandom() "
		 "both unavailable)");
}

/* ---- 4. Strong buffer ------------------------------------------------- */

/*
 * Each thread draws from its own mapping, refilled in one large read and
 * consumed from the end, every consumed byte zeroed at once.  The mapping
 * is MADV_WIPEONFORK: a child of any fork, the libc wrapper or a raw
 * system call, sees it zeroed, so avail == 0 and it refills from its own
 * reads.  pthread_atfork wipes the forking thread's buffer as well.  A
 * kernel without MADV_WIPEONFORK (before 4.14) gets no buffer at all:
 * every call reads its source, slower but never shared with a child.
 *
 * tls_own is the thread's mapping; arc4_tls_strong (shim.h) is the same
 * pointer while no call on the thread uses it, NULL while one does.
 * tls_busy marks the slow path: a call that finds it set, or finds the
 * mapping in use, re-entered the shim on this thread, and takes its bytes
 * from strong_fill(..., 1) without touching the buffer.
 */
_Static_assert(sizeof(struct arc4_strong) == ARC4_STRONG_MAP,
	       "one mapping per thread");

__thread struct arc4_strong *arc4_tls_strong
	__attribute__((tls_model("initial-exec")));
static __thread struct arc4_strong *tls_own
	__attribute__((tls_model("initial-exec")));
static __thread int tls_busy __attribute__((tls_model("initial-exec")));
static __thread int tls_unbuffered __attribute__((tls_model("initial-exec")));

static pthread_once_t strong_once = PTHREAD_ONCE_INIT;
static pthread_key_t strong_key;

static void strong_wipe(struct arc4_strong *s)
{
	explicit_bzero(s, sizeof(*s));
}

static void strong_thread_exit(void *p)
{
	arc4_tls_strong = NULL;
	tls_own = NULL;
	strong_wipe(p);
	munmap(p, ARC4_STRONG_MAP);
}

static void fork_prepare(void)
{
	arc4_lock();
	pthread_mutex_lock(&fd_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&fd_lock);
	arc4_unlock();
}

/* The child looks for a missing /dev/arc4 again at once. */
static void fork_child(void)
{
	if (tls_own)
		strong_wipe(tls_own);
	__atomic_store_n(&device_missing_ms, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&fd_lock);
	arc4_unlock();
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

/* The thread's first mapping; NULL (for good) if the kernel cannot. */
static struct arc4_strong *strong_map(void)
{
	struct arc4_strong *s;

	pthread_once(&strong_once, strong_once_init);
	s = mmap(NULL, ARC4_STRONG_MAP, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		goto fail;
	if (madvise(s, ARC4_STRONG_MAP, MADV_WIPEONFORK) != 0 ||
	    pthread_setspecific(strong_key, s) != 0) {
		munmap(s, ARC4_STRONG_MAP);
		goto fail;
	}
	madvise(s, ARC4_STRONG_MAP, MADV_DONTDUMP);
	tls_own = s;
	return s;
fail:
	tls_unbuffered = 1;
	return NULL;
}

/*
 * Where the inline path could not take len bytes: serve them here (a
 * re-entered call, a thread without a buffer, a request as large as the
 * buffer, which is itself a large read) and return 1, or refill the
 * buffer and return 0 for the caller to take from it.  A refill
 * overwrites the few bytes a short buffer had left, never handed out.
 */
static int strong_slow(void *out, size_t len)
{
	struct arc4_strong *s = tls_own;
	int saved_errno = errno, served = 1;

	if (tls_busy || (s != NULL && arc4_tls_strong != s)) {
		strong_fill(out, len, 1);
		errno = saved_errno;
		return 1;
	}
	tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (s == NULL && !tls_unbuffered)
		s = strong_map();
	arc4_tls_strong = NULL;		/* held, as in arc4_strong_take() */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (s == NULL || len >= ARC4_STRONG_BUF) {
		strong_fill(out, len, 0);
	} else {
		if (s->avail < len) {
			strong_fill(s->buf, sizeof(s->buf), 0);
			s->avail = sizeof(s->buf);
		}
		served = 0;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	arc4_tls_strong = s;
	tls_busy = 0;
	errno = saved_errno;
	return served;
}

/*
 * The slow paths of the inline arc4_strong_u32() and _u64() (shim.h).
 * Each take after a refill succeeds unless a signal handler emptied the
 * buffer in between; then refill again.
 */
uint32_t arc4_strong_u32_slow(void)
{
	uint32_t v;

	while (!strong_slow(&v, sizeof(v)))
		if (arc4_strong_take(&v, sizeof(v)))
			break;
	return v;
}

uint64_t arc4_strong_u64_slow(void)
{
	uint64_t v;

	while (!strong_slow(&v, sizeof(v)))
		if (arc4_strong_take(&v, sizeof(v)))
			break;
	return v;
}

void arc4_strong_bytes(void *buf, size_t len)
{
	if (len < ARC4_STRONG_BUF && arc4_strong_take(buf, len))
		return;
	while (!strong_slow(buf, len))
		if (arc4_strong_take(buf, len))
			break;
}

