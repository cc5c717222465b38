// SPDX-License-Identifier: GPL-2.0
/*
 * The two ioctls a checkpoint tool uses (the arc4-criu plugin):
 * ARC4_IOC_GET_SEED gives back exactly the key and nonce a deterministic
 * stream was seeded with, never anything of a strong stream, and
 * ARC4_IOC_NEW_GENERATION moves the generation page and rekeys every strong
 * stream.  Both need CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN: each is
 * tried with only one of them, and with neither.  The generation starts
 * at a random value, so that a restore on another machine moves it too.
 */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

#ifndef CAP_CHECKPOINT_RESTORE
#define CAP_CHECKPOINT_RESTORE 40
#endif

FIXTURE(ckpt) {
	int fd;
};

FIXTURE_SETUP(ckpt)
{
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
}

FIXTURE_TEARDOWN(ckpt)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Keep only capability cap (-1: none) in every set; 0 on success. */
static int keep_only(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	if (cap >= 0) {
		d[cap / 32].effective = 1u << (cap % 32);
		d[cap / 32].permitted = 1u << (cap % 32);
	}
	return syscall(SYS_capset, &h, d);
}

/*
 * In a child holding only capability cap (-1: none), ioctl(fd, cmd, arg);
 * returns 0 if it succeeded, else its errno.
 */
static int ioctl_with_only(int cap, int fd, unsigned long cmd, void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (keep_only(cap) != 0)
			_exit(255);
		_exit(ioctl(fd, cmd, arg) == 0 ? 0 : errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(ckpt, get_seed_returns_the_seed_and_nonce_given)
{
	struct arc4_seed got;
	uint8_t key[32];
	uint64_t nonce = random_u64();

	random_fill(key, sizeof(key));
	ASSERT_EQ(0, arc4_seed(self->fd, key, nonce));
	memset(&got, 0xa5, sizeof(got));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_GET_SEED, &got))
		TH_LOG("GET_SEED: %s", strerror(errno));
	EXPECT_EQ(0, memcmp(key, got.key, sizeof(key)));
	EXPECT_EQ(nonce, got.nonce);
	EXPECT_EQ(0, got.flags);
}

TEST_F(ckpt, get_seed_leaves_the_position_and_the_bytes_alone)
{
	uint8_t key[32], want[256], got[256];
	struct arc4_seed seed;
	uint64_t nonce = random_u64();

	random_fill(key, sizeof(key));
	ASSERT_EQ(0, ref_keystream(key, nonce, 0, want, sizeof(want)));
	ASSERT_EQ(0, arc4_seed(self->fd, key, nonce));
	ASSERT_EQ(100, read_full(self->fd, got, 100));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_GET_SEED, &seed));
	ASSERT_EQ(156, read_full(self->fd, got + 100, 156));
	EXPECT_EQ(-1, first_diff(want, got, sizeof(want)));
}

TEST_F(ckpt, get_seed_refuses_a_strong_stream_and_fills_nothing)
{
	struct arc4_seed got, zero;
	uint8_t key[32] = { 1 };

	memset(&got, 0, sizeof(got));
	memset(&zero, 0, sizeof(zero));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_GET_SEED, &got));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, memcmp(&zero, &got, sizeof(got)));

	/* Seeded, then strong again: the old seed is gone too. */
	ASSERT_EQ(0, arc4_seed(self->fd, key, 7));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_STRONG));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ARC4_IOC_GET_SEED, &got));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, memcmp(&zero, &got, sizeof(got)));
}

TEST_F(ckpt, get_seed_needs_checkpoint_restore_or_sys_admin)
{
	struct arc4_seed got;
	uint8_t key[32] = { 2 };

	ASSERT_EQ(0, arc4_seed(self->fd, key, 3));
	EXPECT_EQ(0, ioctl_with_only(CAP_CHECKPOINT_RESTORE, self->fd,
				     ARC4_IOC_GET_SEED, &got));
	EXPECT_EQ(0, ioctl_with_only(CAP_SYS_ADMIN, self->fd,
				     ARC4_IOC_GET_SEED, &got));
	EXPECT_EQ(EPERM, ioctl_with_only(-1, self->fd, ARC4_IOC_GET_SEED,
					 &got));
}

TEST_F(ckpt, new_generation_moves_the_page_and_rekeys_strong_streams)
{
	const struct arc4_generation *g;
	struct arc4_info before, after;
	uint8_t buf[64];
	uint64_t gen;

	g = mmap(NULL, sizeof(*g), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, g) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(64, read_full(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, arc4_info(self->fd, &before));
	gen = g->generation;

	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_NEW_GENERATION))
		TH_LOG("NEW_GENERATION: %s", strerror(errno));
	EXPECT_NE(gen, g->generation);
	EXPECT_NE(0, g->generation);
	ASSERT_EQ(64, read_full(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, arc4_info(self->fd, &after));
	EXPECT_EQ(before.reseeds + 1, after.reseeds)
		TH_LOG("the read after NEW_GENERATION kept the old key");
	munmap((void *)g, sizeof(*g));
}

TEST_F(ckpt, new_generation_goes_on_with_deterministic_streams)
{
	uint8_t key[32], want[128], got[128];
	uint64_t nonce = random_u64();

	random_fill(key, sizeof(key));
	ASSERT_EQ(0, ref_keystream(key, nonce, 0, want, sizeof(want)));
	ASSERT_EQ(0, arc4_seed(self->fd, key, nonce));
	ASSERT_EQ(64, read_full(self->fd, got, 64));
	ASSERT_EQ(0, ioctl(self->fd, ARC4_IOC_NEW_GENERATION));
	ASSERT_EQ(64, read_full(self->fd, got + 64, 64));
	EXPECT_EQ(-1, first_diff(want, got, sizeof(want)));
}

/*
 * A process restored on another machine must not find there the value its
 * buffers recorded: the counter starts at random, not at 1 (below 2^32
 * with probability 2^-32, after fewer than 2^32 moves).
 */
TEST_F(ckpt, the_generation_started_at_a_random_value)
{
	const struct arc4_generation *g;

	g = mmap(NULL, sizeof(*g), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, g);
	EXPECT_LT(1ULL << 32, g->generation)
		TH_LOG("generation %llu", (unsigned long long)g->generation);
	munmap((void *)g, sizeof(*g));
}

TEST_F(ckpt, new_generation_needs_checkpoint_restore_or_sys_admin)
{
	const struct arc4_generation *g;
	uint64_t gen;

	g = mmap(NULL, sizeof(*g), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, g);
	gen = g->generation;
	EXPECT_EQ(EPERM, ioctl_with_only(-1, self->fd,
					 ARC4_IOC_NEW_GENERATION, NULL));
	EXPECT_EQ(gen, g->generation) TH_LOG("an unprivileged call moved it");
	EXPECT_EQ(0, ioctl_with_only(CAP_CHECKPOINT_RESTORE, self->fd,
				     ARC4_IOC_NEW_GENERATION, NULL));
	EXPECT_NE(gen, g->generation);
	gen = g->generation;
	EXPECT_EQ(0, ioctl_with_only(CAP_SYS_ADMIN, self->fd,
				     ARC4_IOC_NEW_GENERATION, NULL));
	EXPECT_NE(gen, g->generation);
	munmap((void *)g, sizeof(*g));
}

TEST_HARNESS_MAIN
