// SPDX-License-Identifier: GPL-2.0
/*
 * libctor.so, for dlclose: a library whose constructor draws strong
 * values from the shim (the libarc4.so named by ARC4_CTOR_LIB, already
 * loaded) after a pause, while the dynamic linker's lock is held by the
 * dlopen() that runs it.  For linking: with ARC4_CTOR_RAND set, its
 * constructor calls rand() (the shim's, when preloaded), which runs
 * before the shim's own constructor when the library is preloaded after
 * it.  With ARC4_CTOR_SETENV set, it adds 64 variables to the environment
 * (for dlclose: libouter.so runs it just before the shim's constructor).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void ctor_draw(void)
{
	const char *lib = getenv("ARC4_CTOR_LIB");
	uint32_t (*draw)(void);
	void *h;

	if (getenv("ARC4_CTOR_RAND"))
		(void)rand();
	if (getenv("ARC4_CTOR_SETENV")) {	/* grows environ: realloc() */
		char name[32];

		for (int i = 0; i < 64; i++) {
			snprintf(name, sizeof(name), "ARC4_CTOR_%d", i);
			setenv(name, "1", 1);
		}
	}
	if (!lib || !(h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD)))
		return;
	draw = (uint32_t (*)(void))dlsym(h, "arc4random");
	usleep(300 * 1000);
	for (int i = 0; draw && i < 64; i++)
		(void)draw();
	dlclose(h);
}
