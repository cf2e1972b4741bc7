//! Airtime shares: one bar per AP design stacked from its stations' fractions of the busy
//! airtime, each segment labelled in percent; the form of Figure 3 of "Ending the
//! Anomaly" (USENIX ATC 2017), where the performance anomaly shows as the slow station
//! taking most of the bar and airtime fairness as equal thirds.
//!
//! With more stations than colours (see `stations.rs`) the bar still stacks every
//! station, so that it sums to the whole: the chosen stations at the bottom in their
//! colours, the others' sum above them in one grey segment.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, EmptyElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, BLACK, WHITE};

use super::axis::CategoryAxis;
use super::layout::{chart_in, draw_mesh, layout, Axes};
use super::legend::{draw_legend, Entry, Marker};
use super::StationColours;
use crate::canvas::{DrawFailure, Figure};
use crate::error::ReportError;
use crate::model::{Comparison, StationView};
use crate::theme;

/// Width of a bar, in group slots.
const BAR_WIDTH: f64 = 0.6;
/// Segments smaller than this (percent) get no label.
const MIN_LABELLED_PERCENT: f64 = 4.0;

/// The airtime-share figure.
pub(crate) struct Airtime<'c> {
    comparison: &'c Comparison,
    colours: StationColours,
}

impl<'c> Airtime<'c> {
    /// Refuses a comparison in which no station used any airtime.
    pub(crate) fn new(comparison: &'c Comparison) -> Result<Self, ReportError> {
        let any = comparison
            .runs
            .iter()
            .flat_map(|r| &r.stations)
            .any(|s| s.airtime_share > 0.0);
        if !any {
            return Err(ReportError::empty("every station's airtime_share is 0"));
        }
        Ok(Airtime {
            comparison,
            colours: StationColours::of(comparison),
        })
    }

    /// The segments as (design index, bottom %, top %, colour), bottom-up per design:
    /// the stations in the run's order, or when summarised the drawn ones in legend order
    /// and then one segment for all the others.
    fn segments(&self) -> Vec<(usize, f64, f64, RGBColor)> {
        let mut segments = Vec::new();
        for (g, run) in self.comparison.runs.iter().enumerate() {
            let mut shares: Vec<(f64, RGBColor)> = Vec::new();
            if self.colours.summarised() {
                for name in self.colours.drawn() {
                    if let Some(sta) = run.stations.iter().find(|s| s.name == name) {
                        shares.push((sta.airtime_share, self.colours.colour(name)));
                    }
                }
                let others = run
                    .stations
                    .iter()
                    .filter(|s| self.colours.drawn_position(&s.name).is_none());
                let others: f64 = others.map(|s| s.airtime_share).sum();
                shares.push((others, theme::OTHERS_COLOUR));
            } else {
                let colour = |s: &StationView| self.colours.colour(&s.name);
                shares.extend(run.stations.iter().map(|s| (s.airtime_share, colour(s))));
            }
            let mut bottom = 0.0;
            for (share, colour) in shares {
                let top = bottom + share * 100.0;
                segments.push((g, bottom, top, colour));
                bottom = top;
            }
        }
        segments
    }
}

