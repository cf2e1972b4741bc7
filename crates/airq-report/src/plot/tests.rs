//! Rendering tests: every kind draws PNG and SVG from the demo data, bad input and paths
//! come back as errors, and the same input gives the same bytes.

use std::path::PathBuf;

use super::*;
use crate::demo::demo_comparison;

fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("airq-report-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The texts of an SVG's `<text>` elements, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

#[test]
fn every_kind_renders_png_and_svg() {
    let c = demo_comparison(1);
    let dir = out_dir("all");
    for kind in PlotKind::ALL {
        let png = dir.join(format!("{}.png", kind.name()));
        draw(kind, &c, &png).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert!(
            is_png(&bytes) && bytes.len() > 20_000,
            "{}: {} bytes",
            kind.name(),
            bytes.len()
        );

        let svg = dir.join(format!("{}.svg", kind.name()));
        draw(kind, &c, &svg).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert!(text.contains(&c.scenario), "{}: no title", kind.name());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The caption and the axis titles each kind must show, as they appear in its SVG.
#[test]
fn svgs_carry_their_axis_labels() {
    let c = demo_comparison(1);
    let dir = out_dir("labels");
    let expect: [(PlotKind, &[&str]); 5] = [
        (
            PlotKind::LatencyCdf,
            &["Ping RTT (ms)", "Cumulative probability", "fq_mac", "slow"],
        ),
        (
            PlotKind::Goodput,
            &["Goodput (Mbit/s)", "AP design", "airtime_aql", "total"],
        ),
        (
            PlotKind::Airtime,
            &["Share of busy airtime (%)", "fifo", "fast2"],
        ),
        (
            PlotKind::Timeseries,
            &["Time (s)", "Goodput (Mbit/s)", "Ping RTT (ms)"],
        ),
        (
            PlotKind::QueueDepth,
            &[
                "Queued frames",
                "Queued airtime (ms)",
                "Share of samples (%)",
            ],
        ),
    ];
    for (kind, labels) in expect {
        let svg = dir.join(format!("{}.svg", kind.name()));
        draw(kind, &c, &svg).unwrap();
        let texts = svg_texts(&std::fs::read_to_string(&svg).unwrap());
        assert!(
            texts.contains(&c.caption),
            "{}: no caption \"{}\"",
            kind.name(),
            c.caption
        );
        for label in labels {
            assert!(
                texts.iter().any(|t| t == label),
                "{}: no \"{label}\"",
                kind.name()
            );
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn same_input_same_bytes() {
    let dir = out_dir("determinism");
    for ext in ["png", "svg"] {
        let (a, b) = (dir.join(format!("a.{ext}")), dir.join(format!("b.{ext}")));
        draw(PlotKind::Goodput, &demo_comparison(5), &a).unwrap();
        draw(PlotKind::Goodput, &demo_comparison(5), &b).unwrap();
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_extension_is_an_error_and_writes_nothing() {
    let dir = out_dir("ext");
    let path = dir.join("plot.pdf");
    let err = draw(PlotKind::Airtime, &demo_comparison(1), &path).unwrap_err();
    assert!(
        matches!(err, ReportError::UnsupportedExtension { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("plot.pdf"));
    assert!(!path.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn unwritable_path_is_an_io_error() {
    let path = Path::new("/nonexistent-airq-dir/plot.png");
    let err = draw(PlotKind::Goodput, &demo_comparison(1), path).unwrap_err();
    assert!(matches!(err, ReportError::Io { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent-airq-dir/plot.png"));
}

#[test]
fn missing_data_is_an_empty_data_error() {
    let dir = out_dir("empty");
    let mut c = demo_comparison(1);
    for run in &mut c.runs {
        run.driver_queue = None;
        for sta in &mut run.stations {
            sta.ping_rtt_ms.clear();
        }
    }
    for kind in [PlotKind::QueueDepth, PlotKind::LatencyCdf] {
        let err = draw(kind, &c, &dir.join("x.png")).unwrap_err();
        assert!(
            matches!(err, ReportError::EmptyData { .. }),
            "{}: {err}",
            kind.name()
        );
    }
    // Goodput and time series still draw without pings.
    draw(PlotKind::Timeseries, &c, &dir.join("t.png")).unwrap();
    let err = draw(
        PlotKind::Goodput,
        &Comparison::default(),
        &dir.join("g.png"),
    )
    .unwrap_err();
    assert!(matches!(err, ReportError::EmptyData { .. }), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn invalid_input_is_refused_before_drawing() {
    let mut c = demo_comparison(1);
    c.runs[3].stations[2].ping_rtt_ms[10].1 = f64::NAN;
    let err = draw(PlotKind::LatencyCdf, &c, Path::new("never.png")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "run \"airtime\", station \"slow\", ping_rtt_ms[10]: RTT NaN ms is not a finite value > 0"
    );
}

#[test]
fn kinds_round_trip_through_their_names() {
    for kind in PlotKind::ALL {
        assert_eq!(PlotKind::from_name(kind.name()), Some(kind));
        assert!(!kind.description().is_empty());
    }
    assert_eq!(PlotKind::from_name("nope"), None);
}

#[test]
fn station_colours_follow_names_not_positions() {
    let mut c = demo_comparison(1);
    c.runs[1].stations.reverse();
    let colours = StationColours::of(&c);
    assert_eq!(colours.names(), ["fast1", "fast2", "slow"]);
    assert_eq!(colours.colour("slow"), theme::station_colour(2));
}

/// Odd shapes: one design, four designs (a full 2x2 grid), a station missing from one
/// design, all-zero queues, a single ping.
#[test]
fn odd_shapes_render() {
    let dir = out_dir("shapes");
    let full = demo_comparison(9);
    let mut one = full.clone();
    one.runs.truncate(1);
    let mut four = full.clone();
    four.runs.truncate(4);
    let gone = four.runs[1].stations.remove(0);
    four.runs[1].flows.retain(|f| f.station != gone.name);
    for q in four.runs.iter_mut().filter_map(|r| r.driver_queue.as_mut()) {
        q.frames.iter_mut().for_each(|f| *f = 0.0);
        q.airtime_us.iter_mut().for_each(|a| *a = 0.0);
    }
    for sta in &mut four.runs[2].stations {
        sta.ping_rtt_ms.truncate(1);
    }
    for (name, c) in [("one", &one), ("four", &four)] {
        for kind in PlotKind::ALL {
            let path = dir.join(format!("{name}-{}.png", kind.name()));
            draw(kind, c, &path).unwrap_or_else(|e| panic!("{name} {}: {e}", kind.name()));
            assert!(std::fs::metadata(&path).unwrap().len() > 10_000);
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}
