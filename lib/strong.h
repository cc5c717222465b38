/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Between the strong buffer (buffer.c), the strong sources (source.c) and
 * the glue that serves fork (shim.c).  Hidden, as everything in shim.h.
 */
#ifndef ARC4_STRONG_H
#define ARC4_STRONG_H

#include "shim.h"

/*
 * The order arc4_source_fill() tries the sources in:
 *   BUFFER     a refill, or one large request: /dev/arc4, else getrandom()
 *   EARLY      one of a thread's first values, or a value served without
 *              a buffer under a libc whose getrandom() is not VM-fork
 *              safe: the getrandom system call (cheapest to start: no
 *              descriptor, no vDSO state), else /dev/arc4
 *   LIBC       a value served without a buffer, where the libc's
 *              getrandom() is safe across VM forks: it, else /dev/arc4
 *   REENTERED  a call inside a call on the same thread: raw system calls,
 *              no lock; getrandom, else /dev/arc4
 * In every order /dev/urandom comes last, where getrandom() answers ENOSYS.
 */
enum arc4_fill {
	ARC4_FILL_BUFFER,
	ARC4_FILL_EARLY,
	ARC4_FILL_LIBC,
	ARC4_FILL_REENTERED,
};

ARC4_HIDDEN void arc4_source_fill(void *buf, size_t len, enum arc4_fill how);
/* /dev/arc4 serves this process (opened now if due): 1, else 0. */
ARC4_HIDDEN int arc4_source_device(void);
ARC4_HIDDEN int arc4_source_libc_vmsafe(void);
/* arc4_gen points at the generation page (mapped now if due): 1, else 0. */
ARC4_HIDDEN int arc4_source_generation(void);

/* fork(): the prepare, parent and child handlers' parts (shim.c). */
ARC4_HIDDEN void arc4_source_lock(void);
ARC4_HIDDEN void arc4_source_unlock(void);
ARC4_HIDDEN void arc4_source_forked(void);
ARC4_HIDDEN void arc4_lock_forked(void);

#endif /* ARC4_STRONG_H */
