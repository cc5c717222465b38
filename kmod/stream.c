// SPDX-License-Identifier: GPL-2.0
/*
 * The arc4 stream: one ChaCha20 key and what is done with it.
 *
 * Contents:
 *   1. Strong keys: budgets, rekey, ratchet, VM fork
 *   2. Stream state: init, wipe, seed, strong, reseed, mode, info, get seed
 *   3. Keystream: cursor, read into an iterator
 *   4. Known-answer self-test
 *
 * A strong stream never emits keystream under its own key.  Every read (and
 * every ARC4_SEGMENT of a long one) first runs one ChaCha20 block under the
 * stream key: the first half of that block becomes the new stream key, the
 * second half keys the output.  The old key is overwritten before anything
 * leaves the kernel and the output key lives on the reader's stack and is
 * wiped when the read returns, so nothing that stays behind can reconstruct
 * output already returned (fast key erasure).
 *
 * A deterministic stream is plain ChaCha20 with a 64-bit block counter in
 * words 12-13 and a 64-bit nonce in words 14-15, addressed by byte position.
 */

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "compat.h"
#include "stream.h"

/**********************************************************************
 *
 * 1. Strong keys
 *
 * arc4_stream_set_rekey_bytes(), arc4_stream_set_rekey_seconds(),
 * arc4_stream_budgets() - the rekey budgets of every strong stream
 * arc4_stream_vmforked() - called when the kernel reports a VM fork
 *
 **********************************************************************/

/* Read without a lock: each field is written whole, with WRITE_ONCE(). */
static struct arc4_budgets arc4_budgets = {
	.bytes = ARC4_REKEY_BYTES_DEFAULT,
	.seconds = ARC4_REKEY_SECONDS_DEFAULT,
};

static atomic_t arc4_vmfork_generation = ATOMIC_INIT(0);

int arc4_stream_set_rekey_bytes(unsigned long bytes)
{
	if (!bytes || bytes > ARC4_REKEY_BYTES_MAX)
		return -EINVAL;
	WRITE_ONCE(arc4_budgets.bytes, bytes);
	return 0;
}

int arc4_stream_set_rekey_seconds(unsigned int seconds)
{
	if (!seconds || seconds > ARC4_REKEY_SECONDS_MAX)
		return -EINVAL;
	WRITE_ONCE(arc4_budgets.seconds, seconds);
	return 0;
}

struct arc4_budgets arc4_stream_budgets(void)
{
	return (struct arc4_budgets) {
		.bytes = READ_ONCE(arc4_budgets.bytes),
		.seconds = READ_ONCE(arc4_budgets.seconds),
	};
}

/*
 * After a VM fork two machines hold the same stream keys.  Bumping the
 * generation makes every strong stream take a new key from the (by then
 * reseeded) kernel RNG before its next output.
 */
void arc4_stream_vmforked(void)
{
	atomic_inc(&arc4_vmfork_generation);
}

/*
 * What differs between two copies of one machine at the moment of a rekey:
 * the cycle counter, the wall and boot clocks and, where the CPU has one,
 * its random-number instruction.  None of it is secret to the machine's
 * owner; it only has to differ between the copies.
 */
static void arc4_stream_sample(u64 sample[4])
{
	unsigned long arch = 0;

	sample[0] = random_get_entropy();
	sample[1] = ktime_get_real_ns();
	sample[2] = ktime_get_boottime_ns();
	if (!arc4_arch_random_long(&arch))
		arch = 0;
	sample[3] = arch;
}

/*
 * A new stream key: the kernel RNG's bytes, then two ChaCha20 blocks keyed
 * by them with the sample as input (counter and nonce words), each block's
 * first half keying the next.  After a resume of a hibernation image the
 * kernel RNG gives every copy the same bytes until its next reseed;
 * ChaCha20 as a PRF of the sample gives each copy its own key from them,
 * as unpredictable as the kernel RNG's bytes to anyone who does not hold
 * them.
 */
