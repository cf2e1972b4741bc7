//! Draws synthetic parameter-sweep figures as PNG and SVG into a directory: 1, 3 and 8
//! variants over 2, 5 and 12 parameter values, on linear, log and category axes.
//!
//! `cargo run -p airq-report --example sweep_demo [out_dir]`

use std::path::PathBuf;

use airq_report::{draw_sweep, SweepAxis, SweepFigure, SweepLine, SweepPoint};

const VARIANTS: [&str; 8] = [
    "fifo",
    "fq_codel",
    "fq_mac",
    "airtime",
    "airtime_aql",
    "airtime_aql+amsdu",
    "fq_mac quantum=300",
    "fq_mac quantum=1514",
];

/// A made-up goodput curve per variant that saturates with the parameter, with a
/// deterministic wobble and an interval that grows with it.
fn point(variant: usize, i: usize, x: f64) -> SweepPoint {
    let v = variant as f64;
    let wobble = ((i as f64 * 1.7 + v * 2.3).sin() + 1.0) * 1.5;
    let mean = (20.0 + 8.0 * v) * (1.0 - (-x / 20.0).exp()) + wobble;
    SweepPoint {
        x,
        mean,
        ci95: Some(0.6 + 0.04 * mean + wobble * 0.8),
    }
}

fn figure(lines: usize, xs: &[f64], axis: SweepAxis, x_label: &str) -> SweepFigure {
    let x_of = |i: usize, x: f64| match axis {
        SweepAxis::Categories(_) => i as f64,
        SweepAxis::Numeric { .. } => x,
    };
    SweepFigure {
        title: format!("ending-the-anomaly: total goodput vs {x_label}"),
        caption: "5 seeds (1-5), 30 s each, mean ± 95% CI; --set duration=30".into(),
        x_label: x_label.into(),
        y_label: "total goodput, Mbit/s".into(),
        lines: VARIANTS[..lines]
            .iter()
            .enumerate()
            .map(|(v, name)| SweepLine {
                name: name.to_string(),
                points: xs
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| SweepPoint {
                        x: x_of(i, x),
                        ..point(v, i, x)
                    })
                    .collect(),
            })
            .collect(),
        x: axis,
    }
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/sweep-demo".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("sweep_demo: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let grids: [(&str, Vec<f64>); 3] = [
        ("2", vec![5.0, 20.0]),
        ("5", vec![1.0, 2.0, 5.0, 10.0, 20.0]),
        ("12", (1..=12).map(|i| i as f64 * 5.0).collect()),
    ];
    for lines in [1, 3, 8] {
        for (n, xs) in &grids {
            let names: Vec<String> = xs.iter().map(|x| format!("{x} ms target")).collect();
            let axes = [
                ("linear", SweepAxis::Numeric { log: false }),
                ("log", SweepAxis::Numeric { log: true }),
                ("categories", SweepAxis::Categories(names)),
            ];
            for (kind, axis) in axes {
                let label = match kind {
                    "categories" => "ap.fq_mac.target",
                    _ => "ap.fq_mac.target_ms",
                };
                let fig = figure(lines, xs, axis, label);
                for ext in ["png", "svg"] {
                    let path = dir.join(format!("sweep-{lines}lines-{n}x-{kind}.{ext}"));
                    match draw_sweep(&fig, &path) {
                        Ok(()) => println!("{}", path.display()),
                        Err(e) => {
                            eprintln!("sweep_demo: {e}");
                            std::process::exit(1);
                        }
                    }
                }
            }
        }
    }
}
