// SPDX-License-Identifier: GPL-2.0
/*
 * The module: it cannot be unloaded while a file is open, it reloads
 * cleanly, frees the read buffers it lends to the CPUs (at unload, and
 * the one a read brings back to a CPU that has one), and its device node
 * and parameters appear as documented.  It gives back its generation
 * page at unload (where page_owner can tell).
 */
#include <linux/userfaultfd.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The objects in use in the kmalloc caches of 4 KiB (a read's per-CPU
 * buffer is one), after the caches gave their per-CPU slabs back, so
 * that the count is exact rather than a slab's worth high; -1 if unknown.
 */
static long kmalloc_4k_objects(void)
{
	char line[512], name[64];
	long total = -1, active;
	FILE *f;

	run("for c in /sys/kernel/slab/kmalloc-*4k; do "
	    "echo 1 >$c/shrink; done 2>/dev/null");
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld", name, &active) != 2 ||
		    strncmp(name, "kmalloc-", 8) || strcmp(name + strlen(name) - 3, "-4k") ||
		    strstr(name, "dma") || strstr(name, "cg-"))
			continue;
		total = (total < 0 ? 0 : total) + active;
	}
	fclose(f);
	return total;
}

FIXTURE(mod) {
	int loaded;
};

FIXTURE_SETUP(mod)
{
	if (geteuid())
		SETUP_SKIP("needs root");
	if (access("/sys/module/arc4dev", F_OK))
		SETUP_SKIP("arc4dev not loaded");
	self->loaded = 1;
}

FIXTURE_TEARDOWN(mod)
{
	/* Leave the module loaded for whatever runs next. */
	if (self->loaded && access("/sys/module/arc4dev", F_OK))
		run("modprobe arc4dev");
}

TEST_F(mod, device_node_is_a_world_readable_misc_device)
{
	struct stat st;

	ASSERT_EQ(0, stat(ARC4_DEV, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0666, st.st_mode & 0777);
	EXPECT_EQ(10, major(st.st_rdev)) TH_LOG("misc devices are major 10");
}

TEST_F(mod, rmmod_is_refused_while_a_file_is_open)
{
	int fd = arc4_open(0), fd2;
	uint8_t buf[16];

	ASSERT_LE(0, fd);
	EXPECT_EQ(1, module_refcnt());
	EXPECT_NE(0, run("rmmod arc4dev 2>/dev/null"));
	EXPECT_EQ(0, access("/sys/module/arc4dev", F_OK));
	/* The open file still works after the refused unload. */
	EXPECT_EQ(16, read(fd, buf, sizeof(buf)));
	/* A dup'd or forked descriptor is the same file: still one ref. */
	fd2 = dup(fd);
	EXPECT_EQ(1, module_refcnt());
	close(fd2);
	close(fd);
	EXPECT_EQ(0, module_refcnt());
	ASSERT_EQ(0, run("rmmod arc4dev"));
	EXPECT_NE(0, access(ARC4_DEV, F_OK)) TH_LOG("node outlived module");
	ASSERT_EQ(0, run("modprobe arc4dev"));
	fd = arc4_open(0);
	ASSERT_LE(0, fd) TH_LOG("reopen after reload: %s", strerror(errno));
	EXPECT_EQ(16, read(fd, buf, sizeof(buf)));
	close(fd);
}

TEST_F(mod, many_open_files_and_reload_cycles)
{
	enum { FILES = 1000, CYCLES = 5 };
	static int fds[FILES];
	uint8_t buf[32];
	int c, i;

	for (c = 0; c < CYCLES; c++) {
		for (i = 0; i < FILES; i++) {
			fds[i] = arc4_open(0);
			ASSERT_LE(0, fds[i]) TH_LOG("open %d: %s", i,
						     strerror(errno));
			ASSERT_EQ(32, read(fds[i], buf, sizeof(buf)));
		}
		EXPECT_EQ(FILES, module_refcnt());
		for (i = 0; i < FILES; i++)
			close(fds[i]);
		ASSERT_EQ(0, run("rmmod arc4dev"));
		ASSERT_EQ(0, run("modprobe arc4dev"));
	}
}

/*
 * A large read borrows its CPU's buffer and leaves it there; unload
 * frees every CPU's.  Each cycle fills the slot of every CPU, so a
 * module that kept them would lose CPUs * CYCLES buffers of 4 KiB.
 */
TEST_F_TIMEOUT(mod, unload_frees_every_cpus_read_buffer, 240)
{
	enum { CYCLES = 24 };
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), c, cpu;
	static uint8_t buf[65536];
	long before, after;

	before = kmalloc_4k_objects();
	ASSERT_LE(0, before) TH_LOG("no kmalloc-4k in /proc/slabinfo");
	for (c = 0; c < CYCLES; c++) {
		for (cpu = 0; cpu < cpus; cpu++) {
			int fd = arc4_open(0);

			ASSERT_LE(0, fd);
			ASSERT_EQ(0, pin_cpu(cpu));
			ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
			close(fd);
		}
		ASSERT_EQ(0, run("rmmod arc4dev"));
		ASSERT_EQ(0, run("modprobe arc4dev"));
	}
	after = kmalloc_4k_objects();
	EXPECT_GT(CYCLES * cpus / 2, after - before)
		TH_LOG("%ld more 4 KiB objects after %d reloads of %d CPUs",
		       after - before, CYCLES, cpus);
}

