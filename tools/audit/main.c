// SPDX-License-Identifier: GPL-2.0
/*
 * arc4-audit: find the programs that depend on seeded determinism of the
 * rand families, and say which need deterministic rand() under arc4.
 *
 *   1. Walking:   the paths given (directories recursively), each file
 *                 once (hard links, overlapping trees, merged /usr)
 *   2. Scanning:  --jobs threads over the files (elf.c, seed.c), and a
 *                 progress line on a terminal
 *   3. Packages:  one batched dpkg-query -S for the files that matter
 *   4. Output:    the table and the summary, --json, or --policy
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "audit.h"

static const char usage[] =
"Usage: arc4-audit [--json | --policy] [--jobs N] [PATH...]\n"
"\n"
"Find the ELF executables and shared libraries that use the rand(),\n"
"random() and rand48 families, follow each seeding call's argument back to\n"
"its origin (constant, entropy such as time() or getpid(), or unknown), and\n"
"give each file a verdict:\n"
"  needs-deterministic  some seed is a constant: the program replays a fixed\n"
"                       sequence, which it loses under arc4's strong rand()\n"
"  review               some seed could not be traced (a parameter, a value\n"
"                       read from input): a person should look\n"
"  strong-ok            every seed is entropy: arc4 only makes it stronger\n"
"  unseeded             draws without ever seeding\n"
"\n"
"PATH is a file or a directory (walked recursively, symbolic links not\n"
"followed).  Default: the directories on PATH and the system library\n"
"directories.  x86-64 and i386 files are analysed; ELF files of other\n"
"architectures are listed as not analysed.\n"
"\n"
"Options:\n"
"  --json        write {\"files\": [...], \"summary\": {...}} instead of the table\n"
"  --policy      write the needs-deterministic executables in the format of\n"
"                /etc/arc4/legacy.conf\n"
"  -j, --jobs N  scan with N threads (default: the number of CPUs)\n"
"  -q, --quiet   no progress line (it is shown only on a terminal anyway)\n"
"  -h, --help    this text\n"
"\n"
"Exit status: 0 when the scan completed, 1 when a path could not be read,\n"
"2 on a usage error.  See arc4-audit(1).\n";

/* ---- 1. Walking ------------------------------------------------------------ */

struct entry {
	char *path;
	char *package;
	struct file_result r;
};

static struct entry *entries;
static size_t nentries, capentries;
static int walk_errors;

/* (st_dev, st_ino) already listed: an open-addressing set. */
static struct devino { dev_t dev; ino_t ino; int used; } *seen;
static size_t seen_cap, seen_n;

static int seen_add(dev_t dev, ino_t ino)
{
	size_t h, i;

	if (2 * (seen_n + 1) > seen_cap) {
		struct devino *old = seen;
		size_t oldcap = seen_cap;

		seen_cap = seen_cap ? 2 * seen_cap : 4096;
		seen = calloc(seen_cap, sizeof(*seen));
		if (!seen)
			abort();
		seen_n = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].used)
				seen_add(old[i].dev, old[i].ino);
		free(old);
	}
	h = (size_t)(ino * 0x9e3779b97f4a7c15ull ^ dev) & (seen_cap - 1);
	for (;; h = (h + 1) & (seen_cap - 1)) {
		if (!seen[h].used) {
			seen[h] = (struct devino){ dev, ino, 1 };
			seen_n++;
			return 1;
		}
		if (seen[h].dev == dev && seen[h].ino == ino)
			return 0;
	}
}

static void add_entry(const char *path, const struct stat *st)
{
	/* An ELF header is 52 bytes (ELF32) or 64 (ELF64). */
	if (!S_ISREG(st->st_mode) || st->st_size < 52 ||
	    !seen_add(st->st_dev, st->st_ino))
		return;
	if (nentries == capentries) {
		capentries = capentries ? 2 * capentries : 4096;
		entries = realloc(entries, capentries * sizeof(*entries));
		if (!entries)
			abort();
	}
	memset(&entries[nentries], 0, sizeof(entries[0]));
	entries[nentries++].path = strdup(path);
}

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_F)
		add_entry(path, st);
	else if (type == FTW_DNR || type == FTW_NS)
		fprintf(stderr, "arc4-audit: %s: cannot read\n", path);
	return 0;
}

