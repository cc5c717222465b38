// SPDX-License-Identifier: GPL-2.0
/*
 * Faults: every allocation and every user copy on the module's paths
 * fails in turn, and each call either fails with an error code or works
 * whole, leaving the module and the stream as they were: the module's
 * load (its init unwinds), open(), read() strong and deterministic, the
 * ioctls and the generation page's mmap().
 *
 * The kernel's fault injection does the failing: a number N written to
 * /proc/thread-self/fail-nth makes the Nth fault point the thread passes
 * fail (a slab or page allocation, a copy to or from user space), and the
 * file reads 0 once it has.  Each test tries N = 1, 2, ... until a call
 * passes all its fault points.  It needs CONFIG_FAULT_INJECTION with
 * FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_USERCOPY and their debugfs
 * files: arc4's debug kernel has them, Debian's kernels do not (there the
 * tests skip, naming what is missing).  KASAN, kmemleak (scanned when the
 * VM run ends) and lockdep judge the unwinding; the tests judge what
 * user space sees.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arc4_test.h"
#include "pm_cycle.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"

/* Every call here passes fewer fault points than this. */
enum { MAX_FAULTS = 2000 };

/*
 * The fault points' settings: allocations that may sleep, and single
 * pages, fail too (by default only atomic ones of two pages or more do),
 * and an injected fault is not logged with a stack (it is expected).
 * What the files held is put back after each test.
 */
static const struct setting {
	const char *file, *on;
} settings[] = {
	{ ARC4_DEBUGFS "/failslab/ignore-gfp-wait", "N" },
	{ ARC4_DEBUGFS "/failslab/verbose", "0" },
	{ ARC4_DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N" },
	{ ARC4_DEBUGFS "/fail_page_alloc/min-order", "0" },
	{ ARC4_DEBUGFS "/fail_page_alloc/verbose", "0" },
	{ ARC4_DEBUGFS "/fail_usercopy/verbose", "0" },
};
#define SETTINGS (sizeof(settings) / sizeof(settings[0]))

static const char *fault_lack(void)
{
	size_t i;

	if (access(FAIL_NTH, F_OK))
		return "the kernel has no fault injection (CONFIG_FAULT_INJECTION)";
	/* Whether it mounted, the settings' files below tell. */
	debugfs_mount();
	for (i = 0; i < SETTINGS; i++)
		if (access(settings[i].file, W_OK))
			return "the kernel lacks FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_USERCOPY or FAULT_INJECTION_DEBUG_FS";
	return NULL;
}

/* Put back the first n settings as saved; -1 if one could not be. */
static int fault_settings_restore(char saved[][32], size_t n)
{
	int ret = 0;

	while (n--)
		if (write_file(settings[n].file, saved[n]))
			ret = -1;
	return ret;
}

/* Save each setting and switch it on; on a failure, put all back. */
static int fault_settings_on(char saved[][32])
{
	size_t i;

	for (i = 0; i < SETTINGS; i++) {
		if (read_text(settings[i].file, saved[i], 32) < 0)
			break;
		if (write_file(settings[i].file, settings[i].on)) {
			i++;
			break;
		}
	}
	if (i == SETTINGS)
		return 0;
	fault_settings_restore(saved, i);
	return -1;
}

/* Fail this thread's nth fault point from now on. */
static int fault_arm(int nth_fd, int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(nth_fd, buf, len, 0) == len ? 0 : -1;
}

/*
 * Whether the armed fault fired, and disarm.  Reading the file is itself
 * a copy to user space, so a counter that had one point left fails that
 * read (EFAULT): not fired by the call under test, and spent now.
 */
static int fault_fired(int nth_fd)
{
	char buf[16] = { 0 };
	ssize_t n = pread(nth_fd, buf, sizeof(buf) - 1, 0);

	/* A write that meets the last point fails but disarms all the same. */
	(void)!pwrite(nth_fd, "0", 1, 0);
	return n > 0 && buf[0] == '0';
}

static int all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

FIXTURE(faults) {
	int nth_fd;
	char saved[SETTINGS][32];
};

FIXTURE_SETUP(faults)
{
	const char *lack;

	self->nth_fd = -1;
	if (geteuid())
		SETUP_SKIP("needs root");
	if (access("/sys/module/arc4dev", F_OK))
		SETUP_SKIP("arc4dev not loaded");
	lack = fault_lack();
	if (lack)
		SETUP_SKIP("%s", lack);
	self->nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->nth_fd);
	if (fault_settings_on(self->saved)) {
		close(self->nth_fd);
		self->nth_fd = -1;
		ASSERT_TRUE(0) TH_LOG("cannot switch the fault points' settings on");
	}
}

