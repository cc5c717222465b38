/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ChaCha20 stream: the state behind an open /dev/arc4.  Nothing here
 * knows about files; dev.c maps file operations onto these functions.
 */
#ifndef ARC4_STREAM_H
#define ARC4_STREAM_H

#include <crypto/chacha.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <uapi/linux/arc4.h>

#include "compat.h"

/*
 * Rekey budgets of strong streams, one set for all of them.  OpenBSD's
 * arc4random rekeys about every 1.6 MB, the kernel's CRNG every 60 s at
 * most: the defaults match those, and the limits keep the budgets from
 * being made much weaker.
 */
enum {
	ARC4_REKEY_BYTES_DEFAULT = 1600000,
	ARC4_REKEY_BYTES_MAX = 64 * 1024 * 1024,
	ARC4_REKEY_SECONDS_DEFAULT = 60,
	ARC4_REKEY_SECONDS_MAX = 3600,
};

/**
 * struct arc4_budgets - when a strong stream takes a new kernel-RNG key
 * @bytes:   strong bytes a key may serve, 1..ARC4_REKEY_BYTES_MAX
 * @seconds: how long a key may serve, 1..ARC4_REKEY_SECONDS_MAX
 */
struct arc4_budgets {
	unsigned long bytes;
	unsigned int seconds;
};

/**
 * struct arc4_stream - one stream; every field is under @lock
 * @key:                the stream key; in strong mode it is replaced before
 *                      any output that depends on it leaves the kernel
 * @nonce:              deterministic mode: state words 14-15
 * @bytes_since_reseed: strong output since the key came from the kernel RNG
 * @reseeds:            keys taken from the kernel RNG
 * @reseed_jiffies:     when the key last came from the kernel RNG
 * @epoch:              bumped on every mode change or seed; a read that sees
 *                      it move stops, so one read() never mixes two streams
 *                      (64 bits: no number of SEEDs during one stalled read
 *                      brings it back to the value the read saw)
 * @vmfork_gen:         VM-fork generation at that time
 * @mode:               ARC4_MODE_STRONG or ARC4_MODE_DETERMINISTIC
 */
struct arc4_stream {
	struct mutex lock;	/* serialises every field below */
	u32 key[CHACHA_KEY_SIZE / sizeof(u32)];
	u64 nonce;
	u64 bytes_since_reseed;
	u64 reseeds;
	unsigned long reseed_jiffies;
	u64 epoch;
	unsigned int vmfork_gen;
	u32 mode;
};

void arc4_stream_init(struct arc4_stream *s);
void arc4_stream_wipe(struct arc4_stream *s);
void arc4_stream_seed(struct arc4_stream *s, const u8 key[CHACHA_KEY_SIZE],
		      u64 nonce);
void arc4_stream_strong(struct arc4_stream *s);
int arc4_stream_reseed(struct arc4_stream *s);
u32 arc4_stream_mode(struct arc4_stream *s);
void arc4_stream_info(struct arc4_stream *s, struct arc4_info *info);
int arc4_stream_get_seed(struct arc4_stream *s, u8 key[CHACHA_KEY_SIZE],
			 u64 *nonce);
ssize_t arc4_stream_read(struct arc4_stream *s, loff_t *ppos,
			 struct iov_iter *to);
int arc4_stream_set_rekey_bytes(unsigned long bytes);
int arc4_stream_set_rekey_seconds(unsigned int seconds);
struct arc4_budgets arc4_stream_budgets(void);
void arc4_stream_vmforked(void);
int arc4_stream_selftest(void);
void arc4_stream_exit(void);

#endif /* ARC4_STREAM_H */
