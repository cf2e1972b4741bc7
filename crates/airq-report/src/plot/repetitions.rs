//! Repetitions: what every run of a `compare --seeds N` gave, per variant (AP design) and
//! metric — the form of flent's `box_combine` plots, which draw one box per series over
//! the per-run values of several test runs. Panels side by side, one per metric; in each
//! a box and whiskers per variant over its seeds: the box from the first to the third
//! quartile with a line at the median, whiskers to the minimum and the maximum (the
//! summary of `stations.rs`, quartiles as R's and NumPy's default), a hollow diamond at
//! the mean, and every run's value as a dot in a column beside the box (as a "raincloud"
//! plot puts them), where neither hides the other. The dots are spread across their
//! column by a fixed rule (the golden-ratio sequence over the seed index), so a figure is
//! the same every time and runs of equal value stay apart; with few seeds they are the
//! data, with many the box summarises them.
//!
//! The y axis of each panel starts at 0 unless a value is negative. A variant without
//! the metric says "no data" in its slot, a panel without any value in its middle; seeds
//! whose value was lost (a percentile among lost pings) are counted under the box. The
//! variant names go under their boxes in one row, wrapped at their seams or turned (see
//! `repetitions/labels.rs`); the canvas widens with the variants and deepens for turned
//! names, so up to eight variants in three panels keep boxes ~50 px apart.

mod labels;

use std::ops::Range;
use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{Circle, DrawingArea, DrawingBackend, PathElement, Polygon};
use plotters::prelude::{Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontTransform, RGBColor, BLACK, WHITE};

use self::labels::{VariantLabels, ROW_PX};
use super::axis::CategoryAxis;
use super::layout::{chart_with_x_area, draw_mesh, draw_note, fit_text, heading, Axes};
use super::layout::{plotting_width, X_LABEL_AREA_PX};
use super::stations::FiveNumbers;
use crate::canvas::{self, DrawFailure, Figure, Format};
use crate::error::ReportError;
use crate::{font, theme};

/// Per-run values of a few metrics, one panel per metric, one box per variant.
#[derive(Clone, Debug, PartialEq)]
pub struct RepetitionsFigure {
    /// The figure title, e.g. "ending-the-anomaly: 10 seeds per AP design".
    pub title: String,
    /// Drawn under the title: what produced the data, e.g. "seeds 1-10, 30 s each;
    /// --set duration=30". Long captions wrap; a line explaining the marks follows it.
    pub caption: String,
    /// The variants (AP designs), left to right in every panel: not empty, unique; a
    /// known design name ("fq_mac") keeps its colour from the comparison figures.
    pub variants: Vec<String>,
    /// The metrics, left to right.
    pub panels: Vec<RepetitionsPanel>,
}

/// One metric's per-run values.
#[derive(Clone, Debug, PartialEq)]
pub struct RepetitionsPanel {
    /// The y axis title: the metric and its unit, e.g. "total goodput, Mbit/s".
    pub y_label: String,
    /// Per variant (as [`RepetitionsFigure::variants`]), the value of each seed's run, in
    /// seed order; empty for a variant that lacks the metric. Finite.
    pub values: Vec<Vec<f64>>,
    /// Per variant, how many seeds' values were lost (e.g. a ping percentile when every
    /// ping was lost), shown under its box; empty when none were.
    pub lost: Vec<usize>,
}

