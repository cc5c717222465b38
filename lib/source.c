// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The strong sources: /dev/arc4, getrandom(), and /dev/urandom where the
 * kernel has no getrandom().
 *
 *   arc4_device_open(), arc4_fd_is()  /dev/arc4 descriptors, checked
 *   arc4_source_fill()                strong bytes, in the order asked
 *   arc4_source_device()              whether /dev/arc4 serves us now
 *   arc4_source_generation()          whether the generation page is
 *                                     mapped (tried again if due)
 *   arc4_source_libc_vmsafe()         whether the libc's getrandom() is
 *                                     safe across VM forks by itself
 *   arc4_gen                          the generation page, once mapped
 *   arc4_source_lock(), _unlock(), _forked()   for fork (shim.c)
 *
 * The first two block until the kernel RNG is ready, so early-boot
 * callers wait rather than get weak bytes.  /dev/urandom serves only where
 * getrandom() answers ENOSYS: a kernel older than 3.17, which has nothing
 * better (and whose /dev/urandom does not wait for the RNG), or a sandbox
 * that refuses the call as if it were one; glibc's arc4random() does the
 * same.  Any other refusal of getrandom() (EPERM) is a policy, not an old
 * kernel, and is obeyed.  With nothing left there is nothing safe to
 * return: abort.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "strong.h"

#define ARC4_DEVICE "/dev/arc4"
#define URANDOM "/dev/urandom"

/*
 * Whether /dev/arc4 is worth opening.  A node there that fails the check
 * below (another device, a filter on its ioctl) is refused for the life of the
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
 * A character device's number and inode, by a raw system call: fstat()
 * may be interposed, glibc 2.33 and later implement it as fstatat(fd, "",
 * AT_EMPTY_PATH) (about six times the cost of the system call, on every
 * refill), and on i386 only fstat64 fills glibc's layout.  0 if fd is not
 * a character device.
 */
static int fd_chr(int fd, dev_t *rdev, ino_t *ino)
{
#if defined(SYS_fstat64)
	struct stat64 st;

	if (syscall(SYS_fstat64, fd, &st) != 0)
		return 0;
#elif defined(SYS_fstat)
	struct stat st;

	if (syscall(SYS_fstat, fd, &st) != 0)
		return 0;
#else
	struct stat st;

	if (fstat(fd, &st) != 0)
		return 0;
#endif
	*rdev = st.st_rdev;
	*ino = st.st_ino;
	return S_ISCHR(st.st_mode);
}

int arc4_fd_is(int fd, dev_t rdev, ino_t ino)
{
	dev_t r;
	ino_t i;

	return fd >= 0 && fd_chr(fd, &r, &i) && r == rdev && i == ino;
}

/*
 * Which files are ours, with no ioctl that writes to memory (a recorder
 * such as rr stops at every _IOR ioctl it does not know, and lets an _IO
 * one through).  At open, ARC4_IOC_RESEED: an arc4 stream in strong mode
 * answers 0 (a fresh key for a stream just opened), a seeded one EINVAL,
 * any other file ENOTTY.  After that the device number and inode from
 * fstat() say the number still holds a /dev/arc4 file, and lseek() its
 * mode: a strong stream has no position (ESPIPE), a seeded one has one.
 * Raw system calls, so that the re-entered path may use them too.
 */
static int fd_reseeds(int fd)
{
	return syscall(SYS_ioctl, fd, ARC4_IOC_RESEED, 0) == 0;
}

