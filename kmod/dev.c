// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/arc4 file operations: each open file owns one arc4 stream.
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/personality.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "compat.h"
#include "dev.h"
#include "stream.h"

/*
 * A strong stream has no position, as a pipe has none: with FMODE_STREAM
 * read(), readv() and io_uring pass the read no position and write none
 * back to f_pos when it returns (file_ppos() and io_uring's
 * io_kiocb_update_pos() decide this when the read begins, in 6.1 as in
 * 7.x).  Without it every strong read would copy f_pos on entry and store
 * the copy on return; a strong read that is slow to return (a userfaultfd
 * or FUSE page) takes no position lock, so it can outlive a SEED and the
 * deterministic reads after it and put the old position back over theirs,
 * and the next read serves the seeded stream's bytes again.  FMODE_PREAD
 * stays, so pread() works in both modes.
 *
 * A deterministic stream has a position worth protecting.  With
 * FMODE_ATOMIC_POS the VFS holds the file's f_pos_lock, an uninterruptible
 * mutex, across each read: readers sharing a deterministic file see whole
 * reads, as with a regular file.  A strong read must not queue behind
 * another process's 2 GiB read, so strong files go without the lock.
 * splice() and sendfile() without an offset copy and store f_pos without
 * the lock in either mode, on every file: they race with the position here
 * as they do on a regular file.
 *
 * Each mode change ends here, and the flags follow the mode the stream has
 * now, so racing ioctls leave them matching whichever change came last.
 * The VFS reads the flags when a read enters, before arc4_stream_read()
 * sees the mode: a strong read() that enters before a SEED and reaches the
 * stream after it is served at position 0 of the seeded stream and moves
 * no position.  doc/threat-model.md lists this and io_uring's unlocked
 * position among the orderings not kept.
 */
static void arc4_dev_sync_pos_mode(struct file *file)
{
	struct arc4_stream *s = file->private_data;

	spin_lock(&file->f_lock);
	if (arc4_stream_mode(s) == ARC4_MODE_DETERMINISTIC) {
		file->f_mode &= ~FMODE_STREAM;
		file->f_mode |= FMODE_ATOMIC_POS;
	} else {
		file->f_mode &= ~FMODE_ATOMIC_POS;
		file->f_mode |= FMODE_STREAM;
	}
	spin_unlock(&file->f_lock);
}

/*
 * A strong key is only as good as the kernel RNG behind it, so open waits
 * for the RNG like getrandom() does, or fails with EAGAIN if asked not to.
 */
static int arc4_dev_open(struct inode *inode, struct file *file)
{
	struct arc4_stream *s;
	int ret;

	if (!rng_is_initialized()) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_for_random_bytes();
		if (ret)
			return ret;
	}

	/*
	 * Charged to the opener's memory cgroup: a user who opens many
	 * descriptors, in many processes, pays for the streams from the
	 * cgroup's memory.max as for the struct files.
	 */
	s = kmalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	arc4_stream_init(s);
	file->private_data = s;
	arc4_dev_sync_pos_mode(file);
	return 0;
}

static int arc4_dev_release(struct inode *inode, struct file *file)
{
	struct arc4_stream *s = file->private_data;

	arc4_stream_wipe(s);
	kfree_sensitive(s);
	return 0;
}

/* The stream decides which bytes come next; this only hands them over. */
static ssize_t arc4_dev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return arc4_stream_read(iocb->ki_filp->private_data, &iocb->ki_pos, to);
}

/* Strong streams have no position, like pipes; deterministic ones do. */
static loff_t arc4_dev_llseek(struct file *file, loff_t offset, int whence)
{
	struct arc4_stream *s = file->private_data;

	if (arc4_stream_mode(s) != ARC4_MODE_DETERMINISTIC)
		return -ESPIPE;
	return no_seek_end_llseek(file, offset, whence);
}

/*
 * SEED and STRONG start a new stream at position 0, so they take the
 * position lock the VFS holds across a deterministic read() of a shared
 * file: such a read in flight ends, and writes its end position back,
 * before the stream changes.  io_uring reads at offset -1 and splice()
 * without an offset hold no position lock, and can write their end back
 * after the change.  Without the lock that write-back lands after the
 * reset and the new stream starts where the old read ended.  A reader
 * holds the lock for as long as userspace stalls its copy (a userfaultfd
 * or FUSE page), so the wait is killable.  Not interruptible: SEED and
 * STRONG never fail for a caught signal, so no caller has to retry them.
 */
