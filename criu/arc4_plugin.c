// SPDX-License-Identifier: GPL-2.0
/*
 * arc4_plugin.so: CRIU checkpoints and restores processes that hold
 * /dev/arc4 descriptors and the generation page.
 *
 *   dump     HANDLE_DEVICE_VMA accepts the generation page: CRIU records
 *            the mapping, not its contents, and the restore maps
 *            /dev/arc4 again at the same address, read-only and shared,
 *            from a fresh open.  DUMP_EXT_FILE writes arc4-file-ID.img for
 *            each /dev/arc4 file: its mode and open flags and, for a
 *            deterministic stream, its key, nonce (ARC4_IOC_GET_SEED) and
 *            position.  A strong key never leaves the kernel.
 *   restore  init moves the generation (ARC4_IOC_NEW_GENERATION) before
 *            CRIU creates the first task, if the image holds arc4 state:
 *            every restore is a copy of the processes, and each copy drops
 *            the values it buffered before the dump.  RESTORE_EXT_FILE
 *            opens /dev/arc4 again, strong with a new key or seeded at the
 *            recorded position.
 *
 * Any other file or mapping is another plugin's: -ENOTSUP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <criu/criu-plugin.h>
#include <linux/arc4.h>

#define ARC4_DEVICE	"/dev/arc4"
#define ARC4_SYSFS_DEV	"/sys/class/misc/arc4/dev"
/* In the image directory: present when the image holds any arc4 state. */
#define ARC4_MARK_IMG	"arc4.img"
#define ARC4_FILE_IMG	"arc4-file-%08x.img"
#define ARC4_IMG_MAGIC	"ARC4CRIU"
#define ARC4_IMG_V1	1

/* CRIU's own logger (its log.h is not installed); levels as in it. */
extern void print_on_level(unsigned int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define LOG_ERROR	1
#define LOG_INFO	3
#define pr_err(fmt, ...)  print_on_level(LOG_ERROR, "arc4: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) print_on_level(LOG_INFO, "arc4: " fmt, ##__VA_ARGS__)

/*
 * CRIU 4.0 and later name in the image inventory the plugins a restore
 * needs, so that a restore without this one fails instead of skipping
 * the generation move.  Older CRIU lacks both calls; they stay NULL.
 */
extern int add_inventory_plugin(const char *name) __attribute__((weak));
extern bool check_and_remove_inventory_plugin(const char *name, size_t n)
	__attribute__((weak));

/**
 * struct arc4_img - one /dev/arc4 file in arc4-file-ID.img
 * @magic:    ARC4_IMG_MAGIC
 * @version:  ARC4_IMG_V1
 * @mode:     ARC4_MODE_STRONG or ARC4_MODE_DETERMINISTIC
 * @flags:    the file's O_ACCMODE and O_NONBLOCK
 * @reserved: zero
 * @seed:     deterministic: key and nonce; strong: zero
 * @position: deterministic: the file offset; strong: zero
 */
struct arc4_img {
	char magic[8];
	uint32_t version;
	uint32_t mode;
	uint32_t flags;
	uint32_t reserved;
	struct arc4_seed seed;
	uint64_t position;
};

static dev_t arc4_rdev;	/* 0: no arc4dev here at dump */

static int arc4_init(int stage);
CR_PLUGIN_REGISTER("arc4", arc4_init, NULL)

static int is_arc4(const struct stat *st)
{
	return arc4_rdev && S_ISCHR(st->st_mode) && st->st_rdev == arc4_rdev;
}

/* The misc device's number, which CRIU compares with what it finds. */
static void find_device(void)
{
	unsigned int maj, min;
	FILE *f = fopen(ARC4_SYSFS_DEV, "re");

	if (!f)
		return;
	if (fscanf(f, "%u:%u", &maj, &min) == 2)
		arc4_rdev = makedev(maj, min);
	fclose(f);
}

static int img_write(const char *name, const void *buf, size_t len)
{
	int fd, ret = 0;

	fd = openat(criu_get_image_dir(), name,
		    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		pr_err("cannot create %s: %m\n", name);
		return -errno;
	}
	if (write(fd, buf, len) != (ssize_t)len) {
		pr_err("cannot write %s: %m\n", name);
		ret = -EIO;
	}
	if (close(fd) && !ret)
		ret = -EIO;
	return ret;
}

/* The image holds arc4 state: its restore must move the generation. */
static int mark_image(void)
{
	static int marked;

	if (marked)
		return 0;
	if (add_inventory_plugin && add_inventory_plugin(CR_PLUGIN_DESC.name))
		return -ENOMEM;
	marked = 1;
	return img_write(ARC4_MARK_IMG, ARC4_IMG_MAGIC, 8);
}

static int arc4_handle_device_vma(int fd, const struct stat *st)
{
	(void)fd;
	if (!is_arc4(st))
		return -ENOTSUP;
	pr_info("generation page: mapped again at restore\n");
	return mark_image();
}
CR_PLUGIN_REGISTER_HOOK(CR_PLUGIN_HOOK__HANDLE_DEVICE_VMA,
			arc4_handle_device_vma)

static int arc4_dump_file(int fd, int id)
{
	struct arc4_img img = { .version = ARC4_IMG_V1 };
	struct arc4_info info;
	char name[64];
	struct stat st;
	int ret, fl;

	/* Eight bytes, no NUL (GCC 15 refuses the string as an initialiser). */
	memcpy(img.magic, ARC4_IMG_MAGIC, sizeof(img.magic));

	if (fstat(fd, &st) || !is_arc4(&st))
		return -ENOTSUP;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || ioctl(fd, ARC4_IOC_GET_INFO, &info)) {
		pr_err("file %#x: %m\n", id);
		return -errno;
	}
	img.mode = info.mode;
	img.flags = fl & (O_ACCMODE | O_NONBLOCK);
	if (info.mode == ARC4_MODE_DETERMINISTIC) {
		if (ioctl(fd, ARC4_IOC_GET_SEED, &img.seed)) {
			pr_err("file %#x: seed: %m\n", id);
			return -errno;
		}
		img.position = info.position;
	}
	snprintf(name, sizeof(name), ARC4_FILE_IMG, id);
	ret = mark_image();
	if (!ret)
		ret = img_write(name, &img, sizeof(img));
	explicit_bzero(&img, sizeof(img));
	pr_info("file %#x: %s\n", id,
		info.mode == ARC4_MODE_STRONG ? "strong" : "deterministic");
	return ret;
}
CR_PLUGIN_REGISTER_HOOK(CR_PLUGIN_HOOK__DUMP_EXT_FILE, arc4_dump_file)

