// SPDX-License-Identifier: GPL-2.0
/*
 * The shim's /dev/arc4 descriptor and the program around it: another
 * file dup2()ed onto its number while a refill is on its way to the read
 * is never served as strong output, nor read from in a way that costs
 * the program a byte; and no strong path makes an ioctl with a read
 * direction (rr stops a recording at one it does not know).
 *
 * The window is made as wide as we like with a seccomp user-notification
 * supervisor: each read-like system call on the shim's number waits in
 * the kernel until the supervisor, which swaps the file first, lets it
 * go on.  That is a preemption between the shim's check and its read.
 */
#include <dirent.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/arc4.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

enum { DRAW = 20000 };	/* more than a buffer: one read into the caller's */

/* The shim's /dev/arc4 descriptor, after it has one: -1 if none. */
static int shim_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fd = -1;

	while (d && (e = readdir(d)) != NULL) {
		char path[64], target[64] = "";

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		if (readlink(path, target, sizeof(target) - 1) > 0 &&
		    !strcmp(target, "/dev/arc4"))
			fd = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return fd;
}

struct swapper {
	int listener, target, with;
	int swapped, calls;
};

/* Swap at the first read-like call on the number, then let each go on. */
static void *swap_on_read(void *arg)
{
	struct swapper *w = arg;

	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(w->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (!__atomic_load_n(&w->swapped, __ATOMIC_SEQ_CST) &&
		    dup2(w->with, w->target) == w->target)
			__atomic_store_n(&w->swapped, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&w->calls, 1, __ATOMIC_SEQ_CST);
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(w->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/*
 * Every read, pread64, readv, preadv and preadv2 on fd waits for the
 * supervisor.  0, or -1 if no filter can be installed.
 */
static int swap_on_read_start(struct swapper *w, int fd, int with)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_read, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_pread64, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_readv, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_preadv, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_preadv2, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)fd, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	pthread_t t;

	*w = (struct swapper){ .target = fd, .with = with };
	w->listener = seccomp_install(f, sizeof(f) / sizeof(f[0]),
				      SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (w->listener < 0)
		return -1;
	return pthread_create(&t, NULL, swap_on_read, w) ? -1 : 0;
}

/* Whether some 64 aligned bytes of a equal 64 aligned bytes of b. */
static int share_a_block(const uint8_t *a, size_t alen, const uint8_t *b,
			 size_t blen)
{
	for (size_t i = 0; i + 64 <= alen; i += 64)
		for (size_t j = 0; j + 64 <= blen; j += 64)
			if (!memcmp(a + i, b + j, 64))
				return 1;
	return 0;
}

static int same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

FIXTURE(swap)
{
	int fd;			/* the shim's descriptor */
	struct swapper w;
	uint8_t out[DRAW];
};

/* The harness runs the test after a SKIP here: each test asks again. */
FIXTURE_SETUP(swap)
{
	self->fd = -1;
	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	draw_until_buffered();
	self->fd = shim_fd();
	ASSERT_LE(3, self->fd) TH_LOG("the shim holds no /dev/arc4 descriptor");
}

FIXTURE_TEARDOWN(swap)
{
}

/* The draw after a swap: strong bytes, and the program's file untouched. */
static void draw_swapped(struct __test_metadata *_metadata,
			 FIXTURE_DATA(swap) *self, int with)
{
	ASSERT_EQ(0, swap_on_read_start(&self->w, self->fd, with));
	arc4random_buf(self->out, sizeof(self->out));
	ASSERT_EQ(1, __atomic_load_n(&self->w.swapped, __ATOMIC_SEQ_CST))
		TH_LOG("the shim made no read of its descriptor: nothing tested");
	EXPECT_TRUE(same_file(self->fd, with))
		TH_LOG("the shim closed or replaced the program's descriptor");
	EXPECT_LT(chi2_bytes(self->out, sizeof(self->out)), chi2_limit(255))
		TH_LOG("the output is not uniform");
}

TEST_F(swap, a_regular_file_swapped_in_before_the_read_is_not_served)
{
	uint8_t *pattern = malloc(1 << 16);
	int file = memfd_create("swapped", 0);

	if (self->fd < 0)
		return;	/* skipped in the setup */
	ASSERT_LE(0, file);
	for (size_t i = 0; i < 1 << 16; i++)
		pattern[i] = (uint8_t)(i * 7 + 1);
	ASSERT_EQ(1 << 16, write(file, pattern, 1 << 16));
	draw_swapped(_metadata, self, file);
	EXPECT_FALSE(share_a_block(self->out, sizeof(self->out), pattern,
				   1 << 16))
		TH_LOG("arc4random_buf() returned the swapped-in file's bytes");
	/* Draws go on, from a descriptor of the shim's own. */
	for (int i = 0; i < 20000; i++)
		(void)arc4random();
	free(pattern);
}

TEST_F(swap, a_pipe_swapped_in_before_the_read_loses_no_byte)
{
	char data[100], back[200];
	int p[2];

	if (self->fd < 0)
		return;	/* skipped in the setup */
	ASSERT_EQ(0, pipe2(p, O_NONBLOCK));
	memset(data, 'p', sizeof(data));
	ASSERT_EQ(sizeof(data), write(p[1], data, sizeof(data)));
	close(p[1]);	/* a read that consumed it gets EOF, not a hang */
	draw_swapped(_metadata, self, p[0]);
	EXPECT_EQ(sizeof(data), read(p[0], back, sizeof(back)))
		TH_LOG("the shim consumed the program's pipe data");
}

TEST_F(swap, a_seeded_dev_arc4_swapped_in_before_the_read_is_not_served)
{
	struct arc4_seed seed = { .key = { 1, 2, 3 }, .nonce = 9 };
	static uint8_t at0[DRAW], at62[DRAW];
	int seeded = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	int oracle = open("/dev/arc4", O_RDONLY | O_CLOEXEC);

	if (self->fd < 0)
		return;	/* skipped in the setup */
	ASSERT_LE(0, seeded);
	ASSERT_LE(0, oracle);
	ASSERT_EQ(0, ioctl(seeded, ARC4_IOC_SEED, &seed));
	ASSERT_EQ(0, ioctl(oracle, ARC4_IOC_SEED, &seed));
	ASSERT_EQ(DRAW, pread(oracle, at0, DRAW, 0));
	ASSERT_EQ(DRAW, pread(oracle, at62, DRAW, 1LL << 62));
	draw_swapped(_metadata, self, seeded);
	EXPECT_FALSE(share_a_block(self->out, 4096, at0, DRAW))
		TH_LOG("arc4random_buf() returned the seeded stream's bytes");
	EXPECT_FALSE(share_a_block(self->out, 4096, at62, DRAW))
		TH_LOG("arc4random_buf() returned the seeded stream's bytes");
	EXPECT_EQ(0, lseek(seeded, 0, SEEK_CUR))
		TH_LOG("the shim moved the program's stream position");
}

/* ---- no ioctl with a read direction ------------------------------------ */

struct counter {
	int listener;
	sem_t ready;
	int reads;
};

static void *count_read_ioctls(void *arg)
{
	struct counter *c = arg;

	sem_wait(&c->ready);
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(c->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (_IOC_DIR((unsigned int)req.data.args[1]) & _IOC_READ)
			__atomic_add_fetch(&c->reads, 1, __ATOMIC_SEQ_CST);
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(c->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

static void *draw_100000(void *arg)
{
	for (int i = 0; i < 100000; i++)
		(void)arc4random();
	return arg;
}

/*
 * Every ioctl of this thread and those it starts after the filter goes
 * to the supervisor (started before it: its own ioctls are not filtered),
 * which counts the ones with _IOC_READ.  A thread draws, the descriptor
 * is closed under the shim (a new open), another thread draws, and one
 * ioctl of the test's own shows that the counter counts.
 */
TEST(no_strong_path_makes_an_ioctl_with_a_read_direction)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	static struct counter c;
	struct arc4_info info;
	pthread_t sup, t;
	int fd, mine;

	if (!have_device())
		SKIP(return, "no /dev/arc4 (module not loaded)");
	if (!have_seccomp())
		SKIP(return, "no seccomp(2) filters here");
	mine = open("/dev/arc4", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, mine);
	sem_init(&c.ready, 0, 0);
	ASSERT_EQ(0, pthread_create(&sup, NULL, count_read_ioctls, &c));
	c.listener = seccomp_install(f, sizeof(f) / sizeof(f[0]),
				     SECCOMP_FILTER_FLAG_NEW_LISTENER);
	ASSERT_LE(0, c.listener);
	sem_post(&c.ready);

	draw_100000(NULL);
	fd = shim_fd();
	ASSERT_LE(3, fd);
	close(fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, draw_100000, NULL));
	pthread_join(t, NULL);
	EXPECT_LE(3, shim_fd()) TH_LOG("the shim opened no new descriptor");
	EXPECT_EQ(0, __atomic_load_n(&c.reads, __ATOMIC_SEQ_CST))
		TH_LOG("%d ioctls with a read direction while drawing 200,000 values",
		       c.reads);
	ASSERT_EQ(0, ioctl(mine, ARC4_IOC_GET_INFO, &info));
	EXPECT_EQ(1, __atomic_load_n(&c.reads, __ATOMIC_SEQ_CST))
		TH_LOG("the counter missed the test's own ARC4_IOC_GET_INFO");
}

TEST_HARNESS_MAIN
