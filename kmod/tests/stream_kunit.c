// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the arc4 stream, from inside the kernel: what userspace
 * cannot see.  Fast key erasure (the key a read used is gone from the
 * stream, and what stays cannot give it back), the wipe, the rekey budgets
 * at their exact bounds, the 64-bit block counter's carry, and the
 * known-answer test that refuses a wrong cipher.
 *
 * stream.c is compiled into this module on its own (included below), so
 * its static helpers are in reach and the module under test is not
 * needed: load arc4dev_kunit.ko and KUnit runs the suite, printing KTAP to
 * the kernel log.  Built only for kernels with CONFIG_KUNIT.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "../stream.c"

static const u8 kunit_key[CHACHA_KEY_SIZE] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

static struct arc4_stream *kunit_stream(struct kunit *test)
{
	struct arc4_stream *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	arc4_stream_init(s);
	return s;
}

/* One ChaCha20 block under key words @key (counter and nonce zero). */
static void kunit_block(const u32 *key, u8 out[CHACHA_BLOCK_SIZE])
{
	struct chacha_state st;

	chacha_init_consts(&st);
	memcpy(&st.x[4], key, CHACHA_KEY_SIZE);
	memset(&st.x[12], 0, 4 * sizeof(u32));
	chacha20_block(&st, out);
}

/* ---- fast key erasure ------------------------------------------------ */

/*
 * A strong read's cursor is keyed by the second half of a block under the
 * old stream key, the stream keeps the first half, and the old key is gone:
 * the stream key differs from the key before and from the output key, and
 * ratcheting on from what the stream keeps never gives the output key back.
 */
static void strong_begin_ratchets_key_away_from_output(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	u32 before[ARRAY_SIZE(s->key)], next_out[ARRAY_SIZE(s->key)];
	u8 block[CHACHA_BLOCK_SIZE];
	struct arc4_cursor c;
	int i;

	memcpy(before, s->key, sizeof(before));
	arc4_stream_begin(s, &c, 0, 64);

	KUNIT_EXPECT_EQ(test, c.mode, (u32)ARC4_MODE_STRONG);
	KUNIT_EXPECT_NE(test, memcmp(s->key, before, sizeof(before)), 0);
	KUNIT_EXPECT_NE(test, memcmp(s->key, &c.state.x[4], sizeof(before)),
			0);
	KUNIT_EXPECT_NE(test, memcmp(before, &c.state.x[4], sizeof(before)),
			0);

	/* The design, recomputed: block(old key) = new key || output key. */
	kunit_block(before, block);
	KUNIT_EXPECT_EQ(test, memcmp(block, s->key, sizeof(before)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(block + sizeof(before), &c.state.x[4],
				     sizeof(before)), 0);

	/* Forward from what stays: never the output key already handed out. */
	for (i = 0; i < 4; i++) {
		arc4_stream_ratchet(s, next_out);
		KUNIT_EXPECT_NE(test, memcmp(next_out, &c.state.x[4],
					     sizeof(next_out)), 0);
		KUNIT_EXPECT_NE(test, memcmp(s->key, &c.state.x[4],
					     sizeof(next_out)), 0);
	}
	arc4_cursor_wipe(&c);
	arc4_stream_wipe(s);
}

/* Two reads in a row use two output keys. */
static void strong_reads_never_share_an_output_key(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	struct arc4_cursor a, b;

	arc4_stream_begin(s, &a, 0, 16);
	arc4_stream_begin(s, &b, 0, 16);
	KUNIT_EXPECT_NE(test, memcmp(&a.state.x[4], &b.state.x[4],
				     CHACHA_KEY_SIZE), 0);
	arc4_cursor_wipe(&a);
	arc4_cursor_wipe(&b);
	arc4_stream_wipe(s);
}

/* ---- wipes ------------------------------------------------------------ */

static void stream_wipe_leaves_every_byte_zero(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	struct arc4_cursor c;

	arc4_stream_begin(s, &c, 0, 64);
	arc4_cursor_wipe(&c);
	arc4_stream_seed(s, kunit_key, 7);
	arc4_stream_wipe(s);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(s, 0, sizeof(*s)), NULL);
}

