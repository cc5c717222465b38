// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic mode: ARC4_IOC_SEED makes the stream plain ChaCha20 with a
 * 64-bit block counter and nonce, addressed by lseek() and pread().  Checked
 * against RFC 8439's vectors and against OpenSSL's ChaCha20.
 */
#include <limits.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

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

/*
 * RFC 8439 2.4.2: key 00..1f, nonce 00000000 0000004a 00000000, counter 1;
 * this ciphertext XOR the plaintext is the keystream at byte 64 of our
 * stream with nonce 0x4a000000.
 */
static const char rfc_242_plain[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you only "
	"one tip for the future, sunscreen would be it.";
static const uint8_t rfc_242_cipher[114] = {
	0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28,
	0xdd, 0x0d, 0x69, 0x81, 0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2,
	0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b, 0xf9, 0x1b, 0x65, 0xc5,
	0x52, 0x47, 0x33, 0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57,
	0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab, 0x8f, 0x53, 0x0c, 0x35,
	0x9f, 0x08, 0x61, 0xd8, 0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61,
	0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22, 0xb6, 0x5e, 0x52, 0xbc, 0x51, 0x4d,
	0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36,
	0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6, 0xb4, 0x0b, 0x8e, 0xed,
	0xf2, 0x78, 0x5e, 0x42, 0x87, 0x4d,
};

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
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Read len bytes at pos with pread and compare with OpenSSL. */
static int check_at(struct __test_metadata *_metadata, int fd,
		    const uint8_t *key, uint64_t nonce, uint64_t pos,
		    size_t len)
{
	uint8_t *got = malloc(len), *want = malloc(len);
	int diff;

	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	ASSERT_EQ((ssize_t)len, pread(fd, got, len, pos))
		TH_LOG("pread of %zu at %llu", len, (unsigned long long)pos);
	ASSERT_EQ(0, ref_keystream(key, nonce, pos, want, len));
	diff = first_diff(got, want, len);
	EXPECT_EQ(-1, diff)
		TH_LOG("pos %llu len %zu: first difference at byte %d",
		       (unsigned long long)pos, len, diff);
	free(got);
	free(want);
	return diff;
}

TEST_F(dev, rfc8439_a1_vectors_1_and_2)
{
	uint8_t zero[32] = { 0 }, got[128];

	ASSERT_EQ(0, arc4_seed(self->fd, zero, 0));
	ASSERT_EQ(128, read(self->fd, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(got, rfc_a1, 64)) TH_LOG("A.1 vector 1 (block 0)");
	EXPECT_EQ(0, memcmp(got + 64, rfc_a1 + 64, 64))
		TH_LOG("A.1 vector 2 (block 1)");
}

TEST_F(dev, rfc8439_2_4_2_encryption_keystream)
{
	uint8_t key[32], ks[114];
	int i;

	for (i = 0; i < 32; i++)
		key[i] = i;
	ASSERT_EQ(0, arc4_seed(self->fd, key, 0x4a000000ULL));
	ASSERT_EQ(64, lseek(self->fd, 64, SEEK_SET));
	ASSERT_EQ(114, read(self->fd, ks, sizeof(ks)));
	for (i = 0; i < 114; i++)
		ASSERT_EQ(rfc_242_cipher[i], ks[i] ^ (uint8_t)rfc_242_plain[i])
			TH_LOG("byte %d", i);
}

TEST_F(dev, random_keys_nonces_offsets_match_openssl)
{
	int i;

	for (i = 0; i < 300; i++) {
		uint64_t pos = random_u64() % (1ULL << 38);
		size_t len = 1 + random_u64() % 5000;

		random_fill(self->key, sizeof(self->key));
		self->nonce = random_u64();
		ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
		ASSERT_EQ(-1, check_at(_metadata, self->fd, self->key,
				       self->nonce, pos, len));
	}
}

/* Past 2^38 the block counter needs word 13, where RFC 8439 has nonce. */
TEST_F(dev, offsets_past_2_38_use_the_high_counter_word)
{
	int i;

	for (i = 0; i < 300; i++) {
		uint64_t pos = (1ULL << 38) + random_u64() % (1ULL << 62);
		size_t len = 1 + random_u64() % 3000;

		ASSERT_EQ(-1, check_at(_metadata, self->fd, self->key,
				       self->nonce, pos, len));
	}
}

/*
 * A read across block 2^32 - 1 -> 2^32 carries word 12 into word 13.  The
 * second half is also checked against OpenSSL started directly at
 * counter (lo 0, hi 1), so no carry logic on either side is trusted.
 */
TEST_F(dev, read_across_the_32_bit_counter_boundary_carries)
{
	uint64_t boundary = (1ULL << 32) * 64, pos = boundary - 1000;
	uint8_t got[3000], want[2000];

	ASSERT_EQ(-1, check_at(_metadata, self->fd, self->key, self->nonce,
			       pos, sizeof(got)));
	ASSERT_EQ(3000, pread(self->fd, got, sizeof(got), pos));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, boundary, want,
				   sizeof(want)));
	EXPECT_EQ(0, memcmp(got + 1000, want, sizeof(want)));
	/* And word 13 too, at 2^64 / 2 bytes... as far as loff_t goes. */
	ASSERT_EQ(-1, check_at(_metadata, self->fd, self->key, self->nonce,
			       (1ULL << 62) - 777, 2000));
}

