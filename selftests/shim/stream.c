// SPDX-License-Identifier: GPL-2.0
/*
 * arc4_stream: every call against OpenSSL's ChaCha20 (the bytes, u32, u64,
 * uniform, double, the array calls, tell and seek anywhere in the
 * 2^64-byte stream, odd lengths, unaligned buffers, the wrap), the block
 * function split at every point of 128 blocks and across the carries at
 * 2^32 and 2^64 blocks, the known-answer files of kat/, split against
 * HChaCha20 under arc4's constants (this file's own, checked against
 * OpenSSL under ChaCha's) and a libsodium known answer,
 * srand_deterministic() as a stream, errno, fork, ENOMEM, and the device:
 * a seeded /dev/arc4 descriptor read at p gives the same bytes.  Each
 * ChaCha20 implementation the CPU runs is checked on its own (the
 * fixture's variants), the default choice too.
 *
 * Linked with libarc4.a to reach the library's hidden
 * arc4_chacha20_select(), which forces an implementation; the exported
 * symbols are checked through libarc4.so by stream-oracles.sh.
 * libsodium's HChaCha20 and Rust's rand_chacha are the oracles there.
 */
#include <dlfcn.h>
#include <sys/ioctl.h>
#include <openssl/evp.h>
#include <linux/arc4.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

int arc4_chacha20_select(const char *name);
void arc4_chacha20_init(uint32_t in[16], const uint8_t key[32],
			uint64_t counter, uint64_t nonce);
void arc4_chacha20_blocks(const uint32_t in[16], uint8_t *out, size_t nblocks);

/*
 * OpenSSL's chacha20 with the 16-byte IV LE64(p / 64) || LE64(stream): the
 * stream's layout.  The stream wraps at 2^64 bytes, OpenSSL's counter
 * does not: a range that crosses the wrap is two calls.
 */
static void ossl_part(const uint8_t key[32], uint64_t stream, uint64_t p,
		      uint8_t *out, size_t len)
{
	uint8_t iv[16], *zero = calloc(1, len + 64), *tmp = malloc(len + 64);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n;

	for (int i = 0; i < 8; i++) {
		iv[i] = (p / 64) >> (8 * i);
		iv[8 + i] = stream >> (8 * i);
	}
	EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
	EVP_EncryptUpdate(c, tmp, &n, zero, p % 64 + len);
	memcpy(out, tmp + p % 64, len);
	EVP_CIPHER_CTX_free(c);
	free(zero);
	free(tmp);
}

static void ossl_bytes(const uint8_t key[32], uint64_t stream, uint64_t p,
		       uint8_t *out, size_t len)
{
	uint64_t to_wrap = -p;

	if (p != 0 && len > to_wrap) {
		ossl_part(key, stream, p, out, to_wrap);
		ossl_part(key, stream, 0, out + to_wrap, len - to_wrap);
	} else {
		ossl_part(key, stream, p, out, len);
	}
}

static uint32_t le32(const uint8_t *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const uint8_t *b)
{
	return le32(b) | (uint64_t)le32(b + 4) << 32;
}

/*
 * HChaCha20 from OpenSSL: the ChaCha20 block whose words 12-15 are the
 * 16-byte input is the permuted state plus the input state, so HChaCha20's
 * words 0-3 and 12-15 are that block's words minus the input's.
 */
static void ossl_hchacha20(const uint8_t key[32], const uint8_t in[16],
			   uint8_t out[32])
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e,
					   0x79622d32, 0x6b206574 };
	uint8_t blk[64], zero[64] = { 0 };
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n;

	EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, in);
	EVP_EncryptUpdate(c, blk, &n, zero, 64);
	EVP_CIPHER_CTX_free(c);
	for (int i = 0; i < 4; i++) {
		uint32_t a = le32(blk + 4 * i) - sigma[i];
		uint32_t b = le32(blk + 48 + 4 * i) - le32(in + 4 * i);

		for (int k = 0; k < 4; k++) {
			out[4 * i + k] = a >> (8 * k);
			out[16 + 4 * i + k] = b >> (8 * k);
		}
	}
}

static void random_key(uint8_t key[32])
{
	if (getrandom(key, 32, 0) != 32)
		abort();
}

static uint64_t random_u64(void)
{
	uint64_t v;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		abort();
	return v;
}

/* Positions that matter: block and buffer edges, 2^32, 2^38, 2^60, the top. */
static const uint64_t positions[] = {
	0, 1, 3, 4, 63, 64, 65, 127, 255, 256, 511, 512, 513, 1021, 1023,
	1024, 1025, 2047, 4093,
	4096, 1ull << 32, (1ull << 32) - 2, (1ull << 38) + 17, 1ull << 60,
	(1ull << 60) + 509, (1ull << 63) - 5, -4096ull, -513ull, -64ull, -7ull,
	-1ull,
};
#define NPOS (sizeof(positions) / sizeof(positions[0]))

FIXTURE(stream) {
	uint8_t key[32];
	uint64_t id;
	arc4_stream *s;
};

FIXTURE_VARIANT(stream) {
	const char *impl;	/* NULL: the library's own choice */
};

FIXTURE_VARIANT_ADD(stream, default) { .impl = NULL };
FIXTURE_VARIANT_ADD(stream, portable) { .impl = "portable" };
#if defined(__x86_64__) || defined(__i386__)
FIXTURE_VARIANT_ADD(stream, sse2) { .impl = "sse2" };
FIXTURE_VARIANT_ADD(stream, ssse3) { .impl = "ssse3" };
FIXTURE_VARIANT_ADD(stream, avx2) { .impl = "avx2" };
FIXTURE_VARIANT_ADD(stream, avx512) { .impl = "avx512" };
#endif
#if defined(__aarch64__)
FIXTURE_VARIANT_ADD(stream, neon) { .impl = "neon" };
#endif

/*
 * The harness runs a test's body after a SKIP in its setup: each body
 * starts with NEED_IMPL().
 */
