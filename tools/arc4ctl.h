/* SPDX-License-Identifier: GPL-2.0 */
/* arc4ctl's commands that live in files of their own. */
#ifndef ARC4CTL_H
#define ARC4CTL_H

#include <stdio.h>

/* preload.c: arc4ctl preload on|off|status */
int cmd_preload(int argc, char **argv);
void preload_usage(FILE *f);

#endif

