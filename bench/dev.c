// SPDX-License-Identifier: GPL-2.0
/*
 * devbench: the device side of `make bench`.
 *
 *   devbench [-r REPEATS] [-s SCALE] throughput | openclose | memory [N]
 *   devbench [-r REPEATS] [-s SCALE] refill [DIR]
 *
 * throughput  read() of 16 B .. 1 MiB from /dev/arc4 (strong and
 *             deterministic), /dev/urandom and getrandom()
 * openclose   open + read(32) + close of /dev/arc4 and of /dev/urandom
 * memory      kernel memory (slab) per open file: N opens (default 10000)
 *             of /dev/arc4 against N of /dev/urandom, whose open allocates
 *             nothing but the struct file
 * refill      the parts of the shim's refill, ns per call: pread() of
 *             1 KiB .. 16376 B (the shim's refill) from /dev/arc4 in
 *             strong mode and from a file in DIR (default /tmp, which
 *             should be a tmpfs: a read there is a copy from the page
 *             cache and little else), a pread() of 0 bytes from
 *             /dev/arc4 (the system call and nothing of the stream), and
 *             the fstat() and ARC4_IOC_GET_INFO the shim makes per refill
 *
 * Time is CLOCK_MONOTONIC; in the VM with VM_ICOUNT=1 one guest instruction
 * is one nanosecond, so the figures are instruction counts.  Each result is
 * a tab-separated record on stdout:
 *
 *   group impl func mode param median min max unit repeats
 *
 * with median, min and max over the repeats.  Not a test: exits 0 unless a
 * source it was asked for cannot be used at all.
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
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include <linux/arc4.h>
#include "record.h"

#define MAX_REPEATS 64

static int repeats = 5;
static double scale = 1.0;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "devbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ---- sources ------------------------------------------------------------ */

enum source { ARC4_STRONG, ARC4_DET, URANDOM, GETRANDOM, NSOURCES };

static const struct {
	const char *impl, *mode;
} source_name[NSOURCES] = {
	[ARC4_STRONG] = { "arc4", "strong" },
	[ARC4_DET] = { "arc4", "det" },
	[URANDOM] = { "urandom", "strong" },
	[GETRANDOM] = { "getrandom", "strong" },
};

static int source_open(enum source src)
{
	struct arc4_seed seed = { .nonce = 1 };
	int fd;

	switch (src) {
	case ARC4_STRONG:
		return open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	case ARC4_DET:
		fd = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
		memset(seed.key, 0x5a, sizeof(seed.key));
		if (fd >= 0 && ioctl(fd, ARC4_IOC_SEED, &seed) != 0) {
			close(fd);
			return -1;
		}
		return fd;
	case URANDOM:
		return open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	default:
		return -2;	/* getrandom(): no descriptor */
	}
}

/* One read of len bytes, whole, from fd (or getrandom() for fd -2). */
static void source_read(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = fd == -2 ? getrandom(buf + got, len - got, 0) :
				       read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("read");
		got += n;
	}
}

/* ---- throughput --------------------------------------------------------- */

static const size_t sizes[] = { 16, 256, 4096, 65536, 1048576 };

/* Bytes to move per repeat at each size: enough reads to average over. */
static size_t volume(size_t size)
{
	size_t v = size < 4096 ? 64 * size * 64 : 8u << 20;

	v = (size_t)(v * scale);
	return v < size ? size : v - v % size;
}

