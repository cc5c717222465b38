// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The per-thread strong buffer: arc4_strong_u32_slow(),
 * arc4_strong_u64_slow(), arc4_strong_bytes().
 *
 * A thread starts without a buffer: its first ARC4_EARLY_DRAWS slow-path
 * calls are served straight from the getrandom system call, so a process
 * or a thread that draws a few values pays one small system call each and
 * keeps no memory.  One that goes on drawing gets its own mapping, refilled
 * in one large read and consumed from the end, every consumed byte zeroed
 * at once.  A buffer must expire when the machine is copied: no thread
 * keeps one while /dev/arc4 serves and its generation page is not mapped
 * (the getrandom system call serves instead, tried for the page again at
 * most once a second), nor where /dev/arc4 is missing and the libc's
 * getrandom() is safe across VM forks by itself (that getrandom() serves
 * every value).  Without either, under an older libc, buffers stay (the
 * threat model says what that leaves).
 *
 * The mapping is MADV_WIPEONFORK: a child of any fork, the libc wrapper or
 * a raw system call, sees it zeroed (avail and gen 0) and refills from its
 * own reads.  It is MADV_DONTDUMP, and wiped and unmapped at thread exit
 * by a thread-specific key's destructor.  The destructor must outlive a
 * dlclose() of whatever object holds this code: libarc4.so is linked -z
 * nodelete, and a shared object that linked libarc4.a is pinned the same
 * way (RTLD_NODELETE) by a constructor (strong_pin()).  A thread that cannot have
 * all of that (no key left, an object that cannot be pinned, a kernel
 * before 4.14 without MADV_WIPEONFORK) keeps no buffer: every call reads
 * its source, slower but never shared with a child.
 *
 * tls_own is the thread's mapping; arc4_tls_strong (shim.h) is the same
 * pointer while no call on the thread uses it, &arc4_strong_busy while
 * one does, &arc4_strong_none while the thread has none (or had none
 * when a take that a handler interrupted began: a call that finds none
 * and a mapping is idle, and restores it).
 * tls_busy marks the slow path: a call that finds it set, or finds the
 * mapping in use, re-entered the shim on this thread, and takes its bytes
 * from the sources' raw path without touching the buffer.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "strong.h"

enum { ARC4_EARLY_DRAWS = 16 };

_Static_assert(sizeof(struct arc4_strong) + ARC4_STRONG_BUF <= ARC4_STRONG_MAP,
	       "one mapping per thread");

/* Empty (avail 0) for good: never written. */
struct arc4_strong arc4_strong_none, arc4_strong_busy;

__thread struct arc4_strong *arc4_tls_strong
	__attribute__((tls_model("initial-exec"))) = ARC4_STRONG_NONE;
static __thread struct arc4_strong *tls_own
	__attribute__((tls_model("initial-exec")));
static __thread int tls_busy __attribute__((tls_model("initial-exec")));
static __thread int tls_unbuffered __attribute__((tls_model("initial-exec")));
static __thread unsigned int tls_draws
	__attribute__((tls_model("initial-exec")));

static pthread_once_t strong_once = PTHREAD_ONCE_INIT;
static pthread_key_t strong_key;
static int strong_key_ok;

static void strong_wipe(struct arc4_strong *s)
{
	explicit_bzero(s, ARC4_STRONG_MAP);
}

static void strong_thread_exit(void *p)
{
	arc4_tls_strong = ARC4_STRONG_NONE;
	tls_own = NULL;
	strong_wipe(p);
	munmap(p, ARC4_STRONG_MAP);
}

/*
 * Keep the object that holds this code loaded for good, so that the key's
 * destructor never points into an unmapped one.  libarc4.so (built with
 * ARC4_NODELETE) is linked -z nodelete: nothing to do.  libarc4.a pins
 * the object it was linked into from a constructor, where the dynamic
 * linker's lock is either not held or held by this thread (dlopen() of
 * that object), never lazily under a lock of ours or a caller's (an
 * allocator's).  Until it has run, or where the pin failed, threads keep
 * no buffer.  An executable needs no pin, nor does a static one (whose
 * dladdr1() may not know it): dladdr1() or dlsym() missing, dladdr1()
 * failing, or an object without a name.
 */
#ifdef ARC4_NODELETE
static const int strong_pinned = 1;
#else
static int strong_pinned;

extern __typeof__(dladdr1) dladdr1 __attribute__((weak));
extern __typeof__(dlsym) dlsym __attribute__((weak));

/* dlopen() found by dlsym(): a static link that names it warns. */
static int strong_pin(void)
{
	void *(*open_dl)(const char *, int);
	struct link_map *map = NULL;
	Dl_info info;

	if (!dladdr1 || !dlsym)
		return 1;
	if (!dladdr1((void *)strong_thread_exit, &info, (void **)&map,
		     RTLD_DL_LINKMAP) || map == NULL ||
	    map->l_name == NULL || map->l_name[0] == '\0')
		return 1;
	open_dl = (void *(*)(const char *, int))dlsym(RTLD_DEFAULT, "dlopen");
	return open_dl && open_dl(map->l_name, RTLD_LAZY | RTLD_NOLOAD |
					       RTLD_NODELETE) != NULL;
}

