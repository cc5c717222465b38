// SPDX-License-Identifier: GPL-2.0
/*
 * How the shim is linked: exported symbols, SONAME, pkg-config, LD_PRELOAD
 * into the unmodified ref program (with and without ARC4_LEGACY=1), the
 * static library (and that a static program keeps a buffer), secure
 * execution, re-entrant hooks.
 */
#include <sys/ptrace.h>
#include <sys/statvfs.h>

#include "arc4random.h"
#include "kselftest_harness.h"
#include "shim_test.h"

/*
 * Child mode: with ARC4_LINKING_CHILD="rand S N" (or "random S N") this
 * program, linked with the shim, prints N values after
 * srand_deterministic(S) (srandom_deterministic(S)) in ref's format, and
 * exits before the harness starts.
 */
__attribute__((constructor)) static void linking_child(void)
{
	const char *s = getenv("ARC4_LINKING_CHILD");
	unsigned int seed;
	char fn[16];
	int n;

	if (!s || sscanf(s, "%15s %u %d", fn, &seed, &n) != 3)
		return;
	if (!strcmp(fn, "rand")) {
		srand_deterministic(seed);
		for (int i = 0; i < n; i++)
			printf("rand %d\n", rand());
	} else {
		srandom_deterministic(seed);
		for (int i = 0; i < n; i++)
			printf("random %ld\n", random());
	}
	exit(fflush(stdout) ? 1 : 0);
}

