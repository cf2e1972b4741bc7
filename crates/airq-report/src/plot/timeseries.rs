//! Goodput and ping RTT over time, one column per AP design: goodput per station on top,
//! RTT per station (log scale) below, as flent's `all_scaled` plot stacks its panels; the
//! RTT row only when some station pinged, and a design whose pings all went unanswered
//! says so. All columns share their axes so the designs compare at a glance.
//!
//! With more stations than colours (see `stations.rs`) a panel draws the chosen stations'
//! lines over two grey bands that cover every station: its minimum to its maximum, and
//! its middle half (first to third quartile), per point of the goodput lines and per
//! time bin of the pooled pings.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{
    DashedLineSeries, DrawingArea, DrawingBackend, LineSeries, Polygon, Rectangle,
};
use plotters::style::Color;

use super::axis::{format_tick, LogAxis};
use super::layout::{
    chart_in, draw_mesh, draw_note, figure_width, layout, plotting_width, zero_based, Axes,
};
use super::legend::{draw_legend, Entry, Marker};
use super::stations::FiveNumbers;
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::{Comparison, RunView, StationView};
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
    /// Most pings of any station of any run.
    max_pings: usize,
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
            max_pings: stations().map(|s| s.ping_rtt_ms.len()).max().unwrap_or(0),
        })
    }

    /// The run's stations that are drawn one by one.
    fn drawn<'r>(&'r self, run: &'r RunView) -> impl Iterator<Item = &'r StationView> + 'r {
        let drawn = |s: &&StationView| self.colours.drawn_position(&s.name).is_some();
        run.stations.iter().filter(drawn)
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
        if self.colours.summarised() {
            let series = |of: fn(&StationView) -> &[f64]| {
                let binned = run
                    .stations
                    .iter()
                    .map(|s| binned(of(s), run.step_s, points));
                let bands = bands(&binned.collect::<Vec<_>>());
                (!bands.iter().all(|b| b.1.max == 0.0)).then_some(bands)
            };
            for bands in [series(|s| &s.download_mbps), series(|s| &s.upload_mbps)] {
                let Some(bands) = bands else { continue };
                let lo_hi = |f: fn(&FiveNumbers) -> (f64, f64)| {
                    let upper = bands.iter().map(|(t, b)| (*t, f(b).1));
                    let lower = bands.iter().rev().map(|(t, b)| (*t, f(b).0));
                    upper.chain(lower).collect::<Vec<_>>()
                };
                chart.draw_series([
                    Polygon::new(lo_hi(|b| (b.min, b.max)), theme::RANGE_BAND_COLOUR.filled()),
                    Polygon::new(
                        lo_hi(|b| (b.q1, b.q3)),
                        theme::QUARTILE_BAND_COLOUR.filled(),
                    ),
                ])?;
            }
        }
        for sta in self.drawn(run) {
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
        // More pings than pixels draw a solid block: each line becomes its station's
        // median RTT per time bin of a round width.
        let plot_px = plotting_width(panel);
        let median_bin_s = (self.max_pings > plot_px as usize)
            .then(|| round_up_125(self.duration_s * PX_PER_POINT as f64 / plot_px.max(1) as f64));
        let caption = format!("{}: ping RTT", run.config);
        let y_desc = match median_bin_s {
            Some(w) if !y_desc.is_empty() => {
                format!("{y_desc}, median per {} s", format_tick(w))
            }
            _ => y_desc.to_string(),
        };
        let mut chart = chart_in(panel, &caption, x, y)?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "Time (s)",
                y_desc: &y_desc,
                x_labels: 6,
                y_labels: 8,
                x_categorical: false,
                light_lines: (1, 9),
            },
        )?;
        if run.stations.iter().all(|s| s.ping_rtt_ms.is_empty()) {
            draw_note(&chart, "no ping replies")?;
        }
        if self.colours.summarised() {
            // Bins of a round width, at least PX_PER_RTT_BIN wide and holding two pings of
            // each station: narrower ones would leave gaps between rounds of pings.
            let narrowest = self.duration_s * PX_PER_RTT_BIN as f64 / plot_px.max(1) as f64;
            let two_pings = 2.0 * self.duration_s / self.max_pings.max(1) as f64;
            let pooled = run.stations.iter().flat_map(|s| &s.ping_rtt_ms);
            let summaries = rtt_bins(pooled, round_up_125(narrowest.max(two_pings)));
            chart.draw_series(summaries.iter().map(|(t0, t1, f)| {
                Rectangle::new(
                    [(*t0, f.min), (*t1, f.max)],
                    theme::RANGE_BAND_COLOUR.filled(),
                )
            }))?;
            chart.draw_series(summaries.iter().map(|(t0, t1, f)| {
                Rectangle::new(
                    [(*t0, f.q1), (*t1, f.q3)],
                    theme::QUARTILE_BAND_COLOUR.filled(),
                )
            }))?;
        }
        for sta in self.drawn(run) {
            let colour = self.colours.colour(&sta.name);
            let points: Vec<(f64, f64)> = match median_bin_s {
                None => sta.ping_rtt_ms.clone(),
                Some(w) => rtt_bins(&sta.ping_rtt_ms, w)
                    .into_iter()
                    .map(|(t0, t1, f)| ((t0 + t1) / 2.0, f.median))
                    .collect(),
            };
            chart.draw_series(LineSeries::new(points, colour.stroke_width(1)))?;
        }
        Ok(())
    }
}

