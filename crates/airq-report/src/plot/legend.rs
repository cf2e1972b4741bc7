//! A shared legend drawn in its own strip beside the panels: one entry per station (or
//! design) for the whole figure, so the colours read the same in every panel and no
//! legend box hides data.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, PathElement, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor};

use super::layout::fit_text;
use super::marker::{draw_point, PointShape};
use crate::canvas::DrawFailure;
use crate::theme;

/// How an entry's sample looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Marker {
    /// A solid line, for line plots.
    Line,
    /// A dashed line, for a second series of the same colour.
    Dashed,
    /// A filled box, for bars.
    Box,
    /// A solid line through a point marker, for lines with markers at their points.
    LinePoint(PointShape),
}

/// One legend entry.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) label: String,
    pub(crate) colour: RGBColor,
    pub(crate) marker: Marker,
}

impl Entry {
    pub(crate) fn new(label: impl Into<String>, colour: RGBColor, marker: Marker) -> Self {
        Entry {
            label: label.into(),
            colour,
            marker,
        }
    }
}

const ROW_PX: i32 = 30;
const SAMPLE_PX: i32 = 34;
/// Left of the samples, and the gap between a sample and its label.
const LEFT_PX: i32 = 12;
const GAP_PX: i32 = 10;

/// The width `draw_legend` needs for `title` and `entries`' labels, pixels.
pub(crate) fn legend_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[Entry],
) -> Result<u32, DrawFailure> {
    let mut widest = area
        .estimate_text_size(title, &theme::text(theme::AXIS_LABEL_PX))?
        .0;
    for entry in entries {
        let (w, _) = area.estimate_text_size(&entry.label, &theme::text(theme::LEGEND_PX))?;
        widest = widest.max(w + (SAMPLE_PX + GAP_PX) as u32);
    }
    Ok(widest + 2 * LEFT_PX as u32)
}

/// `label`, cut short with an ellipsis if need be so that its entry fits in `width`
/// pixels.
pub(crate) fn fit_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    label: &str,
    width: u32,
) -> Result<String, DrawFailure> {
    let room = width.saturating_sub((2 * LEFT_PX + SAMPLE_PX + GAP_PX) as u32);
    fit_text(area, label, &theme::text(theme::LEGEND_PX), room)
}

/// Draws `title` and the entries top-down in `area`, starting `top` pixels down.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[Entry],
    top: i32,
) -> Result<(), DrawFailure> {
    let left = LEFT_PX;
    let mid = |row: i32| top + ROW_PX / 2 + row * ROW_PX;
    let label_style = theme::text(theme::LEGEND_PX).pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(
        title.to_string(),
        (left, mid(0)),
        theme::text(theme::AXIS_LABEL_PX).pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    for (i, entry) in entries.iter().enumerate() {
        let y = mid(i as i32 + 1);
        let (x0, x1) = (left, left + SAMPLE_PX);
        match entry.marker {
            Marker::Line => area.draw(&PathElement::new(
                vec![(x0, y), (x1, y)],
                entry.colour.stroke_width(3),
            ))?,
            Marker::Dashed => {
                for dash in 0..3 {
                    let a = x0 + dash * 13;
                    area.draw(&PathElement::new(
                        vec![(a, y), (a + 8, y)],
                        entry.colour.stroke_width(3),
                    ))?;
                }
            }
            Marker::Box => area.draw(&Rectangle::new(
                [(x0 + 6, y - 9), (x1 - 6, y + 9)],
                entry.colour.filled(),
            ))?,
            Marker::LinePoint(shape) => {
                area.draw(&PathElement::new(
                    vec![(x0, y), (x1, y)],
                    entry.colour.stroke_width(2),
                ))?;
                draw_point(area, shape, ((x0 + x1) / 2, y), entry.colour)?;
            }
        }
        area.draw(&Text::new(
            entry.label.clone(),
            (x1 + GAP_PX, y),
            label_style.clone(),
        ))?;
    }
    Ok(())
}