static void arc4_stream_new_key(u32 key[CHACHA_KEY_SIZE / sizeof(u32)])
{
	struct chacha_state state;
	u8 block[CHACHA_BLOCK_SIZE];
	u64 sample[4];
	int i;

	BUILD_BUG_ON(sizeof(sample) != 2 * 4 * sizeof(u32));
	get_random_bytes(key, CHACHA_KEY_SIZE);
	arc4_stream_sample(sample);
	for (i = 0; i < 2; i++) {
		chacha_init_consts(&state);
		memcpy(&state.x[4], key, CHACHA_KEY_SIZE);
		memcpy(&state.x[12], &sample[2 * i], 4 * sizeof(u32));
		chacha20_block(&state, block);
		memcpy(key, block, CHACHA_KEY_SIZE);
	}
	memzero_explicit(block, sizeof(block));
	memzero_explicit(&state, sizeof(state));
	memzero_explicit(sample, sizeof(sample));
}

static void arc4_stream_rekey(struct arc4_stream *s)
{
	arc4_stream_new_key(s->key);
	s->bytes_since_reseed = 0;
	s->reseeds++;
	s->reseed_jiffies = jiffies;
	s->vmfork_gen = atomic_read(&arc4_vmfork_generation);
}

static bool arc4_stream_budget_spent(const struct arc4_stream *s)
{
	return s->bytes_since_reseed >= READ_ONCE(arc4_budgets.bytes) ||
	       time_after(jiffies, s->reseed_jiffies +
			  READ_ONCE(arc4_budgets.seconds) * HZ) ||
	       s->vmfork_gen != atomic_read(&arc4_vmfork_generation);
}

/* Replace the stream key by half a block under it; the other half keys out. */
static void arc4_stream_ratchet(struct arc4_stream *s, u32 *out_key)
{
	struct chacha_state state;
	u8 block[CHACHA_BLOCK_SIZE];

	BUILD_BUG_ON(sizeof(block) != 2 * sizeof(s->key));
	chacha_init_consts(&state);
	memcpy(&state.x[4], s->key, sizeof(s->key));
	memset(&state.x[12], 0, 4 * sizeof(u32));
	chacha20_block(&state, block);
	memcpy(s->key, block, sizeof(s->key));
	memcpy(out_key, block + sizeof(s->key), sizeof(s->key));
	memzero_explicit(block, sizeof(block));
	memzero_explicit(&state, sizeof(state));
}

/**********************************************************************
 *
 * 2. Stream state
 *
 * arc4_stream_init(), arc4_stream_wipe(), arc4_stream_seed(),
 * arc4_stream_strong(), arc4_stream_reseed(), arc4_stream_mode(),
 * arc4_stream_info(), arc4_stream_get_seed()
 *
 **********************************************************************/

/* A new stream is strong, keyed from the kernel RNG. */
void arc4_stream_init(struct arc4_stream *s)
{
	memset(s, 0, sizeof(*s));
	mutex_init(&s->lock);
	s->mode = ARC4_MODE_STRONG;
	arc4_stream_rekey(s);
}

void arc4_stream_wipe(struct arc4_stream *s)
{
	mutex_destroy(&s->lock);
	memzero_explicit(s, sizeof(*s));
}

void arc4_stream_seed(struct arc4_stream *s, const u8 key[CHACHA_KEY_SIZE],
		      u64 nonce)
{
	int i;

	mutex_lock(&s->lock);
	for (i = 0; i < ARRAY_SIZE(s->key); i++)
		s->key[i] = get_unaligned_le32(key + 4 * i);
	s->nonce = nonce;
	s->mode = ARC4_MODE_DETERMINISTIC;
	s->epoch++;
	mutex_unlock(&s->lock);
}

void arc4_stream_strong(struct arc4_stream *s)
{
	mutex_lock(&s->lock);
	arc4_stream_rekey(s);
	s->nonce = 0;
	s->mode = ARC4_MODE_STRONG;
	s->epoch++;
	mutex_unlock(&s->lock);
}

int arc4_stream_reseed(struct arc4_stream *s)
{
	int ret = 0;

	mutex_lock(&s->lock);
	if (s->mode == ARC4_MODE_STRONG)
		arc4_stream_rekey(s);
	else
		ret = -EINVAL;
	mutex_unlock(&s->lock);
	return ret;
}

u32 arc4_stream_mode(struct arc4_stream *s)
{
	return READ_ONCE(s->mode);
}

/* Everything but the key and nonce; the caller fills in the position. */
void arc4_stream_info(struct arc4_stream *s, struct arc4_info *info)
{
	memset(info, 0, sizeof(*info));
	mutex_lock(&s->lock);
	info->mode = s->mode;
	info->bytes_since_reseed = s->bytes_since_reseed;
	info->reseeds = s->reseeds;
	mutex_unlock(&s->lock);
}

