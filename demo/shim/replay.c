// SPDX-License-Identifier: GPL-2.0
/* A program that needs replay says so: srand_deterministic(). */
#include <stdio.h>
#include <unistd.h>
#include "arc4random.h"

int main(void)
{
	srand_deterministic(2024);
	printf("%s:", access("/dev/arc4", F_OK) ? "no module, shim computes"
						: "read from /dev/arc4");
	for (int i = 0; i < 6; i++)
		printf(" %d", rand());
	printf("\n");
	return 0;
}
