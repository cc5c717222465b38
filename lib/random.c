// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * random(), srandom(), srandomdev(), srandom_deterministic(), initstate(),
 * setstate().
 *
 * random() has three modes:
 *   strong  - after srandom(), srandomdev(), or before any call;
 *   stream  - after srandom_deterministic(): the documented /dev/arc4
 *             stream of the seed (arc4random.h);
 *   state   - after initstate() or setstate(): glibc's additive generator
 *             on the caller's buffer, through glibc's own random_r(), so a
 *             state saved under glibc restores the same sequence.
 * Under ARC4_LEGACY=1 it is always in state mode and srandom() seeds the
 * state, exactly as glibc, and rand() shares that state.
 *
 * The state starts, as glibc's does, as initstate(1, <128 bytes>).
 */
#include "arc4random.h"
#include "shim.h"

enum { RANDOM_STRONG, RANDOM_STREAM, RANDOM_STATE };

static int random_mode = RANDOM_STRONG;
static struct arc4_det random_stream = ARC4_DET_INIT;

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

ARC4_EXPORT void srandom(unsigned int seed)
{
	if (arc4_legacy())
		arc4_random_state_seed(seed);
	else
		random_set_mode(RANDOM_STRONG);
}

/* BSD's: reseed from the strong source; for us that is strong mode. */
ARC4_EXPORT void srandomdev(void)
{
	if (arc4_legacy())
		arc4_random_state_seed(arc4_strong_u32());
	else
		random_set_mode(RANDOM_STRONG);
}

ARC4_EXPORT void srandom_deterministic(unsigned int seed)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(seed);
		return;
	}
	arc4_lock();
	arc4_det_seed(&random_stream, ARC4_NONCE_RANDOM, seed);
	random_set_mode(RANDOM_STREAM);
	arc4_unlock();
}

ARC4_EXPORT char *initstate(unsigned int seed, char *buf, size_t size)
{
	char *old;

	arc4_lock();
	state_ready();
	old = state_buffer();
	if (initstate_r(seed, buf, size, &state) == 0)
		random_set_mode(RANDOM_STATE);
	else
		old = NULL;
	arc4_unlock();
	return old;
}

ARC4_EXPORT char *setstate(char *buf)
{
	char *old;

	arc4_lock();
	state_ready();
	old = state_buffer();
	if (setstate_r(buf, &state) == 0)
		random_set_mode(RANDOM_STATE);
	else
		old = NULL;
	arc4_unlock();
	return old;
}