/*
 * A test here starts up to 36 programs through popen(); on the debug
 * kernel (KASAN, lockdep) that takes longer than the harness's 30 s.
 * TEST() reads this macro where it is used.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 180

static const char *const public_symbols[] = {
	"arc4_stream_buf", "arc4_stream_double", "arc4_stream_doubles",
	"arc4_stream_free", "arc4_stream_new", "arc4_stream_refill", "arc4_stream_seek",
	"arc4_stream_split", "arc4_stream_tell", "arc4_stream_u32",
	"arc4_stream_u32s", "arc4_stream_u64", "arc4_stream_u64s",
	"arc4_stream_uniform", "arc4random", "arc4random_buf", "arc4random_uniform", "drand48",
	"erand48", "initstate", "jrand48", "lcong48", "lcong48_deterministic",
	"lrand48", "mrand48", "nrand48", "rand", "random", "seed48",
	"seed48_deterministic", "setstate", "srand", "srand48",
	"srand48_deterministic", "srand_deterministic", "srandom",
	"srandom_deterministic", "srandomdev",
};

#define NPUBLIC (sizeof(public_symbols) / sizeof(public_symbols[0]))

TEST(shared_library_exports_exactly_the_public_symbols)
{
	char cmd[PATH_MAX + 64], *out, want[1024] = "";

	snprintf(cmd, sizeof(cmd),
		 "nm -D --defined-only '%s' | awk '{print $3}' | LC_ALL=C sort",
		 libarc4_so());
	ASSERT_EQ(0, run_capture(cmd, &out));
	for (size_t i = 0; i < NPUBLIC; i++) {
		strcat(want, public_symbols[i]);
		strcat(want, "\n");
	}
	EXPECT_STREQ(want, out);
	free(out);
}

TEST(shared_library_has_soname_libarc4_so_1)
{
	char cmd[PATH_MAX + 64], *out, link[PATH_MAX];
	ssize_t n;

	snprintf(cmd, sizeof(cmd), "readelf -d '%s'", libarc4_so());
	ASSERT_EQ(0, run_capture(cmd, &out));
	EXPECT_NE(NULL, strstr(out, "Library soname: [libarc4.so.1]"));
	free(out);
	n = readlink(libarc4_so(), link, sizeof(link) - 1);
	ASSERT_GT(n, 0) TH_LOG("libarc4.so is not a symlink");
	link[n] = 0;
	EXPECT_STREQ("libarc4.so.1", link);
}

TEST(pkg_config_arc4_gives_header_and_library)
{
	char cmd[PATH_MAX + 128], *out;

	snprintf(cmd, sizeof(cmd),
		 "PKG_CONFIG_PATH='%s/lib' pkg-config --cflags --libs arc4",
		 top_dir());
	ASSERT_EQ(0, run_capture(cmd, &out));
	EXPECT_NE(NULL, strstr(out, "-larc4"));
	EXPECT_NE(NULL, strstr(out, "-I")) TH_LOG("%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && printf '#include <arc4random.h>\\nint main(void)"
		 "{return arc4random_uniform(1) + (lcong48_deterministic != 0) - 1;}\\n'"
		 " | cc -x c - -o /tmp/arc4-pc-$$ "
		 "$(PKG_CONFIG_PATH=lib pkg-config --cflags --libs arc4) "
		 "-Wl,-rpath,$PWD/lib && /tmp/arc4-pc-$$; r=$?; "
		 "rm -f /tmp/arc4-pc-$$; exit $r", top_dir());
	EXPECT_EQ(0, run_capture(cmd, &out)) TH_LOG("%s", out);
	free(out);
}

/* ref under env (e.g. "LD_PRELOAD=..."); its output. */
static char *ref_with(const char *env, const char *prog, const char *args)
{
	char *out;
	int rc = run_prog(env, prog, args, &out);

	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static char preload[PATH_MAX + 32];

static const char *preload_env(void)
{
	snprintf(preload, sizeof(preload), "LD_PRELOAD='%s'", libarc4_so());
	return preload;
}

static char legacy_env[PATH_MAX + 64];

static const char *preload_legacy_env(void)
{
	snprintf(legacy_env, sizeof(legacy_env), "%s ARC4_LEGACY=1",
		 preload_env());
	return legacy_env;
}

/* Sequences whose glibc output the shim replaces by strong output. */
static const char *const strong_cases[] = {
	"rand 1 16", "random 1 16", "rand48 1 16", "srandtime 16",
	"unseeded 16", "shared 1 8", "savestate 12345 16",
};

/* Every sequence, for the legacy comparisons. */
static const char *const all_cases[] = {
	"rand 1 200", "rand 12345 200", "random 1 200", "random 99 200",
	"shared 1 200", "shared 77 200", "unseeded 200", "rand_r 5 200",
	"initstate 3 8 100", "initstate 4 64 100", "initstate 5 256 500",
	"setstate", "rand48 1 200", "rand48 -5 200",
	"seed48 1 2 3 200", "lcong48 1 2 3 0xe66d 0xdeec 5 11 100",
	"lcong48 9 8 7 3 0 0 1 100", "erand48 1 2 3 200",
	"savestate 12345 50", "seed48x 0x98765432",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void expect_strong(struct __test_metadata *_metadata, const char *env,
			  const char *prog)
{
	for (size_t i = 0; i < N(strong_cases); i++) {
		char *glibc = ref_with("", "ref", strong_cases[i]);
		char *a = ref_with(env, prog, strong_cases[i]);
		char *b = ref_with(env, prog, strong_cases[i]);

		ASSERT_TRUE(glibc && a && b) TH_LOG("%s", strong_cases[i]);
		EXPECT_STRNE(glibc, a) TH_LOG("%s gave glibc's values",
					      strong_cases[i]);
		EXPECT_STRNE(a, b) TH_LOG("%s replayed", strong_cases[i]);
		EXPECT_EQ(strlen(glibc) > 0, strlen(a) > 0);
		free(glibc);
		free(a);
		free(b);
	}
}

static void expect_glibc(struct __test_metadata *_metadata, const char *env,
			 const char *prog)
{
	for (size_t i = 0; i < N(all_cases); i++) {
		char *glibc = ref_with("", "ref", all_cases[i]);
		char *got = ref_with(env, prog, all_cases[i]);

		ASSERT_TRUE(glibc && got) TH_LOG("%s", all_cases[i]);
		EXPECT_STREQ(glibc, got) TH_LOG("%s", all_cases[i]);
		free(glibc);
		free(got);
	}
}

TEST(preload_makes_an_unmodified_program_strong)
{
	expect_strong(_metadata, preload_env(), "ref");
}

TEST(preload_with_arc4_legacy_matches_glibc_exactly)
{
	expect_glibc(_metadata, preload_legacy_env(), "ref");
}

/* Always-deterministic calls stay glibc's even without ARC4_LEGACY. */
TEST(preload_keeps_rand_r_initstate_setstate_erand48_exact)
{
	static const char *const cases[] = {
		"rand_r 5 200", "initstate 5 256 500", "setstate",
		"erand48 1 2 3 200",
	};

	for (size_t i = 0; i < N(cases); i++) {
		char *glibc = ref_with("", "ref", cases[i]);
		char *got = ref_with(preload_env(), "ref", cases[i]);

		ASSERT_TRUE(glibc && got);
		EXPECT_STREQ(glibc, got) TH_LOG("%s", cases[i]);
		free(glibc);
		free(got);
	}
}

TEST(preload_erand48_honours_lcong48_parameters)
{
	const char *c = "lcong48 1 2 3 0x1234 0x5678 9 0x77 100";
	char *glibc = ref_with("", "ref", c), *got;
	char *gd, *pd;

	got = ref_with(preload_env(), "ref", c);
	ASSERT_TRUE(glibc && got);
	for (int t = 0; t < 3; t++) {
		const char *tag = t == 0 ? "erand48" : t == 1 ? "nrand48" :
								 "jrand48";
		char *g = lines_tagged(glibc, tag), *p = lines_tagged(got, tag);

		EXPECT_STREQ(g, p) TH_LOG("%s", tag);
		free(g);
		free(p);
	}
	gd = lines_tagged(glibc, "drand48");
	pd = lines_tagged(got, "drand48");
	EXPECT_STRNE(gd, pd) TH_LOG("drand48() after lcong48() not strong");
	free(gd);
	free(pd);
	free(glibc);
	free(got);
}

TEST(static_program_links_without_a_dynamic_loader)
{
	char cmd[PATH_MAX + 64], *out;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s/ref-static'", test_dir());
	ASSERT_EQ(0, run_capture(cmd, &out));
	EXPECT_EQ(NULL, strstr(out, "INTERP")) TH_LOG("ref-static is dynamic");
	free(out);
}

TEST(static_program_is_strong)
{
	expect_strong(_metadata, "", "ref-static");
}

/*
 * The system calls that read randomness (getrandom, preadv of /dev/arc4,
 * read) of `ref-static args`, counted by tracing it; -1 on a failure.
 */
static int static_source_calls(const char *args)
{
	struct __ptrace_syscall_info si;
	char path[PATH_MAX], a[64], *argv[8] = { path };
	int status, n = 0, argc = 1;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/ref-static", test_dir());
	snprintf(a, sizeof(a), "%s", args);
	for (char *t = strtok(a, " "); t && argc < 7; t = strtok(NULL, " "))
		argv[argc++] = t;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, 1) < 0 ||
		    ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(127);
		execv(path, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0)
		return -1;
	while (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) == 0 &&
	       waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) {
		if (WSTOPSIG(status) != (SIGTRAP | 0x80) ||
		    ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si) <= 0 ||
		    si.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		n += si.entry.nr == SYS_getrandom || si.entry.nr == SYS_preadv ||
		     si.entry.nr == SYS_read;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? n : -1;
}

/*
 * A static program keeps a buffer as a dynamic one does: its libc may
 * have dladdr1() and know no object, and the executable needs no pin.
 * Without one, each of 1000 rand() calls would read its source.
 */
TEST(static_program_keeps_a_buffer)
{
	int calls;

	if (!shim_buffers())
		SKIP(return, "no buffers here: no /dev/arc4 and glibc >= 2.41");
	if (under_valgrind())
		SKIP(return, "under valgrind, which runs the static program too");
	calls = static_source_calls("unseeded 1000");
	ASSERT_LE(0, calls) TH_LOG("tracing ref-static failed");
	EXPECT_GT(100, calls)
		TH_LOG("1000 values took %d reads of a source", calls);
}

TEST(static_program_with_arc4_legacy_matches_glibc_exactly)
{
	expect_glibc(_metadata, "ARC4_LEGACY=1", "ref-static");
}

/*
 * Under ARC4_LEGACY=1 the _deterministic seeders are glibc's srand() and
 * srandom(): the sequence is glibc's, as for a program seeding the old way.
 */
TEST(arc4_legacy_deterministic_seeders_match_glibc_exactly)
{
	static const char *const cases[] = { "rand 1 16", "rand 4242 16",
					     "random 1 16", "random 77 16" };
	char self[PATH_MAX], cmd[PATH_MAX * 2];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ASSERT_GT(n, 0);
	self[n] = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *glibc = ref_with("", "ref", cases[i]), *got;

		snprintf(cmd, sizeof(cmd),
			 "ARC4_LEGACY=1 ARC4_LINKING_CHILD='%s' '%s'",
			 cases[i], self);
		ASSERT_EQ(0, run_capture(cmd, &got));
		ASSERT_NE(NULL, glibc);
		EXPECT_STREQ(glibc, got) TH_LOG("%s", cases[i]);
		free(glibc);
		free(got);
	}
}

