// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The administrator's policy: $(SYSCONFDIR)/arc4/legacy.conf lists the
 * executables that keep glibc's deterministic rand families, as under
 * ARC4_LEGACY=1.  One absolute path a line; blank lines and `#` comments
 * are ignored.
 *
 * The file's path is fixed when the library is built (SYSCONFDIR, default
 * /etc): nothing in the environment can move it, so no user can point a
 * program at a list of their own.  It is trusted only when root owns it
 * and its directory, and neither is writable by group or others; then it
 * is honoured in set-user-ID programs too (arc4random(3) says why).  Both
 * checks are made on the objects read: the directory is opened and
 * checked, and the file opened from it (not through a symbolic link), so
 * a directory renamed into place between the two changes nothing.
 *
 * It is read once per process, at the first call of any family
 * (arc4_legacy_lookup() caches the answer), and only if one fstatat() of
 * its name, not following a link, finds something other than an empty
 * regular file: on most systems that one call is the whole lookup, and
 * /proc/self/exe is never read.  It is read with system calls alone: no
 * stdio, no malloc, nothing that can call back into the shim, and errno as
 * it was.  Its text goes to an anonymous mapping, not the stack: the
 * first call may come from a signal handler on a small alternate stack.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "shim.h"

#ifndef ARC4_SYSCONFDIR
#define ARC4_SYSCONFDIR "/etc"
#endif
#define POLICY_DIR	ARC4_SYSCONFDIR "/arc4"
#define POLICY_NAME	"legacy.conf"
#define POLICY_FILE	POLICY_DIR "/" POLICY_NAME

enum {
	POLICY_MAX = 1 << 20,	/* a larger file is not a list of programs */
	MAX_MESSAGES = 10,	/* then one line says there are more */
	SCRATCH = 2 * PATH_MAX,	/* the running executable, one line */
	EXE_MAX = PATH_MAX,	/* its path's room; the kernel's longest fits */
};

static const char deleted[] = " (deleted)";

/* One message on stderr, in one write(): "arc4: FILE[:LINE]: WHAT". */
static void complain(unsigned line, const char *what)
{
	char msg[sizeof(POLICY_FILE) + 160], num[12], *p = msg;
	int n = 0;

	p = stpcpy(stpcpy(p, "arc4: "), POLICY_FILE);
	if (line) {
		do
			num[n++] = '0' + line % 10;
		while ((line /= 10) && n < (int)sizeof(num));
		*p++ = ':';
		while (n > 0)
			*p++ = num[--n];
	}
	p = stpcpy(stpcpy(p, ": "), what);
	*p++ = '\n';
	if (write(2, msg, p - msg) < 0)
		return;		/* nowhere to say it */
}

