//! A parameter sweep: one metric against a swept parameter, one line per variant, each
//! point the mean over seeds with its 95% confidence interval drawn as an error bar — the
//! way papers show a sweep (e.g. the CoDel target sweeps of "Ending the Anomaly", USENIX
//! ATC 2017). The x axis is numeric (linear or log, as the caller says) or a list of named
//! categories.
//!
//! The y axis starts at 0 unless a mean is negative; a confidence interval reaching past
//! the axis does not stretch it but is clipped there, its cap left off so the reader sees
//! it goes on. Where several lines share an x value their points are spread a few pixels
//! apart ("dodged", as ggplot2's `position_dodge`) so that overlapping intervals stay
//! apart; on a numeric axis the spread is at most 4 px a line, well under a tick interval.
//! Each line has its own colour (an AP design keeps its colour from the other figures)
//! and marker shape, so ten lines stay distinguishable.

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, PathElement, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::axis::{CategoryAxis, LogAxis};
use super::layout::{chart_with_x_area, draw_mesh, fit_text, heading, labels_across};
use super::layout::{plotting_width, Axes, LEGEND_STRIP_PX, X_LABEL_AREA_PX};
use super::legend::{draw_legend, fit_label, legend_width, Entry, Marker};
use super::marker::{draw_point, PointShape};
use crate::canvas::{self, DrawFailure, Figure, Format};
use crate::error::ReportError;
use crate::theme;

/// A metric against a swept parameter, one line per variant.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFigure {
    /// The figure title, e.g. "ending-the-anomaly: total goodput vs ap.fq_mac.target_ms".
    pub title: String,
    /// Drawn under the title: what produced the data, e.g. "5 seeds (1-5), 30 s each,
    /// mean ± 95% CI; --set duration=30". Long captions wrap; empty draws nothing.
    pub caption: String,
    /// The x axis title: the parameter, e.g. "ap.fq_mac.target_ms".
    pub x_label: String,
    /// The y axis title: the metric, e.g. "total goodput, Mbit/s".
    pub y_label: String,
    /// What the x values are.
    pub x: SweepAxis,
    /// One line per variant, in legend order; each has its own colour and marker.
    pub lines: Vec<SweepLine>,
}

/// What the x values of a [`SweepFigure`] are.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepAxis {
    /// x values are numbers, on a linear axis or a base-10 log axis (every x > 0).
    Numeric {
        /// Log scale, for parameters swept by factors (1, 2, 5, 10, 20 ms ...).
        log: bool,
    },
    /// x values are indices 0, 1, ... into these names, shown in this order.
    Categories(Vec<String>),
}

/// One variant's points.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepLine {
    /// The variant's name in the legend (not empty, unique in the figure); an AP design
    /// name ("fq_mac") keeps its colour from the comparison figures.
    pub name: String,
    /// The points, at most one per x value, in any order: the line joins them by x.
    pub points: Vec<SweepPoint>,
}

/// One parameter value's result for one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// The parameter value, or the category index for [`SweepAxis::Categories`].
    pub x: f64,
    /// Mean of the metric over the seeds.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the mean (≥ 0), drawn as whiskers
    /// from `mean - ci95` to `mean + ci95`; `None` (e.g. one seed) draws no whiskers.
    pub ci95: Option<f64>,
}

