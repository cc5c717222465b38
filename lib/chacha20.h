/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ChaCha20 in the process: for the deterministic streams of rand() and
 * random() where /dev/arc4 is missing (det.c) and for arc4_stream
 * (stream.c).  chacha20.c holds the portable code and picks, once, the
 * widest implementation the CPU runs (chacha20-x86.c: AVX-512, AVX2,
 * SSSE3, SSE2; chacha20-neon.c).  Private to the shim.
 */
#ifndef ARC4_CHACHA20_H
#define ARC4_CHACHA20_H

#include <stddef.h>
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
 * The input state of original ChaCha20 (20 rounds): constants, key, a
 * 64-bit block counter in words 12-13 and a 64-bit nonce in words 14-15,
 * the layout of /dev/arc4's deterministic streams: byte p of a stream is
 * byte p % 64 of the block with counter p / 64 (arc4(4), "Deterministic
 * mode").
 */
ARC4_HIDDEN void arc4_chacha20_init(uint32_t in[16], const uint8_t key[32],
				    uint64_t counter, uint64_t nonce);

/* Words 12-13 of in as the 64-bit block counter. */
static inline uint64_t arc4_chacha20_counter(const uint32_t in[16])
{
	return (uint64_t)in[13] << 32 | in[12];
}

static inline void arc4_chacha20_set_counter(uint32_t in[16], uint64_t c)
{
	in[12] = (uint32_t)c;
	in[13] = (uint32_t)(c >> 32);
}

/*
 * nblocks consecutive blocks, counters in's counter, counter + 1, ...
 * (modulo 2^64), into out (any alignment); in is not changed.  The
 * working state is wiped: it is key material.
 */
ARC4_HIDDEN void arc4_chacha20_blocks(const uint32_t in[16], uint8_t *out,
				      size_t nblocks);

/* One block: arc4_chacha20_blocks() from a key, counter and nonce. */
ARC4_HIDDEN void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
				     uint64_t nonce, uint8_t out[64]);

/*
 * HChaCha20 (the XChaCha20 subkey function) with the 16 bytes c as its
 * constants, read as four little-endian words in place of "expand
 * 32-byte k" (libsodium's crypto_core_hchacha20(out, in, key, c)): the
 * 20 rounds on c, key and the 16-byte input, no final addition; words 0-3
 * and 12-15 of the result, little-endian, are the 32-byte subkey.
 */
ARC4_HIDDEN void arc4_hchacha20(const uint8_t key[32], const uint8_t in[16],
				const uint8_t c[16], uint8_t out[32]);

/*
 * The implementations, widest first; each takes whole groups of its
 * width and leaves the rest to the next.  arc4_chacha20_blocks() uses the
 * one chosen by arc4_chacha20_select(NULL) (the widest the CPU runs),
 * chosen on first use.  Tests choose one by name ("avx512", "avx2",
 * "ssse3", "sse2", "neon", "portable") to check each: 0, or -1 if the
 * CPU lacks it.
 */
typedef size_t arc4_chacha20_fn(const uint32_t in[16], uint8_t *out,
				size_t nblocks);

ARC4_HIDDEN size_t arc4_chacha20_portable(const uint32_t in[16], uint8_t *out,
					  size_t nblocks);
#if defined(__x86_64__) || defined(__i386__)
ARC4_HIDDEN size_t arc4_chacha20_avx512(const uint32_t in[16], uint8_t *out,
					size_t nblocks);
ARC4_HIDDEN size_t arc4_chacha20_ssse3(const uint32_t in[16], uint8_t *out,
				       size_t nblocks);
ARC4_HIDDEN size_t arc4_chacha20_sse2(const uint32_t in[16], uint8_t *out,
				      size_t nblocks);
ARC4_HIDDEN size_t arc4_chacha20_avx2(const uint32_t in[16], uint8_t *out,
				      size_t nblocks);
#endif
#if defined(__aarch64__)
ARC4_HIDDEN size_t arc4_chacha20_neon(const uint32_t in[16], uint8_t *out,
				      size_t nblocks);
#endif
ARC4_HIDDEN int arc4_chacha20_select(const char *name);

#endif /* ARC4_CHACHA20_H */
