/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/arc4: per-open ChaCha20 random streams.
 *
 * Each open file is a stream.  After open() it is in strong mode: keyed from
 * the kernel RNG, fast key erasure, rekeyed on byte and time budgets.
 * ARC4_IOC_SEED turns it deterministic: byte p of the stream is byte p % 64
 * of the ChaCha20 (20 rounds) block with the given key, the 64-bit block
 * counter p / 64 in state words 12-13 and the 64-bit nonce in words 14-15,
 * both little-endian.  For p < 2^38 that is the RFC 8439 keystream with nonce
 * 00000000 || nonce and counter p / 64.  lseek() and pread() address it.
 *
 * The magic 'Y' is not used by any driver in the kernel's ioctl-number list
 * (Documentation/userspace-api/ioctl/ioctl-number.rst); the sequence numbers
 * start at 0x40 to keep clear of anything unlisted at the low end.
 */
#ifndef _UAPI_LINUX_ARC4_H
#define _UAPI_LINUX_ARC4_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define ARC4_KEY_SIZE		32

/* Values of arc4_info.mode. */
#define ARC4_MODE_STRONG	0
#define ARC4_MODE_DETERMINISTIC	1

/**
 * struct arc4_seed - argument of ARC4_IOC_SEED
 * @key:   ChaCha20 key, 32 bytes, used as given (little-endian words)
 * @nonce: 64-bit nonce, state words 14 (low half) and 15 (high half)
 * @flags: must be zero
 */
struct arc4_seed {
	__u8 key[ARC4_KEY_SIZE];
	__u64 nonce;
	__u64 flags;
};

/**
 * struct arc4_info - filled by ARC4_IOC_GET_INFO; never holds key material
 * @mode:               ARC4_MODE_STRONG or ARC4_MODE_DETERMINISTIC
 * @flags:              zero
 * @position:           byte offset of the next deterministic read (zero in
 *                      strong mode)
 * @bytes_since_reseed: strong bytes produced since the key last came from the
 *                      kernel RNG
 * @reseeds:            times this stream has been keyed from the kernel RNG
 *                      (the key taken at open() counts)
 * @reserved:           zero
 */
struct arc4_info {
	__u32 mode;
	__u32 flags;
	__u64 position;
	__u64 bytes_since_reseed;
	__u64 reseeds;
	__u64 reserved[4];
};

/**
 * struct arc4_generation - the page a read-only mmap() of /dev/arc4 maps
 * @generation: never 0; moves on every virtual-machine fork the kernel
 *              reports (vmgenid), on every resume from a hibernation
 *              image and on ARC4_IOC_NEW_GENERATION (a checkpoint's
 *              restore), after the strong streams have been marked for a
 *              new key; it starts at a random value.  A userspace
 *              generator that records it with what it buffers and
 *              compares it before handing out a buffered value never
 *              hands out, after it moved, a value buffered before; what
 *              that does and does not guarantee about copies of a
 *              machine is in doc/threat-model.md ("Machine copies") of
 *              the arc4 sources.  Only equality is meaningful: compare,
 *              never order (a 32-bit reader may see the two halves from
 *              different moves, which is a change too).
 * @reserved:   zero
 *
 * mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0) with 0 < len <= the page
 * size maps it, from a descriptor in either mode; the mapping cannot be
 * made writable or executable.  Other offsets and lengths, MAP_PRIVATE and
 * PROT_WRITE or PROT_EXEC fail (EINVAL, EACCES); the PROT_EXEC that a
 * READ_IMPLIES_EXEC personality adds to PROT_READ is dropped instead.  The
 * same page serves every open file, outlives the descriptor it was mapped
 * from, survives MADV_DONTNEED and reads through /proc/PID/mem.
 */
struct arc4_generation {
	__u64 generation;
	__u64 reserved[7];
};

#define ARC4_IOC_MAGIC		'Y'

/* Make the stream deterministic with this key and nonce, at position 0. */
#define ARC4_IOC_SEED		_IOW(ARC4_IOC_MAGIC, 0x40, struct arc4_seed)
/* Return to strong mode with a fresh key from the kernel RNG. */
#define ARC4_IOC_STRONG		_IO(ARC4_IOC_MAGIC, 0x41)
/* Rekey a strong stream from the kernel RNG now; EINVAL if deterministic. */
#define ARC4_IOC_RESEED		_IO(ARC4_IOC_MAGIC, 0x42)
/* Describe the stream. */
#define ARC4_IOC_GET_INFO	_IOR(ARC4_IOC_MAGIC, 0x43, struct arc4_info)
/*
 * Fill key and nonce (flags zero) of a deterministic stream, for a
 * checkpoint; EINVAL for a strong stream, whose key never leaves the
 * kernel; EPERM without CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN.
 */
#define ARC4_IOC_GET_SEED	_IOR(ARC4_IOC_MAGIC, 0x44, struct arc4_seed)
/*
 * Rekey every strong stream and move the generation, as a VM fork does:
 * a checkpoint's restore calls it before the restored processes run.
 * EPERM without CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN.
 */
#define ARC4_IOC_NEW_GENERATION	_IO(ARC4_IOC_MAGIC, 0x45)

#endif /* _UAPI_LINUX_ARC4_H */
