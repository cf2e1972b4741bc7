//! Rendering tests: every kind draws PNG and SVG from the demo data, bad input and paths
//! come back as errors, the same input gives the same bytes, and crowded and long
//! comparisons keep every text on the canvas.

use std::path::PathBuf;

use super::*;
use crate::demo::{crowd_comparison, demo_comparison};
use crate::theme;

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

/// An SVG attribute's value in the text of one element.
fn attribute<'s>(element: &'s str, name: &str) -> Option<&'s str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// Each `<text>` of an SVG with the box it covers, (left, top, right, bottom) in pixels,
/// estimated at 0.55 em a character (DejaVu Sans averages about that) and from the
/// anchor and baseline plotters writes; rotated text is taken along its length on y.
fn svg_text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    let mut boxes = Vec::new();
    for chunk in svg.split("<text").skip(1) {
        let element = &chunk[..chunk.find('>').unwrap()];
        let body = &chunk[element.len() + 1..chunk.find("</text>").unwrap()];
        let text = body.trim().to_string();
        let number = |name: &str| attribute(element, name).unwrap().parse::<f64>().unwrap();
        let (x, y, size) = (number("x"), number("y"), number("font-size"));
        let length = 0.55 * size * text.chars().count() as f64;
        let (before, after) = match attribute(element, "text-anchor") {
            Some("middle") => (length / 2.0, length / 2.0),
            Some("end") => (length, 0.0),
            _ => (0.0, length),
        };
        let (above, below) = match attribute(element, "dy") {
            Some("0.76em") => (0.0, size),
            Some("-0.5ex") => (size, 0.0),
            _ => (size / 2.0, size / 2.0),
        };
        let rect = if element.contains("rotate(") {
            // Turned a quarter: its length runs along y, centred or ending at the anchor.
            [x, y - before.max(after), x, y + before.max(after)]
        } else {
            [x - before, y - above, x + after, y + below]
        };
        boxes.push((text, rect));
    }
    boxes
}

/// Panics naming every text of `svg` that is not inside its canvas.
fn assert_texts_inside(svg: &str, what: &str) {
    let width = attribute(svg, "width").unwrap().parse::<f64>().unwrap();
    let height = attribute(svg, "height").unwrap().parse::<f64>().unwrap();
    let outside: Vec<_> = svg_text_boxes(svg)
        .into_iter()
        .filter(|(_, [l, t, r, b])| *l < 0.0 || *t < 0.0 || *r > width || *b > height)
        .collect();
    assert!(
        outside.is_empty(),
        "{what}: text outside {width}x{height}: {outside:?}"
    );
}

#[test]
fn crowded_comparisons_render_with_every_text_on_the_canvas() {
    let dir = out_dir("crowds");
    for stations in [30, 100] {
        let c = crowd_comparison(stations, 30.0, 0.2, 3);
        for kind in PlotKind::ALL {
            let what = format!("{stations} stations, {}", kind.name());
            let png = dir.join(format!("{stations}-{}.png", kind.name()));
            draw(kind, &c, &png).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(is_png(&std::fs::read(&png).unwrap()), "{what}");
            let path = dir.join(format!("{stations}-{}.svg", kind.name()));
            draw(kind, &c, &path).unwrap_or_else(|e| panic!("{what}: {e}"));
            let svg = std::fs::read_to_string(&path).unwrap();
            assert_texts_inside(&svg, &what);
            let texts = svg_texts(&svg);
            if kind != PlotKind::QueueDepth {
                let note = format!("{stations} stations: 7 drawn (the 3 lowest,");
                assert!(
                    texts.iter().any(|t| t.starts_with(&note)),
                    "{what}: no note"
                );
                // Only the drawn stations are named, not the crowd.
                let named = texts.iter().filter(|t| t.starts_with("fast")).count();
                assert!(named <= theme::DISTINCT_STATIONS, "{what}: {named} named");
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn few_stations_have_no_note_and_a_legend_entry_each() {
    let dir = out_dir("few");
    let c = demo_comparison(1);
    let path = dir.join("cdf.svg");
    draw(PlotKind::LatencyCdf, &c, &path).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_texts_inside(&svg, "demo");
    let texts = svg_texts(&svg);
    assert!(!texts.iter().any(|t| t.contains("drawn")));
    for name in ["fast1", "fast2", "slow"] {
        assert!(texts.iter().any(|t| t == name), "no {name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A long run (an hour at 0.2 s steps) draws its pings as medians per time bin, and the
/// legend of a full column of designs ends in "… and N more" rather than off the canvas.
#[test]
fn long_runs_and_tall_legends_stay_inside() {
    let dir = out_dir("long");
    let c = crowd_comparison(10, 3000.0, 0.2, 5);
    let path = dir.join("timeseries.svg");
    draw(PlotKind::Timeseries, &c, &path).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_texts_inside(&svg, "long timeseries");
    assert!(svg_texts(&svg).contains(&"Ping RTT (ms), median per 50 s".to_string()));

    let mut c = demo_comparison(1);
    for i in 0..30 {
        let mut run = c.runs[0].clone();
        run.config = format!("design{i}");
        c.runs.push(run);
    }
    c.runs.truncate(32);
    let path = dir.join("queue_depth.svg");
    draw(PlotKind::QueueDepth, &c, &path).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_texts_inside(&svg, "32 designs");
    let texts = svg_texts(&svg);
    assert!(texts
        .iter()
        .any(|t| t.starts_with("… and ") && t.ends_with(" more")));
    std::fs::remove_dir_all(dir).unwrap();
}
