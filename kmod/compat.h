/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences, and nothing else.  Every guard names the
 * kernel change it bridges.
 */
#ifndef ARC4_COMPAT_H
#define ARC4_COMPAT_H

#include <linux/version.h>
#include <linux/random.h>

/*
 * register_random_vmfork_notifier() arrived in 6.0 ("random: add
 * vmfork notifier"), and exists only with CONFIG_VMGENID.  Older kernels
 * cannot tell us about a VM fork, so streams rekey on their budgets only.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 0, 0) && IS_ENABLED(CONFIG_VMGENID)
#define ARC4_HAVE_VMFORK 1
#else
#define ARC4_HAVE_VMFORK 0
static inline int register_random_vmfork_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_random_vmfork_notifier(struct notifier_block *nb)
{
	return 0;
}
#endif

/*
 * __uninitialized (compiler_attributes.h) exempts a variable from
 * CONFIG_INIT_STACK_ALL_ZERO/PATTERN.  Not every kernel this module builds
 * for has it; where it is missing, an empty definition costs only speed.
 */
#ifndef __uninitialized
#define __uninitialized
#endif

/*
 * kfree_sensitive() replaced kzfree() in 5.9 ("mm, treewide: rename kzfree()
 * to kfree_sensitive()"); the ChaCha library interface used here is older.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
#error "arc4dev needs Linux 5.9 or later"
#endif

#endif /* ARC4_COMPAT_H */
