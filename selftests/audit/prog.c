// SPDX-License-Identifier: GPL-2.0
/*
 * The program policy.sh lists in (or leaves out of) the policy file: it
 * seeds rand() with 1 and prints three values, which are glibc's sequence
 * exactly when the shim behaves as glibc (ARC4_LEGACY=1, or listed), and
 * says whether errno survived the first call.  With the argument `wait`
 * it reads a line from standard input first, so that the test can replace
 * the file while it runs.  Then 1000 more calls, for the strace count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[16];
	int a, b, c, e, i;

	if (argc > 1 && strcmp(argv[1], "wait") == 0 &&
	    !fgets(line, sizeof(line), stdin))
		return 2;
	errno = 4242;
	srand(1);
	a = rand();
	e = errno;
	b = rand();
	c = rand();
	printf("%d %d %d%s\n", a, b, c, e == 4242 ? "" : " errno-changed");
	for (i = 0; i < 1000; i++)
		a ^= rand();
	return a == -1;
}
