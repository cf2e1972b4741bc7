//! The figures, as declarative kinds in the manner of flent's plot list: each
//! [`PlotKind`] has a name, a description and one drawing, made from a [`Comparison`] and
//! written as PNG or SVG by the output file's extension.
//!
//! The kinds follow the figures of "Ending the Anomaly: Achieving Low Latency and Airtime
//! Fairness in WiFi" (Høiland-Jørgensen et al., USENIX ATC 2017): latency CDFs (Figure 2),
//! airtime shares (Figure 3), goodput per station (Figure 4); flent's `all_scaled` time
//! series; and the driver queue depth histograms of the Airtime Queue Limits work (Kazior
//! & Yan's AQL; Figures 4–5 of the AQL paper in the seeds). A parameter sweep is not a
//! comparison and has its own entry point, [`draw_sweep`] (see `sweep.rs`).

mod airtime;
mod axis;
mod goodput;
mod latency_cdf;
mod layout;
mod legend;
mod marker;
mod queue_depth;
mod sweep;
mod timeseries;

use std::path::Path;

use plotters::style::RGBColor;

use crate::canvas::{self, Format};
use crate::error::ReportError;
use crate::model::Comparison;
use crate::theme;

pub use sweep::{draw_sweep, SweepAxis, SweepFigure, SweepLine, SweepPoint};

/// A figure this crate can draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlotKind {
    /// Ping RTT CDF per station, one panel per design, log-x in ms.
    LatencyCdf,
    /// Goodput per station and in total, bars grouped by design.
    Goodput,
    /// Airtime share per station, one stacked bar per design.
    Airtime,
    /// Per design: goodput per station over time above ping RTT over time.
    Timeseries,
    /// Histograms of the driver queue depth in frames and in airtime, one series per design.
    QueueDepth,
}

impl PlotKind {
    /// Every kind, in the order a report shows them.
    pub const ALL: [PlotKind; 5] = [
        PlotKind::LatencyCdf,
        PlotKind::Goodput,
        PlotKind::Airtime,
        PlotKind::Timeseries,
        PlotKind::QueueDepth,
    ];

    /// The kind's short name, as a CLI takes it and as a file name stem.
    pub fn name(self) -> &'static str {
        match self {
            PlotKind::LatencyCdf => "latency_cdf",
            PlotKind::Goodput => "goodput",
            PlotKind::Airtime => "airtime",
            PlotKind::Timeseries => "timeseries",
            PlotKind::QueueDepth => "queue_depth",
        }
    }

    /// One line on what the figure shows.
    pub fn description(self) -> &'static str {
        match self {
            PlotKind::LatencyCdf => "CDF of ping RTT per station, one panel per AP design (log x)",
            PlotKind::Goodput => "Mean goodput per station and in total, grouped by AP design",
            PlotKind::Airtime => "Share of busy airtime per station, stacked per AP design",
            PlotKind::Timeseries => {
                "Goodput per station and ping RTT over time, one column per AP design"
            }
            PlotKind::QueueDepth => {
                "Histograms of the driver queue depth in frames and in airtime, per AP design"
            }
        }
    }

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<PlotKind> {
        PlotKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Draws `kind` from `comparison` into `path`: `.png` or `.svg`, by the extension.
///
/// Errors: an unsupported extension, invalid input (see [`Comparison::validate`]), no data
/// for this kind (e.g. no run has driver queue samples), or a failed write.
pub fn draw(kind: PlotKind, comparison: &Comparison, path: &Path) -> Result<(), ReportError> {
    Format::of(path)?;
    comparison.validate()?;
    match kind {
        PlotKind::LatencyCdf => canvas::render(&latency_cdf::LatencyCdf::new(comparison)?, path),
        PlotKind::Goodput => canvas::render(&goodput::Goodput::new(comparison)?, path),
        PlotKind::Airtime => canvas::render(&airtime::Airtime::new(comparison)?, path),
        PlotKind::Timeseries => canvas::render(&timeseries::Timeseries::new(comparison)?, path),
        PlotKind::QueueDepth => canvas::render(&queue_depth::QueueDepth::new(comparison)?, path),
    }
}

/// Station names of a comparison in order of first appearance; a station's colour is its
/// position here, so it is the same in every design's panel.
pub(crate) struct StationColours {
    names: Vec<String>,
}

impl StationColours {
    pub(crate) fn of(comparison: &Comparison) -> Self {
        let mut names: Vec<String> = Vec::new();
        for sta in comparison.runs.iter().flat_map(|r| &r.stations) {
            if !names.contains(&sta.name) {
                names.push(sta.name.clone());
            }
        }
        StationColours { names }
    }

    /// The colour of the station called `name` (black for a name not in the comparison).
    pub(crate) fn colour(&self, name: &str) -> RGBColor {
        self.index(name)
            .map_or(RGBColor(0, 0, 0), theme::station_colour)
    }

    /// The station's position in first-appearance order.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// All names, in order.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }
}

#[cfg(test)]
mod tests;
