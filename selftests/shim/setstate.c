// SPDX-License-Identifier: GPL-2.0
/*
 * initstate() and setstate() around strong and srandom_deterministic()
 * random(): a buffer saved while random() was strong restores strong, one
 * saved on a stream restores the stream at its position, in either order
 * of the calls and nested; a buffer holding glibc's state still restores
 * exactly as glibc's setstate() does.
 *
 * glibc is the oracle for its own generator (initstate_r() and random_r()
 * on a private table), a replay of srandom_deterministic() for the stream
 * (whose values determinism.c checks against OpenSSL's ChaCha20).  "Fresh
 * process" cases run in children forked from the test, which starts as the
 * shim starts: the harness forks each test from a main that never draws.
 */
#include <sys/mman.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

enum { DRAWS = 16 };

/* glibc's values first .. first + n - 1 of initstate(seed, <size bytes>). */
static void glibc_values(unsigned int seed, size_t size, int first, int n,
			 long *out)
{
	static char table[256];
	struct random_data rd;
	int32_t v;

	memset(&rd, 0, sizeof(rd));
	memset(table, 0, sizeof(table));
	initstate_r(seed, table, size, &rd);
	for (int i = 0; i < first + n; i++) {
		random_r(&rd, &v);
		if (i >= first)
			out[i - first] = v;
	}
}

/* The stream of srandom_deterministic(seed), values first .. first + n - 1. */
static void stream_values(unsigned int seed, int first, int n, long *out)
{
	srandom_deterministic(seed);
	for (int i = 0; i < first; i++)
		random();
	for (int i = 0; i < n; i++)
		out[i] = random();
}

/*
 * Run scenario in two children, each a fresh start of the shim; their
 * DRAWS values after it in a[] and b[].
 */
