// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * random(), srandom(), srandomdev(), srandom_deterministic(), initstate(),
 * setstate().
 *
 * random() has three modes:
 *   strong  - after srandom(), srandomdev(), or before any call;
 *   stream  - after srandom_deterministic(): the documented /dev/arc4
 *             stream of the seed (arc4random.h);
 *   state   - after initstate(), or setstate() of a buffer that holds
 *             glibc's state: glibc's additive generator on the caller's
 *             buffer, through glibc's own random_r(), so a state saved
 *             under glibc restores the same sequence.
 * Under ARC4_LEGACY=1 it is always in state mode and srandom() seeds the
 * state, exactly as glibc, and rand() shares that state.
 *
 * The state starts, as glibc's does, as initstate(1, <128 bytes>).
 *
 * Saved modes.  glibc's random() always runs on one buffer, the "current"
 * one that initstate() and setstate() return and srandom() reseeds, so
 * that setstate() of a returned buffer resumes whatever ran there.  The
 * shim keeps the same current buffer, and while random() is strong or on
 * a stream that buffer stands for the mode.  When initstate() or
 * setstate() leaves it, the mode (and a stream's seed and position) is
 * recorded under the buffer's address in saved[], and the buffer's table
 * is refilled with strong bytes; setstate() of the buffer, unchanged,
 * returns to the mode.  So a program is never weaker than under glibc:
 * a buffer that was current while random() was strong restores strong,
 * and even one whose record is gone (the caller rewrote it, or more than
 * SAVED_MAX others were saved since) holds a table no one can know.
 */
#include <errno.h>

#include "arc4random.h"
#include "det.h"
#include "shim.h"

enum { RANDOM_STRONG, RANDOM_STREAM, RANDOM_STATE };

static int random_mode = RANDOM_STRONG;
static struct arc4_det random_stream = ARC4_DET_INIT;
static uint32_t random_stream_seed;

static struct random_data state;
static int32_t state_default[32];	/* glibc's TYPE_3, 128 bytes */

/* Under arc4_lock(). */
static void state_ready(void)
{
	if (arc4_unlikely(state.state == NULL))
		initstate_r(1, (char *)state_default, sizeof(state_default),
			    &state);
}

/* Under arc4_lock(); the buffer initstate()/setstate() return. */
static char *state_buffer(void)
{
	return (char *)(state.state - 1);
}

long arc4_random_state_next(void)
{
	int32_t v;

	arc4_lock();
	state_ready();
	random_r(&state, &v);
	arc4_unlock();
	return v;
}

void arc4_random_state_seed(unsigned int seed)
{
	arc4_lock();
	state_ready();
	srandom_r(seed, &state);
	arc4_unlock();
}

ARC4_EXPORT long random(void)
{
	int mode;
	long v;

	if (arc4_unlikely(arc4_legacy()))
		return arc4_random_state_next();
	mode = __atomic_load_n(&random_mode, __ATOMIC_ACQUIRE);
	if (arc4_likely(mode == RANDOM_STRONG))
		return arc4_strong_u32() & RAND_MAX;
	if (mode == RANDOM_STATE)
		return arc4_random_state_next();

	arc4_lock();
	v = arc4_det_u32(&random_stream) & RAND_MAX;
	arc4_unlock();
	return v;
}

static void random_set_mode(int mode)
{
	__atomic_store_n(&random_mode, mode, __ATOMIC_RELEASE);
}

/* ---- Saved modes (see the top of the file) ---------------------------- */

/* glibc's largest table, TYPE_4: 63 words after the header word. */
enum { SAVED_MAX = 16, TABLE_MAX = 63 };

struct saved {
	const int32_t *buf;	/* as initstate() returned it; NULL: free */
	uint64_t sum;		/* of buf[0..words] when saved */
	uint64_t age;		/* the oldest record goes first */
	uint64_t pos;		/* RANDOM_STREAM: where the stream was */
	uint32_t seed;		/* RANDOM_STREAM: srandom_deterministic()'s */
	int words;		/* table words after the header */
	int mode;		/* RANDOM_STRONG or RANDOM_STREAM */
};

static struct saved saved[SAVED_MAX];
static uint64_t saved_age;

/* FNV-1a over the header and table words: did the caller rewrite them? */
static uint64_t saved_sum(const int32_t *buf, int words)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < (size_t)(words + 1) * sizeof(*buf); i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static struct saved *saved_find(const char *buf)
{
	for (int i = 0; i < SAVED_MAX; i++)
		if (saved[i].buf == (const int32_t *)buf)
			return &saved[i];
	return NULL;
}

/* Under arc4_lock(): buf becomes current or glibc's; forget its record. */
static void saved_drop(const char *buf)
{
	struct saved *s = saved_find(buf);

	if (s)
		s->buf = NULL;
}

/* A free record, else the oldest. */
static struct saved *saved_slot(void)
{
	struct saved *s = &saved[0];

	for (int i = 0; i < SAVED_MAX; i++) {
		if (!saved[i].buf)
			return &saved[i];
		if (saved[i].age < s->age)
			s = &saved[i];
	}
	return s;
}

/* Under arc4_lock(): the current table's words (TYPE_0 has one). */
static int state_words(void)
{
	return state.rand_deg ? state.rand_deg : 1;
}

/*
 * What initstate()/setstate() leave behind: the current buffer, its table
 * size and random()'s mode, taken before glibc switches buffers.
 */
struct leaving {
	int32_t *buf;
	int words;
	int mode;
};

static struct leaving leaving_now(void)
{
	struct leaving l = {
		.buf = state.state - 1,
		.words = state_words(),
		.mode = __atomic_load_n(&random_mode, __ATOMIC_RELAXED),
	};

	return l;
}

/*
 * Under arc4_lock(), after glibc wrote l.buf's header: record the mode
 * l.buf stood for, and give its table strong words (so that even without
 * the record it replays nothing anyone knows; one word made odd keeps the
 * additive generator at its full period).  fill holds them if filled.
 */
static void saved_leave(struct leaving l, int32_t fill[TABLE_MAX], int filled)
{
	struct saved *s;

	if (l.mode == RANDOM_STATE)
		return;
	if (!filled)
		arc4_strong_bytes(fill, TABLE_MAX * sizeof(*fill));
	memcpy(l.buf + 1, fill, l.words * sizeof(*fill));
	l.buf[1] |= 1;
	s = saved_slot();
	*s = (struct saved){
		.buf = l.buf,
		.sum = saved_sum(l.buf, l.words),
		.age = ++saved_age,
		.words = l.words,
		.mode = l.mode,
	};
	if (l.mode == RANDOM_STREAM) {
		s->seed = random_stream_seed;
		s->pos = random_stream.pos;
	}
}

/* Under arc4_lock(): back to the stream seed at byte pos. */
static void stream_resume(uint32_t seed, uint64_t pos)
{
	if (seed != random_stream_seed) {
		arc4_det_seed(&random_stream, ARC4_NONCE_RANDOM, seed);
		random_stream_seed = seed;
	}
	random_stream.pos = pos;
}

/*
 * Under arc4_lock(), once glibc runs on buf: the mode buf was saved in,
 * if its record is there and its words are as the shim left them (glibc
 * found a table of the same size there first: no reading past the end of
 * a smaller one); else state mode on the caller's table.
 */
static void saved_resume(const char *buf)
{
	struct saved *s = saved_find(buf);
	int mode = RANDOM_STATE;

	if (s && s->words == state_words() &&
	    saved_sum(s->buf, s->words) == s->sum) {
		mode = s->mode;
		if (mode == RANDOM_STREAM)
			stream_resume(s->seed, s->pos);
	}
	if (s)
		s->buf = NULL;
	random_set_mode(mode);
}

/*
 * The strong words for saved_leave(), drawn before the lock is taken so
 * that the lock is not held across a refill; only when random() is strong
 * or on a stream (else another thread changed it since: saved_leave()
 * draws them).  Whether it did.
 */
static int leaving_fill(int32_t fill[TABLE_MAX])
{
	if (arc4_legacy() ||
	    __atomic_load_n(&random_mode, __ATOMIC_RELAXED) == RANDOM_STATE)
		return 0;
	arc4_strong_bytes(fill, TABLE_MAX * sizeof(*fill));
	return 1;
}

/* ---- Seeding and state buffers ----------------------------------------- */

ARC4_EXPORT void srandom(unsigned int seed)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(seed);
		return;
	}
	arc4_lock();
	random_set_mode(RANDOM_STRONG);
	arc4_unlock();
}