static void throughput(void)
{
	uint8_t *buf = malloc(sizes[4]);
	double v[MAX_REPEATS];

	if (!buf)
		die("malloc");
	for (int src = 0; src < NSOURCES; src++) {
		int fd = source_open(src);

		if (fd == -1) {
			fprintf(stderr, "devbench: %s %s: %s; skipped\n",
				source_name[src].impl, source_name[src].mode,
				strerror(errno));
			continue;
		}
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t size = sizes[i], total = volume(size);

			source_read(fd, buf, size);	/* warm up */
			for (int r = 0; r < repeats; r++) {
				uint64_t t0 = now_ns();

				for (size_t done = 0; done < total; done += size)
					source_read(fd, buf, size);
				/* bytes per ns = GB/s; *1000 = MB/s */
				v[r] = total * 1e3 / (now_ns() - t0);
			}
			record("read", source_name[src].impl, "read",
			       source_name[src].mode, size, v, repeats, "MB/s");
		}
		if (fd >= 0)
			close(fd);
	}
	free(buf);
}

/* ---- open + read(32) + close -------------------------------------------- */

static void openclose(void)
{
	static const char *const path[] = { "/dev/arc4", "/dev/urandom" };
	static const char *const impl[] = { "arc4", "urandom" };
	long n = (long)(2000 * scale);
	double v[MAX_REPEATS];
	uint8_t buf[32];

	if (n < 1)
		n = 1;
	for (int p = 0; p < 2; p++) {
		for (int r = 0; r < repeats; r++) {
			uint64_t t0 = now_ns();

			for (long i = 0; i < n; i++) {
				int fd = open(path[p], O_RDONLY | O_CLOEXEC);

				if (fd < 0)
					die(path[p]);
				source_read(fd, buf, sizeof(buf));
				close(fd);
			}
			v[r] = (double)(now_ns() - t0) / n;
		}
		record("openclose", impl[p], "open+read32+close", "strong", 32,
		       v, repeats, "ns");
	}
}

/* ---- kernel memory per open file ---------------------------------------- */

/* Slab: from /proc/meminfo, in bytes. */
static long meminfo_slab(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* Object size of a slab cache, from /proc/slabinfo (root), or -1. */
static long slab_objsize(const char *cache)
{
	char line[512], name[64];
	long active, num, objsize = -1;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld %ld %ld", name, &active, &num,
			   &objsize) == 4 && strcmp(name, cache) == 0)
			break;
		else
			objsize = -1;
	fclose(f);
	return objsize;
}

static void memory(long n)
{
	static const char *const path[] = { "/dev/arc4", "/dev/urandom" };
	static const char *const impl[] = { "arc4", "urandom" };
	struct rlimit rl = { n + 64, n + 64 };
	double per[2][MAX_REPEATS], beyond[MAX_REPEATS], v[1];
	int *fds = calloc(n, sizeof(*fds));

	if (!fds)
		die("calloc");
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		die("setrlimit (run as root)");
	for (int r = 0; r < repeats; r++) {
		for (int p = 0; p < 2; p++) {
			long before, after;

			/* Let RCU-freed files from the last round go. */
			usleep(200000);
			before = meminfo_slab();
			for (long i = 0; i < n; i++) {
				fds[i] = open(path[p], O_RDONLY | O_CLOEXEC);
				if (fds[i] < 0)
					die(path[p]);
			}
			after = meminfo_slab();
			for (long i = 0; i < n; i++)
				close(fds[i]);
			per[p][r] = (double)(after - before) / n;
		}
		beyond[r] = per[0][r] - per[1][r];
	}
	for (int p = 0; p < 2; p++)
		record("memory", impl[p], "slab-per-open", "strong", n, per[p],
		       repeats, "bytes");
	record("memory", "arc4", "slab-beyond-file", "strong", n, beyond,
	       repeats, "bytes");
	v[0] = slab_objsize("filp");
	if (v[0] > 0)
		record("memory", "kernel", "struct-file", "-", 1, v, 1, "bytes");
	free(fds);
}

/* ---- the parts of a refill ------------------------------------------------ */

/*
 * The shim's buffer is one 16 KiB mapping less its 8-byte header (lib/shim.h);
 * each refill is one pread() of that many bytes, after an fstat() and an
 * ARC4_IOC_GET_INFO that check its descriptor is still its /dev/arc4.
 */
