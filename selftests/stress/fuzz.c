// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input: a bounded fuzzer for ioctl(), read(), pread(), lseek(),
 * write() and mmap() on /dev/arc4, run as an unprivileged user.  Command
 * numbers are random in and around the arc4 range with random sizes and
 * directions; pointers are NULL, unmapped, read-only, kernel-half,
 * non-canonical, misaligned, or end just before an unmapped page.
 *
 * A model of each stream (mode, key, nonce, position) predicts every
 * result exactly: the error code of a bad call, the count of a partial
 * read, and the bytes of a deterministic one (against OpenSSL).  Every few
 * calls each stream is checked against the model, so a bad call that
 * changed a stream is caught.
 *
 * ARC4_FUZZ_ITERS (default 100000) is the number of calls per test;
 * ARC4_FUZZ_SEED fixes the fuzzer's own random sequence (printed).
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "stress.h"

#define PAGE		4096UL
#define BUF_LEN		(64 * 1024UL)
#define MAX_RW_COUNT	(0x7fffffffUL & ~(PAGE - 1))

/*
 * The top of user space as access_ok() sees it: on x86-64 2^47 - 4096, or
 * 2^56 - 4096 when the kernel runs 5-level page tables (the VM's CPU has
 * la57); on arm64 2^VA_BITS, which the stack shows: it lies just below
 * that top (39 bits on a kernel built with the Kconfig default, 48 on
 * Debian's; a 52-bit kernel gives user space 48 bits unless asked).
 */
static uintptr_t task_size_max = (1UL << 47) - PAGE;

#ifdef __aarch64__
static void find_task_size_max(void)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);

	task_size_max = 1UL << (64 - __builtin_clzl(here));
}
#else
static void find_task_size_max(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			if (strstr(line, " la57"))
				task_size_max = (1UL << 56) - PAGE;
			break;
		}
	if (f)
		fclose(f);
}
#endif

/* The fuzzer's own generator: reproducible from a printed seed. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/*
 * Memory: a writable BUF_LEN buffer followed by an unmapped page, a
 * read-only page, and a hole.
 */
static uint8_t *buf, *ro_page, *hole;

static int setup_memory(void)
{
	uint8_t *m = mmap(NULL, BUF_LEN + 3 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	buf = m;
	ro_page = m + BUF_LEN + PAGE;
	hole = m + BUF_LEN + 2 * PAGE;
	memset(ro_page, 0xa5, PAGE);
	if (munmap(m + BUF_LEN, PAGE) || munmap(hole, PAGE) ||
	    mprotect(ro_page, PAGE, PROT_READ))
		return -1;
	return 0;
}

/* A pointer and how many bytes from it can be read and written. */
struct target {
	uint8_t *p;
	size_t readable, writable;
	const char *kind;
};

static struct target pick_target(void)
{
	static const uint64_t kernel[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xffffffffff600000ULL, 0xfffffffffffff000ULL,
		0xffff800000000000ULL, 0xffffc90000000000ULL,
	};
	static const uint64_t noncanon[] = {
		0x0000800000000000ULL, 0x8000000000000000ULL,
		0x00007ffffffff000ULL + PAGE,
	};
	struct target t = { 0 };
	size_t off;

	switch (rnd_below(9)) {
	case 0:
		t.kind = "NULL";
		break;
	case 1:
		t.p = hole + rnd_below(PAGE);
		t.kind = "unmapped";
		break;
	case 2:
		off = rnd_below(PAGE);
		t.p = ro_page + off;
		t.readable = PAGE - off;
		t.kind = "read-only";
		break;
	case 3:
		t.p = (uint8_t *)(uintptr_t)(kernel[rnd_below(6)] +
					     rnd_below(PAGE));
		t.kind = "kernel";
		break;
	case 4:
		t.p = (uint8_t *)(uintptr_t)(noncanon[rnd_below(3)] +
					     rnd_below(64));
		t.kind = "non-canonical";
		break;
	case 5:
		off = 1 + rnd_below(63);
		t.p = buf + off;
		t.readable = t.writable = BUF_LEN - off;
		t.kind = "misaligned";
		break;
	case 6:
		/* Ends k bytes before the unmapped page. */
		off = rnd_below(130);
		t.p = buf + BUF_LEN - off;
		t.readable = t.writable = off;
		t.kind = "edge";
		break;
	default:
		off = rnd_below(BUF_LEN - PAGE) & ~7UL;
		t.p = buf + off;
		t.readable = t.writable = BUF_LEN - off;
		t.kind = "valid";
		break;
	}
	return t;
}

/* --- the model ------------------------------------------------------------ */

struct model {
	int fd;
	int deterministic;
	uint8_t key[32];
	uint64_t nonce;
	uint64_t pos;
};

struct fuzz_stats {
	unsigned long calls, errors, checks, bytes_checked;
};

/* Check a stream against its model: mode, position, and its bytes. */
static int check_stream(struct __test_metadata *_metadata, struct model *m,
			struct fuzz_stats *st)
{
	struct arc4_info info;
	uint8_t got[64], want[64];
	uint64_t at;
	unsigned int i;

	st->checks++;
	memset(&info, 0xff, sizeof(info));
	EXPECT_EQ(0, arc4_info(m->fd, &info)) return -1;
	EXPECT_EQ((uint32_t)m->deterministic, info.mode) return -1;
	EXPECT_EQ(0, info.flags) return -1;
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, info.reserved[i]) return -1;
	if (!m->deterministic) {
		EXPECT_EQ(-1, lseek(m->fd, 0, SEEK_CUR)) return -1;
		EXPECT_EQ(64, read(m->fd, got, sizeof(got))) return -1;
		return 0;
	}
	EXPECT_EQ(m->pos, info.position) return -1;
	EXPECT_EQ((off_t)m->pos, lseek(m->fd, 0, SEEK_CUR)) return -1;
	at = m->pos <= (uint64_t)INT64_MAX - 64 ? m->pos : 0;
	EXPECT_EQ(64, pread(m->fd, got, sizeof(got), at)) return -1;
	EXPECT_EQ(0, ref_keystream(m->key, m->nonce, at, want, 64)) return -1;
	EXPECT_EQ(-1, first_diff(got, want, 64)) return -1;
	st->bytes_checked += 64;
	return 0;
}

