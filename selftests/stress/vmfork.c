// SPDX-License-Identifier: GPL-2.0
/*
 * VM fork: when the hypervisor changes the VM generation ID, every open
 * strong stream takes a new key from the kernel RNG before its next output
 * (GET_INFO's reseed count goes up by exactly one), and deterministic
 * streams go on as they were.  When the ID stays the same, nothing rekeys
 * and a restored snapshot replays the very bytes it would have produced:
 * the danger the generation ID exists to flag.  The generation page moves
 * on a new ID and only then.  Two processes using the shim, one static
 * (libarc4.a, this program forked before it draws) and one dynamically
 * linked (vmfork-shim, -larc4), with their strong buffers full hand out
 * other values after a new ID than the unforked copy does, and the same
 * after the same ID.  Last, the module is unloaded and the VM forked once
 * more: nothing of it may be called, and a shim process without it gets
 * new values where the libc's getrandom() is VM-fork safe (glibc 2.41 and
 * later); under an older libc its buffer repeats, as its documentation
 * says, and the test reports that.
 *
 * Run by scripts/vmfork-test, which boots a VM with QEMU's vmgenid device
 * and talks to this program over its standard input and output (a serial
 * port):
 *
 *   "# vmfork: ready same|new"   the streams are open and checked; the
 *                                program waits for one line
 *   the host saves the VM (migrates it to a file), restores the file into
 *   a new QEMU with the same GUID, reads what that copy prints (below) and
 *   discards it, then restores the file again with the same or a new GUID
 *   as asked and answers that copy with
 *   "go same|new HEX"            HEX: the first 8 bytes of every strong
 *                                stream's next read in the discarded copy,
 *                                the continuation without a rekey ("-": none)
 *   "# vmfork: after same|new HEX"  this copy's own next bytes, printed
 *                                once the ACPI notification has arrived
 *
 * Linked statically: the VM has no root filesystem but its initramfs.
 * Without a vmgenid device the tests fail: the VM was made to have one.
 * ARC4_VMFORK_STREAMS (default 64), ARC4_VMFORK_ROUNDS (default 2).
 */
#include <dirent.h>
#include <gnu/libc-version.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "shim_child.h"
#include "stress.h"

/* RFC 8439 A.1, test vectors 1 and 2: zero key and nonce, blocks 0 and 1. */
static const uint8_t rfc_a1[128] = {
	0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5,
	0x53, 0x86, 0xbd, 0x28, 0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d, 0xed, 0x1a,
	0xa8, 0x36, 0xef, 0xcc, 0x8b, 0x77, 0x0d, 0xc7, 0xda, 0x41, 0x59, 0x7c,
	0x51, 0x57, 0x48, 0x8d, 0x77, 0x24, 0xe0, 0x3f, 0xb8, 0xd8, 0x4a, 0x37,
	0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1, 0x1c, 0xc3, 0x87, 0xb6, 0x69,
	0xb2, 0xee, 0x65, 0x86,
	0x9f, 0x07, 0xe7, 0xbe, 0x55, 0x51, 0x38, 0x7a, 0x98, 0xba, 0x97, 0x7c,
	0x73, 0x2d, 0x08, 0x0d, 0xcb, 0x0f, 0x29, 0xa0, 0x48, 0xe3, 0x65, 0x69,
	0x12, 0xc6, 0x53, 0x3e, 0x32, 0xee, 0x7a, 0xed, 0x29, 0xb7, 0x21, 0x76,
	0x9c, 0xe6, 0x4e, 0x43, 0xd5, 0x71, 0x33, 0xb0, 0x74, 0xd8, 0x39, 0xd5,
	0x31, 0xed, 0x1f, 0x28, 0x51, 0x0a, 0xfb, 0x45, 0xac, 0xe1, 0x0a, 0x1f,
	0x4b, 0x79, 0x4d, 0x6f,
};

static const uint8_t zero_key[32];