#define NEED_IMPL() do {						\
	if (!self->s)							\
		SKIP(return, "this CPU has no %s", variant->impl);	\
} while (0)

FIXTURE_SETUP(stream)
{
	self->s = NULL;
	if (variant->impl && arc4_chacha20_select(variant->impl) != 0)
		SKIP(return, "this CPU has no %s", variant->impl);
	random_key(self->key);
	self->id = random_u64();
	self->s = arc4_stream_new(self->key, self->id);
	ASSERT_NE(NULL, self->s);
}

FIXTURE_TEARDOWN(stream)
{
	arc4_stream_free(self->s);
}

TEST_F(stream, bytes_at_any_position_odd_length_unaligned_equal_openssl)
{
	NEED_IMPL();
	uint8_t *got = malloc(5000 + 8), *want = malloc(5000);

	for (size_t i = 0; i < NPOS; i++) {
		for (size_t len = 1; len < 5000; len = len * 3 + i % 5) {
			uint8_t *dst = got + (len + i) % 8;

			arc4_stream_seek(self->s, positions[i]);
			arc4_stream_buf(self->s, dst, len);
			ossl_bytes(self->key, self->id, positions[i], want, len);
			ASSERT_EQ(0, memcmp(dst, want, len))
				TH_LOG("%zu bytes at %#llx", len,
				       (unsigned long long)positions[i]);
			ASSERT_EQ(positions[i] + len, arc4_stream_tell(self->s));
		}
	}
	free(got);
	free(want);
}

/* Many calls of mixed sizes in a row: the concatenation is the stream. */
TEST_F(stream, consecutive_calls_concatenate)
{
	NEED_IMPL();
	enum { TOTAL = 40000 };
	uint8_t *got = malloc(TOTAL), *want = malloc(TOTAL);
	size_t off = 0, step = 0;
	uint64_t start = (1ull << 40) + 3;

	arc4_stream_seek(self->s, start);
	while (off < TOTAL) {
		size_t n = (step++ * 7919) % 1500;

		if (n > TOTAL - off)
			n = TOTAL - off;
		if (step % 3 == 0 && off + 4 <= TOTAL) {
			uint32_t v = arc4_stream_u32(self->s);

			memcpy(got + off, &v, 4);	/* little-endian host */
			off += 4;
			continue;
		}
		arc4_stream_buf(self->s, got + off, n);
		off += n;
	}
	ossl_bytes(self->key, self->id, start, want, TOTAL);
	EXPECT_EQ(0, memcmp(got, want, TOTAL));
	free(got);
	free(want);
}

TEST_F(stream, u32_and_u64_are_the_next_bytes_little_endian)
{
	NEED_IMPL();
	uint8_t want[64];

	for (size_t i = 0; i < NPOS; i++) {
		for (uint64_t d = 0; d < 12; d++) {
			uint64_t p = positions[i] + d;

			ossl_bytes(self->key, self->id, p, want, sizeof(want));
			arc4_stream_seek(self->s, p);
			ASSERT_EQ(le32(want), arc4_stream_u32(self->s));
			ASSERT_EQ(le64(want + 4), arc4_stream_u64(self->s));
			ASSERT_EQ(le32(want + 12), arc4_stream_u32(self->s));
			ASSERT_EQ(p + 16, arc4_stream_tell(self->s));
		}
	}
}

/*
 * The header's inline u32() and u64() (over the stream's window) and the
 * exported functions (called by address, as a program built with
 * ARC4_NO_INLINE or before the inline calls existed does), interleaved
 * with odd-sized reads that leave the window at every alignment and
 * across buffer ends: the concatenation is the stream.
 */
TEST_F(stream, inline_and_exported_u32_u64_interleave)
{
	NEED_IMPL();
	enum { TOTAL = 12000 };
	uint32_t (*const x32)(arc4_stream *) = arc4_stream_u32;
	uint64_t (*const x64)(arc4_stream *) = arc4_stream_u64;
	uint8_t *got = malloc(TOTAL), *want = malloc(TOTAL);
	uint64_t start = 1021, v;
	size_t off = 0, step = 0, n;

	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	arc4_stream_seek(self->s, start);
	while (off + 8 <= TOTAL) {
		switch (step++ % 5) {
		case 0: v = arc4_stream_u32(self->s); n = 4; break;
		case 1: v = arc4_stream_u64(self->s); n = 8; break;
		case 2: v = x32(self->s); n = 4; break;
		case 3: v = x64(self->s); n = 8; break;
		default: n = step % 7; arc4_stream_buf(self->s, got + off, n);
		}
		if (step % 5 != 0)
			memcpy(got + off, &v, n);	/* little-endian host */
		off += n;
	}
	ASSERT_EQ(start + off, arc4_stream_tell(self->s));
	ossl_bytes(self->key, self->id, start, want, off);
	EXPECT_EQ(0, memcmp(got, want, off));
	free(got);
	free(want);
}

/*
 * arc4_stream_refill(), which the inline calls use: at every position
 * near a buffer's end and the wrap, whether the buffer there was
 * computed or not, the window then holds at least 8 bytes, the stream's
 * own, and the position has not moved; tell(), a read and seek() from
 * there, with the last bytes of a buffer in its lead, are as anywhere.
 */
