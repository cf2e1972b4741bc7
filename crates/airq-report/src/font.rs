//! The embedded typeface. plotters' `ab_glyph` feature draws text only with fonts
//! registered at run time, so DejaVu Sans (fonts/DejaVuSans.ttf, Bitstream Vera licence in
//! fonts/LICENSE-DejaVu.txt) is compiled into the crate and registered once as
//! "sans-serif": PNGs render the same on any machine, with no system fonts installed. SVGs
//! name the same family and let the viewer pick its sans-serif face.

use std::sync::OnceLock;

use ab_glyph::FontRef;
use plotters::style::{register_font, FontStyle};

use crate::error::ReportError;

/// The family name every text style of this crate uses.
pub(crate) const FAMILY: &str = "sans-serif";

static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Registers the embedded font with plotters; later calls return the first call's outcome.
pub(crate) fn ensure_registered() -> Result<(), ReportError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS).is_ok());
    if ok {
        Ok(())
    } else {
        Err(ReportError::invalid(
            "embedded font DejaVuSans.ttf",
            "ab_glyph could not parse it",
        ))
    }
}

/// The embedded face, parsed once, for text drawn by [`crate::glyphs`].
pub(crate) fn face() -> Result<&'static FontRef<'static>, ReportError> {
    static FACE: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FACE.get_or_init(|| FontRef::try_from_slice(DEJAVU_SANS).ok())
        .as_ref()
        .ok_or_else(|| {
            ReportError::invalid(
                "embedded font DejaVuSans.ttf",
                "ab_glyph could not parse it",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_registers_and_measures_text() {
        ensure_registered().unwrap();
        let font = plotters::style::FontDesc::new(FAMILY.into(), 20.0, FontStyle::Normal);
        let (w, _) = font.box_size("Goodput (Mbit/s)").unwrap();
        // 16 characters at 20 px: DejaVu Sans averages ~0.55 em per character.
        assert!((120..=220).contains(&w), "width {w}");
    }
}