FIXTURE_TEARDOWN(faults)
{
	if (self->nth_fd >= 0) {
		close(self->nth_fd);
		fault_settings_restore(self->saved, SETTINGS);
	}
	if (access("/sys/module/arc4dev", F_OK))
		(void)!system("modprobe arc4dev");
}

/*
 * Each open either fails (ENOMEM from an allocation, EFAULT from copying
 * the path) or gives a working stream, and no failed open keeps a
 * reference to the module.
 */
TEST_F(faults, open_fails_cleanly_at_every_fault_point)
{
	uint8_t buf[32];
	int n, fd, err, fired;

	for (n = 1; n < MAX_FAULTS; n++) {
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		fd = arc4_open(0);
		err = errno;
		fired = fault_fired(self->nth_fd);
		if (fd < 0) {
			EXPECT_TRUE(err == ENOMEM || err == EFAULT)
				TH_LOG("fault %d: open failed with %s", n,
				       strerror(err));
			EXPECT_TRUE(fired) TH_LOG("open failed unfaulted");
		} else {
			EXPECT_EQ(32, read(fd, buf, sizeof(buf)));
			EXPECT_FALSE(all_zero(buf, sizeof(buf)));
			close(fd);
		}
		EXPECT_EQ(0, module_refcnt()) TH_LOG("after fault %d", n);
		if (!fired)
			break;
	}
	ASSERT_LT(1, n) TH_LOG("no fault point on open: injection is off");
	ASSERT_GT(MAX_FAULTS, n);
}

/*
 * A strong read (small, on the stack's chunk, and large, on a borrowed
 * one that has to be allocated at first) returns an error or some bytes, never
 * zeroed ones, and the stream goes on.
 */
TEST_F(faults, strong_read_fails_cleanly_at_every_fault_point)
{
	static const size_t sizes[] = { 100, 40000 };
	static uint8_t buf[40000];
	size_t i;
	ssize_t r;
	int n, fd, err, fired;

	/*
	 * On one CPU, after a reload: the first large read finds that CPU's
	 * slot empty and allocates its buffer, a fault point of its own.
	 */
	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, system("rmmod arc4dev && modprobe arc4dev"));
	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (n = 1; n < MAX_FAULTS; n++) {
			memset(buf, 0, sizes[i]);
			ASSERT_EQ(0, fault_arm(self->nth_fd, n));
			r = read(fd, buf, sizes[i]);
			err = errno;
			fired = fault_fired(self->nth_fd);
			if (r < 0) {
				EXPECT_EQ(EFAULT, err);
				EXPECT_TRUE(fired);
			} else {
				EXPECT_LT(0, r);
				EXPECT_GE((ssize_t)sizes[i], r);
				if (r >= 16)
					EXPECT_FALSE(all_zero(buf, r));
			}
			if (!fired)
				break;
		}
		ASSERT_LT(1, n) TH_LOG("no fault point on a read");
		ASSERT_GT(MAX_FAULTS, n);
		EXPECT_EQ((ssize_t)sizes[i], read_full(fd, buf, sizes[i]));
	}
	close(fd);
}

/*
 * A seeded read that fails moves nothing; one that copies part moves the
 * position by what it returned, and those bytes are the stream's: the
 * next read goes on exactly there (OpenSSL's ChaCha20 the oracle).
 */