/* Root's, and nobody else can change it. */
static int trusted(const struct stat *st)
{
	return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* fd moved off descriptors 0, 1 and 2 (close-on-exec); -1 stays -1. */
static int fd_high(int fd)
{
	int hi;

	if (fd < 0 || fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

/*
 * The running executable: /proc/self/exe's target (resolved, so symlinks
 * to the program do not matter), without the " (deleted)" the kernel adds
 * when the file was replaced since exec (a package upgrade), and its
 * inode.  0 if neither can be had (no /proc in a chroot): nothing matches.
 * A target that fills path[0..len) may have been cut short: no name is
 * taken from it (a line naming its first len bytes must not match), and
 * only the inode can match.
 */
static int self_exe(char *path, size_t len, struct stat *st, int *have_st)
{
	ssize_t n = readlink("/proc/self/exe", path, len);
	size_t dl = sizeof(deleted) - 1;

	*have_st = stat("/proc/self/exe", st) == 0;
	if (n <= 0 || (size_t)n >= len) {
		path[0] = '\0';
		return *have_st;
	}
	path[n] = '\0';
	if ((size_t)n > dl && strcmp(path + n - dl, deleted) == 0)
		path[n - dl] = '\0';
	return 1;
}

/*
 * Line p[0..len) of the file, blanks and comments trimmed, into buf.
 * 1 for a path, 0 for nothing, -1 for a bad line (*why says what).
 */
static int policy_line(const char *p, size_t len, char *buf, const char **why)
{
	size_t i, end;

	while (len > 0 && (*p == ' ' || *p == '\t'))
		p++, len--;
	/* a comment: `#` first, or after a blank */
	for (end = 0; end < len; end++)
		if (p[end] == '#' && (end == 0 || p[end - 1] == ' ' || p[end - 1] == '\t'))
			break;
	while (end > 0 && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r'))
		end--;
	if (end == 0)
		return 0;
	if (p[0] != '/') {
		*why = "not an absolute path; line ignored";
		return -1;
	}
	if (end >= PATH_MAX) {
		*why = "path too long; line ignored";
		return -1;
	}
	for (i = 0; i < end; i++)
		if (p[i] == '\0') {
			*why = "a NUL byte in the line; line ignored";
			return -1;
		}
	memcpy(buf, p, end);
	buf[end] = '\0';
	return 1;
}

/* Does the list in text[0..size) name the running executable? */
static int policy_match(const char *text, size_t size, char *scratch)
{
	char *exe = scratch, *line = scratch + PATH_MAX;
	struct stat self, st;
	unsigned lineno = 0, complaints = 0;
	int have_st;
	size_t off = 0;

	if (!self_exe(exe, EXE_MAX, &self, &have_st))
		return 0;
	while (off < size) {
		const char *p = text + off, *nl = memchr(p, '\n', size - off);
		size_t len = nl ? (size_t)(nl - p) : size - off;
		const char *why = NULL;
		int r;

		off += len + 1;
		lineno++;
		r = policy_line(p, len, line, &why);
		if (r < 0 && complaints++ < MAX_MESSAGES)
			complain(lineno, why);
		else if (r < 0 && complaints == MAX_MESSAGES + 1)
			complain(0, "more bad lines; not reported");
		if (r <= 0)
			continue;
		/* The same path, or another name (a link) of the same file. */
		if ((exe[0] && strcmp(line, exe) == 0) ||
		    (have_st && stat(line, &st) == 0 && st.st_dev == self.st_dev &&
		     st.st_ino == self.st_ino))
			return 1;
	}
	return 0;
}

/*
 * The policy file, opened from the directory whose ownership it checks,
 * without following a symbolic link (its target's directory would go
 * unchecked); *st is the file's.  -1 if there is no policy to read.
 */
static int policy_open(struct stat *st)
{
	struct stat dir;
	int dfd, fd = -1;

	dfd = fd_high(open(POLICY_DIR, O_PATH | O_DIRECTORY | O_CLOEXEC));
	if (dfd < 0)
		return -1;	/* no policy: the usual case */
	if (fstat(dfd, &dir) == 0)
		fd = fd_high(openat(dfd, POLICY_NAME, O_RDONLY | O_CLOEXEC |
				    O_NOCTTY | O_NONBLOCK | O_NOFOLLOW));
	if (fd < 0 && errno == ELOOP)
		complain(0, "ignored: a symbolic link");
	close(dfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))
		goto ignore;
	if (!trusted(st) || !trusted(&dir)) {
		complain(0, trusted(st) ? "ignored: its directory is not root's alone"
			 : "ignored: not owned by root, or writable by group or others");
		goto ignore;
	}
	if (st->st_size > POLICY_MAX) {
		complain(0, "ignored: larger than 1 MiB");
		goto ignore;
	}
	return fd;
ignore:
	close(fd);
	return -1;
}

static int policy_read(void)
{
	struct stat st;
	char *scratch, *text;
	size_t len, got = 0;
	int fd, match;

	fd = policy_open(&st);
	if (fd < 0)
		return 0;
	/*
	 * Read into anonymous memory, not a mapping of the file: an admin
	 * truncating it while we read would turn a mapping into SIGBUS.
	 */
	len = SCRATCH + st.st_size + 1;
	scratch = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED) {
		close(fd);
		return 0;
	}
	text = scratch + SCRATCH;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, text + got, st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	match = policy_match(text, got, scratch);
	munmap(scratch, len);
	return match;
}

/* In .data, not .rodata (shim.c's legacy_name says why).  Never written. */
static char policy_path[] = POLICY_FILE;

/* Set while this thread looks at the policy: a hook re-entering finds it. */
static __thread int busy __attribute__((tls_model("initial-exec")));

/*
 * The cheap first look, before anything else: no file (or no directory)
 * by that name, or an empty regular file, is no policy.  Anything else,
 * a failed call included (a seccomp filter refusing it), goes to
 * arc4_policy_legacy(), which checks what it opens.  The newfstatat
 * system call, not statx: it is the call glibc's own stat() makes (on
 * x86-64 and arm64, whose kernel struct stat is glibc's; on mips64 it is
 * not), so what a sandbox lets stat() do it lets this do; made directly,
 * it saves the first call binding fstatat() (about 700 instructions);
 * elsewhere fstatat() itself.  No cancellation point;
 * errno is kept.
 * Re-entered on this thread (a hook on fstatat() that calls rand()): 1,
 * and arc4_policy_legacy() then says to decide nothing for now.
 */
int arc4_policy_present(void)
{
	struct stat st;
	int saved = errno, r;

	if (busy)
		return 1;
	busy = 1;
#if defined(SYS_newfstatat) && (defined(__x86_64__) || defined(__aarch64__))
	r = syscall(SYS_newfstatat, AT_FDCWD, policy_path, &st, AT_SYMLINK_NOFOLLOW);
#else
	r = fstatat(AT_FDCWD, policy_path, &st, AT_SYMLINK_NOFOLLOW);
#endif
	busy = 0;
	if (r != 0)
		r = errno != ENOENT && errno != ENOTDIR;
	else
		r = !(S_ISREG(st.st_mode) && st.st_size == 0);
	errno = saved;
	return r;
}

/*
 * 1 if the policy lists this executable, 0 if not, -1 when re-entered on
 * this thread while reading it (a hook on open() or read() that calls
 * rand(), a signal handler): the caller decides nothing for now.
 */
int arc4_policy_legacy(void)
{
	int saved = errno, r;

	if (busy)
		return -1;
	busy = 1;
	r = policy_read();
	busy = 0;
	errno = saved;
	return r;
}
