//! A results-file fuzz of the `airq` binary (issue 20): mutates real results files — the
//! JSON inside them (a value replaced by a hostile one or by another type, a key
//! removed, an array emptied, cut short or an entry repeated, the text cut off) and the
//! gzip bytes themselves (bytes flipped, cut, appended) — and runs each mutant through
//! `airq show` and `airq plot` (each figure in turn), each in its own process with a
//! time limit. Counts what came back: refused with a message, accepted, and the
//! failures that must never happen — a panic, an abort (killed by a signal), a hang
//! (over the time limit), or a refusal that says nothing.
//!
//! ```sh
//! cargo build --release -p airq-cli
//! cargo run --release -p airq-cli --example fuzz_results -- 1000 1 target/release/airq
//! ```
//! Arguments: mutants (default 1000), seed (default 1), the binary (default
//! target/release/airq), and a folder of results files to mutate (default the results
//! fuzz target's seed corpus, fuzz/corpus/results_file/: short runs of four scenarios,
//! one a version-1 file). Deterministic for a seed. Exits 1 if any failure was seen, and
//! keeps each failing mutant in `target/fuzz-results/`.

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::{Map, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest an `airq` process may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(20);

/// The figures `airq plot` draws (`airq list plots`), one per mutant in turn.
const PLOTS: &[&str] = &[
    "latency_cdf",
    "goodput",
    "airtime",
    "timeseries",
    "queue_depth",
];

/// What happened to one mutant under one command.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Outcome {
    Refused,
    Accepted,
    Silent,
    Panic,
    Abort,
    Hang,
}

/// xorshift64*: enough to pick mutations, reproducible for a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Values put in place of a file's own: out of range, of another type, absurd.
fn hostile(rng: &mut Rng) -> Value {
    let long = "a".repeat(10_000);
    let values: [Value; 22] = [
        Value::Null,
        true.into(),
        0.into(),
        (-1).into(),
        1.into(),
        u64::MAX.into(),
        i64::MIN.into(),
        4_294_967_296u64.into(),
        1e308.into(),
        (-1e308).into(),
        1e-300.into(),
        0.5.into(),
        "".into(),
        "x".into(),
        long.into(),
        "../../etc/passwd".into(),
        "airtime".into(),
        Value::Array(Vec::new()),
        Value::Array(vec![Value::Null]),
        Value::Array(vec![(-1).into(), 1e308.into()]),
        Value::Object(Map::new()),
        serde_json::json!({"format": "airq-results", "format_version": 3}),
    ];
    values[rng.below(values.len())].clone()
}

