// SPDX-License-Identifier: GPL-2.0
/*
 * arc4ctl preload: the shim for every program, through /etc/ld.so.preload.
 *
 *   arc4ctl preload on [--audit] [--library PATH] [--root DIR]
 *   arc4ctl preload off [--library PATH] [--root DIR]
 *   arc4ctl preload status [--library PATH] [--root DIR]
 *
 * The dynamic loader reads /etc/ld.so.preload before every program starts,
 * set-user-ID ones included, and loads each library it names first: a line
 * naming libarc4.so.1 gives every program started afterwards the shim's
 * rand().  So the file is dangerous to get wrong.  A name the loader cannot
 * load costs every program an error message; a library that a user can
 * write hands that user every process.  `on` checks the library before it
 * writes, and both directions write by rename, so that no program ever
 * reads half a file and a crash leaves the old file or the new one.
 *
 * Only a whole line is ours.  `on` puts the library's path first (before
 * any other preload, so that its rand() is the one found), `off` removes
 * the lines that are exactly that path and nothing else, and the file
 * itself when nothing is left in it (to the loader an empty file and no
 * file are the same).  So on, then off, gives the file back byte for byte.
 *
 * The library's path is LIBDIR/libarc4.so.1, compiled in (tools/Makefile)
 * as `make install` and the Debian package install it.  --root DIR edits
 * DIR/etc/ld.so.preload and checks DIR/PATH (a tree being prepared, or a
 * test's scratch tree); /dev, /sys and /proc are still the running
 * system's.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arc4ctl.h"

#ifndef ARC4_LIBDIR
#define ARC4_LIBDIR	"/usr/local/lib"
#endif
#ifndef ARC4_BINDIR
#define ARC4_BINDIR	"/usr/local/bin"
#endif
#ifndef ARC4_SYSCONFDIR
#define ARC4_SYSCONFDIR	"/etc"
#endif

/* glibc's path, fixed in ld.so whatever sysconfdir it was built with. */
#define PRELOAD_DIR	"/etc"
#define PRELOAD_NAME	"ld.so.preload"
/* The shim's policy file (lib/policy.c) and the audit that writes one. */
#define POLICY_DIR	ARC4_SYSCONFDIR "/arc4"
#define POLICY_NAME	"legacy.conf"
#define AUDIT		ARC4_BINDIR "/arc4-audit"

enum {
	TEXT_MAX = 1 << 20,	/* larger is not a list of libraries */
	EXIT_USAGE = 2,
	EXIT_OFF = 3,		/* status: switched off */
};

/* How the preload file names the library. */
enum { NAMED_NOT, NAMED_LINE, NAMED_AMONG };

/* This program's own ELF header, where the loader mapped it (GNU ld, gold, lld). */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

struct preload {
	const char *lib;	/* the absolute path the file names */
	const char *root;	/* "" or the tree edited instead of / */
	int audit;
	char dir[PATH_MAX];	/* root + /etc */
	char file[PATH_MAX];	/* root + /etc/ld.so.preload */
	char libfile[PATH_MAX];	/* root + lib */
};

/* The preload file as read: its bytes, and its stat if it exists. */
struct text {
	char *buf;
	size_t len;
	int exists;
	struct stat st;
};

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "arc4ctl: preload: %s: %s\n", path, what);
	return EXIT_FAILURE;
}

static int fail_errno(const char *path, const char *what, int err)
{
	fprintf(stderr, "arc4ctl: preload: %s: %s: %s\n", path, what, strerror(err));
	return EXIT_FAILURE;
}

/* --- the library ---------------------------------------------------- */

static const char *machine_name(unsigned int m)
{
	switch (m) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_AARCH64: return "AArch64 (arm64)";
	case EM_ARM: return "32-bit ARM";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "64-bit PowerPC";
	case EM_S390: return "s390";
	case EM_MIPS: return "MIPS";
	case EM_LOONGARCH: return "LoongArch";
	default: return "another machine";
	}
}

/* Does the dynamic segment ph say DF_1_PIE (a program, which ld.so refuses)? */
static int dynamic_pie(int fd, const ElfW(Phdr) *ph)
{
	ElfW(Dyn) d;
	off_t off;

	for (off = 0; off + (off_t)sizeof(d) <= (off_t)ph->p_filesz; off += sizeof(d)) {
		if (pread(fd, &d, sizeof(d), ph->p_offset + off) != (ssize_t)sizeof(d) ||
		    d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_FLAGS_1 && (d.d_un.d_val & DF_1_PIE))
			return 1;
	}
	return 0;
}