/* A deterministic stream goes on at its position; 0 or -errno. */
static int reseed(int fd, const struct arc4_img *img)
{
	if (ioctl(fd, ARC4_IOC_SEED, &img->seed))
		return -errno;
	if (lseek(fd, img->position, SEEK_SET) != (off_t)img->position)
		return -errno;
	return 0;
}

static int arc4_restore_file(int id)
{
	struct arc4_img img;
	char name[64];
	int fd, ret;
	ssize_t n;

	snprintf(name, sizeof(name), ARC4_FILE_IMG, id);
	fd = openat(criu_get_image_dir(), name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOTSUP : -errno;
	n = read(fd, &img, sizeof(img));
	close(fd);
	if (n != sizeof(img) || memcmp(img.magic, ARC4_IMG_MAGIC, 8) ||
	    img.version != ARC4_IMG_V1 || img.mode > ARC4_MODE_DETERMINISTIC) {
		pr_err("%s: not an arc4 image this plugin reads\n", name);
		ret = -EINVAL;
		goto out;
	}
	fd = open(ARC4_DEVICE, (img.flags & (O_ACCMODE | O_NONBLOCK)) |
			       O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		pr_err("file %#x: open " ARC4_DEVICE ": %m\n", id);
		goto out;
	}
	ret = img.mode == ARC4_MODE_DETERMINISTIC ? reseed(fd, &img) : 0;
	if (ret) {
		pr_err("file %#x: seed: %s\n", id, strerror(-ret));
		close(fd);
	} else {
		ret = fd;
	}
out:
	explicit_bzero(&img, sizeof(img));
	return ret;
}
CR_PLUGIN_REGISTER_HOOK(CR_PLUGIN_HOOK__RESTORE_EXT_FILE, arc4_restore_file)

/*
 * Before any task of the image exists.  The image may be restored any
 * number of times, so every restore moves the generation: no two copies,
 * nor a copy and a process left running after the dump, hand out one
 * buffered value.  Failing here fails the restore: a copy that could
 * repeat values must not run.
 */
static int new_generation(void)
{
	int fd, ret = 0;

	fd = open(ARC4_DEVICE, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, ARC4_IOC_NEW_GENERATION)) {
		ret = -errno;
		pr_err("cannot move the generation: %m\n");
	} else {
		pr_info("generation moved\n");
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static int arc4_init(int stage)
{
	const char *name = CR_PLUGIN_DESC.name;
	int needed;

	if (stage != CR_PLUGIN_STAGE__RESTORE) {
		find_device();
		return 0;
	}
	needed = !faccessat(criu_get_image_dir(), ARC4_MARK_IMG, F_OK, 0);
	if (check_and_remove_inventory_plugin &&
	    check_and_remove_inventory_plugin(name, strlen(name) + 1))
		needed = 1;
	return needed ? new_generation() : 0;
}
