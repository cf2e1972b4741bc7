//! `airq reproduce`: runs every experiment of `experiments/` (each a scenario, the
//! variants the seed compares, its length and seeds, and the seed's findings as checks),
//! and writes one report — Markdown, HTML and JSON — with a section per experiment: what
//! the seed found, what we measure (mean ± 95% CI over seeds), the figures, and a verdict
//! by the rule of [`verdict`]. `--quick` runs the experiments' short forms (CI).

pub mod document;
pub mod manifest;
pub mod metric;
mod section;
pub mod verdict;

use super::{check_outputs, results_path, run_and_write, Verbosity};
use crate::cli::RunArgs;
use crate::error::{io_error, CliError};
use crate::execute::default_jobs;
use crate::export::{write_repetitions_plot, write_standard_plots};
use crate::outputs;
use crate::results::ResultsFile;
use crate::run_set::RunSpec;
use document::Block;
use manifest::{Loaded, SeedFigures};
use serde::Serialize;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use verdict::Verdict;

/// What `airq reproduce` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The folder of experiment files and `seed-figures.toml`.
    pub experiments: PathBuf,
    /// Where the report, results and figures go.
    pub output: PathBuf,
    /// The short forms.
    pub quick: bool,
    /// Only these experiments (numbers); all when empty.
    pub only: Vec<u32>,
    /// Replace results files of other runs.
    pub force: bool,
    /// Worker threads.
    pub jobs: Option<usize>,
}

/// One experiment's outcome, as `report.json` holds it.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Its number.
    pub experiment: u32,
    /// Its title.
    pub title: String,
    /// Its folder under the output.
    pub slug: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Seeds run.
    pub seeds: u32,
    /// Simulated seconds per run.
    pub duration_s: f64,
    /// Warm-up left out, s.
    pub omit_s: f64,
    /// The seed's shape, checked.
    pub checks: Vec<verdict::CheckOutcome>,
    /// The published numbers beside ours.
    pub beside: Vec<verdict::BesideOutcome>,
    /// More of our figures, as the experiment file asks (`show`).
    pub shown: Vec<Shown>,
    /// Warnings about runs that were not sound (stalls, nothing delivered).
    pub warnings: Vec<String>,
    /// Stations a design starved (the AP held packets for them, sent them nothing and
    /// delivered none for a second or more): reported, not part of the verdict.
    pub starved: Vec<String>,
}

/// One of our figures shown without a check.
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    /// Its metric path.
    pub metric: String,
    /// Mean ± 95% CI.
    pub value: String,
}

/// `report.json`.
#[derive(Serialize)]
struct ReportJson<'a> {
    format: &'static str,
    airq_version: &'static str,
    quick: bool,
    command_line: Vec<String>,
    experiments: &'a [Outcome],
}

/// An experiment ready to run: its file and its parts.
struct Prepared {
    loaded: Loaded,
    parts: Vec<PreparedPart>,
}

/// One part of an experiment ready to run: its runs, and where they go.
struct PreparedPart {
    name: String,
    specs: Vec<RunSpec>,
    variants: Vec<String>,
    args: RunArgs,
    command: String,
}

/// A comparison made, kept for experiments that make the same one.
struct Made {
    command: String,
    runs: Vec<ResultsFile>,
    plots: Vec<PathBuf>,
}

