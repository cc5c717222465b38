/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the /dev/arc4 stress tests: scale knobs from the
 * environment, module parameters, kernel memory counters, and the check
 * that no 16-byte block of a large sample repeats.
 */
#ifndef ARC4_STRESS_H
#define ARC4_STRESS_H

#include <stdio.h>
#include <time.h>

#include "../device/arc4_test.h"

#define ARC4_PARAM(name) "/sys/module/arc4dev/parameters/" name

/*
 * Every size and count a test uses comes from here, so that `make soak`
 * can run the same tests much longer: ARC4_STRESS_SCALE multiplies them
 * all (default 1), and a named variable overrides one.
 */
static inline unsigned long stress_knob(const char *name, unsigned long def)
{
	const char *v = getenv(name);
	const char *scale = getenv("ARC4_STRESS_SCALE");

	if (v && *v)
		return strtoul(v, NULL, 0);
	if (scale && *scale)
		return def * strtoul(scale, NULL, 0);
	return def;
}

static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read or write a number in a small sysfs/proc file; -1 on error. */
static inline long read_long_file(const char *path)
{
	char buf[64];

	return read_text(path, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 10) : -1;
}

static inline int write_long_file(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", val);
	return write_file(path, buf);
}

/* A field of /proc/meminfo in kB, or -1. */
static inline long meminfo_kb(const char *field)
{
	char line[256];
	size_t len = strlen(field);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':') {
			v = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* 16-byte blocks, compared as two 64-bit words. */
struct block16 {
	uint64_t w[2];
};

static int block16_cmp(const void *a, const void *b)
{
	const struct block16 *x = a, *y = b;

	if (x->w[0] != y->w[0])
		return x->w[0] < y->w[0] ? -1 : 1;
	if (x->w[1] != y->w[1])
		return x->w[1] < y->w[1] ? -1 : 1;
	return 0;
}

/*
 * Sort @n blocks in place and count adjacent equal pairs: the number of
 * repeats.  For uniform 128-bit blocks the chance of even one is about
 * n^2 / 2^129, so any repeat is a bug.
 */
static inline size_t block16_repeats(struct block16 *b, size_t n)
{
	size_t i, dups = 0;

	qsort(b, n, sizeof(*b), block16_cmp);
	for (i = 1; i < n; i++)
		if (!block16_cmp(&b[i - 1], &b[i]))
			dups++;
	return dups;
}

#endif /* ARC4_STRESS_H */
