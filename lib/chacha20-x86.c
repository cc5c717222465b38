// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ChaCha20 on x86 SIMD: 4 blocks side by side in SSE2 registers (with
 * SSE2 or SSSE3 instructions), 8 in AVX2 registers, 16 in AVX-512
 * registers.  Register i holds state word i of every block (lane j is
 * block counter + j), so a round is the scalar round on vectors; the
 * blocks are transposed into their byte order only at the end.  Each
 * function is compiled for its instruction set with a target attribute
 * and called only where the CPU has it (chacha20.c asks cpuid), so the
 * library runs on any x86 CPU.
 */
#if defined(__x86_64__) || defined(__i386__)

#include <string.h>
#include <immintrin.h>

#include "chacha20.h"

/* The counters of a group of n blocks: low and high words per lane. */
static void chacha20_lane_counters(const uint32_t in[16], int n,
				   uint32_t lo[16], uint32_t hi[16])
{
	uint64_t c = arc4_chacha20_counter(in);
	int j;

	for (j = 0; j < n; j++) {
		lo[j] = (uint32_t)(c + j);
		hi[j] = (uint32_t)((c + j) >> 32);
	}
}

/* SSE2 and SSSE3 -------------------------------------------------------- */

#define SSE2 __attribute__((target("sse2")))
#define SSSE3 __attribute__((target("ssse3")))

#define ROTL128(v, n) \
	_mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - (n)))

/*
 * The rotations by 16 and by 8 of each: SSE2 swaps the 16-bit halves of
 * each word with two word shuffles and rotates by 8 with two shifts and
 * an or; SSSE3 does either with one byte shuffle (pshufb).
 */
#define ROT16_sse2(v) _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xb1), 0xb1)
#define ROT8_sse2(v) ROTL128(v, 8)
#define ROT16_ssse3(v) _mm_shuffle_epi8(v, _mm_setr_epi8(2, 3, 0, 1, \
	6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13))
#define ROT8_ssse3(v) _mm_shuffle_epi8(v, _mm_setr_epi8(3, 0, 1, 2, \
	7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14))

#define QR128(isa, a, b, c, d) do {					\
	a = _mm_add_epi32(a, b); d = ROT16_##isa(_mm_xor_si128(d, a));	\
	c = _mm_add_epi32(c, d); b = ROTL128(_mm_xor_si128(b, c), 12);	\
	a = _mm_add_epi32(a, b); d = ROT8_##isa(_mm_xor_si128(d, a));	\
	c = _mm_add_epi32(c, d); b = ROTL128(_mm_xor_si128(b, c), 7);	\
} while (0)

/* Rows a..d (word k of blocks 0-3) to columns (words k..k+3 of a block). */
SSE2 static void transpose128(__m128i *a, __m128i *b, __m128i *c, __m128i *d)
{
	__m128i p = _mm_unpacklo_epi32(*a, *b), q = _mm_unpacklo_epi32(*c, *d);
	__m128i r = _mm_unpackhi_epi32(*a, *b), s = _mm_unpackhi_epi32(*c, *d);

	*a = _mm_unpacklo_epi64(p, q);
	*b = _mm_unpackhi_epi64(p, q);
	*c = _mm_unpacklo_epi64(r, s);
	*d = _mm_unpackhi_epi64(r, s);
}

/*
 * chacha20_<isa>_rounds(): the 20 rounds and the final addition, x =
 * rounds(s) + s, on 16 local variables (the register allocator keeps
 * more of them in registers than it does of an array), once for each
 * instruction set: only the rotations differ.
 */