TEST_F(stream, refill_fills_the_window_without_moving_the_position)
{
	NEED_IMPL();
	const struct arc4_stream_window *w = (const void *)self->s;
	static const uint64_t bases[] = { 1024, 1ull << 38, -1024ull, 0 };
	uint8_t want[24], got[24];

	for (size_t b = 0; b < 4; b++) {
		for (uint64_t d = 0; d <= 12; d++) {
			uint64_t p = bases[b] - d;

			for (int warm = 0; warm < 2; warm++) {
				arc4_stream_seek(self->s, p - 8 * warm);
				if (warm)
					arc4_stream_u64(self->s);
				arc4_stream_refill(self->s);
				ASSERT_LE(8, w->end - w->next)
					TH_LOG("at %#llx", (unsigned long long)p);
				ASSERT_EQ(p, arc4_stream_tell(self->s));
				ossl_bytes(self->key, self->id, p, want, sizeof(want));
				ASSERT_EQ(0, memcmp(w->next, want, 8));
				arc4_stream_buf(self->s, got, 5);
				ASSERT_EQ(p + 5, arc4_stream_tell(self->s));
				ASSERT_EQ(le32(want + 5), arc4_stream_u32(self->s));
				arc4_stream_seek(self->s, arc4_stream_tell(self->s));
				arc4_stream_buf(self->s, got + 9, 15);
				ASSERT_EQ(0, memcmp(got, want, 5));
				ASSERT_EQ(0, memcmp(got + 9, want + 9, 15));
			}
		}
	}
}

/*
 * The position is modulo 2^64: after byte 2^64 - 1 comes byte 0, and
 * tell() says so.
 */
TEST_F(stream, position_wraps_at_2_to_the_64)
{
	NEED_IMPL();
	uint8_t got[20], want[20];

	arc4_stream_seek(self->s, -7ull);
	arc4_stream_buf(self->s, got, sizeof(got));
	ossl_part(self->key, self->id, -7ull, want, 7);
	ossl_part(self->key, self->id, 0, want + 7, 13);
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)));
	EXPECT_EQ(13, arc4_stream_tell(self->s));

	arc4_stream_seek(self->s, -2ull);
	EXPECT_EQ(le32(want + 5), arc4_stream_u32(self->s));
	EXPECT_EQ(2, arc4_stream_tell(self->s));
}

TEST_F(stream, seek_and_tell_are_positions)
{
	NEED_IMPL();
	uint8_t b[3];

	EXPECT_EQ(0, arc4_stream_tell(self->s));
	for (size_t i = 0; i < NPOS; i++) {
		arc4_stream_seek(self->s, positions[i]);
		EXPECT_EQ(positions[i], arc4_stream_tell(self->s));
		arc4_stream_buf(self->s, b, 0);
		EXPECT_EQ(positions[i], arc4_stream_tell(self->s));
		arc4_stream_buf(self->s, b, 3);
		EXPECT_EQ(positions[i] + 3, arc4_stream_tell(self->s));
	}
}

/* arc4random_uniform()'s rule, by hand, on OpenSSL's bytes. */
static uint32_t uniform_oracle(const uint8_t key[32], uint64_t id, uint64_t *p,
			       uint32_t bound)
{
	uint8_t b[4];
	uint32_t r, min = bound < 2 ? 0 : (uint32_t)((1ull << 32) % bound);

	if (bound < 2)
		return 0;
	do {
		ossl_bytes(key, id, *p, b, 4);
		*p += 4;
		r = le32(b);
	} while (r < min);
	return r % bound;
}

TEST_F(stream, uniform_is_arc4random_uniform_rule_on_the_u32s)
{
	NEED_IMPL();
	static const uint32_t bounds[] = { 0, 1, 2, 3, 7, 10, 1000,
		0x55555556u, 0x80000000u, 0x80000001u, 0xc0000001u,
		0xfffffffeu, 0xffffffffu };
	uint64_t p = 0;
	int rejected = 0;

	for (int k = 0; k < 300; k++) {
		for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
			uint64_t before = p;
			uint32_t want = uniform_oracle(self->key, self->id, &p,
						       bounds[i]);

			rejected += p - before > 4;
			ASSERT_EQ(want, arc4_stream_uniform(self->s, bounds[i]))
				TH_LOG("bound %u", bounds[i]);
			ASSERT_EQ(p, arc4_stream_tell(self->s));
		}
	}
	/* 0x80000001 rejects half its draws: the rule was exercised. */
	EXPECT_LT(100, rejected);
}

TEST_F(stream, double_is_u64_top_53_bits_times_2_to_the_minus_53)
{
	NEED_IMPL();
	uint8_t b[8 * 1000];

	arc4_stream_seek(self->s, 12345);
	ossl_bytes(self->key, self->id, 12345, b, sizeof(b));
	for (int i = 0; i < 1000; i++) {
		double want = ldexp((double)(le64(b + 8 * i) >> 11), -53);
		double got = arc4_stream_double(self->s);

		ASSERT_EQ(0, memcmp(&want, &got, sizeof(got)));
		ASSERT_TRUE(got >= 0.0 && got < 1.0);
	}
}

/*
 * The array calls give exactly the values of n single calls, from odd
 * positions, for n on both sides of the 1 KiB buffer and across the
 * wrap, write nothing past out[n - 1], and leave the position where the
 * single calls do.
 */
static const uint64_t array_starts[] = { 0, 1, 3, 5, 1021, 1023, 1025,
	(1ull << 32) - 3, (1ull << 60) + 509, -4099ull, -13ull };
static const size_t array_ns[] = { 0, 1, 2, 127, 128, 129, 255, 256, 257,
	300, 1000, 4097 };

#define NSTARTS (sizeof(array_starts) / sizeof(array_starts[0]))
#define NNS (sizeof(array_ns) / sizeof(array_ns[0]))

TEST_F(stream, u32s_equal_n_single_calls)
{
	NEED_IMPL();
	uint32_t *got = malloc(4 * (4097 + 1)), want;
	arc4_stream *one = arc4_stream_new(self->key, self->id);

	for (size_t ij = 0; ij < NSTARTS * NNS; ij++) {
		uint64_t st = array_starts[ij / NNS];
		size_t n = array_ns[ij % NNS];

		arc4_stream_seek(self->s, st);
		arc4_stream_seek(one, st);
		got[n] = 0xdeadbeef;
		arc4_stream_u32s(self->s, got, n);
		for (size_t k = 0; k < n; k++) {
			want = arc4_stream_u32(one);
			ASSERT_EQ(want, got[k])
				TH_LOG("value %zu of %zu from %#llx", k, n,
				       (unsigned long long)st);
		}
		ASSERT_EQ(0xdeadbeef, got[n]);
		ASSERT_EQ(arc4_stream_tell(one), arc4_stream_tell(self->s));
	}
	arc4_stream_free(one);
	free(got);
}