static void walk(const char *arg)
{
	char path[2 * PATH_MAX + 2], cwd[PATH_MAX];
	struct stat st;

	/* Absolute paths: the report's, and dpkg-query's, which takes a
	 * relative one as a pattern. */
	while (arg[0] == '.' && arg[1] == '/')
		arg += 2;
	if (strcmp(arg, ".") == 0 && getcwd(cwd, sizeof(cwd)))
		snprintf(path, sizeof(path), "%s", cwd);
	else if (arg[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(path, sizeof(path), "%s/%s", strcmp(cwd, "/") ? cwd : "", arg);
	else
		snprintf(path, sizeof(path), "%s", arg);

	if (stat(path, &st) != 0) {
		fprintf(stderr, "arc4-audit: %s: %s\n", path, strerror(errno));
		walk_errors++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		add_entry(path, &st);
		return;
	}
	if (nftw(path, walk_one, 64, FTW_PHYS) != 0) {
		fprintf(stderr, "arc4-audit: %s: %s\n", path, strerror(errno));
		walk_errors++;
	}
}

/* The directories on PATH and the system library directories, each once. */
static void walk_defaults(void)
{
	static const char *const libdirs[] = {
		"/lib", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib64",
		"/usr/lib32", "/usr/libx32", "/usr/local/lib",
	};
	const char *env = getenv("PATH");
	char *path = strdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin"), *save = NULL, *d;
	size_t i;

	for (d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		/* Relative PATH entries would depend on where we were run. */
		if (d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode))
			walk(d);
	}
	free(path);
	for (i = 0; i < sizeof(libdirs) / sizeof(libdirs[0]); i++) {
		struct stat st;

		if (lstat(libdirs[i], &st) == 0 && S_ISDIR(st.st_mode))
			walk(libdirs[i]);
	}
}

/* ---- 2. Scanning ----------------------------------------------------------- */

static size_t next_entry, done_entries, using_entries;

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&next_entry, 1, __ATOMIC_RELAXED);

		if (i >= nentries)
			return NULL;
		audit_file(entries[i].path, &entries[i].r);
		if (entries[i].r.imports)
			__atomic_fetch_add(&using_entries, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&done_entries, 1, __ATOMIC_RELEASE);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void scan(int jobs, int progress)
{
	pthread_t *t = calloc(jobs, sizeof(*t));
	int i;

	for (i = 0; i < jobs; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
			if (i == 0)
				worker(NULL);
			jobs = i;
			break;
		}
	while (progress &&
	       __atomic_load_n(&done_entries, __ATOMIC_ACQUIRE) < nentries) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		fprintf(stderr, "\rarc4-audit: %zu/%zu files, %zu use the rand families",
			__atomic_load_n(&done_entries, __ATOMIC_ACQUIRE), nentries,
			__atomic_load_n(&using_entries, __ATOMIC_RELAXED));
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < jobs; i++)
		pthread_join(t[i], NULL);
	if (progress)
		fprintf(stderr, "\r\033[K");
	free(t);
}

/* ---- 3. Packages ------------------------------------------------------------- */

/*
 * The names dpkg may know a file by: as walked, with symbolic links
 * resolved, and without /usr for files under a merged /usr (Debian 12
 * lists /bin/ls, not /usr/bin/ls).
 */