/* --- ioctl ---------------------------------------------------------------- */

static const unsigned int known_cmds[] = {
	ARC4_IOC_SEED, ARC4_IOC_STRONG, ARC4_IOC_RESEED, ARC4_IOC_GET_INFO,
	ARC4_IOC_GET_SEED, ARC4_IOC_NEW_GENERATION,
};

/*
 * Types the VFS answers itself before the driver sees the call (FIOCLEX,
 * FIONBIO, FIONREAD, FIFREEZE, FICLONE, FS_IOC_*, FIBMAP, ...): they are
 * not the driver's input, and some act on the file system.
 */
static int vfs_type(unsigned int type)
{
	return type == 0 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 0x15;
}

static unsigned int pick_cmd(void)
{
	static const unsigned int sizes[] = {
		0, 1, 4, 8, 47, 48, 49, 63, 64, 65, 128, 4096, 16383,
	};
	unsigned int type, nr, size, dir;

	if (rnd_below(3) == 0)
		return known_cmds[rnd_below(ARRAY_SIZE(known_cmds))];
	do {
		type = rnd_below(4) ? 'Y' : (rnd_below(2) ? 'Y' - 3 +
			rnd_below(7) : rnd_below(256));
	} while (vfs_type(type));
	nr = rnd_below(3) ? 0x3c + rnd_below(12) : rnd_below(256);
	size = rnd_below(2) ? sizes[rnd_below(13)] : rnd_below(1 << 14);
	dir = rnd_below(4);
	return _IOC(dir, type, nr, size);
}

/* The result the model predicts for an ioctl, updating the model. */
static long predict_ioctl(struct model *m, unsigned int cmd,
			  const struct target *t)
{
	struct arc4_seed s;

	switch (cmd) {
	case ARC4_IOC_SEED:
		if (t->readable < sizeof(s))
			return -EFAULT;
		memcpy(&s, t->p, sizeof(s));
		if (s.flags)
			return -EINVAL;
		m->deterministic = 1;
		memcpy(m->key, s.key, 32);
		m->nonce = s.nonce;
		m->pos = 0;
		return 0;
	case ARC4_IOC_STRONG:
		m->deterministic = 0;
		m->pos = 0;
		return 0;
	case ARC4_IOC_RESEED:
		return m->deterministic ? -EINVAL : 0;
	case ARC4_IOC_GET_INFO:
		return t->writable < sizeof(struct arc4_info) ? -EFAULT : 0;
	case ARC4_IOC_GET_SEED:
	case ARC4_IOC_NEW_GENERATION:
		/* Checkpoint/restore only: the fuzzer runs as nobody. */
		return -EPERM;
	default:
		return -ENOTTY;
	}
}