static int fd_is_strong(int fd, dev_t rdev, ino_t ino)
{
	return arc4_fd_is(fd, rdev, ino) &&
	       syscall(SYS_lseek, fd, 0, SEEK_CUR) == -1 && errno == ESPIPE;
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
 * and refused for good.  O_NONBLOCK and O_NOCTTY: whatever else is at the
 * path (a FIFO, a terminal) must neither block the open nor become the
 * session's controlling terminal before fd_chr() refuses it.  The device
 * itself honours O_NONBLOCK only at open, while the kernel RNG is not
 * ready (EAGAIN: missing for now, getrandom() serves and waits).
 */
int arc4_device_open(dev_t *rdev, ino_t *ino)
{
	int fd;

	if (!device_may_open())
		return -1;
	do
		fd = open(ARC4_DEVICE,
			  O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	if (fd >= 0)
		fd = fd_above_stdio(fd);
	if (fd < 0) {
		__atomic_store_n(&device_missing_ms, coarse_ms(),
				 __ATOMIC_RELAXED);
		return -1;
	}
	if (!fd_chr(fd, rdev, ino) || !fd_reseeds(fd)) {
		close(fd);
		__atomic_store_n(&device_refused, 1, __ATOMIC_RELAXED);
		return -1;
	}
	__atomic_store_n(&device_missing_ms, 0, __ATOMIC_RELAXED);
	return fd;
}

/*
 * A read of a device: preadv() at DEVICE_POS, by raw system calls, which
 * nothing can interpose and none of which is a cancellation point.  A
 * strong stream ignores the position.  Positional, so that most of what a
 * program can swap onto the number gives up nothing: a pipe, socket or
 * terminal fails with ESPIPE without giving up a byte, a regular file has
 * nothing there (unless it is sparse to 4 EiB), and no read ever takes
 * the VFS's position lock.  A character device that ignores the offset
 * does give up what it serves (/dev/kmsg a record): the check before the
 * read narrows that to a swap between the check and the read.  The caller
 * checks afterwards what it read from.  The offset is two longs (low,
 * high) except on x32, whose preadv takes one 64-bit register.
 */
#define DEVICE_POS (1ULL << 62)
#if defined(__x86_64__) && defined(__ILP32__)
#define DEVICE_POS_ARGS (unsigned long long)DEVICE_POS
#else
#define DEVICE_POS_ARGS (unsigned long)DEVICE_POS, \
			(unsigned long)(DEVICE_POS >> 32)
#endif
enum { DEVICE_CHUNK = 1 << 30 };

static int device_read(int fd, uint8_t *buf, size_t len)
{
	while (len > 0) {
		struct iovec iov = { buf, len < DEVICE_CHUNK ? len : DEVICE_CHUNK };
		long n = syscall(SYS_preadv, fd, &iov, 1, DEVICE_POS_ARGS);

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
 * The generation page (struct arc4_generation in <linux/arc4.h>): mapped
 * once the strong descriptor is open, and kept (the library is never unloaded: -z
 * nodelete).  Until then arc4_gen points at a constant that is never 0
 * (a buffer a fork zeroed must match no generation, shim.h), and buffer.c
 * keeps no buffer while the device serves.  A mapping that failed (a
 * transient ENOMEM; a module that refuses the PROT_EXEC a READ_IMPLIES_EXEC
 * process adds) is tried again at most once a second.  Mapped from a
 * descriptor of its own, opened for the mmap() and closed after it: the
 * program does not know its number, so it cannot swap a file of its own
 * in and /dev/arc4 back around the mmap() (it would leave arc4_gen on
 * that file's page for good).  Checked before and after the mmap() to be
 * the node the strong descriptor came from.  Under fd_lock.
 */
static const uint64_t gen_none = ~(uint64_t)0;
const uint64_t *arc4_gen = &gen_none;
static unsigned long gen_tried_ms;	/* last failed mmap(); 0: none */

static int gen_due(void)
{
	unsigned long last = __atomic_load_n(&gen_tried_ms, __ATOMIC_RELAXED);

	return last == 0 || coarse_ms() - last >= 1000;
}

static void gen_map(dev_t rdev, ino_t ino)
{
	void *p = MAP_FAILED;
	dev_t r = 0;
	ino_t i = 0;
	int fd;

	if (arc4_gen != &gen_none || !gen_due())
		return;
	fd = open(ARC4_DEVICE, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0)
		fd = fd_above_stdio(fd);
	if (fd >= 0 && !fd_chr(fd, &r, &i)) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && r == rdev && i == ino)
		p = mmap(NULL, sizeof(struct arc4_generation), PROT_READ,
			 MAP_SHARED, fd, 0);
	if (p != MAP_FAILED && !arc4_fd_is(fd, rdev, ino)) {
		munmap(p, sizeof(struct arc4_generation));
		p = MAP_FAILED;
	}
	if (fd >= 0 && arc4_fd_is(fd, r, i))
		close(fd);
	if (p == MAP_FAILED) {
		__atomic_store_n(&gen_tried_ms, coarse_ms(), __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&arc4_gen, (const uint64_t *)p, __ATOMIC_RELEASE);
}

/*
 * The process-wide strong descriptor.  A program may close it, or dup2()
 * something else over its number, at any time, also while a read is in
 * flight; so a refill checks with fstat() before the read that the number
 * still holds a /dev/arc4 file (same st_rdev and inode), reads it by
 * device_read(), and checks again after it, fstat() and lseek(): still
 * /dev/arc4, and in strong mode.  Bytes that fail the check after are
 * wiped, never used.  A number that fails a check is no longer ours: we
 * forget it without closing it (it is the program's now).  What remains:
 * a program that swaps its own file in and ours back within one read
 * (both between our two checks) is not seen.
 *
 * fd_lock guards this record, not the reads, so threads refill in
 * parallel.  It is an owner-token lock (lock.c): the holder's thread
 * token is in the word from the instant it is taken, so that a fork()
 * from a signal handler that interrupted its holder, anywhere, does not
 * wait for it.
 */
static unsigned int fd_lock;
static int strong_fd = -1;
static dev_t strong_rdev;
static ino_t strong_ino;

static void fd_lock_take(void)
{
	arc4_owned_lock(&fd_lock);
}

static void fd_lock_drop(void)
{
	arc4_owned_unlock(&fd_lock);
}

/* The strong descriptor, opened if due; what it is in *rdev and *ino. */
static int strong_fd_get(dev_t *rdev, ino_t *ino)
{
	int fd;

	fd_lock_take();
	fd = strong_fd;
	if (fd >= 0 && !arc4_fd_is(fd, strong_rdev, strong_ino))
		fd = -1;
	if (fd < 0)
		fd = arc4_device_open(&strong_rdev, &strong_ino);
	if (fd >= 0)
		gen_map(strong_rdev, strong_ino);
	*rdev = strong_rdev;
	*ino = strong_ino;
	__atomic_store_n(&strong_fd, fd, __ATOMIC_RELAXED);
	fd_lock_drop();
	return fd;
}

static void strong_fd_forget(int fd)
{
	fd_lock_take();
	if (strong_fd == fd)
		__atomic_store_n(&strong_fd, -1, __ATOMIC_RELAXED);
	fd_lock_drop();
}

/*
 * Lock-free while the answer is settled: a descriptor is held, or the
 * device is refused, or it was missing less than a second ago.
 */
int arc4_source_device(void)
{
	unsigned long last;
	int saved_errno, ok;
	dev_t rdev;
	ino_t ino;

	if (__atomic_load_n(&strong_fd, __ATOMIC_RELAXED) >= 0)
		return 1;
	last = __atomic_load_n(&device_missing_ms, __ATOMIC_RELAXED);
	if (__atomic_load_n(&device_refused, __ATOMIC_RELAXED) ||
	    (last != 0 && coarse_ms() - last < 1000))
		return 0;
	saved_errno = errno;
	ok = strong_fd_get(&rdev, &ino) >= 0;
	errno = saved_errno;
	return ok;
}

int arc4_source_generation(void)
{
	int saved_errno;
	dev_t rdev;
	ino_t ino;

	if (__atomic_load_n(&arc4_gen, __ATOMIC_RELAXED) != &gen_none)
		return 1;
	if (__atomic_load_n(&strong_fd, __ATOMIC_RELAXED) < 0 || !gen_due())
		return 0;
	saved_errno = errno;
	strong_fd_get(&rdev, &ino);
	errno = saved_errno;
	return __atomic_load_n(&arc4_gen, __ATOMIC_RELAXED) != &gen_none;
}

/*
 * fork(): the record is held across it, so the child finds it
 * consistent; unless this thread holds it already (a signal handler
 * forks while it interrupted a refill, or fork()'s own prepare stage),
 * which then goes on in both processes and drops it itself.
 * tls_fd_nested counts those levels, so that each prepare pairs with
 * its own parent or child stage however deep the handlers fork.
 */
static __thread unsigned int tls_fd_nested
	__attribute__((tls_model("initial-exec")));

void arc4_source_lock(void)
{
	if (arc4_owned_by_me(&fd_lock))
		tls_fd_nested++;
	else
		fd_lock_take();
}

void arc4_source_unlock(void)
{
	if (tls_fd_nested)
		tls_fd_nested--;
	else
		fd_lock_drop();
}

/*
 * The child's thread holds the record under its new token, and looks for
 * a missing /dev/arc4 and an unmapped page at once.
 */
void arc4_source_forked(void)
{
	arc4_owned_forked(&fd_lock);
	__atomic_store_n(&device_missing_ms, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&gen_tried_ms, 0, __ATOMIC_RELAXED);
}

/*
 * glibc 2.41 and later serve getrandom() from the vDSO where the kernel
 * offers it (6.11 and later), with state the kernel invalidates on a VM
 * fork, and from the system call elsewhere: either way no byte it returns
 * is one it returned before a fork of the machine.
 */
int arc4_source_libc_vmsafe(void)
{
#ifdef __GLIBC__
	static int known, safe;
	int major = 0, minor = 0;

	if (!__atomic_load_n(&known, __ATOMIC_ACQUIRE)) {
		const char *v = gnu_get_libc_version();
		char *end;

		major = strtol(v, &end, 10);
		if (*end == '.')
			minor = strtol(end + 1, NULL, 10);
		/* Threads that get here at once store the same value. */
		__atomic_store_n(&safe, major > 2 || (major == 2 && minor >= 41),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&safe, __ATOMIC_RELAXED);
#else
	return 0;
#endif
}

/* getrandom() answered ENOSYS once: it always will (source_fill_urandom). */
static int getrandom_enosys;

/*
 * len bytes of getrandom(); raw: by the system call, which nothing can
 * interpose and which is no cancellation point.
 */
static int getrandom_fill(uint8_t *buf, size_t len, int raw)
{
	while (len > 0) {
		ssize_t n = raw ? syscall(SYS_getrandom, buf, len, 0) :
				  getrandom(buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOSYS)
			__atomic_store_n(&getrandom_enosys, 1, __ATOMIC_RELAXED);
		if (n <= 0)
			return 0;
		buf += n;
		len -= n;
	}
	return 1;
}

/*
 * len bytes of the strong descriptor, checked before and after the read;
 * what fails the check after is wiped, and the number forgotten.
 */
static int device_fill(uint8_t *buf, size_t len)
{
	dev_t rdev;
	ino_t ino;
	int fd = strong_fd_get(&rdev, &ino);

	if (fd < 0)
		return 0;
	if (device_read(fd, buf, len) && fd_is_strong(fd, rdev, ino))
		return 1;
	explicit_bzero(buf, len);
	if (!fd_is_strong(fd, rdev, ino))
		strong_fd_forget(fd);
	return 0;
}

/*
 * The re-entered path's own descriptor for /dev/arc4: opened as
 * arc4_device_open() does, moved above 2, checked; by raw system calls.
 * -1 if there is none.
 */
static int device_open_raw(dev_t *rdev, ino_t *ino)
{
	int fd = syscall(SYS_openat, AT_FDCWD, ARC4_DEVICE,
			 O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd >= 0 && fd <= 2) {
		int high = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3);

		syscall(SYS_close, fd);
		fd = high;
	}
	if (fd < 0)
		return -1;
	if (!fd_chr(fd, rdev, ino) || !fd_reseeds(fd)) {
		syscall(SYS_close, fd);
		return -1;
	}
	return fd;
}

/*
 * device_fill() for a call that re-entered the shim on a thread already
 * inside it (a signal handler, or a preloaded hook on something we
 * called): the thread may hold fd_lock, so take no lock, and call nothing
 * a preloaded library can interpose, which could re-enter again.  The
 * strong descriptor we already have (read without the lock: a record
 * caught mid-update fails the check), else one of our own for this call,
 * closed after it only if the number still holds it (another thread may
 * have closed it and reused the number meanwhile).
 */
static int device_fill_raw(uint8_t *buf, size_t len)
{
	int fd = __atomic_load_n(&strong_fd, __ATOMIC_RELAXED), own = 0, ok;
	dev_t rdev = strong_rdev;
	ino_t ino = strong_ino;

	if (fd < 0 || !fd_is_strong(fd, rdev, ino)) {
		if (__atomic_load_n(&device_refused, __ATOMIC_RELAXED))
			return 0;
		fd = device_open_raw(&rdev, &ino);
		if (fd < 0)
			return 0;
		own = 1;
	}
	ok = device_read(fd, buf, len) && fd_is_strong(fd, rdev, ino);
	if (own && arc4_fd_is(fd, rdev, ino))
		syscall(SYS_close, fd);
	if (!ok)
		explicit_bzero(buf, len);
	return ok;
}

/* The character device 1:9, whatever the node is called. */
static int fd_is_urandom(int fd)
{
	dev_t rdev;
	ino_t ino;

	return fd_chr(fd, &rdev, &ino) && rdev == makedev(1, 9);
}

/*
 * The last source, where getrandom() answered ENOSYS: /dev/urandom, opened
 * for this call alone (close-on-exec, above 2), checked before and after
 * the read as the strong descriptor is, read and closed, all by raw
 * system calls so that every order, the re-entered one included, may use
 * it.  A fallback this rare keeps no descriptor that the program could
 * close or dup2() over.
 */
static int source_fill_urandom(uint8_t *buf, size_t len)
{
	int fd, ok;

	if (!__atomic_load_n(&getrandom_enosys, __ATOMIC_RELAXED))
		return 0;
	do
		fd = syscall(SYS_openat, AT_FDCWD, URANDOM,
			     O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd >= 0 && fd <= 2) {
		int high = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3);

		syscall(SYS_close, fd);
		fd = high;
	}
	if (fd < 0)
		return 0;
	ok = fd_is_urandom(fd) && device_read(fd, buf, len) &&
	     fd_is_urandom(fd);
	syscall(SYS_close, fd);
	if (!ok)
		explicit_bzero(buf, len);
	return ok;
}

/*
 * Fill buf, trying the sources in the order how says; where a seccomp
 * policy refuses getrandom(), or /dev/arc4 is missing, the other serves,
 * and where getrandom() answers ENOSYS, /dev/urandom last.
 * Called with cancellation off (or raw); errno is the caller's to keep.
 */
void arc4_source_fill(void *buf, size_t len, enum arc4_fill how)
{
	int ok;

	switch (how) {
	case ARC4_FILL_BUFFER:
		ok = device_fill(buf, len) || getrandom_fill(buf, len, 0);
		break;
	case ARC4_FILL_EARLY:
		ok = getrandom_fill(buf, len, 1) || device_fill(buf, len);
		break;
	case ARC4_FILL_LIBC:
		ok = getrandom_fill(buf, len, 0) || device_fill(buf, len);
		break;
	default:
		ok = getrandom_fill(buf, len, 1) || device_fill_raw(buf, len);
		break;
	}
	if (ok || source_fill_urandom(buf, len))
		return;
	explicit_bzero(buf, len);
	arc4_die("no strong random source left (no /dev/arc4, getrandom() "
		 "refused, and no /dev/urandom where it is missing)");
}
