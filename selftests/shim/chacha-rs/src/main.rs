// SPDX-License-Identifier: GPL-2.0
//! Values of rand_chacha 0.3's ChaCha20Rng for the stream oracle test.
//!
//! Each line of standard input is `words KEYHEX STREAM WORDPOS N` (as
//! stream-dump reads it); the answer is
//! one line: N next_u32() values, then N next_u64() values after seeking
//! back to WORDPOS, then the hex of 2N + 3 bytes of fill_bytes() from
//! WORDPOS (all decimal, space-separated).
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout());
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let f: Vec<&str> = line.split_whitespace().skip(1).collect();
        let mut key = [0u8; 32];
        for i in 0..32 {
            key[i] = u8::from_str_radix(&f[0][2 * i..2 * i + 2], 16).expect("key");
        }
        let stream: u64 = f[1].parse().expect("stream");
        let pos: u128 = f[2].parse().expect("word pos");
        let n: usize = f[3].parse().expect("count");
        let mut rng = ChaCha20Rng::from_seed(key);
        rng.set_stream(stream);
        rng.set_word_pos(pos);
        let mut v: Vec<String> = Vec::new();
        for _ in 0..n {
            v.push(rng.next_u32().to_string());
        }
        rng.set_word_pos(pos);
        for _ in 0..n {
            v.push(rng.next_u64().to_string());
        }
        rng.set_word_pos(pos);
        let mut b = vec![0u8; 2 * n + 3];
        rng.fill_bytes(&mut b);
        v.push(b.iter().map(|x| format!("{:02x}", x)).collect());
        writeln!(out, "{}", v.join(" ")).expect("stdout");
    }
}