impl RepetitionsFigure {
    /// Checks the figure can be drawn: at least one variant, each with a unique non-empty
    /// name; at least one panel; in each, one list of values per variant (and one lost
    /// count per variant, or none); every value finite.
    pub fn validate(&self) -> Result<(), ReportError> {
        if self.variants.is_empty() {
            return Err(ReportError::empty(format!(
                "repetitions figure \"{}\" has no variants",
                self.title
            )));
        }
        if self.panels.is_empty() {
            return Err(ReportError::empty(format!(
                "repetitions figure \"{}\" has no panels",
                self.title
            )));
        }
        for (i, name) in self.variants.iter().enumerate() {
            if name.is_empty() {
                return Err(ReportError::invalid(format!("variants[{i}]"), "empty name"));
            }
            if self.variants[..i].contains(name) {
                return Err(ReportError::invalid(
                    format!("variants[{i}]"),
                    format!("variant name \"{name}\" appears twice"),
                ));
            }
        }
        let n = self.variants.len();
        for (p, panel) in self.panels.iter().enumerate() {
            let at = |field: &str| format!("panels[{p}] (\"{}\"), {field}", panel.y_label);
            if panel.values.len() != n {
                return Err(ReportError::invalid(
                    at("values"),
                    format!("{} lists for {n} variants", panel.values.len()),
                ));
            }
            if !panel.lost.is_empty() && panel.lost.len() != n {
                return Err(ReportError::invalid(
                    at("lost"),
                    format!("{} counts for {n} variants", panel.lost.len()),
                ));
            }
            for (name, values) in self.variants.iter().zip(&panel.values) {
                if let Some(j) = values.iter().position(|v| !v.is_finite()) {
                    return Err(ReportError::invalid(
                        at(&format!("variant \"{name}\", values[{j}]")),
                        format!("{} is not a finite value", values[j]),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Draws `figure` into `path`: `.png` or `.svg`, by the extension.
///
/// Errors: an unsupported extension, invalid input (see [`RepetitionsFigure::validate`]),
/// or a failed write.
pub fn draw_repetitions(figure: &RepetitionsFigure, path: &Path) -> Result<(), ReportError> {
    Format::of(path)?;
    figure.validate()?;
    canvas::render(&Repetitions::new(figure)?, path)
}

/// What the marks mean, a line under the caption.
const KEY: &str = "Box: first to third quartile, line: median, ◇: mean, \
                   whiskers: minimum to maximum, dots beside it: one run each";
/// Added to the key when some values were lost.
const LOST_KEY: &str = "; \"n lost\": runs without a value";
/// Narrowest slot a variant gets before the canvas stops widening, pixels.
const MIN_SLOT_PX: u32 = 56;
/// Widest the canvas grows for many variants, pixels.
const MAX_WIDTH_PX: u32 = 3600;
/// A panel's width beside its plotting area: the y tick labels and title and the margins
/// of `layout::chart_in` (checked by a test against `layout::plotting_width`).
const PANEL_FRAME_PX: u32 = 106;
/// Share of its slot a variant's box and dots fill together, and their widest, pixels.
const GROUP_SHARE: f64 = 0.8;
const GROUP_MAX_PX: f64 = 100.0;
/// Space between a box and its dots, pixels.
const BOX_GAP_PX: f64 = 4.0;
/// Radius of a run's dot, and most half the height of the mean's diamond, pixels.
const DOT_PX: i32 = 3;
const MEAN_PX: i32 = 7;
/// Size of the notes under a box ("2 lost") and in an empty slot ("no data").
const NOTE_PX: f64 = 14.0;
/// Space between the axis and the first row under it, pixels.
const UNDER_AXIS_PX: u32 = 8;
/// Space under the last row, pixels.
const BOTTOM_PX: u32 = 10;

/// The offset of run `seed_index`'s dot from the middle of its column, in column widths
/// from −0.5 to 0.5: the golden-ratio sequence, which spreads any number of dots about evenly and
/// puts the first in the middle.
fn jitter(seed_index: usize) -> f64 {
    const GOLDEN_FRACTION: f64 = 0.618_033_988_749_895;
    (0.5 + seed_index as f64 * GOLDEN_FRACTION).fract() - 0.5
}

/// A validated repetitions figure with its colours and label layout, ready to draw.
struct Repetitions<'f> {
    figure: &'f RepetitionsFigure,
    colours: Vec<RGBColor>,
    labels: VariantLabels,
    /// A row for "n lost" notes under the axis.
    lost_row: bool,
    width: u32,
}

impl<'f> Repetitions<'f> {
    fn new(figure: &'f RepetitionsFigure) -> Result<Self, ReportError> {
        font::ensure_registered()?;
        let (panels, variants) = (figure.panels.len() as u32, figure.variants.len() as u32);
        let width = (panels * (PANEL_FRAME_PX + variants * MIN_SLOT_PX))
            .clamp(theme::FIGURE_SIZE.0, MAX_WIDTH_PX);
        let slot = (width / panels).saturating_sub(PANEL_FRAME_PX) / variants;
        let names: Vec<&str> = figure.variants.iter().map(String::as_str).collect();
        Ok(Repetitions {
            figure,
            colours: theme::line_colours(&names),
            labels: VariantLabels::fit(&figure.variants, slot),
            lost_row: figure.panels.iter().flat_map(|p| &p.lost).any(|&l| l > 0),
            width,
        })
    }

    /// Pixels under a plotting area: the "n lost" row, the names.
    fn x_area_px(&self) -> u32 {
        let lost = if self.lost_row { ROW_PX } else { 0 };
        UNDER_AXIS_PX + lost + self.labels.height_px() + BOTTOM_PX
    }

    fn caption(&self) -> String {
        let key = if self.lost_row {
            format!("{KEY}{LOST_KEY}")
        } else {
            KEY.to_string()
        };
        if self.figure.caption.is_empty() {
            key
        } else {
            format!("{}\n{key}", self.figure.caption)
        }
    }

    /// Draws one metric's panel in `plot`.
    fn draw_panel<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        panel: &RepetitionsPanel,
    ) -> Result<(), DrawFailure> {
        let n = self.figure.variants.len();
        let y_range = y_axis(&panel.values);
        let y: RangedCoordf64 = y_range.clone().into();
        let x = CategoryAxis::new(vec![String::new(); n]);
        let mut chart = chart_with_x_area(plot, "", x, y, self.x_area_px())?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "",
                y_desc: &panel.y_label,
                x_labels: n,
                y_labels: 10,
                x_categorical: true,
                light_lines: (1, 1),
            },
        )?;
        let area = chart.plotting_area();
        let (x0, y0) = area.get_base_pixel();
        let pixel = |x: f64, y: f64| {
            let (px, py) = area.map_coordinate(&(x, y));
            (px - x0, py - y0)
        };
        let canvas = area.strip_coord_spec();
        let (width, height) = canvas.dim_in_pixel();
        let slot_px = width / n as u32;
        if y_range.start < 0.0 {
            let (_, zero) = pixel(0.0, 0.0);
            let style = theme::TOTAL_COLOUR.stroke_width(1);
            canvas.draw(&PathElement::new(
                vec![(0, zero), (width as i32, zero)],
                style,
            ))?;
        }
        if panel.values.iter().all(Vec::is_empty) {
            draw_note(&chart, "no data")?;
        }
        let note = theme::text(NOTE_PX).color(&theme::CAPTION_COLOUR);
        for (i, (values, &colour)) in panel.values.iter().zip(&self.colours).enumerate() {
            let (cx, _) = pixel(i as f64, 0.0);
            match FiveNumbers::of(values.iter().copied()) {
                Some(summary) => {
                    let mean = values.iter().sum::<f64>() / values.len() as f64;
                    let place = Place::in_slot(cx, slot_px);
                    let at = |y: f64| pixel(i as f64, y).1;
                    place.draw(&canvas, &summary, mean, values, colour, at)?;
                }
                None if panel.values.iter().any(|v| !v.is_empty()) => {
                    let text = fit_text(&canvas, "no data", &note, slot_px)?;
                    let style = note.pos(Pos::new(HPos::Center, VPos::Bottom));
                    canvas.draw(&Text::new(text, (cx, height as i32 - 6), style))?;
                }
                None => {}
            }
        }
        // Under the axis, in the panel's pixels: the lost counts, then the names.
        let (px0, py0) = plot.get_base_pixel();
        let (_, axis_y) = area.map_coordinate(&(0.0, y_range.start));
        let mut row_y = axis_y - py0 + UNDER_AXIS_PX as i32;
        let centre = |i: usize| area.map_coordinate(&(i as f64, y_range.start)).0 - px0;
        if self.lost_row {
            let style = note.pos(Pos::new(HPos::Center, VPos::Top));
            for (i, &lost) in panel.lost.iter().enumerate() {
                if lost > 0 {
                    let text = fit_text(plot, &format!("{lost} lost"), &style, slot_px)?;
                    plot.draw(&Text::new(text, (centre(i), row_y), style.clone()))?;
                }
            }
            row_y += ROW_PX as i32;
        }
        self.draw_names(plot, centre, row_y)
    }

    /// Draws the variant names in `plot` from row `top` down, each centred on the column
    /// `centre` gives for its index.
    fn draw_names<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        centre: impl Fn(usize) -> i32,
        top: i32,
    ) -> Result<(), DrawFailure> {
        let tick = theme::text(theme::TICK_PX);
        let row = ROW_PX as i32;
        match &self.labels {
            VariantLabels::Rows(lines) => {
                let style = tick.pos(Pos::new(HPos::Center, VPos::Top));
                for (i, lines) in lines.iter().enumerate() {
                    for (k, line) in lines.iter().enumerate() {
                        let at = (centre(i), top + k as i32 * row);
                        plot.draw(&Text::new(line.clone(), at, style.clone()))?;
                    }
                }
            }
            VariantLabels::Staggered(names) => {
                let style = tick.pos(Pos::new(HPos::Center, VPos::Top));
                for (i, name) in names.iter().enumerate() {
                    let at = (centre(i), top + (i % 2) as i32 * row);
                    plot.draw(&Text::new(name.clone(), at, style.clone()))?;
                }
            }
            VariantLabels::Turned(names) => {
                // Turned a quarter anticlockwise, the text ends at its anchor and reads
                // upwards towards its box.
                let style = tick
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Right, VPos::Center));
                for (i, name) in names.iter().enumerate() {
                    plot.draw(&Text::new(name.clone(), (centre(i), top), style.clone()))?;
                }
            }
        }
        Ok(())
    }
}

