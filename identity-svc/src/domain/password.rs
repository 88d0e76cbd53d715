//! Password hashing with argon2id at OWASP's parameters (12 MiB, 3 iterations, 1 lane).
//!
//! OWASP lists five argon2id configurations that defend equally well, trading memory for
//! iterations; this is the third. The first (19 MiB, 2 iterations) costs the same CPU, but one
//! block per core would be 38 of identity-svc's 50 MB; this one is 24. Hashes made with other
//! parameters still verify, and are replaced at the next sign-in ([`PasswordHash::is_current`]).
//!
//! A hash is the costliest thing Courtside does (about 20 ms of one core and 12 MiB of memory),
//! so hashing runs on a fixed set of dedicated threads, one per core, and each thread reuses one
//! block of argon2 memory for as long as jobs keep coming:
//!
//! - memory stays flat under any load: at most one block per core, given back between bursts
//!   (allocating a block per hash on tokio's blocking pool left a copy behind in the malloc arena of
//!   every pool thread that ever hashed);
//! - the async threads never wait on a hash, and at most one hash per core is in progress: the
//!   others queue, and one whose caller has gone (its deadline passed) is dropped unhashed;
//! - the threads run at a lower scheduling priority, so during a login storm everyone else's
//!   cheap requests are served first and sign-ins take the cores' remaining time.

use std::{sync::Arc, thread, time::Duration};

use anyhow::Context;
use argon2::{
    Algorithm, Argon2, Block, Params, Version,
    password_hash::{self, Output, ParamsString, SaltString, rand_core::OsRng},
};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use thread_priority::{ThreadPriority, ThreadPriorityValue};
use tokio::sync::oneshot;

/// A PHC-format argon2id hash string.
#[derive(Clone, Debug)]
pub struct PasswordHash(pub String);

impl PasswordHash {
    /// Whether this hash was made the way new ones are (argon2id 1.3 at [`owasp`]'s parameters);
    /// one that was not is worth replacing once its password is known again.
    pub fn is_current(&self) -> bool {
        password_hash::PasswordHash::new(&self.0).is_ok_and(|parsed| {
            parsed.algorithm == argon2::ARGON2ID_IDENT
                && parsed.version == Some(Version::V0x13.into())
                && Params::try_from(&parsed).is_ok_and(|params| {
                    let current = owasp();
                    (params.m_cost(), params.t_cost(), params.p_cost())
                        == (current.m_cost(), current.t_cost(), current.p_cost())
                })
        })
    }
}

/// OWASP's third argon2id configuration: m = 12 MiB, t = 3, p = 1.
fn owasp() -> Params {
    Params::new(12 * 1024, 3, 1, None).expect("OWASP argon2id parameters are valid")
}

fn argon2(params: Params) -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// How long a hashing thread keeps its memory without a job.
const IDLE: Duration = Duration::from_secs(1);

/// A job for a hashing thread: runs with the thread's memory.
type Job = Box<dyn FnOnce(&mut [Block]) + Send>;

/// Hashes and verifies passwords on dedicated threads; cheap to clone.
#[derive(Clone)]
pub struct Hasher {
    jobs: Sender<Job>,
    /// A real hash of a random password: verifying an unknown email's login against it costs
    /// the same time as a wrong password for a known one.
    dummy: Arc<PasswordHash>,
}

impl Hasher {
    /// Starts `threads` hashing threads (at least one), each holding its argon2 memory.
    pub async fn start(threads: usize) -> anyhow::Result<Self> {
        let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || work(&queue))
                .context("starting a password hashing thread")?;
        }
        let mut hasher = Self {
            jobs,
            dummy: Arc::new(PasswordHash(String::new())),
        };
        hasher.dummy = Arc::new(hasher.hash(&uuid::Uuid::new_v4().to_string()).await?);
        Ok(hasher)
    }

    /// Runs `f` on a hashing thread once one is free.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |memory| {
            // The caller gave up while this waited in the queue: nobody needs the answer.
            if !reply.is_closed() {
                let _ = reply.send(f(memory));
            }
        });
        self.jobs
            .send(job)
            .map_err(|_| anyhow::anyhow!("the password hashing threads have stopped"))?;
        answer.await.context("a password hashing thread stopped mid-job")
    }

    /// Hashes `password` (counted in `password_hashes_total` on the ops port's `/metrics`).
    pub async fn hash(&self, password: &str) -> anyhow::Result<PasswordHash> {
        metrics::counter!("password_hashes_total").increment(1);
        let password = password.to_owned();
        self.run(move |memory| hash_with(password.as_bytes(), memory))
            .await?
    }

    /// Verifies `password` against `hash`, or against the dummy hash when there is none.
    pub async fn verify(&self, password: &str, hash: Option<&PasswordHash>) -> anyhow::Result<bool> {
        let password = password.to_owned();
        let known = hash.is_some();
        let hash = hash.cloned().unwrap_or_else(|| PasswordHash::clone(&self.dummy));
        let ok = self
            .run(move |memory| verify_with(password.as_bytes(), &hash.0, memory))
            .await?;
        Ok(ok && known)
    }
}