impl Figure for Airtime<'_> {
    fn size(&self) -> (u32, u32) {
        theme::FIGURE_SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure> {
        let title = format!("{}: airtime share per station", self.comparison.scenario);
        let caption = self.colours.caption(&self.comparison.caption, "in grey");
        let frame = layout(root, &title, &caption, 1, (1, 1))?;
        let segments = self.segments();
        let top = segments.iter().map(|s| s.2).fold(100.0, f64::max);
        let names = self.comparison.runs.iter().map(|r| r.config.clone());
        let x = CategoryAxis::new(names.collect());
        let y: plotters::coord::types::RangedCoordf64 = (0.0..top).into();
        let mut chart = chart_in(&frame.panels[0], "", x, y)?;
        draw_mesh(
            &mut chart,
            &Axes {
                x_desc: "AP design",
                y_desc: "Share of busy airtime (%)",
                x_labels: 20,
                y_labels: 11,
                x_categorical: true,
                light_lines: (1, 1),
            },
        )?;
        let half = BAR_WIDTH / 2.0;
        chart.draw_series(segments.iter().map(|&(g, lo, hi, c)| {
            let g = g as f64;
            Rectangle::new([(g - half, lo), (g + half, hi)], c.filled())
        }))?;
        // Thin white seams between segments keep neighbours apart.
        chart.draw_series(segments.iter().map(|&(g, lo, hi, _)| {
            let g = g as f64;
            Rectangle::new([(g - half, lo), (g + half, hi)], WHITE.stroke_width(1))
        }))?;
        let labelled = segments
            .iter()
            .filter(|s| s.2 - s.1 >= MIN_LABELLED_PERCENT);
        chart.draw_series(labelled.map(|&(g, lo, hi, c)| {
            let mut style = theme::text(theme::TICK_PX).pos(Pos::new(HPos::Center, VPos::Center));
            style.color = label_colour(c).to_backend_color();
            EmptyElement::at((g as f64, (lo + hi) / 2.0))
                + Text::new(format!("{:.0}%", hi - lo), (0, 0), style)
        }))?;
        let mut entries = self.colours.entries(Marker::Box);
        if self.colours.summarised() {
            let others = format!("others ({})", self.colours.others());
            entries.push(Entry::new(others, theme::OTHERS_COLOUR, Marker::Box));
        }
        draw_legend(&frame.legend, "Station", &entries, 40)
    }
}

/// Black or white, whichever reads better on `fill` (relative luminance, ITU-R BT.709).
fn label_colour(fill: RGBColor) -> RGBColor {
    let luminance =
        (0.2126 * fill.0 as f64 + 0.7152 * fill.1 as f64 + 0.0722 * fill.2 as f64) / 255.0;
    if luminance > 0.5 {
        BLACK
    } else {
        WHITE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_comparison;

    #[test]
    fn segments_stack_to_the_share_sum() {
        let c = demo_comparison(4);
        let figure = Airtime::new(&c).unwrap();
        let segments = figure.segments();
        assert_eq!(segments.len(), 15);
        for g in 0..5 {
            let of: Vec<_> = segments.iter().filter(|s| s.0 == g).collect();
            assert_eq!(of[0].1, 0.0);
            assert!(of.windows(2).all(|w| w[0].2 == w[1].1));
            assert!((of[2].2 - 100.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_crowd_stacks_the_drawn_stations_under_the_others() {
        let c = crate::demo::crowd_comparison(30, 5.0, 0.5, 2);
        let figure = Airtime::new(&c).unwrap();
        let segments = figure.segments();
        assert_eq!(segments.len(), 3 * (theme::DISTINCT_STATIONS + 1));
        for g in 0..3 {
            let of: Vec<_> = segments.iter().filter(|s| s.0 == g).collect();
            assert!(of.windows(2).all(|w| w[0].2 == w[1].1));
            assert!((of.last().unwrap().2 - 100.0).abs() < 1e-9);
            assert_eq!(of.last().unwrap().3, theme::OTHERS_COLOUR);
        }
    }

    #[test]
    fn label_colour_contrasts() {
        assert_eq!(label_colour(RGBColor(0, 0x72, 0xB2)), WHITE);
        assert_eq!(label_colour(RGBColor(0xE6, 0x9F, 0x00)), BLACK);
    }

    #[test]
    fn zero_airtime_is_empty() {
        let mut c = demo_comparison(4);
        for sta in c.runs.iter_mut().flat_map(|r| &mut r.stations) {
            sta.airtime_share = 0.0;
        }
        assert!(matches!(
            Airtime::new(&c),
            Err(ReportError::EmptyData { .. })
        ));
    }
}