/// Where a variant's marks go across its slot, in pixel columns: the box left of the
/// slot's centre, the column of its runs' dots right of it, so that neither hides the
/// other (a run at the minimum would vanish into the whisker's cap, thirty runs over a
/// box would hide it).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    box_x: i32,
    box_px: f64,
    dots_x: i32,
    /// Width the dots' centres spread over.
    spread_px: f64,
}

impl Place {
    /// The marks of the slot `slot_px` wide centred on column `cx`: each in one half of
    /// the slot's middle [`GROUP_SHARE`].
    fn in_slot(cx: i32, slot_px: u32) -> Place {
        let half = (slot_px as f64 * GROUP_SHARE).min(GROUP_MAX_PX) / 2.0;
        let quarter = (half / 2.0).round() as i32;
        Place {
            box_x: cx - quarter,
            box_px: (half - BOX_GAP_PX).max(2.0),
            dots_x: cx + quarter,
            spread_px: (half - BOX_GAP_PX - 2.0 * DOT_PX as f64).max(0.0),
        }
    }

    /// Draws the box and whiskers of `f`, the median and `mean` over it, and a dot per
    /// value in `colour` on `canvas`; `at` maps a value to a pixel row.
    fn draw<DB: DrawingBackend>(
        &self,
        canvas: &DrawingArea<DB, Shift>,
        f: &FiveNumbers,
        mean: f64,
        values: &[f64],
        colour: RGBColor,
        at: impl Fn(f64) -> i32,
    ) -> Result<(), DrawFailure> {
        for (j, &v) in values.iter().enumerate() {
            let x = self.dots_x + (jitter(j) * self.spread_px).round() as i32;
            canvas.draw(&Circle::new((x, at(v)), DOT_PX, colour.mix(0.7).filled()))?;
        }
        draw_box(canvas, self.box_x, self.box_px, f, mean, colour, at)
    }
}