TEST_F(faults, deterministic_read_moves_by_what_it_returns)
{
	static uint8_t buf[40000], want[40000];
	uint8_t key[32];
	uint64_t nonce = random_u64();
	off_t pos = 0, now;
	ssize_t r;
	int n, fd, err, fired;

	random_fill(key, sizeof(key));
	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, arc4_seed(fd, key, nonce));
	for (n = 1; n < MAX_FAULTS; n++) {
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		r = read(fd, buf, sizeof(buf));
		err = errno;
		fired = fault_fired(self->nth_fd);
		now = lseek(fd, 0, SEEK_CUR);
		if (r < 0) {
			EXPECT_EQ(EFAULT, err);
			EXPECT_TRUE(fired) TH_LOG("a read failed unfaulted");
			EXPECT_EQ(pos, now) TH_LOG("fault %d moved it", n);
		} else {
			ASSERT_EQ(pos + r, now);
			ASSERT_EQ(0, ref_keystream(key, nonce, pos, want, r));
			EXPECT_EQ(-1, first_diff(buf, want, r))
				TH_LOG("fault %d: %zd bytes at %lld", n, r,
				       (long long)pos);
		}
		pos = now;
		if (!fired)
			break;
	}
	ASSERT_LT(1, n);
	ASSERT_GT(MAX_FAULTS, n);
	ASSERT_EQ(4096, read_full(fd, buf, 4096));
	ASSERT_EQ(0, ref_keystream(key, nonce, pos, want, 4096));
	EXPECT_EQ(-1, first_diff(buf, want, 4096));
	close(fd);
}

/*
 * A seed that cannot be copied in leaves the stream strong; info that
 * cannot be copied out is EFAULT and changes nothing.
 */
TEST_F(faults, ioctls_fail_cleanly_at_every_fault_point)
{
	struct arc4_info info;
	uint8_t key[32] = { 1 };
	int n, fd, ret, err, fired;

	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	for (n = 1; n < MAX_FAULTS; n++) {
		ASSERT_EQ(0, ioctl(fd, ARC4_IOC_STRONG));
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		ret = arc4_seed(fd, key, 7);
		err = errno;
		fired = fault_fired(self->nth_fd);
		ASSERT_EQ(0, arc4_info(fd, &info));
		if (ret) {
			EXPECT_EQ(EFAULT, err);
			EXPECT_EQ(ARC4_MODE_STRONG, info.mode);
		} else {
			EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
			EXPECT_EQ(0, info.position);
		}
		if (!fired)
			break;
	}
	ASSERT_LT(1, n);
	for (n = 1; n < MAX_FAULTS; n++) {
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		ret = arc4_info(fd, &info);
		err = errno;
		fired = fault_fired(self->nth_fd);
		if (ret)
			EXPECT_EQ(EFAULT, err);
		if (!fired)
			break;
	}
	ASSERT_LT(1, n);
	ASSERT_EQ(0, arc4_info(fd, &info));
	EXPECT_EQ(ARC4_MODE_DETERMINISTIC, info.mode);
	close(fd);
}

TEST_F(faults, generation_mmap_fails_cleanly_at_every_fault_point)
{
	const volatile struct arc4_generation *gen;
	uint64_t first = 0;
	int n, fd, err, fired;

	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	for (n = 1; n < MAX_FAULTS; n++) {
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		gen = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		err = errno;
		fired = fault_fired(self->nth_fd);
		if (gen == MAP_FAILED) {
			EXPECT_EQ(ENOMEM, err);
			EXPECT_TRUE(fired);
		} else {
			if (!first)
				first = gen->generation;
			EXPECT_NE(0, gen->generation);
			EXPECT_EQ(first, gen->generation);
			munmap((void *)gen, 4096);
		}
		if (!fired)
			break;
	}
	ASSERT_LT(1, n);
	ASSERT_GT(MAX_FAULTS, n);
	close(fd);
}