/*
 * Why the ELF header in e[0..n) (and the program headers of fd) is not a
 * shared object this program's loader can load: the same class, byte
 * order and machine as this program's own header, ET_DYN, a dynamic
 * segment.  NULL if it is one.
 */
static const char *elf_problem(int fd, const unsigned char *e, size_t n,
			       char *why, size_t len)
{
	const ElfW(Ehdr) *me = &__ehdr_start, *h = (const void *)e;
	ElfW(Phdr) ph;
	unsigned int i;

	if (n < EI_NIDENT || memcmp(e, ELFMAG, SELFMAG))
		return "not an ELF file";
	if (e[EI_CLASS] != me->e_ident[EI_CLASS])
		return e[EI_CLASS] == ELFCLASS32 ?
			"a 32-bit ELF file; this machine's programs are 64-bit" :
			"a 64-bit ELF file; this machine's programs are 32-bit";
	if (e[EI_DATA] != me->e_ident[EI_DATA])
		return "an ELF file of the other byte order";
	if (n < sizeof(*h))
		return "a truncated ELF file";
	if (h->e_machine != me->e_machine) {
		snprintf(why, len, "built for %s (ELF machine %u); this machine runs %s",
			 machine_name(h->e_machine), h->e_machine,
			 machine_name(me->e_machine));
		return why;
	}
	if (h->e_type != ET_DYN) {
		snprintf(why, len, "not a shared object (ELF type %u)", h->e_type);
		return why;
	}
	if (h->e_phentsize != sizeof(ph))
		return "a malformed ELF file (program header size)";
	for (i = 0; i < h->e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), h->e_phoff + (off_t)i * sizeof(ph)) !=
		    (ssize_t)sizeof(ph))
			return "a truncated ELF file (program headers)";
		if (ph.p_type == PT_DYNAMIC)
			return dynamic_pie(fd, &ph) ?
				"a position-independent executable, not a library" : NULL;
	}
	return "an ELF object without a dynamic segment: not a shared library";
}

/*
 * Why p->libfile must not go into the preload file, or NULL.  Root's (or
 * the caller's, for a scratch tree) and nobody else's to write: every
 * process would run its code.
 */
static const char *lib_problem(const struct preload *p, char *why, size_t len)
{
	union {
		ElfW(Ehdr) h;
		unsigned char b[sizeof(ElfW(Ehdr))];
	} e;
	const char *r;
	struct stat st;
	ssize_t n;
	int fd = open(p->libfile, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, len, "%s%s", strerror(errno),
			 errno == ENOENT ? " (is libarc4 installed?)" : "");
		return why;
	}
	r = why;
	if (fstat(fd, &st))
		snprintf(why, len, "%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		r = "not a regular file";
	else if (st.st_uid != 0 && st.st_uid != getuid())
		r = "not root's: its owner could run code in every process";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		r = "writable by group or others, who could run code in every process";
	else if ((n = pread(fd, e.b, sizeof(e.b), 0)) < 0)
		snprintf(why, len, "%s", strerror(errno));
	else
		r = elf_problem(fd, e.b, n, why, len);
	close(fd);
	return r;
}

/* --- the preload file ----------------------------------------------- */