impl SweepFigure {
    /// Checks the figure can be drawn: at least one line, each with a unique non-empty
    /// name and at least one point; finite x, mean and ci95 (≥ 0); x > 0 on a log axis, an
    /// index into the names on a category axis; no x twice in a line.
    pub fn validate(&self) -> Result<(), ReportError> {
        if self.lines.is_empty() {
            return Err(ReportError::empty(format!(
                "sweep figure \"{}\" has no lines",
                self.title
            )));
        }
        if let SweepAxis::Categories(names) = &self.x {
            if names.is_empty() {
                return Err(ReportError::empty(format!(
                    "sweep figure \"{}\" has a category axis with no categories",
                    self.title
                )));
            }
        }
        for (i, line) in self.lines.iter().enumerate() {
            if line.name.is_empty() {
                return Err(ReportError::invalid(format!("lines[{i}]"), "empty name"));
            }
            if self.lines[..i].iter().any(|l| l.name == line.name) {
                return Err(ReportError::invalid(
                    format!("lines[{i}]"),
                    format!("line name \"{}\" appears twice", line.name),
                ));
            }
            if line.points.is_empty() {
                return Err(ReportError::empty(format!(
                    "line \"{}\" has no points",
                    line.name
                )));
            }
            for (j, p) in line.points.iter().enumerate() {
                let at = |field: &str| format!("line \"{}\", points[{j}], {field}", line.name);
                self.validate_x(p.x, || at("x"))?;
                if !p.mean.is_finite() {
                    return Err(ReportError::invalid(
                        at("mean"),
                        format!("{} is not a finite value", p.mean),
                    ));
                }
                if let Some(ci) = p.ci95 {
                    if !ci.is_finite() || ci < 0.0 {
                        return Err(ReportError::invalid(
                            at("ci95"),
                            format!("{ci} is not a finite half-width >= 0"),
                        ));
                    }
                }
                if line.points[..j].iter().any(|q| q.x == p.x) {
                    return Err(ReportError::invalid(
                        at("x"),
                        format!("x = {} appears twice in the line", p.x),
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_x(&self, x: f64, at: impl Fn() -> String) -> Result<(), ReportError> {
        let problem = match &self.x {
            _ if !x.is_finite() => format!("{x} is not a finite value"),
            SweepAxis::Numeric { log: true } if x <= 0.0 => {
                format!("{x} is not > 0, as a log axis needs")
            }
            SweepAxis::Categories(names)
                if x.fract() != 0.0 || x < 0.0 || x >= names.len() as f64 =>
            {
                format!(
                    "{x} is not a category index (0..={})",
                    names.len().saturating_sub(1)
                )
            }
            _ => return Ok(()),
        };
        Err(ReportError::invalid(at(), problem))
    }
}

/// Draws `figure` into `path`: `.png` or `.svg`, by the extension.
///
/// Errors: an unsupported extension, invalid input (see [`SweepFigure::validate`]), or a
/// failed write.
pub fn draw_sweep(figure: &SweepFigure, path: &Path) -> Result<(), ReportError> {
    Format::of(path)?;
    figure.validate()?;
    canvas::render(&Sweep::new(figure), path)
}

/// Title of the legend.
const LEGEND_TITLE: &str = "Variant";
/// Widest share of the canvas the legend may take for long variant names.
const LEGEND_MAX_SHARE: f64 = 0.35;
/// Half-width of a whisker's cap, pixels.
const CAP_PX: i32 = 5;
/// Most labelled ticks on a numeric x axis: a sweep has few values, and sparse ticks
/// leave its points easy to find.
const MAX_X_TICKS: usize = 12;
/// Least space between two category names in a row, and between rows, pixels.
const CATEGORY_GAP_PX: u32 = 10;
const CATEGORY_ROW_PX: i32 = 20;

/// Category names as drawn under the x axis: in one row if each fits its slot, else in two
/// staggered rows (even indices above), cut short with an ellipsis if even two slots are
/// too narrow.
struct CategoryLabels {
    texts: Vec<String>,
    rows: usize,
}

impl CategoryLabels {
    fn fit<DB: DrawingBackend>(
        plot: &DrawingArea<DB, Shift>,
        names: &[String],
    ) -> Result<Self, DrawFailure> {
        let slot = plotting_width(plot) / names.len().max(1) as u32;
        let style = theme::text(theme::TICK_PX);
        let mut widest = 0;
        for name in names {
            widest = widest.max(plot.estimate_text_size(name, &style)?.0);
        }
        if widest + CATEGORY_GAP_PX <= slot || names.len() == 1 {
            let room = slot.saturating_sub(CATEGORY_GAP_PX).max(widest.min(slot));
            let texts = names.iter().map(|n| fit_text(plot, n, &style, room));
            return Ok(CategoryLabels {
                texts: texts.collect::<Result<_, _>>()?,
                rows: 1,
            });
        }
        let room = (2 * slot).saturating_sub(CATEGORY_GAP_PX);
        let texts = names.iter().map(|n| fit_text(plot, n, &style, room));
        Ok(CategoryLabels {
            texts: texts.collect::<Result<_, _>>()?,
            rows: 2,
        })
    }

    /// Pixels under the plotting area for the names and the axis title.
    fn area_px(&self) -> u32 {
        X_LABEL_AREA_PX + (self.rows as u32 - 1) * CATEGORY_ROW_PX as u32
    }
}

/// A validated sweep figure, ready to draw.
struct Sweep<'f> {
    figure: &'f SweepFigure,
    colours: Vec<RGBColor>,
    /// The y axis.
    y: Range<f64>,
}

impl<'f> Sweep<'f> {
    fn new(figure: &'f SweepFigure) -> Self {
        let names: Vec<&str> = figure.lines.iter().map(|l| l.name.as_str()).collect();
        Sweep {
            figure,
            colours: theme::line_colours(&names),
            y: y_axis(&figure.lines),
        }
    }

    fn points(&self) -> impl Iterator<Item = &SweepPoint> {
        self.figure.lines.iter().flat_map(|l| &l.points)
    }

    /// The x axis of a numeric figure: the x values with 5% of their span on either side
    /// (or ±10% of a single value, ±1 around 0).
    fn linear_x(&self) -> RangedCoordf64 {
        let (low, high) = self.x_extent();
        let pad = if high > low {
            (high - low) * 0.05
        } else if low != 0.0 {
            low.abs() * 0.1
        } else {
            1.0
        };
        (low - pad..high + pad).into()
    }

    fn x_extent(&self) -> (f64, f64) {
        let low = self.points().map(|p| p.x).fold(f64::INFINITY, f64::min);
        let high = self.points().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
        (low, high)
    }

    /// Draws the axes, lines, whiskers and markers in `plot`; `categories` are the names
    /// under a category axis (whose own labels are then blank).
    fn draw_chart<DB, X>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        x: X,
        categories: Option<&CategoryLabels>,
    ) -> Result<(), DrawFailure>
    where
        DB: DrawingBackend,
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let categorical = categories.is_some();
        let log = matches!(self.figure.x, SweepAxis::Numeric { log: true });
        let y: RangedCoordf64 = self.y.clone().into();
        let x_area = categories.map_or(X_LABEL_AREA_PX, CategoryLabels::area_px);
        let mut chart = chart_with_x_area(plot, "", x, y, x_area)?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: &self.figure.x_label,
                y_desc: &self.figure.y_label,
                x_labels: labels_across(plot).min(MAX_X_TICKS),
                y_labels: 10,
                x_categorical: categorical,
                light_lines: (if log { 9 } else { 1 }, 1),
            },
        )?;
        let area = chart.plotting_area();
        let (x0, y0) = area.get_base_pixel();
        let pixel = |x: f64, y: f64| {
            let (px, py) = area.map_coordinate(&(x, y));
            (px - x0, py - y0)
        };
        if let Some(labels) = categories {
            let (px0, py0) = plot.get_base_pixel();
            let style = theme::text(theme::TICK_PX).pos(Pos::new(HPos::Center, VPos::Top));
            for (i, text) in labels.texts.iter().enumerate() {
                let (px, py) = area.map_coordinate(&(i as f64, self.y.start));
                let row = (i % labels.rows) as i32;
                let at = (px - px0, py - py0 + 8 + row * CATEGORY_ROW_PX);
                plot.draw(&Text::new(text.clone(), at, style.clone()))?;
            }
        }
        let canvas = area.strip_coord_spec();
        if self.y.start < 0.0 {
            // Where the axis goes below 0, the zero line is the reference to read against.
            let (width, _) = canvas.dim_in_pixel();
            let (_, zero) = pixel(0.0, 0.0);
            let style = theme::TOTAL_COLOUR.stroke_width(1);
            canvas.draw(&PathElement::new(
                vec![(0, zero), (width as i32, zero)],
                style,
            ))?;
        }
        let step = self.dodge_px(|x| pixel(x, 0.0).0, categorical);
        let lines = self.figure.lines.iter().zip(&self.colours).enumerate();
        let offset = |i: usize| {
            let n = self.figure.lines.len() as f64;
            ((i as f64 - (n - 1.0) / 2.0) * step).round() as i32
        };
        for (i, (line, colour)) in lines.clone() {
            let mut points = line.points.clone();
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
            let path: Vec<(i32, i32)> = points
                .iter()
                .map(|p| {
                    let (px, py) = pixel(p.x, p.mean);
                    (px + offset(i), py)
                })
                .collect();
            canvas.draw(&PathElement::new(path, colour.stroke_width(2)))?;
        }
        for (i, (line, colour)) in lines.clone() {
            for p in &line.points {
                let Some(w) = whisker(p, &self.y) else {
                    continue;
                };
                let (px, top) = pixel(p.x, w.high);
                let (_, bottom) = pixel(p.x, w.low);
                let px = px + offset(i);
                let style = colour.stroke_width(2);
                canvas.draw(&PathElement::new(vec![(px, top), (px, bottom)], style))?;
                for (capped, py) in [(w.high_capped, top), (w.low_capped, bottom)] {
                    if capped {
                        let cap = vec![(px - CAP_PX, py), (px + CAP_PX, py)];
                        canvas.draw(&PathElement::new(cap, style))?;
                    }
                }
            }
        }
        for (i, (line, colour)) in lines {
            for p in &line.points {
                let (px, py) = pixel(p.x, p.mean);
                draw_point(&canvas, PointShape::nth(i), (px + offset(i), py), *colour)?;
            }
        }
        Ok(())
    }

    /// Pixels between neighbouring lines' points at one x: up to 4 px a line on a numeric
    /// axis and 16 px on a category axis, less where x values are close, so that the whole
    /// spread takes at most 30% (numeric) or 50% (categories) of the narrowest gap between
    /// x values.
    fn dodge_px(&self, to_px: impl Fn(f64) -> i32, categorical: bool) -> f64 {
        let n = self.figure.lines.len();
        if n < 2 {
            return 0.0;
        }
        let (most, share) = if categorical { (16.0, 0.5) } else { (4.0, 0.3) };
        let gap = if categorical {
            (to_px(1.0) - to_px(0.0)).abs() as f64
        } else {
            let mut xs: Vec<i32> = self.points().map(|p| to_px(p.x)).collect();
            xs.sort_unstable();
            xs.dedup();
            let narrowest = xs.windows(2).map(|w| w[1] - w[0]).min();
            narrowest.map_or(f64::INFINITY, f64::from)
        };
        (gap * share / (n - 1) as f64).min(most)
    }
}

/// The y axis: from 0, or from below the lowest whisker when a mean is negative; up to
/// the highest whisker (0 when every mean is ≤ 0), with a margin of 6% of the span on a
/// side that is not 0.
fn y_axis(lines: &[SweepLine]) -> Range<f64> {
    let points = || lines.iter().flat_map(|l| &l.points);
    let ci = |p: &SweepPoint| p.ci95.unwrap_or(0.0);
    let low = if points().any(|p| p.mean < 0.0) {
        points().map(|p| p.mean - ci(p)).fold(0.0, f64::min)
    } else {
        0.0
    };
    let high = if points().any(|p| p.mean > 0.0) {
        points().map(|p| p.mean + ci(p)).fold(0.0, f64::max)
    } else {
        0.0
    };
    if high <= low {
        return 0.0..1.0;
    }
    let pad = (high - low) * 0.06;
    let low = if low < 0.0 { low - pad } else { low };
    let high = if high > 0.0 { high + pad } else { high };
    low..high
}

/// A confidence interval as drawn: clipped to the y axis, capped only where not clipped.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Whisker {
    low: f64,
    high: f64,
    low_capped: bool,
    high_capped: bool,
}

