//! The cargo-fuzz targets (fuzz/, issue 20) on the stable toolchain: each target's seed
//! corpus (fuzz/corpus/<target>/) and mutants of it through the very functions libFuzzer
//! calls (fuzz/src/, included here by path: the fuzz package is not a workspace member).
//! `AIRQ_FUZZ_MUTANTS` mutants per target (200 by default; .ci/run runs more in
//! release), seed `AIRQ_FUZZ_SEED` (1). A panic names the input it kept to replay.

#[allow(dead_code)]
#[path = "../../../../fuzz/src/lib.rs"]
mod airq_fuzz;

use std::path::Path;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seed corpus of target `name`.
fn corpus(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(name)
}

fn run(name: &str) {
    let (_, target) = airq_fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a target of that name");
    let corpus = corpus(name);
    let mutants = env_or("AIRQ_FUZZ_MUTANTS", 200) as usize;
    let started = std::time::Instant::now();
    let done =
        airq_fuzz::harness::run(name, *target, &corpus, mutants, env_or("AIRQ_FUZZ_SEED", 1));
    eprintln!(
        "{name}: {} seeds and {} mutants in {:.1} s, no panic",
        done.seeds,
        done.mutants,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn library_ops_target() {
    run("library_ops");
}

#[test]
fn scenario_file_target() {
    run("scenario_file");
}

#[test]
fn results_file_target() {
    run("results_file");
}

/// Two ping flows to one station whose request counts near `u64::MAX` overflowed their
/// sum in `ResultsFile::station_ping` — a panic in debug builds (`airq show` and every
/// table), a wrapped count in release; later a count saturated to `u64::MAX` and shown
/// as if measured. The file is a seed of the results target, so the harness replays it
/// too; loading now refuses it, naming the flow whose count passes the limit.
#[test]
fn ping_counts_of_a_mangled_file_are_refused() {
    let path = corpus("results_file").join("pings-sent-overflow.json");
    let json = std::fs::read_to_string(path).unwrap();
    let e = airq_cli::results::from_json(&json).unwrap_err().to_string();
    assert!(
        e.starts_with("flows[6].pings_sent: the run's ping requests add up past"),
        "{e}"
    );
    airq_fuzz::results_file(json.as_bytes());
}

/// A per-flow cumulative byte count of `u64::MAX` in the series overflowed the sum over
/// a station's flows in the plots' view (`report_view`'s per-step goodput) — a panic
/// in debug builds of `airq plot`, a wrapped rate in release. Found by the harness in a
/// debug build (2,000 mutants, seed 1); the sum then saturated, and loading now refuses
/// the file, naming the sample.
#[test]
fn a_flow_byte_count_of_u64_max_in_the_series_is_refused() {
    let path = corpus("results_file").join("series-flow-rx-bytes-overflow.json.gz");
    let e = airq_cli::results::load(&path).unwrap_err().to_string();
    assert!(e.contains(": series.flow_rx_bytes["), "{e}");
    airq_fuzz::results_file(&std::fs::read(path).unwrap());
}
