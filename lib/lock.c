// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The state lock: arc4_lock(), arc4_unlock(), arc4_lock_forked(), and
 * the thread token it is held by, arc4_thread_token(); and the same kind
 * of lock for other words, arc4_owned_lock() and friends.
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
 * forked child's thread has an id of its own.  fork() forgets the cache
 * (arc4_lock_forked()); a child of _Fork() or of a raw clone runs no
 * handler, so the cache is good only while a word in a MADV_WIPEONFORK
 * page, which every child sees zeroed, says so.  Where no such page can
 * be had, the atfork handler alone.  The locks the forking thread held
 * pass to its new token in the child (arc4_lock_forked()).
 *
 * Taking and dropping the lock is no cancellation point (the futex calls
 * are raw system calls); the few paths under it that call one (det.c's
 * open() and pread()) turn cancellation off themselves, so a cancelled
 * thread never holds it.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "shim.h"

enum { LOCK_WAITERS = 1u << 31 };

static unsigned int state_lock;		/* owner's token | LOCK_WAITERS, or 0 */
static __thread unsigned int tls_token __attribute__((tls_model("initial-exec")));
static __thread unsigned int tls_nested __attribute__((tls_model("initial-exec")));

/* 1 in this process; 0 in a child (or before the page is mapped). */
static const unsigned int token_never;
static unsigned int *token_live = (unsigned int *)&token_never;

static void token_live_map(void)
{
	static unsigned int token_always = 1;
	unsigned int *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int *none = (unsigned int *)&token_never;

	if (p == MAP_FAILED)
		p = &token_always;
	else if (madvise(p, 4096, MADV_WIPEONFORK) != 0) {
		munmap(p, 4096);
		p = &token_always;
	}
	if (!__atomic_compare_exchange_n(&token_live, &none, p, 0,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED) &&
	    p != &token_always)
		munmap(p, 4096);
}

/*
 * A forked child's words that its thread held under its old token
 * (arc4_lock_forked()); tls_forked marks that thread until its first
 * token fetch passes them to its new token.
 */
static unsigned int token_forked;
static unsigned int *forked_words[2];
static unsigned int forked_count;
static __thread int tls_forked __attribute__((tls_model("initial-exec")));

static void lock_pass_forked(unsigned int t)
{
	for (unsigned int i = 0; i < forked_count; i++) {
		unsigned int cur = __atomic_load_n(forked_words[i],
						   __ATOMIC_RELAXED);

		if (cur != 0 && (cur & ~LOCK_WAITERS) == token_forked)
			__atomic_store_n(forked_words[i], t, __ATOMIC_RELAXED);
	}
	tls_forked = 0;
}

/*
 * Once per thread (and once in a child), out of line: inlined, the system
 * calls would make arc4_lock() save and restore registers on every call.
 */
static __attribute__((noinline, cold)) unsigned int lock_token_fetch(void)
{
	int saved_errno = errno;
	unsigned int t = (unsigned int)syscall(SYS_gettid);

	if (__atomic_load_n(&token_live, __ATOMIC_RELAXED) == &token_never)
		token_live_map();
	__atomic_store_n(__atomic_load_n(&token_live, __ATOMIC_ACQUIRE), 1,
			 __ATOMIC_RELAXED);
	if (tls_forked)
		lock_pass_forked(t);
	tls_token = t;
	errno = saved_errno;
	return t;
}

/* This thread's token: its thread id (gettid() cannot fail). */
static unsigned int lock_token(void)
{
	unsigned int t = tls_token;
	/* Acquire: the page another thread published (a move on x86). */
	const unsigned int *live = __atomic_load_n(&token_live,
						   __ATOMIC_ACQUIRE);

	/* Atomic loads (plain moves): other threads store to the word. */
	return arc4_likely(t != 0 && __atomic_load_n(live, __ATOMIC_RELAXED)) ?
	       t : lock_token_fetch();
}

unsigned int arc4_thread_token(void)
{
	return lock_token();
}

static void lock_futex(unsigned int *word, int op, unsigned int val)
{
	int saved_errno = errno;

	syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
	errno = saved_errno;
}

/* Wait for *word to be free and take it as me. */
static void lock_wait(unsigned int *word, unsigned int me, unsigned int cur)
{
	for (;;) {
		if (cur != 0) {
			if (!(cur & LOCK_WAITERS) &&
			    !__atomic_compare_exchange_n(word, &cur,
							 cur | LOCK_WAITERS, 0,
							 __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
				continue;
			lock_futex(word, FUTEX_WAIT, cur | LOCK_WAITERS);
		}
		/* Woken, or it was free: others may still sleep. */
		cur = 0;
		if (__atomic_compare_exchange_n(word, &cur, me | LOCK_WAITERS,
						0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
}

/* The lock was not free: ours already (nested), or wait for it. */
static __attribute__((noinline)) void lock_contended(unsigned int me,
						     unsigned int cur)
{
	if ((cur & ~LOCK_WAITERS) == me) {
		tls_nested++;
		return;
	}
	lock_wait(&state_lock, me, cur);
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
	arc4_owned_unlock(&state_lock);
}

/*
 * Another lock of the same kind, without nesting (source.c's descriptor
 * record): the owner is in the word from the instant it is taken to the
 * instant it is dropped, so a fork handler can ask arc4_owned_by_me()
 * whether its own thread holds it.  The token is fetched before the word
 * is touched: its first fetch makes system calls.
 */
void arc4_owned_lock(unsigned int *word)
{
	unsigned int me = lock_token(), cur = 0;

	if (!__atomic_compare_exchange_n(word, &cur, me, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		lock_wait(word, me, cur);
}

void arc4_owned_unlock(unsigned int *word)
{
	if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) & LOCK_WAITERS)
		lock_futex(word, FUTEX_WAKE, 1);
}

int arc4_owned_by_me(const unsigned int *word)
{
	unsigned int me = lock_token();	/* first: it may pass the word */

	return (__atomic_load_n(word, __ATOMIC_RELAXED) & ~LOCK_WAITERS) == me;
}

/*
 * In a forked child, whose only thread has a new id: the locks fork()
 * held (fork_prepare() took them, or this thread held them already and a
 * signal handler forked) are its old token's, and become its new one's,
 * so that it finds them its own at its next nested arc4_lock() or fork().
 * That happens at its next token fetch (lock_token_fetch()), which comes
 * before any look at a lock word, so that the child handler makes no
 * system call.  No other thread is left to wait: the waiters bit goes.
 */
void arc4_owned_forked(unsigned int *word)
{
	if (forked_count < sizeof(forked_words) / sizeof(forked_words[0]))
		forked_words[forked_count++] = word;
}

void arc4_lock_forked(void)
{
	token_forked = tls_token;
	tls_token = 0;
	tls_forked = 1;
	forked_count = 0;
	arc4_owned_forked(&state_lock);
}