TEST_F(stream, u64s_equal_n_single_calls)
{
	NEED_IMPL();
	uint64_t *got = malloc(8 * (4097 + 1)), want;
	arc4_stream *one = arc4_stream_new(self->key, self->id);

	for (size_t ij = 0; ij < NSTARTS * NNS; ij++) {
		uint64_t st = array_starts[ij / NNS];
		size_t n = array_ns[ij % NNS];

		arc4_stream_seek(self->s, st);
		arc4_stream_seek(one, st);
		got[n] = 0xdeadbeef;
		arc4_stream_u64s(self->s, got, n);
		for (size_t k = 0; k < n; k++) {
			want = arc4_stream_u64(one);
			ASSERT_EQ(want, got[k])
				TH_LOG("value %zu of %zu from %#llx", k, n,
				       (unsigned long long)st);
		}
		ASSERT_EQ(0xdeadbeef, got[n]);
		ASSERT_EQ(arc4_stream_tell(one), arc4_stream_tell(self->s));
	}
	arc4_stream_free(one);
	free(got);
}

TEST_F(stream, doubles_equal_n_single_calls)
{
	NEED_IMPL();
	double *got = malloc(8 * (4097 + 1)), want, canary = -1.5;
	arc4_stream *one = arc4_stream_new(self->key, self->id);

	for (size_t ij = 0; ij < NSTARTS * NNS; ij++) {
		uint64_t st = array_starts[ij / NNS];
		size_t n = array_ns[ij % NNS];

		arc4_stream_seek(self->s, st);
		arc4_stream_seek(one, st);
		got[n] = canary;
		arc4_stream_doubles(self->s, got, n);
		for (size_t k = 0; k < n; k++) {
			want = arc4_stream_double(one);
			ASSERT_EQ(0, memcmp(&want, &got[k], sizeof(want)))
				TH_LOG("value %zu of %zu from %#llx", k, n,
				       (unsigned long long)st);
		}
		ASSERT_EQ(0, memcmp(&canary, &got[n], sizeof(canary)));
		ASSERT_EQ(arc4_stream_tell(one), arc4_stream_tell(self->s));
	}
	arc4_stream_free(one);
	free(got);
}

/* And against OpenSSL's bytes directly, once, from an odd position. */
TEST_F(stream, arrays_are_openssl_bytes_by_the_documented_rules)
{
	NEED_IMPL();
	enum { N = 700 };
	uint8_t b[8 * N];
	uint32_t u[N];
	uint64_t w[N];
	double d[N];

	ossl_bytes(self->key, self->id, 1001, b, sizeof(b));
	arc4_stream_seek(self->s, 1001);
	arc4_stream_u32s(self->s, u, N);
	arc4_stream_seek(self->s, 1001);
	arc4_stream_u64s(self->s, w, N);
	arc4_stream_seek(self->s, 1001);
	arc4_stream_doubles(self->s, d, N);
	for (int i = 0; i < N; i++) {
		double want = ldexp((double)(le64(b + 8 * i) >> 11), -53);

		ASSERT_EQ(le32(b + 4 * i), u[i]);
		ASSERT_EQ(le64(b + 8 * i), w[i]);
		ASSERT_EQ(0, memcmp(&want, &d[i], sizeof(want)));
	}
}

/*
 * OpenSSL's blocks from counter c on, never crossing 2^32 or 2^64 blocks in
 * one call (where its carry into word 13 would be the thing under test):
 * one call per side.
 */
static void ossl_blocks(const uint8_t key[32], uint64_t nonce, uint64_t c,
			uint8_t *out, size_t nblocks)
{
	while (nblocks > 0) {
		uint64_t room = 0x100000000ull - (c & 0xffffffffull);
		size_t n = nblocks < room ? nblocks : room;
		uint8_t iv[16], *zero = calloc(n, 64);
		EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
		int len;

		for (int i = 0; i < 8; i++) {
			iv[i] = c >> (8 * i);
			iv[8 + i] = nonce >> (8 * i);
		}
		EVP_EncryptInit_ex(x, EVP_chacha20(), NULL, key, iv);
		EVP_EncryptUpdate(x, out, &len, zero, 64 * n);
		EVP_CIPHER_CTX_free(x);
		free(zero);
		out += 64 * n;
		nblocks -= n;
		c += n;
	}
}

/*
 * The block function itself, for the chosen implementation: a read of
 * 128 blocks split at every block (each SIMD width's tail handed to the
 * next) equals one read of 128, and both equal OpenSSL, from counters
 * whose carries into word 13 (2^32 blocks) and past 2^64 blocks fall in
 * every lane of a 16-block group.
 */
TEST_F(stream, blocks_split_at_every_point_and_carries_equal_openssl)
{
	NEED_IMPL();
	enum { NB = 128 };
	/* No carry; the carry into word 13; the wrap past 2^64 blocks. */
	static const uint64_t bases[] = { 48, 0x100000000ull, 0 };
	uint8_t *whole = malloc(64 * NB), *parts = malloc(64 * NB + 1);
	uint8_t *want = malloc(64 * NB);
	uint32_t in[16];

	for (size_t b = 0; b < 3; b++) {
		for (uint64_t j = 0; j < 16; j++) {
			uint64_t c = bases[b] - 48 - j;

			arc4_chacha20_init(in, self->key, c, self->id);
			arc4_chacha20_blocks(in, whole, NB);
			ossl_blocks(self->key, self->id, c, want, NB);
			ASSERT_EQ(0, memcmp(whole, want, 64 * NB))
				TH_LOG("128 blocks from counter %#llx",
				       (unsigned long long)c);
			if (j % 8 != 1)
				continue;
			for (size_t k = 0; k <= NB; k++) {
				uint8_t *o = parts + (k & 1);	/* unaligned too */

				arc4_chacha20_init(in, self->key, c, self->id);
				arc4_chacha20_blocks(in, o, k);
				arc4_chacha20_init(in, self->key, c + k, self->id);
				arc4_chacha20_blocks(in, o + 64 * k, NB - k);
				ASSERT_EQ(0, memcmp(o, whole, 64 * NB))
					TH_LOG("split at block %zu from %#llx", k,
					       (unsigned long long)c);
			}
		}
	}
	free(whole);
	free(parts);
	free(want);
}

