// SPDX-License-Identifier: GPL-2.0
/*
 * A stream's memory is charged to the memory cgroup of the process that
 * opened it, so what a user's open files hold in the kernel is bounded by
 * that cgroup's memory.max, not only by RLIMIT_NOFILE (which the user can
 * raise to the hard limit, and multiply by forking).
 *
 * The test moves itself into a cgroup v2 of its own and compares what N
 * opens of /dev/arc4 add to its memory.current with what N opens of
 * /dev/null add: the struct file is charged in both, so the difference is
 * the stream.  Needs root (the VM runs it as root); SKIP otherwise.
 *
 * memory.current moves in batches: a CPU charges 64 pages at a time and
 * keeps what it has not used yet.  Pinned to one CPU, each of the two
 * differences is off by at most one batch, 256 KiB, which over NOPENS
 * opens is 16 bytes an open.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

enum { NOPENS = 16384 };

FIXTURE(memcg) {
	char mnt[64];		/* a cgroup2 mount of our own */
	char cg[128];		/* the test's cgroup under it */
	int mounted;
	int joined;
	int *fds;
	int nfds;
};

static long long memory_current(const char *cg)
{
	char path[192], buf[32];

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

FIXTURE_SETUP(memcg)
{
	struct rlimit rl = { 2 * NOPENS + 64, 2 * NOPENS + 64 };
	char path[192], pid[32];
	int fd;

	self->fds = NULL;
	self->nfds = 0;
	self->mounted = 0;
	self->joined = 0;
	fd = arc4_open(0);
	if (fd < 0)
		SETUP_SKIP(ARC4_DEV " not available: %s", strerror(errno));
	close(fd);
	if (geteuid() != 0)
		SETUP_SKIP("needs root for a cgroup of its own");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	self->fds = calloc(2 * NOPENS, sizeof(*self->fds));
	ASSERT_NE(NULL, self->fds);
	memset(self->fds, -1, 2 * NOPENS * sizeof(*self->fds));
	ASSERT_EQ(0, pin_cpu(sched_getcpu()));
	strcpy(self->mnt, "/tmp/arc4-memcg.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->mnt));
	if (mount("cgroup2", self->mnt, "cgroup2", 0, NULL))
		SETUP_SKIP("cannot mount cgroup2: %s", strerror(errno));
	self->mounted = 1;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", self->mnt);
	if (write_file(path, "+memory")) {
		umount(self->mnt);
		rmdir(self->mnt);
		SETUP_SKIP("no memory controller: %s", strerror(errno));
	}
	snprintf(self->cg, sizeof(self->cg), "%s/arc4-memcg-%d", self->mnt,
		 getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755));
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	ASSERT_EQ(0, write_file(path, pid));
	self->joined = 1;
}

FIXTURE_TEARDOWN(memcg)
{
	char path[192], pid[32];

	while (self->nfds > 0)
		close(self->fds[--self->nfds]);
	free(self->fds);
	if (self->joined) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", self->mnt);
		snprintf(pid, sizeof(pid), "%d", getpid());
		write_file(path, pid);
		rmdir(self->cg);
	}
	if (self->mounted)
		umount(self->mnt);
	rmdir(self->mnt);
}

TEST_F(memcg, a_stream_is_charged_to_the_openers_memory_cgroup)
{
	long long before, with_files, with_streams, file_cost, stream_cost;
	int i, fd;

	/*
	 * Grow the descriptor table and warm the lookups first, so that the
	 * two measured runs of opens allocate the same things but the stream.
	 */
	ASSERT_LE(0, dup2(0, 2 * NOPENS + 32));
	close(2 * NOPENS + 32);
	fd = arc4_open(0);
	ASSERT_LE(0, fd);
	close(fd);
	before = memory_current(self->cg);
	ASSERT_LT(0, before);
	for (i = 0; i < NOPENS; i++) {
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		self->fds[self->nfds++] = fd;
	}
	with_files = memory_current(self->cg);
	for (i = 0; i < NOPENS; i++) {
		fd = arc4_open(0);
		ASSERT_LE(0, fd) TH_LOG("open #%d: %s", i, strerror(errno));
		self->fds[self->nfds++] = fd;
	}
	with_streams = memory_current(self->cg);
	file_cost = (with_files - before) / NOPENS;
	stream_cost = (with_streams - with_files) / NOPENS - file_cost;
	TH_LOG("memory.current: %lld, +%d /dev/null %lld, +%d /dev/arc4 %lld",
	       before, NOPENS, with_files, NOPENS, with_streams);
	TH_LOG("per open: /dev/null %lld bytes, a stream %lld bytes more",
	       file_cost, stream_cost);
	/* A stream holds a 32-byte key and more; less is noise. */
	EXPECT_LE(64, stream_cost) TH_LOG("streams are not charged");
	EXPECT_GE(4096, stream_cost);
}

TEST_HARNESS_MAIN
