// SPDX-License-Identifier: GPL-2.0
/* A library that replays: its seed is a constant.  arc4-audit must call
 * it needs-deterministic, and --policy must not list it as a program. */
#include <stdlib.h>

int libseed_draw(void)
{
	srandom(2024);
	return random();
}