/*
 * The key and nonce of a deterministic stream, for a checkpoint of the
 * process that seeded it; a strong key never leaves the kernel.
 */
int arc4_stream_get_seed(struct arc4_stream *s, u8 key[CHACHA_KEY_SIZE],
			 u64 *nonce)
{
	int i, ret = 0;

	mutex_lock(&s->lock);
	if (s->mode == ARC4_MODE_DETERMINISTIC) {
		for (i = 0; i < ARRAY_SIZE(s->key); i++)
			put_unaligned_le32(s->key[i], key + 4 * i);
		*nonce = s->nonce;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&s->lock);
	return ret;
}

/**********************************************************************
 *
 * 3. Keystream
 *
 * arc4_stream_read() - the stream's next bytes into an iterator, by the
 * strong or the deterministic reader
 * arc4_stream_exit() - free what reads left for the next ones
 *
 **********************************************************************/

/*
 * Keystream is produced a chunk at a time and copied out from there; each
 * chunk costs one trip through the SIMD glue (kernel_fpu_begin() and end
 * on x86) and copy_to_iter().  A read of at most ARC4_CHUNK bytes uses a
 * chunk on its stack: one run of the SIMD code's widest batch (eight
 * blocks for AVX2 and AVX-512), small enough to keep the frame well below
 * a 32-bit kernel's 1 KiB FRAME_WARN.  A longer read borrows a buffer of
 * ARC4_BIG_CHUNK bytes, the most the x86 glue does per trip, and falls
 * back to the stack chunk when none is to be had.
 */
#define ARC4_CHUNK		(8 * CHACHA_BLOCK_SIZE)
#define ARC4_BIG_CHUNK		(64 * CHACHA_BLOCK_SIZE)

/*
 * One ARC4_BIG_CHUNK buffer per CPU, lent to one read at a time: a read
 * takes its CPU's buffer, or allocates one if the slot is empty, and puts
 * it back in the slot of the CPU it ends on, or frees it if that slot is
 * full.  A buffer is wiped before it goes back.  Allocating per read would
 * cost more than it saves: init_on_alloc, on in Debian's kernels, clears
 * every allocation.
 */
static DEFINE_PER_CPU(u8 *, arc4_big_chunk);

static u8 *arc4_big_chunk_get(void)
{
	u8 *buf = this_cpu_xchg(arc4_big_chunk, NULL);

	return buf ?: kmalloc(ARC4_BIG_CHUNK, GFP_KERNEL | __GFP_NOWARN);
}

static void arc4_big_chunk_put(u8 *buf)
{
	if (this_cpu_cmpxchg(arc4_big_chunk, NULL, buf))
		kfree(buf);
}

/* At module exit, when no file is open: free the buffers of every CPU. */
void arc4_stream_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kfree(per_cpu(arc4_big_chunk, cpu));
		per_cpu(arc4_big_chunk, cpu) = NULL;
	}
}

/*
 * A strong read takes a fresh output key, and checks the rekey budgets,
 * every this many bytes; a read of either mode looks for a SEED or STRONG
 * that ended its stream at the same points.
 */
#define ARC4_SEGMENT		(64 * 1024)

/*
 * Source of zeroes for chacha_crypt(), which XORs keystream into its input:
 * reading a constant zero chunk saves clearing the output buffer first.
 */
static const u8 arc4_zeroes[ARC4_BIG_CHUNK];

/**
 * struct arc4_cursor - keystream generator private to one read
 * @state: ChaCha20 state; words 12-13 are set from @block before each use
 * @block: 64-bit block counter of the next block
 * @epoch: the stream's epoch when the cursor was made
 * @skip:  bytes of the first block that precede the requested position
 * @mode:  the stream's mode when the cursor was made
 */
struct arc4_cursor {
	struct chacha_state state;
	u64 block;
	u64 epoch;
	unsigned int skip;
	u32 mode;
};

/**
 * arc4_stream_begin() - make a cursor for the next @len bytes of @s
 * @s:   the stream
 * @c:   cursor to fill; the caller wipes it with arc4_cursor_wipe()
 * @pos: deterministic mode: byte position of the first byte
 * @len: strong mode: bytes the caller will take (charged to the budget)
 *
 * In strong mode this rekeys from the kernel RNG if a budget is spent, then
 * ratchets the key, so @c holds a key that no longer exists in @s.  The
 * stream lock is held only here; keystream is made without it.
 */
