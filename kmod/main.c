// SPDX-License-Identifier: GPL-2.0
/*
 * arc4dev: strong and replayable random streams at /dev/arc4.
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/suspend.h>

#include "compat.h"
#include "dev.h"
#include "stream.h"

/*
 * rekey_bytes and rekey_seconds, writable in /sys/module/arc4dev/parameters:
 * the stream owns the budgets and their limits; the parameters only parse
 * and show them.
 */
static int arc4_set_rekey_bytes(const char *val, const struct kernel_param *kp)
{
	unsigned long n;
	int ret = kstrtoul(val, 0, &n);

	return ret ? ret : arc4_stream_set_rekey_bytes(n);
}

static int arc4_get_rekey_bytes(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%lu\n", arc4_stream_budgets().bytes);
}

static int arc4_set_rekey_seconds(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	return ret ? ret : arc4_stream_set_rekey_seconds(n);
}

static int arc4_get_rekey_seconds(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", arc4_stream_budgets().seconds);
}

static const struct kernel_param_ops arc4_rekey_bytes_ops = {
	.set = arc4_set_rekey_bytes,
	.get = arc4_get_rekey_bytes,
};

static const struct kernel_param_ops arc4_rekey_seconds_ops = {
	.set = arc4_set_rekey_seconds,
	.get = arc4_get_rekey_seconds,
};

module_param_cb(rekey_bytes, &arc4_rekey_bytes_ops, NULL, 0644);
MODULE_PARM_DESC(rekey_bytes,
		 "Strong bytes per stream between kernel-RNG rekeys (1..67108864, default 1600000)");
module_param_cb(rekey_seconds, &arc4_rekey_seconds_ops, NULL, 0644);
MODULE_PARM_DESC(rekey_seconds,
		 "Seconds between kernel-RNG rekeys of a stream in use (1..3600, default 60)");

/*
 * A VM fork (the kernel's vmfork notifier, after random.c has reseeded)
 * and a resume from a hibernation image (which can be resumed twice) leave
 * two machines with the same stream keys and the same userspace buffers;
 * a restored checkpoint (ARC4_IOC_NEW_GENERATION) is such a copy of its
 * processes.  All rekey every strong stream before its next output and
 * move the generation page, in that order.  Neither step sleeps nor takes
 * a lock.
 */
void arc4_machine_copied(void)
{
	arc4_stream_vmforked();
	arc4_dev_gen_bump();
}

static int arc4_vmfork(struct notifier_block *nb, unsigned long action,
		       void *data)
{
	arc4_machine_copied();
	return NOTIFY_DONE;
}

static struct notifier_block arc4_vmfork_nb = {
	.notifier_call = arc4_vmfork,
};

/*
 * The syscore resume of the kernel that a hibernation image brings back
 * runs on one CPU with interrupts off, after the image's memory is in
 * place and before any other CPU, device or task runs: no process sees
 * the old generation or draws under the old keys.  A PM notifier would be
 * too late, as PM_POST_HIBERNATION comes after the tasks are thawed.  It
 * also runs after the image is made (in the kernel that will write it and
 * power off), after a hibernation or suspend that failed, and on every
 * resume from suspend to RAM; a rekey there costs one key.
 *
 * Until its next reseed the kernel RNG gives every copy of one image the
 * same bytes (random.c mixes the resume's time into its input pool but
 * does not reseed), so the new keys mix in a sample of what differs
 * between the copies: see arc4_stream_new_key().
 */
static void arc4_resume(void)
{
	arc4_machine_copied();
}

static struct arc4_syscore arc4_syscore = {
	.resume = arc4_resume,
};

/*
 * PM_POST_HIBERNATION, after the tasks are thawed, moves the generation
 * once more; after a resume that costs one key.  It is kept for the
 * hibernations that stop before the system core (an error, or a test
 * cycle at /sys/power/pm_test's freezer level, which the test suite runs):
 * no copy exists then, and the streams rekey all the same.
 */
static int arc4_pm(struct notifier_block *nb, unsigned long action,
		   void *data)
{
	if (action == PM_POST_HIBERNATION)
		arc4_machine_copied();
	return NOTIFY_DONE;
}

static struct notifier_block arc4_pm_nb = {
	.notifier_call = arc4_pm,
};

static struct miscdevice arc4_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "arc4",
	.fops	= &arc4_dev_fops,
	.mode	= 0666,
};

static int __init arc4_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct arc4_seed) != 48);
	BUILD_BUG_ON(sizeof(struct arc4_info) != 64);
	BUILD_BUG_ON(sizeof(struct arc4_generation) != 64);

	ret = arc4_stream_selftest();
	if (ret) {
		pr_err("ChaCha20 known-answer self-test failed, not loading\n");
		return ret;
	}

	ret = arc4_dev_gen_init();
	if (ret)
		return ret;

	ret = register_random_vmfork_notifier(&arc4_vmfork_nb);
	if (ret)
		goto err_gen;

	ret = register_pm_notifier(&arc4_pm_nb);
	if (ret)
		goto err_vmfork;
	arc4_register_syscore(&arc4_syscore);

	ret = misc_register(&arc4_misc);
	if (ret)
		goto err_syscore;

	pr_debug("ready, vmfork %s\n", ARC4_HAVE_VMFORK ? "on" : "off");
	return 0;

err_syscore:
	arc4_unregister_syscore(&arc4_syscore);
	unregister_pm_notifier(&arc4_pm_nb);
err_vmfork:
	unregister_random_vmfork_notifier(&arc4_vmfork_nb);
err_gen:
	arc4_dev_gen_exit();
	return ret;
}

static void __exit arc4_exit(void)
{
	misc_deregister(&arc4_misc);
	arc4_unregister_syscore(&arc4_syscore);
	unregister_pm_notifier(&arc4_pm_nb);
	unregister_random_vmfork_notifier(&arc4_vmfork_nb);
	arc4_dev_gen_exit();
	arc4_stream_exit();
}

module_init(arc4_init);
module_exit(arc4_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-open ChaCha20 random streams at /dev/arc4");
MODULE_AUTHOR("The arc4 developers");
