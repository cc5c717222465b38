/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Portable ChaCha20 (chacha20.c), for the deterministic streams (det.c)
 * where /dev/arc4 is missing.  Private to the shim.
 */
#ifndef ARC4_CHACHA20_H
#define ARC4_CHACHA20_H

#include <stdint.h>

#include "shim.h"

static inline uint32_t arc4_load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void arc4_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * One 64-byte block of original ChaCha20 (20 rounds) with a 64-bit block
 * counter and a 64-bit nonce: byte p of a deterministic stream is byte
 * p % 64 of the block with counter p / 64 (arc4(4), "Deterministic mode").
 */
ARC4_HIDDEN void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
				     uint64_t nonce, uint8_t out[64]);

#endif /* ARC4_CHACHA20_H */
