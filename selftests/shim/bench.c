// SPDX-License-Identifier: GPL-2.0
/*
 * bench: ns per call of rand() and arc4random() through the shim (this
 * program links -larc4) beside glibc's own (dlsym on libc.so.6), in one
 * run.  Not a test: it prints numbers and always exits 0.
 *
 *   bench [calls]
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "arc4random.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile uint32_t sink;

#define TIME(label, expr) do {						\
	double t0 = now_ns();						\
	for (long i = 0; i < calls; i++)				\
		sink += (expr);						\
	printf("%-36s %7.2f ns/call\n", label, (now_ns() - t0) / calls); \
} while (0)

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 20000000;
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	int (*glibc_rand)(void) = libc ? dlsym(libc, "rand") : NULL;
	long (*glibc_random)(void) = libc ? dlsym(libc, "random") : NULL;
	uint32_t (*glibc_arc4random)(void) = libc ? dlsym(libc, "arc4random") : NULL;

	if (!glibc_rand || !glibc_random || glibc_rand == rand) {
		fprintf(stderr, "bench: cannot reach glibc's own rand()\n");
		return 0;
	}
	printf("%ld calls each; /dev/arc4 %s %s\n", calls,
	       access("/dev/arc4", F_OK) ? "missing (getrandom fallback)" : "present",
	       getenv("ARC4_LEGACY") ? "(ARC4_LEGACY set)" : "");
	TIME("glibc rand()", glibc_rand());
	TIME("shim rand() (strong)", rand());
	srand_deterministic(1);
	TIME("shim rand() (srand_deterministic)", rand());
	TIME("glibc random()", glibc_random());
	TIME("shim random() (strong)", random());
	if (glibc_arc4random)
		TIME("glibc 2.36 arc4random()", glibc_arc4random());
	TIME("shim arc4random()", arc4random());
	return 0;
}