#define CHACHA20_ROUNDS128(isa, target)					\
target static void chacha20_##isa##_rounds(const __m128i s[16], __m128i x[16]) \
{									\
	__m128i a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3];		\
	__m128i b0 = s[4], b1 = s[5], b2 = s[6], b3 = s[7];		\
	__m128i c0 = s[8], c1 = s[9], c2 = s[10], c3 = s[11];		\
	__m128i d0 = s[12], d1 = s[13], d2 = s[14], d3 = s[15];		\
	int i;								\
									\
	for (i = 0; i < 10; i++) {					\
		QR128(isa, a0, b0, c0, d0);				\
		QR128(isa, a1, b1, c1, d1);				\
		QR128(isa, a2, b2, c2, d2);				\
		QR128(isa, a3, b3, c3, d3);				\
		QR128(isa, a0, b1, c2, d3);				\
		QR128(isa, a1, b2, c3, d0);				\
		QR128(isa, a2, b3, c0, d1);				\
		QR128(isa, a3, b0, c1, d2);				\
	}								\
	x[0] = _mm_add_epi32(a0, s[0]); x[1] = _mm_add_epi32(a1, s[1]);	\
	x[2] = _mm_add_epi32(a2, s[2]); x[3] = _mm_add_epi32(a3, s[3]);	\
	x[4] = _mm_add_epi32(b0, s[4]); x[5] = _mm_add_epi32(b1, s[5]);	\
	x[6] = _mm_add_epi32(b2, s[6]); x[7] = _mm_add_epi32(b3, s[7]);	\
	x[8] = _mm_add_epi32(c0, s[8]); x[9] = _mm_add_epi32(c1, s[9]);	\
	x[10] = _mm_add_epi32(c2, s[10]);				\
	x[11] = _mm_add_epi32(c3, s[11]);				\
	x[12] = _mm_add_epi32(d0, s[12]);				\
	x[13] = _mm_add_epi32(d1, s[13]);				\
	x[14] = _mm_add_epi32(d2, s[14]);				\
	x[15] = _mm_add_epi32(d3, s[15]);				\
}

CHACHA20_ROUNDS128(sse2, SSE2)
CHACHA20_ROUNDS128(ssse3, SSSE3)

typedef void chacha20_rounds128_fn(const __m128i s[16], __m128i x[16]);

/*
 * Whole groups of 4 blocks with the given rounds; inlined into each
 * instruction set's entry point, so the rounds are a direct call there.
 */
SSE2 static inline __attribute__((always_inline)) size_t
chacha20_x4(const uint32_t in[16], uint8_t *out, size_t nblocks,
	    chacha20_rounds128_fn *rounds)
{
	uint32_t st[16], lo[16], hi[16];
	__m128i s[16], x[16];
	size_t b;
	int i;

	memcpy(st, in, sizeof(st));
	for (i = 0; i < 16; i++)
		s[i] = _mm_set1_epi32((int)st[i]);
	for (b = 0; b + 4 <= nblocks; b += 4, out += 256) {
		chacha20_lane_counters(st, 4, lo, hi);
		s[12] = _mm_loadu_si128((const __m128i *)lo);
		s[13] = _mm_loadu_si128((const __m128i *)hi);
		rounds(s, x);
		for (i = 0; i < 16; i += 4) {
			transpose128(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
			_mm_storeu_si128((__m128i *)(out + 4 * i), x[i]);
			_mm_storeu_si128((__m128i *)(out + 64 + 4 * i), x[i + 1]);
			_mm_storeu_si128((__m128i *)(out + 128 + 4 * i), x[i + 2]);
			_mm_storeu_si128((__m128i *)(out + 192 + 4 * i), x[i + 3]);
		}
		arc4_chacha20_set_counter(st, arc4_chacha20_counter(st) + 4);
	}
	explicit_bzero(x, sizeof(x));
	explicit_bzero(s, sizeof(s));
	explicit_bzero(st, sizeof(st));
	return b;
}

SSE2 size_t arc4_chacha20_sse2(const uint32_t in[16], uint8_t *out,
			       size_t nblocks)
{
	return chacha20_x4(in, out, nblocks, chacha20_sse2_rounds);
}

SSSE3 size_t arc4_chacha20_ssse3(const uint32_t in[16], uint8_t *out,
				 size_t nblocks)
{
	return chacha20_x4(in, out, nblocks, chacha20_ssse3_rounds);
}

/* AVX2 ------------------------------------------------------------------ */

#define AVX2 __attribute__((target("avx2")))

/* Rotations by whole bytes are one byte shuffle. */
#define ROT16_256 _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, \
	14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define ROT8_256 _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, \
	15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)
#define ROTL256(v, n) \
	_mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - (n)))

#define QR256(a, b, c, d) do {						\
	a = _mm256_add_epi32(a, b);					\
	d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), r16);		\
	c = _mm256_add_epi32(c, d);					\
	b = ROTL256(_mm256_xor_si256(b, c), 12);			\
	a = _mm256_add_epi32(a, b);					\
	d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), r8);		\
	c = _mm256_add_epi32(c, d);					\
	b = ROTL256(_mm256_xor_si256(b, c), 7);				\
} while (0)

