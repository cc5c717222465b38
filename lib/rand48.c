// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rand48 family.
 *
 * drand48(), lrand48(), mrand48() are strong until srand48_deterministic(),
 * seed48_deterministic() or lcong48_deterministic() is called, and strong
 * again after srand48(), seed48() or lcong48().  In deterministic mode
 * they are POSIX's 48-bit linear congruential generator computed by glibc's
 * own drand48_r() and friends on the shim's state, so bit-identical to
 * glibc.  erand48(), nrand48(), jrand48() are always that generator on the
 * caller's X with the shim's multiplier and addend.
 *
 * The strong seeders store X, the multiplier and the addend exactly as
 * glibc's (and OpenBSD's) do, and then leave the generator unused: the
 * values are strong.  So erand48() and friends keep giving glibc's values
 * with the parameters last set, and seed48() returns the X that glibc's
 * would.  Under ARC4_LEGACY=1 the generator is used from the start.
 */
#include "arc4random.h"
#include "shim.h"

/*
 * The generator's state is glibc's struct drand48_data, run by glibc's
 * *_r() functions; seed48() returns a pointer to its private __old_x
 * field, as glibc's seed48() returns its own, and a zeroed struct
 * (__init == 0) is how glibc's unseeded generator starts: X = 0, and the
 * default a and c on first use.  That leans on fields glibc marks private.
 * It is safe because the struct is public ABI all the same: callers
 * allocate it from <stdlib.h>'s definition and glibc's *_r() functions
 * read and write it in place, so its layout and the meaning of its fields
 * cannot change without a new symbol version of those functions.  glibc
 * has kept them since 2.0: drand48_r() and the others still have only
 * their first version (GLIBC_2.0 on i386, the baseline GLIBC_2.2.5 on
 * x86-64).
 */
static struct drand48_data r48;
static int r48_deterministic;

static int r48_is_deterministic(void)
{
	return arc4_legacy() ||
	       __atomic_load_n(&r48_deterministic, __ATOMIC_ACQUIRE);
}

static void r48_set_deterministic(int on)
{
	__atomic_store_n(&r48_deterministic, on, __ATOMIC_RELEASE);
}

ARC4_EXPORT double drand48(void)
{
	double d;

	if (arc4_likely(!r48_is_deterministic()))
		return (arc4_strong_u64() >> 11) * 0x1p-53;
	arc4_lock();
	drand48_r(&r48, &d);
	arc4_unlock();
	return d;
}

ARC4_EXPORT long lrand48(void)
{
	long v;

	if (arc4_likely(!r48_is_deterministic()))
		return arc4_strong_u32() >> 1;
	arc4_lock();
	lrand48_r(&r48, &v);
	arc4_unlock();
	return v;
}

ARC4_EXPORT long mrand48(void)
{
	long v;

	if (arc4_likely(!r48_is_deterministic()))
		return (int32_t)arc4_strong_u32();
	arc4_lock();
	mrand48_r(&r48, &v);
	arc4_unlock();
	return v;
}

ARC4_EXPORT double erand48(unsigned short xsubi[3])
{
	double d;

	arc4_lock();
	erand48_r(xsubi, &r48, &d);
	arc4_unlock();
	return d;
}

ARC4_EXPORT long nrand48(unsigned short xsubi[3])
{
	long v;

	arc4_lock();
	nrand48_r(xsubi, &r48, &v);
	arc4_unlock();
	return v;
}

ARC4_EXPORT long jrand48(unsigned short xsubi[3])
{
	long v;

	arc4_lock();
	jrand48_r(xsubi, &r48, &v);
	arc4_unlock();
	return v;
}

ARC4_EXPORT void srand48(long seed)
{
	arc4_lock();
	srand48_r(seed, &r48);
	r48_set_deterministic(0);
	arc4_unlock();
}

ARC4_EXPORT unsigned short *seed48(unsigned short xseed[3])
{
	arc4_lock();
	seed48_r(xseed, &r48);
	r48_set_deterministic(0);
	arc4_unlock();
	return r48.__old_x;
}

ARC4_EXPORT void lcong48(unsigned short param[7])
{
	arc4_lock();
	lcong48_r(param, &r48);
	r48_set_deterministic(0);
	arc4_unlock();
}

ARC4_EXPORT void srand48_deterministic(long seed)
{
	arc4_lock();
	srand48_r(seed, &r48);
	r48_set_deterministic(1);
	arc4_unlock();
}

ARC4_EXPORT unsigned short *seed48_deterministic(unsigned short xseed[3])
{
	arc4_lock();
	seed48_r(xseed, &r48);
	r48_set_deterministic(1);
	arc4_unlock();
	return r48.__old_x;
}

ARC4_EXPORT void lcong48_deterministic(unsigned short param[7])
{
	arc4_lock();
	lcong48_r(param, &r48);
	r48_set_deterministic(1);
	arc4_unlock();
}
