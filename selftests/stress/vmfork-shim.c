// SPDX-License-Identifier: GPL-2.0
/*
 * vmfork-shim: the dynamically linked shim process of vmfork.c
 * (shim_child.h), reading its word on standard input and writing to
 * standard output.  scripts/vmfork-test puts it, its dynamic loader,
 * libc and libarc4.so.1 into the VM's initramfs.
 */
#include "shim_child.h"

int main(void)
{
	return shim_child_draws(0, 1);
}