static void arc4_stream_begin(struct arc4_stream *s, struct arc4_cursor *c,
			      u64 pos, size_t len)
{
	mutex_lock(&s->lock);
	c->mode = s->mode;
	c->epoch = s->epoch;
	chacha_init_consts(&c->state);
	c->state.x[14] = 0;
	c->state.x[15] = 0;
	if (s->mode == ARC4_MODE_STRONG) {
		if (arc4_stream_budget_spent(s))
			arc4_stream_rekey(s);
		arc4_stream_ratchet(s, &c->state.x[4]);
		s->bytes_since_reseed += len;
		c->block = 0;
		c->skip = 0;
	} else {
		memcpy(&c->state.x[4], s->key, sizeof(s->key));
		c->state.x[14] = lower_32_bits(s->nonce);
		c->state.x[15] = upper_32_bits(s->nonce);
		c->block = pos / CHACHA_BLOCK_SIZE;
		c->skip = pos % CHACHA_BLOCK_SIZE;
	}
	mutex_unlock(&s->lock);
}

/**
 * arc4_cursor_fill() - write @len bytes of keystream from the cursor's block
 * @c:   cursor; advanced by the blocks used (a partial block counts whole)
 * @buf: destination, with room for a whole block if @len is less
 * @len: at most ARC4_BIG_CHUNK
 *
 * The kernel's ChaCha20 code counts blocks in word 12 only.  The 64-bit
 * counter is kept here and each call is cut where word 12 would wrap, so the
 * carry into word 13 happens exactly as the stream's definition says.  One
 * block is made straight into @buf: the library would make it on its own
 * stack and XOR it into @buf, which small reads would pay for.
 */
static void arc4_cursor_fill(struct arc4_cursor *c, u8 *buf, unsigned int len)
{
	if (len && len <= CHACHA_BLOCK_SIZE) {
		c->state.x[12] = lower_32_bits(c->block);
		c->state.x[13] = upper_32_bits(c->block);
		chacha20_block(&c->state, buf);
		c->block++;
		return;
	}
	if (WARN_ON_ONCE(len > ARC4_BIG_CHUNK))
		len = ARC4_BIG_CHUNK;
	while (len) {
		u32 lo = lower_32_bits(c->block);
		u64 room = ((u64)U32_MAX - lo + 1) * CHACHA_BLOCK_SIZE;
		unsigned int n = min_t(u64, len, room);

		c->state.x[12] = lo;
		c->state.x[13] = upper_32_bits(c->block);
		chacha20_crypt(&c->state, buf, arc4_zeroes, n);
		c->block += DIV_ROUND_UP(n, CHACHA_BLOCK_SIZE);
		buf += n;
		len -= n;
	}
}

static void arc4_cursor_wipe(struct arc4_cursor *c)
{
	memzero_explicit(c, sizeof(*c));
}

/**
 * struct arc4_read - one read in progress, on the reader's stack
 * @c:     the cursor of the current segment
 * @done:  bytes copied to the reader so far
 * @buf:   keystream on its way to the reader: @chunk or a heap buffer
 * @size:  bytes of @buf
 * @used:  bytes of @buf ever written, all wiped when the read ends
 * @err:   why the read stopped short, if it did for an error
 * @chunk: the buffer of short reads
 */
struct arc4_read {
	struct arc4_cursor c;
	size_t done;
	u8 *buf;
	unsigned int size;
	unsigned int used;
	int err;
	u8 chunk[ARC4_CHUNK] __aligned(16);
};

/*
 * Copy the next @len bytes of the cursor's keystream to @to.  After every
 * page the reader is given a chance to take a signal, so that a huge read
 * can be interrupted and returns what it has, like /dev/urandom.  Return:
 * false if the read must stop here (a fault, or a signal).
 */
static bool arc4_read_serve(struct arc4_read *r, size_t len,
			    struct iov_iter *to)
{
	size_t end = r->done + len, n, copied;

