// SPDX-License-Identifier: GPL-2.0
/*
 * The generation page: a read-only shared mmap() of /dev/arc4 at offset 0,
 * at most one page, shows a struct arc4_generation (a non-zero counter,
 * reserved words zero), the same page for every open file, in either mode,
 * outliving its descriptor, surviving MADV_DONTNEED, readable through
 * /proc/self/mem.  Every other mapping fails cleanly and none can be
 * widened afterwards; a READ_IMPLIES_EXEC process gets it without exec.  A hibernation (run without an image,
 * pm_cycle.h) moves the counter by one and rekeys every strong stream;
 * deterministic streams go on.  That the counter moves on a VM fork is
 * checked by scripts/vmfork-test (selftests/stress/vmfork.c).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arc4_test.h"
#include "pm_cycle.h"

static long page;

FIXTURE(gen) {
	int fd;
};

FIXTURE_SETUP(gen)
{
	page = sysconf(_SC_PAGESIZE);
	self->fd = arc4_open(0);
	if (self->fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
}

FIXTURE_TEARDOWN(gen)
{
	if (self->fd >= 0)
		close(self->fd);
}

static const struct arc4_generation *map_gen(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* mmap(len, prot, flags, off) fails with err and maps nothing. */
static void expect_refused(struct __test_metadata *_metadata, int fd,
			   size_t len, int prot, int flags, off_t off, int err)
{
	void *p;

	errno = 0;
	p = mmap(NULL, len, prot, flags, fd, off);
	EXPECT_EQ(MAP_FAILED, p)
		TH_LOG("len %zu prot %#x flags %#x off %lld was mapped",
		       len, prot, flags, (long long)off);
	EXPECT_EQ(err, errno)
		TH_LOG("len %zu prot %#x flags %#x off %lld: %s", len, prot,
		       flags, (long long)off, strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, len);
}

TEST_F(gen, a_shared_read_only_mapping_shows_a_nonzero_generation)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	size_t i;

	ASSERT_NE(NULL, g) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_NE(0, g->generation);
	for (i = 0; i < 7; i++)
		EXPECT_EQ(0, g->reserved[i]) TH_LOG("reserved[%zu]", i);
	EXPECT_EQ(0, munmap((void *)g, page));
}

TEST_F(gen, a_mapping_shorter_than_a_page_works)
{
	const struct arc4_generation *g = map_gen(self->fd, sizeof(*g));

	ASSERT_NE(NULL, g) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_NE(0, g->generation);
	EXPECT_EQ(0, munmap((void *)g, sizeof(*g)));
}

TEST_F(gen, every_open_file_and_mode_maps_the_same_page)
{
	uint8_t key[32] = { 1 };
	const struct arc4_generation *a, *b;
	int other = arc4_open(0);

	ASSERT_LE(0, other);
	ASSERT_EQ(0, arc4_seed(other, key, 7));
	a = map_gen(self->fd, page);
	b = map_gen(other, page);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b) TH_LOG("a deterministic descriptor: %s",
				  strerror(errno));
	EXPECT_EQ(a->generation, b->generation);
	/* One page: the kernel's, under both addresses. */
	EXPECT_NE((const void *)a, (const void *)b);
	close(other);
	munmap((void *)a, page);
	munmap((void *)b, page);
}

TEST_F(gen, the_mapping_outlives_its_descriptor)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	uint64_t before;

	ASSERT_NE(NULL, g);
	before = g->generation;
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	EXPECT_EQ(before, g->generation);
	EXPECT_EQ(0, munmap((void *)g, page));
}

TEST_F(gen, other_mappings_fail_cleanly)
{
	int rw = open(ARC4_DEV, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, rw);
	/* Beyond the page: another offset, a longer length. */
	expect_refused(_metadata, self->fd, page, PROT_READ, MAP_SHARED, page,
		       EINVAL);
	expect_refused(_metadata, self->fd, 2 * page, PROT_READ, MAP_SHARED,
		       0, EINVAL);
	/* Private: a copy of the page would stop following it. */
	expect_refused(_metadata, self->fd, page, PROT_READ, MAP_PRIVATE, 0,
		       EINVAL);
	expect_refused(_metadata, rw, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE, 0, EINVAL);
	/* Writable or executable, even from a descriptor open for writing. */
	expect_refused(_metadata, rw, page, PROT_READ | PROT_WRITE,
		       MAP_SHARED, 0, EACCES);
	expect_refused(_metadata, self->fd, page, PROT_READ | PROT_EXEC,
		       MAP_SHARED, 0, EACCES);
	close(rw);
}