static int path_aliases(const char *path, char out[3][PATH_MAX])
{
	static const char *const merged[] = {
		"/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/lib32/",
		"/usr/lib64/", "/usr/libx32/",
	};
	int n = 0, k, i;

	snprintf(out[n++], PATH_MAX, "%s", path);
	if (realpath(path, out[n]) && strcmp(out[n], out[0]) != 0)
		n++;
	for (k = 0, i = n; k < i; k++) {
		size_t j;

		for (j = 0; j < sizeof(merged) / sizeof(merged[0]); j++)
			if (strncmp(out[k], merged[j], strlen(merged[j])) == 0 && n < 3) {
				snprintf(out[n++], PATH_MAX, "%s", out[k] + 4);
				break;
			}
	}
	return n;
}

struct pkgmap {
	char *path, *pkg;
};

static int pkgmap_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pkgmap *)a)->path,
		      ((const struct pkgmap *)b)->path);
}

/* One dpkg-query -S for every alias of every file that uses the families. */
static void find_packages(void)
{
	char (*alias)[PATH_MAX] = malloc(3 * PATH_MAX);
	char **argv = NULL, *line = NULL;
	size_t argc = 0, cap = 0, i, len = 0, nmap = 0, capmap = 0;
	struct pkgmap *map = NULL;
	int pipefd[2], k, n;
	pid_t pid;
	FILE *in;

	argv = malloc(8 * sizeof(*argv));
	cap = 8;
	argv[argc++] = "dpkg-query";
	argv[argc++] = "-S";
	for (i = 0; i < nentries; i++) {
		if (!entries[i].r.imports)
			continue;
		n = path_aliases(entries[i].path, alias);
		for (k = 0; k < n; k++) {
			/* dpkg-query takes these as glob patterns */
			if (alias[k][0] != '/' || strpbrk(alias[k], "*?[\\"))
				continue;
			if (argc + 2 >= cap) {
				cap *= 2;
				argv = realloc(argv, cap * sizeof(*argv));
			}
			argv[argc++] = strdup(alias[k]);
		}
	}
	argv[argc] = NULL;
	if (argc == 2 || pipe(pipefd) != 0)
		goto out;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(pipefd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(pipefd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		goto out;
	}
	in = fdopen(pipefd[0], "r");
	while (in && getline(&line, &len, in) > 0) {
		char *sep = strstr(line, ": ");
		struct pkgmap m;

		/* "pkg[:arch][, pkg...]: /path"; skip diversion notes */
		if (!sep || strncmp(line, "diversion by ", 13) == 0)
			continue;
		*sep = '\0';
		sep[2 + strcspn(sep + 2, "\n")] = '\0';
		m.pkg = strdup(line);
		m.path = strdup(sep + 2);
		if (nmap == capmap) {
			capmap = capmap ? 2 * capmap : 64;
			map = realloc(map, capmap * sizeof(*map));
		}
		map[nmap++] = m;
	}
	if (in)
		fclose(in);
	waitpid(pid, NULL, 0);
	qsort(map, nmap, sizeof(*map), pkgmap_cmp);
	for (i = 0; i < nentries; i++) {
		if (!entries[i].r.imports)
			continue;
		n = path_aliases(entries[i].path, alias);
		for (k = 0; k < n && !entries[i].package; k++) {
			struct pkgmap key = { alias[k], NULL }, *hit;

			hit = bsearch(&key, map, nmap, sizeof(*map), pkgmap_cmp);
			if (hit)
				entries[i].package = strdup(hit->pkg);
		}
	}
out:
	for (i = 0; i < nmap; i++) {
		free(map[i].path);
		free(map[i].pkg);
	}
	free(map);
	for (i = 2; i < argc; i++)
		free(argv[i]);
	free(argv);
	free(line);
	free(alias);
}

/* ---- 4. Output ------------------------------------------------------------ */

struct summary {
	size_t files, elf, not_analysed, use, seeding, errors;
	size_t by_verdict[VERDICT_NOT_ANALYSED + 1];
};

static void summarise(struct summary *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->files = nentries;
	for (i = 0; i < nentries; i++) {
		const struct file_result *r = &entries[i].r;

		s->elf += r->is_elf;
		s->errors += r->error[0] != '\0';
		s->by_verdict[r->verdict]++;
		s->use += r->imports != 0;
		s->seeding += r->nseeds != 0;
	}
	s->not_analysed = s->by_verdict[VERDICT_NOT_ANALYSED];
}

static int verdict_rank(enum verdict v)
{
	static const int rank[] = {
		[VERDICT_NEEDS_DETERMINISTIC] = 0, [VERDICT_REVIEW] = 1,
		[VERDICT_STRONG_OK] = 2, [VERDICT_UNSEEDED] = 3,
		[VERDICT_NOT_ANALYSED] = 4, [VERDICT_NONE] = 5,
	};
	return rank[v];
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int d = verdict_rank(x->r.verdict) - verdict_rank(y->r.verdict);

	return d ? d : strcmp(x->path, y->path);
}

static const char *const class_names[] = {
	[CLASS_CONSTANT] = "constant", [CLASS_ENTROPY] = "entropy",
	[CLASS_UNKNOWN] = "unknown",
};

/* names[k] for every bit k of mask, joined by sep: "time+getpid". */
static void names_text(uint32_t mask, const char *(*name)(int), int n,
		       const char *sep, char *buf, size_t len)
{
	int k;

	buf[0] = '\0';
	for (k = 0; k < n; k++)
		if (mask & (1u << k))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? sep : "", name(k));
}

