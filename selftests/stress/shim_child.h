/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process drawing through the shim, for vmfork.c: static in vmfork
 * itself (libarc4.a), dynamic in vmfork-shim (-larc4).  It fills its
 * strong buffer (draws past the first, unbuffered values), writes one
 * byte to say so, and on a byte from the other side draws 6 arc4random(),
 * 6 rand() and 4 lrand48() and writes them.
 */
#ifndef ARC4_SHIM_CHILD_H
#define ARC4_SHIM_CHILD_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "arc4random.h"

enum {
	SHIM_VALUES = 16,	/* values a shim process hands over */
	SHIM_BYTES = 4 * SHIM_VALUES,
};

static inline int shim_child_draws(int go, int values)
{
	uint32_t v[SHIM_VALUES];
	char c = 0;
	int i;

	for (i = 0; i < 100; i++)
		(void)arc4random();
	(void)rand();
	(void)lrand48();
	if (write(values, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 1;
	for (i = 0; i < 6; i++)
		v[i] = arc4random();
	for (; i < 12; i++)
		v[i] = rand();
	for (; i < SHIM_VALUES; i++)
		v[i] = lrand48();
	return write(values, v, sizeof(v)) == sizeof(v) ? 0 : 1;
}

#endif