/// Draws a box and whiskers centred on pixel column `cx` of `canvas`, `box_px` wide, with
/// its median and `mean`; `at` maps a value to a pixel row.
fn draw_box<DB: DrawingBackend>(
    canvas: &DrawingArea<DB, Shift>,
    cx: i32,
    box_px: f64,
    f: &FiveNumbers,
    mean: f64,
    colour: RGBColor,
    at: impl Fn(f64) -> i32,
) -> Result<(), DrawFailure> {
    let half = (box_px / 2.0).round() as i32;
    let cap = (box_px / 4.0).round() as i32;
    let (q1, q3) = (at(f.q1), at(f.q3));
    canvas.draw(&Rectangle::new(
        [(cx - half, q3), (cx + half, q1)],
        colour.mix(0.18).filled(),
    ))?;
    let line = colour.stroke_width(2);
    let (low, high) = (at(f.min), at(f.max));
    for points in [
        vec![(cx, q1), (cx, low)],
        vec![(cx, q3), (cx, high)],
        vec![(cx - cap, low), (cx + cap, low)],
        vec![(cx - cap, high), (cx + cap, high)],
    ] {
        canvas.draw(&PathElement::new(points, line))?;
    }
    canvas.draw(&Rectangle::new([(cx - half, q3), (cx + half, q1)], line))?;
    // The median and the mean in black on white, so that they show on a variant drawn
    // in black or dark grey as well.
    let median = vec![(cx - half, at(f.median)), (cx + half, at(f.median))];
    canvas.draw(&PathElement::new(median.clone(), WHITE.stroke_width(5)))?;
    canvas.draw(&PathElement::new(median, BLACK.stroke_width(3)))?;
    // As wide as the box at most, less a little so the median shows either side.
    let r = (half - 3).clamp(4, MEAN_PX);
    let diamond = |r: i32| {
        let y = at(mean);
        vec![(cx, y - r), (cx + r, y), (cx, y + r), (cx - r, y)]
    };
    canvas.draw(&Polygon::new(diamond(r + 1), WHITE.filled()))?;
    canvas.draw(&Polygon::new(diamond(r), BLACK.filled()))?;
    canvas.draw(&Polygon::new(diamond(r - 3), WHITE.filled()))?;
    Ok(())
}

