//! Plots and flent data files from airq simulation results.
//!
//! The `airq` CLI converts its results into the plain structs of [`model`] and calls
//! [`draw`] for each [`PlotKind`] (PNG or SVG, by the file extension) and [`write_flent`]
//! for each run, so that flent can load, re-plot and compare airq results beside real
//! testbed measurements. A parameter sweep (`airq sweep`) is drawn by [`draw_sweep`] from a
//! [`SweepFigure`]: one metric against the swept parameter, a line per variant, each point
//! a mean over seeds with its 95% confidence interval. A comparison repeated over seeds
//! (`airq compare --seeds N`) is drawn by [`draw_repetitions`] from a
//! [`RepetitionsFigure`]: per metric, a box and whiskers per variant over its runs, every
//! run a dot. Text in PNGs uses the DejaVu Sans font embedded in the crate, so nothing
//! needs installing on the machine.
//!
//! ```no_run
//! use airq_report::demo::demo_comparison;
//! use airq_report::{draw, write_flent, PlotKind};
//!
//! let comparison = demo_comparison(1);
//! for kind in PlotKind::ALL {
//!     draw(kind, &comparison, format!("{}.svg", kind.name()).as_ref())?;
//! }
//! let run = &comparison.runs[0];
//! write_flent(run, &comparison.scenario, "demo (fifo, seed 1)", "fifo.flent.gz".as_ref())?;
//! # Ok::<(), airq_report::ReportError>(())
//! ```
//!
//! Not supported: interactive output, PDF, and time series or CDFs combining several runs
//! of the same design (flent's `*_combine` plots do that from the exported files).

#![warn(missing_docs)]

mod canvas;
pub mod demo;
pub mod error;
pub mod flent;
mod font;
mod glyphs;
pub mod model;
mod plot;
mod theme;

pub use error::ReportError;
pub use flent::write_flent;
pub use model::{
    Comparison, FlowDirection, FlowKind, FlowView, QueueSamples, RunView, StationView, VoipView,
};
pub use plot::{
    draw, draw_repetitions, draw_sweep, PlotKind, RepetitionsFigure, RepetitionsPanel, SweepAxis,
    SweepFigure, SweepLine, SweepPoint,
};