static void drop_privileges(struct __test_metadata *_metadata)
{
	if (geteuid() == 0) {
		ASSERT_EQ(0, setresgid(65534, 65534, 65534));
		ASSERT_EQ(0, setresuid(65534, 65534, 65534));
	}
}

FIXTURE(fuzz) {
	struct model m[2];
	uint64_t seed;
	unsigned long iters;
};

FIXTURE_SETUP(fuzz)
{
	const char *s = getenv("ARC4_FUZZ_SEED");
	int i;

	drop_privileges(_metadata);
	find_task_size_max();
	for (i = 0; i < 2; i++) {
		memset(&self->m[i], 0, sizeof(self->m[i]));
		self->m[i].fd = arc4_open(O_RDWR);
		if (self->m[i].fd < 0)
			SETUP_SKIP(ARC4_DEV " not available: %s",
				   strerror(errno));
	}
	self->seed = s && *s ? strtoull(s, NULL, 0) : random_u64() | 1;
	rng_state = self->seed;
	self->iters = stress_knob("ARC4_FUZZ_ITERS", 100000);
	ASSERT_EQ(0, setup_memory());
	/* One stream starts deterministic. */
	random_fill(self->m[1].key, 32);
	self->m[1].nonce = random_u64();
	self->m[1].deterministic = 1;
	ASSERT_EQ(0, arc4_seed(self->m[1].fd, self->m[1].key,
			       self->m[1].nonce));
}

FIXTURE_TEARDOWN(fuzz)
{
	close(self->m[0].fd);
	close(self->m[1].fd);
}

/* Fill the target with noise; half the time, a well-formed seed. */
static void fill_target(const struct target *t)
{
	size_t n = t->writable < 256 ? t->writable : 256, i;

	for (i = 0; i < n; i++)
		t->p[i] = rnd();
	if (n >= sizeof(struct arc4_seed) && rnd_below(2))
		memset(t->p + offsetof(struct arc4_seed, flags), 0, 8);
}

TEST_F_TIMEOUT(fuzz, random_ioctls_get_the_predicted_result_and_change_nothing_else, 600)
{
	struct fuzz_stats st = { 0 };
	unsigned long i, known = 0;

	ksft_print_msg("fuzz: ioctl, seed 0x%llx, %lu calls\n",
		       (unsigned long long)self->seed, self->iters);
	for (i = 0; i < self->iters; i++) {
		struct model *m = &self->m[rnd_below(2)];
		struct target t = pick_target();
		unsigned int cmd = pick_cmd();
		struct arc4_info info;
		long want, got;

		fill_target(&t);
		if (rnd_below(16) == 0)
			t.p = (uint8_t *)(uintptr_t)rnd(), t.readable =
				t.writable = 0, t.kind = "random";
		if (!strcmp(t.kind, "random") &&
		    (uintptr_t)t.p < task_size_max)
			continue;	/* might be mapped: no prediction */
		want = predict_ioctl(m, cmd, &t);
		got = ioctl(m->fd, cmd, t.p);
		if (got < 0)
			got = -errno, st.errors++;
		st.calls++;
		ASSERT_EQ(want, got)
			TH_LOG("call %lu: ioctl(%s, 0x%08x, %s %p)", i,
			       m->deterministic ? "det" : "strong", cmd,
			       t.kind, t.p);
		if (cmd == ARC4_IOC_GET_INFO && !got) {
			memcpy(&info, t.p, sizeof(info));
			ASSERT_EQ((uint32_t)m->deterministic, info.mode);
			ASSERT_EQ(m->deterministic ? m->pos : 0, info.position);
		}
		if (cmd == known_cmds[0] || cmd == known_cmds[1] ||
		    cmd == known_cmds[2] || cmd == known_cmds[3])
			known++;
		if (i % 64 == 0) {
			ASSERT_EQ(0, check_stream(_metadata, &self->m[0], &st));
			ASSERT_EQ(0, check_stream(_metadata, &self->m[1], &st));
		}
	}
	ASSERT_EQ(0, check_stream(_metadata, &self->m[0], &st));
	ASSERT_EQ(0, check_stream(_metadata, &self->m[1], &st));
	ksft_print_msg("fuzz: %lu ioctls (%lu arc4 commands, %lu errors as predicted), %lu stream checks\n",
		       st.calls, known, st.errors, st.checks);
}

