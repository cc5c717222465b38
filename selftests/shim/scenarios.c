// SPDX-License-Identifier: GPL-2.0
/*
 * Call sequences of the rand families, printed one tagged value a line.
 *
 * Built three ways: into ref (plain glibc, no shim: the oracle, and the
 * "unmodified program" the preload tests run), into ref-static (linked
 * statically with libarc4.a), and into the shim tests with SCEN_SHIM,
 * where the rand48 seeders become their _deterministic forms.  A test
 * compares the shim's lines with ref's: glibc is the oracle, never the
 * shim itself.
 *
 *   rand S N | random S N | shared S N | rand_r S N | srandtime N
 *   initstate S SIZE N | setstate | savestate S N
 *   rand48 S N | seed48 X0 X1 X2 N | lcong48 P0..P6 N | erand48 X0 X1 X2 N
 *   seed48x S
 *   unseeded N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "scenarios.h"

#ifdef SCEN_SHIM
#include "arc4random.h"
#define SRAND48		srand48_deterministic
#define SEED48		seed48_deterministic
#define LCONG48		lcong48_deterministic
#else
#define SRAND48		srand48
#define SEED48		seed48
#define LCONG48		lcong48
#endif

static void print_rand48(FILE *out, int n)
{
	for (int i = 0; i < n; i++) {
		fprintf(out, "drand48 %a\n", drand48());
		fprintf(out, "lrand48 %ld\n", lrand48());
		fprintf(out, "mrand48 %ld\n", mrand48());
	}
}

static void print_xrand48(FILE *out, unsigned short x[3], int n)
{
	unsigned short e[3], m[3], j[3];

	memcpy(e, x, sizeof(e));
	memcpy(m, x, sizeof(m));
	memcpy(j, x, sizeof(j));
	for (int i = 0; i < n; i++) {
		fprintf(out, "erand48 %a\n", erand48(e));
		fprintf(out, "nrand48 %ld\n", nrand48(m));
		fprintf(out, "jrand48 %ld\n", jrand48(j));
	}
	fprintf(out, "xsubi %hu %hu %hu\n", e[0], e[1], e[2]);
}

static const char *which(const char *p, const char *a, const char *b)
{
	return p == a ? "a" : p == b ? "b" : p ? "other" : "null";
}

static void setstate_dance(FILE *out)
{
	static char a[256], b[64];
	const char *r;

	r = initstate(7, a, sizeof(a));
	fprintf(out, "initstate-a-returned %s\n", which(r, a, b));
	for (int i = 0; i < 5; i++)
		fprintf(out, "random %ld\n", random());
	r = initstate(9, b, sizeof(b));
	fprintf(out, "initstate-b-returned %s\n", which(r, a, b));
	for (int i = 0; i < 5; i++)
		fprintf(out, "random %ld\n", random());
	r = setstate(a);
	fprintf(out, "setstate-a-returned %s\n", which(r, a, b));
	for (int i = 0; i < 5; i++)
		fprintf(out, "random %ld\n", random());
	r = setstate(b);
	fprintf(out, "setstate-b-returned %s\n", which(r, a, b));
	for (int i = 0; i < 5; i++)
		fprintf(out, "random %ld\n", random());
	r = initstate(3, a, 7);
	fprintf(out, "initstate-too-small-returned %s\n", which(r, a, b));
}

/* srandom(seed), then a save and restore of the buffer it seeded. */
static void savestate(FILE *out, unsigned int seed, int n)
{
	static char buf[128];

	srandom(seed);
	setstate(initstate(7, buf, sizeof(buf)));
	for (int i = 0; i < n; i++)
		fprintf(out, "random %ld\n", random());
}

static void print_x(FILE *out, const char *tag, const unsigned short *x)
{
	fprintf(out, "%s %04hx %04hx %04hx\n", tag, x[0], x[1], x[2]);
}

/*
 * What seed48() returns after each seeding call: the X that call stored.
 * The plain seeders in both builds (values are not drawn here).
 */
static void seed48x(FILE *out, long seed)
{
	unsigned short x[3] = { 0x1234, 0x5678, 0x9abc };
	unsigned short y[3] = { 0xfedc, 0xba98, 0x7654 };
	unsigned short p[7] = { 0x1111, 0x2222, 0x3333, 0xe66d, 0xdeec, 5, 11 };

	srand48(seed);
	print_x(out, "after-srand48", seed48(x));
	print_x(out, "after-seed48", seed48(y));
	lcong48(p);
	print_x(out, "after-lcong48", seed48(x));
}

/*
 * envfreed: a string of the program's own put into the environment it
 * started with (AFOO, which must be there), then taken out again and its
 * memory unmapped once setenv() has moved the environment to a copy.
 */
