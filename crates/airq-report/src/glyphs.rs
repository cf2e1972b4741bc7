//! Text on bitmaps, placed glyph by glyph at its sub-pixel pen position with its side
//! bearing, on a common baseline. plotters' own `ab_glyph` text drops each glyph's left
//! side bearing and rounds each glyph's vertical offset on its own, which at tick-label
//! sizes opens gaps ("R TT"), lifts full stops off the baseline ("36·6") and sets
//! centred labels about a quarter of an em above their anchor. [`GlyphText`] wraps a
//! backend and draws text itself; everything else goes to the wrapped backend.
//!
//! Layout: the pen advances by each glyph's advance plus the pair's kerning (as plotters
//! measures text, so label areas keep their size); the text box is plotters' `size / 1.24`
//! high, and the baseline sits half a cap height below the box's middle, so capitals and
//! digits centre on a centred anchor.

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// plotters' text box height per pixel of font size (`estimate_layout` in its
/// `style/font/ab_glyph.rs`), kept so that layouts measured by plotters still fit.
const BOX_HEIGHT_PER_PX: f32 = 1.0 / 1.24;

/// A backend whose text is drawn with [`GlyphText::font`].
pub(crate) struct GlyphText<B> {
    inner: B,
    font: &'static FontRef<'static>,
}

impl<B: DrawingBackend> GlyphText<B> {
    /// `inner`, its text drawn in `font`.
    pub(crate) fn new(inner: B, font: &'static FontRef<'static>) -> Self {
        GlyphText { inner, font }
    }

    /// Each glyph of `text` at `size` px with its pen position relative to the text box's
    /// top left corner, and the box's width and height.
    fn layout(&self, text: &str, size: f32) -> (Vec<(GlyphId, f32)>, f32, f32) {
        let scaled = self.font.as_scaled(PxScale::from(size));
        let mut pen = 0.0;
        let mut previous: Option<GlyphId> = None;
        let mut glyphs = Vec::with_capacity(text.len());
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(p) = previous {
                pen += scaled.kern(p, id);
            }
            glyphs.push((id, pen));
            pen += scaled.h_advance(id);
            previous = Some(id);
        }
        (glyphs, pen, size * BOX_HEIGHT_PER_PX)
    }

    /// The baseline's distance below the box's top edge: half a cap height below its
    /// middle.
    fn baseline(&self, size: f32, box_height: f32) -> f32 {
        let cap = self
            .font
            .outline(self.font.glyph_id('H'))
            // ab_glyph keeps the outline's y-up bounds with min.y the top: a negative height.
            .map_or(0.7 * self.font.height_unscaled(), |o| {
                o.bounds.height().abs()
            });
        let cap_px = cap / self.font.height_unscaled() * size;
        (box_height + cap_px) / 2.0
    }
}

impl<B: DrawingBackend> DrawingBackend for GlyphText<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        let (_, width, height) = self.layout(text, style.size() as f32);
        Ok((width.ceil() as u32, height.ceil() as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size() as f32;
        let (glyphs, width, height) = self.layout(text, size);
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let dy = match anchor.v_pos {
            VPos::Top => 0.0,
            VPos::Center => -height / 2.0,
            VPos::Bottom => -height,
        };
        // On a whole pixel row, so that flat glyph bottoms (a full stop, "1") end crisply
        // on the same row as round ones.
        let baseline = (dy + self.baseline(size, height)).round();
        let transform = style.transform();
        let (w, h) = self.get_size();
        let scale = PxScale::from(size);
        for (id, pen) in glyphs {
            let glyph = id.with_scale_and_position(scale, point(dx + pen, baseline));
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue; // a space
            };
            let min = outline.px_bounds().min;
            let mut pixels = Vec::new();
            outline.draw(|x, y, coverage| {
                if coverage > 0.0 {
                    pixels.push((min.x as i32 + x as i32, min.y as i32 + y as i32, coverage));
                }
            });
            for (x, y, coverage) in pixels {
                let (x, y) = transform.transform(x, y);
                let (x, y) = (pos.0 + x, pos.1 + y);
                if x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h {
                    let ink = BackendColor {
                        alpha: color.alpha * f64::from(coverage.min(1.0)),
                        rgb: color.rgb,
                    };
                    self.inner.draw_pixel((x, y), ink)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font;
    use plotters::prelude::{BitMapBackend, IntoDrawingArea};
    use plotters::style::text_anchor::Pos;
    use plotters::style::{IntoFont, WHITE};

    /// Rows and columns holding ink (any channel below 128) after drawing `text` at
    /// `px`, anchored at `anchor` on (100, 50) of a 400x100 canvas.
    fn ink_at(px: f64, text: &str, anchor: Pos) -> (Vec<usize>, Vec<usize>) {
        let (w, h) = (400usize, 100usize);
        let mut rgb = vec![0u8; w * h * 3];
        {
            let backend = BitMapBackend::with_buffer(&mut rgb, (w as u32, h as u32));
            let root = GlyphText::new(backend, font::face().unwrap()).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let style = (font::FAMILY, px)
                .into_font()
                .color(&plotters::style::BLACK);
            root.draw_text(text, &style.pos(anchor), (100, 50)).unwrap();
        }
        let dark = |x: usize, y: usize| rgb[(y * w + x) * 3] < 128;
        let rows = (0..h).filter(|&y| (0..w).any(|x| dark(x, y))).collect();
        let cols = (0..w).filter(|&x| (0..h).any(|y| dark(x, y))).collect();
        (rows, cols)
    }

    /// [`ink_at`] 40 px.
    fn ink(text: &str, anchor: Pos) -> (Vec<usize>, Vec<usize>) {
        ink_at(40.0, text, anchor)
    }

    #[test]
    fn digits_and_a_full_stop_share_the_baseline() {
        // At tick-label sizes, where a pixel of rounding shows.
        for px in [11.0, 12.0, 13.0, 16.0] {
            let top_left = Pos::new(HPos::Left, VPos::Top);
            let (digits, _) = ink_at(px, "36", top_left);
            let (stop, _) = ink_at(px, "     .", top_left);
            assert_eq!(digits.last(), stop.last(), "{px} px: same lowest row");
        }
    }

    #[test]
    fn centred_capitals_centre_on_the_anchor() {
        let (rows, cols) = ink("HEH", Pos::new(HPos::Center, VPos::Center));
        let middle = (rows[0] + rows[rows.len() - 1]) as f64 / 2.0;
        assert!((middle - 50.0).abs() <= 1.0, "rows {rows:?}");
        let centre = (cols[0] + cols[cols.len() - 1]) as f64 / 2.0;
        assert!(
            (centre - 100.0).abs() <= 2.0,
            "columns {:?}",
            (cols[0], cols.last())
        );
    }

    #[test]
    fn a_glyphs_side_bearing_is_kept() {
        // "R" starts one left side bearing after the pen, not at it: 201 of DejaVu Sans's
        // 2048 units per em, and a 40 px font (ascent to descent, 2384 units) has an em of
        // 34.4 px, so 3.4 px.
        let (_, cols) = ink("R", Pos::new(HPos::Left, VPos::Top));
        let bearing = cols[0] as i32 - 100;
        assert!((3..=5).contains(&bearing), "{bearing}");
    }
}