/*
 * The shim's constructor notes whether the environment names ARC4_LEGACY
 * at all; wherever the entry stands, and however long the environment,
 * it is found, and a longer name that begins the same is not it.
 */
TEST(arc4_legacy_is_found_anywhere_in_a_long_environment)
{
	char *glibc = ref_with("", "ref", "rand 1 8"), *env, *got;
	size_t len = 0, cap = 64 * 40 + PATH_MAX + 64;

	ASSERT_NE(NULL, glibc);
	env = malloc(cap);
	ASSERT_NE(NULL, env);
	for (int i = 0; i < 64; i++)
		len += snprintf(env + len, cap - len, "ARC4_LEGACY%d=1 ", i);
	snprintf(env + len, cap - len, "ARC4_LEGACYX=1 ARC4_LEGAC=1 %s",
		 preload_env());
	got = ref_with(env, "ref", "rand 1 8");
	ASSERT_NE(NULL, got);
	EXPECT_STRNE(glibc, got) TH_LOG("a longer or shorter name counted");
	free(got);
	/* Last, at an odd and an even place, statically linked and preloaded. */
	for (int i = 0; i < 4; i++) {
		const char *prog = i < 2 ? "ref-static" : "ref";
		char *all;

		ASSERT_LE(0, asprintf(&all, "%s%s ARC4_LEGACY=1", env,
				      i % 2 ? " ARC4_PAD=1" : ""));
		got = ref_with(all, prog, "rand 1 8");
		ASSERT_NE(NULL, got);
		EXPECT_STREQ(glibc, got)
			TH_LOG("%s, case %d: ARC4_LEGACY=1 last missed", prog, i);
		free(got);
		free(all);
	}
	free(env);
	free(glibc);
}

