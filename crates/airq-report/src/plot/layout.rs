//! The frame every figure shares: a white canvas, the title on top with a caption under it
//! (what produced the data), a grid of panels, a legend strip on the right; and the axis
//! styling every panel uses.

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::{Cartesian2d, ChartBuilder, ChartContext, DrawingArea, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, TextStyle, WHITE};

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

/// Clears `root`, writes `title` and `caption` (see [`heading`]) and splits the rest into
/// `panels` panels in [`grid`]'s shape. The legend goes into the first spare cell of the
/// grid if there is one, else into a strip on the right.
pub(crate) fn layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    caption: &str,
    panels: usize,
    grid: (usize, usize),
) -> Result<Layout<DB>, DrawFailure> {
    let body = heading(root, title, caption)?;
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

/// Clears `root` and writes `title` on top and `caption` under it in smaller grey type,
/// wrapped at spaces to the canvas width, a newline starting a new line (nothing when
/// empty); returns the area below.
pub(crate) fn heading<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    caption: &str,
) -> Result<DrawingArea<DB, Shift>, DrawFailure> {
    root.fill(&WHITE)?;
    // The top margin keeps the title's ascenders well inside the canvas (SVG viewers place
    // text by their own font's metrics).
    let mut body = root.margin(10, 0, 0, 0).titled(title, theme::title())?;
    let style = theme::text(theme::CAPTION_PX).color(&theme::CAPTION_COLOUR);
    let (width, _) = root.dim_in_pixel();
    let room = width.saturating_sub(2 * CAPTION_SIDE_PX);
    let fits = |text: &str| {
        root.estimate_text_size(text, &style)
            .map_or(true, |(w, _)| w <= room)
    };
    for line in caption.lines().flat_map(|paragraph| wrap(paragraph, fits)) {
        body = body.titled(&line, style.clone())?;
    }
    Ok(body)
}

/// Space kept free on either side of a caption line, pixels.
const CAPTION_SIDE_PX: u32 = 40;

/// `text` cut into lines at spaces, each as long as `fits` allows (a word too long for a
/// line gets a line of its own); an option ("--set") stays on the line of its value.
fn wrap(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match words.last_mut() {
            Some(option) if option.starts_with("--") && !option.contains(' ') => {
                option.push(' ');
                option.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in &words {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || fits(&longer) {
            line = longer;
        } else {
            lines.push(std::mem::replace(&mut line, word.clone()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Canvas width for a grid of `cols` columns: the standard width, or wider so that no
/// panel is narrower than [`theme::MIN_PANEL_WIDTH`].
pub(crate) fn figure_width(cols: usize) -> u32 {
    theme::FIGURE_SIZE
        .0
        .max(LEGEND_STRIP_PX + cols as u32 * theme::MIN_PANEL_WIDTH)
}

/// Room left of and below a chart's plotting area for tick labels and axis titles, and
/// its margins, pixels.
const Y_LABEL_AREA_PX: u32 = 70;
pub(crate) const X_LABEL_AREA_PX: u32 = 58;
const MARGIN_PX: u32 = 12;
const MARGIN_RIGHT_PX: u32 = 24;

/// Starts a chart in `panel` with a caption and room for tick labels and axis titles.
pub(crate) fn chart_in<'a, DB: DrawingBackend, X: Ranged, Y: Ranged>(
    panel: &'a DrawingArea<DB, Shift>,
    caption: &str,
    x: X,
    y: Y,
) -> Result<ChartContext<'a, DB, Cartesian2d<X, Y>>, DrawFailure> {
    chart_with_x_area(panel, caption, x, y, X_LABEL_AREA_PX)
}

/// [`chart_in`] with `x_area_px` pixels under the plotting area for the x tick labels and
/// axis title (the title at the bottom), for labels in more than one row.
pub(crate) fn chart_with_x_area<'a, DB: DrawingBackend, X: Ranged, Y: Ranged>(
    panel: &'a DrawingArea<DB, Shift>,
    caption: &str,
    x: X,
    y: Y,
    x_area_px: u32,
) -> Result<ChartContext<'a, DB, Cartesian2d<X, Y>>, DrawFailure> {
    Ok(ChartBuilder::on(panel)
        .caption(caption, theme::text(theme::PANEL_TITLE_PX))
        .margin(MARGIN_PX)
        .margin_right(MARGIN_RIGHT_PX)
        .x_label_area_size(x_area_px)
        .y_label_area_size(Y_LABEL_AREA_PX)
        .build_cartesian_2d(x, y)?)
}

/// Width of the plotting area [`chart_in`] makes in `panel`, pixels.
pub(crate) fn plotting_width<DB: DrawingBackend>(panel: &DrawingArea<DB, Shift>) -> u32 {
    let (width, _) = panel.dim_in_pixel();
    width.saturating_sub(Y_LABEL_AREA_PX + MARGIN_PX + MARGIN_RIGHT_PX)
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

/// `text`, cut short with an ellipsis if need be so that it is at most `width` pixels wide
/// in `style`.
pub(crate) fn fit_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle<'_>,
    width: u32,
) -> Result<String, DrawFailure> {
    let mut chars: Vec<char> = text.chars().collect();
    let mut fitted = text.to_string();
    while !chars.is_empty() && area.estimate_text_size(&fitted, style)?.0 > width {
        chars.pop();
        fitted = chars.iter().collect::<String>() + "…";
    }
    Ok(fitted)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_wrap_at_spaces() {
        let fits = |s: &str| s.chars().count() <= 10;
        assert_eq!(wrap("", fits), Vec::<String>::new());
        assert_eq!(wrap("seed 1 · 30 s", fits), ["seed 1 ·", "30 s"]);
        assert_eq!(
            wrap("a  verylongwordindeed b", fits),
            ["a", "verylongwordindeed", "b"]
        );
        assert_eq!(wrap("x --set a=1", fits), ["x", "--set a=1"]);
    }
}