/// `airq reproduce [--quick] [--only N,...] [-o DIR] [--experiments DIR]`.
pub fn reproduce(opts: &Options, verbosity: Verbosity) -> Result<(), CliError> {
    if opts.jobs == Some(0) {
        return Err(CliError::new("--jobs: at least 1"));
    }
    let figures = manifest::load_seed_figures(&opts.experiments)?;
    let mut all = manifest::load_experiments(&opts.experiments, &figures)?;
    if let Some(n) = opts
        .only
        .iter()
        .find(|n| !all.iter().any(|l| l.experiment.experiment == **n))
    {
        let have: Vec<String> = all
            .iter()
            .map(|l| l.experiment.experiment.to_string())
            .collect();
        return Err(CliError::new(format!(
            "--only {n}: no experiment {n} in {} (there are: {})",
            opts.experiments.display(),
            have.join(", ")
        )));
    }
    if !opts.only.is_empty() {
        all.retain(|l| opts.only.contains(&l.experiment.experiment));
    }
    if all.is_empty() {
        return Err(CliError::new(format!(
            "{}: no experiment files (NN-name.toml)",
            opts.experiments.display()
        )));
    }
    // Everything is checked before the first run: scenarios, variants, metric paths,
    // and every output (folders writable, no results file of another run replaced).
    outputs::check_folder(&opts.output)?;
    let prepared: Vec<Prepared> = all
        .into_iter()
        .map(|l| prepare(l, opts))
        .collect::<Result<_, _>>()?;
    let mut seen: Vec<&str> = Vec::new();
    for part in prepared.iter().flat_map(|p| &p.parts) {
        // A comparison an earlier part makes writes nothing of its own.
        if !seen.contains(&part.command.as_str()) {
            check_outputs(&part.specs, &part.args)?;
            seen.push(&part.command);
        }
    }
    let jobs = opts.jobs.unwrap_or_else(default_jobs);
    let quiet = match verbosity {
        Verbosity::Verbose => Verbosity::Verbose,
        _ => Verbosity::Quiet,
    };
    let mut outcomes = Vec::new();
    let mut blocks = Vec::new();
    let mut made: Vec<Made> = Vec::new();
    for p in &prepared {
        if verbosity != Verbosity::Quiet {
            eprintln!(
                "experiment {}: {}",
                p.loaded.experiment.experiment, p.loaded.experiment.title
            );
        }
        let mut indices = Vec::new();
        for part in &p.parts {
            let i = match made.iter().position(|m| m.command == part.command) {
                Some(i) => i,
                None => {
                    made.push(make(part, jobs, quiet)?);
                    made.len() - 1
                }
            };
            indices.push(i);
        }
        let runs: Vec<&[ResultsFile]> = indices.iter().map(|&i| made[i].runs.as_slice()).collect();
        let plots = embed_figures(p, &indices, &made, &opts.output)?;
        let evaluated = section::evaluate(p, &runs, &figures)?;
        blocks.extend(section::blocks(
            p,
            &evaluated,
            &plots,
            &opts.output,
            &figures,
        ));
        outcomes.push(evaluated);
    }
    write_report(opts, &outcomes, blocks, &figures)?;
    if verbosity != Verbosity::Quiet {
        print!("{}", verdict_table(&outcomes));
        println!("report: {}", opts.output.join("report.md").display());
    }
    Ok(())
}

/// Copies the plots experiment `p` shows (its `figures`, of each part) into the
/// report's `figures/` folder, which holds everything the report links to; the
/// experiments' own folders keep every plot and results file.
fn embed_figures(
    p: &Prepared,
    made_by_part: &[usize],
    made: &[Made],
    report_dir: &Path,
) -> Result<Vec<PathBuf>, CliError> {
    let dir = report_dir.join("figures");
    std::fs::create_dir_all(&dir).map_err(|e| io_error("cannot create", &dir, e))?;
    let mut out = Vec::new();
    for (part, &i) in p.parts.iter().zip(made_by_part) {
        for kind in &p.loaded.experiment.figures {
            let suffix = format!("-{kind}");
            let Some(src) = made[i].plots.iter().find(|plot| {
                plot.file_stem()
                    .is_some_and(|s| s.to_string_lossy().ends_with(&suffix))
            }) else {
                continue; // e.g. no repetitions figure from one seed
            };
            let name = match part.name.as_str() {
                "" => format!("{}-{kind}.png", p.loaded.slug()),
                part => format!("{}-{part}-{kind}.png", p.loaded.slug()),
            };
            let dst = dir.join(name);
            std::fs::copy(src, &dst).map_err(|e| io_error("cannot write", &dst, e))?;
            out.push(dst);
        }
    }
    Ok(out)
}

/// Makes the runs of `part`, writes their results files and draws their plots.
fn make(part: &PreparedPart, jobs: usize, verbosity: Verbosity) -> Result<Made, CliError> {
    let runs = run_and_write(&part.specs, jobs, &part.args, verbosity)?;
    let n = part.variants.len();
    let first = &runs[..n];
    let paths: Vec<PathBuf> = first.iter().map(|r| results_path(r, &part.args)).collect();
    let mut plots = write_standard_plots(first, &paths, &part.args.output)?;
    if runs.len() > n {
        plots.push(write_repetitions_plot(&runs, n, &part.args.output)?);
    }
    Ok(Made {
        command: part.command.clone(),
        runs,
        plots,
    })
}