	while (r->done < end) {
		n = min_t(size_t, end - r->done, r->size - r->c.skip);
		arc4_cursor_fill(&r->c, r->buf, r->c.skip + n);
		r->used = max_t(unsigned int, r->used, r->c.skip + n);
		copied = copy_to_iter(r->buf + r->c.skip, n, to);
		r->c.skip = 0;
		r->done += copied;
		if (copied != n) {
			r->err = -EFAULT;
			return false;
		}
		if (r->done < end &&
		    r->done / PAGE_SIZE != (r->done - n) / PAGE_SIZE) {
			if (signal_pending(current))
				return false;
			cond_resched();
		}
	}
	return true;
}

/*
 * Begin the next segment at @pos (deterministic) or of @len bytes
 * (strong).  A read never mixes two streams: false if SEED or STRONG made
 * a new one since the read began, and the read ends where it is.
 */
static bool arc4_read_next_segment(struct arc4_stream *s,
				   struct arc4_read *r, u64 pos, size_t len)
{
	u64 epoch = r->c.epoch;
	u32 mode = r->c.mode;

	arc4_cursor_wipe(&r->c);
	arc4_stream_begin(s, &r->c, pos, len);
	return r->c.mode == mode && r->c.epoch == epoch;
}

/* Strong: a new output key every ARC4_SEGMENT; the position is ignored. */
static ssize_t arc4_read_strong(struct arc4_stream *s, struct arc4_read *r,
				struct iov_iter *to)
{
	size_t len = iov_iter_count(to);

	while (arc4_read_serve(r, min_t(size_t, len - r->done, ARC4_SEGMENT),
			       to) && r->done < len) {
		if (!arc4_read_next_segment(s, r, 0,
					    min_t(size_t, len - r->done,
						  ARC4_SEGMENT)))
			break;
	}
	return r->done ? r->done : r->err;
}

/* Deterministic: from *@ppos on, which moves by the bytes copied. */
static ssize_t arc4_read_deterministic(struct arc4_stream *s,
				       struct arc4_read *r, loff_t *ppos,
				       struct iov_iter *to)
{
	u64 pos = *ppos;
	size_t len;

	if (*ppos < 0)
		return -EINVAL;
	len = min_t(u64, iov_iter_count(to), (u64)LLONG_MAX - pos);
	while (arc4_read_serve(r, min_t(size_t, len - r->done, ARC4_SEGMENT),
			       to) && r->done < len) {
		if (!arc4_read_next_segment(s, r, pos + r->done, 0))
			break;
	}
	*ppos = pos + r->done;
	return r->done ? r->done : r->err;
}

/**
 * arc4_stream_read() - copy the stream's next bytes into an iterator
 * @s:    the stream
 * @ppos: deterministic mode: position of the first byte, advanced by the
 *        bytes copied; ignored in strong mode, like /dev/urandom's
 * @to:   destination; as much of it as the stream gives is filled
 *
 * The mode the stream has when the read begins decides which reader
 * serves it.  Keystream goes through a chunk on the stack, or a heap
 * buffer for long reads, and is wiped from there before returning.
 *
 * Return: bytes copied; -EFAULT if none could be, -EINVAL for a
 * deterministic read at a negative position.
 */
ssize_t arc4_stream_read(struct arc4_stream *s, loff_t *ppos,
			 struct iov_iter *to)
{
	/*
	 * Not zeroed on entry (CONFIG_INIT_STACK_ALL_ZERO would clear the
	 * whole chunk per read): only bytes the cursor wrote are ever copied
	 * or kept, and arc4_stream_begin() sets every field of the cursor.
	 */
	struct arc4_read r __uninitialized;
	size_t len = iov_iter_count(to);
	unsigned int i;
	ssize_t ret;

	if (!len)
		return 0;
	r.done = 0;
	r.err = 0;
	r.used = 0;
	r.buf = NULL;
	if (len > ARC4_CHUNK)
		r.buf = arc4_big_chunk_get();
	r.size = r.buf ? ARC4_BIG_CHUNK : ARC4_CHUNK;
	if (!r.buf)
		r.buf = r.chunk;
	arc4_stream_begin(s, &r.c, *ppos, min_t(size_t, len, ARC4_SEGMENT));
	if (r.c.mode == ARC4_MODE_STRONG)
		ret = arc4_read_strong(s, &r, to);
	else
		ret = arc4_read_deterministic(s, &r, ppos, to);
	/*
	 * Only the blocks that were written: a 16-byte read need not clear
	 * the whole chunk.  Whole blocks keep each clear a constant size,
	 * which the compiler inlines; a variable-length memset is a byte loop.
	 * A borrowed buffer goes back wiped.
	 */
	for (i = 0; i < r.used; i += CHACHA_BLOCK_SIZE)
		memzero_explicit(r.buf + i, CHACHA_BLOCK_SIZE);
	if (r.buf != r.chunk)
		arc4_big_chunk_put(r.buf);
	arc4_cursor_wipe(&r.c);
	return ret;
}

