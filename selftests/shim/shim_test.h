/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the shim selftests: where things are, running the
 * reference program, in-process scenarios, chi-square limits.
 */
#ifndef SHIM_TEST_H
#define SHIM_TEST_H

#include <dirent.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "scenarios.h"
#include "../harness_scale.h"

/* Directory of the test binaries: <top>/build/selftests/shim. */
static inline const char *test_dir(void)
{
	static char dir[PATH_MAX];

	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);

		if (n < 0)
			return ".";
		dir[n] = 0;
		dirname(dir);
	}
	return dir;
}

/* The repository: three levels above test_dir(). */
static inline const char *top_dir(void)
{
	static char top[PATH_MAX];

	if (!top[0]) {
		char up[PATH_MAX + 16];

		snprintf(up, sizeof(up), "%s/../../..", test_dir());
		if (!realpath(up, top))
			return "../../..";
	}
	return top;
}

static inline int have_device(void)
{
	return access("/dev/arc4", F_OK) == 0;
}

/*
 * Whether the shim keeps per-thread buffers here: not where /dev/arc4 is
 * missing and the libc's getrandom() is VM-fork safe by itself (glibc
 * 2.41 and later), where every value comes from that getrandom().
 */
static inline int shim_buffers(void)
{
	return have_device() || strverscmp(gnu_get_libc_version(), "2.41") < 0;
}

/*
 * Under valgrind (make test-sanitize), which preloads its own libraries:
 * it runs our children too, and neither keeps MADV_WIPEONFORK nor counts
 * system calls or time as the tests that look at buffers expect.
 */
static inline int under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "/vgpreload_");
}

/* Run cmd with sh; its stdout in *out (malloc'd); its exit status. */
static inline int run_capture(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int st;

	if (!p || !buf) {
		free(buf);
		*out = NULL;
		return -1;
	}
	for (;;) {
		size_t n = fread(buf + len, 1, cap - len - 1, p);

		len += n;
		if (n == 0)
			break;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	*out = buf;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Run a program from test_dir() with a clean environment for the shim
 * (no LD_PRELOAD, no ARC4_LEGACY) plus env, e.g. "ARC4_LEGACY=1".
 */
static inline int run_prog(const char *env, const char *prog,
			   const char *args, char **out)
{
	char cmd[PATH_MAX * 3];

	snprintf(cmd, sizeof(cmd),
		 "env -u LD_PRELOAD -u ARC4_LEGACY %s '%s/%s' %s", env,
		 test_dir(), prog, args);
	return run_capture(cmd, out);
}

/*
 * "LD_PRELOAD=first" in buf, for a child whose preload a test sets:
 * followed by this process's own coverage-exit.so if it has one preloaded
 * (scripts/coverage), so that the child still writes the shim's counters
 * when it ends in _exit() or abort().  Nothing else of the caller's
 * preload is kept (valgrind's would follow the child out of valgrind).
 */
static inline const char *preload_env_with(char *buf, size_t size,
					   const char *first)
{
	const char *p = getenv("LD_PRELOAD"), *end;
	static const char keep[] = "/coverage-exit.so";

	snprintf(buf, size, "LD_PRELOAD=%s", first);
	for (; p && *p; p = end) {
		size_t n;

		p += strspn(p, " :");
		end = p + strcspn(p, " :");
		n = end - p;
		if (n > sizeof(keep) - 1 &&
		    !memcmp(end - (sizeof(keep) - 1), keep, sizeof(keep) - 1))
			snprintf(buf + strlen(buf), size - strlen(buf), " %.*s",
				 (int)n, p);
	}
	return buf;
}

/* Path of the shared library under test. */
static inline const char *libarc4_so(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/lib/libarc4.so", top_dir());
	return path;
}

/* Run a scenario in this process (the shim's), output malloc'd. */
static inline char *scenario_here(const char *args)
{
	char *copy = strdup(args), *argv[16], *tok, *save, *buf = NULL;
	size_t len = 0;
	int argc = 0;
	FILE *f;

	for (tok = strtok_r(copy, " ", &save); tok && argc < 16;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	f = open_memstream(&buf, &len);
	if (scenario(f, argc, argv) != 0) {
		fclose(f);
		free(buf);
		free(copy);
		return NULL;
	}
	fclose(f);
	free(copy);
	return buf;
}

#ifdef __KSELFTEST_HARNESS_H
/* In a TEST(): scenario args prints the same here as under plain glibc. */
static inline void expect_same_as_glibc(struct __test_metadata *_metadata,
					const char *args)
{
	char *glibc, *here = scenario_here(args);

	ASSERT_EQ(0, run_prog("", "ref", args, &glibc));
	ASSERT_TRUE(here != NULL);
	EXPECT_STREQ(glibc, here) TH_LOG("scenario '%s'", args);
	free(glibc);
	free(here);
}
#endif

/* Lines of text starting with tag, joined (malloc'd). */
static inline char *lines_tagged(const char *text, const char *tag)
{
	char *out = calloc(1, strlen(text) + 1), *o = out;
	const char *l = text;
	size_t tl = strlen(tag);

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);

		if (!strncmp(l, tag, tl) && l[tl] == ' ') {
			memcpy(o, l, n);
			o += n;
		}
		l += n;
	}
	return out;
}

/*
 * Upper limit of a chi-square statistic with df degrees of freedom that a
 * uniform source exceeds with probability about 1e-6 (Wilson-Hilferty).
 */
static inline double chi2_limit(int df)
{
	const double z = 4.75;
	double t = 2.0 / (9.0 * df);

	return df * pow(1.0 - t + z * sqrt(t), 3);
}

static inline double chi2_stat(const uint64_t *obs, const double *expected,
			       int k)
{
	double s = 0;

	for (int i = 0; i < k; i++) {
		double d = obs[i] - expected[i];

		s += d * d / expected[i];
	}
	return s;
}

/* Chi-square of a byte histogram of buf against uniform. */
static inline double chi2_bytes(const uint8_t *buf, size_t len)
{
	uint64_t obs[256] = { 0 };
	double exp[256];

	for (size_t i = 0; i < len; i++)
		obs[buf[i]]++;
	for (int i = 0; i < 256; i++)
		exp[i] = len / 256.0;
	return chi2_stat(obs, exp, 256);
}

/*
 * chroot() into a fresh empty directory (no /dev), removed again at once
 * so nothing is left behind.  0 on success, -1 if not root or failed.
 */
static inline int enter_empty_root(void)
{
	char dir[] = "/tmp/arc4-chroot-XXXXXX";
	int parent;

	if (geteuid() != 0 || !mkdtemp(dir))
		return -1;
	parent = open("/tmp", O_RDONLY | O_DIRECTORY);
	if (chroot(dir) != 0 || chdir("/") != 0) {
		rmdir(dir);
		return -1;
	}
	if (parent >= 0) {
		unlinkat(parent, dir + 5, AT_REMOVEDIR);
		close(parent);
	}
	return 0;
}

/*
 * A thread's first few strong values come straight from getrandom(); one
 * that has drawn this many has its buffer.
 */
enum { SHIM_BUFFERED_AFTER = 64 };

static inline void draw_until_buffered(void)
{
	for (int i = 0; i < SHIM_BUFFERED_AFTER; i++)
		(void)arc4random();
}

/*
 * This process's wipe-on-fork mappings, from /proc/self/smaps: their
 * bytes in all; in *units (if given) how many 16 KiB each holds, summed
 * (the shim's per-thread buffers; the lock's token page holds none); in
 * *buffer (if given) the start of a 16 KiB one, or NULL.
 */
static inline unsigned long wipeonfork_maps(int *units, void **buffer)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long s = 0, e = 0, bytes = 0;
	char line[512];

	if (units)
		*units = 0;
	if (buffer)
		*buffer = NULL;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			s = a;
			e = b;
		} else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " wf")) {
			bytes += e - s;
			if (units)
				*units += (e - s) / 16384;
			if (buffer && e - s == 16384)
				*buffer = (void *)s;
		}
	}
	if (f)
		fclose(f);
	return bytes;
}

