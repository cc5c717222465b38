// SPDX-License-Identifier: GPL-2.0
/* An unmodified program: seeds with the time, rolls ten dice. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void)
{
	srand(time(NULL));
	for (int i = 0; i < 10; i++)
		printf("%d ", 1 + rand() % 6);
	printf("\n");
	return 0;
}
