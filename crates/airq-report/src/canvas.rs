//! Where figures meet files: the output format comes from the path's extension (`.png` or
//! `.svg`), the figure is drawn in memory on the matching plotters backend, and the bytes
//! are written in one go, so a bad path is an I/O error naming the file and no partial
//! image is left behind by a failed drawing. Text on PNGs is drawn by [`GlyphText`].

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::{BitMapBackend, DrawingArea, DrawingAreaErrorKind, DrawingBackend};
use plotters::prelude::{IntoDrawingArea, SVGBackend};

use crate::error::ReportError;
use crate::font;
use crate::glyphs::GlyphText;

/// The image formats a figure can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// 8-bit RGB PNG.
    Png,
    /// SVG 1.1 text.
    Svg,
}

impl Format {
    /// The format named by `path`'s extension (case-insensitive).
    pub(crate) fn of(path: &Path) -> Result<Format, ReportError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("svg") => Ok(Format::Svg),
            _ => Err(ReportError::UnsupportedExtension {
                path: path.to_path_buf(),
                expected: ".png or .svg",
            }),
        }
    }
}

/// A plotting library failure, as its message.
#[derive(Debug)]
pub(crate) struct DrawFailure(pub(crate) String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawFailure {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawFailure(e.to_string())
    }
}

/// Something that draws itself on any plotters backend.
pub(crate) trait Figure {
    /// Canvas size in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws onto the whole of `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawFailure>;
}

/// Draws `figure` and writes it to `path` in the format its extension names.
pub(crate) fn render(figure: &impl Figure, path: &Path) -> Result<(), ReportError> {
    let format = Format::of(path)?;
    font::ensure_registered()?;
    let size = figure.size();
    let failed = |e: DrawFailure| ReportError::Draw {
        path: path.to_path_buf(),
        message: e.0,
    };
    let bytes = match format {
        Format::Png => {
            let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let backend = BitMapBackend::with_buffer(&mut rgb, size);
                let root = GlyphText::new(backend, font::face()?).into_drawing_area();
                figure.draw(&root).map_err(failed)?;
                root.present().map_err(|e| failed(e.into()))?;
            }
            encode_png(&rgb, size).map_err(|message| ReportError::Draw {
                path: path.to_path_buf(),
                message,
            })?
        }
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                figure.draw(&root).map_err(failed)?;
                root.present().map_err(|e| failed(e.into()))?;
            }
            svg.into_bytes()
        }
    };
    std::fs::write(path, bytes).map_err(|e| ReportError::io(path, e))
}

/// Encodes an RGB buffer as PNG; the encoder writes no time stamp, so equal pixels give
/// equal files.
fn encode_png(rgb: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_follows_extension() {
        assert_eq!(Format::of(Path::new("a/b.PNG")).unwrap(), Format::Png);
        assert_eq!(Format::of(Path::new("b.svg")).unwrap(), Format::Svg);
        for bad in ["b.pdf", "b", "b.png.txt"] {
            assert!(matches!(
                Format::of(Path::new(bad)),
                Err(ReportError::UnsupportedExtension { .. })
            ));
        }
    }

    #[test]
    fn png_round_trips_through_the_decoder() {
        let rgb: Vec<u8> = (0..4 * 3 * 3).map(|i| i as u8).collect();
        let bytes = encode_png(&rgb, (4, 3)).unwrap();
        let mut reader = png::Decoder::new(&bytes[..]).read_info().unwrap();
        let mut back = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut back).unwrap();
        assert_eq!(back, rgb);
    }
}