/*
 * Through the stream: a read of 128 blocks split anywhere equals the
 * whole read, from 0 and from across the 2^32-block carry (byte 2^38):
 * at every byte of the first 1 KiB buffer and past it, and at every block
 * edge and the bytes beside it after that (the emulated CPU of the test
 * VM is too slow for all 8193).
 */
static size_t next_split(size_t k)
{
	if (k < 1100 || k % 64 == 63 || k % 64 == 0)
		return k + 1;
	return k | 63;
}

TEST_F(stream, read_of_128_blocks_split_anywhere_equals_whole)
{
	NEED_IMPL();
	enum { LEN = 64 * 128 };
	static const uint64_t starts[] = { 0, (1ull << 38) - LEN / 2 - 5 };
	uint8_t *whole = malloc(LEN), *parts = malloc(LEN), *want = malloc(LEN);

	for (size_t i = 0; i < 2; i++) {
		arc4_stream_seek(self->s, starts[i]);
		arc4_stream_buf(self->s, whole, LEN);
		ossl_bytes(self->key, self->id, starts[i], want, LEN);
		ASSERT_EQ(0, memcmp(whole, want, LEN));
		for (size_t k = 0; k <= LEN; k = next_split(k)) {
			arc4_stream_seek(self->s, starts[i]);
			arc4_stream_buf(self->s, parts, k);
			arc4_stream_buf(self->s, parts + k, LEN - k);
			ASSERT_EQ(0, memcmp(parts, whole, LEN))
				TH_LOG("split at byte %zu from %#llx", k,
				       (unsigned long long)starts[i]);
		}
	}
	free(whole);
	free(parts);
	free(want);
}

/*
 * The known-answer files (selftests/shim/kat/, written by kat/gen.py from
 * Python cryptography's ChaCha20 and the rules of the man page): the
 * first 1000 u32, u64, double, uniform(1000) and uniform(2^31 + 1) values
 * of two streams and of a split child, each list from position 0, by single calls and
 * by the array calls.
 */
enum { KAT_MAX = 1000 };

/* Is the next list of the file the stream's values?  0 if so. */
static int kat_list(struct __test_metadata *_metadata, FILE *f,
		    arc4_stream *s, const char *kind, uint64_t a, uint64_t b)
{
	uint64_t n = strcmp(kind, "uniform") == 0 ? b : a, i, bad = n;
	static uint64_t w[KAT_MAX], gw[KAT_MAX];
	static double d[KAT_MAX], gd[KAT_MAX];
	static uint32_t g32[KAT_MAX];
	char line[64];

	if (n == 0 || n > KAT_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (!fgets(line, sizeof(line), f))
			return -1;
		w[i] = strtoull(line, NULL, 10);
		d[i] = strtod(line, NULL);
	}
	arc4_stream_seek(s, 0);
	for (i = 0; i < n && bad == n; i++) {
		if (strcmp(kind, "u32") == 0)
			gw[i] = arc4_stream_u32(s);
		else if (strcmp(kind, "u64") == 0)
			gw[i] = arc4_stream_u64(s);
		else if (strcmp(kind, "uniform") == 0)
			gw[i] = arc4_stream_uniform(s, (uint32_t)a);
		else if (strcmp(kind, "double") == 0)
			gd[i] = arc4_stream_double(s), gw[i] = w[i];
		else
			return -1;
		if (gw[i] != w[i] || (kind[0] == 'd' && memcmp(&gd[i], &d[i], 8)))
			bad = i;
	}
	arc4_stream_seek(s, 0);
	if (kind[0] == 'u' && kind[1] == '3') {
		arc4_stream_u32s(s, g32, n);
		for (i = 0; i < n && bad == n; i++)
			bad = g32[i] == w[i] ? n : i;
	} else if (kind[0] == 'u' && kind[1] == '6') {
		arc4_stream_u64s(s, gw, n);
		for (i = 0; i < n && bad == n; i++)
			bad = gw[i] == w[i] ? n : i;
	} else if (kind[0] == 'd') {
		arc4_stream_doubles(s, gd, n);
		if (bad == n && memcmp(gd, d, n * sizeof(*d)))
			bad = 0;
	}
	if (bad != n)
		TH_LOG("%s value %llu differs", kind, (unsigned long long)bad);
	return bad == n ? 0 : -1;
}

static int kat_file(struct __test_metadata *_metadata, const char *name)
{
	char path[PATH_MAX], line[160], hex[65], kind[16];
	uint64_t stream = 0, a, b = 0;
	arc4_stream *s = NULL, *p;
	uint8_t key[32];
	int lists = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/selftests/shim/kat/%s", top_dir(),
		 name);
	f = fopen(path, "re");
	if (!f)
		TH_LOG("%s: %s", path, strerror(errno));
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || strncmp(line, "child-key ", 10) == 0)
			continue;
		if (sscanf(line, "key %64s", hex) == 1) {
			for (int i = 0; i < 32; i++)
				if (sscanf(hex + 2 * i, "%2hhx", &key[i]) != 1)
					return -1;
		} else if (sscanf(line, "stream %" SCNu64, &stream) == 1) {
			continue;
		} else if (sscanf(line, "split %" SCNu64, &a) == 1) {
			p = arc4_stream_new(key, stream);
			s = arc4_stream_split(p, a);
			arc4_stream_free(p);
		} else if (sscanf(line, "%15s %" SCNu64 " %" SCNu64, kind, &a,
				  &b) >= 2) {
			if (!s)
				s = arc4_stream_new(key, stream);
			if (kat_list(_metadata, f, s, kind, a, b) != 0) {
				TH_LOG("%s: the %s list", name, kind);
				break;
			}
			lists++;
		}
	}
	if (f)
		fclose(f);
	arc4_stream_free(s);
	return lists;
}

