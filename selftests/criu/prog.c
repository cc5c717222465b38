// SPDX-License-Identifier: GPL-2.0
/*
 * The process criu.sh checkpoints: linked against libc alone, so that it
 * is the plain-glibc control as it is and a shim process under
 * LD_PRELOAD=libarc4.so.
 *
 *   prog [--plain] DIR            set up, write DIR/ready, wait for DIR/go
 *                                 (which names the output), then draw
 *                                 and write it
 *   prog [--plain] --straight OUT set up and draw at once
 *
 * --plain leaves /dev/arc4 alone (the control), so the output has no
 * "fd" and "seeded" lines and "gen" is 0.
 *
 * Set-up: a strong /dev/arc4 descriptor with the generation page mapped
 * from it, a descriptor seeded with KEY and NONCE read 100 bytes into its
 * stream, and (where the shim provides srand_deterministic()) the rand()
 * sequence of seed 12345 drawn 10 values in; then arc4random() and
 * random() draw, so the shim's buffers hold values.  The output, one
 * value a line: "gen" the generation after the wait, 32 "strong"
 * arc4random_buf() u64s, 32 "random" values, 4 "fd" u64s read from the
 * strong descriptor, 16 "det" rand() values and 128 "seeded" bytes read()
 * from the seeded descriptor (at offsets 100 to 227) in hex.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/arc4.h>

#define KEY_BYTE(i)	((uint8_t)(0x11 * (i) + 3))
#define NONCE		0x0123456789abcdefULL

static int strong_fd = -1, seeded_fd = -1;
static const struct arc4_generation gen_none;
static const volatile struct arc4_generation *gen = &gen_none;
static void (*srand_det)(unsigned int);

static void die(const char *what)
{
	fprintf(stderr, "prog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void read_all(int fd, void *buf, size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		die("read /dev/arc4");
}

static void setup_device(void)
{
	struct arc4_seed seed = { .nonce = NONCE };
	uint8_t skip[100];
	unsigned int i;
	void *p;

	strong_fd = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	seeded_fd = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	if (strong_fd < 0 || seeded_fd < 0)
		die("open /dev/arc4");
	p = mmap(NULL, sizeof(*gen), PROT_READ, MAP_SHARED, strong_fd, 0);
	if (p == MAP_FAILED)
		die("mmap /dev/arc4");
	gen = p;
	for (i = 0; i < sizeof(seed.key); i++)
		seed.key[i] = KEY_BYTE(i);
	if (ioctl(seeded_fd, ARC4_IOC_SEED, &seed))
		die("ARC4_IOC_SEED");
	read_all(seeded_fd, skip, sizeof(skip));
}

static void setup(int plain)
{
	unsigned int i;

	if (!plain)
		setup_device();
	srand_det = (void (*)(unsigned int))dlsym(RTLD_DEFAULT,
						  "srand_deterministic");
	if (srand_det) {
		srand_det(12345);
		for (i = 0; i < 10; i++)
			rand();
	}
	for (i = 0; i < 10; i++) {
		arc4random();
		random();
	}
}

static void draw(FILE *out)
{
	uint64_t v[4];
	uint8_t b[128];
	unsigned int i;

	fprintf(out, "gen %" PRIu64 "\n", (uint64_t)gen->generation);
	for (i = 0; i < 32; i++) {
		arc4random_buf(v, sizeof(v[0]));
		fprintf(out, "strong %016" PRIx64 "\n", v[0]);
	}
	for (i = 0; i < 32; i++)
		fprintf(out, "random %ld\n", random());
	for (i = 0; srand_det && i < 16; i++)
		fprintf(out, "det %d\n", rand());
	if (strong_fd < 0)
		return;
	read_all(strong_fd, v, sizeof(v));
	for (i = 0; i < 4; i++)
		fprintf(out, "fd %016" PRIx64 "\n", v[i]);
	read_all(seeded_fd, b, sizeof(b));
	fprintf(out, "seeded ");
	for (i = 0; i < sizeof(b); i++)
		fprintf(out, "%02x", b[i]);
	fprintf(out, "\n");
}

static void write_out(const char *path)
{
	FILE *out = fopen(path, "we");

	if (!out)
		die(path);
	draw(out);
	if (fclose(out))
		die(path);
}

/* The dump happens during one of the sleeps. */
static void wait_for_go(const char *dir, char *name, size_t size)
{
	const struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/ready", dir);
	f = fopen(path, "we");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		die(path);
	snprintf(path, sizeof(path), "%s/go", dir);
	while (!(f = fopen(path, "re")))
		nanosleep(&tick, NULL);
	if (!fgets(name, size, f))
		die(path);
	fclose(f);
	unlink(path);
	name[strcspn(name, "\n")] = '\0';
}

int main(int argc, char **argv)
{
	char name[256], path[4096];
	int plain = argc > 1 && !strcmp(argv[1], "--plain");

	argv += plain;
	argc -= plain;
	if (argc == 3 && !strcmp(argv[1], "--straight")) {
		setup(plain);
		write_out(argv[2]);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: prog [--plain] DIR | "
				"prog [--plain] --straight OUT\n");
		return 2;
	}
	setup(plain);
	wait_for_go(argv[1], name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", argv[1], name);
	write_out(path);
	return 0;
}
