/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private interface between the family files (rand.c, random.c, rand48.c,
 * arc4random.c) and the shared machinery in shim.c.  Nothing declared here
 * is exported: the version script lists the public symbols.
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
#include <sys/types.h>
#include <linux/arc4.h>

#define ARC4_HIDDEN __attribute__((visibility("hidden")))
#define ARC4_EXPORT __attribute__((visibility("default")))

#define arc4_likely(x)		__builtin_expect(!!(x), 1)
#define arc4_unlikely(x)	__builtin_expect(!!(x), 0)

/* ARC4_LEGACY=1 in the environment (ignored in secure-execution mode). */
ARC4_HIDDEN int arc4_legacy(void);

/* One lock for all deterministic state; held across fork by atfork. */
ARC4_HIDDEN void arc4_lock(void);
ARC4_HIDDEN void arc4_unlock(void);

/*
 * Strong output: /dev/arc4 through a per-thread buffer, getrandom() when
 * the device is missing, abort() when neither is left.  Lock-free and
 * syscall-free while the thread's buffer lasts.
 */
ARC4_HIDDEN uint32_t arc4_strong_u32(void);
ARC4_HIDDEN uint64_t arc4_strong_u64(void);
ARC4_HIDDEN void arc4_strong_bytes(void *buf, size_t len);

/*
 * Deterministic stream: the ChaCha20 keystream of ARC4_IOC_SEED's key and
 * nonce, read with pread() from a /dev/arc4 descriptor of our own at a
 * position held here, or computed here when the device is missing.  Both
 * give the same bytes, so a seed gives the same sequence either way.
 */
enum { ARC4_DET_BUF = 4096 };

struct arc4_det {
	struct arc4_seed seed;	/* key and nonce, as given to ARC4_IOC_SEED */
	uint64_t pos;		/* stream offset of the next value */
	uint64_t base;		/* stream offset of buf[0] */
	size_t len;		/* valid bytes in buf */
	int fd;			/* our seeded /dev/arc4 descriptor, or -1 */
	dev_t rdev;		/* what fd referred to when we opened it */
	ino_t ino;
	uint8_t check[16];	/* stream bytes 0..15 as fd returned them */
	uint8_t buf[ARC4_DET_BUF];
};

/* Static initialiser: no descriptor yet. */
#define ARC4_DET_INIT { .fd = -1 }

/* Nonces that keep the families apart: ASCII tags, little-endian. */
#define ARC4_NONCE_RAND		0x00000000646e6172ull	/* "rand\0\0\0\0" */
#define ARC4_NONCE_RANDOM	0x00006d6f646e6172ull	/* "random\0\0" */

/* Under arc4_lock().  The seed rule is documented in arc4random.h. */
ARC4_HIDDEN void arc4_det_seed(struct arc4_det *d, uint64_t nonce,
			       uint32_t seed);
ARC4_HIDDEN uint32_t arc4_det_u32(struct arc4_det *d);

/* Exposed for the tests' white-box build only; see shim.c. */
ARC4_HIDDEN void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
				     uint64_t nonce, uint8_t out[64]);

/* glibc's shared rand()/random() state, for ARC4_LEGACY=1 (random.c). */
ARC4_HIDDEN long arc4_random_state_next(void);
ARC4_HIDDEN void arc4_random_state_seed(unsigned int seed);

#endif /* ARC4_SHIM_H */
