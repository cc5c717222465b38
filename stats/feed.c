// SPDX-License-Identifier: GPL-2.0
/*
 * feed: the byte streams `make stats` gives dieharder (scripts/stats).
 *
 *   feed [-o PATH] [-l BYTES] [-p FILE] SOURCE
 *
 * SOURCE is one of
 *   strong          read()s of a fresh /dev/arc4 (strong mode)
 *   det [-k KEY] [-n NONCE]
 *                   read()s of /dev/arc4 after ARC4_IOC_SEED, from
 *                   position 0; KEY is 64 hex digits (default 00 01 ..
 *                   1f), NONCE a number (default 0x7374617473, "stats")
 *   rand            rand() of the shim (this program is linked with
 *                   -larc4), 31 bits per value, packed (below)
 *   file PATH       another file or device (the /dev/urandom control)
 *   unix PATH       relay: what arrives on the Unix socket PATH (QEMU's
 *                   end of the VM's virtio-serial port), retrying the
 *                   connection for up to a minute, through a 256 MiB
 *                   buffer (relay() says why)
 *
 * Bytes go to stdout, or to PATH (-o), until BYTES (-l) are written,
 * the reader goes away or the source ends.  The reader going away is the
 * normal end: EPIPE on a pipe, or POLLHUP on a virtio-serial port whose
 * host side closed (a blocking write there would wait for ever, so the
 * output is non-blocking and polled).  -p FILE keeps the running byte
 * count in FILE, rewritten every MiB, for progress reports.  The
 * count goes to stderr at the end.
 *
 * rand() returns 31 random bits, 0..RAND_MAX.  Fed as 32-bit words, the
 * top bit would always be 0 and dieharder would fail it for that alone,
 * so the values are concatenated as a bit stream instead: bits 0..30 of
 * each value, least significant first, cut into 32-bit little-endian
 * words (32 values make 31 words).  Every bit rand() gives is tested once
 * and nothing else is.  A value outside 0..RAND_MAX stops the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <linux/arc4.h>

enum {
	CHUNK = 1 << 16,		/* bytes per write */
	PROGRESS = 1 << 20,		/* -p file update interval */
	CONNECT_TRIES = 600,		/* 100 ms apart */
	RELAY_BUF = 256 << 20,		/* relay() buffer */
	RELAY_READ = 1 << 20,		/* bytes per relay() read */
};

static const char *prog = "feed";

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-o PATH] [-l BYTES] [-p FILE] SOURCE\n"
		"  SOURCE: strong | det [-k KEY] [-n NONCE] | rand | file PATH |"
		" unix PATH\n",
		prog);
}

static unsigned long long number(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s) {
		fprintf(stderr, "%s: bad %s '%s'\n", prog, what, s);
		exit(2);
	}
	return v;
}

/* ---- sources: fill buf with len bytes, return how many (0 at the end) -- */

static int src_fd = -1;