struct parked {
	int fd;
	uint8_t *dst;
	size_t len;
	ssize_t got;
};

/* A read on CPU 0 into memory that userfaultfd holds back. */
static void *parked_read(void *arg)
{
	struct parked *p = arg;

	p->got = pin_cpu(0) ? -1 : read(p->fd, p->dst, p->len);
	return NULL;
}

/*
 * A large read that waits for a page of its destination keeps its CPU's
 * buffer the while; a read on that CPU meanwhile allocates one and puts
 * it in the slot.  The first read, resumed, finds the slot full and frees
 * its buffer.  userfaultfd parks the first read inside its copy, so
 * every round makes one such buffer: kept, they would add up.
 */
TEST_F_TIMEOUT(mod, a_buffer_brought_back_to_a_full_slot_is_freed, 240)
{
	enum { ROUNDS = 32 };
	struct uffdio_api api = { .api = UFFD_API };
	long page = getpagesize(), before, after;
	static uint8_t other[16384];
	int uffd, fd, fd2, i;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0 && (errno == ENOSYS || errno == EPERM))
		SKIP(return, "no userfaultfd here (%s)", strerror(errno));
	ASSERT_LE(0, uffd) TH_LOG("userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	fd = arc4_open(0);
	fd2 = arc4_open(0);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, pin_cpu(0));
	memset(other, 1, sizeof(other));
	before = kmalloc_4k_objects();
	ASSERT_LE(0, before) TH_LOG("no kmalloc-4k in /proc/slabinfo");
	for (i = 0; i < ROUNDS; i++) {
		struct parked p = { .fd = fd, .len = 4 * page };
		struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
		struct uffdio_zeropage zero = { 0 };
		struct pollfd pfd = { .fd = uffd, .events = POLLIN };
		struct uffd_msg msg;
		pthread_t t;

		p.dst = mmap(NULL, p.len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p.dst);
		reg.range.start = (uintptr_t)p.dst;
		reg.range.len = p.len;
		ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
		ASSERT_EQ(0, pthread_create(&t, NULL, parked_read, &p));
		/* The first read waits in its copy, holding CPU 0's buffer. */
		ASSERT_EQ(1, poll(&pfd, 1, 30000 * test_time_scale()));
		ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
		ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
		ASSERT_EQ(sizeof(other), read(fd2, other, sizeof(other)));
		zero.range = reg.range;
		ASSERT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
		pthread_join(t, NULL);
		ASSERT_EQ((ssize_t)p.len, p.got);
		munmap(p.dst, p.len);
	}
	after = kmalloc_4k_objects();
	EXPECT_GT(ROUNDS / 2, after - before)
		TH_LOG("%ld more 4 KiB objects after %d reads that came back to a full slot",
		       after - before, ROUNDS);
	close(fd);
	close(fd2);
	close(uffd);
}

/* The physical page behind addr (root reads PFNs in pagemap); 0 if none. */
static uint64_t mapped_pfn(const void *addr)
{
	long page = getpagesize();
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), (uintptr_t)addr / page * sizeof(ent)) !=
	    sizeof(ent))
		ent = 0;
	close(fd);
	return ent >> 63 ? ent & ((1ULL << 55) - 1) : 0;
}

/*
 * page_owner's record of pfn into buf: 1 while the page is allocated, 0
 * once it is free (the file lists allocated pages only), -1 if the file
 * cannot be read.  A file offset other than 0 is a PFN, and each read()
 * returns one record: that of the first allocated page at or after it.
 */
