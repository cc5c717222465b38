// SPDX-License-Identifier: GPL-2.0
/*
 * arc4ctl: look at /dev/arc4 from the shell.
 *
 *   arc4ctl read [-r] N                 N strong bytes from a fresh open
 *   arc4ctl stream -k KEY [-n NONCE] [-o OFFSET] [-l LENGTH] [-r]
 *                                       deterministic stream bytes, by pread
 *   arc4ctl info                        ARC4_IOC_GET_INFO of a fresh open
 *   arc4ctl preload on|off|status       the shim for every program (preload.c)
 *
 * Output is hex unless -r (raw bytes).  KEY is 64 hex digits; NONCE and
 * OFFSET take C notation (0x..).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/arc4.h>

#include "arc4ctl.h"

static const char *dev = "/dev/arc4";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: arc4ctl read [-r] N\n"
		"       arc4ctl stream -k KEY [-n NONCE] [-o OFFSET] [-l LENGTH] [-r]\n"
		"       arc4ctl info\n"
		"       arc4ctl preload on|off|status [options]\n"
		"\n"
		"  read    N strong bytes from a fresh open of %s\n"
		"  stream  LENGTH (default 64) bytes at OFFSET (default 0) of the\n"
		"          deterministic stream with KEY (64 hex digits) and NONCE\n"
		"  info    the GET_INFO answer for a fresh open\n"
		"  preload the shim for every program: arc4ctl preload --help\n"
		"  -r      raw bytes instead of hex\n"
		"ARC4_DEV in the environment names another device node.\n",
		dev);
}

static int open_dev(void)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "arc4ctl: %s: %s\n", dev, strerror(errno));
		exit(1);
	}
	return fd;
}

static void put(const unsigned char *buf, size_t len, int raw)
{
	size_t i;

	if (raw) {
		if (fwrite(buf, 1, len, stdout) != len)
			exit(1);
		return;
	}
	for (i = 0; i < len; i++)
		printf("%02x%s", buf[i], (i % 32 == 31 || i + 1 == len) ? "\n" : "");
}

static int hexkey(const char *s, unsigned char key[ARC4_KEY_SIZE])
{
	int i;

	if (strlen(s) != 2 * ARC4_KEY_SIZE)
		return -1;
	for (i = 0; i < ARC4_KEY_SIZE; i++)
		if (sscanf(s + 2 * i, "%2hhx", &key[i]) != 1)
			return -1;
	return 0;
}

static unsigned long long number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s) {
		fprintf(stderr, "arc4ctl: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static int cmd_read(int argc, char **argv)
{
	int raw = 0, c, fd;
	unsigned char *buf;
	size_t len;
	ssize_t n;

	while ((c = getopt(argc, argv, "rh")) != -1) {
		if (c == 'r') {
			raw = 1;
		} else {
			usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	len = number(argv[optind], "length");
	buf = malloc(len ? len : 1);
	if (!buf)
		return 1;
	fd = open_dev();
	n = read(fd, buf, len);
	if (n < 0) {
		perror("arc4ctl: read");
		return 1;
	}
	put(buf, n, raw);
	close(fd);
	free(buf);
	return 0;
}

static int cmd_stream(int argc, char **argv)
{
	struct arc4_seed seed = { .nonce = 0 };
	unsigned long long off = 0, len = 64;
	int raw = 0, have_key = 0, c, fd;
	unsigned char *buf;
	ssize_t n;

	while ((c = getopt(argc, argv, "k:n:o:l:rh")) != -1) {
		switch (c) {
		case 'k':
			if (hexkey(optarg, seed.key)) {
				fprintf(stderr, "arc4ctl: KEY must be 64 hex digits\n");
				return 2;
			}
			have_key = 1;
			break;
		case 'n':
			seed.nonce = number(optarg, "nonce");
			break;
		case 'o':
			off = number(optarg, "offset");
			break;
		case 'l':
			len = number(optarg, "length");
			break;
		case 'r':
			raw = 1;
			break;
		default:
			usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 2;
		}
	}
	if (!have_key || optind != argc) {
		usage(stderr);
		return 2;
	}
	buf = malloc(len ? len : 1);
	if (!buf)
		return 1;
	fd = open_dev();
	if (ioctl(fd, ARC4_IOC_SEED, &seed)) {
		perror("arc4ctl: ARC4_IOC_SEED");
		return 1;
	}
	n = pread(fd, buf, len, off);
	if (n < 0) {
		perror("arc4ctl: pread");
		return 1;
	}
	put(buf, n, raw);
	close(fd);
	free(buf);
	return 0;
}

static int cmd_info(void)
{
	struct arc4_info info;
	int fd = open_dev();

	if (ioctl(fd, ARC4_IOC_GET_INFO, &info)) {
		perror("arc4ctl: ARC4_IOC_GET_INFO");
		return 1;
	}
	printf("mode %s\nposition %" PRIu64 "\nbytes_since_reseed %" PRIu64
	       "\nreseeds %" PRIu64 "\n",
	       info.mode == ARC4_MODE_STRONG ? "strong" : "deterministic",
	       (uint64_t)info.position, (uint64_t)info.bytes_since_reseed,
	       (uint64_t)info.reseeds);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (getenv("ARC4_DEV"))
		dev = getenv("ARC4_DEV");
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "read"))
		return cmd_read(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stream"))
		return cmd_stream(argc - 1, argv + 1);
	if (!strcmp(argv[1], "preload"))
		return cmd_preload(argc - 1, argv + 1);
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	fprintf(stderr, "arc4ctl: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
