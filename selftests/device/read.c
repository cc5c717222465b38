// SPDX-License-Identifier: GPL-2.0
/*
 * read() and pread(): any size, huge reads, interruption by signals, and
 * bad destination buffers.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

FIXTURE(dev) {
	int fd;
	uint8_t key[32];
	uint64_t nonce;
};

FIXTURE_SETUP(dev)
{
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	random_fill(self->key, sizeof(self->key));
	self->nonce = random_u64();
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

static const size_t sizes[] = {
	0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 511, 512, 513, 4095, 4096, 4097,
	65535, 65536, 65537, (1 << 20) + 3,
};

TEST_F(dev, strong_reads_of_any_size_return_that_size)
{
	uint8_t *buf = malloc((1 << 20) + 16);
	unsigned int i;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 0, sizes[i] + 16);
		ASSERT_EQ((ssize_t)sizes[i], read(self->fd, buf, sizes[i]));
		/* Nothing written past the end. */
		EXPECT_EQ(0, buf[sizes[i]]);
		/* The tail got written: 16 zero bytes are 2^-128 likely. */
		if (sizes[i] >= 16) {
			static const uint8_t zero[16];

			EXPECT_NE(0, memcmp(buf + sizes[i] - 16, zero, 16))
				TH_LOG("size %zu: tail untouched", sizes[i]);
		}
	}
	free(buf);
}

TEST_F(dev, deterministic_reads_of_any_size_match_openssl)
{
	uint8_t *got = malloc(1 << 21), *want = malloc(1 << 21);
	uint64_t pos = 0;
	unsigned int i;

	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ASSERT_EQ((ssize_t)sizes[i], read(self->fd, got, sizes[i]));
		ASSERT_EQ(0, ref_keystream(self->key, self->nonce, pos, want,
					   sizes[i]));
		EXPECT_EQ(-1, first_diff(got, want, sizes[i]))
			TH_LOG("size %zu at %llu", sizes[i],
			       (unsigned long long)pos);
		pos += sizes[i];
	}
	EXPECT_EQ((off_t)pos, lseek(self->fd, 0, SEEK_CUR));
	free(got);
	free(want);
}

/* 192 MiB of ChaCha20 under TCG: the harness's 30 s is short on a busy host. */
TEST_F_TIMEOUT(dev, a_64_mib_read_is_served_whole, 120)
{
	size_t len = 64 << 20;
	uint8_t *buf = malloc(len), *want = malloc(len);

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, want);
	ASSERT_EQ((ssize_t)len, read(self->fd, buf, len));
	EXPECT_NE(0, memcmp(buf, buf + len - 4096, 4096));

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(5, lseek(self->fd, 5, SEEK_SET));
	ASSERT_EQ((ssize_t)len, read(self->fd, buf, len));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 5, want, len));
	EXPECT_EQ(-1, first_diff(buf, want, len));
	EXPECT_EQ((off_t)len + 5, lseek(self->fd, 0, SEEK_CUR));
	free(buf);
	free(want);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* A huge read stops at the signal and says how much it produced. */
static void interrupted_read(struct __test_metadata *_metadata, int fd,
			     int deterministic)
{
	size_t len = 512 << 20;
	struct itimerval it = { .it_value = { .tv_usec = 20000 } };
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	uint8_t *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ssize_t n;

	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarms = 0;
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	n = read(fd, buf, len);
	EXPECT_EQ(1, alarms);
	EXPECT_GT(n, 0) TH_LOG("read returned %zd (%s)", n, strerror(errno));
	EXPECT_LT(n, (ssize_t)len) TH_LOG("the signal did not cut the read");
	if (deterministic && n > 0)
		EXPECT_EQ(n, lseek(fd, 0, SEEK_CUR));
	munmap(buf, len);
}

TEST_F(dev, strong_read_interrupted_by_a_signal_returns_a_partial_count)
{
	interrupted_read(_metadata, self->fd, 0);
}

TEST_F(dev, deterministic_read_interrupted_by_a_signal_keeps_its_place)
{
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	interrupted_read(_metadata, self->fd, 1);
}

TEST_F(dev, bad_destinations_get_efault)
{
	uint8_t *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	uint8_t *gap = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *bad[] = { NULL, ro, (void *)0xffff888000000000ULL, (void *)-4096L };
	unsigned int i, mode;
	ssize_t n;

	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_NE(MAP_FAILED, gap);
	ASSERT_EQ(0, munmap(gap + 4096, 4096));
	for (mode = 0; mode < 2; mode++) {
		if (mode)
			ASSERT_EQ(0, arc4_seed(self->fd, self->key,
					       self->nonce));
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			errno = 0;
			EXPECT_EQ(-1, read(self->fd, bad[i], 100))
				TH_LOG("read to pointer %u", i);
			EXPECT_EQ(EFAULT, errno);
			errno = 0;
			EXPECT_EQ(-1, pread(self->fd, bad[i], 100, 64));
			EXPECT_EQ(EFAULT, errno);
		}
		/*
		 * Runs off the end of a mapping: the bytes that fit, no more.
		 * The kernel's copy to user space may stop short of the
		 * fault (arm64's may stop a few bytes before it; x86's copies
		 * up to it); a deterministic stream's position moves by what
		 * the read returned.
		 */
		n = read(self->fd, gap + 4096 - 1000, 5000);
#if defined(__x86_64__) || defined(__i386__)
		EXPECT_EQ(1000, n);
#else
		EXPECT_LE(n, 1000);
		EXPECT_GT(n, 1000 - 64);
#endif
		if (mode)
			EXPECT_EQ(n, lseek(self->fd, 0, SEEK_CUR))
				TH_LOG("a failed read moved the position");
	}
	/* The stream still works and is still right. */
	{
		uint8_t got[64], want[64];

		ASSERT_EQ(64, pread(self->fd, got, 64, 1000));
		ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 1000,
					   want, 64));
		EXPECT_EQ(0, memcmp(got, want, 64));
	}
	munmap(ro, 4096);
	munmap(gap, 4096);
}

TEST_HARNESS_MAIN