/*
 * Within each 128-bit half, rows a..d to columns: afterwards a holds words
 * k..k+3 of block 0 (low half) and of block 4 (high half), b of blocks 1
 * and 5, and so on.
 */
AVX2 static void transpose256(__m256i *a, __m256i *b, __m256i *c, __m256i *d)
{
	__m256i p = _mm256_unpacklo_epi32(*a, *b);
	__m256i q = _mm256_unpacklo_epi32(*c, *d);
	__m256i r = _mm256_unpackhi_epi32(*a, *b);
	__m256i s = _mm256_unpackhi_epi32(*c, *d);

	*a = _mm256_unpacklo_epi64(p, q);
	*b = _mm256_unpackhi_epi64(p, q);
	*c = _mm256_unpacklo_epi64(r, s);
	*d = _mm256_unpackhi_epi64(r, s);
}

/* Words 8h..8h+7 of blocks 0-7, from x[8h..8h+7] after transpose256(). */
AVX2 static void store256(const __m256i *x, uint8_t *out)
{
	int j;

	for (j = 0; j < 4; j++) {
		_mm256_storeu_si256((__m256i *)(out + 64 * j),
				    _mm256_permute2x128_si256(x[j], x[4 + j], 0x20));
		_mm256_storeu_si256((__m256i *)(out + 64 * (j + 4)),
				    _mm256_permute2x128_si256(x[j], x[4 + j], 0x31));
	}
}

/* As chacha20_sse2_rounds(). */
AVX2 static void chacha20_avx2_rounds(const __m256i s[16], __m256i x[16])
{
	const __m256i r16 = ROT16_256, r8 = ROT8_256;
	__m256i a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3];
	__m256i b0 = s[4], b1 = s[5], b2 = s[6], b3 = s[7];
	__m256i c0 = s[8], c1 = s[9], c2 = s[10], c3 = s[11];
	__m256i d0 = s[12], d1 = s[13], d2 = s[14], d3 = s[15];
	int i;

	for (i = 0; i < 10; i++) {
		QR256(a0, b0, c0, d0);
		QR256(a1, b1, c1, d1);
		QR256(a2, b2, c2, d2);
		QR256(a3, b3, c3, d3);
		QR256(a0, b1, c2, d3);
		QR256(a1, b2, c3, d0);
		QR256(a2, b3, c0, d1);
		QR256(a3, b0, c1, d2);
	}
	x[0] = _mm256_add_epi32(a0, s[0]); x[1] = _mm256_add_epi32(a1, s[1]);
	x[2] = _mm256_add_epi32(a2, s[2]); x[3] = _mm256_add_epi32(a3, s[3]);
	x[4] = _mm256_add_epi32(b0, s[4]); x[5] = _mm256_add_epi32(b1, s[5]);
	x[6] = _mm256_add_epi32(b2, s[6]); x[7] = _mm256_add_epi32(b3, s[7]);
	x[8] = _mm256_add_epi32(c0, s[8]); x[9] = _mm256_add_epi32(c1, s[9]);
	x[10] = _mm256_add_epi32(c2, s[10]); x[11] = _mm256_add_epi32(c3, s[11]);
	x[12] = _mm256_add_epi32(d0, s[12]); x[13] = _mm256_add_epi32(d1, s[13]);
	x[14] = _mm256_add_epi32(d2, s[14]); x[15] = _mm256_add_epi32(d3, s[15]);
}

AVX2 static void chacha20_avx2_8(const uint32_t in[16], uint8_t *out)
{
	uint32_t lo[16], hi[16];
	__m256i s[16], x[16];
	int i;

	chacha20_lane_counters(in, 8, lo, hi);
	for (i = 0; i < 16; i++)
		s[i] = _mm256_set1_epi32((int)in[i]);
	s[12] = _mm256_loadu_si256((const __m256i *)lo);
	s[13] = _mm256_loadu_si256((const __m256i *)hi);
	chacha20_avx2_rounds(s, x);
	for (i = 0; i < 16; i += 4)
		transpose256(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
	store256(x, out);
	store256(x + 8, out + 32);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(s, sizeof(s));
}

size_t arc4_chacha20_avx2(const uint32_t in[16], uint8_t *out, size_t nblocks)
{
	uint32_t st[16];
	size_t b;

	memcpy(st, in, sizeof(st));
	for (b = 0; b + 8 <= nblocks; b += 8, out += 512) {
		chacha20_avx2_8(st, out);
		arc4_chacha20_set_counter(st, arc4_chacha20_counter(st) + 8);
	}
	explicit_bzero(st, sizeof(st));
	return b;
}

/* AVX-512 --------------------------------------------------------------- */

#define AVX512 __attribute__((target("avx512f")))

#define QR512(a, b, c, d) do {						\
	a = _mm512_add_epi32(a, b);					\
	d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);		\
	c = _mm512_add_epi32(c, d);					\
	b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);		\
	a = _mm512_add_epi32(a, b);					\
	d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);		\
	c = _mm512_add_epi32(c, d);					\
	b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);		\
} while (0)