/* A loaded module's device opens and reads. */
static void kfd_probe(struct __test_metadata *_metadata, int n)
{
	uint8_t buf[32];
	int fd = arc4_open(0);

	ASSERT_LE(0, fd) TH_LOG("loaded after fault %d, no device: %s", n,
				strerror(errno));
	EXPECT_EQ(32, read(fd, buf, sizeof(buf)));
	EXPECT_FALSE(all_zero(buf, sizeof(buf)));
	close(fd);
}

/* The module's file, as modprobe would find it; 0 on success. */
static int module_path(char *path, size_t size)
{
	FILE *p = popen("modinfo -n arc4dev", "r");
	int ok = p && fgets(path, size, p);

	if (p)
		pclose(p);
	if (!ok)
		return -1;
	path[strcspn(path, "\n")] = '\0';
	return 0;
}

/*
 * How many fault points a whole load of arc4dev passes: the count left of
 * a large fail-nth (read before the read's own copy spends one).
 */
static int load_points(struct __test_metadata *_metadata, int nth_fd, int ko)
{
	enum { LOTS = 1000000 };
	char buf[16] = { 0 };

	if (fault_arm(nth_fd, LOTS) || syscall(SYS_finit_module, ko, "", 0) ||
	    pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	(void)!pwrite(nth_fd, "0", 1, 0);
	EXPECT_EQ(0, system("rmmod arc4dev"));
	return LOTS - atoi(buf);
}

/*
 * A load that fails in arc4dev's init (the generation page, the misc
 * device's registration) or in the loader's steps around it leaves
 * nothing behind: no module, no device, no notifier (a hibernation test
 * cycle then calls every PM notifier: one left registered by a freed
 * module would oops), no leak (kmemleak).  The loader's own first steps
 * are not tried: there a failed vmalloc() of the module's image makes the
 * kernel log an allocation report with a stack, as it should, which the
 * test VM counts as a problem.  The last LOAD_TAIL fault points of a load
 * hold the init's (a few dozen; twice as many points on a kernel with
 * kmemleak, which allocates beside every slab object) and the loader's
 * after it; the report of make coverage shows the init's unwinding run.
 */
enum { LOAD_TAIL = 200 };

TEST_F_TIMEOUT(faults, module_load_unwinds_at_every_fault_point_of_its_init, 60)
{
	char path[4096];
	int n, total, ko, fd, ret, err, fired, fails = 0, lowest = 0;

	ASSERT_EQ(0, module_path(path, sizeof(path)));
	ko = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ko) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, system("rmmod arc4dev"));
	total = load_points(_metadata, self->nth_fd, ko);
	ASSERT_LT(LOAD_TAIL, total) TH_LOG("%d fault points in a load", total);
	for (n = total + 1; n > total - LOAD_TAIL; n--) {
		ASSERT_EQ(0, fault_arm(self->nth_fd, n));
		ret = syscall(SYS_finit_module, ko, "", 0);
		err = errno;
		fired = fault_fired(self->nth_fd);
		if (ret) {
			fails++;
			lowest = n;
			EXPECT_TRUE(fired) TH_LOG("load failed unfaulted: %s",
						  strerror(err));
			EXPECT_NE(0, access("/sys/module/arc4dev", F_OK))
				TH_LOG("fault %d: a failed load left the module", n);
			EXPECT_NE(0, access(ARC4_DEV, F_OK))
				TH_LOG("fault %d: a failed load left the device", n);
			continue;
		}
		/* A fault the load survived, or none: the device works. */
		kfd_probe(_metadata, n);
		EXPECT_EQ(0, system("rmmod arc4dev")) TH_LOG("after fault %d", n);
	}
	close(ko);
	TH_LOG("%d fault points in a load; the last %d tried, %d loads failed, the earliest at %d",
	       total, LOAD_TAIL, fails, lowest);
	ASSERT_LT(0, fails) TH_LOG("no load failed: injection is off");
	ASSERT_EQ(0, system("modprobe arc4dev"));
	if (!pm_hibernation_lack())
		EXPECT_EQ(0, pm_hibernation_cycle());
	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
