// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin with libarc4.a inside it, linked -Bsymbolic so that its
 * arc4random() is the archive's, not the libc's (dlclose.c loads it).
 */
#include <stdint.h>

#include "arc4random.h"
#include "shim_test.h"

__attribute__((visibility("default"))) uint32_t plugin_draw(int n)
{
	uint32_t v = 0;

	for (int i = 0; i < n; i++)
		v ^= arc4random();
	return v;
}

/*
 * Strong buffers the loading thread held after drawing past its early
 * draws in this constructor, which runs before the archive's own (this
 * object comes first on the link line), so before the plugin is pinned
 * against dlclose(): none may be made until then, since the buffer's
 * thread-exit destructor could outlive the plugin's code.
 */
__attribute__((visibility("default"))) int plugin_ctor_buffers = -1;

__attribute__((constructor)) static void plugin_ctor(void)
{
	for (int i = 0; i < 4 * SHIM_BUFFERED_AFTER; i++)
		(void)arc4random();
	plugin_ctor_buffers = count_wipeonfork_maps();
}
