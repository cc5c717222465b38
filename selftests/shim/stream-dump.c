// SPDX-License-Identifier: GPL-2.0
/*
 * stream-dump: arc4_stream's answers, through libarc4.so's exported API,
 * for stream-oracles.sh to compare with rand_chacha and libsodium.  Each
 * line of standard input is a request, each answer one line:
 *
 *   words KEYHEX STREAM WORDPOS N  N u32, then N u64 from byte 4 WORDPOS,
 *                                  then 2N + 3 bytes from there, in hex
 *   bytes KEYHEX STREAM POS N      N bytes from byte POS, in hex
 *   split KEYHEX STREAM INDEX N    N bytes of split(INDEX) from 0, in hex
 *   uniform KEYHEX STREAM BOUND N  N uniform(BOUND) from 0, then tell()
 *   doubles KEYHEX STREAM POS N    N double() from byte POS, %.17g
 *
 * Numbers are decimal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arc4random.h"

static void hex(arc4_stream *s, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		exit(1);
	arc4_stream_buf(s, b, n);
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	free(b);
}

static void words(arc4_stream *s, uint64_t wpos, size_t n)
{
	arc4_stream_seek(s, 4 * wpos);
	for (size_t i = 0; i < n; i++)
		printf("%" PRIu32 " ", arc4_stream_u32(s));
	arc4_stream_seek(s, 4 * wpos);
	for (size_t i = 0; i < n; i++)
		printf("%" PRIu64 " ", arc4_stream_u64(s));
	arc4_stream_seek(s, 4 * wpos);
	hex(s, 2 * n + 3);
}

int main(void)
{
	char op[8], khex[65];
	uint64_t stream, arg;
	size_t n;

	while (scanf("%7s %64s %" SCNu64 " %" SCNu64 " %zu", op, khex,
		     &stream, &arg, &n) == 5) {
		uint8_t key[32];
		arc4_stream *s, *c;

		for (int i = 0; i < 32; i++)
			if (sscanf(khex + 2 * i, "%2hhx", &key[i]) != 1)
				return 2;
		s = arc4_stream_new(key, stream);
		if (!s)
			return 1;
		if (strcmp(op, "words") == 0) {
			words(s, arg, n);
		} else if (strcmp(op, "bytes") == 0) {
			arc4_stream_seek(s, arg);
			hex(s, n);
		} else if (strcmp(op, "uniform") == 0) {
			for (size_t i = 0; i < n; i++)
				printf("%" PRIu32 " ",
				       arc4_stream_uniform(s, (uint32_t)arg));
			printf("%" PRIu64, arc4_stream_tell(s));
		} else if (strcmp(op, "doubles") == 0) {
			arc4_stream_seek(s, arg);
			for (size_t i = 0; i < n; i++)
				printf("%.17g ", arc4_stream_double(s));
		} else if (strcmp(op, "split") == 0) {
			c = arc4_stream_split(s, arg);
			if (!c)
				return 1;
			hex(c, n);
			arc4_stream_free(c);
		} else {
			return 2;
		}
		putchar('\n');
		arc4_stream_free(s);
	}
	return 0;
}
