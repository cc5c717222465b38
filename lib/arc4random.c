// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * arc4random(), arc4random_buf(), arc4random_uniform(): always strong.
 */
#include "arc4random.h"
#include "shim.h"

ARC4_EXPORT uint32_t arc4random(void)
{
	return arc4_strong_u32();
}

ARC4_EXPORT void arc4random_buf(void *buf, size_t len)
{
	arc4_strong_bytes(buf, len);
}

/*
 * Exactly uniform: of the 2^32 possible draws, the lowest 2^32 mod n are
 * rejected, which leaves a whole number of copies of [0, n).  In 32-bit
 * unsigned arithmetic 2^32 mod n is (-n) % n.  Each draw is rejected with
 * probability below 1/2, so the loop ends quickly.
 */
ARC4_EXPORT uint32_t arc4random_uniform(uint32_t upper_bound)
{
	uint32_t reject_below, r;

	if (upper_bound < 2)
		return 0;
	reject_below = -upper_bound % upper_bound;
	do
		r = arc4_strong_u32();
	while (r < reject_below);
	return r % upper_bound;
}