static size_t fill_read(uint8_t *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(src_fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read");
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

static void open_source(const char *path)
{
	src_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src_fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
}

static int hexkey(const char *s, uint8_t key[ARC4_KEY_SIZE])
{
	int i;

	if (strlen(s) != 2 * ARC4_KEY_SIZE)
		return -1;
	for (i = 0; i < ARC4_KEY_SIZE; i++)
		if (sscanf(s + 2 * i, "%2hhx", &key[i]) != 1)
			return -1;
	return 0;
}

static void seed_source(int argc, char **argv)
{
	struct arc4_seed seed = { .nonce = 0x7374617473ull };
	int c, i;

	for (i = 0; i < ARC4_KEY_SIZE; i++)
		seed.key[i] = i;
	optind = 1;
	while ((c = getopt(argc, argv, "+k:n:")) != -1) {
		switch (c) {
		case 'k':
			if (hexkey(optarg, seed.key)) {
				fprintf(stderr, "%s: KEY must be 64 hex digits\n",
					prog);
				exit(2);
			}
			break;
		case 'n':
			seed.nonce = number(optarg, "nonce");
			break;
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	open_source("/dev/arc4");
	if (ioctl(src_fd, ARC4_IOC_SEED, &seed))
		die("ARC4_IOC_SEED");
}

/*
 * The shim must serve rand() from the device, not from its getrandom()
 * fallback: after the first value one of our descriptors must be
 * /dev/arc4.
 */
static void check_shim_uses_device(void)
{
	char path[64], target[64];
	ssize_t n;
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (!strcmp(target, "/dev/arc4"))
			return;
	}
	fprintf(stderr, "%s: rand: the shim did not open /dev/arc4\n", prog);
	exit(1);
}

_Static_assert(RAND_MAX == 0x7fffffff, "rand() gives 31 bits");

static uint64_t rand_acc;	/* pending bits, least significant first */
static unsigned int rand_bits;	/* how many */

static size_t fill_rand(uint8_t *buf, size_t len)
{
	static int checked;
	uint32_t w;
	size_t got;
	int v;

	for (got = 0; got + 4 <= len; got += 4) {
		while (rand_bits < 32) {
			v = rand();
			if (v < 0) {
				fprintf(stderr, "%s: rand() gave %d\n", prog, v);
				exit(1);
			}
			rand_acc |= (uint64_t)v << rand_bits;
			rand_bits += 31;
		}
		w = (uint32_t)rand_acc;
		rand_acc >>= 32;
		rand_bits -= 32;
		buf[got] = w;
		buf[got + 1] = w >> 8;
		buf[got + 2] = w >> 16;
		buf[got + 3] = w >> 24;
	}
	if (!checked) {
		check_shim_uses_device();
		checked = 1;
	}
	return got;
}

static void unix_source(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int i;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "%s: socket path too long: %s\n", prog, path);
		exit(2);
	}
	strcpy(sa.sun_path, path);
	src_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (src_fd < 0)
		die("socket");
	for (i = 0; connect(src_fd, (struct sockaddr *)&sa, sizeof(sa)); i++) {
		if (i == CONNECT_TRIES || (errno != ENOENT && errno != ECONNREFUSED))
			die(path);
		usleep(100000);
	}
}

/* ---- output --------------------------------------------------------- */

static int out_fd = 1;
static int out_started;		/* something went through */

/* Write all of buf; 0 when the reader has gone away. */
static int put(const uint8_t *buf, size_t len)
{
	struct pollfd p = { .fd = out_fd, .events = POLLOUT };
	int waited = 0;
	ssize_t n;

	while (len) {
		n = write(out_fd, buf, len);
		if (n > 0) {
			buf += n;
			len -= n;
			out_started = 1;
			continue;
		}
		if (n < 0 && errno == EPIPE)
			return 0;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			die("write");
		if (n < 0 && errno == EINTR)
			continue;
		if (poll(&p, 1, 1000) < 0 && errno != EINTR)
			die("poll");
		/*
		 * A virtio-serial port reports POLLHUP until the host side
		 * connects, and again once it closed: the end only after
		 * something went through, or after a minute of waiting.
		 */
		if ((p.revents & (POLLHUP | POLLERR)) && !(p.revents & POLLOUT)) {
			if (out_started || ++waited > 60)
				return 0;
			sleep(1);
		}
	}
	return 1;
}

static void progress(const char *file, uint64_t count)
{
	char line[32];
	int fd, n;

	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die(file);
	n = snprintf(line, sizeof(line), "%20" PRIu64 "\n", count);
	if (pwrite(fd, line, n, 0) != n)
		die(file);
	close(fd);
}

/* ---- relay: the VM's stream through a large buffer -------------------- */

/*
 * dieharder reads in bursts: a test that computes for a minute reads
 * nothing meanwhile, and a VM writing straight into it would wait as long.
 * Buffered, the VM keeps producing while dieharder computes, and the next
 * test reads from memory; a run then takes about as long as the slower of
 * the two, not their sum.  Returns the bytes written.
 */
static uint64_t relay(uint64_t limit, const char *pfile)
{
	uint64_t count = 0, next = PROGRESS;
	size_t head = 0, fill = 0, tail, len;
	struct pollfd p[2];
	int eof = 0;
	uint8_t *buf;
	ssize_t n;

	buf = malloc(RELAY_BUF);
	if (!buf)
		die("malloc");
	/* A blocking write to a pipe waits until all of it fits. */
	if (fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK))
		die("fcntl");
	while (count < limit && !(eof && !fill)) {
		p[0] = (struct pollfd){ .fd = src_fd,
					.events = !eof && fill < RELAY_BUF ? POLLIN : 0 };
		p[1] = (struct pollfd){ .fd = out_fd, .events = fill ? POLLOUT : 0 };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (p[0].revents) {
			tail = (head + fill) % RELAY_BUF;
			len = tail >= head ? RELAY_BUF - tail : head - tail;
			n = read(src_fd, buf + tail, MIN(len, (size_t)RELAY_READ));
			if (n == 0)
				eof = 1;
			else if (n > 0)
				fill += n;
			else if (errno != EINTR && errno != EAGAIN)
				die("read");
		}
		if (p[1].revents) {
			len = MIN(fill, RELAY_BUF - head);
			len = MIN((uint64_t)len, limit - count);
			n = write(out_fd, buf + head, len);
			if (n < 0 && errno == EPIPE)
				break;
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				die("write");
			if (n > 0) {
				head = (head + n) % RELAY_BUF;
				fill -= n;
				count += n;
			}
			if (pfile && count >= next) {
				progress(pfile, count);
				next = count + PROGRESS;
			}
		}
	}
	free(buf);
	return count;
}

