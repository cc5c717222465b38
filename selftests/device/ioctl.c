// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctls: mode switches, GET_INFO, and every kind of bad argument, which
 * must get an error code and leave the stream as it was.
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

FIXTURE(dev) {
	int fd;
	uint8_t key[32];
	uint64_t nonce;
	void *unmapped;
	void *readonly;
};

FIXTURE_SETUP(dev)
{
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	random_fill(self->key, sizeof(self->key));
	self->nonce = random_u64();
	/* A read-only page followed by a hole. */
	self->readonly = mmap(NULL, 2 * 4096, PROT_READ,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->readonly);
	self->unmapped = (char *)self->readonly + 4096;
	ASSERT_EQ(0, munmap(self->unmapped, 4096));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The stream is deterministic at this position with this key and nonce. */
static void expect_stream(struct __test_metadata *_metadata, int fd,
			  const uint8_t *key, uint64_t nonce, uint64_t pos)
{
	uint8_t got[256], want[256];
	struct arc4_info info;

	ASSERT_EQ(0, arc4_info(fd, &info));
	ASSERT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
	ASSERT_EQ(pos, info.position);
	ASSERT_EQ(256, pread(fd, got, sizeof(got), pos));
	ASSERT_EQ(0, ref_keystream(key, nonce, pos, want, sizeof(want)));
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)))
		TH_LOG("stream changed");
}

TEST_F(dev, seed_makes_the_stream_deterministic)
{
	struct arc4_info info;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
	EXPECT_EQ(0, info.position);
	expect_stream(_metadata, self->fd, self->key, self->nonce, 0);
}

TEST_F(dev, strong_ioctl_returns_to_a_fresh_kernel_key)
{
	struct arc4_info before, info;
	uint8_t got[64], det[64];

	ASSERT_EQ(0, arc4_info(self->fd, &before));
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(500, lseek(self->fd, 500, SEEK_SET));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_STRONG));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(ARC4_MODE_STRONG, info.mode);
	EXPECT_EQ(0, info.position);
	EXPECT_EQ(before.reseeds + 1, info.reseeds);
	errno = 0;
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	ASSERT_EQ(64, read(self->fd, got, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 0, det, 64));
	EXPECT_NE(0, memcmp(got, det, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 500, det, 64));
	EXPECT_NE(0, memcmp(got, det, 64));
}

TEST_F(dev, reseed_is_einval_in_deterministic_mode)
{
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(77, lseek(self->fd, 77, SEEK_SET));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_RESEED));
	EXPECT_EQ(EINVAL, errno);
	expect_stream(_metadata, self->fd, self->key, self->nonce, 77);
}

TEST_F(dev, seed_with_nonzero_flags_is_einval_and_changes_nothing)
{
	struct arc4_seed s = { .nonce = 1, .flags = 1 };
	struct arc4_info info;
	uint64_t bit;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(33, lseek(self->fd, 33, SEEK_SET));
	for (bit = 1; bit; bit <<= 1) {
		s.flags = bit;
		errno = 0;
		ASSERT_EQ(-1, ioctl(self->fd, ARC4_IOC_SEED, &s));
		ASSERT_EQ(EINVAL, errno);
	}
	expect_stream(_metadata, self->fd, self->key, self->nonce, 33);

	/* And a strong stream stays strong. */
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_STRONG));
	EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_SEED, &s));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(ARC4_MODE_STRONG, info.mode);
}

TEST_F(dev, bad_pointers_get_efault_and_change_nothing)
{
	void *bad[] = {
		NULL,
		self->unmapped,
		(void *)0xffff888000000000ULL,	/* kernel half */
		(void *)-1L,
		(char *)self->readonly + 4096 - 8, /* runs off the mapping */
	};
	struct arc4_info info;
	unsigned int i;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(9, lseek(self->fd, 9, SEEK_SET));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_SEED, bad[i]));
		EXPECT_EQ(EFAULT, errno) TH_LOG("SEED from pointer %u", i);
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_GET_INFO, bad[i]));
		EXPECT_EQ(EFAULT, errno) TH_LOG("GET_INFO to pointer %u", i);
	}
	/* A read-only destination cannot take GET_INFO's answer. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_GET_INFO, self->readonly));
	EXPECT_EQ(EFAULT, errno);
	expect_stream(_metadata, self->fd, self->key, self->nonce, 9);

	/* A misaligned but valid pointer is fine. */
	{
		char raw[sizeof(info) + 1];

		EXPECT_EQ(0, ioctl(self->fd, ARC4_IOC_GET_INFO, raw + 1));
		memcpy(&info, raw + 1, sizeof(info));
		EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
		EXPECT_EQ(9, info.position);
	}
}

TEST_F(dev, unknown_ioctls_are_enotty)
{
	unsigned long cmds[] = {
		0,
		_IO(ARC4_IOC_MAGIC, 0x00),
		_IO(ARC4_IOC_MAGIC, 0x3f),
		_IO(ARC4_IOC_MAGIC, 0x44),
		_IO(ARC4_IOC_MAGIC, 0xff),
		/* Right number, wrong size or direction. */
		_IOW(ARC4_IOC_MAGIC, 0x40, int),
		_IOR(ARC4_IOC_MAGIC, 0x40, struct arc4_seed),
		_IOWR(ARC4_IOC_MAGIC, 0x43, struct arc4_info),
		_IOR(ARC4_IOC_MAGIC, 0x43, char[65]),
		_IOW(ARC4_IOC_MAGIC, 0x41, int),
		/* Other drivers' and the tty layer's numbers. */
		TCGETS,
		FIONREAD,
		0x5401,
		0xffffffff,
	};
	unsigned int i;
	char arg[256] = { 0 };

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], arg))
			TH_LOG("cmd %#lx accepted", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
	expect_stream(_metadata, self->fd, self->key, self->nonce, 0);
}

TEST_F(dev, info_holds_no_key_material)
{
	struct arc4_info info;
	unsigned int i;

	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	for (i = 0; i + 4 <= sizeof(self->key); i++)
		EXPECT_EQ(NULL, memmem(&info, sizeof(info), self->key + i, 4));
	EXPECT_EQ(NULL, memmem(&info, sizeof(info), &self->nonce, 8));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, info.reserved[i]);
	EXPECT_EQ(0, info.flags);
}

TEST_F(dev, write_fails_cleanly)
{
	int rw = open(ARC4_DEV, O_RDWR);
	char buf[16] = { 0 };

	ASSERT_LE(0, rw) TH_LOG("open O_RDWR: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, write(rw, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
	/* Writing on a read-only descriptor is EBADF, as for any file. */
	errno = 0;
	EXPECT_EQ(-1, write(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EBADF, errno);
	close(rw);
}

TEST_HARNESS_MAIN
