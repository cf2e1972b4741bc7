//! The variant names under the boxes of a repetitions figure, laid out so that no two
//! overlap: in one row when every name keeps clear of its neighbours' (a long name beside
//! short ones reaches into their slots) and overhangs the outer slots by little; else in
//! two staggered rows (even slots above) by the same rule; else wrapped at the seams of a variant's name (after `_ + = , / : -` or a space, so
//! `airtime_aql+driver=firmware_push` reads "airtime_aql+" / "driver=" / "firmware_push")
//! in at most [`MAX_ROWS`] rows; else turned a quarter to read upwards, ending under its
//! box, cut short with an ellipsis past [`MAX_ROTATED_PX`]. Short names are staggered
//! rather than wrapped: "fq_" / "codel" reads worse than a name one row down. Every panel of a figure has slots of one width, so one layout
//! serves them all and their plotting areas line up.
//!
//! Text is measured with plotters' font metrics, which the PNG glyph renderer keeps
//! (`glyphs.rs`), before any canvas exists: the layout decides the canvas height.

use crate::theme;

/// Most rows a wrapped name may take.
pub(super) const MAX_ROWS: usize = 3;
/// Longest a turned name may be, pixels; "airtime_aql+driver=firmware_push" is ~220.
pub(super) const MAX_ROTATED_PX: u32 = 320;
/// Height of one row of names, pixels.
pub(super) const ROW_PX: u32 = 20;
/// Least space between two names side by side, pixels.
const GAP_PX: u32 = 8;
/// Most a name may reach past the outer slots' edges, pixels: the right margin of a panel
/// (`layout::chart_in`), so that it stays clear of the next panel's names.
const OVERHANG_PX: u32 = 24;

/// How the names are set.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum VariantLabels {
    /// Per variant, the lines of its name, centred under its box one above the other.
    Rows(Vec<Vec<String>>),
    /// Per variant, its name on one line, even slots in the upper row, odd in the lower.
    Staggered(Vec<String>),
    /// Per variant, its name turned to read upwards, ending under its box.
    Turned(Vec<String>),
}

impl VariantLabels {
    /// The layout of `names` under slots `slot_px` pixels wide.
    pub(super) fn fit(names: &[String], slot_px: u32) -> Self {
        let widths: Vec<u32> = names.iter().map(|n| width_px(n)).collect();
        if fits_in_rows(&widths, slot_px, 1) {
            return VariantLabels::Rows(names.iter().map(|n| vec![n.clone()]).collect());
        }
        if fits_in_rows(&widths, slot_px, 2) {
            return VariantLabels::Staggered(names.to_vec());
        }
        let room = slot_px.saturating_sub(GAP_PX);
        let wrapped: Option<Vec<Vec<String>>> = names.iter().map(|n| wrap(n, room)).collect();
        match wrapped {
            Some(lines) if lines.iter().all(|l| l.len() <= MAX_ROWS) => VariantLabels::Rows(lines),
            _ => VariantLabels::Turned(names.iter().map(|n| cut(n, MAX_ROTATED_PX)).collect()),
        }
    }

    /// Pixels the names take under their slot.
    pub(super) fn height_px(&self) -> u32 {
        match self {
            VariantLabels::Rows(lines) => {
                let rows = lines.iter().map(Vec::len).max().unwrap_or(1);
                rows as u32 * ROW_PX
            }
            VariantLabels::Staggered(_) => 2 * ROW_PX,
            VariantLabels::Turned(names) => names.iter().map(|n| width_px(n)).max().unwrap_or(0),
        }
    }
}

/// Whether names `widths` pixels wide, centred under slots `slot_px` wide and dealt in turn
/// to `rows` rows, keep [`GAP_PX`] from their neighbours in their row and reach at most
/// [`OVERHANG_PX`] past the outer slots.
fn fits_in_rows(widths: &[u32], slot_px: u32, rows: usize) -> bool {
    let slot = f64::from(slot_px);
    let centre = |i: usize| (i as f64 + 0.5) * slot;
    let half = |i: usize| f64::from(widths[i]) / 2.0;
    let end = widths.len() as f64 * slot;
    let inside = (0..widths.len()).all(|i| {
        centre(i) - half(i) >= -f64::from(OVERHANG_PX)
            && centre(i) + half(i) <= end + f64::from(OVERHANG_PX)
    });
    let apart = (rows..widths.len())
        .all(|j| centre(j - rows) + half(j - rows) + f64::from(GAP_PX) <= centre(j) - half(j));
    inside && apart
}

/// The width of `text` in tick-label type, pixels (0 if the font cannot measure it).
pub(super) fn width_px(text: &str) -> u32 {
    let style = theme::text(theme::TICK_PX);
    style.font.box_size(text).map_or(0, |(w, _)| w)
}

