//! The look shared by every figure: canvas sizes, text sizes and the colours that give each
//! station and each design the same colour in every panel. Station colours are the
//! Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"), which stays
//! distinguishable under the common forms of colour blindness.

use plotters::style::{FontDesc, FontStyle, RGBColor, TextStyle, BLACK};

use crate::font::FAMILY;

/// Size of every figure in pixels (SVG user units); wide figures grow with their panels.
pub(crate) const FIGURE_SIZE: (u32, u32) = (1200, 800);
/// Widest a panel of a per-design grid is allowed to shrink to, in pixels.
pub(crate) const MIN_PANEL_WIDTH: u32 = 360;

/// Text sizes in pixels.
pub(crate) const TITLE_PX: f64 = 30.0;
pub(crate) const CAPTION_PX: f64 = 18.0;
pub(crate) const PANEL_TITLE_PX: f64 = 22.0;
pub(crate) const AXIS_LABEL_PX: f64 = 19.0;
pub(crate) const TICK_PX: f64 = 16.0;
pub(crate) const LEGEND_PX: f64 = 16.0;

/// How many stations can be told apart by colour: a comparison with more draws this many
/// one by one and the rest as aggregates (see `plot/stations.rs`).
pub(crate) const DISTINCT_STATIONS: usize = STATION_COLOURS.len();

/// Colours of stations 0, 1, 2, ... (Okabe–Ito, yellow left out as too pale on white).
const STATION_COLOURS: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// Colour of the "total" bar and other aggregates.
pub(crate) const TOTAL_COLOUR: RGBColor = RGBColor(0x55, 0x55, 0x55);
/// Colour of the stations not drawn one by one (the "others" of a crowded figure).
pub(crate) const OTHERS_COLOUR: RGBColor = RGBColor(0xB8, 0xB8, 0xB8);
/// Fills of the bands summarising every station of a crowded figure: its minimum to its
/// maximum, and the middle half (first to third quartile) drawn over it.
pub(crate) const RANGE_BAND_COLOUR: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
pub(crate) const QUARTILE_BAND_COLOUR: RGBColor = RGBColor(0xC4, 0xC4, 0xC4);
/// Colours of lines that are not stations or known designs: the station palette, then
/// grey and Paul Tol's wine, olive and indigo ("Colour Schemes", SRON/EPS/TN/09-002), so
/// that ten lines take ten colours.
const LINE_COLOURS: [RGBColor; 11] = [
    STATION_COLOURS[0],
    STATION_COLOURS[1],
    STATION_COLOURS[2],
    STATION_COLOURS[3],
    STATION_COLOURS[4],
    STATION_COLOURS[5],
    STATION_COLOURS[6],
    RGBColor(0x88, 0x88, 0x88), // grey
    RGBColor(0x88, 0x22, 0x55), // wine
    RGBColor(0x99, 0x99, 0x33), // olive
    RGBColor(0x33, 0x22, 0x88), // indigo
];

/// Text colour of captions.
pub(crate) const CAPTION_COLOUR: RGBColor = RGBColor(0x44, 0x44, 0x44);
/// Light grid lines.
pub(crate) const GRID_COLOUR: RGBColor = RGBColor(0xE0, 0xE0, 0xE0);

/// The colour of station `index`; beyond the palette, colours repeat.
pub(crate) fn station_colour(index: usize) -> RGBColor {
    STATION_COLOURS[index % STATION_COLOURS.len()]
}

/// The colour of an AP design: the five known designs keep theirs whatever their order;
/// unknown ones take the palette in order.
pub(crate) fn design_colour(config: &str, index: usize) -> RGBColor {
    known_design_colour(config).unwrap_or_else(|| station_colour(index))
}

/// The fixed colour of a known AP design.
fn known_design_colour(config: &str) -> Option<RGBColor> {
    match config {
        "fifo" => Some(RGBColor(0x55, 0x55, 0x55)),
        "fq_codel" => Some(RGBColor(0xE6, 0x9F, 0x00)),
        "fq_mac" => Some(RGBColor(0x00, 0x9E, 0x73)),
        "airtime" => Some(RGBColor(0x00, 0x72, 0xB2)),
        "airtime_aql" => Some(RGBColor(0xCC, 0x79, 0xA7)),
        _ => None,
    }
}

/// Colours for lines named `names`, all different while the palette lasts: a known AP
/// design keeps its [`design_colour`] (so a sweep's "fq_mac" is the comparison plots'
/// "fq_mac"), every other name takes the first colour not yet taken.
pub(crate) fn line_colours(names: &[&str]) -> Vec<RGBColor> {
    let mut colours: Vec<Option<RGBColor>> = vec![None; names.len()];
    for (i, name) in names.iter().enumerate() {
        let colour = known_design_colour(name);
        if colour.is_some() && !colours.contains(&colour) {
            colours[i] = colour;
        }
    }
    for i in 0..names.len() {
        if colours[i].is_none() {
            let free = LINE_COLOURS.iter().find(|c| !colours.contains(&Some(**c)));
            colours[i] = Some(*free.unwrap_or(&LINE_COLOURS[i % LINE_COLOURS.len()]));
        }
    }
    colours.into_iter().flatten().collect()
}

/// A text style of the figure family at `px` pixels.
pub(crate) fn text(px: f64) -> TextStyle<'static> {
    FontDesc::new(FAMILY.into(), px, FontStyle::Normal).color(&BLACK)
}

/// The figure title style.
pub(crate) fn title() -> TextStyle<'static> {
    FontDesc::new(FAMILY.into(), TITLE_PX, FontStyle::Normal).color(&BLACK)
}

/// Rows and columns of a grid holding `panels` panels, at most three across.
pub(crate) fn grid_shape(panels: usize) -> (usize, usize) {
    match panels {
        0 | 1 => (1, 1),
        2 => (1, 2),
        3 => (1, 3),
        4 => (2, 2),
        n => (n.div_ceil(3), 3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_designs_keep_their_colour_in_any_position() {
        assert_eq!(design_colour("fq_mac", 0), design_colour("fq_mac", 4));
        assert_ne!(design_colour("fifo", 0), design_colour("airtime", 0));
        assert_eq!(station_colour(1), station_colour(8));
    }

    #[test]
    fn ten_lines_take_ten_colours_and_designs_keep_theirs() {
        let names = ["a", "fq_mac", "b", "c", "d", "e", "f", "g", "h", "fifo"];
        let colours = line_colours(&names);
        assert_eq!(colours.len(), 10);
        for (i, c) in colours.iter().enumerate() {
            assert!(!colours[..i].contains(c), "{} repeats a colour", names[i]);
        }
        assert_eq!(colours[1], design_colour("fq_mac", 0));
        assert_eq!(colours[9], design_colour("fifo", 0));
        // "a" takes the first free colour, "b" skips fq_mac's green.
        assert_eq!(colours[0], station_colour(0));
        assert_eq!(colours[2], station_colour(1));
        assert_eq!(colours[3], station_colour(3));
    }

    #[test]
    fn grid_holds_every_panel() {
        for n in 1..=9 {
            let (rows, cols) = grid_shape(n);
            assert!(rows * cols >= n && cols <= 3, "{n} panels in {rows}x{cols}");
        }
    }
}
