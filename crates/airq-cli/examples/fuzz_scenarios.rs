//! A scenario-file fuzz of the `airq` binary: mutates the bundled scenarios (a value
//! replaced by a hostile one, a key removed, a table duplicated or emptied) and runs
//! each mutant through `airq check` and, when accepted, a short `airq run`, each in its
//! own process with a time limit. Counts what came back: refused with a message,
//! accepted, and the failures that must never happen — a panic, an abort (killed by a
//! signal), a hang (over the time limit), or a value no key can mean (NaN, infinity,
//! ±1e308) accepted.
//!
//! ```sh
//! cargo build --release -p airq-cli
//! cargo run --release -p airq-cli --example fuzz_scenarios -- 10000 1 target/release/airq
//! ```
//! Arguments: mutants (default 1000), seed (default 1), the binary (default
//! target/release/airq). Deterministic for a seed. Exits 1 if any failure was seen, and
//! keeps each failing mutant in `target/fuzz-scenarios/`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use toml_edit::{DocumentMut, Item, Value};

/// Longest an `airq` process may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(20);

/// Values put in place of a scenario's own: out of range, of the wrong type, absurd.
const HOSTILE: &[&str] = &[
    "0", "-1", "1", "65535", "65536", "4294967295", "4294967296", "18446744073709551615",
    "-9223372036854775808", "1e308", "-1e308", "1e-300", "nan", "inf", "-inf", "0.0",
    "-0.0", "1e9", "1e13", "\"\"", "\"x\"", "true", "false", "[]", "[1, 2]", "{}",
    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
    "\"../../etc/passwd\"", "\"a b\"", "\"fast1\"", "\"slow\"", "\"fifo\"", "\"ht\"",
    "\"2.4GHz\"", "\"dsss\"", "\"udp_cbr\"", "\"rrul\"", "\"http\"", "\"voip\"",
];

/// Hostile values no key of a scenario can mean: a mutant that has one and is accepted
/// is a silent accept.
const MEANINGLESS: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "-9223372036854775808",
];

/// What happened to one mutant.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Refused,
    Accepted,
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

/// Every leaf value of `item` as a path of keys and indices.
fn leaves(item: &Item, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match item {
        Item::Table(t) => {
            for (k, v) in t.iter() {
                path.push(k.to_string());
                leaves(v, path, out);
                path.pop();
            }
        }
        Item::ArrayOfTables(a) => {
            for (i, t) in a.iter().enumerate() {
                path.push(i.to_string());
                for (k, v) in t.iter() {
                    path.push(k.to_string());
                    leaves(v, path, out);
                    path.pop();
                }
                path.pop();
            }
        }
        Item::Value(Value::InlineTable(t)) => {
            for (k, v) in t.iter() {
                path.push(k.to_string());
                leaves(&Item::Value(v.clone()), path, out);
                path.pop();
            }
        }
        Item::Value(_) => out.push(path.clone()),
        Item::None => {}
    }
}

/// The item at `path`, if it is there.
fn at<'a>(doc: &'a mut Item, path: &[String]) -> Option<&'a mut Item> {
    let Some((first, rest)) = path.split_first() else {
        return Some(doc);
    };
    let child = match doc {
        Item::ArrayOfTables(a) => {
            let t = a.get_mut(first.parse().ok()?)?;
            return at_table(t, rest);
        }
        _ => doc.get_mut(first.as_str())?,
    };
    at(child, rest)
}

fn at_table<'a>(t: &'a mut toml_edit::Table, path: &[String]) -> Option<&'a mut Item> {
    let (first, rest) = path.split_first()?;
    at(t.get_mut(first)?, rest)
}

