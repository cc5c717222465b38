// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The strong sources: /dev/arc4, getrandom(), and /dev/urandom where the
 * kernel has no getrandom().
 *
 *   arc4_device_open(), arc4_fd_is()  /dev/arc4 descriptors, checked
 *   arc4_source_fill()                strong bytes, in the order asked
 *   arc4_source_device()              whether /dev/arc4 serves us now
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "strong.h"

#define ARC4_DEVICE "/dev/arc4"
#define URANDOM "/dev/urandom"

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
 * The generation page (struct arc4_generation in <linux/arc4.h>): mapped
 * once, from the first strong descriptor, and kept (the library is never
 * unloaded: -z nodelete).  Until then, or where the module cannot map it,
 * arc4_gen points at a constant 0 and buffers never expire by it.
 */
static const uint64_t gen_none;
const uint64_t *arc4_gen = &gen_none;

static void gen_map(int fd)
{
	void *p;

	if (arc4_gen != &gen_none)
		return;
	p = mmap(NULL, sizeof(struct arc4_generation), PROT_READ, MAP_SHARED,
		 fd, 0);
	if (p != MAP_FAILED)
		__atomic_store_n(&arc4_gen, (const uint64_t *)p,
				 __ATOMIC_RELEASE);
}

/*
 * The process-wide strong descriptor.  A program may close it, or dup2()
 * something else over its number, at any time; before every read we check
 * with fstat() that it is still the character device we opened (same
 * st_rdev and inode) and with ARC4_IOC_GET_INFO that it is in strong mode.
 * A number that fails the check is no longer ours: we forget it without
 * closing it (it is the program's now).  fd_lock guards this record, not
 * the reads, so threads refill in parallel; holding it across a read would
 * not protect against the program's own close() or dup2() anyway.
 */
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static int strong_fd = -1;
static dev_t strong_rdev;
static ino_t strong_ino;

static int strong_fd_get(int check)
{
	int fd;

	pthread_mutex_lock(&fd_lock);
	fd = strong_fd;
	if (fd >= 0 && check && !(arc4_fd_is(fd, strong_rdev, strong_ino) &&
				  fd_is_strong_stream(fd)))
		fd = -1;
	if (fd < 0) {
		fd = arc4_device_open(&strong_rdev, &strong_ino);
		if (fd >= 0)
			gen_map(fd);
	}
	__atomic_store_n(&strong_fd, fd, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&fd_lock);
	return fd;
}

int arc4_source_device(void)
{
	int saved_errno = errno, ok = strong_fd_get(0) >= 0;

	errno = saved_errno;
	return ok;
}

void arc4_source_lock(void)
{
	pthread_mutex_lock(&fd_lock);
}

void arc4_source_unlock(void)
{
	pthread_mutex_unlock(&fd_lock);
}

/* The child looks for a missing /dev/arc4 again at once. */
void arc4_source_forked(void)
{
	__atomic_store_n(&device_missing_ms, 0, __ATOMIC_RELAXED);
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
		safe = major > 2 || (major == 2 && minor >= 41);
		__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
	}
	return safe;
#else
	return 0;
#endif
}

/*
 * Read len bytes of fd, or of getrandom() for fd FROM_GETRANDOM; raw: by
 * system calls, which nothing can interpose and none of which is a
 * cancellation point.  The raw path reads with read(): a strong stream
 * ignores the position, and pread64's 64-bit offset is passed differently
 * on each 32-bit ABI.  Elsewhere pread(), which never takes the VFS's file
 * position lock, so refills never queue in the kernel.
 */
enum { FROM_GETRANDOM = -1 };

/* getrandom() answered ENOSYS once: it always will (source_fill_urandom). */
static int getrandom_enosys;

static int fill_from(int fd, uint8_t *buf, size_t len, int raw)
{
	int positional = !raw;

	while (len > 0) {
		ssize_t n;

		if (fd == FROM_GETRANDOM)
			n = raw ? syscall(SYS_getrandom, buf, len, 0) :
				  getrandom(buf, len, 0);
		else if (positional)
			n = pread(fd, buf, len, 0);
		else
			n = raw ? syscall(SYS_read, fd, buf, len) :
				  read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ESPIPE && positional) {
			positional = 0;
			continue;
		}
		if (n < 0 && errno == ENOSYS && fd == FROM_GETRANDOM)
			__atomic_store_n(&getrandom_enosys, 1, __ATOMIC_RELAXED);
		if (n <= 0)
			return 0;
		buf += n;
		len -= n;
	}
	return 1;
}

static int device_fill(uint8_t *buf, size_t len)
{
	int fd = strong_fd_get(1);

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
 * The character device 1:9, whatever the node is called: a regular file,
 * a FIFO or another device (/dev/zero is 1:5) at the path is not it.  A
 * raw system call: fstat() may be interposed, and on i386 only fstat64
 * fills glibc's layout.
 */
static int fd_is_urandom(int fd)
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
	return S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 9);
}

/*
 * The last source, where getrandom() answered ENOSYS: /dev/urandom, opened
 * for this call alone (close-on-exec, above 2), checked, read and closed,
 * all by raw system calls so that every order, the re-entered one
 * included, may use it.  A fallback this rare keeps no descriptor that the
 * program could close or dup2() over.
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
	ok = fd_is_urandom(fd) && fill_from(fd, buf, len, 1);
	syscall(SYS_close, fd);
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
		ok = device_fill(buf, len) ||
		     fill_from(FROM_GETRANDOM, buf, len, 0);
		break;
	case ARC4_FILL_EARLY:
		ok = fill_from(FROM_GETRANDOM, buf, len, 1) ||
		     device_fill(buf, len);
		break;
	case ARC4_FILL_LIBC:
		ok = fill_from(FROM_GETRANDOM, buf, len, 0) ||
		     device_fill(buf, len);
		break;
	default:
		ok = fill_from(FROM_GETRANDOM, buf, len, 1) ||
		     device_fill_raw(buf, len);
		break;
	}
	if (ok || source_fill_urandom(buf, len))
		return;
	explicit_bzero(buf, len);
	arc4_die("no strong random source left (no /dev/arc4, getrandom() "
		 "refused, and no /dev/urandom where it is missing)");
}