/* --- read, pread, lseek, write, mmap --------------------------------------- */

static size_t pick_len(void)
{
	static const uint64_t huge[] = {
		SIZE_MAX, (uint64_t)INT64_MAX, 1ULL << 40, MAX_RW_COUNT + 1,
		1ULL << 31, 0x80000000ULL - 1,
	};

	switch (rnd_below(8)) {
	case 0:
		return 0;
	case 1:
		return huge[rnd_below(6)];
	case 2:
		return 1 + rnd_below(BUF_LEN + PAGE);
	case 3:
		return 1 + rnd_below(64);
	default:
		return 1 + rnd_below(2 * PAGE);
	}
}

static int64_t pick_offset(void)
{
	static const int64_t special[] = {
		0, 1, 63, 64, 65,
		(int64_t)1 << 38, ((int64_t)1 << 38) - 1,
		((int64_t)1 << 38) * 64, ((int64_t)0x100000000 * 64) - 1,
		INT64_MAX, INT64_MAX - 1, INT64_MAX - 63, INT64_MAX - 4096,
		-1, -4096, INT64_MIN,
	};

	switch (rnd_below(4)) {
	case 0:
		return special[rnd_below(16)] + (int64_t)rnd_below(3) - 1;
	case 1:
		return rnd_below(1 << 20);
	case 2:
		return (int64_t)(rnd() >> 1);
	default:
		return special[rnd_below(16)];
	}
}

/* Is [p, p + len) a range the kernel accepts as user memory at all? */
static int user_range(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len <= task_size_max && a <= task_size_max - len;
}

/*
 * The result of read(), or of pread() at @off, as the VFS and the driver
 * define it: an error, or the count of bytes that land.
 */
static long predict_read(const struct model *m, const struct target *t,
			 size_t len, int is_pread, int64_t off)
{
	int64_t pos = is_pread ? off : (m->deterministic ? (int64_t)m->pos : 0);
	size_t n;

	/* pread64() refuses a negative offset before anything else. */
	if (is_pread && off < 0)
		return -EINVAL;
	if (!user_range(t->p, len))
		return -EFAULT;
	if ((ssize_t)len < 0)
		return -EINVAL;
	if (pos < 0)
		return -EINVAL;
	if ((int64_t)((uint64_t)pos + len) < 0)
		return -EINVAL;
	n = len < MAX_RW_COUNT ? len : MAX_RW_COUNT;
	if (m->deterministic && n > (uint64_t)(INT64_MAX - pos))
		n = INT64_MAX - pos;
	if (!n)
		return 0;
	if (n > t->writable)
		n = t->writable;
	return n ? (long)n : -EFAULT;
}

