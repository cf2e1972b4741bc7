//! `airq plot RESULTS... -p PLOT [-o FILE]`: one figure redrawn from results files alone,
//! several files side by side as one comparison (one run per configuration, one
//! scenario), in the order of `airq list configs` whatever order a shell glob gave them.
//! `airq list plots` names the figures.

use super::Verbosity;
use crate::error::CliError;
use crate::export::draw_plot;
use crate::report_view::comparison;
use crate::results;
use airq_report::PlotKind;
use airq_sim::ap::PRESET_NAMES;
use std::path::{Path, PathBuf};

/// The default output file: `<scenario>-<plot>.png` in the current directory.
pub fn default_file_name(scenario: &str, kind: PlotKind) -> String {
    format!("{scenario}-{}.png", kind.name())
}

/// Loads every file, draws `plot` into `output` (default [`default_file_name`]) and says
/// where it went; several files must be runs of one experiment unless `allow_mixed`.
pub fn plot(
    paths: &[PathBuf],
    plot: &str,
    output: Option<&Path>,
    allow_mixed: bool,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    let kind = PlotKind::from_name(plot).ok_or_else(|| {
        CliError::new(format!(
            "--plot: no plot `{plot}` (`airq list plots` names them)"
        ))
    })?;
    let mut runs = paths
        .iter()
        .map(|p| Ok((p.as_path(), results::load(p)?)))
        .collect::<Result<Vec<_>, CliError>>()?;
    // Presets in the order each adds a layer of the fix; other names after them.
    runs.sort_by_key(|(_, r)| {
        PRESET_NAMES
            .iter()
            .position(|&p| p == r.metadata.config)
            .unwrap_or(PRESET_NAMES.len())
    });
    let c = comparison(runs.iter().map(|(p, r)| (*p, r)), allow_mixed)?;
    let path = output.map_or_else(
        || PathBuf::from(default_file_name(&c.scenario, kind)),
        Path::to_path_buf,
    );
    draw_plot(kind, &c, &path)?;
    if verbosity != Verbosity::Quiet {
        println!("plot: {}", path.display());
    }
    Ok(())
}
