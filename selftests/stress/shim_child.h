/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process drawing through the shim, for vmfork.c and hibernate.c: static
 * in the test program itself (libarc4.a), forked, or dynamic in vmfork-shim
 * (-larc4), executed.  It fills its strong buffer (draws past the first,
 * unbuffered values), writes one byte to say so, and on a byte from the
 * other side draws 6 arc4random(), 6 rand() and 4 lrand48() and writes them.
 */
#ifndef ARC4_SHIM_CHILD_H
#define ARC4_SHIM_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arc4random.h"
#include "../device/arc4_test.h"

enum {
	SHIM_VALUES = 16,	/* values a shim process hands over */
	SHIM_BYTES = 4 * SHIM_VALUES,
};

static inline int shim_child_draws(int go, int values)
{
	uint32_t v[SHIM_VALUES];
	char c = 0;
	int i;

	for (i = 0; i < 100; i++)
		(void)arc4random();
	(void)rand();
	(void)lrand48();
	if (write(values, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 1;
	for (i = 0; i < 6; i++)
		v[i] = arc4random();
	for (; i < 12; i++)
		v[i] = rand();
	for (; i < SHIM_VALUES; i++)
		v[i] = lrand48();
	return write(values, v, sizeof(v)) == sizeof(v) ? 0 : 1;
}

/* A shim process: its pid, our ends of its pipes. */
struct shim_child {
	pid_t pid;
	int go, values;
};

/*
 * Starts a shim process and waits until its buffer is full: with dynamic
 * NULL this program, forked; otherwise the program at that path, executed
 * with the pipes as its standard input and output.
 */
static inline bool shim_child_start(struct shim_child *c, const char *dynamic)
{
	int go[2], values[2];
	char ready;

	if (pipe(go) || pipe(values))
		return false;
	fflush(stdout);
	c->pid = fork();
	if (c->pid < 0)
		return false;
	if (c->pid == 0) {
		close(go[1]);
		close(values[0]);
		if (!dynamic)
			_exit(shim_child_draws(go[0], values[1]));
		if (dup2(go[0], 0) != 0 || dup2(values[1], 1) != 1)
			_exit(1);
		execl(dynamic, dynamic, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	close(values[1]);
	c->go = go[1];
	c->values = values[0];
	return read(c->values, &ready, 1) == 1;
}

/* Its SHIM_VALUES values into out; true if it handed them all and exited 0. */
static inline bool shim_child_next(struct shim_child *c,
				   uint8_t out[SHIM_BYTES])
{
	char go = 0;
	int st;
	bool ok = write(c->go, &go, 1) == 1 &&
		  read_full(c->values, out, SHIM_BYTES) == SHIM_BYTES;

	close(c->go);
	close(c->values);
	ok &= waitpid(c->pid, &st, 0) == c->pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0;
	return ok;
}

#endif