/* p->file into t; a missing file is an empty one that does not exist. */
static int text_read(const struct preload *p, struct text *t)
{
	ssize_t n;
	int fd;

	memset(t, 0, sizeof(*t));
	t->buf = malloc(TEXT_MAX + 1);
	if (!t->buf)
		return fail(p->file, "out of memory");
	if (lstat(p->file, &t->st))
		return errno == ENOENT ? 0 : fail_errno(p->file, "stat", errno);
	if (S_ISLNK(t->st.st_mode))
		return fail(p->file, "a symbolic link; edit the file it points to by hand");
	if (!S_ISREG(t->st.st_mode))
		return fail(p->file, "not a regular file");
	t->exists = 1;
	fd = open(p->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail_errno(p->file, "open", errno);
	while ((n = read(fd, t->buf + t->len, TEXT_MAX + 1 - t->len)) > 0)
		t->len += n;
	close(fd);
	if (n < 0)
		return fail_errno(p->file, "read", errno);
	if (t->len > TEXT_MAX)
		return fail(p->file, "larger than 1 MiB; not a list of libraries");
	return 0;
}

/*
 * How t names lib: a line of its own (ours), among other names on a line
 * (the loader splits on blanks and colons; not ours to edit), or not;
 * *lineno is the first such line.  A line among others wins.
 */
static int text_names(const struct text *t, const char *lib, unsigned int *lineno)
{
	size_t ll = strlen(lib), i = 0, end, w, k;
	unsigned int line = 0;
	int how = NAMED_NOT;

	while (i < t->len) {
		line++;
		for (end = i; end < t->len && t->buf[end] != '\n'; end++)
			;
		if (end - i == ll && !memcmp(t->buf + i, lib, ll)) {
			if (how == NAMED_NOT)
				how = NAMED_LINE, *lineno = line;
		} else {
			for (k = i; k < end; k = w + 1) {
				for (w = k; w < end && !strchr(" \t:", t->buf[w]); w++)
					;
				if (w - k == ll && !memcmp(t->buf + k, lib, ll)) {
					*lineno = line;
					return NAMED_AMONG;
				}
			}
		}
		i = end + 1;
	}
	return how;
}

/* Everything in t but the lines that are exactly lib, in place. */
static void text_drop(struct text *t, const char *lib)
{
	size_t ll = strlen(lib), i = 0, out = 0, end, next;

	while (i < t->len) {
		for (end = i; end < t->len && t->buf[end] != '\n'; end++)
			;
		next = end < t->len ? end + 1 : end;
		if (!(end - i == ll && !memcmp(t->buf + i, lib, ll))) {
			memmove(t->buf + out, t->buf + i, next - i);
			out += next - i;
		}
		i = next;
	}
	t->len = out;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * p->file replaced by buf[0..len): a temporary file in the same directory
 * with the old file's mode and owner (0644 root for a new one), written
 * and synced, renamed over it, then the directory synced, so that a crash
 * leaves the old file or the new one.  len 0 removes the file instead.
 */
static int text_replace(const struct preload *p, int dfd, const struct text *t,
			const char *buf, size_t len)
{
	char tmp[PATH_MAX + 32];
	mode_t mode = t->exists ? t->st.st_mode & 07777 : 0644;
	int fd, err = 0;

	if (len == 0) {
		if (unlink(p->file))
			return fail_errno(p->file, "unlink", errno);
	} else {
		snprintf(tmp, sizeof(tmp), "%s/.%s.arc4-XXXXXX", p->dir, PRELOAD_NAME);
		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd < 0)
			return fail_errno(tmp, "create", errno);
		if (fchmod(fd, mode) ||
		    (t->exists && fchown(fd, t->st.st_uid, t->st.st_gid)) ||
		    write_all(fd, buf, len) || fsync(fd))
			err = errno;
		if (close(fd) && !err)
			err = errno;
		if (!err && rename(tmp, p->file))
			err = errno;
		if (err) {
			unlink(tmp);
			return fail_errno(p->file, "write", err);
		}
	}
	if (fsync(dfd))
		return fail_errno(p->dir, "fsync", errno);
	return 0;
}

/* The directory, locked against another arc4ctl editing the file. */
static int dir_lock(const struct preload *p)
{
	int dfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0) {
		fail_errno(p->dir, "open", errno);
		return -1;
	}
	if (flock(dfd, LOCK_EX)) {
		fail_errno(p->dir, "lock", errno);
		close(dfd);
		return -1;
	}
	return dfd;
}

/* --- on, off --------------------------------------------------------- */

