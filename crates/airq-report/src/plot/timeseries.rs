//! Goodput and ping RTT over time, one column per AP design: goodput per station on top,
//! RTT per station (log scale) below, as flent's `all_scaled` plot stacks its panels; the
//! RTT row only when some station pinged, and a design whose pings all went unanswered
//! says so. All columns share their axes so the designs compare at a glance.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{DashedLineSeries, DrawingArea, DrawingBackend, LineSeries};
use plotters::style::Color;

use super::axis::LogAxis;
use super::layout::{chart_in, draw_mesh, draw_note, figure_width, layout, zero_based, Axes};
use super::legend::{draw_legend, Entry, Marker};
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::{Comparison, RunView};
use crate::theme;

/// The time-series figure.
pub(crate) struct Timeseries<'c> {
    comparison: &'c Comparison,
    colours: StationColours,
    /// Shared RTT axis, if any station pinged.
    rtt_axis: Option<LogAxis>,
    max_mbps: f64,
    duration_s: f64,
    any_upload: bool,
}

impl<'c> Timeseries<'c> {
    /// Refuses a comparison with neither goodput samples nor pings.
    pub(crate) fn new(comparison: &'c Comparison) -> Result<Self, ReportError> {
        let stations = || comparison.runs.iter().flat_map(|r| &r.stations);
        let rates =
            || stations().flat_map(|s| s.download_mbps.iter().chain(&s.upload_mbps).copied());
        let rtts = || stations().flat_map(|s| s.ping_rtt_ms.iter().map(|p| p.1));
        if rates().next().is_none() && rtts().next().is_none() {
            return Err(ReportError::empty(
                "no station has goodput samples or ping samples",
            ));
        }
        let low = rtts().fold(f64::INFINITY, f64::min);
        let rtt_axis = low
            .is_finite()
            .then(|| LogAxis::covering(low, rtts().fold(0.0, f64::max)));
        Ok(Timeseries {
            comparison,
            colours: StationColours::of(comparison),
            rtt_axis,
            max_mbps: rates().fold(0.0, f64::max),
            duration_s: comparison
                .runs
                .iter()
                .map(|r| r.duration_s)
                .fold(0.0, f64::max),
            any_upload: stations().any(|s| s.upload_mbps.iter().any(|&v| v > 0.0)),
        })
    }

    fn draw_goodput<DB: DrawingBackend>(
        &self,
        run: &RunView,
        panel: &DrawingArea<DB, Shift>,
        y_desc: &str,
    ) -> Result<(), DrawFailure> {
        let x: RangedCoordf64 = (0.0..self.duration_s).into();
        let caption = format!("{}: goodput", run.config);
        let mut chart = chart_in(panel, &caption, x, zero_based(self.max_mbps))?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "Time (s)",
                y_desc,
                x_labels: 6,
                y_labels: 8,
                x_categorical: false,
                light_lines: (1, 1),
            },
        )?;
        let points = (panel.dim_in_pixel().0 / PX_PER_POINT).max(2) as usize;
        for sta in &run.stations {
            let colour = self.colours.colour(&sta.name);
            let down = binned(&sta.download_mbps, run.step_s, points);
            chart.draw_series(LineSeries::new(down, colour.stroke_width(2)))?;
            if sta.upload_mbps.iter().any(|&v| v > 0.0) {
                let up = binned(&sta.upload_mbps, run.step_s, points);
                chart.draw_series(DashedLineSeries::new(up, 8, 5, colour.stroke_width(2)))?;
            }
        }
        Ok(())
    }

    fn draw_rtt<DB: DrawingBackend>(
        &self,
        run: &RunView,
        panel: &DrawingArea<DB, Shift>,
        y_desc: &str,
    ) -> Result<(), DrawFailure> {
        let x: RangedCoordf64 = (0.0..self.duration_s).into();
        let Some(y) = self.rtt_axis else {
            return Ok(());
        };
        let caption = format!("{}: ping RTT", run.config);
        let mut chart = chart_in(panel, &caption, x, y)?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "Time (s)",
                y_desc,
                x_labels: 6,
                y_labels: 8,
                x_categorical: false,
                light_lines: (1, 9),
            },
        )?;
        if run.stations.iter().all(|s| s.ping_rtt_ms.is_empty()) {
            draw_note(&chart, "no ping replies")?;
        }
        for sta in &run.stations {
            let colour = self.colours.colour(&sta.name);
            let points = sta.ping_rtt_ms.iter().copied();
            chart.draw_series(LineSeries::new(points, colour.stroke_width(1)))?;
        }
        Ok(())
    }
}

/// Pixels per point of a goodput line at least: a thick line through more points than
/// that zigzags wider than its panel (the bitmap backend draws each corner's miter, and a
/// spike's reaches far past the axes), and reads as noise.
const PX_PER_POINT: u32 = 3;

/// `(t, value)` of a series of `step`-long steps, consecutive steps averaged in groups so
/// that there are at most `points` (each at the end of its group). Averaging rates over
/// equal steps is the rate over the group, so nothing is invented; a long run's line
/// shows the same data at a coarser step.
fn binned(values: &[f64], step: f64, points: usize) -> Vec<(f64, f64)> {
    let group = values.len().div_ceil(points.max(1)).max(1);
    values
        .chunks(group)
        .enumerate()
        .map(|(g, chunk)| {
            let end = g * group + chunk.len();
            (
                end as f64 * step,
                chunk.iter().sum::<f64>() / chunk.len() as f64,
            )
        })
        .collect()
}

impl Figure for Timeseries<'_> {
    fn size(&self) -> (u32, u32) {
        (
            figure_width(self.comparison.runs.len()),
            theme::FIGURE_SIZE.1,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let (what, rows) = match self.rtt_axis {
            Some(_) => ("goodput and ping RTT", 2),
            None => ("goodput", 1),
        };
        let title = format!("{}: {what} over time", self.comparison.scenario);
        let columns = self.comparison.runs.len();
        let frame = layout(
            root,
            &title,
            &self.comparison.caption,
            rows * columns,
            (rows, columns),
        )?;
        for (i, run) in self.comparison.runs.iter().enumerate() {
            // Rows share their y axes: the first column names them for the row.
            let (goodput, rtt) = if i == 0 {
                ("Goodput (Mbit/s)", "Ping RTT (ms)")
            } else {
                ("", "")
            };
            self.draw_goodput(run, &frame.panels[i], goodput)?;
            if rows == 2 {
                self.draw_rtt(run, &frame.panels[columns + i], rtt)?;
            }
        }
        let mut entries: Vec<Entry> = self
            .colours
            .names()
            .iter()
            .map(|n| Entry::new(n.clone(), self.colours.colour(n), Marker::Line))
            .collect();
        if self.any_upload {
            entries.push(Entry::new("download", theme::TOTAL_COLOUR, Marker::Line));
            entries.push(Entry::new("upload", theme::TOTAL_COLOUR, Marker::Dashed));
        }
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

#[cfg(test)]
mod binning_tests {
    use super::binned;

    #[test]
    fn long_series_are_averaged_over_equal_groups() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(binned(&v, 0.5, 20)[9], (5.0, 10.0), "short series are kept");
        assert_eq!(
            binned(&v, 0.5, 4),
            [(1.5, 2.0), (3.0, 5.0), (4.5, 8.0), (5.0, 10.0)]
        );
    }
}
