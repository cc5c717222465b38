/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hibernation without an image, for the tests of what a resume does:
 * with /sys/power/pm_test at "freezer" (CONFIG_PM_DEBUG, which Debian's
 * kernels have), writing "disk" to /sys/power/state runs the notifiers of
 * a hibernation (PM_HIBERNATION_PREPARE, then PM_POST_HIBERNATION, as a
 * resumed kernel runs it), freezes and thaws every task, and touches no
 * device.  The kernel waits 5 s in between.  Root only.
 */
#ifndef ARC4_PM_CYCLE_H
#define ARC4_PM_CYCLE_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static inline int pm_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Why this kernel cannot run the cycle, naming the option it lacks; NULL
 * where it can (every Debian kernel).  A test skips with the reason rather
 * than fail on a kernel built without them (scripts/config has both).
 */
static inline const char *pm_hibernation_lack(void)
{
	char states[128] = "";
	int fd = open("/sys/power/state", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, states, sizeof(states) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0 || !strstr(states, "disk"))
		return "no hibernation here (CONFIG_HIBERNATION, or hibernation locked down)";
	if (access("/sys/power/pm_test", F_OK))
		return "no /sys/power/pm_test (CONFIG_PM_DEBUG)";
	return NULL;
}

/* 0, or -1 with errno; /sys/power/pm_test is left as it was. */
static inline int pm_hibernation_cycle(void)
{
	char cur[256] = "", old[64] = "none", *a, *b;
	int fd = open("/sys/power/pm_test", O_RDONLY | O_CLOEXEC), ret, err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, cur, sizeof(cur) - 1);
	close(fd);
	if (n > 0) {
		cur[n] = 0;
		a = strchr(cur, '[');
		b = a ? strchr(a, ']') : NULL;
		if (b && b - a - 1 < (long)sizeof(old)) {
			memcpy(old, a + 1, b - a - 1);
			old[b - a - 1] = 0;
		}
	}
	if (pm_write("/sys/power/pm_test", "freezer"))
		return -1;
	ret = pm_write("/sys/power/state", "disk");
	err = errno;
	pm_write("/sys/power/pm_test", old);
	errno = err;
	return ret;
}

#endif