static const char *source_name(int k)
{
	return source_names[k];
}

static const char *family_name(int k)
{
	return families[k].name;
}

/* What the report says of a seed besides its class. */
static void seed_detail(const struct seed_site *s, char *buf, size_t len)
{
	switch (s->class) {
	case CLASS_CONSTANT:
		if (s->has_value)
			snprintf(buf, len, "%llu", (unsigned long long)s->value);
		else
			snprintf(buf, len, "%s", s->why);
		break;
	case CLASS_ENTROPY:
		names_text(s->sources, source_name, SRC_NSOURCES, "+", buf, len);
		break;
	case CLASS_UNKNOWN:
		snprintf(buf, len, "%s", s->why);
		break;
	}
}

static void print_summary(FILE *out, const struct summary *s, double secs,
			  int jobs)
{
	fprintf(out, "\nSummary, in the terms of OpenBSD's 2014 audit:\n");
	fprintf(out, "  %6zu ELF executables and libraries", s->elf - s->not_analysed);
	if (s->not_analysed)
		fprintf(out, " (and %zu of other architectures, not analysed)",
			s->not_analysed);
	fprintf(out, "\n  %6zu use the rand families\n", s->use);
	fprintf(out, "  %6zu seed them:\n", s->seeding);
	fprintf(out, "  %6zu   from entropy only (strong-ok)\n",
		s->by_verdict[VERDICT_STRONG_OK]);
	fprintf(out, "  %6zu   with a constant (needs-deterministic)\n",
		s->by_verdict[VERDICT_NEEDS_DETERMINISTIC]);
	fprintf(out, "  %6zu   from an origin not traced (review)\n",
		s->by_verdict[VERDICT_REVIEW]);
	fprintf(out, "  %6zu draw without seeding (unseeded)\n",
		s->by_verdict[VERDICT_UNSEEDED]);
	if (s->errors)
		fprintf(out, "  %6zu files could not be read\n", s->errors);
	fprintf(out, "  %zu files looked at in %.1f s with %d job%s\n", s->files,
		secs, jobs, jobs == 1 ? "" : "s");
}