static void twice_fresh(struct __test_metadata *_metadata,
			void (*scenario)(void), long *a, long *b)
{
	long *shared = mmap(NULL, 2 * DRAWS * sizeof(long),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);

	ASSERT_NE(MAP_FAILED, shared);
	for (int run = 0; run < 2; run++) {
		pid_t pid = fork();
		int st;

		ASSERT_GE(pid, 0);
		if (pid == 0) {
			scenario();
			for (int i = 0; i < DRAWS; i++)
				shared[run * DRAWS + i] = random();
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		ASSERT_EQ(0, st);
	}
	memcpy(a, shared, DRAWS * sizeof(long));
	memcpy(b, shared + DRAWS, DRAWS * sizeof(long));
	munmap(shared, 2 * DRAWS * sizeof(long));
}

/*
 * Strong: two fresh runs of the same calls differ, and neither is glibc's
 * sequence for any seed the calls name (those replay under glibc).
 */
static void expect_strong_after(struct __test_metadata *_metadata,
				void (*scenario)(void), const unsigned *seeds,
				int nseeds)
{
	long a[DRAWS], b[DRAWS], known[DRAWS];

	twice_fresh(_metadata, scenario, a, b);
	EXPECT_NE(0, memcmp(a, b, sizeof(a)))
		TH_LOG("two runs gave %ld %ld %ld ... both times", a[0], a[1],
		       a[2]);
	for (int i = 0; i < nseeds; i++) {
		glibc_values(seeds[i], 128, 0, DRAWS, known);
		EXPECT_NE(0, memcmp(a, known, sizeof(a)))
			TH_LOG("glibc's seed-%u sequence", seeds[i]);
	}
}

static char buf_a[128], buf_b[128], buf_c[256];

/* The program, with a constant where it had time(NULL) ^ getpid(). */
static void strong_then_save(void)
{
	char *old;

	srandom(12345);
	old = initstate(7, buf_a, sizeof(buf_a));
	setstate(old);
}

TEST(setstate_of_buffer_saved_while_srandom_strong_is_strong)
{
	static const unsigned seeds[] = { 1, 7, 12345 };

	expect_strong_after(_metadata, strong_then_save, seeds, 3);
}

/* No seeding call at all: glibc would replay seed 1 here. */
static void unseeded_then_save(void)
{
	setstate(initstate(7, buf_a, sizeof(buf_a)));
}

TEST(setstate_of_buffer_saved_before_any_seeding_is_strong)
{
	static const unsigned seeds[] = { 1, 7 };

	expect_strong_after(_metadata, unseeded_then_save, seeds, 2);
}

/*
 * The other order: the caller's buffer is current when srandom() makes
 * random() strong; glibc would have reseeded that very buffer.
 */
static void initstate_srandom_then_save(void)
{
	initstate(3, buf_a, sizeof(buf_a));
	srandom(99);
	if (initstate(4, buf_b, sizeof(buf_b)) != buf_a)
		_exit(3);
	setstate(buf_a);
}

TEST(setstate_of_own_buffer_made_strong_by_srandom_is_strong)
{
	static const unsigned seeds[] = { 3, 4, 99 };

	expect_strong_after(_metadata, initstate_srandom_then_save, seeds, 3);
}

/* A copy of a saved strong buffer: no record, but no known table either. */
static void strong_save_copied(void)
{
	char *old;

	srandom(1);
	old = initstate(7, buf_a, sizeof(buf_a));
	memcpy(buf_b, old, sizeof(buf_b));
	setstate(buf_b);
}

TEST(copy_of_buffer_saved_while_strong_replays_no_known_sequence)
{
	static const unsigned seeds[] = { 1, 7 };

	expect_strong_after(_metadata, strong_save_copied, seeds, 2);
}

/* More buffers made strong than the shim keeps records of. */
static void many_strong_saves(void)
{
	static char bufs[40][32];

	for (int i = 0; i < 40; i++) {
		initstate(i, bufs[i], sizeof(bufs[i]));
		srandom(i);
	}
	initstate(1, buf_a, sizeof(buf_a));
	setstate(bufs[0]);
}

TEST(buffer_saved_long_ago_while_strong_replays_no_known_sequence)
{
	static const unsigned seeds[] = { 0, 1 };

	expect_strong_after(_metadata, many_strong_saves, seeds, 2);
}

/* The second program: back to the stream, at its position. */
TEST(setstate_returns_to_the_stream_at_its_position)
{
	long first, glibc9[3], want[2000], got[2000];
	char *old;

	srandom_deterministic(1);
	first = random();
	old = initstate(9, buf_a, sizeof(buf_a));
	glibc_values(9, 128, 0, 3, glibc9);
	for (int i = 0; i < 3; i++)
		got[i] = random();
	EXPECT_EQ(0, memcmp(glibc9, got, sizeof(glibc9)))
		TH_LOG("initstate(9, buf, 128) is glibc's seed 9");
	EXPECT_EQ((uintptr_t)buf_a, (uintptr_t)setstate(old));
	/* 2000 values: across the end of the shim's 4 KiB stream buffer. */
	for (int i = 0; i < 2000; i++)
		got[i] = random();
	stream_values(1, 0, 1, &want[0]);
	EXPECT_EQ(want[0], first);
	stream_values(1, 1, 2000, want);
	EXPECT_EQ(want[0], got[0]) TH_LOG("stream value 1, not a fresh stream");
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
}

/*
 * The other order, nested: glibc state in buf_a, a stream in it, saved;
 * glibc state in buf_b, another stream, saved; glibc state in buf_c; then
 * back through every buffer.
 */
TEST(nested_saves_return_to_each_stream_and_state)
{
	long s2[8], s5[8], g6[8], g3[8], got[6];
	char *a, *b;

	initstate(3, buf_a, sizeof(buf_a));
	random();
	srandom_deterministic(2);
	for (int i = 0; i < 3; i++)
		random();
	a = initstate(4, buf_b, 64);
	EXPECT_EQ((uintptr_t)buf_a, (uintptr_t)a);
	for (int i = 0; i < 7; i++)
		random();
	srandom_deterministic(5);
	for (int i = 0; i < 2; i++)
		random();
	b = initstate(6, buf_c, sizeof(buf_c));
	EXPECT_EQ((uintptr_t)buf_b, (uintptr_t)b);
	for (int i = 0; i < 4; i++)
		random();

	EXPECT_EQ((uintptr_t)buf_c, (uintptr_t)setstate(b));
	got[0] = random();
	EXPECT_EQ((uintptr_t)buf_b, (uintptr_t)setstate(a));
	got[1] = random();
	got[2] = random();
	EXPECT_EQ((uintptr_t)buf_a, (uintptr_t)setstate(buf_b));
	got[3] = random();
	EXPECT_EQ((uintptr_t)buf_b, (uintptr_t)setstate(buf_c));
	got[4] = random();
	EXPECT_EQ((uintptr_t)buf_c, (uintptr_t)setstate(buf_a));
	got[5] = random();

	stream_values(2, 0, 8, s2);
	stream_values(5, 0, 8, s5);
	glibc_values(6, 256, 0, 8, g6);
	glibc_values(3, 128, 0, 8, g3);
	EXPECT_EQ(s5[2], got[0]) TH_LOG("stream 5 resumes at value 2");
	EXPECT_EQ(s2[3], got[1]) TH_LOG("stream 2 resumes at value 3");
	EXPECT_EQ(s2[4], got[2]);
	EXPECT_EQ(s5[3], got[3]) TH_LOG("stream 5 resumes at value 3");
	EXPECT_EQ(g6[4], got[4]) TH_LOG("glibc's seed 6 resumes at value 4");
	EXPECT_EQ(s2[5], got[5]) TH_LOG("stream 2 resumes at value 5");
	EXPECT_NE(g3[1], got[5]) TH_LOG("buf_a's old glibc table came back");
}

/* Strong and stream records side by side, restored in reverse order. */
TEST(strong_and_stream_saves_nest_in_any_order)
{
	long s8[4], strong1[DRAWS], strong2[DRAWS], known[DRAWS], at8;
	char *strong_buf, *stream_buf;

	strong_buf = initstate(1, buf_a, sizeof(buf_a));	/* unseeded: strong */
	srandom_deterministic(8);
	random();
	stream_buf = initstate(2, buf_b, sizeof(buf_b));	/* buf_a, stream 8 @1 */
	EXPECT_EQ((uintptr_t)buf_a, (uintptr_t)stream_buf);
	srandom(2);
	setstate(strong_buf);				/* strong; buf_b saved strong */
	for (int i = 0; i < DRAWS; i++)
		strong1[i] = random();
	setstate(stream_buf);				/* stream 8 @1 */
	at8 = random();
	setstate(buf_b);				/* strong again */
	for (int i = 0; i < DRAWS; i++)
		strong2[i] = random();

	stream_values(8, 0, 4, s8);
	EXPECT_EQ(s8[1], at8);
	EXPECT_NE(0, memcmp(strong1, strong2, sizeof(strong1)));
	glibc_values(1, 128, 0, DRAWS, known);
	EXPECT_NE(0, memcmp(strong1, known, sizeof(known)))
		TH_LOG("glibc's seed-1 table, the unseeded default");
	glibc_values(2, 128, 0, DRAWS, known);
	EXPECT_NE(0, memcmp(strong2, known, sizeof(known)))
		TH_LOG("glibc's seed-2 table, left behind by srandom(2)");
}

/*
 * A buffer the caller fills with a glibc state (saved earlier, say in a
 * file) is glibc's state again, whatever the shim recorded there before.
 */
TEST(buffer_rewritten_with_glibc_state_restores_that_state)
{
	struct random_data rd;
	char saved[128] = { 0 }, file[128];
	int32_t v;
	long want[DRAWS], got[DRAWS];

	memset(&rd, 0, sizeof(rd));
	initstate_r(42, saved, sizeof(saved), &rd);
	for (int i = 0; i < 10; i++)
		random_r(&rd, &v);
	setstate_r(saved, &rd);	/* writes the position into saved[0..3] */
	memcpy(file, saved, sizeof(file));
	for (int i = 0; i < DRAWS; i++) {
		random_r(&rd, &v);
		want[i] = v;
	}

	initstate(5, buf_a, sizeof(buf_a));
	srandom_deterministic(3);
	random();
	initstate(6, buf_b, sizeof(buf_b));	/* records buf_a: stream 3 */
	memcpy(buf_a, file, sizeof(buf_a));
	EXPECT_EQ((uintptr_t)buf_b, (uintptr_t)setstate(buf_a));
	for (int i = 0; i < DRAWS; i++)
		got[i] = random();
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
}

/* setstate() of the current buffer leaves random() where it was. */
TEST(setstate_of_the_current_buffer_changes_nothing)
{
	long s4[3], g1[3], strong[DRAWS], at4;
	char *cur;

	srandom_deterministic(4);
	random();
	cur = initstate(1, buf_a, sizeof(buf_a));
	setstate(cur);
	EXPECT_EQ((uintptr_t)cur, (uintptr_t)setstate(cur));
	at4 = random();
	stream_values(4, 0, 3, s4);
	EXPECT_EQ(s4[1], at4) TH_LOG("stream 4 resumes at value 1");

	srandom(4);
	cur = initstate(1, buf_a, sizeof(buf_a));
	setstate(cur);
	setstate(cur);
	for (int i = 0; i < DRAWS; i++)
		strong[i] = random();
	glibc_values(1, 128, 0, 3, g1);
	EXPECT_NE(s4[0], strong[0]);
	EXPECT_NE(g1[0], strong[0]);
}

/*
 * The shim keeps 16 records of buffers left while strong or on a stream,
 * and a full table gives the oldest record to the next buffer left.  A
 * record freed by a setstate() back to its buffer must be used before any
 * live record is given away.  Here: 16 buffers left (the initial table,
 * then b[1]..b[15], each on a stream of its own), setstate(b[15]) (which
 * leaves b[16], the 17th, into the oldest record and frees b[15]'s), then
 * initstate() leaves b[15] again, into its freed record: b[1]'s record
 * must still be there, so setstate(b[1]) resumes its stream.
 */
TEST(a_freed_record_is_used_before_a_live_one_is_given_away)
{
	static char b[18][128];
	long got[DRAWS], want[DRAWS];

	for (int i = 1; i <= 16; i++) {
		initstate(i, b[i], sizeof(b[i]));
		srandom_deterministic(100 + i);
		for (int k = 0; k < i; k++)
			random();
	}
	ASSERT_EQ((uintptr_t)b[16], (uintptr_t)setstate(b[15]));
	initstate(17, b[17], sizeof(b[17]));
	setstate(b[1]);
	for (int i = 0; i < DRAWS; i++)
		got[i] = random();
	stream_values(101, 1, DRAWS, want);
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)))
		TH_LOG("setstate(b[1]) lost its stream: its record was given away");
}

