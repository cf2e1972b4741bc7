//! The figures, as declarative kinds in the manner of flent's plot list: each
//! [`PlotKind`] has a name, a description and one drawing, made from a [`Comparison`] and
//! written as PNG or SVG by the output file's extension.
//!
//! The kinds follow the figures of "Ending the Anomaly: Achieving Low Latency and Airtime
//! Fairness in WiFi" (Høiland-Jørgensen et al., USENIX ATC 2017): latency CDFs (Figure 2),
//! airtime shares (Figure 3), goodput per station (Figure 4); flent's `all_scaled` time
//! series; and the driver queue depth histograms of the Airtime Queue Limits work (Kazior
//! & Yan's AQL; Figures 4–5 of the AQL paper in the seeds). A parameter sweep is not a
//! comparison and has its own entry point, [`draw_sweep`] (see `sweep.rs`); so have the
//! per-run values of a comparison repeated over seeds, [`draw_repetitions`] (see
//! `repetitions.rs`).
//!
//! Every comparison figure follows one rule for many stations (`stations.rs`): past the
//! seven the palette tells apart, it draws the three lowest, the median and the three
//! highest by goodput under the first design, shows every station in an aggregate (box
//! plots, bands, a pooled CDF, a grey "others" segment) and says so under its caption.

mod airtime;
mod axis;
mod goodput;
mod latency_cdf;
mod layout;
mod legend;
mod marker;
mod queue_depth;
mod repetitions;
mod stations;
mod sweep;
mod timeseries;

use std::path::Path;

use crate::canvas::{self, Format};
use crate::error::ReportError;
use crate::model::Comparison;

pub use repetitions::{draw_repetitions, RepetitionsFigure, RepetitionsPanel};
pub(crate) use stations::StationColours;
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

#[cfg(test)]
mod tests;