static int page_owner_record(int fd, uint64_t pfn, char *buf, size_t size)
{
	const char *at;
	ssize_t n;

	if (!pfn || lseek(fd, pfn, SEEK_SET) != (off_t)pfn)
		return -1;
	n = read(fd, buf, size - 1);
	if (n <= 0)
		return n ? -1 : 0;
	buf[n] = '\0';
	at = strstr(buf, "\nPFN ");
	if (!at)
		return -1;
	return strtoull(at + 5, NULL, 0) == pfn;
}

/*
 * 1 if the running kernel was built with page_owner, 0 if not, -1 if
 * kallsyms (root reads it) cannot tell: it names no start_kernel (a
 * kernel without CONFIG_KALLSYMS) or could not be read.
 */
static int kernel_has_page_owner(void)
{
	if (run("grep -q ' read_page_owner$' /proc/kallsyms") == 0)
		return 1;
	return run("grep -q ' [Tt] start_kernel$' /proc/kallsyms") == 0 ? 0 : -1;
}

/*
 * Unload gives the generation page back.  kmemleak sees no page that
 * alloc_page() handed out; page_owner (the debug kernel boots with
 * page_owner=on) does: its record of the page the mapping showed names
 * the module while loaded, and after rmmod the page is free or someone
 * else's (another allocation, another timestamp in the record's first
 * line).
 */
TEST_F(mod, unload_frees_the_generation_page)
{
	static char before[16384], after[16384];
	uint64_t pfn;
	void *gen;
	int po, fd, r;

	r = kernel_has_page_owner();
	ASSERT_LE(0, r) TH_LOG("/proc/kallsyms names no symbols: page_owner's presence unknown");
	if (!r)
		SKIP(return, "a kernel without CONFIG_PAGE_OWNER (the debug kernel has it)");
	ASSERT_EQ(0, debugfs_mount()) TH_LOG("mounting debugfs: %s", strerror(errno));
	po = open(ARC4_DEBUGFS "/page_owner", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, po) TH_LOG("page_owner: %s (a kernel with it needs page_owner=on)",
				strerror(errno));
	ASSERT_EQ(0, run("rmmod arc4dev && modprobe arc4dev"));
	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	gen = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, gen) TH_LOG("mmap: %s", strerror(errno));
	(void)*(volatile char *)gen;	/* fault it in */
	pfn = mapped_pfn(gen);
	ASSERT_NE(0, pfn) TH_LOG("no PFN for the generation page in pagemap");
	r = page_owner_record(po, pfn, before, sizeof(before));
	ASSERT_EQ(1, r) TH_LOG("page_owner has no record of PFN %#" PRIx64, pfn);
	ASSERT_NE(NULL, strstr(before, "[arc4dev]"))
		TH_LOG("the page's record does not name the module:\n%s", before);
	munmap(gen, getpagesize());
	close(fd);
	ASSERT_EQ(0, run("rmmod arc4dev"));
	r = page_owner_record(po, pfn, after, sizeof(after));
	ASSERT_LE(0, r);
	EXPECT_FALSE(r == 1 && !strncmp(before, after, strcspn(before, "\n") + 1))
		TH_LOG("the generation page outlived the module:\n%s", after);
	close(po);
}

/*
 * The budgets' defaults are part of the contract (arc4(4)): a
 * freshly loaded module rekeys after 1600000 bytes, as OpenBSD's
 * arc4random, or 60 seconds.
 */
TEST_F(mod, parameters_have_their_documented_defaults)
{
	char buf[32];

	ASSERT_EQ(0, run("rmmod arc4dev && modprobe arc4dev"));
	ASSERT_LT(0, read_text("/sys/module/arc4dev/parameters/rekey_bytes",
			       buf, sizeof(buf)));
	EXPECT_EQ(1600000, strtol(buf, NULL, 10)) TH_LOG("rekey_bytes %s", buf);
	ASSERT_LT(0, read_text("/sys/module/arc4dev/parameters/rekey_seconds",
			       buf, sizeof(buf)));
	EXPECT_EQ(60, strtol(buf, NULL, 10)) TH_LOG("rekey_seconds %s", buf);
}

TEST_F(mod, modprobe_loads_the_chacha_dependency)
{
	EXPECT_EQ(0, access("/sys/module/libchacha", F_OK));
	EXPECT_EQ(0, run("grep -q '^arc4dev ' /proc/modules"));
	EXPECT_EQ(0, run("modinfo -F parm arc4dev | grep -q rekey_bytes"));
}

TEST_HARNESS_MAIN