/*
 * A saved buffer whose header word the caller changed is the caller's:
 * setstate() runs glibc on it as it now reads, not the saved stream.  The
 * header (TYPE_3 + 5 * the rear index) is moved by one index, a change in
 * its low byte only.  glibc's setstate_r() on a copy is the oracle.
 */
TEST(a_saved_buffer_with_a_changed_header_is_glibc_state)
{
	static char a[128], b[128], copy[128], scratch[128];
	struct random_data rd;
	long got[DRAWS], want[DRAWS];
	int32_t *head = (int32_t *)a, v;

	initstate(5, a, sizeof(a));
	srandom_deterministic(3);
	random();
	initstate(6, b, sizeof(b));		/* a saved on its stream */
	ASSERT_EQ(3, *head % 5) TH_LOG("header %d is not TYPE_3's", *head);
	*head += *head / 5 < 30 ? 5 : -5;
	memcpy(copy, a, sizeof(copy));
	memset(&rd, 0, sizeof(rd));
	/* setstate_r() writes the header of the state it leaves: give it one. */
	ASSERT_EQ(0, initstate_r(1, scratch, sizeof(scratch), &rd));
	ASSERT_EQ(0, setstate_r(copy, &rd));
	for (int i = 0; i < DRAWS; i++) {
		random_r(&rd, &v);
		want[i] = v;
	}
	ASSERT_EQ((uintptr_t)b, (uintptr_t)setstate(a));
	for (int i = 0; i < DRAWS; i++)
		got[i] = random();
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)))
		TH_LOG("the changed buffer resumed its stream");
}

/*
 * Leaving a strong buffer draws strong words, resuming a stream may open
 * the device: neither may show in errno.  Failure is glibc's EINVAL.
 */
TEST(initstate_and_setstate_keep_errno_on_success)
{
	errno = 4242;
	ASSERT_NE(NULL, initstate(1, buf_a, sizeof(buf_a)));
	EXPECT_EQ(4242, errno) TH_LOG("initstate() leaving strong mode");
	srandom_deterministic(6);
	initstate(2, buf_b, sizeof(buf_b));
	srandom_deterministic(7);
	errno = 4242;
	ASSERT_NE(NULL, setstate(buf_a));
	EXPECT_EQ(4242, errno) TH_LOG("setstate() back to another stream");
	errno = 0;
	EXPECT_EQ(NULL, initstate(3, buf_c, 7));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