enum {
	PEEK = 8,		/* bytes per stream exchanged with the host */
	DET_BEFORE = 100,	/* deterministic bytes read before the fork, */
	DET_AFTER = 93,		/* and after: neither a whole block */
	LINE_MAX_LEN = 4096,	/* the guest tty's input buffer */
	SHIMS = 2,		/* shim processes: static, dynamic */
};

#define VMFORK_SHIM "/vmfork-shim"

/* QEMU's vmgenid raises GPE 5 (_GPE._E05) whenever it writes the GUID. */
#define VMGENID_GPE "/sys/firmware/acpi/interrupts/gpe05"
#define FORK_MSG "crng reseeded due to virtual machine fork"

/*
 * Is a VM generation counter bound to Linux's vmgenid driver?  It is an
 * ACPI driver in 6.1 and a platform driver in 6.12 and later ("virt:
 * vmgenid: change implementation to use a platform driver"); its devices
 * are named after the ACPI id on either bus ("QEMUVGID:00").
 */
static int have_vmgenid(void)
{
	static const char *const dirs[] = {
		"/sys/bus/acpi/drivers/vmgenid",
		"/sys/bus/platform/drivers/vmgenid",
	};
	struct dirent *e;
	int found = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);

		if (!d)
			continue;
		while ((e = readdir(d)))
			if (strchr(e->d_name, ':'))
				found = 1;
		closedir(d);
	}
	return found;
}

static uint64_t reseeds(int fd)
{
	struct arc4_info info;

	return arc4_info(fd, &info) ? UINT64_MAX : info.reseeds;
}

/* How many times random.c has logged a VM fork, from /dev/kmsg. */
static long kmsg_forks(void)
{
	char rec[2048];
	long n = 0;
	ssize_t len;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* a record was overwritten */
		if (len <= 0)
			break;
		rec[len] = 0;
		if (strstr(rec, FORK_MSG))
			n++;
	}
	close(fd);
	return n;
}

/* One line from the host, without its newline; false on EOF or timeout. */
static bool host_line(char *buf, size_t size, int timeout_ms)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	size_t len = 0;
	char c;

	while (len + 1 < size) {
		if (poll(&p, 1, timeout_ms) != 1 || read(STDIN_FILENO, &c, 1) != 1)
			return false;
		if (c == '\n')
			break;
		if (c != '\r')
			buf[len++] = c;
	}
	buf[len] = 0;
	return true;
}