/* `arc4-audit --policy` of the tree: its findings, before switching on. */
static int run_audit(const struct preload *p)
{
	const char *audit = getenv("ARC4_AUDIT") ? getenv("ARC4_AUDIT") : AUDIT;
	char usr[PATH_MAX];
	pid_t pid;
	int st;

	snprintf(usr, sizeof(usr), "%s/usr", p->root);
	printf("arc4ctl: %s --policy -q%s%s\n", audit, *p->root ? " " : "",
	       *p->root ? usr : "");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return fail_errno(audit, "fork", errno);
	if (pid == 0) {
		if (*p->root)
			execl(audit, audit, "--policy", "-q", usr, (char *)NULL);
		else
			execl(audit, audit, "--policy", "-q", (char *)NULL);
		fprintf(stderr, "arc4ctl: preload: %s: %s\n", audit, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return fail_errno(audit, "wait", errno);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return fail(audit, "the audit failed; not switched on");
	printf("arc4ctl: each executable listed above (# lines are comments) loses its\n"
	       "seeded replay unless %s%s/%s lists it (arc4-audit(1))\n",
	       p->root, POLICY_DIR, POLICY_NAME);
	return 0;
}

static void audit_hint(const struct preload *p)
{
	printf("arc4ctl: every program started from now on gets strong rand(),\n"
	       "random() and rand48, whatever seed it sets.  Programs that need a\n"
	       "seeded replay keep it only when %s%s/%s lists them.\n"
	       "Find them first (then read the list and install it as that file):\n"
	       "    %s --policy >legacy.conf\n"
	       "or let this command run it: arc4ctl preload on --audit\n",
	       p->root, POLICY_DIR, POLICY_NAME, AUDIT);
}

/* Ours first, then the old bytes as they were. */
static int text_prepend(const struct preload *p, int dfd, const struct text *t)
{
	size_t ll = strlen(p->lib);
	char *buf = malloc(ll + 1 + t->len);
	int rc;

	if (!buf)
		return fail(p->file, "out of memory");
	memcpy(buf, p->lib, ll);
	buf[ll] = '\n';
	memcpy(buf + ll + 1, t->buf, t->len);
	rc = text_replace(p, dfd, t, buf, ll + 1 + t->len);
	free(buf);
	return rc;
}

static int preload_on(const struct preload *p)
{
	char why[160];
	const char *bad = lib_problem(p, why, sizeof(why));
	unsigned int line = 0;
	struct text t;
	int dfd, rc;

	if (bad) {
		fprintf(stderr, "arc4ctl: preload on: %s: %s; not switched on\n",
			p->libfile, bad);
		return EXIT_FAILURE;
	}
	dfd = dir_lock(p);
	if (dfd < 0)
		return EXIT_FAILURE;
	rc = text_read(p, &t);
	if (!rc && text_names(&t, p->lib, &line) != NAMED_NOT) {
		printf("arc4ctl: preload is already on: %s line %u names %s\n",
		       p->file, line, p->lib);
	} else if (!rc) {
		if (p->audit)
			rc = run_audit(p);
		else
			audit_hint(p);
		if (!rc)
			rc = text_prepend(p, dfd, &t);
		if (!rc)
			printf("arc4ctl: preload on: %s names %s; programs already running\n"
			       "keep glibc's generators until they restart (reboot for all)\n",
			       p->file, p->lib);
	}
	free(t.buf);
	close(dfd);
	return rc;
}

static int preload_off(const struct preload *p)
{
	struct text t;
	unsigned int line = 0;
	int dfd, rc, how;

	dfd = dir_lock(p);
	if (dfd < 0)
		return EXIT_FAILURE;
	rc = text_read(p, &t);
	how = rc ? NAMED_NOT : text_names(&t, p->lib, &line);
	if (how == NAMED_AMONG) {
		fprintf(stderr, "arc4ctl: preload off: %s line %u names %s among other\n"
			"libraries, not on a line of its own; not changed (edit it by hand)\n",
			p->file, line, p->lib);
		rc = EXIT_FAILURE;
	} else if (!rc && how == NAMED_NOT) {
		printf("arc4ctl: preload is already off: %s does not name %s\n",
		       p->file, p->lib);
	} else if (!rc) {
		text_drop(&t, p->lib);
		rc = text_replace(p, dfd, &t, t.buf, t.len);
		if (!rc)
			printf("arc4ctl: preload off: %s %s; programs already running\n"
			       "keep the shim until they restart (reboot for all)\n",
			       p->file, t.len ? "no longer names the shim" : "removed (it named only the shim)");
	}
	free(t.buf);
	close(dfd);
	return rc;
}

/* --- status ---------------------------------------------------------- */

/* /dev/arc4: there, and the character device that arc4dev registered? */
static void status_device(void)
{
	unsigned int maj, min;
	struct stat st;
	FILE *f;
	int have;

	if (stat("/dev/arc4", &st)) {
		printf("device:    /dev/arc4: %s (the shim draws from getrandom() instead)\n",
		       strerror(errno));
		return;
	}
	if (!S_ISCHR(st.st_mode)) {
		printf("device:    /dev/arc4 is not a character device\n");
		return;
	}
	f = fopen("/sys/class/misc/arc4/dev", "re");
	have = f && fscanf(f, "%u:%u", &maj, &min) == 2;
	if (f)
		fclose(f);
	if (access("/sys/module/arc4dev", F_OK) || !have)
		printf("device:    /dev/arc4 (%u:%u) is there, but arc4dev is not loaded\n",
		       major(st.st_rdev), minor(st.st_rdev));
	else if (maj != major(st.st_rdev) || min != minor(st.st_rdev))
		printf("device:    /dev/arc4 is %u:%u, arc4dev serves %u:%u: not arc4dev's\n",
		       major(st.st_rdev), minor(st.st_rdev), maj, min);
	else
		printf("device:    /dev/arc4 (%u:%u) served by arc4dev\n", maj, min);
}

/* Program lines of a policy file: not blank, not comments. */
static unsigned int policy_count(FILE *f)
{
	char line[PATH_MAX + 2];
	unsigned int n = 0;
	size_t i;

	while (fgets(line, sizeof(line), f)) {
		i = strspn(line, " \t");
		if (line[i] == '/')
			n++;
	}
	return n;
}

/* The policy file, by the shim's rules (lib/policy.c): in force or why not. */
static void status_policy(const struct preload *p)
{
	char dir[PATH_MAX];
	struct stat d, st;
	int dfd, fd;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s%s", p->root, POLICY_DIR);
	printf("policy:    %s/%s: ", dir, POLICY_NAME);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = dfd < 0 ? -1 : openat(dfd, POLICY_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		printf("none; every program gets strong values\n");
	else if (fd < 0 && errno == ELOOP)
		printf("ignored: a symbolic link\n");
	else if (fd < 0)
		printf("%s\n", strerror(errno));
	else if (fstat(dfd, &d) || fstat(fd, &st) || !S_ISREG(st.st_mode))
		printf("ignored: not a regular file\n");
	else if (st.st_uid || (st.st_mode & (S_IWGRP | S_IWOTH)))
		printf("ignored: not root's alone (owner, or group/other write)\n");
	else if (d.st_uid || (d.st_mode & (S_IWGRP | S_IWOTH)))
		printf("ignored: its directory is not root's alone\n");
	else if (st.st_size > TEXT_MAX)
		printf("ignored: larger than 1 MiB\n");
	else if ((f = fdopen(fd, "r"))) {
		printf("in force, %u programs keep glibc's generators\n", policy_count(f));
		fclose(f);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
}

/*
 * Does /proc/PID/maps (open as f) map path (or path, deleted since)?
 * -1 for no mappings at all: a kernel thread, or a process exiting.
 */
static int maps_path(FILE *f, const char *path)
{
	char line[PATH_MAX + 128], *s;
	size_t n = strlen(path);
	int any = 0;

	while (fgets(line, sizeof(line), f)) {
		any = 1;
		s = strchr(line, '/');
		if (s && !strncmp(s, path, n) &&
		    (!strcmp(s + n, "\n") || !strcmp(s + n, " (deleted)\n")))
			return 1;
	}
	return any ? 0 : -1;
}

/* How many running processes have the library mapped, by its real path. */
static void status_processes(const struct preload *p)
{
	char real[PATH_MAX], maps[64];
	unsigned int all = 0, in = 0, closed = 0;
	const char *path = real;
	struct dirent *de;
	FILE *f;
	DIR *d;
	int r;

	if (!realpath(p->libfile, real)) {
		printf("processes: not counted: %s: %s\n", p->libfile, strerror(errno));
		return;
	}
	if (*p->root && !strncmp(real, p->root, strlen(p->root)))
		path = real + strlen(p->root);
	d = opendir("/proc");
	if (!d) {
		printf("processes: not counted: /proc: %s\n", strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(maps, sizeof(maps), "/proc/%.20s/maps", de->d_name);
		f = fopen(maps, "re");
		if (!f) {
			closed += errno == EACCES;
			continue;
		}
		r = maps_path(f, path);
		fclose(f);
		all += r >= 0;
		in += r > 0;
	}
	closedir(d);
	printf("processes: %u of %u running processes (kernel threads aside) have %s mapped",
	       in, all, path);
	printf(closed ? " (%u more not readable: run as root)\n" : "\n", closed);
}

static int preload_status(const struct preload *p)
{
	char why[160];
	const char *bad = lib_problem(p, why, sizeof(why));
	unsigned int line = 0;
	struct text t;
	int how = NAMED_NOT;

	if (text_read(p, &t) == 0)
		how = text_names(&t, p->lib, &line);
	free(t.buf);
	if (how == NAMED_NOT)
		printf("preload:   off: %s does not name %s\n",
		       p->file, p->lib);
	else
		printf("preload:   on: %s line %u names %s%s\n", p->file, line, p->lib,
		       how == NAMED_AMONG ? " (among other libraries)" : "");
	printf("library:   %s: %s\n", p->libfile, bad ? bad : "a loadable shared object");
	status_device();
	status_policy(p);
	status_processes(p);
	return how == NAMED_NOT ? EXIT_OFF : 0;
}

/* --- the command ----------------------------------------------------- */

void preload_usage(FILE *f)
{
	fprintf(f,
		"usage: arc4ctl preload on [--audit] [--library PATH] [--root DIR]\n"
		"       arc4ctl preload off [--library PATH] [--root DIR]\n"
		"       arc4ctl preload status [--library PATH] [--root DIR]\n"
		"\n"
		"  on      add the shim to /etc/ld.so.preload (as root): every program\n"
		"          started afterwards gets strong rand(), random() and rand48\n"
		"  off     remove exactly that line (and the file, if nothing is left)\n"
		"  status  on or off; /dev/arc4 and arc4dev; the policy file;\n"
		"          how many running processes have the shim mapped\n"
		"  --audit         run `arc4-audit --policy` first and show what it finds\n"
		"  --library PATH  the shim's absolute path (default %s/libarc4.so.1)\n"
		"  --root DIR      edit DIR/etc/ld.so.preload, check DIR/PATH\n"
		"Exit status: 0 done (status: on), 1 failed or refused, 2 usage, 3 status: off.\n",
		ARC4_LIBDIR);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "arc4ctl: preload: %s\n", msg);
	preload_usage(stderr);
	return EXIT_USAGE;
}

/* Paths of p from --root and --library; 0, or a usage error. */
static int preload_paths(struct preload *p, char *root)
{
	size_t n = strlen(root);

	while (n > 0 && root[n - 1] == '/')
		root[--n] = '\0';
	p->root = root;
	if (p->lib[0] != '/' || strpbrk(p->lib, " \t\n:"))
		return usage_error("--library takes an absolute path without blanks or colons");
	if ((size_t)snprintf(p->dir, sizeof(p->dir), "%s%s", root, PRELOAD_DIR) >= sizeof(p->dir) ||
	    (size_t)snprintf(p->file, sizeof(p->file), "%s/%s", p->dir, PRELOAD_NAME) >= sizeof(p->file) ||
	    (size_t)snprintf(p->libfile, sizeof(p->libfile), "%s%s", root, p->lib) >= sizeof(p->libfile))
		return usage_error("path too long");
	return 0;
}

int cmd_preload(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "audit", no_argument, NULL, 'a' },
		{ "library", required_argument, NULL, 'l' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct preload p = { .lib = ARC4_LIBDIR "/libarc4.so.1" };
	char *root = (char[]){ "" }, *sub = argc > 1 ? argv[1] : NULL;
	int c;

	if (sub && (!strcmp(sub, "-h") || !strcmp(sub, "--help"))) {
		preload_usage(stdout);
		return 0;
	}
	if (!sub)
		return usage_error("on, off or status?");
	/* Options after the subcommand: argv + 1 is [sub, options...]. */
	argc--, argv++;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			p.audit = 1;
			break;
		case 'l':
			p.lib = optarg;
			break;
		case 'r':
			root = optarg;
			break;
		case 'h':
			preload_usage(stdout);
			return 0;
		default:
			preload_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument");
	if (preload_paths(&p, root))
		return EXIT_USAGE;
	if (p.audit && strcmp(sub, "on"))
		return usage_error("--audit goes with on");
	if (!strcmp(sub, "status"))
		return preload_status(&p);
	if (strcmp(sub, "on") && strcmp(sub, "off"))
		return usage_error("one of on, off, status");
	if (!*p.root && geteuid() != 0) {
		fprintf(stderr, "arc4ctl: preload %s: must be root: %s/%s is read by every program\n",
			sub, PRELOAD_DIR, PRELOAD_NAME);
		return EXIT_FAILURE;
	}
	return !strcmp(sub, "on") ? preload_on(&p) : preload_off(&p);
}
