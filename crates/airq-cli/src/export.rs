//! Files drawn from results files with `airq-report`: the standard plots of a comparison
//! (what `compare` writes beside its results) and one flent data file per run (`--flent`),
//! which `flent -i FILE` loads, plots and compares with testbed measurements.

use crate::error::CliError;
use crate::report_view::{comparison, run_view};
use crate::results::{self, ResultsFile};
use crate::run_set;
use airq_report::flent::FLENT_SUFFIX;
use airq_report::{
    draw, draw_repetitions, write_flent, Comparison, PlotKind, RepetitionsFigure, RepetitionsPanel,
    ReportError,
};
use airq_sim::ap::PRESET_NAMES;
use std::path::{Path, PathBuf};

/// The plots `compare` draws: every kind the runs have data for (a latency CDF only when
/// some station pinged, queue depths only when some run had a firmware driver queue).
pub fn standard_plots(c: &Comparison) -> Vec<PlotKind> {
    let stations = || c.runs.iter().flat_map(|r| &r.stations);
    let pinged = stations().any(|s| !s.ping_rtt_ms.is_empty());
    let driver_queue = c.runs.iter().any(|r| {
        r.driver_queue
            .as_ref()
            .is_some_and(|q| !q.frames.is_empty())
    });
    PlotKind::ALL
        .into_iter()
        .filter(|k| match k {
            PlotKind::LatencyCdf => pinged,
            PlotKind::QueueDepth => driver_queue,
            PlotKind::Goodput | PlotKind::Airtime | PlotKind::Timeseries => true,
        })
        .collect()
}

/// The file name of a comparison's plot: `<scenario>-seed<N>-<plot>.png`.
pub fn plot_file_name(scenario: &str, seed: u64, kind: PlotKind) -> String {
    format!("{scenario}-seed{seed}-{}.png", kind.name())
}

/// Draws `kind` of `c` into `path` (PNG or SVG by its extension); a plot without data
/// says which scenarios have it.
pub fn draw_plot(kind: PlotKind, c: &Comparison, path: &Path) -> Result<(), CliError> {
    draw(kind, c, path).map_err(|e| {
        let hint = match (&e, kind) {
            (ReportError::EmptyData { .. }, PlotKind::LatencyCdf) => {
                " (the scenario needs a `ping` or `rrul` test)"
            }
            (ReportError::EmptyData { .. }, PlotKind::QueueDepth) => {
                " (only the firmware driver has one: `[ap] driver = \"firmware\"` or \
                 `--set ap.driver=firmware`)"
            }
            _ => "",
        };
        CliError::new(format!("cannot draw the {} plot: {e}{hint}", kind.name()))
    })
}

/// Draws the standard plots of `runs` (one scenario and seed; `paths` are their results
/// files, for errors) into `dir`; returns the files written, in [`PlotKind::ALL`] order.
pub fn write_standard_plots(
    runs: &[ResultsFile],
    paths: &[PathBuf],
    dir: &Path,
) -> Result<Vec<PathBuf>, CliError> {
    let c = comparison(paths.iter().map(PathBuf::as_path).zip(runs), false)?;
    let seed = runs[0].metadata.seed;
    let name = plot_stem(runs);
    standard_plots(&c)
        .into_iter()
        .map(|kind| {
            let path = dir.join(plot_file_name(&name, seed, kind));
            draw_plot(kind, &c, &path).map(|()| path)
        })
        .collect()
}

