// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The state lock: arc4_lock(), arc4_unlock(), arc4_lock_forked().
 *
 * One lock for all deterministic state (shim.h).  A futex word holding its
 * owner's token (LOCK_WAITERS set while someone sleeps on it), not a
 * pthread mutex: a thread must be able to tell in one atomic step whether
 * it holds the lock itself.  A signal handler, or a preloaded hook on a
 * call made under the lock, that re-enters the shim on the owning thread
 * then goes on as the owner (tls_nested counts its levels) instead of
 * waiting for itself forever.  Other threads stay out.  What a nested call
 * may do with the state it interrupted is up to each family: the
 * deterministic streams serve it without touching their buffer (det.c);
 * the rand48 and initstate() families run glibc's *_r() functions on it,
 * which is what glibc's own unlocked drand48() does.
 *
 * The token is the kernel's thread id: unique among the live threads of
 * the process, below 2^30 (clear of LOCK_WAITERS), cached per thread.  A
 * forked child's thread has an id of its own; arc4_lock_forked() forgets
 * the cache.
 *
 * Taking and dropping the lock is no cancellation point (the futex calls
 * are raw system calls); the few paths under it that call one (det.c's
 * open() and pread()) turn cancellation off themselves, so a cancelled
 * thread never holds it.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "shim.h"

enum { LOCK_WAITERS = 1u << 31 };

static unsigned int state_lock;		/* owner's token | LOCK_WAITERS, or 0 */
static __thread unsigned int tls_token __attribute__((tls_model("initial-exec")));
static __thread unsigned int tls_nested __attribute__((tls_model("initial-exec")));

/*
 * Once per thread, out of line: inlined, the system call would make
 * arc4_lock() save and restore four registers on every call.
 */
static __attribute__((noinline, cold)) unsigned int lock_token_fetch(void)
{
	unsigned int t = (unsigned int)syscall(SYS_gettid);

	tls_token = t;
	return t;
}

/* This thread's token: its thread id (gettid() cannot fail). */
static unsigned int lock_token(void)
{
	unsigned int t = tls_token;

	return arc4_likely(t != 0) ? t : lock_token_fetch();
}

static void lock_futex(int op, unsigned int val)
{
	int saved_errno = errno;

	syscall(SYS_futex, &state_lock, op | FUTEX_PRIVATE_FLAG, val, NULL,
		NULL, 0);
	errno = saved_errno;
}

/* The lock was not free: ours already (nested), or wait for it. */
static __attribute__((noinline)) void lock_contended(unsigned int me,
						     unsigned int cur)
{
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

/*
 * The free lock taken in one compare-exchange; the rest out of line, so
 * that this path saves no registers.
 */
void arc4_lock(void)
{
	unsigned int me = lock_token(), cur = 0;

	if (arc4_likely(__atomic_compare_exchange_n(&state_lock, &cur, me, 0,
						    __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED)))
		return;
	lock_contended(me, cur);
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

/* In a forked child, whose only thread has a new id. */
void arc4_lock_forked(void)
{
	tls_token = 0;
}
