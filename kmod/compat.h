/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences, and nothing else.  Every guard names the
 * kernel change it bridges.
 */
#ifndef ARC4_COMPAT_H
#define ARC4_COMPAT_H

#include <crypto/chacha.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/version.h>

/*
 * The ChaCha library takes a struct chacha_state since 6.16 ("crypto:
 * lib/chacha - use struct type for chacha state"); before, a bare array of
 * CHACHA_STATE_WORDS words.  The module is written against the struct;
 * older kernels get it here, with adapters of the new signatures.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
struct chacha_state {
	u32 x[CHACHA_STATE_WORDS];
};

static inline void arc4_chacha_init_consts(struct chacha_state *state)
{
	chacha_init_consts(state->x);
}

static inline void arc4_chacha20_block(struct chacha_state *state, u8 *out)
{
	chacha20_block(state->x, out);
}

static inline void arc4_chacha20_crypt(struct chacha_state *state, u8 *dst,
				       const u8 *src, unsigned int bytes)
{
	chacha20_crypt(state->x, dst, src, bytes);
}

#define chacha_init_consts	arc4_chacha_init_consts
#define chacha20_block		arc4_chacha20_block
#define chacha20_crypt		arc4_chacha20_crypt
#endif

/*
 * register_random_vmfork_notifier() arrived in 5.19 ("random: add vmfork
 * notifier"), with stubs returning 0 in <linux/random.h> for kernels
 * without CONFIG_VMGENID; defining them again breaks the build there.
 * Older kernels cannot tell us about a VM fork, so streams rekey on their
 * budgets only.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 19, 0)
#define ARC4_HAVE_VMFORK IS_ENABLED(CONFIG_VMGENID)
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
 * vm_flags became read-only behind vm_flags_set()/vm_flags_clear() in 6.3
 * ("mm: introduce vma->vm_flags wrapper functions").
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, unsigned long f)
{
	vma->vm_flags |= f;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  unsigned long f)
{
	vma->vm_flags &= ~f;
}
#endif

/*
 * copy_splice_read() replaced generic_file_splice_read() in 6.5 ("splice:
 * Remove generic_file_splice_read()"); drivers/char/random.c uses each in
 * its time to splice from a device served by read_iter.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define copy_splice_read	generic_file_splice_read
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