/// One mutant of `text`: one to three mutations; the hostile values it put in.
fn mutate(text: &str, rng: &mut Rng) -> (String, Vec<&'static str>) {
    let mut put = Vec::new();
    let mut doc: DocumentMut = text.parse().expect("the bundled scenarios are TOML");
    for _ in 0..1 + rng.below(3) {
        let mut paths = Vec::new();
        leaves(doc.as_item(), &mut Vec::new(), &mut paths);
        if paths.is_empty() {
            break;
        }
        let path = paths[rng.below(paths.len())].clone();
        let (parent, key) = path.split_at(path.len() - 1);
        match rng.below(10) {
            // Remove the key.
            0 => {
                if let Some(t) = at(doc.as_item_mut(), parent).and_then(|p| p.as_table_like_mut()) {
                    t.remove(&key[0]);
                }
            }
            // Duplicate the entry of an array of tables it is in.
            1 => {
                if let Some(pos) = path.iter().position(|s| s.parse::<usize>().is_ok()) {
                    if let Some(Item::ArrayOfTables(a)) = at(doc.as_item_mut(), &path[..pos]) {
                        if let Some(t) = a.get(path[pos].parse().unwrap_or(0)).cloned() {
                            a.push(t);
                        }
                    }
                }
            }
            // A hostile value.
            _ => {
                let v = HOSTILE[rng.below(HOSTILE.len())];
                if let (Ok(value), Some(slot)) = (v.parse::<Value>(), at(doc.as_item_mut(), &path))
                {
                    *slot = Item::Value(value);
                    put.push(v);
                }
            }
        }
    }
    (doc.to_string(), put)
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut sources: Vec<String> = std::fs::read_dir(&root)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect();
    sources.sort();
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-scenarios");
    std::fs::create_dir_all(&work).expect("target is writable");
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut refused, mut accepted, mut silent, mut failures) = (0, 0, 0, Vec::new());
    let started = Instant::now();
    for i in 0..n {
        let (mutant, put) = mutate(&sources[rng.below(sources.len())], &mut rng);
        let file = work.join("mutant.toml");
        std::fs::write(&file, &mutant).expect("target is writable");
        let file_arg = file.to_string_lossy().into_owned();
        let out = work.join("out");
        let out_arg = out.to_string_lossy().into_owned();
        let mut outcome = airq(&binary, &["check", &file_arg]);
        if outcome == Outcome::Accepted {
            // Accepted: it must also run (briefly), or be refused with a message.
            outcome = airq(
                &binary,
                &[
                    "-q",
                    "run",
                    &file_arg,
                    "--duration",
                    "0.2",
                    "--omit",
                    "0",
                    "--seeds",
                    "1",
                    "--force",
                    "-o",
                    &out_arg,
                ],
            );
        }
        match outcome {
            Outcome::Refused => refused += 1,
            Outcome::Accepted
                if put
                    .iter()
                    .any(|v| MEANINGLESS.contains(v) && mutant.contains(v)) =>
            {
                let kept = work.join(format!("silent-{i}.toml"));
                std::fs::write(&kept, &mutant).expect("target is writable");
                eprintln!("mutant {i}: accepted {put:?}, kept as {}", kept.display());
                silent += 1;
            }
            Outcome::Accepted => accepted += 1,
            failure => {
                let kept = work.join(format!("failure-{i}.toml"));
                std::fs::write(&kept, &mutant).expect("target is writable");
                eprintln!("mutant {i}: {failure:?}, kept as {}", kept.display());
                failures.push(failure);
            }
        }
    }
    let count = |o: Outcome| failures.iter().filter(|f| **f == o).count();
    println!(
        "{n} mutants (seed {seed}) in {:.0} s: {refused} refused with a message, {accepted} \
         accepted and run; {silent} accepted with a meaningless value (nan, inf, +-1e308); \
         {} panics, {} aborts, {} hangs over {} s",
        started.elapsed().as_secs_f64(),
        count(Outcome::Panic),
        count(Outcome::Abort),
        count(Outcome::Hang),
        LIMIT.as_secs()
    );
    if !failures.is_empty() || silent > 0 {
        std::process::exit(1);
    }
}
