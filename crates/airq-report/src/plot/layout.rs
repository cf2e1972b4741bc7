//! The frame every figure shares: a white canvas, the title on top, a grid of panels, a
//! legend strip on the right; and the axis styling every panel uses.

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{Cartesian2d, ChartBuilder, ChartContext, DrawingArea, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, WHITE};

use super::axis::format_tick;
use crate::canvas::DrawFailure;
use crate::theme;

/// Width of the legend strip, pixels.
pub(crate) const LEGEND_STRIP_PX: u32 = 200;

/// The areas of a figure: panels in row-major order, and the legend strip.
pub(crate) struct Layout<DB: DrawingBackend> {
    pub(crate) panels: Vec<DrawingArea<DB, Shift>>,
    pub(crate) legend: DrawingArea<DB, Shift>,
}

/// Clears `root`, writes `title` and splits the rest into `panels` panels in
/// [`grid`]'s shape. The legend goes into the first spare cell of the grid if there is
/// one, else into a strip on the right.
pub(crate) fn layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    panels: usize,
    grid: (usize, usize),
) -> Result<Layout<DB>, DrawFailure> {
    root.fill(&WHITE)?;
    // The top margin keeps the title's ascenders well inside the canvas (SVG viewers place
    // text by their own font's metrics).
    let body = root.margin(10, 0, 0, 0).titled(title, theme::title())?;
    if grid.0 * grid.1 > panels {
        let mut cells = body.split_evenly(grid);
        let legend = cells.swap_remove(panels);
        cells.truncate(panels);
        return Ok(Layout {
            panels: cells,
            legend,
        });
    }
    let (width, _) = body.dim_in_pixel();
    let (main, legend) = body.split_horizontally(width.saturating_sub(LEGEND_STRIP_PX));
    Ok(Layout {
        panels: main.split_evenly(grid),
        legend,
    })
}

/// Canvas width for a grid of `cols` columns: the standard width, or wider so that no
/// panel is narrower than [`theme::MIN_PANEL_WIDTH`].
pub(crate) fn figure_width(cols: usize) -> u32 {
    theme::FIGURE_SIZE
        .0
        .max(LEGEND_STRIP_PX + cols as u32 * theme::MIN_PANEL_WIDTH)
}

/// Starts a chart in `panel` with a caption and room for tick labels and axis titles.
pub(crate) fn chart_in<'a, DB: DrawingBackend, X: Ranged, Y: Ranged>(
    panel: &'a DrawingArea<DB, Shift>,
    caption: &str,
    x: X,
    y: Y,
) -> Result<ChartContext<'a, DB, Cartesian2d<X, Y>>, DrawFailure> {
    Ok(ChartBuilder::on(panel)
        .caption(caption, theme::text(theme::PANEL_TITLE_PX))
        .margin(12)
        .margin_right(24)
        .x_label_area_size(58)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)?)
}

/// What a panel's axes say.
pub(crate) struct Axes<'f> {
    pub(crate) x_desc: &'f str,
    pub(crate) y_desc: &'f str,
    /// Maximum number of labelled ticks on each axis.
    pub(crate) x_labels: usize,
    pub(crate) y_labels: usize,
    /// The x axis names groups: its own labels, no vertical grid.
    pub(crate) x_categorical: bool,
    /// Light grid lines between labelled ticks on x and on y, at most (a log axis uses up
    /// to 9 a decade; linear axes look best with 1).
    pub(crate) light_lines: (usize, usize),
}

/// Draws grid, ticks and axis titles in the house style.
pub(crate) fn draw_mesh<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    axes: &Axes<'_>,
) -> Result<(), DrawFailure>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .axis_desc_style(theme::text(theme::AXIS_LABEL_PX))
        .label_style(theme::text(theme::TICK_PX))
        .bold_line_style(theme::GRID_COLOUR.stroke_width(1))
        .light_line_style(theme::GRID_COLOUR.mix(0.45))
        .x_labels(axes.x_labels)
        .y_labels(axes.y_labels)
        .x_max_light_lines(axes.light_lines.0)
        .y_max_light_lines(axes.light_lines.1)
        .y_label_formatter(&tick_label);
    if axes.x_categorical {
        mesh.disable_x_mesh();
    } else {
        mesh.x_label_formatter(&tick_label);
    }
    mesh.draw()?;
    Ok(())
}

/// Writes `note` (why a panel is empty) in the middle of a chart's plotting area.
pub(crate) fn draw_note<DB, X, Y>(
    chart: &ChartContext<'_, DB, Cartesian2d<X, Y>>,
    note: &str,
) -> Result<(), DrawFailure>
where
    DB: DrawingBackend,
    X: Ranged,
    Y: Ranged,
{
    let area = chart.plotting_area().strip_coord_spec();
    let (w, h) = area.dim_in_pixel();
    let style = theme::text(theme::AXIS_LABEL_PX)
        .color(&theme::TOTAL_COLOUR)
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw_text(note, &style, (w as i32 / 2, h as i32 / 2))?;
    Ok(())
}

/// How many tick labels fit across `panel` at about 50 pixels each.
pub(crate) fn labels_across<DB: DrawingBackend>(panel: &DrawingArea<DB, Shift>) -> usize {
    let (width, _) = panel.dim_in_pixel();
    (width.saturating_sub(100) / 50).max(2) as usize
}

fn tick_label(value: &f64) -> String {
    format_tick(*value)
}

/// A linear axis from 0 to a little above `max`, so the highest point is not on the frame.
pub(crate) fn zero_based(max: f64) -> RangedCoordf64 {
    let top = if max > 0.0 && max.is_finite() {
        max * 1.08
    } else {
        1.0
    };
    (0.0..top).into()
}