static int arc4_dev_new_stream(struct file *file,
			       const struct arc4_seed *seed)
{
	int ret;

	ret = mutex_lock_killable(&file->f_pos_lock);
	if (ret)
		return ret;
	if (seed)
		arc4_stream_seed(file->private_data, seed->key, seed->nonce);
	else
		arc4_stream_strong(file->private_data);
	vfs_setpos(file, 0, OFFSET_MAX);
	arc4_dev_sync_pos_mode(file);
	mutex_unlock(&file->f_pos_lock);
	return 0;
}

static long arc4_dev_seed(struct file *file, void __user *arg)
{
	struct arc4_seed seed;
	long ret;

	if (copy_from_user(&seed, arg, sizeof(seed)))
		ret = -EFAULT;
	else if (seed.flags)
		ret = -EINVAL;
	else
		ret = arc4_dev_new_stream(file, &seed);
	/* The seed is key material too. */
	memzero_explicit(&seed, sizeof(seed));
	return ret;
}

static long arc4_dev_info(struct file *file, void __user *arg)
{
	struct arc4_stream *s = file->private_data;
	struct arc4_info info;

	arc4_stream_info(s, &info);
	if (info.mode == ARC4_MODE_DETERMINISTIC)
		info.position = READ_ONCE(file->f_pos);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * A checkpoint carries a deterministic stream to its restore as its seed
 * and position; the image holds the process's memory, and so its seed,
 * anyway.  Only a checkpointer in the initial namespace may ask.
 */
static long arc4_dev_get_seed(struct file *file, void __user *arg)
{
	struct arc4_seed seed = {};
	long ret;

	if (!checkpoint_restore_ns_capable(&init_user_ns))
		return -EPERM;
	ret = arc4_stream_get_seed(file->private_data, seed.key, &seed.nonce);
	if (!ret && copy_to_user(arg, &seed, sizeof(seed)))
		ret = -EFAULT;
	memzero_explicit(&seed, sizeof(seed));
	return ret;
}

/* Every restore of a checkpoint is a copy of its processes. */
static long arc4_dev_new_generation(void)
{
	if (!checkpoint_restore_ns_capable(&init_user_ns))
		return -EPERM;
	arc4_machine_copied();
	return 0;
}

static long arc4_dev_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct arc4_stream *s = file->private_data;

	switch (cmd) {
	case ARC4_IOC_SEED:
		return arc4_dev_seed(file, (void __user *)arg);
	case ARC4_IOC_STRONG:
		return arc4_dev_new_stream(file, NULL);
	case ARC4_IOC_RESEED:
		return arc4_stream_reseed(s);
	case ARC4_IOC_GET_INFO:
		return arc4_dev_info(file, (void __user *)arg);
	case ARC4_IOC_GET_SEED:
		return arc4_dev_get_seed(file, (void __user *)arg);
	case ARC4_IOC_NEW_GENERATION:
		return arc4_dev_new_generation();
	default:
		return -ENOTTY;
	}
}

/*
 * The generation page: one zeroed page holding a struct arc4_generation,
 * mapped read-only into whoever asks.  A userspace generator buffers
 * output; after a VM fork or a second resume of one hibernation image two
 * machines hold the same buffer, and the kernel tells no one before 6.11.
 * The counter moving tells them to drop it.  A mapping holds its file, and
 * so the module, and each page table entry that maps the page holds a
 * reference to it.  main.c calls arc4_dev_gen_init(), arc4_dev_gen_exit()
 * and arc4_dev_gen_bump().
 */
static struct page *arc4_gen_page;

int arc4_dev_gen_init(void)
{
	struct arc4_generation *gen;

	BUILD_BUG_ON(sizeof(*gen) > PAGE_SIZE);
	BUILD_BUG_ON(sizeof(atomic64_t) != sizeof(gen->generation));
	arc4_gen_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!arc4_gen_page)
		return -ENOMEM;
	gen = page_address(arc4_gen_page);
	/*
	 * A random start, not 1: a checkpoint restored on another machine
	 * must not find there the generation its buffers recorded.
	 */
	WRITE_ONCE(gen->generation, get_random_u64() | 1);
	return 0;
}

