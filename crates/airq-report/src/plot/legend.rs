//! A shared legend drawn in its own strip beside the panels: one entry per station (or
//! design) for the whole figure, so the colours read the same in every panel and no
//! legend box hides data. A legend never runs off its strip: entries that do not fit are
//! summed up in a last line, "… and N more", and labels too wide are cut short.

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
    /// No sample: a line of text, such as "… and 3 more".
    Blank,
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

/// `entries` as they fit in `rows` rows: all of them if they fit, else as many as leave a
/// row for a last line saying how many more there are.
pub(crate) fn fit_entries(entries: &[Entry], rows: usize) -> Vec<Entry> {
    if entries.len() <= rows {
        return entries.to_vec();
    }
    let shown = rows.saturating_sub(1);
    let mut fitted = entries[..shown].to_vec();
    if rows > 0 {
        let more = format!("… and {} more", entries.len() - shown);
        fitted.push(Entry::new(more, theme::CAPTION_COLOUR, Marker::Blank));
    }
    fitted
}

/// Draws `title` and the entries top-down in `area`, starting `top` pixels down; entries
/// are fitted to the area (see [`fit_entries`], [`fit_label`]).
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[Entry],
    top: i32,
) -> Result<(), DrawFailure> {
    let (width, height) = area.dim_in_pixel();
    // The title takes the first row.
    let rows = ((height as i32 - top) / ROW_PX - 1).max(0) as usize;
    let mut entries = fit_entries(entries, rows);
    for entry in &mut entries {
        entry.label = fit_label(area, &entry.label, width)?;
    }
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
            Marker::Blank => {}
        }
        let (x, style) = match entry.marker {
            Marker::Blank => (x0, label_style.color(&entry.colour)),
            _ => (x1 + GAP_PX, label_style.clone()),
        };
        area.draw(&Text::new(entry.label.clone(), (x, y), style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::style::BLACK;

    fn entries(n: usize) -> Vec<Entry> {
        (0..n)
            .map(|i| Entry::new(format!("s{i}"), BLACK, Marker::Line))
            .collect()
    }

    #[test]
    fn entries_that_fit_are_kept() {
        let fitted = fit_entries(&entries(4), 4);
        assert_eq!(fitted.len(), 4);
        assert_eq!(fitted[3].label, "s3");
        assert_eq!(fit_entries(&entries(0), 0).len(), 0);
    }

    #[test]
    fn the_rest_is_counted_in_a_last_line() {
        let fitted = fit_entries(&entries(30), 10);
        assert_eq!(fitted.len(), 10);
        assert_eq!(fitted[8].label, "s8");
        assert_eq!(fitted[9].label, "… and 21 more");
        assert_eq!(fitted[9].marker, Marker::Blank);
        let fitted = fit_entries(&entries(3), 1);
        assert_eq!(fitted.len(), 1);
        assert_eq!(fitted[0].label, "… and 3 more");
        assert!(fit_entries(&entries(3), 0).is_empty());
    }
}