TEST_F(stream, known_answer_files)
{
	NEED_IMPL();
	EXPECT_EQ(5, kat_file(_metadata, "a.txt"));
	EXPECT_EQ(5, kat_file(_metadata, "b.txt"));
	EXPECT_EQ(5, kat_file(_metadata, "split.txt"));
}

/*
 * HChaCha20 with any constants, written here from its definition (the
 * test's own code, not the library's): checked against OpenSSL with
 * ChaCha's constants below, then used with arc4's.
 */
#define QR(a, b, c, d) do {						\
	a += b; d ^= a; d = d << 16 | d >> 16;				\
	c += d; b ^= c; b = b << 12 | b >> 20;				\
	a += b; d ^= a; d = d << 8 | d >> 24;				\
	c += d; b ^= c; b = b << 7 | b >> 25;				\
} while (0)

static void ref_hchacha20(const uint8_t key[32], const uint8_t in[16],
			  const char c[16], uint8_t out[32])
{
	uint32_t x[16];

	for (int i = 0; i < 4; i++) {
		x[i] = le32((const uint8_t *)c + 4 * i);
		x[12 + i] = le32(in + 4 * i);
	}
	for (int i = 0; i < 8; i++)
		x[4 + i] = le32(key + 4 * i);
	for (int r = 0; r < 10; r++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 4; i++) {
		for (int k = 0; k < 4; k++) {
			out[4 * i + k] = x[i] >> (8 * k);
			out[16 + 4 * i + k] = x[12 + i] >> (8 * k);
		}
	}
}

static const char split_constants[16] = {
	'a', 'r', 'c', '4', '-', 's', 'p', 'l',
	'i', 't', '-', 'k', 'e', 'y', '-', '1',
};

static void split_input(uint64_t stream, uint64_t index, uint8_t in[16])
{
	for (int k = 0; k < 8; k++) {
		in[k] = stream >> (8 * k);
		in[8 + k] = index >> (8 * k);
	}
}

TEST(reference_hchacha20_with_chacha_constants_equals_openssl)
{
	uint8_t key[32], in[16], want[32], got[32];

	for (int i = 0; i < 100; i++) {
		random_key(key);
		split_input(random_u64(), random_u64(), in);
		ossl_hchacha20(key, in, want);
		ref_hchacha20(key, in, "expand 32-byte k", got);
		ASSERT_EQ(0, memcmp(want, got, sizeof(got)));
	}
}

/*
 * split: HChaCha20 of the parent's key and LE64(parent stream) ||
 * LE64(index) under the constants "arc4-split-key-1" is the child's key,
 * stream 0, position 0.
 */
TEST_F(stream, split_child_is_hchacha20_arc4_constants_key_stream_0_position_0)
{
	NEED_IMPL();
	static const uint64_t idx[] = { 0, 1, 2, 0xffffffffull,
					0x100000000ull, -1ull };
	uint8_t in[16], ck[32], got[300], want[300], parent[300];

	arc4_stream_seek(self->s, 777);
	for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
		arc4_stream *c = arc4_stream_split(self->s, idx[i]);

		ASSERT_NE(NULL, c);
		split_input(self->id, idx[i], in);
		ref_hchacha20(self->key, in, split_constants, ck);
		EXPECT_EQ(0, arc4_stream_tell(c));
		arc4_stream_buf(c, got, sizeof(got));
		ossl_bytes(ck, 0, 0, want, sizeof(want));
		EXPECT_EQ(0, memcmp(got, want, sizeof(got)));
		ossl_bytes(self->key, self->id, 0, parent, sizeof(parent));
		EXPECT_NE(0, memcmp(got, parent, sizeof(got)));
		arc4_stream_free(c);
	}
	EXPECT_EQ(777, arc4_stream_tell(self->s));
}

/*
 * A known answer from libsodium, crypto_core_hchacha20(child, LE64(stream)
 * || LE64(42), key 00 01 .. 1f, "arc4-split-key-1") then
 * crypto_stream_chacha20(32, zero nonce, child); Python's pure HChaCha20
 * with `cryptography`'s ChaCha20 gives the same.
 */
TEST(split_known_answer_from_libsodium)
{
	static const uint8_t want[32] = {
		0x20, 0xd8, 0x8e, 0xf4, 0x5f, 0x0d, 0x73, 0x44,
		0x3b, 0x09, 0x58, 0xc6, 0x3b, 0xd5, 0xe3, 0x4c,
		0x53, 0xa8, 0xf4, 0x52, 0xea, 0x37, 0xa8, 0x15,
		0x77, 0x5b, 0x30, 0x0b, 0xd3, 0x5c, 0xfc, 0xe4,
	};
	uint8_t key[32], got[32];
	arc4_stream *s, *c;

	for (int i = 0; i < 32; i++)
		key[i] = i;
	s = arc4_stream_new(key, 0x0123456789abcdefull);
	ASSERT_NE(NULL, s);
	c = arc4_stream_split(s, 42);
	ASSERT_NE(NULL, c);
	arc4_stream_buf(c, got, sizeof(got));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	arc4_stream_free(c);
	arc4_stream_free(s);
}

/*
 * With ChaCha's constants HChaCha20(K, LE64(S) || LE64(I)) is block S of
 * stream I under K before the final addition: the child of split(new(K,
 * S), I) would be computable from 64 bytes of the parent key's output
 * (words 0-3 and 12-15 minus the input state).  Not so: the child's bytes
 * are not those of the key recovered that way.
 */
