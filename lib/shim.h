/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private interface between the family files (rand.c, random.c, rand48.c,
 * arc4random.c) and the shared machinery: shim.c (environment, fork),
 * lock.c (the state lock), source.c and buffer.c (strong output; strong.h
 * is theirs); det.h and chacha20.h are the deterministic streams'.  Nothing declared here is exported: the
 * version script lists the public symbols.
 *
 * Rules the family files follow:
 *  - never call an exported symbol of the shim (rand, arc4random, ...):
 *    under LD_PRELOAD another library may interpose it, and through the PLT
 *    it would recurse;
 *  - deterministic state is touched only under arc4_lock();
 *  - strong output comes only from arc4_strong_*().
 */
#ifndef ARC4_SHIM_H
#define ARC4_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <linux/arc4.h>

#define ARC4_HIDDEN __attribute__((visibility("hidden")))
#define ARC4_EXPORT __attribute__((visibility("default")))

#define arc4_likely(x)		__builtin_expect(!!(x), 1)
#define arc4_unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * ARC4_LEGACY=1 in the environment (ignored in secure-execution mode), or
 * the executable listed in the administrator's policy file.
 * Asked on every call of every family, so the settled answer is read
 * inline; the environment is looked at once, by arc4_legacy_lookup().
 */
enum { ARC4_LEGACY_UNKNOWN, ARC4_LEGACY_OFF, ARC4_LEGACY_ON };
ARC4_HIDDEN extern int arc4_legacy_state;
ARC4_HIDDEN int arc4_legacy_lookup(void);
/* $(SYSCONFDIR)/arc4/legacy.conf lists this executable (policy.c). */
ARC4_HIDDEN int arc4_policy_legacy(void);
/* 0 if there is no policy file, or an empty one: nothing to read. */
ARC4_HIDDEN int arc4_policy_present(void);

static inline int arc4_legacy(void)
{
	int s = __atomic_load_n(&arc4_legacy_state, __ATOMIC_RELAXED);

	if (arc4_likely(s == ARC4_LEGACY_OFF))
		return 0;
	return s == ARC4_LEGACY_ON ? 1 : arc4_legacy_lookup();
}

/*
 * No call of the shim is a cancellation point.  A path that makes system
 * calls through libc wrappers that are (open(), read(), pread(),
 * getrandom()) runs between arc4_cancel_off() and arc4_cancel_restore(),
 * which neither are one nor touch errno.
 */
ARC4_HIDDEN int arc4_cancel_off(void);
ARC4_HIDDEN void arc4_cancel_restore(int old);

/*
 * One lock for all deterministic state (lock.c); held across fork by
 * atfork.  A path that makes a cancellation-point call under it turns
 * cancellation off itself (det.c).  A
 * signal handler or a preloaded hook that re-enters the shim on the thread
 * that holds it does not wait for itself: it goes on as that thread, as
 * glibc's own unlocked drand48() would (lock.c says what each family then
 * guarantees).
 */
ARC4_HIDDEN void arc4_lock(void);
ARC4_HIDDEN void arc4_unlock(void);
/* The calling thread's token: its thread id, in a forked child too. */
ARC4_HIDDEN unsigned int arc4_thread_token(void);
/*
 * A lock word (0: free) of the same kind, not nested: its holder's token
 * is in the word from the instant it is taken, so a thread can tell
 * whether it holds it (arc4_owned_by_me()).
 */
ARC4_HIDDEN void arc4_owned_lock(unsigned int *word);
ARC4_HIDDEN void arc4_owned_unlock(unsigned int *word);
ARC4_HIDDEN int arc4_owned_by_me(const unsigned int *word);
/* In a forked child, after arc4_lock_forked(): the forking thread's hold
 * on word, if it had one, passes to the child's thread. */
ARC4_HIDDEN void arc4_owned_forked(unsigned int *word);

/*
 * Strong output: /dev/arc4 through a per-thread buffer, getrandom() when
 * the device is missing, abort() when neither is left.  Lock-free and
 * syscall-free while the thread's buffer lasts.
 *
 * A thread's first few values come straight from getrandom(), one system
 * call each, and only a thread that keeps drawing gets a buffer: one
 * 16 KiB mapping (buffer.c), consumed from the end, each byte zeroed as it
 * is taken.  Taking a value from it is inline here, so that rand() and
 * friends make no call into buffer.c until the buffer runs dry;
 * arc4_strong_*_slow() refill it.
 *
 * Machine copies: each fill records the generation of /dev/arc4's
 * generation page (arc4_gen, mapped by source.c), and a take compares it:
 * after a VM fork or a hibernation resume the page has moved on and the
 * buffer counts as empty.  Where the page is not mapped arc4_gen points at
 * a nonzero constant (and while /dev/arc4 serves, no thread keeps a
 * buffer).  No generation is ever 0, the s->gen of a buffer a fork has
 * zeroed: a signal handler that forks, and whose child returns into a
 * take or a refill it interrupted, leaves a child whose buffer matches no
 * generation whatever that call then stores in avail, and a take that
 * finds s->gen zeroed after its copy fails (what it copied may be the
 * zeroes).
 * Only equality matters: on a 32-bit machine a torn read of the counter
 * is a change, which costs a refill and nothing else.  A take's load may
 * be relaxed; the one before a refill is an acquire
 * (arc4_generation_acquire()), pairing with the kernel's write barrier
 * between rekeying the streams and moving the counter, so that a refill
 * that saw the new generation reads new keys.
 *
 * Same-thread re-entry: a signal handler can interrupt a call between any
 * two instructions and call the shim itself.  If both read avail and both
 * wrote it back, they would take the same bytes, one of them already
 * zeroed by the other.  So arc4_tls_strong points at the buffer only while
 * no call on the thread is using it: a call points it at arc4_strong_busy
 * (an empty buffer, never written) before it reads avail and restores it
 * when done, and a call that finds that goes to the slow path, which
 * serves it straight from a source without touching the buffer.  A thread
 * without a buffer points at arc4_strong_none, as empty, so the common
 * path has no NULL test; a call that finds it while the thread has a
 * buffer (a handler made one while a take held none) is idle and takes
 * the buffer back.  Its cost is those two stores, kept in place by
 * compiler-only signal fences: no lock, no atomic instruction, no system
 * call.
 */
