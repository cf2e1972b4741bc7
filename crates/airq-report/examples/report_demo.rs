//! Draws every plot of the synthetic demo comparison as PNG and SVG into a directory.
//!
//! `cargo run -p airq-report --example report_demo [out_dir] [seed]`

use std::path::PathBuf;

use airq_report::demo::demo_comparison;
use airq_report::{draw, PlotKind};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "target/report-demo".into()));
    let seed = match args.next().map(|s| s.parse::<u64>()) {
        None => 1,
        Some(Ok(seed)) => seed,
        Some(Err(e)) => {
            eprintln!("report_demo: seed: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("report_demo: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let comparison = demo_comparison(seed);
    for kind in PlotKind::ALL {
        for ext in ["png", "svg"] {
            let path = dir.join(format!("{}.{ext}", kind.name()));
            match draw(kind, &comparison, &path) {
                Ok(()) => println!("{:<12} {}", kind.name(), path.display()),
                Err(e) => {
                    eprintln!("report_demo: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}