TEST_F(stream, split_child_key_is_not_derivable_from_the_parent_output)
{
	NEED_IMPL();
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e,
					   0x79622d32, 0x6b206574 };
	static const uint64_t si[][2] = { { 0, 0 }, { 7, 7 }, { 3, 1000 } };
	uint8_t blk[64], in[16], ck[32], got[64], old[64];

	for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++) {
		arc4_stream *p = arc4_stream_new(self->key, si[i][0]), *c;

		ASSERT_NE(NULL, p);
		c = arc4_stream_split(p, si[i][1]);
		ASSERT_NE(NULL, c);
		split_input(si[i][0], si[i][1], in);
		ossl_bytes(self->key, si[i][1], 64 * si[i][0], blk, 64);
		for (int w = 0; w < 4; w++) {
			uint32_t a = le32(blk + 4 * w) - sigma[w];
			uint32_t b = le32(blk + 48 + 4 * w) - le32(in + 4 * w);

			for (int k = 0; k < 4; k++) {
				ck[4 * w + k] = a >> (8 * k);
				ck[16 + 4 * w + k] = b >> (8 * k);
			}
		}
		arc4_stream_buf(c, got, sizeof(got));
		ossl_bytes(ck, 0, 0, old, sizeof(old));
		EXPECT_NE(0, memcmp(got, old, sizeof(got)))
			TH_LOG("split(new(K, %llu), %llu) follows from the parent's output",
			       (unsigned long long)si[i][0],
			       (unsigned long long)si[i][1]);
		arc4_stream_free(c);
		arc4_stream_free(p);
	}
}

TEST_F(stream, split_children_of_other_indices_differ_same_index_same)
{
	NEED_IMPL();
	arc4_stream *a = arc4_stream_split(self->s, 5);
	arc4_stream *b = arc4_stream_split(self->s, 5);
	arc4_stream *c = arc4_stream_split(self->s, 6);
	uint64_t va = arc4_stream_u64(a), vb = arc4_stream_u64(b);

	EXPECT_EQ(va, vb);
	EXPECT_NE(va, arc4_stream_u64(c));
	arc4_stream_free(a);
	arc4_stream_free(b);
	arc4_stream_free(c);
}

/* No call changes errno; new() and split() leave it alone on success. */
TEST_F(stream, errno_untouched)
{
	NEED_IMPL();
	uint8_t b[5000];
	arc4_stream *c;

	errno = 4242;
	arc4_stream_seek(self->s, (1ull << 60) + 3);
	arc4_stream_buf(self->s, b, sizeof(b));
	arc4_stream_u32(self->s);
	arc4_stream_u64(self->s);
	arc4_stream_uniform(self->s, 0x80000001u);
	arc4_stream_double(self->s);
	arc4_stream_tell(self->s);
	c = arc4_stream_split(self->s, 1);
	arc4_stream_free(c);
	arc4_stream_free(NULL);
	c = arc4_stream_new(self->key, 1);
	arc4_stream_free(c);
	EXPECT_EQ(4242, errno);
}

/*
 * An array length whose bytes overflow size_t aborts: it must not fill
 * the wrapped length (n * 4 or 8 modulo 2^64 bytes) and return.
 */
TEST_F(stream, array_length_overflow_aborts)
{
	NEED_IMPL();
	static const size_t ns[3] = { SIZE_MAX / 4 + 2, SIZE_MAX / 8 + 2,
				      SIZE_MAX / 8 + 2 };
	uint64_t out[2];
	int status;
	pid_t pid;

	for (int k = 0; k < 3; k++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (k == 0)
				arc4_stream_u32s(self->s, (uint32_t *)out, ns[k]);
			else if (k == 1)
				arc4_stream_u64s(self->s, out, ns[k]);
			else
				arc4_stream_doubles(self->s, (double *)out, ns[k]);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
			TH_LOG("call %d: status %#x", k, status);
	}
}

