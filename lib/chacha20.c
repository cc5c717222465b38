// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ChaCha20, the portable half of the deterministic contract: where
 * /dev/arc4 is missing, det.c computes here the bytes the device would
 * have returned for the same key and nonce, so a seed gives the same
 * sequence with and without the module.
 */
#include <string.h>

#include "chacha20.h"

static inline uint32_t rotl32(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

#define QUARTER(a, b, c, d) do {				\
	a += b; d = rotl32(d ^ a, 16);				\
	c += d; b = rotl32(b ^ c, 12);				\
	a += b; d = rotl32(d ^ a, 8);				\
	c += d; b = rotl32(b ^ c, 7);				\
} while (0)

/*
 * Words 12-13 hold the block counter and 14-15 the nonce (original
 * ChaCha20, not RFC 8439's 32-bit counter and 96-bit nonce), as the
 * module's stream does.  The working state is wiped: it is key material.
 */
void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
			 uint64_t nonce, uint8_t out[64])
{
	uint32_t in[16], x[16];
	int i;

	in[0] = 0x61707865;	/* "expand 32-byte k" */
	in[1] = 0x3320646e;
	in[2] = 0x79622d32;
	in[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		in[4 + i] = arc4_load_le32(key + 4 * i);
	in[12] = (uint32_t)counter;
	in[13] = (uint32_t)(counter >> 32);
	in[14] = (uint32_t)nonce;
	in[15] = (uint32_t)(nonce >> 32);

	memcpy(x, in, sizeof(x));
	for (i = 0; i < 10; i++) {
		QUARTER(x[0], x[4], x[8], x[12]);
		QUARTER(x[1], x[5], x[9], x[13]);
		QUARTER(x[2], x[6], x[10], x[14]);
		QUARTER(x[3], x[7], x[11], x[15]);
		QUARTER(x[0], x[5], x[10], x[15]);
		QUARTER(x[1], x[6], x[11], x[12]);
		QUARTER(x[2], x[7], x[8], x[13]);
		QUARTER(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		arc4_store_le32(out + 4 * i, x[i] + in[i]);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(in, sizeof(in));
}
