//! argon2-ceiling: the in-process argon2id limit that login throughput is compared against.
//!
//!   argon2-ceiling hash PASSWORD          prints a PHC argon2id hash (OWASP parameters)
//!   argon2-ceiling rate THREADS SECONDS   prints {"threads":N,"seconds":S,"hashes":H,"per_second":R,
//!                                         "cpu_ms_per_hash":C}
//!
//! `rate` verifies a password against a hash on THREADS OS threads for SECONDS, which is exactly the
//! work one login costs identity-svc (same crate, same parameters, same release profile).

use std::{
    env,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    thread,
    time::{Duration, Instant},
};

use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Algorithm, Argon2, Params, Version,
};

fn argon2() -> Argon2<'static> {
    let params = Params::new(12 * 1024, 3, 1, None).expect("OWASP parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

fn hash(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("hashing cannot fail")
        .to_string()
}

/// This process's CPU time so far (user + system), from /proc/self/stat (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn rate(threads: usize, seconds: f64) {
    let phc = hash("courtside-bench");
    let cpu_started = cpu_seconds();
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let (phc, stop, done) = (phc.clone(), stop.clone(), done.clone());
            thread::spawn(move || {
                let parsed = PasswordHash::new(&phc).expect("own hash parses");
                let argon2 = argon2();
                while !stop.load(Ordering::Relaxed) {
                    argon2
                        .verify_password(b"courtside-bench", &parsed)
                        .expect("own password verifies");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    thread::sleep(Duration::from_secs_f64(seconds));
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.join().expect("worker finished");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_started;
    let hashes = done.load(Ordering::Relaxed);
    // per_second is wall-clock (what these cores gave, other work on the machine included);
    // cpu_ms_per_hash is the CPU one hash costs, which other work does not change.
    println!(
        "{{\"threads\":{threads},\"seconds\":{elapsed:.3},\"hashes\":{hashes},\"per_second\":{:.1},\"cpu_ms_per_hash\":{:.2}}}",
        hashes as f64 / elapsed,
        cpu * 1000.0 / hashes.max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["hash", password] => println!("{}", hash(password)),
        ["rate", threads, seconds] => rate(
            threads.parse().expect("THREADS is a number"),
            seconds.parse().expect("SECONDS is a number"),
        ),
        _ => {
            eprintln!("usage: argon2-ceiling hash PASSWORD | rate THREADS SECONDS");
            std::process::exit(2);
        }
    }
}