static void cursor_wipe_leaves_every_byte_zero(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	struct arc4_cursor c;
	u8 buf[100];

	arc4_stream_begin(s, &c, 0, sizeof(buf));
	arc4_cursor_fill(&c, buf, sizeof(buf));
	arc4_cursor_wipe(&c);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(&c, 0, sizeof(c)), NULL);
	arc4_stream_wipe(s);
}

/* ---- what a call leaves on the stack ---------------------------------- */

/*
 * Bytes of stack below the caller's frame that kunit_stack_leftovers()
 * copies: a padded call's frame and arc4_stream_read()'s (1.9 KiB under
 * KASAN), and what that calls.
 */
#define KUNIT_PROBE	3072
#define KUNIT_PAD	256

/*
 * Copy into @dst the KUNIT_PROBE bytes of stack below the caller's frame.
 * Called straight after another call from the same frame, this frame lies
 * where that one did; its array is exempt from the debug kernel's
 * CONFIG_INIT_STACK_ALL_ZERO, so it holds what that call left.
 */
static noinline void kunit_stack_leftovers(u8 *dst)
{
	u8 probe[KUNIT_PROBE] __uninitialized;

	barrier_data(probe);
	memcpy(dst, probe, sizeof(probe));
}

/*
 * Run @fn below a frame of KUNIT_PAD bytes, so that all of @fn's frame
 * (its saved registers and locals, wherever the compiler puts them) lies
 * within the probe's array, not beside the probe's own return address.
 */
static noinline void kunit_padded(void (*fn)(void *), void *arg)
{
	u8 pad[KUNIT_PAD];

	barrier_data(pad);
	fn(arg);
	barrier_data(pad);
}

static bool kunit_holds(const u8 *hay, const void *needle, size_t len)
{
	size_t i;

	for (i = 0; i + len <= KUNIT_PROBE; i++)
		if (!memcmp(hay + i, needle, len))
			return true;
	return false;
}

/* Whether any whole 64-byte block of @buf is in @left. */
static bool kunit_holds_a_block(const u8 *left, const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i + CHACHA_BLOCK_SIZE <= len; i += CHACHA_BLOCK_SIZE)
		if (kunit_holds(left, buf + i, CHACHA_BLOCK_SIZE))
			return true;
	return false;
}

struct kunit_call {
	struct arc4_stream *s;
	const u8 *secret;
	u32 *out_key;
	loff_t pos;
	void *buf;
	size_t len;
	ssize_t ret;
};

/* The control: a frame that leaves a secret behind, at both its ends. */
static noinline void kunit_leave(void *arg)
{
	struct kunit_call *call = arg;
	u8 top[CHACHA_BLOCK_SIZE], buf[ARC4_CHUNK];

	memcpy(buf, call->secret, sizeof(buf));
	memcpy(top, call->secret, sizeof(top));
	barrier_data(buf);
	barrier_data(top);
}

static noinline void kunit_ratchet(void *arg)
{
	struct kunit_call *call = arg;

	arc4_stream_ratchet(call->s, call->out_key);
}

static noinline void kunit_read(void *arg)
{
	struct kunit_call *call = arg;
	struct kvec kv = { .iov_base = call->buf, .iov_len = call->len };
	struct iov_iter to;

	iov_iter_kvec(&to, READ, &kv, 1, call->len);
	call->ret = arc4_stream_read(call->s, &call->pos, &to);
}

/* Without this, the tests below could pass without seeing anything. */
static void stack_probe_finds_what_a_call_leaves(struct kunit *test)
{
	u8 *secret = kunit_kmalloc(test, ARC4_CHUNK, GFP_KERNEL);
	u8 *left = kunit_kmalloc(test, KUNIT_PROBE, GFP_KERNEL);
	struct kunit_call call = { };

	KUNIT_ASSERT_NOT_NULL(test, secret);
	KUNIT_ASSERT_NOT_NULL(test, left);
	get_random_bytes(secret, ARC4_CHUNK);
	call.secret = secret;
	kunit_padded(kunit_leave, &call);
	kunit_stack_leftovers(left);
	KUNIT_EXPECT_TRUE(test, kunit_holds(left, secret, CHACHA_BLOCK_SIZE));
	KUNIT_EXPECT_TRUE(test, kunit_holds(left, secret + ARC4_CHUNK -
					    CHACHA_BLOCK_SIZE,
					    CHACHA_BLOCK_SIZE));
}