/// Loads each part's scenario with its overrides and the run length, resolves its
/// variants, and checks the experiment's metric paths.
fn prepare(loaded: Loaded, opts: &Options) -> Result<Prepared, CliError> {
    let e = &loaded.experiment;
    let length = if opts.quick { e.quick } else { e.full };
    let context = |err: CliError| err.context(loaded.file.display());
    let mut parts = Vec::new();
    for (part, scenario) in &loaded.parts {
        let scenario_path = normalise(scenario);
        let folder = match part.name.as_str() {
            "" => loaded.slug(),
            name => format!("{}-{name}", loaded.slug()),
        };
        let args = RunArgs {
            scenario: scenario_path.clone(),
            seed: None,
            seeds: Some(length.seeds),
            duration: Some(length.duration),
            omit: Some(length.omit),
            set: part.set.clone(),
            driver: None,
            output: opts.output.join(folder),
            force: opts.force,
            json: None,
            csv: None,
            flent: false,
        };
        let scenario = crate::scenario::load(&args.scenario, &args.overrides()).map_err(context)?;
        let configs = (!part.configs.is_empty()).then_some(part.configs.as_slice());
        let variants = super::run::compared(&scenario, configs, &part.variants).map_err(context)?;
        let specs = super::run::seeded(&args.scenario, &args.overrides(), args.seeds, &variants)
            .map_err(context)?;
        parts.push(PreparedPart {
            name: part.name.clone(),
            specs,
            variants: variants.iter().map(|v| v.name.clone()).collect(),
            command: rerun_command(&scenario_path, part, length),
            args,
        });
    }
    let paths = e
        .check
        .iter()
        .flat_map(|c| {
            let right = match &c.right {
                manifest::Operand::Metric(m) => Some(m.as_str()),
                manifest::Operand::Number(_) => None,
            };
            std::iter::once(c.left.as_str()).chain(right)
        })
        .chain(e.beside.iter().map(|b| b.ours.as_str()))
        .chain(e.show.iter().map(String::as_str));
    metric::check_paths(paths).map_err(context)?;
    Ok(Prepared { loaded, parts })
}

/// The `airq compare` command line that makes the same runs.
fn rerun_command(scenario: &Path, part: &manifest::Part, l: manifest::Length) -> String {
    let mut words = vec![format!("airq compare {}", scenario.display())];
    if !part.configs.is_empty() {
        words.push(format!("--configs {}", part.configs.join(",")));
    }
    for v in &part.variants {
        words.push(format!("--variant '{v}'"));
    }
    for s in &part.set {
        words.push(format!("--set '{s}'"));
    }
    words.push(format!(
        "--seeds {} --duration {} --omit {}",
        l.seeds, l.duration, l.omit
    ));
    words.join(" ")
}

/// `experiments/../scenarios/x.toml` → `scenarios/x.toml` (lexically; no file-system
/// lookup).
fn normalise(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// Writes `report.md`, `report.html` and `report.json` into the output folder.
fn write_report(
    opts: &Options,
    outcomes: &[Outcome],
    sections: Vec<Block>,
    figures: &SeedFigures,
) -> Result<(), CliError> {
    let mut blocks = section::front(opts.quick, outcomes, figures);
    blocks.extend(sections);
    blocks.extend(section::sources(figures));
    let command_line: Vec<String> = std::env::args().collect();
    let json = serde_json::to_string_pretty(&ReportJson {
        format: "airq-reproduce",
        airq_version: env!("CARGO_PKG_VERSION"),
        quick: opts.quick,
        command_line,
        experiments: outcomes,
    })
    .map_err(|e| CliError::new(format!("cannot encode the report: {e}")))?;
    let title = "airq reproduces its seed documents";
    for (name, text) in [
        ("report.md", document::markdown(&blocks)),
        ("report.html", document::html(title, &blocks)),
        ("report.json", json + "\n"),
    ] {
        let path = opts.output.join(name);
        outputs::write_atomically(&path, |w| w.write_all(text.as_bytes()))?;
    }
    Ok(())
}

/// The verdict per experiment, as printed at the end.
fn verdict_table(outcomes: &[Outcome]) -> String {
    let mut out =
        String::from("\n  #  experiment                                          verdict\n");
    for o in outcomes {
        let checks = o.checks.iter().filter(|c| c.holds).count();
        out.push_str(&format!(
            "{:>3}  {:<50}  {} ({checks}/{} checks hold)\n",
            o.experiment,
            o.title,
            o.verdict.words(),
            o.checks.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_lexically() {
        assert_eq!(
            normalise(Path::new("experiments/../scenarios/x.toml")),
            PathBuf::from("scenarios/x.toml")
        );
        assert_eq!(
            normalise(Path::new("./a/./b.toml")),
            PathBuf::from("a/b.toml")
        );
        assert_eq!(
            normalise(Path::new("../x.toml")),
            PathBuf::from("../x.toml")
        );
    }
}
