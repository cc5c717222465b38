// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * arc4_stream: deterministic ChaCha20 streams the caller keys, computed in
 * the process (arc4_stream(3)).
 *
 * Byte p of a stream is byte p % 64 of the ChaCha20 block with the key,
 * block counter p / 64 and nonce `stream`: /dev/arc4's ARC4_IOC_SEED
 * layout.  The position is a 64-bit byte count and wraps modulo 2^64:
 * after byte 2^64 - 1 comes byte 0, so the block counter never passes
 * 2^58 - 1 and seek() accepts every value.
 *
 * A stream keeps one buffer of STREAM_BUF bytes starting at a multiple of
 * STREAM_BUF (so it never straddles the wrap), computed when first needed:
 * seek() only records the position, whatever its size.  The window at
 * the start of the stream (<arc4random.h>) points into that buffer:
 * next at the position, end after its valid bytes (next == buf and end
 * == buf before the first fill).  The header's inline u32() and u64()
 * call arc4_stream_refill() when it holds too few bytes, then take them
 * from the window: a value that straddles two buffers stays contiguous
 * because refill moves the last few bytes of the old buffer to the lead
 * just before the new one (next then points into the lead).  No lock: a
 * stream belongs to one thread at a time, as rand_r()'s state does.
 * Nothing here changes errno except a failed allocation (ENOMEM).
 */
/* This file defines the exported calls the header's inline ones wrap. */
#define ARC4_NO_INLINE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arc4random.h>

#include "chacha20.h"

enum { STREAM_BLOCKS = 16, STREAM_BUF = 64 * STREAM_BLOCKS };

/*
 * The lead: the bytes before the buffer, up to the next multiple of 64
 * after the members before it (padding otherwise), where refill keeps up
 * to 7 bytes of the old buffer.
 */
#define STREAM_HEAD (sizeof(struct arc4_stream_window) + \
		     sizeof(uint32_t[16]) + sizeof(uint64_t))
enum { STREAM_LEAD = 64 - STREAM_HEAD % 64 };

struct arc4_stream {
	struct arc4_stream_window w;	/* first, as the header says */
	uint32_t in[16];	/* key and nonce; the counter is set per fill */
	uint64_t base;		/* position of the buffer, a multiple of STREAM_BUF */
	uint8_t mem[STREAM_LEAD + STREAM_BUF];	/* the lead, then the buffer */
} __attribute__((aligned(64)));

_Static_assert((offsetof(struct arc4_stream, mem) + STREAM_LEAD) % 64 == 0,
	       "the buffer starts a cache line");
_Static_assert(STREAM_LEAD >= 8, "the lead holds the start of a u64");
_Static_assert(sizeof(struct arc4_stream) == 128 + STREAM_BUF,
	       "the lead is what was padding");

static inline uint8_t *stream_bytes(struct arc4_stream *s)
{
	return s->mem + STREAM_LEAD;
}

/* position - base: at most STREAM_BUF, negative in the lead */
static inline ptrdiff_t stream_off(const struct arc4_stream *s)
{
	return s->w.next - (s->mem + STREAM_LEAD);
}

static inline void stream_set_off(struct arc4_stream *s, ptrdiff_t off)
{
	s->w.next = stream_bytes(s) + off;
}

static inline void stream_set_len(struct arc4_stream *s, uint32_t len)
{
	s->w.end = stream_bytes(s) + len;
}

/*
 * Compute the buffer that holds the position: the next buffer when off is
 * at the end of this one.
 */
static void stream_fill(struct arc4_stream *s)
{
	if (stream_off(s) == STREAM_BUF) {
		s->base += STREAM_BUF;
		stream_set_off(s, 0);
	}
	arc4_chacha20_set_counter(s->in, s->base / 64);
	arc4_chacha20_blocks(s->in, stream_bytes(s), STREAM_BLOCKS);
	stream_set_len(s, STREAM_BUF);
}

/*
 * At least 8 bytes in the window, the position unchanged: the buffer that
 * holds the position, and when fewer than 8 of its bytes are left, those
 * moved to the lead and the next buffer after them.
 */
static void stream_refill(struct arc4_stream *s)
{
	ptrdiff_t k;

	if (s->w.next >= s->w.end)
		stream_fill(s);
	k = s->w.end - s->w.next;
	if (k >= 8)
		return;
	memmove(stream_bytes(s) - k, s->w.next, (size_t)k);
	s->base += STREAM_BUF;
	stream_set_off(s, 0);
	stream_fill(s);
	stream_set_off(s, -k);
}