/* The ratchet's block holds the new key and the output key: wiped. */
static void ratchet_leaves_no_key_on_the_stack(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	u32 *keys = kunit_kmalloc(test, 3 * CHACHA_KEY_SIZE, GFP_KERNEL);
	u8 *left = kunit_kmalloc(test, KUNIT_PROBE, GFP_KERNEL);
	struct kunit_call call = { .s = s };
	u32 *old, *next;

	KUNIT_ASSERT_NOT_NULL(test, keys);
	KUNIT_ASSERT_NOT_NULL(test, left);
	old = keys;
	next = keys + ARRAY_SIZE(s->key);
	call.out_key = keys + 2 * ARRAY_SIZE(s->key);
	memcpy(old, s->key, CHACHA_KEY_SIZE);
	kunit_padded(kunit_ratchet, &call);
	kunit_stack_leftovers(left);
	memcpy(next, s->key, CHACHA_KEY_SIZE);

	KUNIT_EXPECT_FALSE(test, kunit_holds(left, old, CHACHA_KEY_SIZE));
	KUNIT_EXPECT_FALSE(test, kunit_holds(left, next, CHACHA_KEY_SIZE));
	KUNIT_EXPECT_FALSE(test, kunit_holds(left, call.out_key,
					     CHACHA_KEY_SIZE));
	arc4_stream_wipe(s);
}

/*
 * A read leaves neither keystream (its chunk) nor the key it read under
 * (its cursor) behind.  Strong: the output key is the second half of a
 * block under the key before the read.  Deterministic: the seed's key, at
 * an odd position (a partial first block).  The reads fit the stack chunk
 * (longer ones borrow a buffer: see the test after this one).
 */
static void reads_leave_no_keystream_or_key_on_the_stack(struct kunit *test)
{
	const size_t len = ARC4_CHUNK - CHACHA_BLOCK_SIZE + 5;
	struct arc4_stream *s = kunit_stream(test);
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	u8 *left = kunit_kmalloc(test, KUNIT_PROBE, GFP_KERNEL);
	u8 *block = kunit_kmalloc(test, CHACHA_BLOCK_SIZE, GFP_KERNEL);
	u32 *old = kunit_kmalloc(test, CHACHA_KEY_SIZE, GFP_KERNEL);
	struct kunit_call call = { .s = s, .buf = buf, .len = len };

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, left);
	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_NOT_NULL(test, old);

	memcpy(old, s->key, CHACHA_KEY_SIZE);
	kunit_block(old, block);
	kunit_padded(kunit_read, &call);
	kunit_stack_leftovers(left);
	KUNIT_ASSERT_EQ(test, call.ret, (ssize_t)len);
	KUNIT_EXPECT_FALSE(test, kunit_holds_a_block(left, buf, len));
	KUNIT_EXPECT_FALSE(test, kunit_holds(left, block + CHACHA_KEY_SIZE,
					     CHACHA_KEY_SIZE));

	arc4_stream_seed(s, kunit_key, 3);
	call.pos = 3 * CHACHA_BLOCK_SIZE + 5;
	kunit_padded(kunit_read, &call);
	kunit_stack_leftovers(left);
	KUNIT_ASSERT_EQ(test, call.ret, (ssize_t)len);
	KUNIT_EXPECT_FALSE(test, kunit_holds_a_block(left, buf + 59,
						     len - 59));
	KUNIT_EXPECT_FALSE(test, kunit_holds(left, kunit_key,
					     CHACHA_KEY_SIZE));
	arc4_stream_wipe(s);
}

/* Whether every CPU's spare buffer is all zeroes; *@seen: how many exist. */
static bool kunit_big_chunks_clear(int *seen)
{
	bool clear = true;
	int cpu;

	*seen = 0;
	for_each_possible_cpu(cpu) {
		u8 *buf = per_cpu(arc4_big_chunk, cpu);

		if (!buf)
			continue;
		(*seen)++;
		clear &= !memchr_inv(buf, 0, ARC4_BIG_CHUNK);
	}
	return clear;
}

