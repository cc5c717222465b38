// SPDX-License-Identifier: GPL-2.0
//! rand_chacha 0.3's ChaCha20Rng for bench/stream: ns per next_u32(),
//! per next_u64() and per byte of fill_bytes() of 4 KiB, as streambench
//! measures arc4_stream.  `streambench-rs REPEATS CALLS [IMPL]`; records
//! as record.h's, impl "rand_chacha" or "rand_chacha-IMPL" (bench/stream
//! builds one binary per instruction set: see Cargo.toml).
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// The thread's CPU time in ns (clock_gettime(CLOCK_THREAD_CPUTIME_ID)),
/// as streambench measures: other processes' time is not counted.
#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}
fn now_ns() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 * 1e9 + ts.nsec as f64
}

fn record(imp: &str, func: &str, param: u32, v: &mut Vec<f64>, unit: &str) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    let med = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    println!("stream\t{}\t{}\tdet\t{}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}",
             imp, func, param, med, v[0], v[n - 1], unit, n);
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let repeats: usize = a[1].parse().expect("repeats");
    let calls: u64 = a[2].parse().expect("calls");
    let imp = match a.get(3) {
        Some(i) => format!("rand_chacha-{}", i),
        None => "rand_chacha".to_string(),
    };
    let mut key = [0u8; 32];
    for i in 0..8 {
        key[i] = (i + 1) as u8;
    }
    let mut rng = ChaCha20Rng::from_seed(key);
    rng.set_stream(7);
    let (mut u, mut w, mut b) = (Vec::new(), Vec::new(), Vec::new());
    let mut sink = 0u32;
    let mut sink64 = 0u64;
    let mut buf = vec![0u8; 4096];
    for _ in 0..repeats {
        let t = now_ns();
        for _ in 0..calls {
            sink ^= rng.next_u32();
        }
        u.push((now_ns() - t) / calls as f64);
        let t = now_ns();
        for _ in 0..calls {
            sink64 ^= rng.next_u64();
        }
        w.push((now_ns() - t) / calls as f64);
        let n = calls / 4096 * 16;
        let t = now_ns();
        for _ in 0..n {
            rng.fill_bytes(&mut buf);
        }
        sink ^= buf[7] as u32;
        b.push((now_ns() - t) / (n * 4096) as f64);
    }
    record(&imp, "u32", 0, &mut u, "ns/call");
    record(&imp, "u64", 0, &mut w, "ns/call");
    record(&imp, "buf", 4096, &mut b, "ns/byte");
    eprintln!("# {} {}", sink, sink64);
}