/* As transpose256(), in each of the four 128-bit quarters. */
AVX512 static void transpose512(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
	__m512i p = _mm512_unpacklo_epi32(*a, *b);
	__m512i q = _mm512_unpacklo_epi32(*c, *d);
	__m512i r = _mm512_unpackhi_epi32(*a, *b);
	__m512i s = _mm512_unpackhi_epi32(*c, *d);

	*a = _mm512_unpacklo_epi64(p, q);
	*b = _mm512_unpackhi_epi64(p, q);
	*c = _mm512_unpacklo_epi64(r, s);
	*d = _mm512_unpackhi_epi64(r, s);
}

/*
 * After transpose512(), quarter m of x[j], x[4 + j], x[8 + j], x[12 + j]
 * holds words 0-3, 4-7, 8-11, 12-15 of block j + 4m.
 */
AVX512 static void store512(const __m512i *x, uint8_t *out)
{
	int j;

	for (j = 0; j < 4; j++) {
		__m512i t1 = _mm512_shuffle_i32x4(x[j], x[4 + j], 0x44);
		__m512i t2 = _mm512_shuffle_i32x4(x[j], x[4 + j], 0xee);
		__m512i u1 = _mm512_shuffle_i32x4(x[8 + j], x[12 + j], 0x44);
		__m512i u2 = _mm512_shuffle_i32x4(x[8 + j], x[12 + j], 0xee);

		_mm512_storeu_si512(out + 64 * j,
				    _mm512_shuffle_i32x4(t1, u1, 0x88));
		_mm512_storeu_si512(out + 64 * (j + 4),
				    _mm512_shuffle_i32x4(t1, u1, 0xdd));
		_mm512_storeu_si512(out + 64 * (j + 8),
				    _mm512_shuffle_i32x4(t2, u2, 0x88));
		_mm512_storeu_si512(out + 64 * (j + 12),
				    _mm512_shuffle_i32x4(t2, u2, 0xdd));
	}
}

AVX512 static void chacha20_avx512_16(const uint32_t in[16], uint8_t *out)
{
	uint32_t lo[16], hi[16];
	__m512i s[16], x[16];
	int i;

	chacha20_lane_counters(in, 16, lo, hi);
	for (i = 0; i < 16; i++)
		s[i] = _mm512_set1_epi32((int)in[i]);
	s[12] = _mm512_loadu_si512(lo);
	s[13] = _mm512_loadu_si512(hi);
	memcpy(x, s, sizeof(x));
	for (i = 0; i < 10; i++) {
		QR512(x[0], x[4], x[8], x[12]);
		QR512(x[1], x[5], x[9], x[13]);
		QR512(x[2], x[6], x[10], x[14]);
		QR512(x[3], x[7], x[11], x[15]);
		QR512(x[0], x[5], x[10], x[15]);
		QR512(x[1], x[6], x[11], x[12]);
		QR512(x[2], x[7], x[8], x[13]);
		QR512(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		x[i] = _mm512_add_epi32(x[i], s[i]);
	for (i = 0; i < 16; i += 4)
		transpose512(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
	store512(x, out);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(s, sizeof(s));
}

size_t arc4_chacha20_avx512(const uint32_t in[16], uint8_t *out,
			    size_t nblocks)
{
	uint32_t st[16];
	size_t b;

	memcpy(st, in, sizeof(st));
	for (b = 0; b + 16 <= nblocks; b += 16, out += 1024) {
		chacha20_avx512_16(st, out);
		arc4_chacha20_set_counter(st, arc4_chacha20_counter(st) + 16);
	}
	explicit_bzero(st, sizeof(st));
	return b;
}

#endif /* x86 */
