//! Draws synthetic repetitions figures (per-run values of `airq compare --seeds N`) as
//! PNG and SVG into a directory: 2, 5 and 8 variants over 3 and 30 seeds in three panels,
//! with a metric one variant lacks and some seeds' values lost; and two long-named
//! variants with a metric below zero and one no run has.
//!
//! `cargo run -p airq-report --example repetitions_demo [out_dir]`

use std::path::PathBuf;

use airq_report::{draw_repetitions, RepetitionsFigure, RepetitionsPanel};

const VARIANTS: [&str; 8] = [
    "fifo",
    "fq_codel",
    "fq_mac",
    "airtime",
    "airtime_aql",
    "airtime_aql+driver=firmware_push",
    "airtime_aql+driver=host_push",
    "fq_mac+quantum=300",
];

/// A deterministic stand-in for a standard normal draw, from the variant and seed.
fn noise(variant: usize, seed: usize, metric: usize) -> f64 {
    let a = (seed as f64 * 12.9898 + variant as f64 * 78.233 + metric as f64 * 37.719).sin();
    let b = (seed as f64 * 4.1414 + variant as f64 * 9.87 + metric as f64 * 1.3).cos();
    (a * 43_758.545_3).fract() + (b * 24_634.634_5).fract() - 0.5
}

fn figure(variants: usize, seeds: usize) -> RepetitionsFigure {
    let panel =
        |metric: usize, y_label: &str, value: &dyn Fn(usize, f64) -> f64| RepetitionsPanel {
            y_label: y_label.into(),
            values: (0..variants)
                .map(|v| (0..seeds).map(|s| value(v, noise(v, s, metric))).collect())
                .collect(),
            lost: Vec::new(),
        };
    let goodput = panel(0, "total goodput, Mbit/s", &|v, e| {
        60.0 + 12.0 * (v.min(4) as f64) + 4.0 * e
    });
    let fairness = panel(1, "Jain's index of airtime", &|v, e| {
        (0.55 + 0.09 * v.min(4) as f64 + 0.04 * e).min(1.0)
    });
    let mut ping = panel(2, "ping p99 of the worst station, ms", &|v, e| {
        let base = [480.0, 120.0, 40.0, 35.0, 18.0, 16.0, 20.0, 30.0][v];
        base * (1.0 + 0.25 * e)
    });
    // fifo loses every ping of its worst station under some seeds: no p99 there.
    let lost = seeds / 3;
    ping.values[0].truncate(seeds - lost);
    ping.lost = (0..variants)
        .map(|v| if v == 0 { lost } else { 0 })
        .collect();
    let mut figure = RepetitionsFigure {
        title: format!("ending-the-anomaly: {seeds} seeds per AP design"),
        caption: format!("seeds 1-{seeds}, 30 s each; --set duration=30"),
        variants: VARIANTS[..variants].iter().map(|v| v.to_string()).collect(),
        panels: vec![goodput, fairness, ping],
    };
    // The last variant has no airtime accounting: no fairness index.
    if variants > 2 {
        figure.panels[1].values[variants - 1].clear();
    }
    figure
}

/// Two variants, one with a long name; a change that goes below zero; a metric missing.
fn edge_cases() -> RepetitionsFigure {
    let seeds = 10;
    let values = |v: usize, scale: f64, offset: f64| -> Vec<f64> {
        (0..seeds)
            .map(|s| offset + scale * noise(v, s, 3))
            .collect()
    };
    RepetitionsFigure {
        title: "ending-the-anomaly: firmware push vs fifo".into(),
        caption: format!("seeds 1-{seeds}, 30 s each"),
        variants: vec!["fifo".into(), "airtime_aql+driver=firmware_push".into()],
        panels: vec![
            RepetitionsPanel {
                y_label: "goodput change vs seed's fifo run, %".into(),
                values: vec![values(0, 4.0, 0.0), values(1, 10.0, -6.0)],
                lost: Vec::new(),
            },
            RepetitionsPanel {
                y_label: "VoIP MOS".into(),
                values: vec![Vec::new(), Vec::new()],
                lost: vec![seeds, seeds],
            },
        ],
    }
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/repetitions-demo".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("repetitions_demo: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let mut figures = Vec::new();
    for variants in [2, 5, 8] {
        for seeds in [3, 30] {
            figures.push((format!("{variants}v-{seeds}s"), figure(variants, seeds)));
        }
    }
    figures.push(("edge-cases".to_string(), edge_cases()));
    for (name, fig) in figures {
        for ext in ["png", "svg"] {
            let path = dir.join(format!("repetitions-{name}.{ext}"));
            match draw_repetitions(&fig, &path) {
                Ok(()) => println!("{}", path.display()),
                Err(e) => {
                    eprintln!("repetitions_demo: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}