/// Draws the figure of repetitions — per variant, a box of its runs' values over the
/// seeds: total goodput, Jain's index, and the worst station's ping p99 when there are
/// pings — into `dir` as `<stem>-seeds<first>-<last>-repetitions.png`; `runs` seed by
/// seed, `variants` runs per seed, as `--seeds` makes them.
pub fn write_repetitions_plot(
    runs: &[ResultsFile],
    variants: usize,
    dir: &Path,
) -> Result<PathBuf, CliError> {
    let first = &runs[..variants];
    let by_variant = |v: usize| runs.iter().skip(v).step_by(variants);
    let panel = |y_label: &str, value: &dyn Fn(&ResultsFile) -> Option<f64>| {
        let mut lost = Vec::new();
        let values = (0..variants)
            .map(|v| {
                let all: Vec<Option<f64>> = by_variant(v).map(value).collect();
                lost.push(
                    all.iter()
                        .filter(|x| x.is_some_and(f64::is_infinite))
                        .count(),
                );
                all.into_iter()
                    .flatten()
                    .filter(|x| x.is_finite())
                    .collect()
            })
            .collect();
        RepetitionsPanel {
            y_label: y_label.to_string(),
            values,
            lost,
        }
    };
    let mut panels = vec![
        panel("total goodput, Mbit/s", &|r| Some(r.total_goodput_mbps())),
        panel("Jain's index of airtime shares", &|r| r.airtime_jain()),
    ];
    if runs.iter().any(|r| r.worst_ping_p99_ms().is_some()) {
        panels.push(panel("ping p99 of the worst station, ms", &|r| {
            r.worst_ping_p99_ms()
        }));
    }
    let m = &runs[0].metadata;
    let last_seed = runs[runs.len() - 1].metadata.seed;
    let window = if m.omit_s > 0.0 {
        format!("{} s to {} s", m.omit_s, m.duration_s)
    } else {
        format!("{} s", m.duration_s)
    };
    let figure = RepetitionsFigure {
        title: format!("{}: every run of every seed", m.scenario),
        caption: format!(
            "seeds {} to {last_seed}, {window} of each run; a box per design: quartiles, \
             median, min and max over the seeds",
            m.seed
        ),
        variants: first.iter().map(|r| r.metadata.variant.clone()).collect(),
        panels,
    };
    let path = dir.join(format!(
        "{}-seeds{}-{last_seed}-repetitions.png",
        plot_stem(first),
        m.seed
    ));
    draw_repetitions(&figure, &path)
        .map_err(|e| CliError::new(format!("cannot draw the repetitions plot: {e}")))?;
    Ok(path)
}

/// The name the plots of a comparison start with: the scenario and the command line's
/// settings (as results files name them), and the variants' names unless they are the
/// five presets, so that plots of other comparisons in one folder do not replace them.
fn plot_stem(runs: &[ResultsFile]) -> String {
    let m = &runs[0].metadata;
    let ap_suffix = run_set::ap_suffix(&m.overrides);
    let settings = results::file_label(&ap_suffix, &m.overrides);
    let names: Vec<&str> = runs
        .iter()
        .map(|r| {
            let v = &r.metadata.variant;
            v.strip_suffix(&ap_suffix).unwrap_or(v)
        })
        .collect();
    let presets = names == PRESET_NAMES && runs.iter().all(|r| r.metadata.variant_set.is_empty());
    let variants = if presets {
        String::new()
    } else {
        format!("-{}", results::file_label(&names.join(","), &[]))
    };
    format!("{}{settings}{variants}", m.scenario)
}

/// The flent file name of a run: `<scenario>-<config>-seed<N>.flent.gz`, beside its
/// results file.
pub fn flent_file_name(scenario: &str, config: &str, seed: u64) -> String {
    format!("{scenario}-{config}-seed{seed}{FLENT_SUFFIX}")
}

/// flent's `TITLE` of a run, which labels it in flent's plots of several files:
/// `<scenario> (<variant>[, <other --set>…], seed <N>)`, so that seeds and the points
/// of a sweep read apart.
fn flent_title(m: &results::Metadata) -> String {
    let mut parts = vec![m.variant.clone()];
    parts.extend(m.unlabelled_overrides());
    parts.push(format!("seed {}", m.seed));
    format!("{} ({})", m.scenario, parts.join(", "))
}

/// Writes the flent data file of each run into `dir`; returns the files written.
pub fn write_flent_files(runs: &[ResultsFile], dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    runs.iter()
        .map(|r| {
            let m = &r.metadata;
            let path = dir.join(flent_file_name(&m.scenario, &m.file_label(), m.seed));
            let view = run_view(r).map_err(|e| e.context(format!("flent {}", path.display())))?;
            write_flent(&view, &m.scenario, &flent_title(m), &path)
                .map_err(|e| CliError::new(format!("cannot write the flent file: {e}")))?;
            Ok(path)
        })
        .collect()
}