/* A read longer than the stack chunk gives back its buffer wiped. */
static void long_reads_give_back_their_buffer_wiped(struct kunit *test)
{
	const size_t len = 2 * ARC4_BIG_CHUNK + 5 * CHACHA_BLOCK_SIZE;
	struct arc4_stream *s = kunit_stream(test);
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter to;
	loff_t pos = 0;
	int seen;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	iov_iter_kvec(&to, READ, &kv, 1, len);
	KUNIT_ASSERT_EQ(test, arc4_stream_read(s, &pos, &to), (ssize_t)len);
	KUNIT_EXPECT_TRUE(test, kunit_big_chunks_clear(&seen));
	KUNIT_EXPECT_GT(test, seen, 0);

	arc4_stream_seed(s, kunit_key, 3);
	pos = 3 * CHACHA_BLOCK_SIZE + 5;
	iov_iter_kvec(&to, READ, &kv, 1, len);
	KUNIT_ASSERT_EQ(test, arc4_stream_read(s, &pos, &to), (ssize_t)len);
	KUNIT_EXPECT_TRUE(test, kunit_big_chunks_clear(&seen));
	KUNIT_EXPECT_GT(test, seen, 0);
	arc4_stream_wipe(s);
}

/*
 * The VFS refuses negative offsets before a read gets here; the stream
 * refuses them too, and moves nothing.
 */
static void deterministic_read_at_a_negative_position_is_einval(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	u8 buf[16];
	struct kvec kv = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iov_iter to;
	loff_t pos = -1;

	arc4_stream_seed(s, kunit_key, 0);
	iov_iter_kvec(&to, READ, &kv, 1, sizeof(buf));
	KUNIT_EXPECT_EQ(test, arc4_stream_read(s, &pos, &to), (ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, pos, (loff_t)-1);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&to), sizeof(buf));
	arc4_stream_wipe(s);
}

/* ---- budgets ---------------------------------------------------------- */

/* The byte budget: a rekey on the first read after it is reached, not before. */
static void byte_budget_rekeys_exactly_at_its_bound(struct kunit *test)
{
	unsigned long saved = arc4_stream_budgets().bytes;
	struct arc4_stream *s = kunit_stream(test);
	struct arc4_cursor c;
	u64 reseeds;

	KUNIT_ASSERT_EQ(test, arc4_stream_set_rekey_bytes(1000), 0);
	reseeds = s->reseeds;
	arc4_stream_begin(s, &c, 0, 999);
	arc4_stream_begin(s, &c, 0, 0);
	KUNIT_EXPECT_EQ(test, s->reseeds, reseeds);
	KUNIT_EXPECT_EQ(test, s->bytes_since_reseed, 999ULL);

	arc4_stream_begin(s, &c, 0, 1);
	KUNIT_EXPECT_EQ(test, s->reseeds, reseeds);
	arc4_stream_begin(s, &c, 0, 5);
	KUNIT_EXPECT_EQ(test, s->reseeds, reseeds + 1);
	KUNIT_EXPECT_EQ(test, s->bytes_since_reseed, 5ULL);

	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(saved), 0);
	arc4_cursor_wipe(&c);
	arc4_stream_wipe(s);
}

/* The setters take 1..MAX and refuse the values just outside, changing nothing. */
static void budget_setters_accept_exactly_their_range(struct kunit *test)
{
	struct arc4_budgets saved = arc4_stream_budgets();

	KUNIT_EXPECT_EQ(test, saved.bytes, (unsigned long)ARC4_REKEY_BYTES_DEFAULT);
	KUNIT_EXPECT_EQ(test, saved.seconds, (unsigned int)ARC4_REKEY_SECONDS_DEFAULT);

	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(1), 0);
	KUNIT_EXPECT_EQ(test, arc4_stream_budgets().bytes, 1UL);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(ARC4_REKEY_BYTES_MAX), 0);
	KUNIT_EXPECT_EQ(test, arc4_stream_budgets().bytes,
			(unsigned long)ARC4_REKEY_BYTES_MAX);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(ARC4_REKEY_BYTES_MAX + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arc4_stream_budgets().bytes,
			(unsigned long)ARC4_REKEY_BYTES_MAX);

	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_seconds(1), 0);
	KUNIT_EXPECT_EQ(test, arc4_stream_budgets().seconds, 1U);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_seconds(ARC4_REKEY_SECONDS_MAX), 0);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_seconds(0), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			arc4_stream_set_rekey_seconds(ARC4_REKEY_SECONDS_MAX + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, arc4_stream_budgets().seconds,
			(unsigned int)ARC4_REKEY_SECONDS_MAX);

	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_bytes(saved.bytes), 0);
	KUNIT_EXPECT_EQ(test, arc4_stream_set_rekey_seconds(saved.seconds), 0);
}

