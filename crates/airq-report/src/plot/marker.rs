//! Point markers for line plots with markers at their data points: five filled shapes that
//! tell lines apart where colours repeat or cannot be told apart (a printed page in grey,
//! colour blindness), in the manner of matplotlib's `o s ^ D v` cycle. Each shape sits on
//! a white halo so a marker stays readable where other lines cross it.

use plotters::coord::Shift;
use plotters::prelude::{Circle, DrawingArea, DrawingBackend, Polygon};
use plotters::style::{Color, RGBColor, WHITE};

use crate::canvas::DrawFailure;

/// A marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointShape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
}

impl PointShape {
    /// Shapes in the order lines take them.
    const CYCLE: [PointShape; 5] = [
        PointShape::Circle,
        PointShape::Square,
        PointShape::TriangleUp,
        PointShape::Diamond,
        PointShape::TriangleDown,
    ];

    /// The shape of line `index`; beyond the cycle, shapes repeat.
    pub(crate) fn nth(index: usize) -> PointShape {
        Self::CYCLE[index % Self::CYCLE.len()]
    }

    /// The corners of the shape around `(x, y)`, `r` pixels being the radius of a circle
    /// of about the same ink; `None` for the circle.
    fn corners(self, (x, y): (i32, i32), r: f64) -> Option<Vec<(i32, i32)>> {
        let unit: &[(f64, f64)] = match self {
            PointShape::Circle => return None,
            PointShape::Square => &[(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)],
            PointShape::TriangleUp => &[(0.0, -1.35), (1.2, 0.8), (-1.2, 0.8)],
            PointShape::Diamond => &[(0.0, -1.3), (1.3, 0.0), (0.0, 1.3), (-1.3, 0.0)],
            PointShape::TriangleDown => &[(0.0, 1.35), (1.2, -0.8), (-1.2, -0.8)],
        };
        let at = |(dx, dy): (f64, f64)| (x + (dx * r).round() as i32, y + (dy * r).round() as i32);
        Some(unit.iter().copied().map(at).collect())
    }
}

/// Radius of a marker, pixels.
pub(crate) const POINT_PX: f64 = 5.0;
/// Width of the white halo around a marker, pixels.
const HALO_PX: f64 = 1.5;

/// Draws a `shape` marker of `colour` centred on pixel `at` of `area`.
pub(crate) fn draw_point<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shape: PointShape,
    at: (i32, i32),
    colour: RGBColor,
) -> Result<(), DrawFailure> {
    for (r, style) in [
        (POINT_PX + HALO_PX, WHITE.filled()),
        (POINT_PX, colour.filled()),
    ] {
        match shape.corners(at, r) {
            None => area.draw(&Circle::new(at, r.round() as i32, style))?,
            Some(corners) => area.draw(&Polygon::new(corners, style))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_cycle_and_surround_their_centre() {
        assert_eq!(PointShape::nth(0), PointShape::Circle);
        assert_eq!(PointShape::nth(5), PointShape::Circle);
        assert_ne!(PointShape::nth(1), PointShape::nth(2));
        for shape in PointShape::CYCLE.into_iter().skip(1) {
            let corners = shape.corners((100, 50), POINT_PX).unwrap();
            let (xs, ys): (Vec<i32>, Vec<i32>) = corners.into_iter().unzip();
            let (x0, x1) = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
            let (y0, y1) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
            assert!(x0 < 100 && 100 < x1 && y0 < 50 && 50 < y1, "{shape:?}");
            assert!(x1 - x0 <= 14 && y1 - y0 <= 14, "{shape:?} too big");
        }
    }
}