ARC4_EXPORT void arc4_stream_refill(arc4_stream *s)
{
	stream_refill(s);
}

static struct arc4_stream *stream_alloc(void)
{
	struct arc4_stream *s;
	int saved_errno = errno;

	if (posix_memalign((void **)&s, 64, sizeof(*s)) != 0) {
		errno = ENOMEM;
		return NULL;
	}
	errno = saved_errno;
	s->base = 0;
	stream_set_off(s, 0);
	stream_set_len(s, 0);
	return s;
}

ARC4_EXPORT arc4_stream *arc4_stream_new(const uint8_t key[32], uint64_t stream)
{
	struct arc4_stream *s = stream_alloc();

	if (s)
		arc4_chacha20_init(s->in, key, 0, stream);
	return s;
}

/*
 * The SIMD ChaCha20 bodies spill the key's words from vector registers
 * into their frames (up to about 4 KiB: AVX-512 on i386, -fstack-usage),
 * below the frame of whoever drew from the stream.  Wiping that much at
 * every fill would cost a u32 a few per cent; free overwrites the stack
 * below it instead, which reaches fills made from its caller's frame or
 * from up to about 2 KiB deeper.  While the stream lives, *s holds the
 * key anyway.
 */
enum { STREAM_STACK_WIPE = 6144 };

static __attribute__((noinline)) void stream_wipe_stack(void)
{
	unsigned char below[STREAM_STACK_WIPE];

	explicit_bzero(below, sizeof(below));
	__asm__ volatile("" : : "r"(below) : "memory");
}

ARC4_EXPORT void arc4_stream_free(arc4_stream *s)
{
	if (!s)
		return;
	explicit_bzero(s, sizeof(*s));
	free(s);
	stream_wipe_stack();
}

ARC4_EXPORT uint64_t arc4_stream_tell(const arc4_stream *s)
{
	return s->base + (uint64_t)stream_off(s);
}

ARC4_EXPORT void arc4_stream_seek(arc4_stream *s, uint64_t pos)
{
	uint64_t base = pos & ~(uint64_t)(STREAM_BUF - 1);

	if (base != s->base) {
		s->base = base;
		stream_set_len(s, 0);
	}
	stream_set_off(s, (ptrdiff_t)(pos - base));
}

/*
 * Whole buffers go straight into the caller's memory when the position
 * is at a buffer boundary (up to the wrap); the rest through the buffer.
 */
static size_t stream_direct(struct arc4_stream *s, uint8_t *out, size_t len)
{
	uint64_t pos = s->base + STREAM_BUF;
	uint64_t n = len / STREAM_BUF, room = -pos / STREAM_BUF;

	if (n > room)
		n = room;
	if (n == 0)
		return 0;
	arc4_chacha20_set_counter(s->in, pos / 64);
	arc4_chacha20_blocks(s->in, out, n * STREAM_BLOCKS);
	s->base += n * STREAM_BUF;
	stream_set_len(s, 0);
	return n * STREAM_BUF;
}

/* Never through the exported name: a preloaded library may interpose it. */
static void stream_buf(struct arc4_stream *s, void *buf, size_t len)
{
	uint8_t *out = buf;
	size_t n;

	while (len > 0) {
		n = stream_off(s) == STREAM_BUF ?
			stream_direct(s, out, len) : 0;
		if (n == 0) {
			if (s->w.next >= s->w.end)
				stream_fill(s);
			n = (size_t)(s->w.end - s->w.next);
			if (n > len)
				n = len;
			memcpy(out, s->w.next, n);
			s->w.next += n;
		}
		out += n;
		len -= n;
	}
}

ARC4_EXPORT void arc4_stream_buf(arc4_stream *s, void *buf, size_t len)
{
	stream_buf(s, buf, len);
}

/* As the header's inline calls, which programs built without it lack. */
static inline uint32_t stream_u32(struct arc4_stream *s)
{
	const uint8_t *p;

	if (arc4_unlikely(s->w.end - s->w.next < 4))
		stream_refill(s);
	p = s->w.next;
	s->w.next = p + 4;
	return arc4_load_le32(p);
}