void arc4_dev_gen_exit(void)
{
	put_page(arc4_gen_page);
}

/**
 * arc4_dev_gen_bump() - move the generation page's counter
 *
 * Called after the streams were told to rekey: whoever sees the new value
 * and reads a stream gets output under a new key (a successful cmpxchg is
 * fully ordered, so the rekey mark is visible first).  Never 0, so that a
 * buffer wiped to zeroes never matches.  No lock of ours: it runs from
 * the VM-fork notifier (process context on the kernels we support) and
 * from a syscore resume, with interrupts off on one CPU, where no mutex
 * may be taken (an architecture without native 64-bit atomics takes the
 * IRQ-safe spinlocks of its atomic64 emulation, which is fine there).
 */
void arc4_dev_gen_bump(void)
{
	struct arc4_generation *gen = page_address(arc4_gen_page);
	atomic64_t *counter = (atomic64_t *)&gen->generation;
	s64 old = atomic64_read(counter), next;

	do {
		next = old + 1 ?: 1;
	} while (!atomic64_try_cmpxchg(counter, &old, next));
}

/*
 * A fault maps the page again after MADV_DONTNEED took its entry, and in a
 * child that inherited the mapping: as the vDSO's special mappings do, it
 * hands over the page with a reference of its own.  A plain page mapped
 * by fault (no VM_PFNMAP, VM_IO or VM_MIXEDMAP) is also what
 * access_process_vm() needs to read it through /proc/PID/mem.
 */
static vm_fault_t arc4_dev_gen_fault(struct vm_fault *vmf)
{
	if (vmf->pgoff)
		return VM_FAULT_SIGBUS;
	get_page(arc4_gen_page);
	vmf->page = arc4_gen_page;
	return 0;
}

static const struct vm_operations_struct arc4_dev_gen_vm_ops = {
	.fault = arc4_dev_gen_fault,
};

/*
 * Only what arc4_generation's comment in the uapi header allows (a shared
 * mapping of a read-only file has VM_MAYSHARE without VM_SHARED); the
 * mapping loses VM_MAYWRITE and VM_MAYEXEC, so mprotect() cannot widen it,
 * and cannot grow with mremap().  A READ_IMPLIES_EXEC personality adds
 * PROT_EXEC to every PROT_READ mapping: that one is dropped, not refused,
 * and the protection is computed again without it (an explicit
 * PROT_READ | PROT_EXEC under that personality looks the same, and is
 * dropped too).
 */
static int arc4_dev_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff != 0 || vma->vm_end - vma->vm_start > PAGE_SIZE ||
	    !(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EACCES;
	/*
	 * The personality adds PROT_EXEC to a PROT_READ mapping only, so an
	 * exec mapping without read is the caller's own request.
	 */
	if ((vma->vm_flags & VM_EXEC) &&
	    (!(current->personality & READ_IMPLIES_EXEC) ||
	     !(vma->vm_flags & VM_READ)))
		return -EACCES;
	vm_flags_clear(vma, VM_EXEC | VM_MAYWRITE | VM_MAYEXEC);
	vm_flags_set(vma, VM_DONTEXPAND);
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	vma->vm_ops = &arc4_dev_gen_vm_ops;
	return 0;
}

/*
 * read_iter, as /dev/urandom's, serves read(), readv() and io_uring; splice
 * needs its own entry, which feeds read_iter too.  No write: the VFS
 * answers it with EINVAL.  Both ioctl structs have the same layout for
 * 32-bit userspace, so compat_ptr_ioctl() is all a 32-bit caller needs.
 */
const struct file_operations arc4_dev_fops = {
	.owner		= THIS_MODULE,
	.open		= arc4_dev_open,
	.release	= arc4_dev_release,
	.read_iter	= arc4_dev_read_iter,
	.splice_read	= copy_splice_read,
	.llseek		= arc4_dev_llseek,
	.mmap		= arc4_dev_mmap,
	.unlocked_ioctl	= arc4_dev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
