//! Plots and flent data files from airq simulation results.
//!
//! The `airq` CLI converts its results into the plain structs of [`model`] and calls
//! [`draw`] for each [`PlotKind`] (PNG or SVG, by the file extension) and [`write_flent`]
//! for each run, so that flent can load, re-plot and compare airq results beside real
//! testbed measurements. Text in PNGs uses the DejaVu Sans font embedded in the crate.

mod canvas;
pub mod demo;
pub mod error;
pub mod flent;
mod font;
pub mod model;
mod plot;
mod theme;

pub use error::ReportError;
pub use flent::write_flent;
pub use model::{Comparison, QueueSamples, RunView, StationView};
pub use plot::{draw, PlotKind};
