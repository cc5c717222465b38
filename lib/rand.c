// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rand(), srand(), srand_deterministic().
 *
 * Strong unless srand_deterministic() was the last seeding call; then the
 * documented /dev/arc4 stream of the seed (arc4random.h).  rand_r() keeps
 * no state and is left to glibc.  Under ARC4_LEGACY=1, as in glibc,
 * rand() is random() on random()'s state and srand() is srandom().
 */
#include "arc4random.h"
#include "det.h"
#include "shim.h"

static int rand_deterministic;
static struct arc4_det rand_stream = ARC4_DET_INIT;

ARC4_EXPORT int rand(void)
{
	uint32_t v;

	if (arc4_unlikely(arc4_legacy()))
		return (int)arc4_random_state_next();
	if (arc4_likely(!__atomic_load_n(&rand_deterministic,
					 __ATOMIC_ACQUIRE)))
		return (int)(arc4_strong_u32() & RAND_MAX);

	arc4_lock();
	v = arc4_det_u32(&rand_stream);
	arc4_unlock();
	return (int)(v & RAND_MAX);
}

ARC4_EXPORT void srand(unsigned int seed)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(seed);
		return;
	}
	__atomic_store_n(&rand_deterministic, 0, __ATOMIC_RELEASE);
}

ARC4_EXPORT void srand_deterministic(unsigned int seed)
{
	if (arc4_legacy()) {
		arc4_random_state_seed(seed);
		return;
	}
	arc4_lock();
	arc4_det_seed(&rand_stream, ARC4_NONCE_RAND, seed);
	__atomic_store_n(&rand_deterministic, 1, __ATOMIC_RELEASE);
	arc4_unlock();
}