__attribute__((constructor)) static void strong_pin_init(void)
{
	int saved_errno = errno;

	__atomic_store_n(&strong_pinned, strong_pin(), __ATOMIC_RELEASE);
	errno = saved_errno;
}
#endif

/*
 * Without a key of our own there is no way to wipe a buffer when its
 * thread exits: such a process keeps none (and never touches a key that
 * is not ours).
 */
static void strong_once_init(void)
{
	strong_key_ok = pthread_key_create(&strong_key,
					   strong_thread_exit) == 0;
}

/* The thread's mapping; NULL (for good) if it cannot have one. */
static struct arc4_strong *strong_map(void)
{
	struct arc4_strong *s;

	if (!__atomic_load_n(&strong_pinned, __ATOMIC_ACQUIRE))
		return NULL;	/* not yet, or not at all: no buffer now */
	pthread_once(&strong_once, strong_once_init);
	if (!strong_key_ok)
		goto fail;
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
 * No buffer: /dev/arc4 serves but its generation page is not mapped, or
 * it is missing and the libc's getrandom() is VM-fork safe.
 */
static int strong_unbuffered(void)
{
	if (arc4_source_device())
		return !arc4_source_generation();
	return arc4_source_libc_vmsafe();
}

/*
 * Where a buffer-less call's bytes come from: a thread's first values and
 * large requests as arc4_source_fill() documents; the rest of an
 * unbuffered thread's from the libc's getrandom() where it is VM-fork
 * safe, else from the getrandom system call (one, where a device read
 * would take four).
 */
static enum arc4_fill strong_direct_order(size_t len)
{
	if (len >= ARC4_STRONG_BUF)
		return ARC4_FILL_BUFFER;
	if (tls_draws <= ARC4_EARLY_DRAWS || !arc4_source_libc_vmsafe())
		return ARC4_FILL_EARLY;
	return ARC4_FILL_LIBC;
}

/*
 * A buffer, if this thread is due one: past its early draws, able to have
 * one, and allowed one (strong_unbuffered()).  NULL otherwise.
 */
static struct arc4_strong *strong_buffer(void)
{
	struct arc4_strong *s = tls_own;

	if (s != NULL || tls_unbuffered)
		return s;
	if (tls_draws <= ARC4_EARLY_DRAWS) {
		tls_draws++;
		return NULL;
	}
	if (strong_unbuffered())
		return NULL;
	return strong_map();
}

/*
 * Refill s if it cannot serve len bytes of this generation.  The
 * generation is read (acquire) before the read: a machine copied during
 * it shows a new one.  It is stored before the read and avail after it,
 * so that in the child of a fork made in the middle (by a signal handler
 * that interrupted this) the zeroed s->gen matches no generation, and the
 * partly zeroed bytes are never taken.  0 where the buffer must not be
 * used now (strong_unbuffered()).
 */
static int strong_refill(struct arc4_strong *s, size_t len)
{
	uint64_t gen;

	if (s->avail >= len && s->gen == arc4_generation())
		return 1;
	if (strong_unbuffered()) {
		strong_wipe(s);
		return 0;
	}
	gen = arc4_generation_acquire();
	s->avail = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->gen = gen;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	arc4_source_fill(s->buf, ARC4_STRONG_BUF, ARC4_FILL_BUFFER);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->avail = ARC4_STRONG_BUF;
	return 1;
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
	int saved_errno = errno, served = 1, cancel;

	if (tls_busy || (s != NULL && arc4_tls_strong == ARC4_STRONG_BUSY)) {
		arc4_source_fill(out, len, ARC4_FILL_REENTERED);
		errno = saved_errno;
		return 1;
	}
	tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cancel = arc4_cancel_off();
	s = strong_buffer();
	arc4_tls_strong = ARC4_STRONG_BUSY;	/* held, as in _take() */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (s == NULL || len >= ARC4_STRONG_BUF || !strong_refill(s, len))
		arc4_source_fill(out, len, strong_direct_order(len));
	else
		served = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	arc4_tls_strong = s ? s : ARC4_STRONG_NONE;
	tls_busy = 0;
	arc4_cancel_restore(cancel);
	errno = saved_errno;
	return served;
}

/*
 * The slow paths of the inline arc4_strong_u32() and _u64() (shim.h).
 * Each take after a refill succeeds unless a signal handler emptied the
 * buffer, or the machine was copied, in between; then refill again.
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
	if (len == 0)
		return;
	if (len < ARC4_STRONG_BUF && arc4_strong_take(buf, len))
		return;
	while (!strong_slow(buf, len))
		if (arc4_strong_take(buf, len))
			break;
}