static void hex(char *out, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* len bytes from the 2 * len hex digits at h (the caller checks lengths). */
static bool unhex(uint8_t *out, const char *h, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (sscanf(h + 2 * i, "%2hhx", &out[i]) != 1)
			return false;
	return true;
}

static bool shims_start(struct shim_child *c)
{
	int i;

	for (i = 0; i < SHIMS; i++)
		if (!shim_child_start(&c[i], i == 1 ? VMFORK_SHIM : NULL))
			return false;
	return true;
}

static bool shims_next(struct shim_child *c, uint8_t *out)
{
	bool ok = true;
	int i;

	for (i = 0; i < SHIMS; i++)
		ok &= shim_child_next(&c[i], out + i * SHIM_BYTES);
	return ok;
}

/* How many of the shim processes' values are the unforked copy's. */
static int shim_same(const uint8_t *a, const uint8_t *b)
{
	int i, same = 0;

	for (i = 0; i < SHIMS * SHIM_VALUES; i++)
		same += !memcmp(a + 4 * i, b + 4 * i, 4);
	return same;
}

/* The generation page's counter, from a mapping made before the fork. */
static uint64_t generation(const struct arc4_generation *g)
{
	return __atomic_load_n(&g->generation, __ATOMIC_RELAXED);
}

FIXTURE(vmfork) {
	int *fds, n, probe, det, rfc;
	long saved_seconds;
	uint8_t key[32];
	uint64_t nonce, det_pos;
};

FIXTURE_SETUP(vmfork)
{
	int i;

	self->n = 0;
	self->probe = self->det = self->rfc = -1;
	self->saved_seconds = -1;
	/*
	 * scripts/vmfork-test always gives the VM a vmgenid device: without
	 * one bound, nothing here would be tested, so that is a failure.
	 */
	ASSERT_TRUE(have_vmgenid())
		TH_LOG("no vmgenid device bound (acpi or platform bus); run by scripts/vmfork-test");
	/* Keep the time budget from rekeying anything while the test runs. */
	self->saved_seconds = read_long_file(ARC4_PARAM("rekey_seconds"));
	ASSERT_EQ(0, write_long_file(ARC4_PARAM("rekey_seconds"), 3600))
		TH_LOG("cannot set rekey_seconds (root?)");
	self->n = stress_knob("ARC4_VMFORK_STREAMS", 64);
	ASSERT_LT(0, self->n);
	ASSERT_GE(LINE_MAX_LEN - 64, 2 * PEEK * self->n)
		TH_LOG("too many streams for one line of the host's answer");
	self->fds = malloc(self->n * sizeof(int));
	ASSERT_NE(NULL, self->fds);
	for (i = 0; i < self->n; i++)
		self->fds[i] = -1;
	for (i = 0; i < self->n; i++) {
		self->fds[i] = arc4_open(0);
		ASSERT_LE(0, self->fds[i]);
	}
	self->probe = arc4_open(0);
	self->det = arc4_open(0);
	self->rfc = arc4_open(0);
	ASSERT_LE(0, self->probe);
	ASSERT_LE(0, self->det);
	ASSERT_LE(0, self->rfc);
	random_fill(self->key, sizeof(self->key));
	self->nonce = random_u64();
	self->det_pos = 0;
	ASSERT_EQ(0, arc4_seed(self->det, self->key, self->nonce));
	ASSERT_EQ(0, arc4_seed(self->rfc, zero_key, 0));
}

FIXTURE_TEARDOWN(vmfork)
{
	int i;

	for (i = 0; self->fds && i < self->n; i++)
		if (self->fds[i] >= 0)
			close(self->fds[i]);
	free(self->fds);
	if (self->probe >= 0)
		close(self->probe);
	if (self->det >= 0)
		close(self->det);
	if (self->rfc >= 0)
		close(self->rfc);
	if (self->saved_seconds > 0)
		write_long_file(ARC4_PARAM("rekey_seconds"),
				self->saved_seconds);
}

/*
 * One save and restore, asked for with @want_new: check what holds before,
 * hand over to the host, then check that the copy we are in rekeyed every
 * strong stream once (a new generation ID) or nothing at all (the same ID),
 * and that the deterministic streams did not notice.
 */
static void vmfork_round(struct __test_metadata *_metadata,
			 FIXTURE_DATA(vmfork) *self, bool want_new, int round)
{
	uint64_t *before = calloc(self->n, sizeof(uint64_t)), p0;
	uint8_t *next = calloc(self->n, PEEK), *cont = calloc(self->n, PEEK);
	uint8_t b[16], det[DET_BEFORE + DET_AFTER], want[sizeof(det)], rfc[64];
	uint8_t shim[SHIMS * SHIM_BYTES], shim_cont[SHIMS * SHIM_BYTES];
	char *line = malloc(LINE_MAX_LEN);
	char *out = malloc(2 * (PEEK * self->n + sizeof(shim)) + 1);
	const struct arc4_generation *g;
	struct shim_child child[SHIMS];
	uint64_t gen0;
	const char *mode = want_new ? "new" : "same", *h;
	long gpe0, kmsg0, fork_ms = -1;
	struct arc4_info info;
	bool is_new, have_cont;
	double t0, t1;
	int i, fresh, differ = 0, rekeyed = 0, bad = 0;
	uint64_t lo = UINT64_MAX, hi = 0, before_lo = UINT64_MAX, before_hi = 0;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, next);
	ASSERT_NE(NULL, cont);
	ASSERT_NE(NULL, line);
	ASSERT_NE(NULL, out);

	/* Before: reads rekey nothing without a fork. */
	for (i = 0; i < self->n; i++) {
		ASSERT_EQ(16, read(self->fds[i], b, 16));
		before[i] = reseeds(self->fds[i]);
		before_lo = before[i] < before_lo ? before[i] : before_lo;
		before_hi = before[i] > before_hi ? before[i] : before_hi;
	}
	for (i = 0; i < self->n; i++) {
		ASSERT_EQ(16, read(self->fds[i], b, 16));
		ASSERT_EQ(before[i], reseeds(self->fds[i]))
			TH_LOG("stream %d rekeyed without a VM fork", i);
	}
	ASSERT_EQ(16, read(self->probe, b, 16));
	p0 = reseeds(self->probe);
	ASSERT_EQ(DET_BEFORE, read_full(self->det, det, DET_BEFORE));
	ASSERT_EQ(0, lseek(self->rfc, 0, SEEK_SET));
	ASSERT_EQ(64, read_full(self->rfc, rfc, 64));
	ASSERT_EQ(-1, first_diff(rfc, rfc_a1, 64));
	g = mmap(NULL, sizeof(*g), PROT_READ, MAP_SHARED, self->probe, 0);
	ASSERT_NE(MAP_FAILED, g) TH_LOG("the generation page: %s",
					strerror(errno));
	gen0 = generation(g);
	ASSERT_TRUE(shims_start(child));
	gpe0 = read_long_file(VMGENID_GPE);
	kmsg0 = kmsg_forks();
	ASSERT_LE(0, gpe0);
	ASSERT_LE(0, kmsg0);

	printf("# vmfork: ready %s\n", mode);
	fflush(stdout);
	ASSERT_TRUE(host_line(line, LINE_MAX_LEN, 600 * 1000))
		TH_LOG("no answer from the host (run by scripts/vmfork-test)");

	/* We run in a restored copy now. */
	is_new = !strncmp(line, "go new ", 7);
	ASSERT_TRUE(is_new || !strncmp(line, "go same ", 8))
		TH_LOG("host said \"%s\"", line);
	h = line + (is_new ? 7 : 8);
	have_cont = strcmp(h, "-") != 0;
	if (have_cont) {
		ASSERT_EQ(2 * (PEEK * self->n + sizeof(shim)), strlen(h))
			TH_LOG("host's continuation has the wrong length");
		ASSERT_TRUE(unhex(cont, h, PEEK * self->n));
		ASSERT_TRUE(unhex(shim_cont, h + 2 * PEEK * self->n,
				  sizeof(shim)));
	}

	/* QEMU raised the ACPI event as it resumed the copy... */
	t0 = now_sec();
	while (read_long_file(VMGENID_GPE) == gpe0 && now_sec() - t0 < 30)
		usleep(10000);
	t1 = now_sec();
	/* ...and the vmgenid driver passes it on only for a new ID. */
	do {
		ASSERT_EQ(16, read(self->probe, b, 16));
		if (reseeds(self->probe) != p0) {
			fork_ms = (now_sec() - t1) * 1000;
			break;
		}
		usleep(10000);
	} while (now_sec() - t1 < (is_new ? 30 : 1));

	for (i = 0; i < self->n; i++)
		ASSERT_EQ(PEEK, read(self->fds[i], next + PEEK * i, PEEK));
	ASSERT_TRUE(shims_next(child, shim))
		TH_LOG("a shim process failed");
	hex(out, next, PEEK * self->n);
	hex(out + 2 * PEEK * self->n, shim, sizeof(shim));
	printf("# vmfork: after %s %s\n", is_new ? "new" : "same", out);
	fflush(stdout);

	ASSERT_EQ(want_new, is_new) TH_LOG("asked for a %s generation ID", mode);
	ASSERT_NE(gpe0, read_long_file(VMGENID_GPE))
		TH_LOG("no ACPI notification in 30 s");
	if (fork_ms >= 0)
		ksft_print_msg("vmfork: round %d (%s ID): ACPI event %.2f s after resume, probe rekeyed %ld ms later\n",
			       round, mode, t1 - t0, fork_ms);
	else
		ksft_print_msg("vmfork: round %d (%s ID): ACPI event %.2f s after resume, probe not rekeyed in %s\n",
			       round, mode, t1 - t0, is_new ? "30 s" : "1 s");
	EXPECT_EQ(kmsg0 + is_new, kmsg_forks())
		TH_LOG("kernel log lines \"" FORK_MSG "\"");
	EXPECT_EQ(p0 + is_new, reseeds(self->probe));
	for (i = 0; i < self->n; i++) {
		ASSERT_EQ(0, arc4_info(self->fds[i], &info));
		/* A rekey on this fork comes before our one read since. */
		if (info.mode != ARC4_MODE_STRONG ||
		    info.reseeds != before[i] + is_new ||
		    (is_new && info.bytes_since_reseed != PEEK)) {
			if (!bad++)
				TH_LOG("stream %d: mode %u, reseeds %llu (before %llu), %llu bytes since",
				       i, info.mode,
				       (unsigned long long)info.reseeds,
				       (unsigned long long)before[i],
				       (unsigned long long)info.bytes_since_reseed);
		}
		rekeyed += info.reseeds != before[i];
		lo = info.reseeds < lo ? info.reseeds : lo;
		hi = info.reseeds > hi ? info.reseeds : hi;
		if (have_cont &&
		    memcmp(next + PEEK * i, cont + PEEK * i, PEEK))
			differ++;
	}
	EXPECT_EQ(0, bad)
		TH_LOG("strong streams not rekeyed exactly %d time(s)", is_new);
	if (have_cont && is_new)
		EXPECT_EQ(self->n, differ)
			TH_LOG("streams continuing as without the fork");
	if (have_cont && !is_new)
		EXPECT_EQ(0, differ)
			TH_LOG("streams not replaying the snapshot");
	/* The shim's buffered values follow the generation page. */
	EXPECT_EQ(gen0 + is_new, generation(g))
		TH_LOG("generation %llu before, %llu after",
		       (unsigned long long)gen0,
		       (unsigned long long)generation(g));
	if (have_cont) {
		int same = shim_same(shim, shim_cont);

		EXPECT_EQ(is_new ? 0 : SHIMS * SHIM_VALUES, same)
			TH_LOG("%d of the shim processes' %d values were the unforked copy's",
			       same, SHIMS * SHIM_VALUES);
		ksft_print_msg("vmfork: round %d: the shim processes' (static, dynamic) next %d values: %d as in the unforked copy, generation %llu -> %llu\n",
			       round, SHIMS * SHIM_VALUES, same,
			       (unsigned long long)gen0,
			       (unsigned long long)generation(g));
	}
	munmap((void *)g, sizeof(*g));
	ksft_print_msg("vmfork: round %d: %d of %d strong streams rekeyed (reseeds %llu..%llu, before %llu..%llu), %d differ from the unforked copy\n",
		       round, rekeyed, self->n, (unsigned long long)lo,
		       (unsigned long long)hi, (unsigned long long)before_lo,
		       (unsigned long long)before_hi, have_cont ? differ : -1);

	/*
	 * Deterministic streams are the caller's: the one read across the
	 * fork equals a fresh one with its seed read in one go, and the
	 * zero-key stream goes on with RFC 8439's next block.
	 */
	ASSERT_EQ(DET_AFTER, read_full(self->det, det + DET_BEFORE, DET_AFTER));
	fresh = arc4_open(0);
	ASSERT_LE(0, fresh);
	ASSERT_EQ(0, arc4_seed(fresh, self->key, self->nonce));
	ASSERT_EQ(sizeof(want), pread(fresh, want, sizeof(want), self->det_pos));
	close(fresh);
	EXPECT_EQ(-1, first_diff(det, want, sizeof(det)));
	self->det_pos += sizeof(det);
	ASSERT_EQ(0, arc4_info(self->det, &info));
	EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
	EXPECT_EQ(self->det_pos, info.position);
	ASSERT_EQ(64, read_full(self->rfc, rfc, 64));
	EXPECT_EQ(-1, first_diff(rfc, rfc_a1 + 64, 64));

	free(out);
	free(line);
	free(cont);
	free(next);
	free(before);
}

