/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ARC4_DEV_H
#define ARC4_DEV_H

#include <linux/fs.h>

extern const struct file_operations arc4_dev_fops;

int arc4_dev_gen_init(void);
void arc4_dev_gen_exit(void);
void arc4_dev_gen_bump(void);

/* main.c: rekey every strong stream, then move the generation. */
void arc4_machine_copied(void);

#endif /* ARC4_DEV_H */
