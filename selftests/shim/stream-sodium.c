// SPDX-License-Identifier: GPL-2.0
/*
 * The libsodium oracle of stream-oracles.sh, built by it at test time:
 * answers stream-dump's "bytes" and "split" requests with libsodium alone.
 * crypto_stream_chacha20 is original ChaCha20 with a 64-bit counter and
 * an 8-byte nonce (the stream layout); crypto_core_hchacha20 is HChaCha20,
 * here under split()'s constants "arc4-split-key-1".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

/* n bytes from byte pos of (key, stream), pos + n below 2^64. */
static void bytes(const uint8_t key[32], uint64_t stream, uint64_t pos,
		  size_t n)
{
	uint8_t nonce[8], *b = calloc(1, n + 64);

	if (!b)
		exit(1);
	for (int i = 0; i < 8; i++)
		nonce[i] = stream >> (8 * i);
	crypto_stream_chacha20_xor_ic(b, b, n + pos % 64, nonce, pos / 64, key);
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[pos % 64 + i]);
	free(b);
}

int main(void)
{
	char op[8], khex[65];
	uint64_t stream, arg;
	size_t n;

	if (sodium_init() < 0)
		return 1;
	while (scanf("%7s %64s %" SCNu64 " %" SCNu64 " %zu", op, khex,
		     &stream, &arg, &n) == 5) {
		uint8_t key[32], in[16], child[32];

		for (int i = 0; i < 32; i++)
			if (sscanf(khex + 2 * i, "%2hhx", &key[i]) != 1)
				return 2;
		if (strcmp(op, "bytes") == 0) {
			bytes(key, stream, arg, n);
		} else if (strcmp(op, "split") == 0) {
			for (int i = 0; i < 8; i++) {
				in[i] = stream >> (8 * i);
				in[8 + i] = arg >> (8 * i);
			}
			crypto_core_hchacha20(child, in, key,
					      (const unsigned char *)"arc4-split-key-1");
			bytes(child, 0, 0, n);
		} else {
			return 2;
		}
		putchar('\n');
	}
	return 0;
}