/* A key's age in jiffies, read twice so no tick falls between. */
static bool kunit_spent_at_age(struct arc4_stream *s, unsigned long age)
{
	unsigned long now;
	bool spent;

	do {
		now = jiffies;
		s->reseed_jiffies = now - age;
		spent = arc4_stream_budget_spent(s);
	} while (time_after(jiffies, now));
	return spent;
}

/* The time budget: a key rekey_seconds old is kept, a jiffy older is not. */
static void time_budget_rekeys_exactly_at_its_bound(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	unsigned long age = arc4_stream_budgets().seconds * HZ;
	struct arc4_cursor c;
	u64 reseeds = s->reseeds;

	KUNIT_EXPECT_FALSE(test, kunit_spent_at_age(s, age));
	KUNIT_EXPECT_TRUE(test, kunit_spent_at_age(s, age + 1));

	s->reseed_jiffies = jiffies - age - 1;
	arc4_stream_begin(s, &c, 0, 1);
	KUNIT_EXPECT_EQ(test, s->reseeds, reseeds + 1);
	KUNIT_EXPECT_FALSE(test, arc4_stream_budget_spent(s));
	arc4_cursor_wipe(&c);
	arc4_stream_wipe(s);
}

/* A VM fork: every strong stream rekeys before its next output, once. */
static void vmfork_rekeys_every_strong_stream_once(struct kunit *test)
{
	struct arc4_stream *a = kunit_stream(test), *b = kunit_stream(test);
	u64 ra = a->reseeds, rb = b->reseeds;
	struct arc4_cursor c;

	arc4_stream_vmforked();
	arc4_stream_begin(a, &c, 0, 1);
	arc4_stream_begin(b, &c, 0, 1);
	KUNIT_EXPECT_EQ(test, a->reseeds, ra + 1);
	KUNIT_EXPECT_EQ(test, b->reseeds, rb + 1);
	arc4_stream_begin(a, &c, 0, 1);
	KUNIT_EXPECT_EQ(test, a->reseeds, ra + 1);
	arc4_cursor_wipe(&c);
	arc4_stream_wipe(a);
	arc4_stream_wipe(b);
}

/* A deterministic stream never rekeys and is not charged. */
static void deterministic_stream_ignores_the_budgets(struct kunit *test)
{
	struct arc4_stream *s = kunit_stream(test);
	struct arc4_cursor c;
	u64 reseeds;

	arc4_stream_seed(s, kunit_key, 1);
	reseeds = s->reseeds;
	arc4_stream_vmforked();
	s->reseed_jiffies = jiffies - 10 * arc4_stream_budgets().seconds * HZ;
	arc4_stream_begin(s, &c, 130, 1 << 30);
	KUNIT_EXPECT_EQ(test, s->reseeds, reseeds);
	KUNIT_EXPECT_EQ(test, s->bytes_since_reseed, 0ULL);
	KUNIT_EXPECT_EQ(test, c.block, 2ULL);
	KUNIT_EXPECT_EQ(test, c.skip, 2U);
	KUNIT_EXPECT_EQ(test, arc4_stream_reseed(s), -EINVAL);
	arc4_cursor_wipe(&c);
	arc4_stream_wipe(s);
}

/* ---- the block counter ------------------------------------------------ */

/*
 * The library cipher counts in word 12 only; a cursor filling across block
 * 2^32 - 1 must carry into word 13 as the stream's definition says.  Oracle:
 * the library's single-block function with both words set by hand.
 */
