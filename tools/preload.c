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
 * The file is read as the loader reads it: `#` starts a comment up to the
 * end of the line, blanks, tabs, newlines and colons separate names.
 * `on` puts a line with the library's path first (before any other
 * preload, so that its rand() is the one found); `off` takes out every
 * name of the library (its path, or another path to the same file), a
 * line that named only it whole, and the file itself when nothing is left
 * in it and `on` did not find it there, empty.  So on, then off, gives
 * the file back byte for byte.
 *
 * The library's path is LIBDIR/libarc4.so.1, compiled in (tools/Makefile)
 * as `make install` and the Debian package install it.  --root DIR edits
 * DIR/etc/ld.so.preload and checks PATH resolved inside DIR (a tree being
 * prepared, or a test's scratch tree), test-loading it there by chroot;
 * /dev, /sys and /proc are still the running system's.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <link.h>
#include <sched.h>
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
/* In the preload file's directory: our temporary files and our lock. */
#define TEMP_PREFIX	"." PRELOAD_NAME ".arc4-"
#define LOCK_NAME	"." PRELOAD_NAME ".arc4-lock"
/* What `on` adds after its line to a file that was there, empty. */
#define EMPTY_MARK	"# arc4ctl preload on: this file was empty; off empties it\n"

enum {
	TEXT_MAX = 1 << 20,	/* larger is not a list of libraries */
	EXIT_USAGE = 2,
	EXIT_OFF = 3,		/* status: switched off */
	EXIT_UNKNOWN = 4,	/* status: the file cannot be read */
	TEMP_RANDOM = 6,	/* random characters of a temporary file's name */
};

/* How the preload file names the library. */
enum { NAMED_NOT, NAMED_LINE, NAMED_AMONG };

/* This program's own ELF header, where the loader mapped it (GNU ld, gold, lld). */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

struct preload {
	const char *lib;	/* the absolute path the file names */
	const char *root;	/* "" or the tree edited instead of / */
	int audit;
	int rootfd;		/* root, or / */
	int etcfd;		/* its etc, opened without following a link */
	int have_id;		/* id is the library's file */
	struct stat id;
	char dir[PATH_MAX];	/* root + /etc */
	char file[PATH_MAX];	/* root + /etc/ld.so.preload */
	char libfile[PATH_MAX];	/* root + lib */
	char real[PATH_MAX];	/* lib resolved inside the root */
};

/* The preload file as read: its bytes, and its stat if it exists. */
struct text {
	char *buf;
	size_t len;
	int exists;
	int link;		/* status read it through a symbolic link */
	int keep;		/* off: keep the file, empty */
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
 * Root's and nobody else's to write (or, in a --root tree, the caller's):
 * whoever can write the library, or rename another file into one of the
 * directories on its path, runs code in every process.
 */
static int trusted(const struct preload *p, const struct stat *st)
{
	return (st->st_uid == 0 || (*p->root && st->st_uid == getuid())) &&
	       !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* dst = the symbolic link's target, then what was left to walk after it. */
static int relink(const struct preload *p, char *todo, size_t size,
		  const char *rest, char *why, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(p->rootfd, p->real + 1, target, sizeof(target) - 1);

	if (n < 0) {
		snprintf(why, len, "%s: %s", p->real, strerror(errno));
		return -1;
	}
	target[n] = '\0';
	if ((size_t)snprintf(todo, size, "%s/%s", target, rest) >= size) {
		snprintf(why, len, "%s: the path grows too long", p->real);
		return -1;
	}
	return 0;
}

/*
 * p->lib resolved inside the root (a symbolic link's absolute target
 * starts again at the root, `..` stops there, as in a chroot) into
 * p->real, each directory on the way checked.  NULL, or why not.
 */
static const char *lib_resolve(struct preload *p, char *why, size_t len)
{
	char todo[PATH_MAX * 2 + 2], next[sizeof(todo)], *comp, *rest, *s;
	unsigned int links = 0;
	struct stat st;
	size_t n;

	p->real[0] = '\0';
	if (fstat(p->rootfd, &st) || !trusted(p, &st)) {
		snprintf(why, len, "%s/: not root's alone", p->root);
		return why;
	}
	snprintf(todo, sizeof(todo), "%s", p->lib);
	rest = todo;
	while (*(rest += strspn(rest, "/"))) {
		comp = rest;
		rest += strcspn(rest, "/");
		if (*rest)
			*rest++ = '\0';
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			s = strrchr(p->real, '/');
			if (s)
				*s = '\0';
			continue;
		}
		n = strlen(p->real);
		if (n + 2 + strlen(comp) > sizeof(p->real))
			return "path too long";
		sprintf(p->real + n, "/%s", comp);
		if (fstatat(p->rootfd, p->real + 1, &st, AT_SYMLINK_NOFOLLOW)) {
			snprintf(why, len, "%s%s", strerror(errno),
				 errno == ENOENT ? " (is libarc4 installed?)" : "");
			return why;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++links > 40 || relink(p, next, sizeof(next), rest, why, len))
				return links > 40 ? "too many symbolic links" : why;
			p->real[next[0] == '/' ? 0 : n] = '\0';
			strcpy(todo, next);
			rest = todo;
		} else if (*rest && !S_ISDIR(st.st_mode)) {
			return strerror(ENOTDIR);
		} else if (*rest && !trusted(p, &st)) {
			snprintf(why, len, "its directory %s%s is not root's alone (owner, or "
				 "group/other write): whoever can write it runs code in every "
				 "process", p->root, p->real);
			return why;
		}
	}
	return p->real[0] ? NULL : "not a file";
}

/* This program's own loader: its PT_INTERP, where it was mapped. */
static int interp_of(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			*(const char **)data =
				(const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	return 1;	/* the first object is the program */
}

/* The child: in the tree, the loader runs /bin/true with the library first. */
static void __attribute__((noreturn)) load_child(const struct preload *p,
						 const char *ld, int err)
{
	char *argv[] = { (char *)ld, "--preload", (char *)p->real, "/bin/true", NULL };
	char *envp[] = { NULL };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (*p->root && chroot(p->root) && (errno != EPERM ||
	    unshare(CLONE_NEWUSER | CLONE_NEWNS) || chroot(p->root))) {
		fprintf(stderr, "chroot %s: %s\n", p->root, strerror(errno));
		_exit(126);
	}
	if (chdir("/") == 0)
		execve(ld, argv, envp);
	fprintf(stderr, "%s: %s\n", ld, strerror(errno));
	_exit(127);
}

/*
 * Loads the loader the library with /bin/true?  Exit 0 and nothing on
 * stderr but the complaints about other names in ld.so.preload (which
 * the loader reads too): a missing dependency, a symbol version this
 * glibc lacks, a constructor that fails would stop every program.
 */
static const char *load_problem(const struct preload *p, char *why, size_t len)
{
	const char *ld = NULL, *line, *nl;
	char out[2048];
	size_t got = 0;
	ssize_t n;
	int fds[2], st;
	pid_t pid;

	dl_iterate_phdr(interp_of, &ld);
	if (!ld)
		return "not tested: arc4ctl is linked statically, without a loader";
	if (pipe2(fds, O_CLOEXEC))
		return strerror(errno);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		load_child(p, ld, fds[1]);
	close(fds[1]);
	while (pid > 0 && got < sizeof(out) - 1 &&
	       (n = read(fds[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += n;
	close(fds[0]);
	out[got] = '\0';
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return strerror(errno);
	for (line = out; *line; line = *nl ? nl + 1 : nl) {
		nl = line + strcspn(line, "\n");
		if (!memmem(line, nl - line, "from /etc/ld.so.preload", 23))
			break;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !*line)
		return NULL;
	snprintf(why, len, "the loader %s cannot run /bin/true with it (%s %d): %.*s", ld,
		 WIFEXITED(st) ? "exit" : "signal",
		 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
		 (int)strcspn(*line ? line : out, "\n"), *line ? line : out);
	return why;
}

/*
 * Why p->lib must not go into the preload file, or NULL: its path in the
 * root, its directories, the file, its ELF header, then a test load.
 */
static const char *lib_problem(struct preload *p, char *why, size_t len)
{
	union {
		ElfW(Ehdr) h;
		unsigned char b[sizeof(ElfW(Ehdr))];
	} e;
	const char *r = lib_resolve(p, why, len);
	struct stat st;
	ssize_t n;
	int fd;

	if (r)
		return r;
	if (fstatat(p->rootfd, p->real + 1, &st, AT_SYMLINK_NOFOLLOW))
		return strerror(errno);
	p->have_id = 1;
	p->id = st;
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (!trusted(p, &st))
		return st.st_mode & (S_IWGRP | S_IWOTH) ?
			"writable by group or others, who could run code in every process" :
			"not root's: its owner could run code in every process";
	fd = openat(p->rootfd, p->real + 1, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return strerror(errno);
	n = pread(fd, e.b, sizeof(e.b), 0);
	r = n < 0 ? strerror(errno) : elf_problem(fd, e.b, n, why, len);
	close(fd);
	return r ? r : load_problem(p, why, len);
}

/* --- the preload file ----------------------------------------------- */

/*
 * p->file into t; a missing file is an empty one that does not exist.
 * follow: a symbolic link is read (status, as the loader does) rather
 * than refused (on and off, which rename over it).
 */
static int text_read(const struct preload *p, struct text *t, int follow)
{
	ssize_t n;
	int fd;

	memset(t, 0, sizeof(*t));
	t->buf = malloc(TEXT_MAX + 1);
	if (!t->buf)
		return fail(p->file, "out of memory");
	if (fstatat(p->etcfd, PRELOAD_NAME, &t->st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : fail_errno(p->file, "stat", errno);
	t->link = S_ISLNK(t->st.st_mode);
	if (t->link && !follow)
		return fail(p->file, "a symbolic link; edit the file it points to by hand");
	fd = openat(p->etcfd, PRELOAD_NAME,
		    O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0 || fstat(fd, &t->st))
		return fail_errno(p->file, "open", errno);
	t->exists = 1;
	if (!S_ISREG(t->st.st_mode)) {
		close(fd);
		return fail(p->file, "not a regular file");
	}
	while ((n = read(fd, t->buf + t->len, TEXT_MAX + 1 - t->len)) > 0)
		t->len += n;
	close(fd);
	if (n < 0)
		return fail_errno(p->file, "read", errno);
	if (t->len > TEXT_MAX)
		return fail(p->file, "larger than 1 MiB; not a list of libraries");
	return 0;
}

/* Does the name s[0..n) in the file mean the library: its path, or its file? */
static int token_ours(const struct preload *p, const char *s, size_t n)
{
	char path[PATH_MAX];
	struct stat st;

	if (n == strlen(p->lib) && !memcmp(s, p->lib, n))
		return 1;
	if (!p->have_id || n == 0 || s[0] != '/' || n >= sizeof(path) - 1)
		return 0;
	memcpy(path, s, n);
	path[n] = '\0';
	return fstatat(p->rootfd, path + 1, &st, 0) == 0 &&
	       st.st_dev == p->id.st_dev && st.st_ino == p->id.st_ino;
}

static int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ':';
}

/*
 * The names on the line t[i..end), as glibc's loader reads the file: a
 * `#` starts a comment up to the end of the line; blanks, tabs and colons
 * separate names.  Fills tok[] (start, end pairs) up to max; the count.
 */
static size_t line_tokens(const struct text *t, size_t i, size_t end,
			  size_t (*tok)[2], size_t max)
{
	const char *hash = memchr(t->buf + i, '#', end - i);
	size_t cend = hash ? (size_t)(hash - t->buf) : end, k = i, w, n = 0;

	while (k < cend) {
		for (w = k; w < cend && !is_sep(t->buf[w]); w++)
			;
		if (w > k && n < max) {
			tok[n][0] = k;
			tok[n][1] = w;
			n++;
		}
		k = w + 1;
	}
	return n;
}

enum { TOKENS_MAX = 256 };

/*
 * How t names the library: a line of its own (the only name on it,
 * comments and blanks aside), among other names on a line, or not;
 * *lineno is the first such line.  A line among others wins.
 */
static int text_names(const struct preload *p, const struct text *t, unsigned int *lineno)
{
	size_t tok[TOKENS_MAX][2], i = 0, end, n, k;
	unsigned int line = 0;
	int how = NAMED_NOT;

	while (i < t->len) {
		line++;
		for (end = i; end < t->len && t->buf[end] != '\n'; end++)
			;
		n = line_tokens(t, i, end, tok, TOKENS_MAX);
		for (k = 0; k < n; k++) {
			if (!token_ours(p, t->buf + tok[k][0], tok[k][1] - tok[k][0]))
				continue;
			if (n > 1) {
				*lineno = line;
				return NAMED_AMONG;
			}
			if (how == NAMED_NOT)
				how = NAMED_LINE, *lineno = line;
		}
		i = end + 1;
	}
	return how;
}

/* The line t[i..end) and its newline without the library's names, appended at t[*out]. */
static void line_drop(const struct preload *p, struct text *t, size_t i, size_t end,
		      size_t *out)
{
	size_t tok[TOKENS_MAX][2], n = line_tokens(t, i, end, tok, TOKENS_MAX), k, from = i;
	size_t next = end < t->len ? end + 1 : end;
	size_t start = *out;

	for (k = 0; k < n; k++) {
		if (!token_ours(p, t->buf + tok[k][0], tok[k][1] - tok[k][0]))
			continue;
		memmove(t->buf + *out, t->buf + from, tok[k][0] - from);
		*out += tok[k][0] - from;
		from = tok[k][1];
		/* One separator goes with the name: the next one, or the one before. */
		if (from < next && is_sep(t->buf[from]))
			from++;
		else if (*out > start && is_sep(t->buf[*out - 1]))
			(*out)--;
	}
	memmove(t->buf + *out, t->buf + from, next - from);
	*out += next - from;
}

/*
 * Everything in t but the library's names, in place: a line that named
 * only the library (with a comment or blanks) goes whole, another loses
 * the name and one separator.
 */
static void text_drop(const struct preload *p, struct text *t)
{
	size_t tok[TOKENS_MAX][2], i = 0, out = 0, end, next, n;

	while (i < t->len) {
		for (end = i; end < t->len && t->buf[end] != '\n'; end++)
			;
		next = end < t->len ? end + 1 : end;
		n = line_tokens(t, i, end, tok, TOKENS_MAX);
		if (!(n == 1 && token_ours(p, t->buf + tok[0][0], tok[0][1] - tok[0][0])))
			line_drop(p, t, i, end, &out);
		i = next;
	}
	t->len = out;
	/* The mark `on` left in a file that was there, empty. */
	if (t->len == sizeof(EMPTY_MARK) - 1 && !memcmp(t->buf, EMPTY_MARK, t->len))
		t->len = 0, t->keep = 1;
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

/* A new temporary file of our name pattern in the directory, mode 0600. */
static int temp_create(const struct preload *p, char *name, size_t size)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[TEMP_RANDOM];
	int fd = -1, tries, i;

	for (tries = 0; fd < 0 && tries < 100; tries++) {
		if (getentropy(r, sizeof(r)))
			return -1;
		i = snprintf(name, size, "%s", TEMP_PREFIX);
		for (size_t k = 0; k < sizeof(r); k++)
			name[i + k] = abc[r[k] % (sizeof(abc) - 1)];
		name[i + sizeof(r)] = '\0';
		fd = openat(p->etcfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

/*
 * p->file replaced by buf[0..len): a temporary file in the same directory
 * with the old file's mode and owner (0644 root for a new one), written
 * and synced, renamed over it, then the directory synced, so that a crash
 * leaves the old file or the new one.  len 0 removes the file instead,
 * unless keep (it was there, empty, before on).  Extended attributes,
 * ACLs and security labels of the old file are not copied.
 */
static int text_replace(const struct preload *p, const struct text *t,
			const char *buf, size_t len)
{
	char tmp[sizeof(TEMP_PREFIX) + TEMP_RANDOM + 1];
	mode_t mode = t->exists ? t->st.st_mode & 07777 : 0644;
	int fd, err = 0;

	if (len == 0 && !t->keep) {
		if (unlinkat(p->etcfd, PRELOAD_NAME, 0))
			return fail_errno(p->file, "unlink", errno);
	} else {
		fd = temp_create(p, tmp, sizeof(tmp));
		if (fd < 0)
			return fail_errno(p->dir, "create a temporary file", errno);
		if (fchmod(fd, mode) ||
		    (t->exists && fchown(fd, t->st.st_uid, t->st.st_gid)) ||
		    write_all(fd, buf, len) || fsync(fd))
			err = errno;
		if (close(fd) && !err)
			err = errno;
		if (!err && renameat(p->etcfd, tmp, p->etcfd, PRELOAD_NAME))
			err = errno;
		if (err) {
			unlinkat(p->etcfd, tmp, 0);
			return fail_errno(p->file, "write", err);
		}
	}
	if (fsync(p->etcfd))
		return fail_errno(p->dir, "fsync", errno);
	return 0;
}

/* Temporary files of ours that a killed arc4ctl left (the lock is held). */
static void temp_clean(const struct preload *p)
{
	int fd = openat(p->etcfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	struct stat st;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strlen(de->d_name) == sizeof(TEMP_PREFIX) - 1 + TEMP_RANDOM &&
		    !strncmp(de->d_name, TEMP_PREFIX, sizeof(TEMP_PREFIX) - 1) &&
		    !fstatat(p->etcfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid())
			unlinkat(p->etcfd, de->d_name, 0);
	closedir(d);
}

/*
 * Against another arc4ctl editing the file: a lock file of root's alone
 * (0600; nobody else can open it to hold its lock), removed when done.
 * Whoever locks it checks that it is still the file by that name.
 */
static int lock_take(const struct preload *p)
{
	struct stat a, b;
	int fd;

	for (;;) {
		fd = openat(p->etcfd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC, 0600);
		if (fd < 0) {
			fail_errno(p->dir, "open the lock " LOCK_NAME, errno);
			return -1;
		}
		if (fstat(fd, &a) || !S_ISREG(a.st_mode) || a.st_uid != geteuid() ||
		    (a.st_mode & 077)) {
			fail(p->dir, LOCK_NAME " is not a 0600 file of ours; remove it");
			break;
		}
		if (flock(fd, LOCK_EX)) {
			fail_errno(p->dir, "lock " LOCK_NAME, errno);
			break;
		}
		if (!fstatat(p->etcfd, LOCK_NAME, &b, AT_SYMLINK_NOFOLLOW) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);	/* removed by the one before us: again */
	}
	close(fd);
	return -1;
}

static void lock_drop(const struct preload *p, int fd)
{
	unlinkat(p->etcfd, LOCK_NAME, 0);
	close(fd);
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

/* A file only root can read gives programs of other users no shim. */
static void mode_warning(const struct preload *p, const struct text *t)
{
	if (t->exists && !(t->st.st_mode & S_IROTH))
		fprintf(stderr, "arc4ctl: preload: warning: %s is mode %04o: programs of "
			"other users than root cannot read it and get no shim (chmod 0644)\n",
			p->file, (unsigned int)(t->st.st_mode & 07777));
}

/* Ours first, then the old bytes as they were (or the mark of an empty file). */
static int text_prepend(const struct preload *p, const struct text *t)
{
	size_t ll = strlen(p->lib), old = t->len;
	const char *from = t->buf;
	char *buf;
	int rc;

	if (t->exists && old == 0)
		from = EMPTY_MARK, old = sizeof(EMPTY_MARK) - 1;
	buf = malloc(ll + 1 + old);
	if (!buf)
		return fail(p->file, "out of memory");
	memcpy(buf, p->lib, ll);
	buf[ll] = '\n';
	memcpy(buf + ll + 1, from, old);
	rc = text_replace(p, t, buf, ll + 1 + old);
	free(buf);
	return rc;
}

static int preload_on(struct preload *p)
{
	char why[PATH_MAX + 160];
	const char *bad = lib_problem(p, why, sizeof(why));
	unsigned int line = 0;
	struct text t;
	int lfd, rc = 0;

	if (bad) {
		fprintf(stderr, "arc4ctl: preload on: %s: %s; not switched on\n",
			p->libfile, bad);
		return EXIT_FAILURE;
	}
	/* The audit takes long: before the file is read and locked. */
	if (p->audit)
		rc = run_audit(p);
	else
		audit_hint(p);
	lfd = rc ? -1 : lock_take(p);
	if (lfd < 0)
		return EXIT_FAILURE;
	temp_clean(p);
	rc = text_read(p, &t, 0);
	if (!rc && text_names(p, &t, &line) != NAMED_NOT) {
		printf("arc4ctl: preload is already on: %s line %u names %s\n",
		       p->file, line, p->lib);
	} else if (!rc) {
		rc = text_prepend(p, &t);
		if (!rc)
			printf("arc4ctl: preload on: %s names %s; programs already running\n"
			       "keep glibc's generators until they restart (reboot for all)\n",
			       p->file, p->lib);
	}
	if (!rc)
		mode_warning(p, &t);
	free(t.buf);
	lock_drop(p, lfd);
	return rc;
}

static int preload_off(struct preload *p)
{
	char why[PATH_MAX + 160];
	unsigned int line = 0;
	struct text t;
	int lfd, rc;

	lib_problem(p, why, sizeof(why));	/* its identity, if it is there */
	lfd = lock_take(p);
	if (lfd < 0)
		return EXIT_FAILURE;
	temp_clean(p);
	rc = text_read(p, &t, 0);
	if (!rc && text_names(p, &t, &line) == NAMED_NOT) {
		printf("arc4ctl: preload is already off: %s does not name %s\n",
		       p->file, p->lib);
	} else if (!rc) {
		text_drop(p, &t);
		rc = text_replace(p, &t, t.buf, t.len);
		if (!rc)
			printf("arc4ctl: preload off: %s %s; programs already running\n"
			       "keep the shim until they restart (reboot for all)\n", p->file,
			       t.len || t.keep ? "no longer names the shim" :
			       "removed (it named only the shim)");
	}
	free(t.buf);
	lock_drop(p, lfd);
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

/*
 * Program lines of a policy file, by the shim's rules (lib/policy.c): a
 * `#` first or after a blank starts a comment; blanks trimmed; then an
 * absolute path shorter than PATH_MAX without a NUL byte.
 */
static unsigned int policy_count(FILE *f)
{
	unsigned int n = 0;
	size_t cap = 0, end, i;
	char *line = NULL;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) > 0) {
		for (i = 0; i < (size_t)len && (line[i] == ' ' || line[i] == '\t'); i++)
			;
		for (end = i; end < (size_t)len && line[end] != '\n'; end++)
			if (line[end] == '#' && (end == i || line[end - 1] == ' ' ||
						 line[end - 1] == '\t'))
				break;
		while (end > i && strchr(" \t\r", line[end - 1]))
			end--;
		if (end > i && line[i] == '/' && end - i < PATH_MAX &&
		    !memchr(line + i, '\0', end - i))
			n++;
	}
	free(line);
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
	fd = dfd < 0 ? -1 : openat(dfd, POLICY_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
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
	char maps[64];
	unsigned int all = 0, in = 0, closed = 0;
	const char *path = p->real;
	struct dirent *de;
	FILE *f;
	DIR *d;
	int r;

	if (!p->have_id) {
		printf("processes: not counted: %s not found\n", p->libfile);
		return;
	}
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

/* The preload line of status; how the file names the library, or -1: unknown. */
static int status_file(const struct preload *p)
{
	unsigned int line = 0;
	struct text t;
	int how = -1;

	if (text_read(p, &t, !*p->root) == 0)
		how = text_names(p, &t, &line);
	if (how < 0)
		printf("preload:   unknown: %s cannot be read (run as root?)\n", p->file);
	else if (how == NAMED_NOT)
		printf("preload:   off: %s does not name %s\n", p->file, p->lib);
	else
		printf("preload:   on: %s line %u names %s%s%s\n", p->file, line, p->lib,
		       how == NAMED_AMONG ? " (among other libraries)" : "",
		       t.link ? " (through a symbolic link)" : "");
	if (how > 0 && !(t.st.st_mode & S_IROTH))
		printf("warning:   %s is mode %04o: only root's programs get the shim\n",
		       p->file, (unsigned int)(t.st.st_mode & 07777));
	free(t.buf);
	return how;
}

static int preload_status(struct preload *p)
{
	char why[PATH_MAX + 160];
	const char *bad = lib_problem(p, why, sizeof(why));
	int how = status_file(p);

	if (bad && how > 0)
		printf("library:   BROKEN: %s: %s; every program complains or fails "
		       "(arc4ctl preload off)\n", p->libfile, bad);
	else
		printf("library:   %s: %s\n", p->libfile, bad ? bad : "a loadable shared object");
	status_device();
	status_policy(p);
	status_processes(p);
	if (how < 0)
		return EXIT_UNKNOWN;
	if (how == NAMED_NOT)
		return EXIT_OFF;
	return bad ? EXIT_FAILURE : 0;
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
		"  off     take its name out (and the file, if on created it)\n"
		"  status  on or off; /dev/arc4 and arc4dev; the policy file;\n"
		"          how many running processes have the shim mapped\n"
		"  --audit         run `arc4-audit --policy` first and show what it finds\n"
		"  --library PATH  the shim's absolute path (default %s/libarc4.so.1)\n"
		"  --root DIR      edit DIR/etc/ld.so.preload, check DIR/PATH\n"
		"Exit status: 0 done (status: on), 1 failed or refused (status: on, but\n"
		"the library is missing or broken), 2 usage, 3 status: off, 4 status:\n"
		"the file cannot be read.\n",
		ARC4_LIBDIR);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "arc4ctl: preload: %s\n", msg);
	preload_usage(stderr);
	return EXIT_USAGE;
}

/*
 * Paths of p from --root and --library; 0, or a usage error.  The loader
 * reads `#` as a comment, blanks and colons as separators, and expands
 * `$` tokens ($LIB, $PLATFORM): a path with one of them is not the file
 * arc4ctl would check.
 */
static int preload_paths(struct preload *p, char *root, int rooted)
{
	size_t n = strlen(root);

	if (rooted && !n)
		return usage_error("--root takes a directory, not an empty string");
	while (n > 1 && root[n - 1] == '/')
		root[--n] = '\0';
	if (!strcmp(root, "/"))
		root[0] = '\0';
	p->root = root;
	if (p->lib[0] != '/' || strpbrk(p->lib, " \t\n\v\f\r:#$"))
		return usage_error("--library takes an absolute path without blanks, "
				   "colons, `#' or `$'");
	if ((size_t)snprintf(p->dir, sizeof(p->dir), "%s%s", root, PRELOAD_DIR) >= sizeof(p->dir) ||
	    (size_t)snprintf(p->file, sizeof(p->file), "%s/%s", p->dir, PRELOAD_NAME) >= sizeof(p->file) ||
	    (size_t)snprintf(p->libfile, sizeof(p->libfile), "%s%s", root, p->lib) >= sizeof(p->libfile))
		return usage_error("path too long");
	return 0;
}

/* The root and its etc, without following a link out of the tree. */
static int preload_open(struct preload *p)
{
	p->rootfd = open(*p->root ? p->root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->rootfd < 0)
		return fail_errno(*p->root ? p->root : "/", "open", errno);
	p->etcfd = openat(p->rootfd, PRELOAD_DIR + 1, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			  (*p->root ? O_NOFOLLOW : 0));
	if (p->etcfd < 0) {
		close(p->rootfd);
		return fail_errno(p->dir, errno == ELOOP || errno == ENOTDIR ?
				  "not a directory in the tree (a symbolic link?)" : "open", errno);
	}
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
	int c, rooted = 0, rc;

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
			rooted = 1;
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
	if (preload_paths(&p, root, rooted))
		return EXIT_USAGE;
	if (p.audit && strcmp(sub, "on"))
		return usage_error("--audit goes with on");
	if (strcmp(sub, "status") && strcmp(sub, "on") && strcmp(sub, "off"))
		return usage_error("one of on, off, status");
	if (strcmp(sub, "status") && !*p.root && geteuid() != 0) {
		fprintf(stderr, "arc4ctl: preload %s: must be root: %s/%s is read by every program\n",
			sub, PRELOAD_DIR, PRELOAD_NAME);
		return EXIT_FAILURE;
	}
	if (preload_open(&p))
		return EXIT_FAILURE;
	if (!strcmp(sub, "status"))
		rc = preload_status(&p);
	else
		rc = !strcmp(sub, "on") ? preload_on(&p) : preload_off(&p);
	close(p.etcfd);
	close(p.rootfd);
	return rc;
}