static void envfreed(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(3);
	strcpy(p, "AFOO=bar");
	putenv(p);
	setenv("ARC4_SCENARIO_NEW", "1", 1);
	unsetenv("AFOO");
	munmap(p, 4096);
}

/*
 * proctitle: as programs that set their title in ps do: the environment's
 * strings copied into a new environment, then the strings it started with
 * overwritten with NULs.
 */
static void proctitle(void)
{
	extern char **environ;
	char **start = environ, **copy;
	int n = 0;

	while (start[n])
		n++;
	copy = calloc(n + 1, sizeof(*copy));
	for (int i = 0; copy && i < n; i++)
		if (!(copy[i] = strdup(start[i])))
			exit(3);
	if (!copy)
		exit(3);
	environ = copy;
	for (int i = 0; i < n; i++)
		memset(start[i], 0, strlen(start[i]));
}

int scenario(FILE *out, int argc, char **argv)
{
	const char *s = argc > 0 ? argv[0] : "";
	long v[8] = { 0 };
	int i;

	for (i = 1; i < argc && i <= 8; i++)
		v[i - 1] = strtol(argv[i], NULL, 0);

	if (!strcmp(s, "rand") && argc == 3) {
		srand(v[0]);
		for (i = 0; i < v[1]; i++)
			fprintf(out, "rand %d\n", rand());
	} else if (!strcmp(s, "random") && argc == 3) {
		srandom(v[0]);
		for (i = 0; i < v[1]; i++)
			fprintf(out, "random %ld\n", random());
	} else if (!strcmp(s, "shared") && argc == 3) {
		srand(v[0]);
		for (i = 0; i < v[1]; i++) {
			fprintf(out, "rand %d\n", rand());
			fprintf(out, "random %ld\n", random());
		}
	} else if (!strcmp(s, "rand_r") && argc == 3) {
		unsigned int seed = v[0];

		for (i = 0; i < v[1]; i++)
			fprintf(out, "rand_r %d\n", rand_r(&seed));
	} else if (!strcmp(s, "srandtime") && argc == 2) {
		srand(time(NULL));
		for (i = 0; i < v[0]; i++)
			fprintf(out, "rand %d\n", rand());
	} else if (!strcmp(s, "initstate") && argc == 4) {
		static char buf[256];

		if (v[1] > (long)sizeof(buf))
			return 2;
		initstate(v[0], buf, v[1]);
		for (i = 0; i < v[2]; i++)
			fprintf(out, "random %ld\n", random());
	} else if (!strcmp(s, "setstate") && argc == 1) {
		setstate_dance(out);
	} else if (!strcmp(s, "savestate") && argc == 3) {
		savestate(out, v[0], v[1]);
	} else if (!strcmp(s, "rand48") && argc == 3) {
		SRAND48(v[0]);
		print_rand48(out, v[1]);
	} else if (!strcmp(s, "seed48") && argc == 5) {
		unsigned short x[3] = { v[0], v[1], v[2] }, *old;

		old = SEED48(x);
		fprintf(out, "old %hu %hu %hu\n", old[0], old[1], old[2]);
		print_rand48(out, v[3]);
		old = SEED48(x);
		fprintf(out, "old %hu %hu %hu\n", old[0], old[1], old[2]);
	} else if (!strcmp(s, "lcong48") && argc == 9) {
		unsigned short p[7], x[3] = { 1, 2, 3 };

		for (i = 0; i < 7; i++)
			p[i] = v[i];
		LCONG48(p);
		print_rand48(out, v[7]);
		print_xrand48(out, x, v[7]);
	} else if (!strcmp(s, "seed48x") && argc == 2) {
		seed48x(out, v[0]);
	} else if (!strcmp(s, "erand48") && argc == 5) {
		unsigned short x[3] = { v[0], v[1], v[2] };

		print_xrand48(out, x, v[3]);
	} else if (!strcmp(s, "envfreed") && argc == 1) {
		envfreed();
		srand(1);
		for (i = 0; i < 3; i++)
			fprintf(out, "rand %d\n", rand());
	} else if (!strcmp(s, "proctitle") && argc == 1) {
		proctitle();
		srand(1);
		for (i = 0; i < 3; i++)
			fprintf(out, "rand %d\n", rand());
	} else if (!strcmp(s, "unseeded") && argc == 2) {
		for (i = 0; i < v[0]; i++) {
			fprintf(out, "rand %d\n", rand());
			fprintf(out, "drand48 %a\n", drand48());
		}
	} else {
		return 2;
	}
	return 0;
}