TEST_F_TIMEOUT(fuzz, random_reads_preads_and_seeks_get_the_predicted_result, 600)
{
	struct fuzz_stats st = { 0 };
	unsigned long i, partial = 0;
	uint8_t *want = malloc(BUF_LEN);

	ASSERT_NE(NULL, want);
	ksft_print_msg("fuzz: read/pread/lseek/write/mmap, seed 0x%llx, %lu calls\n",
		       (unsigned long long)self->seed, self->iters);
	for (i = 0; i < self->iters; i++) {
		struct model *m = &self->m[rnd_below(2)];
		struct target t = pick_target();
		unsigned int op = rnd_below(16);
		size_t len = pick_len();
		int64_t off = pick_offset();
		long exp, got;
		void *map;

		st.calls++;
		if (op < 6 || op == 11) {
			/* read() */
			exp = predict_read(m, &t, len, 0, 0);
			got = read(m->fd, t.p, len);
		} else if (op < 11) {
			exp = predict_read(m, &t, len, 1, off);
			got = pread(m->fd, t.p, len, off);
		} else if (op < 14) {
			int whence = rnd_below(5);
			int64_t base = whence == SEEK_CUR ? (int64_t)m->pos : 0;

			if (!m->deterministic)
				exp = -ESPIPE;
			else if (whence > SEEK_CUR)
				exp = -EINVAL;
			else if ((whence == SEEK_CUR &&
				  __builtin_add_overflow(base, off, &base)) ||
				 (whence == SEEK_SET && (base = off, 0)) ||
				 base < 0)
				exp = -EINVAL;
			else
				exp = base;
			got = lseek(m->fd, off, whence);
			if (got < 0)
				got = -errno, st.errors++;
			ASSERT_EQ(exp, got)
				TH_LOG("call %lu: lseek(%s, %lld, %d)", i,
				       m->deterministic ? "det" : "strong",
				       (long long)off, whence);
			if (exp >= 0)
				m->pos = exp;
			continue;
		} else if (op == 14) {
			got = write(m->fd, t.p, len);
			if (got < 0)
				got = -errno, st.errors++;
			/* The VFS checks the pointer before finding no write. */
			ASSERT_TRUE(got == -EINVAL || got == -EFAULT)
				TH_LOG("write returned %ld", got);
			continue;
		} else {
			/*
			 * Only the generation page maps: shared, read-only,
			 * offset 0.  A private or further mapping is
			 * EINVAL; asking to execute it, EACCES.
			 */
			int shared = rnd_below(2), exec = rnd_below(4) == 0;
			off_t moff = rnd_below(4) * PAGE;

			errno = 0;
			map = mmap(NULL, PAGE, PROT_READ | (exec ? PROT_EXEC : 0),
				   shared ? MAP_SHARED : MAP_PRIVATE, m->fd,
				   moff);
			if (shared && moff == 0 && !exec) {
				ASSERT_NE(MAP_FAILED, map)
					TH_LOG("the generation page: %s",
					       strerror(errno));
				ASSERT_NE(0, *(volatile uint64_t *)map);
				munmap(map, PAGE);
				continue;
			}
			ASSERT_EQ(MAP_FAILED, map);
			ASSERT_EQ(shared && moff == 0 ? EACCES : EINVAL, errno)
				TH_LOG("mmap %s off %lld%s: %s",
				       shared ? "shared" : "private",
				       (long long)moff, exec ? " exec" : "",
				       strerror(errno));
			st.errors++;
			continue;
		}
		if (got < 0)
			got = -errno, st.errors++;
#if !defined(__x86_64__) && !defined(__i386__)
		/*
		 * A read cut short by a fault: x86's copy to user space stops
		 * at the fault, arm64's may stop a few bytes before it (the
		 * kernel allows that); never past it, never at nothing.
		 */
		if (exp > 0 && (size_t)exp == t.writable && (size_t)exp < len &&
		    got >= 1 && got < exp && got > exp - 64)
			exp = got;
#endif
		ASSERT_EQ(exp, got)
			TH_LOG("call %lu: %s(%s at %llu, %s %p, %zu, %lld)", i,
			       op < 6 || op == 11 ? "read" : "pread",
			       m->deterministic ? "det" : "strong",
			       (unsigned long long)m->pos, t.kind, t.p, len,
			       (long long)off);
		if (got > 0 && (size_t)got < len)
			partial++;
		if (got > 0 && m->deterministic) {
			uint64_t at = op < 6 || op == 11 ? m->pos : (uint64_t)off;
			size_t cmp = got < (long)BUF_LEN ? (size_t)got : BUF_LEN;

			ASSERT_EQ(0, ref_keystream(m->key, m->nonce, at, want,
						   cmp));
			ASSERT_EQ(-1, first_diff(t.p, want, cmp))
				TH_LOG("call %lu: wrong bytes at %llu", i,
				       (unsigned long long)at);
			st.bytes_checked += cmp;
		}
		if (got > 0 && m->deterministic && (op < 6 || op == 11))
			m->pos += got;
		if (i % 64 == 0) {
			ASSERT_EQ(0, check_stream(_metadata, &self->m[0], &st));
			ASSERT_EQ(0, check_stream(_metadata, &self->m[1], &st));
		}
		/* Now and then, move the deterministic stream somewhere new. */
		if (rnd_below(200) == 0) {
			struct model *d = &self->m[1];

			random_fill(d->key, 32);
			d->nonce = rnd();
			d->deterministic = 1;
			d->pos = 0;
			ASSERT_EQ(0, arc4_seed(d->fd, d->key, d->nonce));
		}
	}
	ASSERT_EQ(0, check_stream(_metadata, &self->m[0], &st));
	ASSERT_EQ(0, check_stream(_metadata, &self->m[1], &st));
	ksft_print_msg("fuzz: %lu read/pread/lseek/write/mmap calls (%lu errors and %lu partial reads as predicted), %lu deterministic bytes checked\n",
		       st.calls, st.errors, partial, st.bytes_checked);
	free(want);
}

TEST_HARNESS_MAIN