enum { ARC4_STRONG_MAP = 16384,
       ARC4_STRONG_BUF = ARC4_STRONG_MAP - 16 };

/*
 * A thread's buffer is an ARC4_STRONG_MAP-byte mapping: ARC4_STRONG_BUF
 * bytes of buf.  The two sentinels are the header alone: 32 bytes of
 * .bss, in the page the loader has already written, not 32 KiB that a
 * preloaded library would map into every process.
 */
struct arc4_strong {
	uint64_t gen;		/* *arc4_gen when buf was filled */
	size_t avail;		/* bytes left, at the start of buf */
	uint8_t buf[];
};

ARC4_HIDDEN extern const uint64_t *arc4_gen;
ARC4_HIDDEN extern struct arc4_strong arc4_strong_none, arc4_strong_busy;
#define ARC4_STRONG_NONE (&arc4_strong_none)
#define ARC4_STRONG_BUSY (&arc4_strong_busy)
ARC4_HIDDEN extern __thread struct arc4_strong *arc4_tls_strong
	__attribute__((tls_model("initial-exec")));

static inline uint64_t arc4_generation(void)
{
	return *(const volatile uint64_t *)__atomic_load_n(&arc4_gen,
							   __ATOMIC_RELAXED);
}
/*
 * A volatile load and a fence, not an atomic acquire load: on 32-bit x86
 * a 64-bit atomic load may be a cmpxchg8b, which faults on the read-only
 * page.  ThreadSanitizer knows no fences; its builds (64-bit only) take
 * the acquire load it understands.
 */
static inline uint64_t arc4_generation_acquire(void)
{
#ifdef __SANITIZE_THREAD__
	return __atomic_load_n(__atomic_load_n(&arc4_gen, __ATOMIC_RELAXED),
			       __ATOMIC_ACQUIRE);
#else
	uint64_t g = arc4_generation();

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return g;
#endif
}

ARC4_HIDDEN uint32_t arc4_strong_u32_slow(void);
ARC4_HIDDEN uint64_t arc4_strong_u64_slow(void);
ARC4_HIDDEN void arc4_strong_bytes(void *buf, size_t len);

/*
 * Take len bytes (len > 0) from the thread's buffer into out, wiping them
 * there.  0 if the buffer is short, of another generation, missing or in
 * use on this thread.
 */
static inline int arc4_strong_take(void *out, size_t len)
{
	struct arc4_strong *s = arc4_tls_strong;
	size_t avail;
	int ok;

	arc4_tls_strong = ARC4_STRONG_BUSY;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* Read once: the generation's volatile load would force a reload. */
	avail = s->avail;
	ok = arc4_likely(avail >= len) &&
	     arc4_likely(s->gen == arc4_generation());
	if (ok) {
		avail -= len;
		s->avail = avail;
		memcpy(out, s->buf + avail, len);
		memset(s->buf + avail, 0, len);
		/* A fork in between zeroed the child's s->gen and s->buf. */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		ok = arc4_likely(s->gen != 0);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	arc4_tls_strong = s;
	return ok;
}

static inline uint32_t arc4_strong_u32(void)
{
	uint32_t v;

	if (arc4_unlikely(!arc4_strong_take(&v, sizeof(v))))
		return arc4_strong_u32_slow();
	return v;
}

static inline uint64_t arc4_strong_u64(void)
{
	uint64_t v;

	if (arc4_unlikely(!arc4_strong_take(&v, sizeof(v))))
		return arc4_strong_u64_slow();
	return v;
}

/*
 * For det.c, which opens its own seeded descriptors with the strong
 * stream's checks: arc4_device_open() opens /dev/arc4 close-on-exec, above
 * 2, checked to be an arc4 stream (-1 if missing or refused) and records
 * what it is; arc4_fd_is() tells whether fd still is that device.
 * arc4_die() says why on stderr and aborts.
 */
ARC4_HIDDEN int arc4_device_open(dev_t *rdev, ino_t *ino);
ARC4_HIDDEN int arc4_fd_is(int fd, dev_t rdev, ino_t ino);
ARC4_HIDDEN void arc4_die(const char *why) __attribute__((noreturn));

/* glibc's shared rand()/random() state, for ARC4_LEGACY=1 (random.c). */
ARC4_HIDDEN long arc4_random_state_next(void);
ARC4_HIDDEN void arc4_random_state_seed(unsigned int seed);

#endif /* ARC4_SHIM_H */