/* Fork leaves both copies at the same position: the same values follow. */
TEST_F(stream, fork_child_continues_identically)
{
	NEED_IMPL();
	uint64_t mine[64], theirs[64];
	int fd[2];
	pid_t pid;

	arc4_stream_seek(self->s, 1000003);
	arc4_stream_u32(self->s);
	ASSERT_EQ(0, pipe(fd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (int i = 0; i < 64; i++)
			mine[i] = arc4_stream_u64(self->s);
		_exit(write(fd[1], mine, sizeof(mine)) != sizeof(mine));
	}
	close(fd[1]);
	for (int i = 0; i < 64; i++)
		mine[i] = arc4_stream_u64(self->s);
	ASSERT_EQ(sizeof(theirs), read(fd[0], theirs, sizeof(theirs)));
	close(fd[0]);
	EXPECT_EQ(0, memcmp(mine, theirs, sizeof(mine)));
	EXPECT_EQ(pid, waitpid(pid, NULL, 0));
}

/*
 * The SIMD bodies spill the key's words into their stack frames; free
 * overwrites the stack below it.  Draw from a frame below the test's
 * (fills of the buffer and a u64 across two), free, and look for any
 * 4-byte word of the key in the 16 KiB of stack below the test's frame.
 */
enum { STACK_SCAN = 16384 };

static __attribute__((noinline)) void stack_clear(void)
{
	volatile uint8_t below[STACK_SCAN];

	memset((void *)below, 0, sizeof(below));
}

static __attribute__((noinline)) void stack_draw(arc4_stream *s)
{
	uint8_t b[100];

	arc4_stream_seek(s, 7 * 1024 + 5);
	arc4_stream_buf(s, b, sizeof(b));
	arc4_stream_seek(s, 9 * 1024 - 3);
	(void)arc4_stream_u64(s);
	explicit_bzero(b, sizeof(b));
}

static __attribute__((noinline)) int stack_key_words(const uint8_t key[32])
{
	uint8_t below[STACK_SCAN];
	int hits = 0;

	/* What the earlier calls left there: read, never written. */
	__asm__ volatile("" : : "r"(below) : "memory");
	for (size_t i = 0; i + 4 <= sizeof(below); i++)
		for (int k = 0; k < 8; k++)
			hits += memcmp(below + i, key + 4 * k, 4) == 0;
	return hits;
}

TEST_F(stream, free_leaves_no_key_word_on_the_stack)
{
	NEED_IMPL();
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	SKIP(return, "a sanitizer's frames are not the library's");
#endif
	if (under_valgrind())
		SKIP(return, "valgrind reports the scan's reads of old stack");
#ifdef ARC4_COVERAGE_BUILD
	/*
	 * make coverage's -O0 keeps every local in a stack slot it never
	 * wipes: the property needs the optimised build that ships.
	 */
	SKIP(return, "make coverage's -O0 build: the library's locals live on the stack");
#endif
	stack_clear();
	stack_draw(self->s);
	arc4_stream_free(self->s);
	self->s = NULL;
	EXPECT_EQ(0, stack_key_words(self->key))
		TH_LOG("copies of the key's words left on the stack");
}

/* srand_deterministic(s): the seed rule's stream, values u32 & 0x7fffffff. */
TEST(srand_deterministic_is_the_seed_rule_stream)
{
	static const uint32_t seeds[] = { 0, 1, 2024, 0xffffffffu };

	for (size_t i = 0; i < 4; i++) {
		uint8_t key[32] = { seeds[i], seeds[i] >> 8, seeds[i] >> 16,
				    seeds[i] >> 24 };
		arc4_stream *rs = arc4_stream_new(key, le64((const uint8_t *)"rand\0\0\0\0"));
		arc4_stream *ms = arc4_stream_new(key, le64((const uint8_t *)"random\0\0"));

		srand_deterministic(seeds[i]);
		srandom_deterministic(seeds[i]);
		for (int k = 0; k < 5000; k++) {
			ASSERT_EQ(arc4_stream_u32(rs) & 0x7fffffff,
				  (uint32_t)rand());
			ASSERT_EQ(arc4_stream_u32(ms) & 0x7fffffff,
				  (uint32_t)random());
		}
		arc4_stream_free(rs);
		arc4_stream_free(ms);
	}
	/* The README's example, independently of the stream code. */
	srand_deterministic(2024);
	EXPECT_EQ(1014331080, rand());
	EXPECT_EQ(315894770, rand());
	EXPECT_EQ(651497328, rand());
}

/*
 * new() and split() fail only for want of memory, with ENOMEM.  The
 * allocator is made to fail here: this program defines posix_memalign(),
 * which the library's objects (linked in from libarc4.a) call, and passes
 * every other call to the next definition (libc's, or a sanitizer's).
 */
static int fail_alloc;

int posix_memalign(void **p, size_t align, size_t size)
{
	static int (*next)(void **, size_t, size_t);

	if (fail_alloc)
		return ENOMEM;
	if (!next)
		next = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT,
							       "posix_memalign");
	return next(p, align, size);
}

TEST(new_and_split_fail_with_enomem_only_when_memory_runs_out)
{
	uint8_t key[32] = { 0 };
	arc4_stream *s = arc4_stream_new(key, 0);

	/* Called through a pointer: not inlined, so redirected if it is. */
	int (*volatile probe_fn)(void **, size_t, size_t) = posix_memalign;
	void *probe = NULL;

	ASSERT_NE(NULL, s);
	fail_alloc = 1;
	if (probe_fn(&probe, 64, 64) == 0) {
		fail_alloc = 0;
		free(probe);
		arc4_stream_free(s);
		SKIP(return, "posix_memalign() is not this program's (valgrind replaces it)");
	}
	errno = 0;
	EXPECT_EQ(NULL, arc4_stream_new(key, 0));
	EXPECT_EQ(ENOMEM, errno);
	errno = 0;
	EXPECT_EQ(NULL, arc4_stream_split(s, 1));
	EXPECT_EQ(ENOMEM, errno);
	fail_alloc = 0;
	arc4_stream_free(s);
}

/*
 * The device: a /dev/arc4 descriptor seeded with the same key and nonce,
 * read with pread() at p, gives the stream's bytes at p (the device takes
 * positions below 2^63, off_t's range).
 */
FIXTURE(device) {
	int fd;
	struct arc4_seed seed;
};

FIXTURE_SETUP(device)
{
	self->fd = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no /dev/arc4 (the module is tested in the VM)");
	memset(&self->seed, 0, sizeof(self->seed));
	random_key(self->seed.key);
	self->seed.nonce = random_u64();
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_SEED, &self->seed));
}

FIXTURE_TEARDOWN(device)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(device, seeded_descriptor_read_at_p_gives_the_stream_bytes)
{
	arc4_stream *s;
	uint8_t got[3000], dev[3000];

	if (self->fd < 0)
		SKIP(return, "no /dev/arc4 (the module is tested in the VM)");
	s = arc4_stream_new(self->seed.key, self->seed.nonce);
	ASSERT_NE(NULL, s);
	for (size_t i = 0; i < NPOS; i++) {
		uint64_t p = positions[i];
		size_t len = 1 + (i * 331) % sizeof(got);

		if (p + len > (1ull << 63) || p + len < p)
			continue;
		arc4_stream_seek(s, p);
		arc4_stream_buf(s, got, len);
		ASSERT_EQ((ssize_t)len, pread(self->fd, dev, len, p))
			TH_LOG("pread at %#llx: %s", (unsigned long long)p,
			       strerror(errno));
		ASSERT_EQ(0, memcmp(got, dev, len))
			TH_LOG("%zu bytes at %#llx", len, (unsigned long long)p);
	}
	arc4_stream_free(s);
}

TEST_HARNESS_MAIN
