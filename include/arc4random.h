/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * arc4random.h - the arc4 libc shim.
 *
 * Link with -larc4 (before libc; `pkg-config --libs arc4`) or preload
 * libarc4.so.  rand(), random() and the rand48 family then return strong
 * random numbers, and the seed given to srand(), srandom(), srand48(),
 * seed48() and lcong48() is ignored.  A program that needs to replay a
 * sequence says so with one of the *_deterministic() calls below.
 * ARC4_LEGACY=1 in the environment (ignored for set-user-ID and other
 * secure-execution programs) restores glibc's behaviour for every family.
 *
 * Strong output comes from /dev/arc4, else getrandom(), else (where
 * getrandom() is missing: ENOSYS) the character device /dev/urandom; with
 * none the process aborts.  Before the kernel RNG is initialised (early
 * boot) strong calls block until it is, as getrandom() does, except on
 * the /dev/urandom fallback (kernels before 3.17 have nothing to wait on).
 *
 * The seed rule of srand_deterministic() and srandom_deterministic()
 * --------------------------------------------------------------------
 * seed s selects the /dev/arc4 deterministic stream (ARC4_IOC_SEED) with
 *
 *   key   = the 4 bytes of s, little-endian, then 28 zero bytes
 *   nonce = the 8 ASCII bytes "rand\0\0\0\0"   for srand_deterministic()
 *           the 8 ASCII bytes "random\0\0"     for srandom_deterministic()
 *           read as a little-endian 64-bit number
 *
 * that is, original ChaCha20 (20 rounds) with that key, the 64-bit block
 * counter in state words 12-13 and the nonce in words 14-15.  The n-th
 * value returned after seeding (n = 0, 1, ...) is stream bytes 4n..4n+3
 * read as a little-endian 32-bit number with the top bit cleared: every
 * value consumes exactly 4 bytes, so the sequence is the same on every
 * machine, and the same with or without the module (the shim computes
 * the stream itself when /dev/arc4 is missing).  The two families never
 * share a stream.
 *
 * Always deterministic and bit-identical to glibc: srand48_deterministic(),
 * seed48_deterministic(), lcong48_deterministic() (then drand48(),
 * lrand48(), mrand48()), initstate() (then random(), on the caller's
 * buffer with glibc's algorithm), rand_r(), erand48(), nrand48() and
 * jrand48() (which use the multiplier and addend last set by srand48(),
 * seed48() or lcong48(), with or without _deterministic, as glibc's do).
 * setstate() of a buffer holding glibc's state is glibc's too; of one
 * saved while random() was strong or on a srandom_deterministic() stream
 * it returns to that (srand_deterministic(3), "Saved states").
 */
#ifndef ARC4RANDOM_H
#define ARC4RANDOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Strong: 32 random bits; len random bytes; uniform on [0, upper_bound).
 * glibc 2.36 declares the same three in <stdlib.h>; the shim's replace
 * glibc's at link time.  __GLIBC_PREREQ is glibc's own macro: it appears
 * only in an #if that no other libc's preprocessor evaluates.
 */
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 36) && defined(__USE_MISC)
#define ARC4RANDOM_H_LIBC_DECLARES
#endif
#endif
#ifndef ARC4RANDOM_H_LIBC_DECLARES
uint32_t arc4random(void);
void arc4random_buf(void *buf, size_t len);
uint32_t arc4random_uniform(uint32_t upper_bound);
#endif
#undef ARC4RANDOM_H_LIBC_DECLARES

/* Replayable sequences for rand() and random(): see the seed rule above. */
void srand_deterministic(unsigned int seed);
void srandom_deterministic(unsigned int seed);

/* random() back to strong mode (BSD). */
void srandomdev(void);

/* The POSIX rand48 generator, exactly as glibc computes it. */
void srand48_deterministic(long seed);
unsigned short *seed48_deterministic(unsigned short xseed[3]);
void lcong48_deterministic(unsigned short param[7]);

/*
 * Deterministic streams (arc4_stream(3)): byte p of a stream is byte
 * p % 64 of the ChaCha20 block with the key, the 64-bit block counter
 * p / 64 in state words 12-13 and `stream` in words 14-15, as a
 * /dev/arc4 descriptor seeded with ARC4_IOC_SEED returns it.  u32 and u64
 * take the next 4 and 8 bytes little-endian; tell and seek are byte
 * positions, O(1), modulo 2^64.  The array calls fill out[0..n-1] with
 * exactly the values of n single calls.  A stream has no lock: one per
 * thread.  arc4_stream_new() and arc4_stream_split() fail only with
 * ENOMEM (NULL).
 */
typedef struct arc4_stream arc4_stream;

arc4_stream *arc4_stream_new(const uint8_t key[32], uint64_t stream);
void arc4_stream_free(arc4_stream *s);
void arc4_stream_buf(arc4_stream *s, void *buf, size_t len);
uint32_t arc4_stream_u32(arc4_stream *s);
uint64_t arc4_stream_u64(arc4_stream *s);
uint32_t arc4_stream_uniform(arc4_stream *s, uint32_t upper_bound);
double arc4_stream_double(arc4_stream *s);
void arc4_stream_u32s(arc4_stream *s, uint32_t *out, size_t n);
void arc4_stream_u64s(arc4_stream *s, uint64_t *out, size_t n);
void arc4_stream_doubles(arc4_stream *s, double *out, size_t n);
uint64_t arc4_stream_tell(const arc4_stream *s);
void arc4_stream_seek(arc4_stream *s, uint64_t pos);
arc4_stream *arc4_stream_split(const arc4_stream *s, uint64_t index);

/*
 * The one public part of a stream, its first member: [next, end) are
 * the stream's next bytes, already computed (empty when end <= next).
 * Only the inline arc4_stream_u32() and arc4_stream_u64() below read
 * and advance it; the library keeps it true whatever it computes and
 * may leave it empty at any time.  Do not write it otherwise.
 */
struct arc4_stream_window {
	const unsigned char *next;
	const unsigned char *end;
};

/*
 * For the inline calls: makes the window hold at least 8 bytes, the
 * position unchanged.
 */
void arc4_stream_refill(arc4_stream *s);

/*
 * With GCC or clang, u32 and u64 are inline: one bounds test and one load
 * from the window, arc4_stream_refill() first when it holds too few
 * bytes.  The test is a loop and both paths end in the same load, so
 * after a refill the window is read again where the test reads it: a
 * compiler then keeps next in a register across a loop of calls (storing
 * it each time), where an early return made it load it from memory on
 * every call.  The test adds to next as an integer (as a pointer, next +
 * 4 could point past the stream's memory): one instruction fewer than
 * end - next.
 * Define ARC4_NO_INLINE before including this header for plain calls.
 * Either way the values are the same.
 */
#if defined(__GNUC__) && !defined(ARC4_NO_INLINE)
static __inline__ uint32_t arc4_stream_u32_inline(arc4_stream *s)
{
	struct arc4_stream_window *w = (struct arc4_stream_window *)(void *)s;
	const unsigned char *p;

	while (__builtin_expect((uintptr_t)w->next + 4 > (uintptr_t)w->end, 0))
		arc4_stream_refill(s);
	p = w->next;
	w->next = p + 4;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static __inline__ uint64_t arc4_stream_u64_inline(arc4_stream *s)
{
	struct arc4_stream_window *w = (struct arc4_stream_window *)(void *)s;
	const unsigned char *p;

	while (__builtin_expect((uintptr_t)w->next + 8 > (uintptr_t)w->end, 0))
		arc4_stream_refill(s);
	p = w->next;
	w->next = p + 8;
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 |
	       (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

#define arc4_stream_u32(s) arc4_stream_u32_inline(s)
#define arc4_stream_u64(s) arc4_stream_u64_inline(s)
#endif

#ifdef __cplusplus
}
#endif

#endif /* ARC4RANDOM_H */
