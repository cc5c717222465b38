// SPDX-License-Identifier: GPL-2.0
/*
 * One way of seeding the rand families, chosen by -DPATTERN_<name> when the
 * test suite builds this file (selftests/audit/Makefile); classify.sh
 * knows what arc4-audit must say of each, from the code below:
 *
 *   constant        srand(12345)                          constant 12345
 *   zero            srandom(0)                            constant 0
 *   time            srand(time(NULL))                     entropy
 *   pid             srandom(getpid())                     entropy
 *   time_pid        srand(time(NULL) ^ getpid())          entropy
 *   gettimeofday    srand(tv.tv_sec ^ tv.tv_usec)         entropy
 *   clock_gettime   srandom(ts.tv_nsec)                   entropy
 *   urandom         srand(4 bytes read from /dev/urandom) entropy
 *   uid_pid         srand(getuid() ^ getpid())            entropy
 *   argument        srand(atoi(argv[1]))                  unknown
 *   parameter       seed_with(s) { srandom(s); }          unknown
 *   pointer         (*volatile fp)(unsigned) = srand      review, no call
 *   srand48_const   srand48(42)                           constant 42
 *   seed48_const    seed48({1, 2, 3})                     constant
 *   initstate_time  initstate(time(NULL), ...)            entropy
 *   unseeded        rand() alone                          unseeded
 *
 * Every program then draws, so each file imports a draw and a seeder.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>

static char state[128];

#if defined(PATTERN_parameter)
/* Not static and not inlined: the seed is a parameter at the call. */
__attribute__((noinline)) void seed_with(unsigned int s)
{
	srandom(s);
}
#endif

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	(void)state;
#if defined(PATTERN_constant)
	srand(12345);
#elif defined(PATTERN_zero)
	srandom(0);
#elif defined(PATTERN_time)
	srand(time(NULL));
#elif defined(PATTERN_pid)
	srandom(getpid());
#elif defined(PATTERN_time_pid)
	srand(time(NULL) ^ getpid());
#elif defined(PATTERN_gettimeofday)
	struct timeval tv;

	gettimeofday(&tv, NULL);
	srand(tv.tv_sec ^ tv.tv_usec);
#elif defined(PATTERN_clock_gettime)
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	srandom(ts.tv_nsec);
#elif defined(PATTERN_urandom)
	unsigned int s = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &s, sizeof(s)) != sizeof(s))
		return 1;
	close(fd);
	srand(s);
#elif defined(PATTERN_uid_pid)
	srand(getuid() ^ getpid());
#elif defined(PATTERN_argument)
	if (argc < 2)
		return 1;
	srand(atoi(argv[1]));
#elif defined(PATTERN_parameter)
	seed_with(argc * 7919u);
#elif defined(PATTERN_pointer)
	void (*volatile fp)(unsigned int) = srand;

	fp(1);
#elif defined(PATTERN_srand48_const)
	srand48(42);
#elif defined(PATTERN_seed48_const)
	unsigned short x[3] = { 1, 2, 3 };

	seed48(x);
#elif defined(PATTERN_initstate_time)
	initstate(time(NULL), state, sizeof(state));
#elif defined(PATTERN_unseeded)
#else
#error "no PATTERN_ given"
#endif
#if defined(PATTERN_srand48_const) || defined(PATTERN_seed48_const)
	printf("%ld\n", lrand48());
#else
	printf("%d %ld\n", rand(), random());
#endif
	return 0;
}