TEST_F(dev, reads_reach_the_largest_offset_and_no_further)
{
	uint8_t buf[100];

	EXPECT_EQ(10, pread(self->fd, buf, 10, LLONG_MAX - 10));
	ASSERT_EQ(-1, check_at(_metadata, self->fd, self->key, self->nonce,
			       LLONG_MAX - 10, 10));
	/* Past the end the VFS refuses before the driver sees it. */
	errno = 0;
	EXPECT_EQ(-1, pread(self->fd, buf, 11, LLONG_MAX - 10));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(LLONG_MAX, lseek(self->fd, LLONG_MAX, SEEK_SET));
	EXPECT_EQ(0, read(self->fd, buf, 0));
}

TEST_F(dev, pread_leaves_the_position_alone)
{
	uint8_t a[10], b[10], far[100], want[20];
	struct arc4_info info;

	ASSERT_EQ(10, read(self->fd, a, sizeof(a)));
	ASSERT_EQ(100, pread(self->fd, far, sizeof(far), 1000000));
	ASSERT_EQ(10, read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 0, want, 20));
	EXPECT_EQ(0, memcmp(a, want, 10));
	EXPECT_EQ(0, memcmp(b, want + 10, 10));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(20, info.position);
	EXPECT_EQ(20, lseek(self->fd, 0, SEEK_CUR));
}

TEST_F(dev, pread_matches_sequential_read)
{
	uint8_t seq[20000], piece[20000];
	size_t off = 0;

	ASSERT_EQ((ssize_t)sizeof(seq), read_full(self->fd, seq, sizeof(seq)));
	while (off < sizeof(seq)) {
		size_t len = 1 + random_u64() % 700;

		if (len > sizeof(seq) - off)
			len = sizeof(seq) - off;
		ASSERT_EQ((ssize_t)len, pread(self->fd, piece, len, off));
		ASSERT_EQ(0, memcmp(piece, seq + off, len))
			TH_LOG("at %zu", off);
		off += len;
	}
}

TEST_F(dev, lseek_set_and_cur_move_the_position)
{
	uint8_t got[64], want[64];

	ASSERT_EQ(12345, lseek(self->fd, 12345, SEEK_SET));
	ASSERT_EQ(64, read(self->fd, got, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 12345, want, 64));
	EXPECT_EQ(0, memcmp(got, want, 64));
	EXPECT_EQ(12345 + 64, lseek(self->fd, 0, SEEK_CUR));
	ASSERT_EQ(12345 + 64 - 100, lseek(self->fd, -100, SEEK_CUR));
	ASSERT_EQ(64, read(self->fd, got, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 12309, want, 64));
	EXPECT_EQ(0, memcmp(got, want, 64));
	/* O(1): a seek far away costs the same and reads the right bytes. */
	ASSERT_EQ(1LL << 50, lseek(self->fd, 1LL << 50, SEEK_SET));
	ASSERT_EQ(64, read(self->fd, got, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 1ULL << 50, want,
				   64));
	EXPECT_EQ(0, memcmp(got, want, 64));
}

TEST_F(dev, lseek_refuses_seek_end_and_negative_positions)
{
	ASSERT_EQ(100, lseek(self->fd, 100, SEEK_SET));
	errno = 0;
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_END));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, lseek(self->fd, -1, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, lseek(self->fd, -101, SEEK_CUR));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(100, lseek(self->fd, 0, SEEK_CUR));
}

TEST_F(dev, seed_restarts_at_position_zero)
{
	uint8_t a[64], b[64];

	ASSERT_EQ(1000, lseek(self->fd, 1000, SEEK_SET));
	ASSERT_EQ(0, arc4_seed(self->fd, self->key, self->nonce));
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR));
	ASSERT_EQ(64, read(self->fd, a, 64));
	ASSERT_EQ(0, ref_keystream(self->key, self->nonce, 0, b, 64));
	EXPECT_EQ(0, memcmp(a, b, 64));
}

TEST_F(dev, two_opens_with_one_seed_replay_one_stream)
{
	int fd2 = arc4_open(0);
	uint8_t a[5000], b[5000];

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, arc4_seed(fd2, self->key, self->nonce));
	ASSERT_EQ(5000, read_full(self->fd, a, sizeof(a)));
	ASSERT_EQ(5000, read_full(fd2, b, sizeof(b)));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	/* Another nonce is another stream. */
	ASSERT_EQ(0, arc4_seed(fd2, self->key, self->nonce ^ 1));
	ASSERT_EQ(5000, read_full(fd2, b, sizeof(b)));
	EXPECT_NE(0, memcmp(a, b, sizeof(a)));
	close(fd2);
}

TEST_HARNESS_MAIN
