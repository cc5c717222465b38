/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels arc4dev builds for, and nothing else.
 * Where the kernel's headers can tell, Kbuild probes them (see
 * kmod/Kbuild) and passes ARC4_HAVE_* flags: distribution kernels backport
 * interfaces without changing their version, so the version number decides
 * only what no header shows.  Every guard names the upstream change it
 * bridges.
 */
#ifndef ARC4_COMPAT_H
#define ARC4_COMPAT_H

#include <linux/version.h>

/*
 * The oldest kernel: kfree_sensitive() arrived in 5.9 ("mm, treewide:
 * rename kzfree() to kfree_sensitive()"); the ChaCha library interface
 * used here is older.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 9, 0)
#error "arc4dev needs Linux 5.9 or later"
#endif

#include <crypto/chacha.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/syscore_ops.h>

/*
 * The ChaCha library takes a struct chacha_state since 6.16 ("crypto:
 * lib/chacha - use struct type for chacha state"); before, a bare array of
 * CHACHA_STATE_WORDS words.  The module is written against the struct;
 * headers without it get it here, with adapters of the new signatures.
 */
#ifndef ARC4_HAVE_CHACHA_STATE
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
 * Without it the kernel cannot tell us about a VM fork, so streams rekey
 * on their budgets only.
 */
#ifdef ARC4_HAVE_VMFORK_NOTIFIER
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
#ifndef ARC4_HAVE_VM_FLAGS_SET
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
#ifndef ARC4_HAVE_COPY_SPLICE_READ
#define copy_splice_read	generic_file_splice_read
#endif

/*
 * The CPU's random-number instruction: arch_get_random_longs() fills an
 * array since "random: handle archrandom with multiple longs" (6.0), from
 * an <asm/archrandom.h> that every architecture has (<linux/random.h>
 * includes it in 6.1, not in 6.12); before, arch_get_random_long() gave
 * one, from <linux/random.h>.  Either reports whether it worked.
 */
#ifdef ARC4_HAVE_ARCH_RANDOM_LONGS
#include <asm/archrandom.h>

static inline bool arc4_arch_random_long(unsigned long *v)
{
	return arch_get_random_longs(v, 1) == 1;
}
#else
static inline bool arc4_arch_random_long(unsigned long *v)
{
	return arch_get_random_long(v);
}
#endif

/*
 * syscore callbacks take a context pointer and are registered through a
 * struct syscore since "syscore: Pass context data to callbacks"; before,
 * register_syscore_ops() took the callbacks themselves.  arc4 registers
 * one resume callback through struct arc4_syscore on either.
 */
#ifdef ARC4_HAVE_SYSCORE
struct arc4_syscore {
	struct syscore sc;
	struct syscore_ops ops;
	void (*resume)(void);
};

static inline void arc4_syscore_resume(void *data)
{
	struct arc4_syscore *s = data;

	s->resume();
}

static inline void arc4_register_syscore(struct arc4_syscore *s)
{
	s->ops.resume = arc4_syscore_resume;
	s->sc.ops = &s->ops;
	s->sc.data = s;
	register_syscore(&s->sc);
}

static inline void arc4_unregister_syscore(struct arc4_syscore *s)
{
	unregister_syscore(&s->sc);
}
#else
struct arc4_syscore {
	struct syscore_ops ops;
	void (*resume)(void);
};

static inline void arc4_register_syscore(struct arc4_syscore *s)
{
	s->ops.resume = s->resume;
	register_syscore_ops(&s->ops);
}

static inline void arc4_unregister_syscore(struct arc4_syscore *s)
{
	unregister_syscore_ops(&s->ops);
}
#endif

/*
 * __uninitialized (compiler_attributes.h) exempts a variable from
 * CONFIG_INIT_STACK_ALL_ZERO/PATTERN.  The macro is its own probe: where a
 * kernel lacks it, an empty definition costs only speed.
 */
#ifndef __uninitialized
#define __uninitialized
#endif

#endif /* ARC4_COMPAT_H */
