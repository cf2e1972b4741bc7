//! Mean goodput per station and in total, bars grouped by AP design, each bar labelled
//! with its value: the form of Figure 4 of "Ending the Anomaly" (USENIX ATC 2017), where
//! airtime fairness shows as the fast stations' bars rising while the slow one's barely
//! moves.
//!
//! With more stations than colours (see `stations.rs`) each design shows the chosen
//! stations' bars, a box plot of all its stations' goodput (whiskers at the minimum and
//! maximum, the box from the first to the third quartile, a line at the median), and the
//! totals move to a panel of their own. A value label is drawn only where it fits over
//! its bar.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, EmptyElement, PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, BLACK};

use super::axis::CategoryAxis;
use super::layout::{chart_in, draw_mesh, figure_width, layout, zero_based, Axes};
use super::legend::{draw_legend, Entry, Marker};
use super::stations::FiveNumbers;
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::{Comparison, RunView};
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

    /// Slots of a group: the drawn stations', then the box plot's when stations are
    /// summarised (the totals then have a panel of their own), else the total's.
    fn slots(&self) -> usize {
        self.colours.drawn().count() + 1
    }

    /// The x extent of slot `k` of group `g`, the bar's share of it.
    fn place(&self, g: usize, k: usize) -> (f64, f64) {
        let slot = GROUP_WIDTH / self.slots() as f64;
        let centre = g as f64 - GROUP_WIDTH / 2.0 + (k as f64 + 0.5) * slot;
        let half = slot * BAR_FILL / 2.0;
        (centre - half, centre + half)
    }

    /// The bars as (x from, x to, Mbit/s, colour): drawn stations in legend order, then
    /// the total unless stations are summarised.
    fn bars(&self) -> Vec<(f64, f64, f64, RGBColor)> {
        let mut bars = Vec::new();
        for (g, run) in self.comparison.runs.iter().enumerate() {
            for sta in &run.stations {
                if let Some(k) = self.colours.drawn_position(&sta.name) {
                    let (x0, x1) = self.place(g, k);
                    bars.push((x0, x1, sta.goodput_mbps, self.colours.colour(&sta.name)));
                }
            }
            if !self.colours.summarised() {
                let (x0, x1) = self.place(g, self.slots() - 1);
                bars.push((x0, x1, total_mbps(run), theme::TOTAL_COLOUR));
            }
        }
        bars
    }

    /// When stations are summarised, the total bars of their own panel.
    fn totals(&self) -> Vec<(f64, f64, f64, RGBColor)> {
        let runs = self.comparison.runs.iter().enumerate();
        let half = TOTAL_BAR_WIDTH / 2.0;
        runs.map(|(g, run)| {
            let g = g as f64;
            (g - half, g + half, total_mbps(run), theme::TOTAL_COLOUR)
        })
        .collect()
    }

    /// Per design, when stations are summarised, the x extent of its box plot and the
    /// summary of all its stations' goodput.
    fn boxes(&self) -> Vec<(f64, f64, FiveNumbers)> {
        if !self.colours.summarised() {
            return Vec::new();
        }
        let k = self.slots() - 1;
        let runs = self.comparison.runs.iter().enumerate();
        runs.filter_map(|(g, run)| {
            let summary = FiveNumbers::of(run.stations.iter().map(|s| s.goodput_mbps))?;
            let (x0, x1) = self.place(g, k);
            Some((x0, x1, summary))
        })
        .collect()
    }

    /// Draws `bars` and `boxes` in `panel` on a y axis from 0, each bar labelled with its
    /// value where the label fits in `slot` (x units).
    fn draw_bars<DB: DrawingBackend>(
        &self,
        panel: &DrawingArea<DB, Shift>,
        caption: &str,
        bars: &[(f64, f64, f64, RGBColor)],
        boxes: &[(f64, f64, FiveNumbers)],
        slot: f64,
    ) -> Result<(), DrawFailure> {
        let max = bars.iter().map(|b| b.2);
        let max = max.chain(boxes.iter().map(|b| b.2.max)).fold(0.0, f64::max);
        let names = self.comparison.runs.iter().map(|r| r.config.clone());
        let x = CategoryAxis::new(names.collect());
        let mut chart = chart_in(panel, caption, x, zero_based(max * 1.05))?;
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
        chart.draw_series(boxes.iter().map(|&(x0, x1, ref f)| {
            Rectangle::new([(x0, f.q1), (x1, f.q3)], theme::OTHERS_COLOUR.filled())
        }))?;
        for (x0, x1, f) in boxes {
            chart.draw_series(box_plot(*x0, *x1, f))?;
        }
        // A label wider than its bar's slot would run into its neighbours': left out.
        let label_style = theme::text(13.0).pos(Pos::new(HPos::Center, VPos::Bottom));
        let slot_px = chart.backend_coord(&(slot, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0;
        let mut labels = Vec::new();
        for &(x0, x1, v, _) in bars {
            let text = if v < 1.0 {
                format!("{v:.2}")
            } else {
                format!("{v:.1}")
            };
            let (w, _) = panel.estimate_text_size(&text, &label_style)?;
            if w as i32 <= slot_px {
                labels.push(
                    EmptyElement::at(((x0 + x1) / 2.0, v))
                        + Text::new(text, (0, -4), label_style.clone()),
                );
            }
        }
        chart.draw_series(labels)?;
        Ok(())
    }
}

/// Width of a total bar in its own panel, in group slots.
const TOTAL_BAR_WIDTH: f64 = 0.5;

fn total_mbps(run: &RunView) -> f64 {
    run.stations.iter().map(|s| s.goodput_mbps).sum()
}

/// Draws a box plot over x0..x1: whiskers from the minimum to the maximum with caps half
/// the box wide, the box from the first to the third quartile, the median across it.
fn box_plot(x0: f64, x1: f64, f: &FiveNumbers) -> Vec<PathElement<(f64, f64)>> {
    let (mid, quarter) = ((x0 + x1) / 2.0, (x1 - x0) / 4.0);
    let line =
        |points: Vec<(f64, f64)>| PathElement::new(points, theme::TOTAL_COLOUR.stroke_width(1));
    vec![
        line(vec![(mid, f.min), (mid, f.q1)]),
        line(vec![(mid, f.q3), (mid, f.max)]),
        line(vec![(mid - quarter, f.min), (mid + quarter, f.min)]),
        line(vec![(mid - quarter, f.max), (mid + quarter, f.max)]),
        line(vec![
            (x0, f.q1),
            (x1, f.q1),
            (x1, f.q3),
            (x0, f.q3),
            (x0, f.q1),
        ]),
        PathElement::new(vec![(x0, f.median), (x1, f.median)], BLACK.stroke_width(2)),
    ]
}

impl Figure for Goodput<'_> {
    fn size(&self) -> (u32, u32) {
        if self.colours.summarised() {
            // A group of eight slots per design beside the totals' panel.
            (
                figure_width(self.comparison.runs.len()),
                theme::FIGURE_SIZE.1,
            )
        } else {
            theme::FIGURE_SIZE
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let title = format!("{}: goodput per station", self.comparison.scenario);
        let caption = self
            .colours
            .caption(&self.comparison.caption, "in the box plots");
        let frame = layout(root, &title, &caption, 1, (1, 1))?;
        let slot = GROUP_WIDTH / self.slots() as f64;
        let mut entries = self.colours.entries(Marker::Box);
        if self.colours.summarised() {
            // The total is some tens of stations' goodput: on the stations' axis it
            // would flatten their bars, so it has a narrow panel and an axis of its own.
            let (width, _) = frame.panels[0].dim_in_pixel();
            let share = 0.2 + 0.04 * self.comparison.runs.len() as f64;
            let split = (width as f64 * (1.0 - share.min(0.4))) as u32;
            let (stations, totals) = frame.panels[0].split_horizontally(split);
            self.draw_bars(&stations, "Per station", &self.bars(), &self.boxes(), slot)?;
            self.draw_bars(&totals, "Total", &self.totals(), &[], 1.0)?;
            let all = format!("all {} stations", self.colours.names().len());
            entries.push(Entry::new(all, theme::OTHERS_COLOUR, Marker::Box));
        } else {
            self.draw_bars(&frame.panels[0], "", &self.bars(), &[], slot)?;
        }
        entries.push(Entry::new("total", theme::TOTAL_COLOUR, Marker::Box));
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_comparison;

    #[test]
    fn a_crowd_has_the_drawn_bars_a_box_plot_and_totals_apart() {
        let c = crate::demo::crowd_comparison(30, 5.0, 0.5, 2);
        let figure = Goodput::new(&c).unwrap();
        let drawn = theme::DISTINCT_STATIONS;
        assert_eq!(figure.bars().len(), c.runs.len() * drawn);
        let boxes = figure.boxes();
        assert_eq!(boxes.len(), c.runs.len());
        for (g, run) in c.runs.iter().enumerate() {
            let (x0, x1, f) = boxes[g];
            // The box plot takes the slot after the group's last bar.
            assert!(figure.bars()[g * drawn + drawn - 1].1 < x0 && x1 <= g as f64 + 0.5);
            let min = run
                .stations
                .iter()
                .map(|s| s.goodput_mbps)
                .fold(f64::MAX, f64::min);
            assert_eq!(f.min, min);
            assert!(f.min <= f.q1 && f.q1 <= f.median && f.median <= f.q3 && f.q3 <= f.max);
            assert_eq!(figure.totals()[g].2, total_mbps(run));
        }
    }

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
