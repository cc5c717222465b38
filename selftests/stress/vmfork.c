// SPDX-License-Identifier: GPL-2.0
/*
 * VM fork: when the hypervisor changes the VM generation ID, every open
 * strong stream takes a new key from the kernel RNG before its next output
 * (ARC4_INFO's reseed count goes up by exactly one), and deterministic
 * streams go on as they were.
 *
 * Run by scripts/vmfork-test, which boots the VM with QEMU's vmgenid device
 * and changes its GUID over QMP each time this program prints
 * "# vmfork: ready"; without the device the test is skipped.
 * ARC4_VMFORK_ROUNDS (default 3) and ARC4_VMFORK_STREAMS (default 64).
 */
#include <dirent.h>

#include "kselftest_harness.h"
#include "stress.h"

/* Is an ACPI VM generation counter bound to Linux's vmgenid driver? */
static int have_vmgenid(void)
{
	DIR *d = opendir("/sys/bus/acpi/drivers/vmgenid");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strchr(e->d_name, ':'))
			found = 1;
	closedir(d);
	return found;
}

static uint64_t reseeds(int fd)
{
	struct arc4_info info;

	return arc4_info(fd, &info) ? UINT64_MAX : info.reseeds;
}

FIXTURE(vmfork) {
	int *fds, n, det, probe;
	long saved_seconds;
	uint8_t key[32];
	uint64_t nonce;
};

FIXTURE_SETUP(vmfork)
{
	int i;

	self->n = 0;
	self->saved_seconds = -1;
	if (!have_vmgenid())
		SETUP_SKIP("no VM generation ID device (run by scripts/vmfork-test)");
	/* Keep the time budget out of the way for the test's length. */
	self->saved_seconds = read_long_file(ARC4_PARAM("rekey_seconds"));
	if (geteuid() == 0)
		write_long_file(ARC4_PARAM("rekey_seconds"), 3600);
	self->n = stress_knob("ARC4_VMFORK_STREAMS", 64);
	self->fds = calloc(self->n, sizeof(int));
	ASSERT_NE(NULL, self->fds);
	for (i = 0; i < self->n; i++) {
		self->fds[i] = arc4_open(0);
		ASSERT_LE(0, self->fds[i]);
	}
	self->probe = arc4_open(0);
	self->det = arc4_open(0);
	ASSERT_LE(0, self->probe);
	ASSERT_LE(0, self->det);
	random_fill(self->key, 32);
	self->nonce = random_u64();
	ASSERT_EQ(0, arc4_seed(self->det, self->key, self->nonce));
}

FIXTURE_TEARDOWN(vmfork)
{
	int i;

	for (i = 0; i < self->n; i++)
		close(self->fds[i]);
	if (self->saved_seconds > 0)
		write_long_file(ARC4_PARAM("rekey_seconds"),
				self->saved_seconds);
}

TEST_F_TIMEOUT(vmfork, generation_change_rekeys_every_strong_stream_once, 600)
{
	unsigned long rounds = stress_knob("ARC4_VMFORK_ROUNDS", 3), r;
	uint64_t *before = calloc(self->n, sizeof(uint64_t)), p0;
	uint8_t b[64], *want = malloc(64 * rounds);
	double t0;
	int i;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, want);
	ASSERT_EQ((ssize_t)(64 * rounds), pread(self->det, want, 64 * rounds, 0));
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < self->n; i++) {
			ASSERT_EQ(16, read(self->fds[i], b, 16));
			before[i] = reseeds(self->fds[i]);
		}
		/* Reading without a fork rekeys nothing. */
		for (i = 0; i < self->n; i++) {
			ASSERT_EQ(16, read(self->fds[i], b, 16));
			ASSERT_EQ(before[i], reseeds(self->fds[i]));
		}
		ASSERT_EQ(16, read(self->probe, b, 16));
		p0 = reseeds(self->probe);
		printf("# vmfork: ready %lu\n", r + 1);
		fflush(stdout);
		/* The probe rekeys once the kernel has heard of the fork. */
		t0 = now_sec();
		do {
			usleep(20000);
			ASSERT_EQ(16, read(self->probe, b, 16));
		} while (reseeds(self->probe) == p0 && now_sec() - t0 < 120);
		ASSERT_EQ(p0 + 1, reseeds(self->probe))
			TH_LOG("round %lu: no VM fork seen in %.0f s", r + 1,
			       now_sec() - t0);
		ksft_print_msg("vmfork: round %lu: fork seen %.2f s after ready\n",
			       r + 1, now_sec() - t0);
		for (i = 0; i < self->n; i++) {
			ASSERT_EQ(16, read(self->fds[i], b, 16));
			EXPECT_EQ(before[i] + 1, reseeds(self->fds[i]))
				TH_LOG("round %lu, stream %d", r + 1, i);
		}
		/*
		 * A deterministic stream is not the kernel's to change: it
		 * gives what it gave before any fork.
		 */
		ASSERT_EQ(64, pread(self->det, b, 64, r * 64));
		EXPECT_EQ(-1, first_diff(b, want + r * 64, 64));
	}
	ksft_print_msg("vmfork: %lu generation changes, each rekeyed all %d strong streams exactly once\n",
		       rounds, self->n);
	free(want);
	free(before);
}

TEST_HARNESS_MAIN