/// A hashing thread: takes jobs until the last [`Hasher`] is dropped. It keeps its argon2 memory
/// while jobs keep coming and gives it back after [`IDLE`] without one, so between sign-in bursts
/// the service holds only what its other work needs. Every thread waits on the queue itself (it
/// is multi-consumer), so each one notices its own idleness.
fn work(queue: &Receiver<Job>) {
    lower_priority();
    let mut memory: Option<Vec<Block>> = None;
    loop {
        match queue.recv_timeout(IDLE) {
            Ok(job) => job(memory.get_or_insert_with(argon2_memory)),
            Err(RecvTimeoutError::Timeout) => memory = None,
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// A hashing thread's argon2 memory: OWASP's 12 MiB of blocks, in an allocation of just over
/// 32 MiB. glibc serves a request above 32 MiB (its largest mmap threshold) with a mapping of its
/// own and unmaps it on free, so dropping this really gives the memory back; a 12 MiB request
/// may instead come from the thread's malloc arena, which keeps it. Only the first 12 MiB are ever
/// written, so only they are resident.
fn argon2_memory() -> Vec<Block> {
    const OWN_MAPPING_BLOCKS: usize = 32 * 1024 + 1;
    let blocks = owasp().block_count();
    let mut memory = Vec::with_capacity(blocks.max(OWN_MAPPING_BLOCKS));
    memory.resize(blocks, Block::default());
    memory
}

/// Nice 10 for the calling thread (crossplatform priority 22 of 0..=99 maps to it under Linux's
/// normal scheduling): it still gets every idle cycle, but yields to the service's other threads
/// (and the rest of the machine) when they have work.
fn lower_priority() {
    let lowered = ThreadPriorityValue::try_from(22u8)
        .map_err(|_| thread_priority::Error::Priority("22 is a valid priority"))
        .and_then(|value| thread_priority::set_current_thread_priority(ThreadPriority::Crossplatform(value)));
    if let Err(error) = lowered {
        tracing::warn!(?error, "hashing threads keep the normal priority");
    }
}

fn hash_with(password: &[u8], memory: &mut [Block]) -> anyhow::Result<PasswordHash> {
    let params = owasp();
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut salt_bytes)?;
    let mut out = [0u8; 32];
    argon2(params.clone()).hash_password_into_with_memory(
        password,
        salt_bytes,
        &mut out,
        &mut memory[..params.block_count()],
    )?;
    let phc = password_hash::PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params)?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out)?),
    };
    Ok(PasswordHash(phc.to_string()))
}

/// Whether `password` matches the PHC string `phc`; a hash made with larger parameters than the
/// thread's memory holds gets memory of its own.
fn verify_with(password: &[u8], phc: &str, memory: &mut [Block]) -> bool {
    let Ok(parsed) = password_hash::PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    if parsed.algorithm != argon2::ARGON2ID_IDENT || parsed.version != Some(Version::V0x13.into()) {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut own;
    let blocks = params.block_count();
    let memory = if blocks <= memory.len() {
        &mut memory[..blocks]
    } else {
        own = vec![Block::default(); blocks];
        &mut own[..]
    };
    let mut out = vec![0u8; expected.len()];
    argon2(params)
        .hash_password_into_with_memory(password, salt_bytes, &mut out, memory)
        .is_ok()
        // Output's equality is constant-time.
        && Output::new(&out).is_ok_and(|out| out == expected)
}

#[cfg(test)]
mod tests {
    use argon2::{PasswordHasher, PasswordVerifier};

    use super::*;

    #[tokio::test]
    async fn a_password_verifies_against_its_own_hash_only() {
        let hasher = Hasher::start(2).await.unwrap();
        let hash = hasher.hash("s3cret!").await.unwrap();
        assert!(hash.0.starts_with("$argon2id$v=19$m=12288,t=3,p=1$"));
        assert!(hash.is_current());
        assert!(hasher.verify("s3cret!", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("s3cret!", None).await.unwrap());
    }

    #[tokio::test]
    async fn hashes_agree_with_the_reference_implementation_both_ways() {
        let hasher = Hasher::start(1).await.unwrap();
        // Ours verifies with the argon2 crate's own PHC verifier...
        let ours = hasher.hash("correct horse").await.unwrap();
        let parsed = password_hash::PasswordHash::new(&ours.0).unwrap();
        assert!(argon2(owasp()).verify_password(b"correct horse", &parsed).is_ok());
        // ...and one it made (as earlier releases stored them) verifies with ours.
        let salt = SaltString::generate(&mut OsRng);
        let theirs = argon2(owasp())
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        let theirs = PasswordHash(theirs);
        assert!(hasher.verify("battery staple", Some(&theirs)).await.unwrap());
        assert!(!hasher.verify("battery stapler", Some(&theirs)).await.unwrap());
    }

    #[tokio::test]
    async fn a_hash_with_more_memory_than_the_threads_hold_still_verifies() {
        let hasher = Hasher::start(1).await.unwrap();
        let params = Params::new(24 * 1024, 1, 1, None).unwrap();
        let salt = SaltString::generate(&mut OsRng);
        let bigger = PasswordHash(argon2(params).hash_password(b"pw", &salt).unwrap().to_string());
        assert!(hasher.verify("pw", Some(&bigger)).await.unwrap());
        assert!(!bigger.is_current());
    }

    #[tokio::test]
    async fn garbage_in_place_of_a_hash_never_verifies() {
        let hasher = Hasher::start(1).await.unwrap();
        for phc in ["", "not a hash", "$argon2i$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$aGFzaA"] {
            assert!(
                !hasher
                    .verify("pw", Some(&PasswordHash(phc.into())))
                    .await
                    .unwrap()
            );
        }
    }
}
