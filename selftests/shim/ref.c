// SPDX-License-Identifier: GPL-2.0
/*
 * ref: print a call sequence of the rand families (scenarios.c).  Built
 * against plain glibc it is the tests' oracle and the unmodified program
 * that they preload libarc4.so into; built statically with libarc4.a it
 * is ref-static.
 */
#include <stdio.h>
#include "scenarios.h"

int main(int argc, char **argv)
{
	int rc = scenario(stdout, argc - 1, argv + 1);

	if (rc == 2)
		fprintf(stderr, "usage: %s SCENARIO ARGS... (see scenarios.c)\n",
			argv[0]);
	return rc;
}