/// The y axis of a panel: from 0, or from below the lowest value when one is negative;
/// up to the highest value (0 when every value is ≤ 0), with a margin of 6% of the span
/// on a side that is not 0; 0..1 without values or when all are 0.
fn y_axis(values: &[Vec<f64>]) -> Range<f64> {
    let all = || values.iter().flatten().copied();
    let low = all().fold(0.0, f64::min);
    let high = all().fold(0.0, f64::max);
    if high <= low {
        return 0.0..1.0;
    }
    let pad = (high - low) * 0.06;
    let low = if low < 0.0 { low - pad } else { low };
    let high = if high > 0.0 { high + pad } else { high };
    low..high
}

impl Figure for Repetitions<'_> {
    fn size(&self) -> (u32, u32) {
        let deeper = self.x_area_px().saturating_sub(X_LABEL_AREA_PX);
        (self.width, theme::FIGURE_SIZE.1 + deeper)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let body = heading(root, &self.figure.title, &self.caption())?;
        let cells = body.split_evenly((1, self.figure.panels.len()));
        debug_assert!(cells
            .iter()
            .all(|c| plotting_width(c) + PANEL_FRAME_PX == c.dim_in_pixel().0));
        for (cell, panel) in cells.iter().zip(&self.figure.panels) {
            self.draw_panel(cell, panel)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