/*
 * A library preloaded after the shim runs its constructor first: a rand()
 * there comes before the shim's constructor has looked at the
 * environment, and must still see ARC4_LEGACY=1 (and what it decides
 * holds for the program: srand(1) then gives glibc's sequence).
 */
TEST(arc4_legacy_holds_for_a_constructor_that_runs_before_the_shims)
{
	char *glibc = ref_with("", "ref", "rand 1 8"), *env, *got;

	ASSERT_NE(NULL, glibc);
	ASSERT_LE(0, asprintf(&env, "ARC4_CTOR_RAND=1 LD_PRELOAD='%s %s/libctor.so'",
			      libarc4_so(), test_dir()));
	got = ref_with(env, "ref", "rand 1 8");
	ASSERT_NE(NULL, got);
	EXPECT_STRNE(glibc, got) TH_LOG("strong without ARC4_LEGACY");
	free(got);
	free(env);
	ASSERT_LE(0, asprintf(&env, "ARC4_LEGACY=1 ARC4_CTOR_RAND=1 "
			      "LD_PRELOAD='%s %s/libctor.so'",
			      libarc4_so(), test_dir()));
	got = ref_with(env, "ref", "rand 1 8");
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(glibc, got) TH_LOG("the early rand() missed ARC4_LEGACY=1");
	free(got);
	free(env);
	free(glibc);
}

/*
 * The program changes the environment it started with: a string of its
 * own put there, taken out and unmapped (the shim must not read it), or
 * every string it started with overwritten, as a program setting its ps
 * title does (ARC4_LEGACY=1 was there at the start, and still counts).
 */
