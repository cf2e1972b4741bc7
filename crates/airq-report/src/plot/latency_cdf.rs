//! Ping RTT CDFs, one panel per AP design with one curve per station, on a shared log-x
//! axis in ms: the form of Figure 2 of "Ending the Anomaly" (USENIX ATC 2017), where the
//! latency of each queueing design reads as how far right its curves sit.
//!
//! A design whose pings all went unanswered says so in its panel. Each curve is the
//! empirical CDF F̂(x) = (1/n)·#{i : xᵢ ≤ x} over the n pings sent (the station's
//! `pings_sent`, else its replies), drawn as its exact step function: a lost ping is an
//! RTT larger than any, so a curve with loss stops below 1, at the fraction answered
//! (flent's convention), rather than pretending the replies were all the pings.
//!
//! With more stations than colours (see `stations.rs`) each panel draws the chosen
//! stations' curves over the pooled CDF of every station's pings, normalised the same
//! way: over all pings sent by all stations.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{DashedLineSeries, DrawingArea, DrawingBackend, LineSeries};
use plotters::style::Color;

use super::axis::LogAxis;
use super::layout::{chart_in, draw_mesh, draw_note, figure_width, labels_across, layout, Axes};
use super::legend::{draw_legend, Entry, Marker};
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::{Comparison, StationView};
use crate::theme;

/// The latency CDF figure.
pub(crate) struct LatencyCdf<'c> {
    comparison: &'c Comparison,
    x_axis: LogAxis,
    colours: StationColours,
}

impl<'c> LatencyCdf<'c> {
    /// Checks there is at least one ping sample; the x axis covers every RTT of every run.
    pub(crate) fn new(comparison: &'c Comparison) -> Result<Self, ReportError> {
        let rtts = || {
            comparison
                .runs
                .iter()
                .flat_map(|r| &r.stations)
                .flat_map(|s| s.ping_rtt_ms.iter().map(|p| p.1))
        };
        let low = rtts().fold(f64::INFINITY, f64::min);
        let high = rtts().fold(0.0, f64::max);
        if !low.is_finite() {
            return Err(ReportError::empty("no station of any run has ping samples"));
        }
        Ok(LatencyCdf {
            comparison,
            x_axis: LogAxis::covering(low, high),
            colours: StationColours::of(comparison),
        })
    }
}

impl Figure for LatencyCdf<'_> {
    fn size(&self) -> (u32, u32) {
        let (_, cols) = theme::grid_shape(self.comparison.runs.len());
        (figure_width(cols), theme::FIGURE_SIZE.1)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let title = format!("{}: ping RTT CDF", self.comparison.scenario);
        let panels = self.comparison.runs.len();
        let caption = self
            .colours
            .caption(&self.comparison.caption, "in the pooled CDF");
        let frame = layout(root, &title, &caption, panels, theme::grid_shape(panels))?;
        for (run, panel) in self.comparison.runs.iter().zip(&frame.panels) {
            let y: RangedCoordf64 = (0.0..1.0).into();
            let mut chart = chart_in(panel, &run.config, self.x_axis, y)?;
            draw_mesh(
                &mut chart,
                &Axes {
                    x_desc: "Ping RTT (ms)",
                    y_desc: "Cumulative probability",
                    x_labels: labels_across(panel),
                    y_labels: 6,
                    x_categorical: false,
                    light_lines: (9, 1),
                },
            )?;
            if run.stations.iter().all(|s| s.ping_rtt_ms.is_empty()) {
                draw_note(&chart, "no ping replies")?;
            }
            for sta in &run.stations {
                if self.colours.drawn_position(&sta.name).is_none() {
                    continue;
                }
                let (rtts, sent) = pooled([sta]);
                let colour = self.colours.colour(&sta.name);
                chart.draw_series(LineSeries::new(
                    ecdf_steps(&rtts, sent),
                    colour.stroke_width(2),
                ))?;
            }
            if self.colours.summarised() {
                // Dashed on top: the stations' curves would hide a solid line under them.
                let (rtts, sent) = pooled(run.stations.iter());
                chart.draw_series(DashedLineSeries::new(
                    ecdf_steps(&rtts, sent),
                    10,
                    6,
                    theme::TOTAL_COLOUR.stroke_width(3),
                ))?;
            }
        }
        let mut entries = self.colours.entries(Marker::Line);
        if self.colours.summarised() {
            let all = format!("all {} pooled", self.colours.names().len());
            entries.push(Entry::new(all, theme::TOTAL_COLOUR, Marker::Dashed));
        }
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

/// The RTTs of `stations`' ping replies and the number of pings they sent (their
/// `pings_sent`, else their replies).
fn pooled<'s>(stations: impl IntoIterator<Item = &'s StationView>) -> (Vec<f64>, usize) {
    let mut rtts = Vec::new();
    let mut sent = 0usize;
    for sta in stations {
        rtts.extend(sta.ping_rtt_ms.iter().map(|p| p.1));
        // Validation refused counts whose sum does not fit; saturating all the same.
        let n = sta.pings_sent.map_or(sta.ping_rtt_ms.len(), |n| n as usize);
        sent = sent.saturating_add(n);
    }
    (rtts, sent)
}

