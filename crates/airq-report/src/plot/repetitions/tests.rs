//! Repetitions figure tests: 1 to 8 variants, 1 to 3 panels and 1 to 30 seeds draw PNG
//! and SVG with every text on the canvas, bad input is refused with its location, a box
//! lands on its ticks, the y axis and the jitter follow the rules in the module doc.

use std::path::PathBuf;

use super::*;

const NAMES: [&str; 8] = [
    "fifo",
    "fq_codel",
    "fq_mac",
    "airtime",
    "airtime_aql",
    "airtime_aql+driver=firmware_push",
    "airtime_aql+driver=host_push",
    "fq_mac+quantum=300",
];

const METRICS: [&str; 3] = [
    "total goodput, Mbit/s",
    "Jain's index of airtime",
    "ping p99 of the worst station, ms",
];

/// `variants` variants over `seeds` seeds in `panels` panels, values made up from the
/// indices.
fn figure(variants: usize, panels: usize, seeds: usize) -> RepetitionsFigure {
    RepetitionsFigure {
        title: "demo: per-run values".into(),
        caption: format!("{seeds} seeds, 30 s each"),
        variants: NAMES[..variants].iter().map(|n| n.to_string()).collect(),
        panels: METRICS[..panels]
            .iter()
            .enumerate()
            .map(|(p, metric)| RepetitionsPanel {
                y_label: metric.to_string(),
                values: (0..variants)
                    .map(|v| {
                        (0..seeds)
                            .map(|s| 10.0 * (p + 1) as f64 + v as f64 + (s % 7) as f64 * 0.3)
                            .collect()
                    })
                    .collect(),
                lost: Vec::new(),
            })
            .collect(),
    }
}

fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("airq-repetitions-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn attr<'s>(tag: &'s str, name: &str) -> Option<&'s str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// An SVG `<text>` element: its text, anchor point, and the box it covers (left, top,
/// right, bottom), estimated at 0.55 em a character; turned text runs along y.
#[derive(Debug)]
struct SvgText {
    text: String,
    at: (f64, f64),
    rect: [f64; 4],
}

/// `text` with SVG's character references replaced by their characters.
fn unescape(text: &str) -> String {
    let refs = [
        ("&quot;", "\""),
        ("&#39;", "'"),
        ("&apos;", "'"),
        ("&lt;", "<"),
    ];
    let text = refs
        .iter()
        .fold(text.to_string(), |t, (r, c)| t.replace(r, c));
    text.replace("&gt;", ">").replace("&amp;", "&")
}

fn svg_texts(svg: &str) -> Vec<SvgText> {
    let mut texts = Vec::new();
    for chunk in svg.split("<text").skip(1) {
        let tag = &chunk[..chunk.find('>').unwrap()];
        let text = unescape(chunk[tag.len() + 1..chunk.find("</text>").unwrap()].trim());
        let number = |name: &str| attr(tag, name).unwrap().parse::<f64>().unwrap();
        let (x, y, size) = (number("x"), number("y"), number("font-size"));
        let length = 0.55 * size * text.chars().count() as f64;
        let (before, after) = match attr(tag, "text-anchor") {
            Some("middle") => (length / 2.0, length / 2.0),
            Some("end") => (length, 0.0),
            _ => (0.0, length),
        };
        let (above, below) = match attr(tag, "dy") {
            Some("0.76em") => (0.0, size),
            Some("-0.5ex") => (size, 0.0),
            _ => (size / 2.0, size / 2.0),
        };
        let rect = if tag.contains("rotate(270") {
            // Reads upwards: what is before the anchor is below it.
            [x - size / 2.0, y - after, x + size / 2.0, y + before]
        } else {
            [x - before, y - above, x + after, y + below]
        };
        texts.push(SvgText {
            text,
            at: (x, y),
            rect,
        });
    }
    texts
}

fn draw_svg(figure: &RepetitionsFigure, dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    draw_repetitions(figure, &path).unwrap();
    std::fs::read_to_string(path).unwrap()
}

/// Panics naming every text outside the canvas, and every two pieces of variant names
/// that overlap.
fn assert_texts_apart(svg: &str, what: &str) {
    let width: f64 = attr(svg, "width").unwrap().parse().unwrap();
    let height: f64 = attr(svg, "height").unwrap().parse().unwrap();
    let texts = svg_texts(svg);
    for t in &texts {
        let [l, top, r, b] = t.rect;
        assert!(
            l >= 0.0 && top >= 0.0 && r <= width && b <= height,
            "{what}: {t:?} outside {width}x{height}"
        );
    }
    let names: Vec<&SvgText> = texts
        .iter()
        .filter(|t| {
            let piece = t.text.trim_end_matches('…');
            piece.chars().any(char::is_alphabetic) && NAMES.iter().any(|n| n.contains(piece))
        })
        .collect();
    for (i, a) in names.iter().enumerate() {
        for b in &names[..i] {
            let apart = a.rect[2] <= b.rect[0]
                || b.rect[2] <= a.rect[0]
                || a.rect[3] <= b.rect[1]
                || b.rect[3] <= a.rect[1];
            assert!(apart, "{what}: {a:?} overlaps {b:?}");
        }
    }
}

#[test]
fn draws_png_and_svg_with_one_to_eight_variants() {
    let dir = out_dir("all");
    for variants in [1, 2, 5, 8] {
        for panels in [1, 3] {
            for seeds in [1, 3, 30] {
                let what = format!("{variants} variants, {panels} panels, {seeds} seeds");
                let figure = figure(variants, panels, seeds);
                let png = dir.join("r.png");
                draw_repetitions(&figure, &png).unwrap_or_else(|e| panic!("{what}: {e}"));
                let bytes = std::fs::read(&png).unwrap();
                assert!(
                    bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
                    "{what}"
                );
                let svg = draw_svg(&figure, &dir, "r.svg");
                assert_texts_apart(&svg, &what);
                let texts = svg_texts(&svg);
                let has = |s: &str| texts.iter().any(|t| t.text == s);
                for label in [&figure.title, &figure.caption] {
                    assert!(has(label), "{what}: no \"{label}\"");
                }
                assert!(has(KEY), "{what}: no key");
                for panel in &figure.panels {
                    assert!(has(&panel.y_label), "{what}: no {}", panel.y_label);
                }
                // Every name is there, whole or over several rows.
                let all: String = texts.iter().map(|t| t.text.as_str()).collect();
                for name in &figure.variants {
                    assert!(all.contains(name.as_str()), "{what}: no {name}");
                }
                // A dot per run.
                let dots = svg.matches("<circle").count();
                assert_eq!(dots, variants * panels * seeds, "{what}");
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn long_names_are_set_apart_and_the_canvas_grows_for_them() {
    let dir = out_dir("long");
    let short = figure(3, 3, 5);
    let long = figure(8, 3, 5);
    let (w, h) = Repetitions::new(&short).unwrap().size();
    assert_eq!((w, h), theme::FIGURE_SIZE);
    let turned = Repetitions::new(&long).unwrap();
    assert!(matches!(turned.labels, VariantLabels::Turned(_)));
    let (w, h) = turned.size();
    assert!(w >= 3 * (PANEL_FRAME_PX + 8 * MIN_SLOT_PX) && h > theme::FIGURE_SIZE.1);
    let svg = draw_svg(&long, &dir, "long.svg");
    assert_texts_apart(&svg, "8 variants");
    let texts = svg_texts(&svg);
    assert!(texts
        .iter()
        .any(|t| t.text == "airtime_aql+driver=firmware_push"));
    // Two long names in three panels: they wrap at their seams.
    let mut two = figure(7, 3, 5);
    two.variants.drain(..5);
    for panel in &mut two.panels {
        panel.values.drain(..5);
    }
    let wrapped = Repetitions::new(&two).unwrap();
    let VariantLabels::Rows(lines) = &wrapped.labels else {
        panic!("not wrapped: {:?}", wrapped.labels);
    };
    assert!(lines.iter().all(|l| l.len() > 1), "{lines:?}");
    let svg = draw_svg(&two, &dir, "wrapped.svg");
    assert_texts_apart(&svg, "2 variants");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_its_location() {
    let good = || figure(3, 2, 4);
    type Spoil = fn(&mut RepetitionsFigure);
    let cases: [(&str, Spoil); 8] = [
        (
            "nothing to report: repetitions figure \"demo: per-run values\" has no variants",
            |f| f.variants.clear(),
        ),
        (
            "nothing to report: repetitions figure \"demo: per-run values\" has no panels",
            |f| f.panels.clear(),
        ),
        ("variants[1]: empty name", |f| f.variants[1].clear()),
        ("variants[2]: variant name \"fifo\" appears twice", |f| {
            f.variants[2] = "fifo".into()
        }),
        (
            "panels[1] (\"Jain's index of airtime\"), values: 2 lists for 3 variants",
            |f| {
                f.panels[1].values.pop();
            },
        ),
        (
            "panels[0] (\"total goodput, Mbit/s\"), lost: 1 counts for 3 variants",
            |f| f.panels[0].lost = vec![1],
        ),
        (
            "panels[0] (\"total goodput, Mbit/s\"), variant \"fq_codel\", values[2]: \
             NaN is not a finite value",
            |f| f.panels[0].values[1][2] = f64::NAN,
        ),
        (
            "panels[1] (\"Jain's index of airtime\"), variant \"fq_mac\", values[0]: \
             -inf is not a finite value",
            |f| f.panels[1].values[2][0] = f64::NEG_INFINITY,
        ),
    ];
    good().validate().unwrap();
    for (message, spoil) in cases {
        let mut figure = good();
        spoil(&mut figure);
        let err = draw_repetitions(&figure, Path::new("never-written.png")).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
    assert!(!Path::new("never-written.png").exists());
    let err = draw_repetitions(&good(), Path::new("repetitions.pdf")).unwrap_err();
    assert!(matches!(err, ReportError::UnsupportedExtension { .. }));
}

/// Missing data are said where they are missing; lost runs are counted under their box.
#[test]
fn missing_and_lost_values_are_noted() {
    let dir = out_dir("missing");
    let mut f = figure(3, 3, 5);
    f.panels[1].values[2].clear();
    for values in &mut f.panels[2].values {
        values.clear();
    }
    f.panels[0].lost = vec![0, 2, 0];
    f.panels[0].values[1].truncate(3);
    let svg = draw_svg(&f, &dir, "missing.svg");
    assert_texts_apart(&svg, "missing");
    let texts = svg_texts(&svg);
    let count = |s: &str| texts.iter().filter(|t| t.text == s).count();
    // One in panel 1's third slot, one across panel 2.
    assert_eq!(count("no data"), 2);
    assert_eq!(count("2 lost"), 1);
    assert!(texts.iter().any(|t| t.text == format!("{KEY}{LOST_KEY}")));
    assert_eq!(svg.matches("<circle").count(), 5 + 3 + 5 + 5 + 5);
    draw_repetitions(&f, &dir.join("missing.png")).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

/// The median line of a box sits on its value's tick, the box left of its name.
#[test]
fn a_box_lands_on_its_ticks() {
    let dir = out_dir("ticks");
    let mut f = figure(2, 1, 3);
    f.panels[0].values = vec![vec![10.0, 20.0, 30.0], vec![40.0, 50.0, 60.0]];
    let svg = draw_svg(&f, &dir, "ticks.svg");
    let texts = svg_texts(&svg);
    let tick = |v: &str| {
        let t = texts.iter().find(|t| t.text == v);
        t.unwrap_or_else(|| panic!("no tick {v}: {texts:?}")).at.1
    };
    // Medians: black lines 3 px wide, one per box.
    let medians: Vec<(f64, f64, f64)> = svg
        .split("<polyline")
        .skip(1)
        .filter(|p| attr(p, "stroke") == Some("#000000") && attr(p, "stroke-width") == Some("3"))
        .map(|p| {
            let points: Vec<(f64, f64)> = attr(p, "points")
                .unwrap()
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (points[1].0, points[0].1, points[1].1)
        })
        .collect();
    assert_eq!(medians.len(), 2, "{medians:?}");
    // The box ends just left of its slot's centre, where its name is; its dots are right.
    for ((right, y, y_end), (value, name)) in medians
        .into_iter()
        .zip([("20", "fifo"), ("50", "fq_codel")])
    {
        assert_eq!(y, y_end);
        assert!(
            (y - tick(value)).abs() <= 1.0,
            "median at {y}, tick {value}"
        );
        let label = texts.iter().find(|t| t.text == name).unwrap();
        let gap = label.at.0 - right;
        assert!(
            (0.0..=4.0).contains(&gap),
            "{name}'s box ends at {right}, label {:?}",
            label.at
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn y_axis_starts_at_zero_unless_a_value_is_negative() {
    let y = y_axis(&[vec![2.0, 50.0], vec![]]);
    assert_eq!(y.start, 0.0);
    assert!((y.end - 53.0).abs() < 1e-9, "{y:?}");
    let y = y_axis(&[vec![-4.0], vec![6.0]]);
    assert!(
        (y.start + 4.6).abs() < 1e-9 && (y.end - 6.6).abs() < 1e-9,
        "{y:?}"
    );
    assert_eq!(y_axis(&[vec![-4.0]]).end, 0.0);
    assert_eq!(y_axis(&[vec![], vec![]]), 0.0..1.0);
    assert_eq!(y_axis(&[vec![0.0]]), 0.0..1.0);
}

#[test]
fn box_and_dots_share_the_slot_without_touching() {
    for slot in [20, 56, 147, 400] {
        let p = Place::in_slot(1000, slot);
        let box_right = p.box_x as f64 + p.box_px / 2.0;
        let dots_left = p.dots_x as f64 - p.spread_px / 2.0 - DOT_PX as f64;
        assert!(box_right < dots_left, "{slot}: {p:?}");
        let group = p.dots_x as f64 + p.spread_px / 2.0 - (p.box_x as f64 - p.box_px / 2.0);
        assert!(
            group <= (slot as f64 * GROUP_SHARE).min(GROUP_MAX_PX) + 1.0,
            "{slot}: {p:?}"
        );
    }
}

#[test]
fn jitter_spreads_runs_across_the_box() {
    assert_eq!(jitter(0), 0.0);
    let offsets: Vec<f64> = (0..30).map(jitter).collect();
    assert!(offsets.iter().all(|o| (-0.5..0.5).contains(o)));
    // No two of the first 30 within 1% of the box's width of each other.
    let mut sorted = offsets.clone();
    sorted.sort_by(f64::total_cmp);
    assert!(sorted.windows(2).all(|w| w[1] - w[0] > 0.01), "{sorted:?}");
    // Both halves of the box are used, even with 3 runs.
    assert!(offsets[1] < 0.0 && offsets[2] > 0.0);
}

#[test]
fn the_panel_frame_is_what_the_layout_leaves_around_the_plot() {
    use plotters::prelude::{IntoDrawingArea, SVGBackend};
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (437, 300)).into_drawing_area();
    assert_eq!(plotting_width(&area) + PANEL_FRAME_PX, 437);
}

#[test]
fn same_input_same_bytes() {
    let dir = out_dir("determinism");
    let figure = figure(5, 3, 30);
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    draw_repetitions(&figure, &a).unwrap();
    draw_repetitions(&figure, &b).unwrap();
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}