TEST(arc4_legacy_survives_a_program_rewriting_its_environment)
{
	static const char *const cases[] = { "envfreed", "proctitle" };
	char *glibc = ref_with("", "ref", "rand 1 3"), *env, *got;

	ASSERT_NE(NULL, glibc);
	for (int i = 0; i < 4; i++) {
		const char *prog = i < 2 ? "ref" : "ref-static";

		ASSERT_LE(0, asprintf(&env, "AFOO=x ARC4_LEGACY=1 %s",
				      preload_env()));
		got = ref_with(env, prog, cases[i % 2]);
		ASSERT_NE(NULL, got) TH_LOG("%s %s failed", prog, cases[i % 2]);
		EXPECT_STREQ(glibc, got) TH_LOG("%s %s", prog, cases[i % 2]);
		free(got);
		free(env);
		ASSERT_LE(0, asprintf(&env, "AFOO=x %s", preload_env()));
		got = ref_with(env, prog, cases[i % 2]);
		ASSERT_NE(NULL, got) TH_LOG("%s %s failed", prog, cases[i % 2]);
		EXPECT_STRNE(glibc, got) TH_LOG("%s %s: strong", prog, cases[i % 2]);
		free(got);
		free(env);
	}
	free(glibc);
}

TEST(arc4_legacy_other_values_do_not_enable_legacy)
{
	char *glibc = ref_with("", "ref", "rand 1 8");
	char *got = ref_with("ARC4_LEGACY=yes", "ref-static", "rand 1 8");

	ASSERT_TRUE(glibc && got);
	EXPECT_STRNE(glibc, got);
	free(glibc);
	free(got);
}

/*
 * A set-user-ID copy of ref-static owned by nobody runs with AT_SECURE:
 * secure_getenv() hides ARC4_LEGACY, so rand() stays strong.
 */
TEST(arc4_legacy_is_ignored_in_secure_execution)
{
	char dir[] = "/tmp/arc4-suid-XXXXXX", path[64], cmd[PATH_MAX * 2];
	char *glibc, *out;
	struct statvfs vfs;

	if (geteuid() != 0)
		SKIP(return, "making a set-user-ID program needs root");
	ASSERT_NE(NULL, mkdtemp(dir));
	if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) {
		rmdir(dir);
		SKIP(return, "/tmp is mounted nosuid");
	}
	chmod(dir, 0755);
	snprintf(path, sizeof(path), "%s/ref-static", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/ref-static' %s && chown 65534 %s &&"
		 " chmod 4755 %s", test_dir(), path, path, path);
	ASSERT_EQ(0, run_capture(cmd, &out));
	free(out);
	ASSERT_EQ(0, run_prog("", "ref", "rand 1 8", &glibc));
	snprintf(cmd, sizeof(cmd), "ARC4_LEGACY=1 %s rand 1 8", path);
	EXPECT_EQ(0, run_capture(cmd, &out));
	EXPECT_STRNE(glibc, out) TH_LOG("set-user-ID program honoured ARC4_LEGACY");
	free(out);
	/* Control: the same copy without the bit does honour it. */
	chmod(path, 0755);
	EXPECT_EQ(0, run_capture(cmd, &out));
	EXPECT_STREQ(glibc, out);
	free(out);
	free(glibc);
	unlink(path);
	rmdir(dir);
}

TEST(preload_survives_hooks_that_call_rand_while_the_shim_initialises)
{
	char cmd[PATH_MAX * 3 + 64], *glibc, *out;

	ASSERT_EQ(0, run_prog("", "ref", "rand 1 64", &glibc));
	/* timeout: a deadlock or runaway recursion fails instead of hanging */
	snprintf(cmd, sizeof(cmd),
		 "timeout 30 env -u ARC4_LEGACY LD_PRELOAD='%s/libhook.so %s' "
		 "'%s/ref' rand 1 64", test_dir(), libarc4_so(), test_dir());
	ASSERT_EQ(0, run_capture(cmd, &out));
	EXPECT_EQ(strlen(glibc), strlen(out) ? strlen(glibc) : 0);
	EXPECT_STRNE(glibc, out);
	free(glibc);
	free(out);
}

TEST_HARNESS_MAIN