static void cursor_carries_the_counter_into_word_13(struct kunit *test)
{
	static const u64 blocks[] = { 0xffffffffULL, 0x100000000ULL,
				      0x1ffffffffULL, 0x200000000ULL };
	struct arc4_stream *s = kunit_stream(test);
	u8 got[2 * CHACHA_BLOCK_SIZE], want[CHACHA_BLOCK_SIZE];
	struct chacha_state st;
	struct arc4_cursor c;
	int i, j;

	arc4_stream_seed(s, kunit_key, 0x0123456789abcdefULL);
	for (i = 0; i < ARRAY_SIZE(blocks); i += 2) {
		arc4_stream_begin(s, &c, blocks[i] * CHACHA_BLOCK_SIZE, 0);
		arc4_cursor_fill(&c, got, sizeof(got));
		KUNIT_EXPECT_EQ(test, c.block, blocks[i] + 2);
		for (j = 0; j < 2; j++) {
			chacha_init_consts(&st);
			memcpy(&st.x[4], s->key, sizeof(s->key));
			st.x[12] = lower_32_bits(blocks[i + j]);
			st.x[13] = upper_32_bits(blocks[i + j]);
			st.x[14] = lower_32_bits(s->nonce);
			st.x[15] = upper_32_bits(s->nonce);
			chacha20_block(&st, want);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(got + j * CHACHA_BLOCK_SIZE,
							 want, sizeof(want)), 0,
					    "block %llx", blocks[i + j]);
		}
		arc4_cursor_wipe(&c);
	}
	arc4_stream_wipe(s);
}

/* ---- known-answer test ------------------------------------------------ */

static void known_answer_test_refuses_a_wrong_answer(struct kunit *test)
{
	u8 wrong[CHACHA_BLOCK_SIZE], key[CHACHA_KEY_SIZE] = { };

	KUNIT_EXPECT_EQ(test, arc4_stream_selftest(), 0);
	memcpy(wrong, arc4_kat_a1, sizeof(wrong));
	KUNIT_EXPECT_TRUE(test, arc4_kat(key, 0, 0, wrong, sizeof(wrong)));
	wrong[63] ^= 1;
	KUNIT_EXPECT_FALSE(test, arc4_kat(key, 0, 0, wrong, sizeof(wrong)));
	KUNIT_EXPECT_FALSE(test, arc4_kat(key, 1, 0, arc4_kat_a1,
					  CHACHA_BLOCK_SIZE));
}

static struct kunit_case arc4_stream_cases[] = {
	KUNIT_CASE(strong_begin_ratchets_key_away_from_output),
	KUNIT_CASE(strong_reads_never_share_an_output_key),
	KUNIT_CASE(stream_wipe_leaves_every_byte_zero),
	KUNIT_CASE(cursor_wipe_leaves_every_byte_zero),
	KUNIT_CASE(stack_probe_finds_what_a_call_leaves),
	KUNIT_CASE(ratchet_leaves_no_key_on_the_stack),
	KUNIT_CASE(reads_leave_no_keystream_or_key_on_the_stack),
	KUNIT_CASE(long_reads_give_back_their_buffer_wiped),
	KUNIT_CASE(deterministic_read_at_a_negative_position_is_einval),
	KUNIT_CASE(budget_setters_accept_exactly_their_range),
	KUNIT_CASE(byte_budget_rekeys_exactly_at_its_bound),
	KUNIT_CASE(time_budget_rekeys_exactly_at_its_bound),
	KUNIT_CASE(vmfork_rekeys_every_strong_stream_once),
	KUNIT_CASE(deterministic_stream_ignores_the_budgets),
	KUNIT_CASE(cursor_carries_the_counter_into_word_13),
	KUNIT_CASE(known_answer_test_refuses_a_wrong_answer),
	{}
};

/* The long reads above left buffers for the next ones: free them. */
static void arc4_stream_suite_exit(struct kunit_suite *suite)
{
	arc4_stream_exit();
}

static struct kunit_suite arc4_stream_suite = {
	.name = "arc4_stream",
	.suite_exit = arc4_stream_suite_exit,
	.test_cases = arc4_stream_cases,
};

kunit_test_suite(arc4_stream_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the arc4 stream");
