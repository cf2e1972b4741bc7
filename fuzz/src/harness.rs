//! The stable-toolchain harness: each target's seed corpus and then mutants of it
//! ([`super::mutate`]) through the target's function, as `cargo fuzz` would but for a
//! bounded number of inputs and without coverage feedback, so that CI runs the same
//! targets on every commit (crates/airq-cli/tests/cli/fuzz_targets.rs). A gzip seed
//! (a results file) is mutated either as bytes or, half the time, as the JSON inside it,
//! compressed again, which is what reaches the loader's deeper paths. An input that
//! panics is kept in the temporary folder and named in the panic, to be replayed with
//! `cargo +nightly fuzz run <target> <file>`.

use super::mutate::{mutate, Rng};
use super::Target;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// What a harness run did.
#[derive(Debug, Default)]
pub struct Run {
    /// Seed files fed as they are.
    pub seeds: usize,
    /// Mutants fed.
    pub mutants: usize,
}

/// Feeds `target` every file of `corpus` and then `mutants` mutants of them (seed
/// `seed`); panics, naming the kept input, at the first input that panics.
pub fn run(name: &str, target: Target, corpus: &Path, mutants: usize, seed: u64) -> Run {
    let seeds = read_corpus(corpus);
    assert!(!seeds.is_empty(), "no seed in {}", corpus.display());
    for s in &seeds {
        feed(name, target, s);
    }
    let mut rng = Rng::new(seed);
    for _ in 0..mutants {
        let data = &seeds[rng.below(seeds.len())];
        let other = &seeds[rng.below(seeds.len())];
        let input = match gunzip(data) {
            Some(json) if rng.below(2) == 0 => gzip(&mutate(&json, other, &mut rng)),
            _ => mutate(data, other, &mut rng),
        };
        feed(name, target, &input);
    }
    Run {
        seeds: seeds.len(),
        mutants,
    }
}

/// Every file of `dir`, in name order.
pub fn read_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display())))
        .collect()
}

fn feed(name: &str, target: Target, input: &[u8]) {
    if catch_unwind(AssertUnwindSafe(|| target(input))).is_err() {
        let kept = std::env::temp_dir().join(format!(
            "airq-fuzz-{name}-crash-{:016x}",
            fingerprint(input)
        ));
        std::fs::write(&kept, input).expect("cannot keep the failing input");
        panic!(
            "{name}: an input panicked; kept in {} (replay: cargo +nightly fuzz run {name} {0})",
            kept.display()
        );
    }
}

/// FNV-1a of the input, to name the kept file.
fn fingerprint(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The content of a gzip seed, at most 64 MB of it; `None` if it is not gzip.
fn gunzip(data: &[u8]) -> Option<Vec<u8>> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return None;
    }
    let mut out = Vec::new();
    GzDecoder::new(data)
        .take(64 << 20)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(data).expect("gzip into memory");
    gz.finish().expect("gzip into memory")
}
