//! Histograms of the firmware driver queue depth, in frames (left) and in queued airtime
//! (right), one outlined series per AP design that has a driver queue: the form of the AQL
//! paper's Figures 4–5, where Airtime Queue Limits show as the airtime histogram pulled
//! down from tens of milliseconds to a few.
//!
//! Both panels share bins across designs (width 1, 2 or 5 × 10ⁿ, about 60 bins up to the
//! largest sample) and show each bin's share of that design's samples in percent.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, PathElement, Polygon};
use plotters::style::{Color, RGBColor};

use super::layout::{chart_in, draw_mesh, layout, zero_based, Axes};
use super::legend::{draw_legend, Entry, Marker};
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::Comparison;
use crate::theme;

/// About this many bins span the largest sample.
const TARGET_BINS: f64 = 60.0;

/// One design's driver queue samples: (name, colour, frames, airtime in ms).
type Series = (String, RGBColor, Vec<f64>, Vec<f64>);

/// The queue-depth figure.
pub(crate) struct QueueDepth<'c> {
    comparison: &'c Comparison,
    series: Vec<Series>,
}

impl<'c> QueueDepth<'c> {
    /// Refuses a comparison in which no run has driver queue samples.
    pub(crate) fn new(comparison: &'c Comparison) -> Result<Self, ReportError> {
        let series: Vec<Series> = comparison
            .runs
            .iter()
            .enumerate()
            .filter_map(|(i, run)| {
                let q = run.driver_queue.as_ref()?;
                let airtime_ms: Vec<f64> = q.airtime_us.iter().map(|us| us / 1000.0).collect();
                let colour = theme::design_colour(&run.config, i);
                Some((run.config.clone(), colour, q.frames.clone(), airtime_ms))
            })
            .filter(|s| !s.2.is_empty() || !s.3.is_empty())
            .collect();
        if series.is_empty() {
            return Err(ReportError::empty("no run has driver_queue samples"));
        }
        Ok(QueueDepth { comparison, series })
    }

    fn draw_panel<DB: DrawingBackend>(
        &self,
        panel: &DrawingArea<DB, Shift>,
        x_desc: &str,
        caption: &str,
        min_bin: f64,
        samples: fn(&Series) -> &[f64],
    ) -> Result<(), DrawFailure> {
        let max = self
            .series
            .iter()
            .flat_map(samples)
            .fold(0.0, |a, &b| f64::max(a, b));
        let width = bin_width(max, min_bin);
        let histograms: Vec<Vec<f64>> = self
            .series
            .iter()
            .map(|s| histogram(samples(s), width))
            .collect();
        let bins = histograms.iter().map(Vec::len).max().unwrap_or(1);
        let top = histograms
            .iter()
            .flatten()
            .fold(0.0, |a, &b| f64::max(a, b));
        // One empty bin on the right, so the deepest bin does not sit on the frame.
        let x: RangedCoordf64 = (0.0..(bins + 1) as f64 * width).into();
        let mut chart = chart_in(panel, caption, x, zero_based(top))?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc,
                y_desc: "Share of samples (%)",
                x_labels: 8,
                y_labels: 8,
                x_categorical: false,
                light_lines: (1, 1),
            },
        )?;
        for (s, h) in self.series.iter().zip(&histograms) {
            let outline = step_outline(h, width);
            chart.draw_series([Polygon::new(outline.clone(), s.1.mix(0.12).filled())])?;
            chart.draw_series([PathElement::new(outline, s.1.stroke_width(2))])?;
        }
        Ok(())
    }
}

impl Figure for QueueDepth<'_> {
    fn size(&self) -> (u32, u32) {
        theme::FIGURE_SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let title = format!("{}: driver queue depth", self.comparison.scenario);
        let frame = layout(root, &title, &self.comparison.caption, 2, (1, 2))?;
        self.draw_panel(&frame.panels[0], "Queued frames", "In frames", 1.0, frames)?;
        self.draw_panel(
            &frame.panels[1],
            "Queued airtime (ms)",
            "In airtime",
            0.0,
            airtime,
        )?;
        let entries: Vec<Entry> = self
            .series
            .iter()
            .map(|s| Entry::new(s.0.clone(), s.1, Marker::Line))
            .collect();
        draw_legend(&frame.legend, "AP design", &entries, 40)
    }
}

fn frames(s: &Series) -> &[f64] {
    &s.2
}

fn airtime(s: &Series) -> &[f64] {
    &s.3
}

/// A bin width of 1, 2 or 5 × 10ⁿ giving about [`TARGET_BINS`] bins up to `max`, and at
/// least `min` (1 for frame counts, so integers do not alias between bins).
pub(crate) fn bin_width(max: f64, min: f64) -> f64 {
    if max <= 0.0 {
        // All samples are zero: one bin of unit width shows them.
        return min.max(1.0);
    }
    let raw = (max / TARGET_BINS).max(f64::MIN_POSITIVE);
    let decade = 10f64.powf(raw.log10().floor());
    let nice = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|w| *w >= raw)
        .unwrap_or(10.0 * decade);
    nice.max(min)
}

/// Percent of `samples` in each bin [k·width, (k+1)·width); the last bin holds the max.
pub(crate) fn histogram(samples: &[f64], width: f64) -> Vec<f64> {
    if samples.is_empty() {
        return Vec::new();
    }
    let max = samples.iter().fold(0.0, |a: f64, &b| a.max(b));
    let bins = (max / width).floor() as usize + 1;
    let mut counts = vec![0.0; bins];
    for &s in samples {
        counts[((s / width).floor() as usize).min(bins - 1)] += 1.0;
    }
    let n = samples.len() as f64;
    counts.iter().map(|c| c * 100.0 / n).collect()
}

/// The outline of a histogram's bars, from (0, 0) along the bin tops back to the axis.
fn step_outline(percent: &[f64], width: f64) -> Vec<(f64, f64)> {
    let mut points = vec![(0.0, 0.0)];
    for (k, &p) in percent.iter().enumerate() {
        points.push((k as f64 * width, p));
        points.push(((k + 1) as f64 * width, p));
    }
    points.push((percent.len() as f64 * width, 0.0));
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_counts_every_sample_once() {
        let samples = [0.0, 0.9, 1.0, 2.5, 2.5, 9.99, 10.0];
        let h = histogram(&samples, 2.0);
        assert_eq!(h.len(), 6);
        let total: f64 = h.iter().sum();
        assert!((total - 100.0).abs() < 1e-9);
        // [0,2): 0, 0.9, 1.0; [2,4): 2.5, 2.5; [8,10): 9.99; [10,12): 10.
        let share = |k: usize| h[k] * 7.0 / 100.0;
        assert!((share(0) - 3.0).abs() < 1e-9 && (share(1) - 2.0).abs() < 1e-9);
        assert!((share(4) - 1.0).abs() < 1e-9 && (share(5) - 1.0).abs() < 1e-9);
        assert!(histogram(&[], 1.0).is_empty());
    }

    #[test]
    fn bin_widths_are_one_two_five() {
        assert_eq!(bin_width(480.0, 1.0), 10.0);
        assert_eq!(bin_width(38.0, 0.0), 1.0);
        assert_eq!(bin_width(10.0, 1.0), 1.0);
        assert_eq!(bin_width(0.0, 1.0), 1.0);
        assert_eq!(bin_width(0.0, 0.0), 1.0);
        assert_eq!(bin_width(7.0, 0.0), 0.2);
    }
}
