//! The commands: each takes its parsed arguments, prints to standard output, and returns
//! a [`CliError`] for `main` to print.

pub mod check;
pub mod list;
pub mod run;
pub mod show;

use crate::cli::RunArgs;
use crate::error::{io_error, CliError};
use crate::execute::{run_all, Plan};
use crate::progress::Progress;
use crate::results::{self, ResultsFile};
use crate::scenario::Scenario;
use crate::summary;

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
/// `--csv` summaries if asked.
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
    for r in &runs {
        let m = &r.metadata;
        let path = args
            .output
            .join(results::file_name(&m.scenario, &m.config, m.seed));
        results::save(r, &path)?;
        if verbosity == Verbosity::Verbose {
            eprintln!("wrote {}", path.display());
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

/// Where the results files of `runs` went (one name, or a `*` for the configuration).
pub fn written(runs: &[ResultsFile], args: &RunArgs) -> String {
    let m = &runs[0].metadata;
    let config = if runs.len() == 1 {
        m.config.as_str()
    } else {
        "*"
    };
    let name = results::file_name(&m.scenario, config, m.seed);
    format!("results: {}", args.output.join(name).display())
}