static void print_table(FILE *out, const struct summary *s, double secs, int jobs)
{
	char fams[512], detail[128];
	size_t i, j, wpath = 4, wpkg = 7;
	int header = 0;

	for (i = 0; i < nentries; i++)
		if (entries[i].r.imports) {
			size_t lp = strlen(entries[i].path);
			size_t lk = entries[i].package ? strlen(entries[i].package) : 1;

			wpath = lp > wpath ? lp : wpath;
			wpkg = lk > wpkg ? lk : wpkg;
		}
	wpath = wpath > 60 ? 60 : wpath;
	wpkg = wpkg > 24 ? 24 : wpkg;
	for (i = 0; i < nentries; i++) {
		const struct entry *e = &entries[i];

		if (!e->r.imports)
			continue;
		if (!header++)
			fprintf(out, "%-19s  %-*s  %-*s  %-24s  %s\n", "VERDICT",
				(int)wpath, "FILE", (int)wpkg, "PACKAGE",
				"FAMILIES", "SEEDS");
		names_text(e->r.imports, family_name, nfamilies, ",", fams, sizeof(fams));
		fprintf(out, "%-19s  %-*s  %-*s  %-24s", verdict_names[e->r.verdict],
			(int)wpath, e->path, (int)wpkg,
			e->package ? e->package : "-", fams);
		for (j = 0; j < e->r.nseeds; j++) {
			const struct seed_site *sd = &e->r.seeds[j];

			seed_detail(sd, detail, sizeof(detail));
			if (j)
				fprintf(out, "\n%*s", (int)(19 + wpath + wpkg + 32), "");
			if (sd->address)
				fprintf(out, "  %s@%#llx %s: %s", families[sd->family].name,
					(unsigned long long)sd->address,
					class_names[sd->class], detail);
			else
				fprintf(out, "  %s %s: %s", families[sd->family].name,
					class_names[sd->class], detail);
		}
		fprintf(out, "\n");
	}
	if (s->not_analysed) {
		fprintf(out, "\nNot analysed (other architectures):\n");
		for (i = 0; i < nentries; i++)
			if (entries[i].r.verdict == VERDICT_NOT_ANALYSED)
				fprintf(out, "  %-12s %s\n", entries[i].r.machine,
					entries[i].path);
	}
	print_summary(out, s, secs, jobs);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void print_json(FILE *out, const struct summary *s, double secs, int jobs)
{
	char detail[128];
	size_t i, j;
	int k, first = 1;

	fprintf(out, "{\"files\": [");
	for (i = 0; i < nentries; i++) {
		const struct entry *e = &entries[i];
		int firstimp = 1;

		if (!e->r.imports)
			continue;
		fprintf(out, "%s\n  {\"path\": ", first ? "" : ",");
		first = 0;
		json_string(out, e->path);
		fprintf(out, ", \"package\": ");
		if (e->package)
			json_string(out, e->package);
		else
			fprintf(out, "null");
		fprintf(out, ", \"executable\": %s, \"imports\": [",
			e->r.is_executable ? "true" : "false");
		for (k = 0; k < nfamilies; k++)
			if (e->r.imports & (1u << k)) {
				fprintf(out, "%s\"%s\"", firstimp ? "" : ", ", families[k].name);
				firstimp = 0;
			}
		fprintf(out, "], \"seeds\": [");
		for (j = 0; j < e->r.nseeds; j++) {
			const struct seed_site *sd = &e->r.seeds[j];

			fprintf(out, "%s{\"function\": \"%s\", \"address\": ",
				j ? ", " : "", families[sd->family].name);
			if (sd->address)
				fprintf(out, "%llu", (unsigned long long)sd->address);
			else
				fprintf(out, "null");
			fprintf(out, ", \"class\": \"%s\", \"value\": ",
				class_names[sd->class]);
			if (sd->class == CLASS_CONSTANT && sd->has_value)
				fprintf(out, "%llu", (unsigned long long)sd->value);
			else
				fprintf(out, "null");
			seed_detail(sd, detail, sizeof(detail));
			fprintf(out, ", \"origin\": ");
			json_string(out, sd->class == CLASS_CONSTANT && sd->has_value ?
					 "constant" : detail);
			fprintf(out, "}");
		}
		fprintf(out, "], \"verdict\": \"%s\"}", verdict_names[e->r.verdict]);
	}
	fprintf(out, "\n], \"not_analysed\": [");
	first = 1;
	for (i = 0; i < nentries; i++) {
		if (entries[i].r.verdict != VERDICT_NOT_ANALYSED)
			continue;
		fprintf(out, "%s\n  {\"path\": ", first ? "" : ",");
		first = 0;
		json_string(out, entries[i].path);
		fprintf(out, ", \"machine\": ");
		json_string(out, entries[i].r.machine);
		fprintf(out, "}");
	}
	fprintf(out, "\n], \"summary\": {\"files\": %zu, \"elf\": %zu, "
		"\"not_analysed\": %zu, \"use_families\": %zu, \"seeding\": %zu, "
		"\"strong_ok\": %zu, \"needs_deterministic\": %zu, \"review\": %zu, "
		"\"unseeded\": %zu, \"errors\": %zu, \"seconds\": %.2f, \"jobs\": %d}}\n",
		s->files, s->elf - s->not_analysed, s->not_analysed, s->use,
		s->seeding, s->by_verdict[VERDICT_STRONG_OK],
		s->by_verdict[VERDICT_NEEDS_DETERMINISTIC],
		s->by_verdict[VERDICT_REVIEW], s->by_verdict[VERDICT_UNSEEDED],
		s->errors, secs, jobs);
}

/* The needs-deterministic executables, as /etc/arc4/legacy.conf lines. */
static void print_policy(FILE *out)
{
	char real[PATH_MAX];
	size_t i;

	fprintf(out, "# /etc/arc4/legacy.conf: executables that seed the rand families with\n"
		"# a constant and so keep glibc's replayable rand() under arc4.\n"
		"# Written by arc4-audit --policy; one absolute path a line.\n");
	for (i = 0; i < nentries; i++) {
		const struct entry *e = &entries[i];

		if (e->r.verdict != VERDICT_NEEDS_DETERMINISTIC)
			continue;
		if (!e->r.is_executable) {
			fprintf(out, "# %s (a library) seeds with a constant: "
				"list the programs that use it\n", e->path);
			continue;
		}
		/* The shim compares the running executable's resolved path. */
		fprintf(out, "%s\n", realpath(e->path, real) ? real : e->path);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "policy", no_argument, NULL, 'P' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, policy = 0, quiet = 0, c, i;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	struct summary s;
	double t0, secs;
	char *end;
	size_t k;

	while ((c = getopt_long(argc, argv, "j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = 1;
			break;
		case 'P':
			policy = 1;
			break;
		case 'j':
			errno = 0;
			jobs = strtol(optarg, &end, 10);
			if (errno || *end || jobs < 1 || jobs > 1024) {
				fprintf(stderr, "arc4-audit: --jobs: not a number from 1 to 1024: %s\n", optarg);
				return 2;
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'arc4-audit --help'.\n");
			return 2;
		}
	}
	if (json && policy) {
		fprintf(stderr, "arc4-audit: --json and --policy exclude each other\n");
		return 2;
	}
	if (jobs < 1)
		jobs = 1;
	audit_init();
	t0 = now();
	if (optind == argc)
		walk_defaults();
	for (i = optind; i < argc; i++)
		walk(argv[i]);
	scan(jobs, !quiet && isatty(2));
	for (k = 0; k < nentries; k++)
		if (entries[k].r.error[0] && entries[k].r.is_elf)
			fprintf(stderr, "arc4-audit: %s: %s\n", entries[k].path,
				entries[k].r.error);
	if (!policy)
		find_packages();
	qsort(entries, nentries, sizeof(*entries), entry_cmp);
	secs = now() - t0;
	summarise(&s);
	if (policy)
		print_policy(stdout);
	else if (json)
		print_json(stdout, &s, secs, jobs);
	else
		print_table(stdout, &s, secs, jobs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "arc4-audit: write error: %s\n", strerror(errno));
		return 1;
	}
	return walk_errors ? 1 : 0;
}