/* BSD's: reseed from the strong source; for us that is strong mode. */
ARC4_EXPORT void srandomdev(void)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(arc4_strong_u32());
		return;
	}
	arc4_lock();
	random_set_mode(RANDOM_STRONG);
	arc4_unlock();
}

ARC4_EXPORT void srandom_deterministic(unsigned int seed)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(seed);
		return;
	}
	arc4_lock();
	arc4_det_seed(&random_stream, ARC4_NONCE_RANDOM, seed);
	random_stream_seed = seed;
	random_set_mode(RANDOM_STREAM);
	arc4_unlock();
}

/*
 * Both keep errno on success (the strong words and a stream's device may
 * set it on the way); on failure it is glibc's EINVAL.
 */
ARC4_EXPORT char *initstate(unsigned int seed, char *buf, size_t size)
{
	int saved_errno = errno;
	int32_t fill[TABLE_MAX];
	int filled = leaving_fill(fill);
	struct leaving l;
	char *old;

	arc4_lock();
	state_ready();
	l = leaving_now();
	old = state_buffer();
	if (initstate_r(seed, buf, size, &state) != 0) {
		old = NULL;
	} else if (!arc4_legacy()) {
		if (old != buf)	/* else initstate_r() just seeded it */
			saved_leave(l, fill, filled);
		saved_drop(buf);
		random_set_mode(RANDOM_STATE);
	}
	arc4_unlock();
	explicit_bzero(fill, sizeof(fill));
	if (old)
		errno = saved_errno;
	return old;
}

ARC4_EXPORT char *setstate(char *buf)
{
	int saved_errno = errno;
	int32_t fill[TABLE_MAX];
	int filled = leaving_fill(fill);
	struct leaving l;
	char *old;

	arc4_lock();
	state_ready();
	l = leaving_now();
	old = state_buffer();
	if (setstate_r(buf, &state) != 0) {
		old = NULL;
	} else if (!arc4_legacy()) {
		/* buf may be l.buf: then its fresh record resumes at once. */
		saved_leave(l, fill, filled);
		saved_resume(buf);
	}
	arc4_unlock();
	explicit_bzero(fill, sizeof(fill));
	if (old)
		errno = saved_errno;
	return old;
}
