// SPDX-License-Identifier: GPL-2.0
/*
 * policy_hook.so, preloaded before the test shim by policy.sh: the edges
 * of the policy file's reading that the kernel will not produce on cue.
 *
 *   ARC4_HOOK_EXE=PATH    readlink("/proc/self/exe") answers PATH, cut to
 *                         the caller's buffer as the kernel cuts a target
 *                         longer than it: the buffer filled, no NUL
 *   ARC4_HOOK_SWAP=A:B    the first time a file named legacy.conf has been
 *                         opened, directories A and B are exchanged
 *                         (renameat2 RENAME_EXCHANGE): another directory
 *                         renamed into place just after the open
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/fs.h>

ssize_t readlink(const char *path, char *buf, size_t len)
{
	static ssize_t (*real)(const char *, char *, size_t);
	const char *exe = getenv("ARC4_HOOK_EXE");
	size_t n;

	if (exe && strcmp(path, "/proc/self/exe") == 0) {
		n = strlen(exe) < len ? strlen(exe) : len;
		memcpy(buf, exe, n);
		return n;
	}
	if (!real)
		real = (ssize_t (*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
	return real(path, buf, len);
}

static void after_open(const char *path, int fd)
{
	static int done;
	const char *swap = getenv("ARC4_HOOK_SWAP"), *base = strrchr(path, '/');
	char a[4096], *b;

	base = base ? base + 1 : path;
	if (done || fd < 0 || !swap || strcmp(base, "legacy.conf") != 0)
		return;
	done = 1;
	snprintf(a, sizeof(a), "%s", swap);
	b = strchr(a, ':');
	if (!b)
		return;
	*b++ = '\0';
	if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0)
		_exit(99);
}

#define OPEN_HOOK(name, ...)						\
	static int (*real)(__VA_ARGS__, int, ...);			\
	mode_t mode = 0;						\
	va_list ap;							\
	int fd;								\
									\
	va_start(ap, flags);						\
	if (flags & (O_CREAT | O_TMPFILE))				\
		mode = va_arg(ap, mode_t);				\
	va_end(ap);							\
	if (!real)							\
		real = (int (*)(__VA_ARGS__, int, ...))dlsym(RTLD_NEXT, name)

int open(const char *path, int flags, ...)
{
	OPEN_HOOK("open", const char *);
	fd = real(path, flags, mode);
	after_open(path, fd);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	OPEN_HOOK("open64", const char *);
	fd = real(path, flags, mode);
	after_open(path, fd);
	return fd;
}

int openat(int dfd, const char *path, int flags, ...)
{
	OPEN_HOOK("openat", int, const char *);
	fd = real(dfd, path, flags, mode);
	after_open(path, fd);
	return fd;
}

int openat64(int dfd, const char *path, int flags, ...)
{
	OPEN_HOOK("openat64", int, const char *);
	fd = real(dfd, path, flags, mode);
	after_open(path, fd);
	return fd;
}