/// Per point of equally long binned series (shorter ones counting where they have
/// points), its time and the summary of the series' values there.
fn bands(series: &[Vec<(f64, f64)>]) -> Vec<(f64, FiveNumbers)> {
    let len = series.iter().map(Vec::len).max().unwrap_or(0);
    (0..len)
        .filter_map(|i| {
            let at = series.iter().filter_map(|s| s.get(i));
            let t = at.clone().map(|p| p.0).fold(0.0, f64::max);
            Some((t, FiveNumbers::of(at.map(|p| p.1))?))
        })
        .collect()
}

/// Per time bin of `width_s` seconds that holds pings (from 0 s on), its start, its end
/// and the summary of the RTTs of its `pings`.
fn rtt_bins<'p>(
    pings: impl IntoIterator<Item = &'p (f64, f64)>,
    width_s: f64,
) -> Vec<(f64, f64, FiveNumbers)> {
    let mut bins: Vec<Vec<f64>> = Vec::new();
    for &(t, rtt) in pings {
        // A ping at the end of the run falls into the last bin, not a new one.
        let k = ((t / width_s).ceil() as usize).saturating_sub(1);
        if bins.len() <= k {
            bins.resize(k + 1, Vec::new());
        }
        bins[k].push(rtt);
    }
    let bins = bins.into_iter().enumerate();
    bins.filter_map(|(k, rtts)| {
        let (t0, t1) = (k as f64 * width_s, (k + 1) as f64 * width_s);
        Some((t0, t1, FiveNumbers::of(rtts)?))
    })
    .collect()
}

/// The smallest of 1, 2, 5 × 10ⁿ at least `value` (> 0).
fn round_up_125(value: f64) -> f64 {
    let decade = 10f64.powf(value.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|w| *w >= value * (1.0 - 1e-9))
        .unwrap_or(10.0 * decade)
}

/// Pixels per time bin of the pooled ping band.
const PX_PER_RTT_BIN: u32 = 6;

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
        let caption = self
            .colours
            .caption(&self.comparison.caption, "in the grey bands");
        let frame = layout(root, &title, &caption, rows * columns, (rows, columns))?;
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
        let mut entries = self.colours.entries(Marker::Line);
        if self.colours.summarised() {
            // The note under the caption says how many "all" are.
            entries.push(Entry::new(
                "all: min–max",
                theme::RANGE_BAND_COLOUR,
                Marker::Box,
            ));
            entries.push(Entry::new(
                "all: middle half",
                theme::QUARTILE_BAND_COLOUR,
                Marker::Box,
            ));
        }
        if self.any_upload {
            entries.push(Entry::new("download", theme::TOTAL_COLOUR, Marker::Line));
            entries.push(Entry::new("upload", theme::TOTAL_COLOUR, Marker::Dashed));
        }
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

#[cfg(test)]
mod binning_tests {
    use super::{bands, binned, round_up_125, rtt_bins};

    #[test]
    fn pings_are_summarised_per_bin_from_zero() {
        let pings = [(0.5, 4.0), (1.0, 2.0), (1.5, 9.0), (3.2, 1.0)];
        let bins = rtt_bins(&pings, 1.0);
        // (0, 1] holds the first two, (1, 2] one, (2, 3] none.
        assert_eq!(bins.len(), 3);
        assert_eq!((bins[0].0, bins[0].1, bins[0].2.median), (0.0, 1.0, 3.0));
        assert_eq!((bins[1].2.min, bins[1].2.max), (9.0, 9.0));
        assert_eq!((bins[2].0, bins[2].2.median), (3.0, 1.0));
        assert_eq!(round_up_125(34.9), 50.0);
        assert_eq!(round_up_125(0.2), 0.2);
        assert_eq!(round_up_125(1.01), 2.0);
    }

    #[test]
    fn bands_summarise_each_point_over_the_series() {
        let series = [
            vec![(1.0, 1.0), (2.0, 5.0)],
            vec![(1.0, 3.0), (2.0, 1.0)],
            vec![(1.0, 2.0)],
        ];
        let b = bands(&series);
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b[0].0, b[0].1.min, b[0].1.median, b[0].1.max),
            (1.0, 1.0, 2.0, 3.0)
        );
        assert_eq!((b[1].0, b[1].1.min, b[1].1.max), (2.0, 1.0, 5.0));
        assert!(bands(&[]).is_empty());
    }

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
