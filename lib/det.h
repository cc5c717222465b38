/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The deterministic streams of srand_deterministic() and
 * srandom_deterministic() (det.c), for rand.c and random.c.  Private to
 * the shim.
 */
#ifndef ARC4_DET_H
#define ARC4_DET_H

#include "shim.h"

/*
 * Deterministic stream: the ChaCha20 keystream of ARC4_IOC_SEED's key and
 * nonce, read with pread() from a /dev/arc4 descriptor of our own at a
 * position held here, or computed by chacha20.c when the device is
 * missing.  Both give the same bytes, so a seed gives the same sequence
 * either way.
 */
enum { ARC4_DET_BUF = 4096 };

struct arc4_det {
	struct arc4_seed seed;	/* key and nonce, as given to ARC4_IOC_SEED */
	uint64_t pos;		/* stream offset of the next value */
	uint64_t base;		/* stream offset of buf[0] */
	size_t len;		/* valid bytes in buf */
	int inuse;		/* a call on the lock's owner is inside */
	int fd;			/* our seeded /dev/arc4 descriptor, or <= 0 */
	dev_t rdev;		/* what fd referred to when we opened it */
	ino_t ino;
	uint8_t check[16];	/* stream bytes 0..15 as fd returned them */
	uint8_t *buf;		/* cap bytes of the stream from base */
	size_t cap;
	uint8_t block[64];	/* buf where no mapping could be had */
};

/*
 * Static initialiser: no descriptor yet (ours are never 0, 1 or 2), no
 * buffer (mapped at the first refill).  All zero and small, so the state
 * goes to .bss and fits, with the rest of the library's writable data, in
 * the page the loader maps from the file: a preloaded library's
 * initialised data is copied into every process at load, and a larger
 * .bss costs every process one more mapping.
 */
#define ARC4_DET_INIT { .fd = 0 }

/* Nonces that keep the families apart: ASCII tags, little-endian. */
#define ARC4_NONCE_RAND		0x00000000646e6172ull	/* "rand\0\0\0\0" */
#define ARC4_NONCE_RANDOM	0x00006d6f646e6172ull	/* "random\0\0" */

/*
 * Under arc4_lock().  The seed rule is documented in arc4random.h.  Never
 * change errno.
 */
ARC4_HIDDEN void arc4_det_seed(struct arc4_det *d, uint64_t nonce,
			       uint32_t seed);
ARC4_HIDDEN uint32_t arc4_det_u32(struct arc4_det *d);

#endif /* ARC4_DET_H */