/// `name` in lines at most `room` pixels wide, broken only at its seams; `None` if a
/// piece between two seams is wider than that.
fn wrap(name: &str, room: u32) -> Option<Vec<String>> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces(name) {
        let longer = format!("{line}{piece}");
        if line.is_empty() || width_px(longer.trim_end()) <= room {
            line = longer;
        } else {
            lines.push(line.trim_end().to_string());
            line = piece;
        }
        if width_px(line.trim_end()) > room {
            return None;
        }
    }
    lines.push(line.trim_end().to_string());
    Some(lines)
}

/// `name` cut after each seam character: "a_b+c" is "a_", "b+", "c".
fn pieces(name: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in name.chars() {
        piece.push(c);
        if matches!(c, '_' | '+' | '=' | ',' | '/' | ':' | '-' | ' ') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// `text`, cut short with an ellipsis if need be so that it is at most `room` pixels wide.
pub(super) fn cut(text: &str, room: u32) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut fitted = text.to_string();
    while !chars.is_empty() && width_px(&fitted) > room {
        chars.pop();
        fitted = chars.iter().collect::<String>() + "…";
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn names_are_cut_at_their_seams() {
        assert_eq!(
            pieces("airtime_aql+driver=firmware_push"),
            ["airtime_", "aql+", "driver=", "firmware_", "push"]
        );
        assert_eq!(pieces("fifo"), ["fifo"]);
        assert_eq!(pieces("a b"), ["a ", "b"]);
    }

    #[test]
    fn names_keep_clear_of_their_neighbours() {
        // A 120 px name between 40 px ones in 100 px slots: 60 + 20 + 8 <= 100.
        assert!(fits_in_rows(&[40, 120, 40], 100, 1));
        assert!(!fits_in_rows(&[40, 120, 100], 100, 1));
        // At the ends, at most OVERHANG_PX past the outer slots.
        assert!(fits_in_rows(&[100 + 2 * OVERHANG_PX, 10], 200, 1));
        assert!(!fits_in_rows(&[100 + 2 * OVERHANG_PX + 2, 10], 100, 1));
        // Staggered, a name's neighbours in its row are two slots away.
        assert!(fits_in_rows(&[140, 140, 140], 100, 2));
        assert!(!fits_in_rows(&[140, 140, 140], 100, 1));
        assert!(fits_in_rows(&[], 100, 1));
    }

    #[test]
    fn short_names_take_one_row() {
        font::ensure_registered().unwrap();
        let labels = VariantLabels::fit(&names(&["fifo", "fq_mac"]), 120);
        assert_eq!(
            labels,
            VariantLabels::Rows(vec![vec!["fifo".into()], vec!["fq_mac".into()]])
        );
        assert_eq!(labels.height_px(), ROW_PX);
    }

    #[test]
    fn long_names_wrap_then_turn() {
        font::ensure_registered().unwrap();
        let long = "airtime_aql+driver=firmware_push";
        let all = names(&["fifo", long]);
        // In 50 px slots "airtime_aql" (~76 px) beside "fifo" takes a second row.
        let (a, b) = (width_px("airtime_aql"), width_px("fifo"));
        assert!((65..=90).contains(&a) && (15..=35).contains(&b), "{a} {b}");
        let three = names(&["airtime_aql", "fifo", "airtime_aql"]);
        let staggered = VariantLabels::fit(&three, 50);
        assert_eq!(staggered.height_px(), 2 * ROW_PX);
        assert!(matches!(staggered, VariantLabels::Staggered(_)));
        // ~220 px: in a 150 px slot it wraps at its seams, every line within the slot.
        let VariantLabels::Rows(lines) = VariantLabels::fit(&all, 150) else {
            panic!("not wrapped");
        };
        assert_eq!(lines[0], ["fifo"]);
        assert!(
            lines[1].len() > 1 && lines[1].len() <= MAX_ROWS,
            "{lines:?}"
        );
        assert_eq!(lines[1].concat(), long);
        assert!(lines[1].iter().all(|l| width_px(l) <= 150 - GAP_PX));
        // In a 50 px slot "firmware_" alone is too wide: the names turn, uncut.
        let turned = VariantLabels::fit(&all, 50);
        assert_eq!(turned, VariantLabels::Turned(all.clone()));
        assert_eq!(turned.height_px(), width_px(long));
        // Past MAX_ROTATED_PX a turned name is cut short.
        let longer = long.repeat(3);
        let VariantLabels::Turned(cut) = VariantLabels::fit(&names(&[&longer]), 50) else {
            panic!("not turned");
        };
        assert!(cut[0].ends_with('…') && width_px(&cut[0]) <= MAX_ROTATED_PX);
    }
}
