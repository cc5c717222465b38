/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the /dev/arc4 selftests: opening the device, seeding
 * it, and an independent reference keystream from OpenSSL's ChaCha20.
 */
#ifndef ARC4_TEST_H
#define ARC4_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <linux/arc4.h>
#include <linux/magic.h>

#include "../harness_scale.h"

#define ARC4_DEV "/dev/arc4"
#define ARC4_DEBUGFS "/sys/kernel/debug"

/*
 * SKIP() for a FIXTURE_SETUP.  The 6.1 harness runs the test body after a
 * setup that called SKIP() and returned, so a skipped setup would still
 * fail its test.  Jumping back to the harness wrapper's setjmp() skips the
 * body, and the teardown too, since setup never completed.  The harness's
 * rework of fixture set-up and teardown (6.9, which brought
 * FIXTURE_TEARDOWN_PARENT) ends a test whose setup skipped by itself, and
 * later harnesses have no setjmp() to jump to.
 */
#ifdef FIXTURE_TEARDOWN_PARENT
#define SETUP_SKIP(fmt, ...) SKIP(return, fmt, ##__VA_ARGS__)
#else
#define SETUP_SKIP(fmt, ...) do {				\
	SKIP(, fmt, ##__VA_ARGS__);				\
	longjmp(_metadata->env, 1);				\
} while (0)
#endif

static inline int arc4_open(int flags)
{
	return open(ARC4_DEV, O_RDONLY | O_CLOEXEC | flags);
}

static inline int arc4_seed(int fd, const uint8_t key[32], uint64_t nonce)
{
	struct arc4_seed s = { .nonce = nonce };

	memcpy(s.key, key, sizeof(s.key));
	return ioctl(fd, ARC4_IOC_SEED, &s);
}

static inline int arc4_info(int fd, struct arc4_info *info)
{
	return ioctl(fd, ARC4_IOC_GET_INFO, info);
}

static inline void random_fill(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0)
			abort();
		p += n;
		len -= n;
	}
}

static inline uint64_t random_u64(void)
{
	uint64_t v;

	random_fill(&v, sizeof(v));
	return v;
}

/*
 * Bytes [pos, pos + len) of the stream with this key and nonce, computed by
 * OpenSSL.  Its 16-byte IV is the 32-bit counter then a 96-bit nonce; given
 * le64(block) || le64(nonce) it is exactly our layout, and it carries word
 * 12 into word 13 as our 64-bit counter does.  Returns 0 on success.
 */
static inline int ref_keystream(const uint8_t key[32], uint64_t nonce,
				uint64_t pos, uint8_t *out, size_t len)
{
	uint64_t block = pos / 64;
	size_t skip = pos % 64, done = 0;
	uint8_t iv[16], zero[4096] = { 0 }, tmp[4096];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int i, n, ok;

	for (i = 0; i < 8; i++) {
		iv[i] = block >> (8 * i);
		iv[8 + i] = nonce >> (8 * i);
	}
	ok = ctx && EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv);
	if (ok && skip)
		ok = EVP_EncryptUpdate(ctx, tmp, &n, zero, skip);
	while (ok && done < len) {
		size_t want = len - done < sizeof(zero) ? len - done :
							  sizeof(zero);

		ok = EVP_EncryptUpdate(ctx, out + done, &n, zero, want);
		done += want;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* read() until len bytes or an error; returns bytes read or -1. */
static inline ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0)
			return n < 0 ? -1 : (ssize_t)done;
		done += n;
	}
	return done;
}

/* A small sysfs, proc or cgroup file as a string; its length, or -1. */
static inline ssize_t read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The module's reference count (its open files), or -1. */
static inline long module_refcnt(void)
{
	char buf[32];

	if (read_text("/sys/module/arc4dev/refcnt", buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Pin the caller to cpu; 0 when done. */
static inline int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* debugfs at /sys/kernel/debug, mounted there if it is not; 0 when it is. */
static inline int debugfs_mount(void)
{
	struct statfs sfs;

	if (!statfs(ARC4_DEBUGFS, &sfs) && sfs.f_type == DEBUGFS_MAGIC)
		return 0;
	return mount("debugfs", ARC4_DEBUGFS, "debugfs", 0, NULL);
}

static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n, len = strlen(text);

	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	close(fd);
	return n == len ? 0 : -1;
}

static inline int first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

#endif /* ARC4_TEST_H */
