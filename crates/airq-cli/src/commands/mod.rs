//! The commands: each takes its parsed arguments, prints to standard output, and returns
//! a [`CliError`] for `main` to print.

pub mod check;
pub mod list;
pub mod plot;
pub mod run;
pub mod show;

use crate::cli::RunArgs;
use crate::error::{io_error, CliError};
use crate::execute::{run_all, Plan};
use crate::export::{flent_file_name, write_flent_files};
use crate::progress::Progress;
use crate::results::{self, ResultsFile};
use crate::scenario::Scenario;
use crate::summary;
use std::path::PathBuf;

/// How much to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Errors only.
    Quiet,
    /// Tables and progress bars.
    Normal,
    /// Also each run's wall time and events, and the files written.
    Verbose,
}

/// Runs `configs` of `scenario` and writes the results files, and the `--json` and
/// `--csv` summaries and `--flent` data files if asked.
pub fn run_and_write(
    scenario: &Scenario,
    configs: &[String],
    jobs: usize,
    args: &RunArgs,
    verbosity: Verbosity,
) -> Result<Vec<ResultsFile>, CliError> {
    let progress = Progress::new(verbosity != Verbosity::Quiet);
    let command_line: Vec<String> = std::env::args().collect();
    let runs = run_all(&Plan {
        scenario,
        configs,
        jobs,
        progress: &progress,
        verbose: verbosity == Verbosity::Verbose,
        command_line: &command_line,
    })?;
    std::fs::create_dir_all(&args.output)
        .map_err(|e| io_error("cannot create", &args.output, e))?;
    let verbose = verbosity == Verbosity::Verbose;
    for r in &runs {
        if let Some(warning) = stall_warning(r) {
            eprintln!("{warning}");
        }
        let path = results_path(r, args);
        results::save(r, &path)?;
        if verbose {
            eprintln!("wrote {}", path.display());
        }
    }
    if args.flent {
        for path in write_flent_files(&runs, &args.output)? {
            if verbose {
                eprintln!("wrote {}", path.display());
            }
        }
    }
    if let Some(path) = &args.json {
        summary::write_json(&runs, path)?;
    }
    if let Some(path) = &args.csv {
        summary::write_csv(&runs, path)?;
    }
    Ok(runs)
}

/// A warning naming every stall of the run, if it had any: its figures were made by an
/// AP that held frames back for no reason, so they must not pass unnoticed. Printed
/// even with `--quiet`; the results file keeps the stalls.
pub fn stall_warning(r: &ResultsFile) -> Option<String> {
    if r.stalls.is_empty() {
        return None;
    }
    let m = &r.metadata;
    let list: Vec<String> = r
        .stalls
        .iter()
        .take(5)
        .map(|s| {
            format!(
                "{} idle from {:.3} s to at least {:.3} s",
                s.station, s.idle_since_s, s.detected_at_s
            )
        })
        .collect();
    let more = r.stalls.len().saturating_sub(list.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Some(format!(
        "airq: WARNING: {} under {} (seed {}): the AP stalled {} time(s) — it held frames \
         that no airtime limit held back while the medium stayed idle: {}{more}. These are \
         not the figures of a working AP: unless the scenario asks for it (a host latency \
         as long as the stall threshold), this is a defect of the model; please report it.",
        m.scenario,
        m.config,
        m.seed,
        r.stalls.len(),
        list.join("; ")
    ))
}

/// The results file of `r` in the output directory of `args`.
pub fn results_path(r: &ResultsFile, args: &RunArgs) -> PathBuf {
    let m = &r.metadata;
    args.output
        .join(results::file_name(&m.scenario, &m.file_label(), m.seed))
}

/// Where the results files of `runs` went (one name, or a `*` for the configuration),
/// and their flent files with `--flent`: one line each.
pub fn written(runs: &[ResultsFile], args: &RunArgs) -> String {
    let m = &runs[0].metadata;
    let config = if runs.len() == 1 {
        m.file_label()
    } else {
        format!("*{}", m.driver_suffix())
    };
    let config = config.as_str();
    let name = results::file_name(&m.scenario, config, m.seed);
    let mut lines = format!("results: {}", args.output.join(name).display());
    if args.flent {
        let flent = args
            .output
            .join(flent_file_name(&m.scenario, config, m.seed));
        lines += &format!("\nflent: {}", flent.display());
    }
    lines
}