TEST_F(gen, a_mapping_cannot_be_widened)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	void *p;

	ASSERT_NE(NULL, g);
	errno = 0;
	EXPECT_EQ(-1, mprotect((void *)g, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	errno = 0;
	EXPECT_EQ(-1, mprotect((void *)g, page, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	/* Growing it would map what is not the page. */
	p = mremap((void *)g, page, 2 * page, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, p);
	if (p != MAP_FAILED)
		g = p;
	EXPECT_NE(0, g->generation);
	munmap((void *)g, page);
}

/* What lies past the struct in the page reads as zeroes, never a fault. */
TEST_F(gen, the_rest_of_the_page_is_zero)
{
	const uint8_t *p = (const void *)map_gen(self->fd, page);
	long i;

	ASSERT_NE(NULL, p);
	for (i = sizeof(struct arc4_generation); i < page; i++)
		if (p[i] != 0)
			break;
	EXPECT_EQ(page, i) TH_LOG("byte %ld is %#x", i, p[i]);
	munmap((void *)p, page);
}

/*
 * Run fn(arg) in a child: a fault there (SIGBUS, SIGSEGV) must not take
 * the test down with it.  Return the child's wait status.
 */
static int in_child(int (*fn)(const void *), const void *arg)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static int read_generation(const void *p)
{
	const struct arc4_generation *g = p;

	return g->generation ? 0 : 1;
}

#define EXPECT_CHILD_OK(status) do {					\
	int _s = (status);						\
	EXPECT_TRUE(WIFEXITED(_s) && WEXITSTATUS(_s) == 0)		\
		TH_LOG("child: %s %d", WIFSIGNALED(_s) ? "signal" :	\
		       "exit status", WIFSIGNALED(_s) ? WTERMSIG(_s) :	\
		       WEXITSTATUS(_s));				\
} while (0)

/*
 * Allocators, sandboxes and checkpoint tools MADV_DONTNEED ranges they
 * walk: the page's entry goes, and the next read maps the page again.
 */
TEST_F(gen, a_mapping_reads_again_after_madv_dontneed)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	uint64_t before;

	ASSERT_NE(NULL, g);
	before = g->generation;
	ASSERT_EQ(0, madvise((void *)g, page, MADV_DONTNEED))
		TH_LOG("madvise: %s", strerror(errno));
	EXPECT_CHILD_OK(in_child(read_generation, g));
	EXPECT_EQ(before, g->generation);
	/* Twice, and in a child that inherited the mapping without its entry. */
	ASSERT_EQ(0, madvise((void *)g, page, MADV_DONTNEED));
	EXPECT_CHILD_OK(in_child(read_generation, g));
	EXPECT_EQ(before, g->generation);
	munmap((void *)g, page);
}

/* pread() of /proc/self/mem at the page: 0 bytes, or the page's. */
static ssize_t read_proc_mem(const void *addr, void *buf, size_t len)
{
	int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)(uintptr_t)addr);
	close(fd);
	return n;
}

/* Debuggers and checkpoint tools read a process's memory this way. */
TEST_F(gen, the_page_reads_through_proc_pid_mem)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	struct arc4_generation got;

	ASSERT_NE(NULL, g);
	memset(&got, 0xa5, sizeof(got));
	ASSERT_EQ((ssize_t)sizeof(got), read_proc_mem(g, &got, sizeof(got)))
		TH_LOG("/proc/self/mem: %s", strerror(errno));
	EXPECT_EQ(0, memcmp(&got, g, sizeof(got)));
	/* Also when no entry maps it: the read maps it. */
	ASSERT_EQ(0, madvise((void *)g, page, MADV_DONTNEED));
	memset(&got, 0xa5, sizeof(got));
	ASSERT_EQ((ssize_t)sizeof(got), read_proc_mem(g, &got, sizeof(got)))
		TH_LOG("/proc/self/mem after MADV_DONTNEED: %s",
		       strerror(errno));
	EXPECT_NE(0, got.generation);
	EXPECT_EQ(0, memcmp(&got, g, sizeof(got)));
	munmap((void *)g, page);
}