/// The empirical CDF of `samples` out of `total` (the others lost, larger than any) as
/// the corner points of its step function: for sorted x₍₁₎ ≤ … ≤ x₍ₖ₎, (x₍ᵢ₎, (i−1)/n)
/// then (x₍ᵢ₎, i/n) with n = max(`total`, k), ending at k/n. Empty input gives no points.
pub(crate) fn ecdf_steps(samples: &[f64], total: usize) -> Vec<(f64, f64)> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = total.max(sorted.len()) as f64;
    sorted
        .iter()
        .enumerate()
        .flat_map(|(i, &x)| [(x, i as f64 / n), (x, (i + 1) as f64 / n)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// F̂(x) by its definition, (1/n)·#{i : xᵢ ≤ x}.
    fn ecdf_at(samples: &[f64], x: f64) -> f64 {
        samples.iter().filter(|&&s| s <= x).count() as f64 / samples.len() as f64
    }

    #[test]
    fn steps_match_the_definition() {
        let samples = [12.0, 3.0, 7.5, 3.0, 40.0];
        let steps = ecdf_steps(&samples, samples.len());
        assert_eq!(steps.len(), 10);
        // The top of each step is F̂ at that sample; the curve ends at 1.
        for pair in steps.chunks(2) {
            let (x, top) = pair[1];
            assert_eq!(pair[0].0, x);
            let at = ecdf_at(&samples, x);
            // Tied samples share x: the last step at a tie reaches F̂(x).
            assert!(top <= at + 1e-12, "F̂({x}) = {at}, step top {top}");
        }
        assert_eq!(steps.last().unwrap().1, 1.0);
        assert_eq!(steps[0], (3.0, 0.0));
        assert_eq!(steps[3], (3.0, 0.4));
        assert_eq!(ecdf_at(&samples, 3.0), 0.4);
        assert!(ecdf_steps(&[], 0).is_empty());
        assert!(ecdf_steps(&[], 4).is_empty());
    }

    #[test]
    fn pooled_pings_are_normalised_over_all_sent() {
        let station = |rtts: &[f64], sent| StationView {
            ping_rtt_ms: rtts.iter().map(|&r| (0.0, r)).collect(),
            pings_sent: sent,
            ..StationView::default()
        };
        let a = station(&[1.0, 2.0], Some(4));
        let b = station(&[3.0], None);
        let (rtts, sent) = pooled([&a, &b]);
        assert_eq!((rtts, sent), (vec![1.0, 2.0, 3.0], 5));
        let steps = ecdf_steps(&[1.0, 2.0, 3.0], 5);
        assert_eq!(steps.last().unwrap().1, 0.6);
    }

    #[test]
    fn lost_pings_stop_the_curve_below_one() {
        // 3 replies of 4 pings: the curve ends at 3/4, its steps a quarter each.
        let steps = ecdf_steps(&[5.0, 1.0, 2.0], 4);
        assert_eq!(
            steps,
            [
                (1.0, 0.0),
                (1.0, 0.25),
                (2.0, 0.25),
                (2.0, 0.5),
                (5.0, 0.5),
                (5.0, 0.75)
            ]
        );
    }
}
