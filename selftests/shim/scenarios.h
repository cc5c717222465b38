/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCENARIOS_H
#define SCENARIOS_H
#include <stdio.h>
/* Run one call sequence (argv[0] names it); 0 on success, 2 on bad usage. */
int scenario(FILE *out, int argc, char **argv);
#endif