/* ptrace's forced access cannot write the page either. */
TEST_F(gen, proc_pid_mem_cannot_write_the_page)
{
	const struct arc4_generation *g = map_gen(self->fd, page);
	uint64_t before, v = 0;
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	ssize_t n;

	ASSERT_NE(NULL, g);
	ASSERT_LE(0, fd);
	before = g->generation;
	errno = 0;
	n = pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)g);
	EXPECT_EQ(-1, n) TH_LOG("the write returned %zd", n);
	EXPECT_EQ(before, g->generation);
	close(fd);
	munmap((void *)g, page);
}

/*
 * Under READ_IMPLIES_EXEC (setarch -X, old i386 binaries) the kernel adds
 * PROT_EXEC to every PROT_READ mapping: the page is mapped without it,
 * and PROT_EXEC without PROT_READ (which the personality never adds) is
 * still refused.  Exit status: 0 mapped, read-only and not executable; else which check
 * failed.
 */
static int map_read_implies_exec(const void *arg)
{
	int fd = *(const int *)arg;
	const struct arc4_generation *g;
	char line[512], perms[8] = "";
	unsigned long lo, hi;
	FILE *maps;
	void *p;

	if (personality(READ_IMPLIES_EXEC) == -1)
		return 10;
	if (!(personality(0xffffffff) & READ_IMPLIES_EXEC))
		return 11;
	g = map_gen(fd, page);
	if (!g)
		return errno == EACCES ? 12 : 13;
	if (!g->generation)
		return 14;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return 15;
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    lo == (uintptr_t)g)
			break;
	fclose(maps);
	if (strcmp(perms, "r--s"))
		return 16;
	/* Still never writable, from a descriptor open for writing too. */
	fd = open(ARC4_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 17;
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED || errno != EACCES)
		return 18;
	/* The personality adds exec to read only: exec alone is asked for. */
	p = mmap(NULL, page, PROT_EXEC, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED || errno != EACCES)
		return 19;
	return 0;
}

TEST_F(gen, read_implies_exec_maps_the_page_without_exec)
{
	EXPECT_CHILD_OK(in_child(map_read_implies_exec, &self->fd));
}

TEST_F(gen, a_hibernation_moves_the_generation_and_rekeys_strong_streams)
{
	const char *lack = pm_hibernation_lack();
	const struct arc4_generation *g;
	uint8_t key[32], b[16], got[100], want[100];
	struct arc4_info info;
	uint64_t g0, r0;
	int det;

	if (lack)
		SKIP(return, "%s", lack);
	g = map_gen(self->fd, page);
	det = arc4_open(0);
	ASSERT_NE(NULL, g);
	ASSERT_LE(0, det);
	random_fill(key, sizeof(key));
	ASSERT_EQ(0, arc4_seed(det, key, 5));
	ASSERT_EQ(50, read(det, got, 50));
	ASSERT_EQ(16, read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	r0 = info.reseeds;
	g0 = g->generation;

	ASSERT_EQ(0, pm_hibernation_cycle())
		TH_LOG("hibernation test cycle: %s (root, CONFIG_PM_DEBUG)",
		       strerror(errno));
	EXPECT_EQ(g0 + 1, g->generation);
	ASSERT_EQ(16, read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, arc4_info(self->fd, &info));
	EXPECT_EQ(r0 + 1, info.reseeds) TH_LOG("the strong stream did not rekey once");
	EXPECT_EQ(16, info.bytes_since_reseed);
	/* The deterministic stream did not notice. */
	ASSERT_EQ(50, read(det, got + 50, 50));
	ASSERT_EQ(0, ref_keystream(key, 5, 0, want, sizeof(want)));
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)));
	close(det);
	munmap((void *)g, page);
}

TEST_HARNESS_MAIN