/**********************************************************************
 *
 * 4. Known-answer self-test
 *
 * arc4_stream_selftest() - 0, or -EINVAL if the cipher is wrong here
 *
 **********************************************************************/

/*
 * RFC 8439: A.1 test vectors 1 and 2 (zero key and nonce, blocks 0 and 1)
 * and the 2.3.2 block (key 00..1f, counter 1, nonce 00000009 0000004a
 * 00000000), which in this stream's layout is block 0x0900000000000001 with
 * nonce 0x4a000000: it exercises the high counter word.
 */
static const u8 arc4_kat_a1[2 * CHACHA_BLOCK_SIZE] = {
	0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5,
	0x53, 0x86, 0xbd, 0x28, 0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d, 0xed, 0x1a,
	0xa8, 0x36, 0xef, 0xcc, 0x8b, 0x77, 0x0d, 0xc7, 0xda, 0x41, 0x59, 0x7c,
	0x51, 0x57, 0x48, 0x8d, 0x77, 0x24, 0xe0, 0x3f, 0xb8, 0xd8, 0x4a, 0x37,
	0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1, 0x1c, 0xc3, 0x87, 0xb6, 0x69,
	0xb2, 0xee, 0x65, 0x86,
	0x9f, 0x07, 0xe7, 0xbe, 0x55, 0x51, 0x38, 0x7a, 0x98, 0xba, 0x97, 0x7c,
	0x73, 0x2d, 0x08, 0x0d, 0xcb, 0x0f, 0x29, 0xa0, 0x48, 0xe3, 0x65, 0x69,
	0x12, 0xc6, 0x53, 0x3e, 0x32, 0xee, 0x7a, 0xed, 0x29, 0xb7, 0x21, 0x76,
	0x9c, 0xe6, 0x4e, 0x43, 0xd5, 0x71, 0x33, 0xb0, 0x74, 0xd8, 0x39, 0xd5,
	0x31, 0xed, 0x1f, 0x28, 0x51, 0x0a, 0xfb, 0x45, 0xac, 0xe1, 0x0a, 0x1f,
	0x4b, 0x79, 0x4d, 0x6f,
};

static const u8 arc4_kat_232[CHACHA_BLOCK_SIZE] = {
	0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f,
	0xa3, 0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03,
	0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46,
	0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
	0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8,
	0xa2, 0x50, 0x3c, 0x4e,
};

static bool arc4_kat(const u8 *key, u64 nonce, u64 block,
		     const u8 *expect, unsigned int len)
{
	struct arc4_cursor c = { .block = block };
	u8 out[2 * CHACHA_BLOCK_SIZE];
	int i;

	chacha_init_consts(&c.state);
	for (i = 0; i < CHACHA_KEY_SIZE / 4; i++)
		c.state.x[4 + i] = get_unaligned_le32(key + 4 * i);
	c.state.x[14] = lower_32_bits(nonce);
	c.state.x[15] = upper_32_bits(nonce);
	arc4_cursor_fill(&c, out, len);
	/* Published vectors under a published key: nothing here to wipe. */
	return !memcmp(out, expect, len);
}

int arc4_stream_selftest(void)
{
	u8 key[CHACHA_KEY_SIZE] = { };
	bool ok;
	int i;

	/* Blocks 0 and 1 in one call, then block 1 on its own. */
	ok = arc4_kat(key, 0, 0, arc4_kat_a1, sizeof(arc4_kat_a1));
	ok &= arc4_kat(key, 0, 1, arc4_kat_a1 + CHACHA_BLOCK_SIZE,
		       CHACHA_BLOCK_SIZE);
	for (i = 0; i < sizeof(key); i++)
		key[i] = i;
	ok &= arc4_kat(key, 0x4a000000, 0x0900000000000001ULL, arc4_kat_232,
		       sizeof(arc4_kat_232));
	return ok ? 0 : -EINVAL;
}