/* Everything but the relay: fill a chunk, write it, until the end. */
static uint64_t copy(size_t (*fill)(uint8_t *, size_t), uint64_t limit,
		     const char *pfile)
{
	static uint8_t buf[CHUNK];
	uint64_t count = 0, next = PROGRESS;
	size_t len;

	while (count < limit) {
		len = fill(buf, MIN((uint64_t)CHUNK, limit - count));
		if (!len || !put(buf, len))
			break;
		count += len;
		if (pfile && count >= next) {
			progress(pfile, count);
			next = count + PROGRESS;
		}
	}
	return count;
}

int main(int argc, char **argv)
{
	unsigned long long limit = ULLONG_MAX;
	const char *out = NULL, *pfile = NULL, *mode;
	size_t (*fill)(uint8_t *, size_t) = fill_read;
	int c, relaying = 0;
	struct timespec t0, t1;
	uint64_t count;

	while ((c = getopt(argc, argv, "+o:l:p:h")) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'l':
			limit = number(optarg, "length");
			break;
		case 'p':
			pfile = optarg;
			break;
		default:
			usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	mode = argv[optind];
	argc -= optind;
	argv += optind;

	if (!strcmp(mode, "strong") && argc == 1) {
		open_source("/dev/arc4");
	} else if (!strcmp(mode, "det")) {
		seed_source(argc, argv);
	} else if (!strcmp(mode, "rand") && argc == 1) {
		fill = fill_rand;
	} else if (!strcmp(mode, "file") && argc == 2) {
		open_source(argv[1]);
	} else if (!strcmp(mode, "unix") && argc == 2) {
		unix_source(argv[1]);
		relaying = 1;
	} else {
		usage(stderr);
		return 2;
	}

	signal(SIGPIPE, SIG_IGN);
	if (out) {
		out_fd = open(out, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (out_fd < 0)
			die(out);
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	count = relaying ? relay(limit, pfile) : copy(fill, limit, pfile);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (pfile)
		progress(pfile, count);
	fprintf(stderr, "%s: %s: %" PRIu64 " bytes (%.1f MiB) in %.0f s\n", prog,
		mode, count, count / 1048576.0,
		(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
