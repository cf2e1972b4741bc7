//! Draws every plot of a synthetic crowd (many stations, optionally a long run) as PNG and
//! SVG into a directory, to see how the figures summarise more stations than colours.
//!
//! `cargo run -p airq-report --example crowd_demo [out_dir] [stations] [duration_s]`

use std::path::PathBuf;

use airq_report::demo::crowd_comparison;
use airq_report::{draw, PlotKind};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "target/crowd-demo".into()));
    let stations = parse(args.next(), 30, "stations");
    let duration_s = parse(args.next(), 30.0, "duration_s");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("crowd_demo: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let comparison = crowd_comparison(stations, duration_s, 0.2, 1);
    for kind in PlotKind::ALL {
        for ext in ["png", "svg"] {
            let path = dir.join(format!("{}.{ext}", kind.name()));
            match draw(kind, &comparison, &path) {
                Ok(()) => println!("{:<12} {}", kind.name(), path.display()),
                Err(e) => {
                    eprintln!("crowd_demo: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}

fn parse<T: std::str::FromStr>(arg: Option<String>, default: T, what: &str) -> T
where
    T::Err: std::fmt::Display,
{
    match arg.map(|a| a.parse::<T>()) {
        None => default,
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            eprintln!("crowd_demo: {what}: {e}");
            std::process::exit(2);
        }
    }
}
