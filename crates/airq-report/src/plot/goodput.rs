//! Mean goodput per station and in total, bars grouped by AP design, each bar labelled
//! with its value: the form of Figure 4 of "Ending the Anomaly" (USENIX ATC 2017), where
//! airtime fairness shows as the fast stations' bars rising while the slow one's barely
//! moves.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, EmptyElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::axis::CategoryAxis;
use super::layout::{chart_in, draw_mesh, layout, zero_based, Axes};
use super::legend::{draw_legend, Entry, Marker};
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::Comparison;
use crate::theme;

/// Fraction of a group's slot that its bars fill.
const GROUP_WIDTH: f64 = 0.84;
/// Fraction of a bar's sub-slot that the bar fills.
const BAR_FILL: f64 = 0.86;

/// The goodput figure.
pub(crate) struct Goodput<'c> {
    comparison: &'c Comparison,
    colours: StationColours,
}

impl<'c> Goodput<'c> {
    /// Any validated comparison has something to show here.
    pub(crate) fn new(comparison: &'c Comparison) -> Result<Self, ReportError> {
        Ok(Goodput {
            comparison,
            colours: StationColours::of(comparison),
        })
    }

    /// The bars as (x from, x to, Mbit/s, colour), stations in colour order then the total.
    fn bars(&self) -> Vec<(f64, f64, f64, RGBColor)> {
        let slots = self.colours.names().len() + 1;
        let slot = GROUP_WIDTH / slots as f64;
        let mut bars = Vec::new();
        for (g, run) in self.comparison.runs.iter().enumerate() {
            let left = g as f64 - GROUP_WIDTH / 2.0;
            let mut place = |k: usize, value: f64, colour: RGBColor| {
                let centre = left + (k as f64 + 0.5) * slot;
                let half = slot * BAR_FILL / 2.0;
                bars.push((centre - half, centre + half, value, colour));
            };
            for sta in &run.stations {
                if let Some(k) = self.colours.index(&sta.name) {
                    place(k, sta.goodput_mbps, self.colours.colour(&sta.name));
                }
            }
            let total = run.stations.iter().map(|s| s.goodput_mbps).sum();
            place(slots - 1, total, theme::TOTAL_COLOUR);
        }
        bars
    }
}

impl Figure for Goodput<'_> {
    fn size(&self) -> (u32, u32) {
        theme::FIGURE_SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let title = format!("{}: goodput per station", self.comparison.scenario);
        let frame = layout(root, &title, &self.comparison.caption, 1, (1, 1))?;
        let bars = self.bars();
        let max = bars.iter().map(|b| b.2).fold(0.0, f64::max);
        let names = self.comparison.runs.iter().map(|r| r.config.clone());
        let x = CategoryAxis::new(names.collect());
        let mut chart = chart_in(&frame.panels[0], "", x, zero_based(max * 1.05))?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "AP design",
                y_desc: "Goodput (Mbit/s)",
                x_labels: 20,
                y_labels: 10,
                x_categorical: true,
                light_lines: (1, 1),
            },
        )?;
        chart.draw_series(
            bars.iter()
                .map(|&(x0, x1, v, c)| Rectangle::new([(x0, 0.0), (x1, v)], c.filled())),
        )?;
        let label_style = theme::text(13.0).pos(Pos::new(HPos::Center, VPos::Bottom));
        chart.draw_series(bars.iter().map(|&(x0, x1, v, _)| {
            EmptyElement::at(((x0 + x1) / 2.0, v))
                + Text::new(format!("{v:.1}"), (0, -4), label_style.clone())
        }))?;
        let mut entries: Vec<Entry> = self
            .colours
            .names()
            .iter()
            .map(|n| Entry::new(n.clone(), self.colours.colour(n), Marker::Box))
            .collect();
        entries.push(Entry::new("total", theme::TOTAL_COLOUR, Marker::Box));
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_comparison;

    #[test]
    fn one_bar_per_station_and_a_total_per_design() {
        let c = demo_comparison(2);
        let figure = Goodput::new(&c).unwrap();
        let bars = figure.bars();
        assert_eq!(bars.len(), c.runs.len() * 4);
        for (g, run) in c.runs.iter().enumerate() {
            let group = &bars[g * 4..g * 4 + 4];
            let total: f64 = run.stations.iter().map(|s| s.goodput_mbps).sum();
            assert_eq!(group[3].2, total);
            assert_eq!(group[0].2, run.stations[0].goodput_mbps);
            // Bars of a group stay inside its slot and do not overlap.
            assert!(group[0].0 >= g as f64 - 0.5 && group[3].1 <= g as f64 + 0.5);
            assert!(group.windows(2).all(|w| w[0].1 < w[1].0));
        }
    }
}