/* 16 KiB units of wipe-on-fork mappings: the shim's per-thread buffers. */
static inline int count_wipeonfork_maps(void)
{
	int n;

	wipeonfork_maps(&n, NULL);
	return n;
}

/*
 * BPF: let other architectures through, then load the syscall number.
 * The architecture is this program's own: a 32-bit x86 build's system
 * calls arrive as AUDIT_ARCH_I386, with i386 numbers; an arm64 build's as
 * AUDIT_ARCH_AARCH64.
 */
#if defined(__i386__)
#define SHIM_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define SHIM_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#define SHIM_AUDIT_ARCH AUDIT_ARCH_X86_64
#endif

/*
 * The fork system call, without glibc's fork() and its handlers: arm64 has
 * no fork system call, only clone(), which with SIGCHLD alone is fork.
 */
#ifdef SYS_fork
#define shim_sys_fork() syscall(SYS_fork)
#else
#define shim_sys_fork() syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0)
#endif
#define BPF_X86_64_SYSCALL_NR						\
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,				\
		 offsetof(struct seccomp_data, arch)),			\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SHIM_AUDIT_ARCH, 1, 0),	\
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),			\
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,				\
		 offsetof(struct seccomp_data, nr))

/*
 * Whether seccomp(2) filters can be installed here: a kernel without
 * CONFIG_SECCOMP_FILTER, or valgrind, which does not emulate the call,
 * answers ENOSYS.  The tests that need a filter SKIP without one.
 */
static inline int have_seccomp(void)
{
	unsigned int action = SECCOMP_RET_ERRNO;

	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

/* Install a seccomp filter on this thread: what seccomp(2) returns. */
static inline int seccomp_install(struct sock_filter *f, unsigned short len,
				  unsigned int flags)
{
	struct sock_fprog prog = { .len = len, .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* Refuse getrandom() with errno err; everything else allowed. */
static inline int refuse_getrandom(int err)
{
	struct sock_filter f[] = {
		BPF_X86_64_SYSCALL_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getrandom, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	char b;

	if (seccomp_install(f, sizeof(f) / sizeof(f[0]), 0) != 0)
		return -1;
	/*
	 * The filter works: the system call now fails with err.  (Not glibc's
	 * getrandom(): from 2.41 it answers from the vDSO in a process that
	 * used it before the filter, without a system call.)
	 */
	return syscall(SYS_getrandom, &b, 1, 0) == -1 && errno == err ? 0 : -1;
}

/*
 * From here on this process sees an empty tmpfs at /dev, holding only a
 * node /dev/arc4 for device rdev if rdev is not 0.  -1 if not root.
 */
static inline int private_dev(dev_t rdev)
{
	if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("tmpfs", "/dev", "tmpfs", 0, "mode=755") != 0)
		return -1;
	if (rdev && mknod("/dev/arc4", S_IFCHR | 0666, rdev) != 0)
		return -1;
	return 0;
}

/* How many descriptors above 2 this process has open; -1 if unknown. */
static inline int fds_above_stdio(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += atoi(e->d_name) > 2 && atoi(e->d_name) != dirfd(d);
	if (d)
		closedir(d);
	return d ? n : -1;
}

#endif /* SHIM_TEST_H */
