// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ChaCha20 on arm64 NEON (part of every arm64 CPU): 4 blocks side by
 * side, register i holding state word i of each block, as the x86 code
 * does; transposed into byte order at the end.  Built only for arm64.
 */
#if defined(__aarch64__)

#include <string.h>
#include <arm_neon.h>

#include "chacha20.h"

#define ROTLQ(v, n) vsriq_n_u32(vshlq_n_u32(v, n), v, 32 - (n))

#define QRQ(a, b, c, d) do {						\
	a = vaddq_u32(a, b); d = ROTLQ(veorq_u32(d, a), 16);		\
	c = vaddq_u32(c, d); b = ROTLQ(veorq_u32(b, c), 12);		\
	a = vaddq_u32(a, b); d = ROTLQ(veorq_u32(d, a), 8);		\
	c = vaddq_u32(c, d); b = ROTLQ(veorq_u32(b, c), 7);		\
} while (0)

/* Rows a..d (word k of blocks 0-3) to columns (words k..k+3 of a block). */
static void transposeq(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c,
		       uint32x4_t *d)
{
	uint32x4x2_t p = vtrnq_u32(*a, *b), q = vtrnq_u32(*c, *d);

	*a = vreinterpretq_u32_u64(vzip1q_u64(vreinterpretq_u64_u32(p.val[0]),
					      vreinterpretq_u64_u32(q.val[0])));
	*b = vreinterpretq_u32_u64(vzip1q_u64(vreinterpretq_u64_u32(p.val[1]),
					      vreinterpretq_u64_u32(q.val[1])));
	*c = vreinterpretq_u32_u64(vzip2q_u64(vreinterpretq_u64_u32(p.val[0]),
					      vreinterpretq_u64_u32(q.val[0])));
	*d = vreinterpretq_u32_u64(vzip2q_u64(vreinterpretq_u64_u32(p.val[1]),
					      vreinterpretq_u64_u32(q.val[1])));
}

static void chacha20_neon_4(const uint32_t in[16], uint8_t *out)
{
	uint64_t c = arc4_chacha20_counter(in);
	uint32_t lo[4], hi[4];
	uint32x4_t s[16], x[16];
	int i;

	for (i = 0; i < 4; i++) {
		lo[i] = (uint32_t)(c + i);
		hi[i] = (uint32_t)((c + i) >> 32);
	}
	for (i = 0; i < 16; i++)
		s[i] = vdupq_n_u32(in[i]);
	s[12] = vld1q_u32(lo);
	s[13] = vld1q_u32(hi);
	memcpy(x, s, sizeof(x));
	for (i = 0; i < 10; i++) {
		QRQ(x[0], x[4], x[8], x[12]);
		QRQ(x[1], x[5], x[9], x[13]);
		QRQ(x[2], x[6], x[10], x[14]);
		QRQ(x[3], x[7], x[11], x[15]);
		QRQ(x[0], x[5], x[10], x[15]);
		QRQ(x[1], x[6], x[11], x[12]);
		QRQ(x[2], x[7], x[8], x[13]);
		QRQ(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		x[i] = vaddq_u32(x[i], s[i]);
	for (i = 0; i < 16; i += 4) {
		transposeq(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
		vst1q_u8(out + 4 * i, vreinterpretq_u8_u32(x[i]));
		vst1q_u8(out + 64 + 4 * i, vreinterpretq_u8_u32(x[i + 1]));
		vst1q_u8(out + 128 + 4 * i, vreinterpretq_u8_u32(x[i + 2]));
		vst1q_u8(out + 192 + 4 * i, vreinterpretq_u8_u32(x[i + 3]));
	}
	explicit_bzero(x, sizeof(x));
	explicit_bzero(s, sizeof(s));
}

size_t arc4_chacha20_neon(const uint32_t in[16], uint8_t *out, size_t nblocks)
{
	uint32_t st[16];
	size_t b;

	memcpy(st, in, sizeof(st));
	for (b = 0; b + 4 <= nblocks; b += 4, out += 256) {
		chacha20_neon_4(st, out);
		arc4_chacha20_set_counter(st, arc4_chacha20_counter(st) + 4);
	}
	explicit_bzero(st, sizeof(st));
	return b;
}

#endif /* __aarch64__ */