ARC4_EXPORT uint32_t arc4_stream_u32(arc4_stream *s)
{
	return stream_u32(s);
}

static inline uint64_t load_le64(const void *p)
{
	const uint8_t *b = p;

	return arc4_load_le32(b) | (uint64_t)arc4_load_le32(b + 4) << 32;
}

static inline uint64_t stream_u64(struct arc4_stream *s)
{
	const uint8_t *p;

	if (arc4_unlikely(s->w.end - s->w.next < 8))
		stream_refill(s);
	p = s->w.next;
	s->w.next = p + 8;
	return load_le64(p);
}

ARC4_EXPORT uint64_t arc4_stream_u64(arc4_stream *s)
{
	return stream_u64(s);
}

/* arc4random_uniform()'s rule: reject the lowest 2^32 mod upper_bound. */
ARC4_EXPORT uint32_t arc4_stream_uniform(arc4_stream *s, uint32_t upper_bound)
{
	uint32_t min, r;

	if (upper_bound < 2)
		return 0;
	min = -upper_bound % upper_bound;
	do
		r = stream_u32(s);
	while (r < min);
	return r % upper_bound;
}

ARC4_EXPORT double arc4_stream_double(arc4_stream *s)
{
	return (double)(stream_u64(s) >> 11) * 0x1p-53;
}

/*
 * Arrays: the bytes of n values in one fill (whole buffers straight into
 * the caller's memory), then each value converted in place, so out[i]
 * is the value the i-th single call would return and the position ends
 * where theirs would.  An n whose bytes overflow size_t cannot be the
 * length of an array: abort() rather than fill a wrapped length (the
 * calls return nothing to report it with).
 */
static size_t array_bytes(size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		abort();
	return n * size;
}

ARC4_EXPORT void arc4_stream_u32s(arc4_stream *s, uint32_t *out, size_t n)
{
	stream_buf(s, out, array_bytes(n, sizeof(*out)));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (size_t i = 0; i < n; i++)
		out[i] = arc4_load_le32((const uint8_t *)&out[i]);
#endif
}

ARC4_EXPORT void arc4_stream_u64s(arc4_stream *s, uint64_t *out, size_t n)
{
	stream_buf(s, out, array_bytes(n, sizeof(*out)));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (size_t i = 0; i < n; i++)
		out[i] = load_le64(&out[i]);
#endif
}

ARC4_EXPORT void arc4_stream_doubles(arc4_stream *s, double *out, size_t n)
{
	uint64_t v;
	size_t i;

	stream_buf(s, out, array_bytes(n, sizeof(*out)));
	for (i = 0; i < n; i++) {
		v = load_le64(&out[i]);
		out[i] = (double)(v >> 11) * 0x1p-53;
	}
}

/*
 * The child's key is HChaCha20 of the parent's key and LE64(parent
 * stream) || LE64(index) under arc4's own constants, the 16 bytes
 * "arc4-split-key-1" in place of "expand 32-byte k": a pseudorandom
 * function of the pair under the parent's key, so children of different
 * indices, and of different parent streams, are unrelated keys.  With
 * ChaCha's constants HChaCha20 is a ChaCha20 block before its final
 * addition, and the child's key would follow from 64 bytes of the
 * parent key's output (block `parent stream` of stream `index`); no
 * stream of any key runs under these constants.
 */
static const uint8_t split_constants[16] = {
	'a', 'r', 'c', '4', '-', 's', 'p', 'l',
	'i', 't', '-', 'k', 'e', 'y', '-', '1',
};

ARC4_EXPORT arc4_stream *arc4_stream_split(const arc4_stream *s,
					   uint64_t index)
{
	struct arc4_stream *c = stream_alloc();
	uint8_t key[32], inp[16];
	int i;

	if (!c)
		return NULL;
	for (i = 0; i < 8; i++)
		arc4_store_le32(key + 4 * i, s->in[4 + i]);
	arc4_store_le32(inp, s->in[14]);
	arc4_store_le32(inp + 4, s->in[15]);
	arc4_store_le32(inp + 8, (uint32_t)index);
	arc4_store_le32(inp + 12, (uint32_t)(index >> 32));
	arc4_hchacha20(key, inp, split_constants, key);
	arc4_chacha20_init(c->in, key, 0, 0);
	explicit_bzero(key, sizeof(key));
	return c;
}