enum { SHIM_REFILL = 16384 - 8 };

static const size_t refill_sizes[] = { 1024, 2048, 4096, 8192, SHIM_REFILL };

#define NREFILL_SIZES (sizeof(refill_sizes) / sizeof(refill_sizes[0]))

enum refill_op { OP_PREAD, OP_FSTAT, OP_GET_INFO };

/* ns per call of op on fd (pread of len bytes), median over the repeats. */
static void refill_part(const char *impl, const char *func, enum refill_op op,
			int fd, uint8_t *buf, size_t len)
{
	long n = (long)((len >= 1024 ? 200 : 2000) * scale);
	double v[MAX_REPEATS];
	struct arc4_info info;
	struct stat st;

	if (n < 1)
		n = 1;
	for (int r = -1; r < repeats; r++) {	/* r == -1: warm up */
		uint64_t t0 = now_ns();

		for (long i = 0; i < n; i++) {
			long rc;

			switch (op) {
			case OP_PREAD:
				rc = pread(fd, buf, len, 0) == (ssize_t)len ? 0 : -1;
				break;
			case OP_FSTAT:	/* as the shim: the system call itself */
				rc = syscall(SYS_fstat, fd, &st);
				break;
			default:
				rc = ioctl(fd, ARC4_IOC_GET_INFO, &info);
				break;
			}
			if (rc != 0)
				die(func);
		}
		if (r >= 0)
			v[r] = (double)(now_ns() - t0) / n;
	}
	record("refill", impl, func, "strong", len, v, repeats, "ns");
}

static void refill(const char *dir)
{
	char path[4096];
	uint8_t *buf = malloc(SHIM_REFILL);
	struct statfs fs;
	int fd, file;

	if (!buf)
		die("malloc");
	fd = source_open(ARC4_STRONG);
	if (fd < 0)
		die("/dev/arc4");
	snprintf(path, sizeof(path), "%s/devbench.XXXXXX", dir);
	file = mkstemp(path);
	if (file < 0)
		die(path);
	unlink(path);
	if (fstatfs(file, &fs) == 0 && fs.f_type != TMPFS_MAGIC)
		fprintf(stderr, "devbench: %s is not a tmpfs; its reads are "
			"more than a copy\n", dir);
	memset(buf, 0x5a, SHIM_REFILL);
	if (pwrite(file, buf, SHIM_REFILL, 0) != SHIM_REFILL)
		die("pwrite");

	for (size_t i = 0; i < NREFILL_SIZES; i++)
		refill_part("arc4", "pread", OP_PREAD, fd, buf, refill_sizes[i]);
	for (size_t i = 0; i < NREFILL_SIZES; i++)
		refill_part("tmpfs", "pread", OP_PREAD, file, buf,
			    refill_sizes[i]);
	refill_part("arc4", "pread", OP_PREAD, fd, buf, 0);
	refill_part("arc4", "fstat", OP_FSTAT, fd, buf, 0);
	refill_part("arc4", "get_info", OP_GET_INFO, fd, buf, 0);
	close(file);
	close(fd);
	free(buf);
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "r:s:")) != -1) {
		switch (opt) {
		case 'r':
			repeats = atoi(optarg);
			break;
		case 's':
			scale = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (repeats < 1 || repeats > MAX_REPEATS || optind >= argc)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[optind], "throughput") == 0)
		throughput();
	else if (strcmp(argv[optind], "openclose") == 0)
		openclose();
	else if (strcmp(argv[optind], "memory") == 0)
		memory(optind + 1 < argc ? atol(argv[optind + 1]) : 10000);
	else if (strcmp(argv[optind], "refill") == 0)
		refill(optind + 1 < argc ? argv[optind + 1] : "/tmp");
	else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: devbench [-r REPEATS] [-s SCALE] "
		"throughput | openclose | memory [N] | refill [DIR]\n");
	return 2;
}
