// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin with libarc4.a inside it, linked -Bsymbolic so that its
 * arc4random() is the archive's, not the libc's (dlclose.c loads it).
 */
#include <stdint.h>

#include "arc4random.h"

__attribute__((visibility("default"))) uint32_t plugin_draw(int n)
{
	uint32_t v = 0;

	for (int i = 0; i < n; i++)
		v ^= arc4random();
	return v;
}
