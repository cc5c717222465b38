// SPDX-License-Identifier: GPL-2.0
/*
 * libhook.so: preloaded ahead of libarc4.so, it wraps the libc calls the
 * shim makes while it initialises and refills (open, read, pread, ioctl,
 * mmap, madvise, getrandom) and calls rand() and arc4random() from inside
 * each, as an instrumented allocator or tracer might.  The shim must neither
 * recurse forever nor deadlock.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>

#include <linux/arc4.h>

uint32_t arc4random(void);

/*
 * ARC4_HOOK_RAISE=N: draw nothing; instead the ioctl that seeds a
 * deterministic stream raises signal N first, so its handler runs while
 * the shim is inside srand_deterministic() or a refill, every time.
 */
static int raise_sig(void)
{
	static int sig = -1;

	if (sig < 0) {
		const char *s = getenv("ARC4_HOOK_RAISE");

		sig = s ? atoi(s) : 0;
	}
	return sig;
}

static void poke(void)
{
	if (raise_sig())
		return;
	(void)rand();
	(void)arc4random();
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/*
 * make test-sanitize.  ASan refuses to start a program with a library
 * preloaded ahead of its runtime, as the tests preload this one.  TSan's
 * runtime, while it starts, maps memory through mmap() (for its
 * symbolizer), and the mmap() below calls rand() in instrumented code
 * before TSan can run any: start without the symbolizer.  A preloaded
 * library's defaults apply only to the processes it is preloaded into.
 */
#ifdef __SANITIZE_ADDRESS__
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "verify_asan_link_order=0";
}
#endif
#ifdef __SANITIZE_THREAD__
const char *__tsan_default_options(void);
__attribute__((no_sanitize_thread)) const char *__tsan_default_options(void)
{
	return "symbolize=0";
}
#endif

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	poke();
	return NEXT(open)(path, flags, mode);
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t n = NEXT(read)(fd, buf, len);

	poke();
	return n;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = NEXT(pread)(fd, buf, len, off);

	poke();
	return n;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (raise_sig() && req == ARC4_IOC_SEED)
		raise(raise_sig());
	poke();
	return NEXT(ioctl)(fd, req, arg);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	poke();
	return NEXT(mmap)(addr, len, prot, flags, fd, off);
}

int madvise(void *addr, size_t len, int advice)
{
	poke();
	return NEXT(madvise)(addr, len, advice);
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	ssize_t n = NEXT(getrandom)(buf, len, flags);

	poke();
	return n;
}
