// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The shim's glue: the environment (arc4_legacy(), arc4_die()),
 * cancellation (arc4_cancel_off(), arc4_cancel_restore()) and fork.
 *
 * The rest of the shared machinery has a file each: lock.c (the state
 * lock), source.c (/dev/arc4 and getrandom()), buffer.c (the per-thread
 * strong buffer); the deterministic streams are in det.c, the ChaCha20
 * they fall back on in chacha20.c.  Everything here is hidden; the family
 * files wrap it.
 *
 * The shim lives in other people's processes.  Every entry point leaves
 * errno as it found it; descriptors are close-on-exec, never 0, 1 or 2,
 * and never leaked; a signal handler or a preloaded hook that calls the
 * shim while the same thread is inside it gets strong bytes that no other
 * call gets, and never waits for a lock its own thread holds; no call is
 * a cancellation point.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "strong.h"

/* ---- 1. Environment ------------------------------------------------- */

/*
 * No call of the shim is a cancellation point, as none of the calls it
 * stands in for is one.  The system calls it makes on a slow path through
 * libc wrappers (open(), read(), pread(), getrandom()) are, so the paths
 * that make them run with cancellation disabled: a thread with a pending
 * cancel returns from rand() as from glibc's, and no lock of ours is ever
 * left held by a cancelled thread.  pthread_setcancelstate() itself is no
 * cancellation point and does not touch errno.
 */
int arc4_cancel_off(void)
{
	int old = PTHREAD_CANCEL_ENABLE;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	return old;
}

void arc4_cancel_restore(int old)
{
	if (old != PTHREAD_CANCEL_DISABLE)
		pthread_setcancelstate(old, &old);
}

int arc4_legacy_state;	/* ARC4_LEGACY_UNKNOWN, _OFF or _ON */

/*
 * The variable's name in .data, not .rodata, as is the policy file's
 * (policy.c): .data shares the page the loader already wrote, while a
 * string in .rodata would make a process's first rand() fault in a page
 * that nothing else on its path touches (about 2,400 instructions).
 * Never written.
 */
static char legacy_name[] = "ARC4_LEGACY";

/*
 * Whether the environment the process started with holds an ARC4_LEGACY
 * entry: the constructor looks, in the array the kernel gave the process
 * (envp right after argv's NULL), before any of the program's own code
 * can have changed or freed what it points to; LEGACY_ENV_UNSEEN where
 * glibc passed another array (a dlopen() after setenv(): realloc() may
 * have freed it) or before the constructor ran.  Where it holds none, the
 * usual case, a first rand() skips secure_getenv(), whose binding costs
 * about 850 instructions; the look costs every process about 8 an entry.
 */
enum { LEGACY_ENV_UNSEEN, LEGACY_ENV_ABSENT, LEGACY_ENV_PRESENT };
static int legacy_env;

static int legacy_env_names_it(char **e)
{
	const size_t n = sizeof(legacy_name) - 1;

	for (; *e; e++) {
		size_t i = 1;

		if ((*e)[0] != 'A')	/* most entries: one load, one compare */
			continue;
		while (i < n && (*e)[i] == legacy_name[i])
			i++;
		if (i == n && (*e)[n] == '=')
			return 1;
	}
	return 0;
}

/*
 * secure_getenv(): a set-user-ID program must not be talked into
 * deterministic rand() by whoever runs it.
 */
int arc4_legacy_lookup(void)
{
	const char *v = __atomic_load_n(&legacy_env, __ATOMIC_RELAXED) ==
				LEGACY_ENV_ABSENT ? NULL
						  : secure_getenv(legacy_name);
	int s = (v && v[0] == '1' && v[1] == '\0') ? ARC4_LEGACY_ON
						    : ARC4_LEGACY_OFF;
	int listed = 0;

	/* Most systems have no policy file: one fstatat() says so. */
	if (s == ARC4_LEGACY_OFF && arc4_policy_present()) {
		int cancel = arc4_cancel_off();

		listed = arc4_policy_legacy();
		arc4_cancel_restore(cancel);
	}
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

/* ---- 2. Fork ----------------------------------------------------------- */

/*
 * The state lock and the descriptor record are held across fork(), so the
 * child finds them consistent (unless the forking thread holds them
 * itself: a signal handler that interrupted it forks); the child passes
 * them from its thread's old token to its new one (lock.c), so that it
 * finds them its own, and looks for a missing /dev/arc4 again at once.  Strong
 * buffers need nothing: every one is MADV_WIPEONFORK, so the child finds
 * them zeroed (empty) without touching their pages.
 */
static void fork_prepare(void)
{
	arc4_lock();
	arc4_source_lock();
}

static void fork_parent(void)
{
	arc4_source_unlock();
	arc4_unlock();
}

static void fork_child(void)
{
	arc4_lock_forked();
	arc4_source_forked();
	arc4_source_unlock();
	arc4_unlock();
}

/*
 * At load time, not on first use: pthread_atfork() may allocate, and an
 * allocator that calls arc4random() must not find us half-initialised.
 * glibc passes a constructor the program's arguments and environment.
 */
__attribute__((constructor)) static void arc4_init(int argc, char **argv,
						   char **envp)
{
	if (argv && argc >= 0 && envp == argv + argc + 1)
		__atomic_store_n(&legacy_env, legacy_env_names_it(envp) ?
				 LEGACY_ENV_PRESENT : LEGACY_ENV_ABSENT,
				 __ATOMIC_RELAXED);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
