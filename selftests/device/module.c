// SPDX-License-Identifier: GPL-2.0
/*
 * The module: it cannot be unloaded while a file is open, it reloads
 * cleanly, and its device node and parameters appear as documented.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arc4_test.h"

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long refcnt(void)
{
	char buf[32] = { 0 };
	int fd = open("/sys/module/arc4dev/refcnt", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
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
	EXPECT_EQ(1, refcnt());
	EXPECT_NE(0, run("rmmod arc4dev 2>/dev/null"));
	EXPECT_EQ(0, access("/sys/module/arc4dev", F_OK));
	/* The open file still works after the refused unload. */
	EXPECT_EQ(16, read(fd, buf, sizeof(buf)));
	/* A dup'd or forked descriptor is the same file: still one ref. */
	fd2 = dup(fd);
	EXPECT_EQ(1, refcnt());
	close(fd2);
	close(fd);
	EXPECT_EQ(0, refcnt());
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
		EXPECT_EQ(FILES, refcnt());
		for (i = 0; i < FILES; i++)
			close(fds[i]);
		ASSERT_EQ(0, run("rmmod arc4dev"));
		ASSERT_EQ(0, run("modprobe arc4dev"));
	}
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
