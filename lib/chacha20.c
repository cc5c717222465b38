// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ChaCha20, portable, and the choice of implementation.
 *
 * The portable code is one block at a time and runs everywhere; the SIMD
 * implementations (chacha20-x86.c, chacha20-neon.c) compute several
 * blocks side by side and leave what does not fill their width to the
 * next narrower one.  All of them give the same bytes: the tests check
 * each against OpenSSL.
 */
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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

static void chacha20_rounds(uint32_t x[16])
{
	int i;

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
}

void arc4_chacha20_init(uint32_t in[16], const uint8_t key[32],
			uint64_t counter, uint64_t nonce)
{
	int i;

	in[0] = 0x61707865;	/* "expand 32-byte k" */
	in[1] = 0x3320646e;
	in[2] = 0x79622d32;
	in[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		in[4 + i] = arc4_load_le32(key + 4 * i);
	arc4_chacha20_set_counter(in, counter);
	in[14] = (uint32_t)nonce;
	in[15] = (uint32_t)(nonce >> 32);
}

size_t arc4_chacha20_portable(const uint32_t in[16], uint8_t *out,
			      size_t nblocks)
{
	uint64_t counter = arc4_chacha20_counter(in);
	uint32_t st[16], x[16];
	size_t b;
	int i;

	memcpy(st, in, sizeof(st));
	for (b = 0; b < nblocks; b++, out += 64) {
		arc4_chacha20_set_counter(st, counter + b);
		memcpy(x, st, sizeof(x));
		chacha20_rounds(x);
		for (i = 0; i < 16; i++)
			arc4_store_le32(out + 4 * i, x[i] + st[i]);
	}
	explicit_bzero(x, sizeof(x));
	explicit_bzero(st, sizeof(st));
	return nblocks;
}

void arc4_hchacha20(const uint8_t key[32], const uint8_t in[16],
		    const uint8_t c[16], uint8_t out[32])
{
	uint32_t x[16];
	int i;

	arc4_chacha20_init(x, key, 0, 0);
	for (i = 0; i < 4; i++) {
		x[i] = arc4_load_le32(c + 4 * i);
		x[12 + i] = arc4_load_le32(in + 4 * i);
	}
	chacha20_rounds(x);
	for (i = 0; i < 4; i++) {
		arc4_store_le32(out + 4 * i, x[i]);
		arc4_store_le32(out + 16 + 4 * i, x[12 + i]);
	}
	explicit_bzero(x, sizeof(x));
}

/*
 * Widest first.  The CPU is asked once, on first use; a race between
 * two first uses makes both store the same index.
 */
static const struct {
	const char *name;
	arc4_chacha20_fn *fn;
} chacha20_impls[] = {
#if defined(__x86_64__) || defined(__i386__)
	{ "avx512", arc4_chacha20_avx512 },
	{ "avx2", arc4_chacha20_avx2 },
	{ "ssse3", arc4_chacha20_ssse3 },
	{ "sse2", arc4_chacha20_sse2 },
#endif
#if defined(__aarch64__)
	{ "neon", arc4_chacha20_neon },
#endif
	{ "portable", arc4_chacha20_portable },
};

enum { CHACHA20_NIMPLS = sizeof(chacha20_impls) / sizeof(chacha20_impls[0]) };

static int chacha20_first = -1;

#if defined(__x86_64__) || defined(__i386__)
/*
 * cpuid at the first use, not __builtin_cpu_supports(): that links in
 * libgcc's probe, a constructor every process would run at load.  AVX2
 * and AVX-512 also need the kernel to save their registers (XCR0).
 */
static int chacha20_cpu_has(const char *name)
{
	unsigned int a, b, c, d, xcr0, hi;
	int avx2 = strcmp(name, "avx2") == 0;

	if (strcmp(name, "portable") == 0)
		return 1;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	if (strcmp(name, "sse2") == 0)
		return !!(d & bit_SSE2);
	if (strcmp(name, "ssse3") == 0)
		return (d & bit_SSE2) && (c & bit_SSSE3);
	if (!(c & bit_OSXSAVE) || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
	if (avx2)
		return (b & bit_AVX2) && (xcr0 & 0x06) == 0x06;
	return (b & bit_AVX512F) && (xcr0 & 0xe6) == 0xe6;
}
#else
static int chacha20_cpu_has(const char *name)
{
	(void)name;
	return 1;
}
#endif

int arc4_chacha20_select(const char *name)
{
	int i;

	for (i = 0; i < CHACHA20_NIMPLS; i++) {
		if (name && strcmp(name, chacha20_impls[i].name) != 0)
			continue;
		if (!chacha20_cpu_has(chacha20_impls[i].name))
			continue;
		__atomic_store_n(&chacha20_first, i, __ATOMIC_RELAXED);
		return 0;
	}
	return -1;
}

void arc4_chacha20_blocks(const uint32_t in[16], uint8_t *out, size_t nblocks)
{
	int i = __atomic_load_n(&chacha20_first, __ATOMIC_RELAXED);
	uint32_t st[16];
	size_t done;

	if (arc4_unlikely(i < 0)) {
		arc4_chacha20_select(NULL);
		i = __atomic_load_n(&chacha20_first, __ATOMIC_RELAXED);
	}
	memcpy(st, in, sizeof(st));
	/*
	 * What a body leaves (fewer blocks than its width) goes to the next
	 * entry unasked: each entry's CPU features include every later one's
	 * (AVX-512F, AVX2, SSSE3, SSE2 on every x86 that has the first).
	 */
	for (; nblocks > 0; i++) {
		done = chacha20_impls[i].fn(st, out, nblocks);
		out += 64 * done;
		nblocks -= done;
		arc4_chacha20_set_counter(st, arc4_chacha20_counter(st) + done);
	}
	explicit_bzero(st, sizeof(st));
}

void arc4_chacha20_block(const uint8_t key[32], uint64_t counter,
			 uint64_t nonce, uint8_t out[64])
{
	uint32_t in[16];

	arc4_chacha20_init(in, key, counter, nonce);
	arc4_chacha20_blocks(in, out, 1);
	explicit_bzero(in, sizeof(in));
}