TEST_F_TIMEOUT(vmfork, same_generation_id_rekeys_nothing, 900)
{
	vmfork_round(_metadata, self, false, 1);
}

TEST_F_TIMEOUT(vmfork, new_generation_id_rekeys_every_strong_stream_once, 900)
{
	int rounds = stress_knob("ARC4_VMFORK_ROUNDS", 2), r;

	for (r = 1; r <= rounds; r++)
		vmfork_round(_metadata, self, true, r);
}

/*
 * Last, as it unloads the module: rmmod leaves no notifier of arc4dev's
 * behind.  A VM fork after it would call into the freed module, an oops,
 * which panics this VM (oops=panic): the host sees no exit.  The host's
 * scratch copy gets an answer too ("-": no streams to continue).
 */
FIXTURE(unloaded) {};
FIXTURE_SETUP(unloaded) {}
FIXTURE_TEARDOWN(unloaded) {}

TEST_F_TIMEOUT(unloaded, a_fork_after_rmmod_calls_nothing_of_the_module, 900)
{
	uint8_t shim[SHIMS * SHIM_BYTES], shim_cont[SHIMS * SHIM_BYTES];
	char *line = malloc(LINE_MAX_LEN), out[2 * sizeof(shim) + 1];
	const char *v = gnu_get_libc_version(), *h;
	struct shim_child child[SHIMS];
	long gpe0, kmsg0;
	bool is_new, have_cont, vmsafe;
	double t0;
	int same;

	ASSERT_NE(NULL, line);
	ASSERT_TRUE(have_vmgenid());
	ASSERT_EQ(0, syscall(SYS_delete_module, "arc4dev", O_NONBLOCK))
		TH_LOG("rmmod arc4dev: %s", strerror(errno));
	ASSERT_EQ(-1, access("/dev/arc4", F_OK));
	vmsafe = strverscmp(v, "2.41") >= 0;
	ASSERT_TRUE(shims_start(child));
	gpe0 = read_long_file(VMGENID_GPE);
	kmsg0 = kmsg_forks();
	ASSERT_LE(0, gpe0);
	ASSERT_LE(0, kmsg0);

	printf("# vmfork: ready new\n");
	fflush(stdout);
	ASSERT_TRUE(host_line(line, LINE_MAX_LEN, 600 * 1000))
		TH_LOG("no answer from the host (run by scripts/vmfork-test)");
	is_new = !strncmp(line, "go new ", 7);
	ASSERT_TRUE(is_new || !strncmp(line, "go same ", 8))
		TH_LOG("host said \"%s\"", line);
	h = line + (is_new ? 7 : 8);
	have_cont = strcmp(h, "-") != 0;
	if (have_cont) {
		ASSERT_EQ(2 * sizeof(shim), strlen(h))
			TH_LOG("host's continuation: %s", h);
		ASSERT_TRUE(unhex(shim_cont, h, sizeof(shim)));
	}

	/* The fork is logged, then the notifiers are called: give them time. */
	t0 = now_sec();
	while (kmsg_forks() == kmsg0 && now_sec() - t0 < (is_new ? 30 : 1))
		usleep(10000);
	sleep(1);
	ASSERT_TRUE(shims_next(child, shim))
		TH_LOG("a shim process failed");
	hex(out, shim, sizeof(shim));
	printf("# vmfork: after %s %s\n", is_new ? "new" : "same", out);
	fflush(stdout);
	if (have_cont) {
		same = shim_same(shim, shim_cont);
		ksft_print_msg("vmfork: no module, glibc %s: the shim processes' next %d values: %d as in the unforked copy%s\n",
			       v, SHIMS * SHIM_VALUES, same,
			       vmsafe ? "" : " (its getrandom() buffer; glibc before 2.41 gives no VM-fork signal without the module)");
		if (vmsafe && is_new)
			EXPECT_EQ(0, same)
				TH_LOG("glibc %s's getrandom() is VM-fork safe: no value may repeat",
				       v);
	}
	EXPECT_EQ(kmsg0 + is_new, kmsg_forks())
		TH_LOG("kernel log lines \"" FORK_MSG "\"");
	EXPECT_NE(gpe0, read_long_file(VMGENID_GPE))
		TH_LOG("no ACPI notification");
	free(line);
}

TEST_HARNESS_MAIN
