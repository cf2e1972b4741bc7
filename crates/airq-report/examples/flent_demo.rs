//! Writes one `.flent.gz` per design of the synthetic demo comparison.
//!
//! `cargo run -p airq-report --example flent_demo [out_dir] [seed]`

use std::path::PathBuf;

use airq_report::demo::demo_comparison;
use airq_report::write_flent;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "target/flent-demo".into()));
    let seed = match args.next().map(|s| s.parse::<u64>()) {
        None => 1,
        Some(Ok(seed)) => seed,
        Some(Err(e)) => {
            eprintln!("flent_demo: seed: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("flent_demo: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let comparison = demo_comparison(seed);
    for run in &comparison.runs {
        let path = dir.join(format!("{}.flent.gz", run.config));
        let title = format!("{} ({}, seed {seed})", comparison.scenario, run.config);
        if let Err(e) = write_flent(run, &comparison.scenario, &title, &path) {
            eprintln!("flent_demo: {e}");
            std::process::exit(1);
        }
        println!("{}", path.display());
    }
}
