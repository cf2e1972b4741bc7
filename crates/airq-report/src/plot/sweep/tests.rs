//! Sweep figure tests: every axis kind draws PNG and SVG with 1 to 8 lines over 2 to 12
//! values, a point lands on its ticks, bad input is refused with its location, the y axis
//! and the whiskers follow the rules in the module doc.

use std::path::PathBuf;

use super::*;

/// `lines` lines over `xs`, named after AP designs and then "variant N", on `axis`
/// (x = the index for categories).
fn sweep(lines: usize, xs: &[f64], axis: SweepAxis) -> SweepFigure {
    let names = ["fifo", "fq_codel", "fq_mac", "airtime", "airtime_aql"];
    let categorical = matches!(axis, SweepAxis::Categories(_));
    SweepFigure {
        title: "demo: total goodput vs ap.fq_mac.target_ms".into(),
        caption: "5 seeds (1-5), 30 s each, mean ± 95% CI".into(),
        x_label: "ap.fq_mac.target_ms".into(),
        y_label: "total goodput, Mbit/s".into(),
        x: axis,
        lines: (0..lines)
            .map(|v| SweepLine {
                name: names
                    .get(v)
                    .map_or_else(|| format!("variant {v}"), |n| n.to_string()),
                points: xs
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| SweepPoint {
                        x: if categorical { i as f64 } else { x },
                        mean: 10.0 + 3.0 * v as f64 + x.sqrt(),
                        ci95: (i % 3 != 2).then_some(1.0 + 0.5 * i as f64),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn out_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("airq-sweep-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An SVG `<text>` element: its x and y attributes, anchor and text.
#[derive(Debug)]
struct SvgText {
    x: i32,
    y: i32,
    anchor: String,
    text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(tag[start..start + len].to_string())
}

fn svg_texts(svg: &str) -> Vec<SvgText> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let tag = &t[..t.find('>')?];
            let body = &t[tag.len() + 1..];
            Some(SvgText {
                x: attr(tag, "x")?.parse().ok()?,
                y: attr(tag, "y")?.parse().ok()?,
                anchor: attr(tag, "text-anchor").unwrap_or_default(),
                text: body[..body.find("</text>")?].trim().to_string(),
            })
        })
        .collect()
}

/// Centres of the SVG's circles of colour `fill`.
fn svg_circles(svg: &str, fill: &str) -> Vec<(i32, i32)> {
    svg.split("<circle")
        .skip(1)
        .filter(|c| attr(c, "fill").as_deref() == Some(fill))
        .filter_map(|c| Some((attr(c, "cx")?.parse().ok()?, attr(c, "cy")?.parse().ok()?)))
        .collect()
}

fn draw_svg(figure: &SweepFigure, dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    draw_sweep(figure, &path).unwrap();
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn every_axis_draws_png_and_svg_with_one_to_eight_lines() {
    let dir = out_dir("all");
    let grids: [Vec<f64>; 3] = [
        vec![5.0, 20.0],
        vec![1.0, 2.0, 5.0, 10.0, 20.0],
        (1..=12).map(|i| i as f64 * 5.0).collect(),
    ];
    for lines in [1, 3, 8] {
        for xs in &grids {
            let names = xs.iter().map(|x| format!("{x} ms")).collect();
            let axes = [
                SweepAxis::Numeric { log: false },
                SweepAxis::Numeric { log: true },
                SweepAxis::Categories(names),
            ];
            for axis in axes {
                let what = format!("{lines} lines, {} x, {axis:?}", xs.len());
                let figure = sweep(lines, xs, axis);
                let png = dir.join("s.png");
                draw_sweep(&figure, &png).unwrap_or_else(|e| panic!("{what}: {e}"));
                let bytes = std::fs::read(&png).unwrap();
                assert!(
                    bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
                    "{what}"
                );
                let texts = svg_texts(&draw_svg(&figure, &dir, "s.svg"));
                let has = |s: &str| texts.iter().any(|t| t.text == s);
                for label in [&figure.title, &figure.caption, &figure.x_label] {
                    assert!(has(label), "{what}: no \"{label}\"");
                }
                for line in &figure.lines {
                    assert!(has(&line.name), "{what}: no legend entry {}", line.name);
                }
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A point sits exactly where the tick labels of its x and its mean sit.
#[test]
fn a_point_lands_on_its_ticks() {
    let dir = out_dir("ticks");
    let mut figure = sweep(1, &[10.0, 40.0], SweepAxis::Numeric { log: false });
    figure.lines[0].points[0].mean = 100.0;
    figure.lines[0].points[1].mean = 300.0;
    let svg = draw_svg(&figure, &dir, "ticks.svg");
    let texts = svg_texts(&svg);
    let tick = |text: &str, anchor: &str| {
        let t = texts.iter().find(|t| t.text == text && t.anchor == anchor);
        t.unwrap_or_else(|| panic!("no tick \"{text}\" anchored {anchor}: {texts:?}"))
    };
    // fifo's colour, #555555; the white halo is a larger circle under it.
    let points = svg_circles(&svg, "#555555");
    assert_eq!(
        points.len(),
        1 + 2,
        "a legend sample and two points: {points:?}"
    );
    for (point, x, mean) in [(points[0], "10", "100"), (points[1], "40", "300")] {
        assert!(
            (point.0 - tick(x, "middle").x).abs() <= 1,
            "{point:?} not at x {x}"
        );
        assert!(
            (point.1 - tick(mean, "end").y).abs() <= 1,
            "{point:?} not at y {mean}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_its_location() {
    let good = || sweep(2, &[1.0, 2.0, 5.0], SweepAxis::Numeric { log: true });
    type Spoil = fn(&mut SweepFigure);
    let cases: [(&str, Spoil); 10] = [
        (
            "nothing to report: sweep figure \"demo: total goodput vs ap.fq_mac.target_ms\" \
             has no lines",
            |f| f.lines.clear(),
        ),
        ("nothing to report: line \"fq_codel\" has no points", |f| {
            f.lines[1].points.clear()
        }),
        (
            "line \"fifo\", points[1], mean: NaN is not a finite value",
            |f| f.lines[0].points[1].mean = f64::NAN,
        ),
        (
            "line \"fq_codel\", points[2], x: inf is not a finite value",
            |f| f.lines[1].points[2].x = f64::INFINITY,
        ),
        (
            "line \"fifo\", points[0], ci95: -1 is not a finite half-width >= 0",
            |f| f.lines[0].points[0].ci95 = Some(-1.0),
        ),
        (
            "line \"fifo\", points[0], x: 0 is not > 0, as a log axis needs",
            |f| f.lines[0].points[0].x = 0.0,
        ),
        (
            "line \"fifo\", points[2], x: x = 1 appears twice in the line",
            |f| f.lines[0].points[2].x = 1.0,
        ),
        ("lines[1]: line name \"fifo\" appears twice", |f| {
            f.lines[1].name = "fifo".into()
        }),
        (
            "line \"fifo\", points[0], x: 3 is not a category index (0..=2)",
            |f| {
                f.x = SweepAxis::Categories(vec!["a".into(), "b".into(), "c".into()]);
                f.lines[0].points[0].x = 3.0;
            },
        ),
        (
            "nothing to report: sweep figure \"demo: total goodput vs ap.fq_mac.target_ms\" \
             has a category axis with no categories",
            |f| f.x = SweepAxis::Categories(Vec::new()),
        ),
    ];
    good().validate().unwrap();
    for (message, spoil) in cases {
        let mut figure = good();
        spoil(&mut figure);
        let err = draw_sweep(&figure, Path::new("never-written.png")).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
    assert!(!Path::new("never-written.png").exists());
    let err = draw_sweep(&good(), Path::new("sweep.pdf")).unwrap_err();
    assert!(matches!(err, ReportError::UnsupportedExtension { .. }));
}

fn point(x: f64, mean: f64, ci95: Option<f64>) -> SweepPoint {
    SweepPoint { x, mean, ci95 }
}

fn line(points: Vec<SweepPoint>) -> Vec<SweepLine> {
    vec![SweepLine {
        name: "fq_mac".into(),
        points,
    }]
}

#[test]
fn y_axis_starts_at_zero_unless_a_mean_is_negative() {
    // A whisker below 0 does not pull the axis down; the top holds the highest whisker.
    let y = y_axis(&line(vec![
        point(1.0, 2.0, Some(5.0)),
        point(2.0, 50.0, Some(10.0)),
    ]));
    assert_eq!(y.start, 0.0);
    assert!((y.end - 60.0 * 1.06).abs() < 1e-9, "{y:?}");
    // A negative mean: the axis holds every whisker, with a margin below.
    let y = y_axis(&line(vec![
        point(1.0, -4.0, Some(1.0)),
        point(2.0, 5.0, None),
    ]));
    assert!((y.start - (-5.0 - 0.6)).abs() < 1e-9, "{y:?}");
    assert!((y.end - 5.6).abs() < 1e-9, "{y:?}");
    // All means negative: the top is 0; all zero: 0..1.
    let y = y_axis(&line(vec![point(1.0, -4.0, Some(5.0))]));
    assert_eq!(y.end, 0.0);
    assert_eq!(y_axis(&line(vec![point(1.0, 0.0, None)])), 0.0..1.0);
}

#[test]
fn whiskers_are_clipped_at_the_axis_without_a_cap() {
    let y = 0.0..10.0;
    let w = whisker(&point(1.0, 2.0, Some(3.0)), &y).unwrap();
    assert_eq!(
        (w.low, w.high, w.low_capped, w.high_capped),
        (0.0, 5.0, false, true)
    );
    let w = whisker(&point(1.0, 8.0, Some(1.0)), &y).unwrap();
    assert_eq!(
        (w.low, w.high, w.low_capped, w.high_capped),
        (7.0, 9.0, true, true)
    );
    assert_eq!(whisker(&point(1.0, 8.0, None), &y), None);
    assert_eq!(whisker(&point(1.0, 8.0, Some(0.0)), &y), None);
}

#[test]
fn long_names_are_cut_and_long_captions_wrap() {
    let dir = out_dir("long");
    let mut figure = sweep(3, &[1.0, 2.0], SweepAxis::Numeric { log: false });
    figure.lines[2].name = "fq_mac with a very long description of its settings, \
                            quantum 1514, target 5 ms, interval 100 ms"
        .into();
    figure.caption = ["--set ap.fq_mac.quantum=1514"; 8].join(" ");
    figure.lines[0].points[0].mean = -3.0;
    let texts = svg_texts(&draw_svg(&figure, &dir, "long.svg"));
    let cut = texts.iter().find(|t| t.text.starts_with("fq_mac with"));
    assert!(cut.unwrap().text.ends_with('…'), "{texts:?}");
    let caption_lines = texts
        .iter()
        .filter(|t| t.text.contains("ap.fq_mac.quantum=1514"))
        .count();
    assert_eq!(caption_lines, 2, "{texts:?}");
    draw_sweep(&figure, &dir.join("long.png")).unwrap();
    if let Some(keep) = std::env::var_os("AIRQ_SWEEP_KEEP") {
        std::fs::copy(dir.join("long.png"), keep).unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn same_input_same_bytes() {
    let dir = out_dir("determinism");
    let figure = sweep(4, &[1.0, 2.0, 5.0], SweepAxis::Numeric { log: true });
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    draw_sweep(&figure, &a).unwrap();
    draw_sweep(&figure, &b).unwrap();
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}