/// Every node of `v` as a path of keys and indices (the root is the empty path).
fn nodes(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(path.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                path.push(k.clone());
                nodes(child, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            // Long arrays (samples) stand for themselves and a few entries.
            let step = (a.len() / 4).max(1);
            for i in (0..a.len()).step_by(step) {
                path.push(i.to_string());
                nodes(&a[i], path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Object(m) => m.get_mut(k),
        Value::Array(a) => a.get_mut(k.parse::<usize>().ok()?),
        _ => None,
    })
}

/// One mutant of `json` (a results file's JSON): one to three mutations of its
/// structure, sometimes the text cut off after.
fn mutate_json(json: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut doc: Value = serde_json::from_slice(json).expect("the seeds are results files");
    for _ in 0..1 + rng.below(3) {
        let mut paths = Vec::new();
        nodes(&doc, &mut Vec::new(), &mut paths);
        let path = paths[rng.below(paths.len())].clone();
        let Some(node) = at(&mut doc, &path) else {
            continue;
        };
        match (rng.below(8), node) {
            (0, _) if !path.is_empty() => {
                let (parent, key) = path.split_at(path.len() - 1);
                match at(&mut doc, parent) {
                    Some(Value::Object(m)) => {
                        m.remove(&key[0]);
                    }
                    Some(Value::Array(a)) => {
                        a.remove(key[0].parse::<usize>().unwrap_or(0).min(a.len() - 1));
                    }
                    _ => {}
                }
            }
            (1, Value::Array(a)) => a.clear(),
            (2, Value::Array(a)) if !a.is_empty() => {
                let keep = rng.below(a.len());
                a.truncate(keep);
            }
            (3, Value::Array(a)) if !a.is_empty() => {
                let entry = a[rng.below(a.len())].clone();
                let times = 1 + rng.below(100);
                a.extend(std::iter::repeat_n(entry, times));
            }
            (_, node) => *node = hostile(rng),
        }
    }
    let mut text = serde_json::to_vec(&doc).expect("a Value serialises");
    if rng.below(10) == 0 {
        text.truncate(rng.below(text.len()));
    }
    text
}

/// One mutant of `gz` (a results file's bytes): bytes flipped, cut or appended.
fn mutate_gzip(gz: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = gz.to_vec();
    match rng.below(4) {
        0 => out.truncate(rng.below(out.len())),
        1 => {
            let extra: Vec<u8> = (0..1 + rng.below(64)).map(|_| rng.next() as u8).collect();
            out.extend(extra);
        }
        2 => {
            // A second gzip member: concatenated members are one stream to gzip.
            let again = out.clone();
            out.extend(again);
        }
        _ => {
            for _ in 0..1 + rng.below(8) {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
        }
    }
    out
}

fn gunzip(gz: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    GzDecoder::new(gz)
        .read_to_end(&mut out)
        .expect("the seeds decompress");
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(data).expect("gzip into memory");
    gz.finish().expect("gzip into memory")
}

/// Runs `airq ARGS` with a time limit.
fn airq(binary: &Path, args: &[&str]) -> Outcome {
    let mut child = Command::new(binary)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the airq binary runs");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting works") {
            let mut stderr = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut stderr);
            }
            return if stderr.contains("panicked") || status.code() == Some(101) {
                Outcome::Panic
            } else if status.code().is_none() {
                Outcome::Abort
            } else if status.success() {
                Outcome::Accepted
            } else if stderr.trim().is_empty() {
                Outcome::Silent
            } else {
                Outcome::Refused
            };
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Outcome::Hang;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let binary = PathBuf::from(args.get(3).map_or("target/release/airq", String::as_str));
    let root = args.get(4).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/results_file"),
        PathBuf::from,
    );
    // The seeds as gzip bytes and as JSON; a plain JSON seed is gzipped as airq would.
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.to_string_lossy().ends_with(".json.gz") || p.extension().is_some_and(|x| x == "json")
        })
        .collect();
    paths.sort();
    let seeds: Vec<(Vec<u8>, Vec<u8>)> = paths
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).expect("readable");
            if bytes.starts_with(&[0x1f, 0x8b]) {
                (gunzip(&bytes), bytes)
            } else {
                let gz = gzip(&bytes);
                (bytes, gz)
            }
        })
        .collect();
    assert!(!seeds.is_empty(), "no results file in {}", root.display());
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-results");
    std::fs::create_dir_all(&work).expect("target is writable");
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut refused, mut accepted, mut failures) = (0, 0, Vec::new());
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    for i in 0..n {
        let (json, gz) = &seeds[rng.below(seeds.len())];
        let mutant = if rng.below(10) < 7 {
            gzip(&mutate_json(json, &mut rng))
        } else {
            mutate_gzip(gz, &mut rng)
        };
        let file = work.join("mutant.json.gz");
        std::fs::write(&file, &mutant).expect("target is writable");
        let file_arg = file.to_string_lossy().into_owned();
        let png = work.join("mutant.png").to_string_lossy().into_owned();
        let plot = PLOTS[i % PLOTS.len()];
        for command in [
            vec!["show", file_arg.as_str()],
            vec![
                "-q",
                "plot",
                file_arg.as_str(),
                "-p",
                plot,
                "-o",
                png.as_str(),
            ],
        ] {
            let one = Instant::now();
            let outcome = airq(&binary, &command);
            slowest = slowest.max(one.elapsed());
            match outcome {
                Outcome::Refused => refused += 1,
                Outcome::Accepted => accepted += 1,
                failure => {
                    let kept = work.join(format!("failure-{i}-{}.json.gz", command[0]));
                    std::fs::write(&kept, &mutant).expect("target is writable");
                    eprintln!(
                        "mutant {i}: airq {}: {failure:?}, kept as {}",
                        command.join(" "),
                        kept.display()
                    );
                    failures.push(failure);
                }
            }
        }
    }
    let count = |o: Outcome| failures.iter().filter(|f| **f == o).count();
    println!(
        "{n} mutants (seed {seed}) through show and plot in {:.0} s (slowest command {:.2} s): \
         {refused} refused with a message, {accepted} accepted; {} panics, {} aborts, {} hangs \
         over {} s, {} refusals without a message",
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64(),
        count(Outcome::Panic),
        count(Outcome::Abort),
        count(Outcome::Hang),
        LIMIT.as_secs(),
        count(Outcome::Silent),
    );
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