/// The whisker of `p` on the axis `y`; `None` without an interval.
fn whisker(p: &SweepPoint, y: &Range<f64>) -> Option<Whisker> {
    let ci = p.ci95.filter(|&ci| ci > 0.0)?;
    let (low, high) = (p.mean - ci, p.mean + ci);
    Some(Whisker {
        low: low.max(y.start),
        high: high.min(y.end),
        low_capped: low >= y.start,
        high_capped: high <= y.end,
    })
}

impl Figure for Sweep<'_> {
    fn size(&self) -> (u32, u32) {
        theme::FIGURE_SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let body = heading(root, &self.figure.title, &self.figure.caption)?;
        let mut entries: Vec<Entry> = self
            .figure
            .lines
            .iter()
            .zip(&self.colours)
            .enumerate()
            .map(|(i, (l, &c))| {
                Entry::new(l.name.clone(), c, Marker::LinePoint(PointShape::nth(i)))
            })
            .collect();
        let (width, _) = body.dim_in_pixel();
        let widest = (width as f64 * LEGEND_MAX_SHARE) as u32;
        let legend_px = legend_width(&body, LEGEND_TITLE, &entries)?.clamp(LEGEND_STRIP_PX, widest);
        for entry in &mut entries {
            entry.label = fit_label(&body, &entry.label, legend_px)?;
        }
        let (plot, legend) = body.split_horizontally(width - legend_px);
        match &self.figure.x {
            SweepAxis::Numeric { log: false } => self.draw_chart(&plot, self.linear_x(), None)?,
            SweepAxis::Numeric { log: true } => {
                let (low, high) = self.x_extent();
                self.draw_chart(&plot, LogAxis::around(low, high), None)?
            }
            SweepAxis::Categories(names) => {
                let labels = CategoryLabels::fit(&plot, names)?;
                let blank = CategoryAxis::new(vec![String::new(); names.len()]);
                self.draw_chart(&plot, blank, Some(&labels))?
            }
        }
        draw_legend(&legend, LEGEND_TITLE, &entries, 40)
    }
}

#[cfg(test)]
mod tests;
