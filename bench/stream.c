// SPDX-License-Identifier: GPL-2.0
/*
 * streambench: arc4_stream's side of bench/stream.
 *
 *   streambench [-r REPEATS] [-n CALLS] [-i IMPL] calls | device
 *
 * calls   ns per arc4_stream_u32() and per arc4_stream_u64() (CALLS in a
 *         row), per byte of arc4_stream_buf() of 4 KiB, and per seek+u32
 *         at 0 and at 2^60 (each seek to a new buffer, so each computes
 *         one)
 * -i      the ChaCha20 implementation to force (avx512, avx2, ssse3, sse2,
 *         neon, portable; the default is the library's own choice), recorded
 *         as impl "arc4-IMPL"; exit status 3 if the CPU lacks it
 * device  ns per byte of 4 KiB: pread() of a seeded /dev/arc4 descriptor
 *         against arc4_stream_buf() of the same stream, in one process
 *
 * Records as devbench's (record.h): group impl func mode param median min
 * max unit repeats.  Linked with libarc4.a to reach the library's hidden
 * arc4_chacha20_select(), as the stream selftest is.  Not a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <arc4random.h>
#include <linux/arc4.h>
#include "record.h"

#define MAX_REPEATS 64
enum { BUF = 4096 };

int arc4_chacha20_select(const char *name);

static int repeats = 5;
static char impl[32] = "arc4";
static long calls = 20000000;
static volatile uint64_t sink;

/*
 * The thread's CPU time, as the Rust side measures too: on a shared
 * machine other processes' time is not counted.  (In the icount VM the
 * two clocks agree.)
 */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static const uint8_t key[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static double u32_ns(arc4_stream *s)
{
	uint64_t t = now_ns(), x = 0;

	for (long i = 0; i < calls; i++)
		x ^= arc4_stream_u32(s);
	sink = x;
	return (double)(now_ns() - t) / calls;
}

static double u64_ns(arc4_stream *s)
{
	uint64_t t = now_ns(), x = 0;

	for (long i = 0; i < calls; i++)
		x ^= arc4_stream_u64(s);
	sink = x;
	return (double)(now_ns() - t) / calls;
}

static double buf_ns(arc4_stream *s)
{
	static uint8_t b[BUF];
	long n = calls / BUF * 16;
	uint64_t t = now_ns();

	for (long i = 0; i < n; i++)
		arc4_stream_buf(s, b, BUF);
	sink = b[7];
	return (double)(now_ns() - t) / ((double)n * BUF);
}

static double seek_ns(arc4_stream *s, uint64_t at)
{
	long n = calls / 100;
	uint64_t t = now_ns(), x = 0;

	for (long i = 0; i < n; i++) {
		arc4_stream_seek(s, at + 1024 * (uint64_t)i);
		x ^= arc4_stream_u32(s);
	}
	sink = x;
	return (double)(now_ns() - t) / n;
}

static void bench_calls(void)
{
	double u[MAX_REPEATS], w[MAX_REPEATS], b[MAX_REPEATS];
	double s0[MAX_REPEATS], s60[MAX_REPEATS];
	arc4_stream *s = arc4_stream_new(key, 7);

	if (!s)
		exit(1);
	for (int r = 0; r < repeats; r++) {
		u[r] = u32_ns(s);
		w[r] = u64_ns(s);
		b[r] = buf_ns(s);
		s0[r] = seek_ns(s, 0);
		s60[r] = seek_ns(s, 1ull << 60);
	}
	record("stream", impl, "u32", "det", 0, u, repeats, "ns/call");
	record("stream", impl, "u64", "det", 0, w, repeats, "ns/call");
	record("stream", impl, "buf", "det", BUF, b, repeats, "ns/byte");
	record("stream", impl, "seek+u32", "det", 0, s0, repeats, "ns/call");
	record("stream", impl, "seek+u32", "det", 60, s60, repeats, "ns/call");
	arc4_stream_free(s);
}

static void bench_device(void)
{
	double d[MAX_REPEATS], b[MAX_REPEATS];
	static uint8_t buf[BUF];
	struct arc4_seed seed = { .nonce = 7 };
	arc4_stream *s = arc4_stream_new(key, 7);
	long n = calls / BUF;
	int fd = open("/dev/arc4", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !s) {
		fprintf(stderr, "streambench: /dev/arc4: %s\n", strerror(errno));
		exit(1);
	}
	memcpy(seed.key, key, sizeof(key));
	if (ioctl(fd, ARC4_IOC_SEED, &seed) != 0)
		exit(1);
	for (int r = 0; r < repeats; r++) {
		uint64_t t = now_ns();

		for (long i = 0; i < n; i++)
			if (pread(fd, buf, BUF, (off_t)i * BUF) != BUF)
				exit(1);
		d[r] = (double)(now_ns() - t) / ((double)n * BUF);
		t = now_ns();
		for (long i = 0; i < n; i++)
			arc4_stream_buf(s, buf, BUF);
		b[r] = (double)(now_ns() - t) / ((double)n * BUF);
	}
	record("stream", "dev", "pread", "det", BUF, d, repeats, "ns/byte");
	record("stream", "arc4", "buf", "det", BUF, b, repeats, "ns/byte");
	close(fd);
	arc4_stream_free(s);
}

int main(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "r:n:i:")) != -1) {
		if (c == 'r')
			repeats = atoi(optarg);
		else if (c == 'n')
			calls = atol(optarg);
		else if (c == 'i' && strlen(optarg) < sizeof(impl) - 5)
			snprintf(impl, sizeof(impl), "arc4-%s", optarg);
		else
			return 2;
	}
	if (strcmp(impl, "arc4") != 0 && arc4_chacha20_select(impl + 5) != 0)
		return 3;
	if (repeats < 1 || repeats > MAX_REPEATS || calls < 100 || optind >= argc)
		return 2;
	if (strcmp(argv[optind], "calls") == 0)
		bench_calls();
	else if (strcmp(argv[optind], "device") == 0)
		bench_device();
	else
		return 2;
	return 0;
}
