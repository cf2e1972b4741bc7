//! `airq run` and `airq compare`.

use super::{results_path, run_and_write, written, Verbosity};
use crate::cli::RunArgs;
use crate::error::CliError;
use crate::execute::default_jobs;
use crate::export::write_standard_plots;
use crate::scenario::{self, ap::check_preset};
use crate::table;

/// `airq run SCENARIO [--config PRESET]`.
pub fn run(args: &RunArgs, config: Option<&str>, verbosity: Verbosity) -> Result<(), CliError> {
    let scenario = scenario::load(&args.scenario, &args.overrides())?;
    let config = config.unwrap_or(&scenario.ap.preset).to_string();
    check_preset(&config).map_err(|why| CliError::new(format!("--config: {why}")))?;
    let runs = run_and_write(&scenario, &[config], 1, args, verbosity)?;
    if verbosity != Verbosity::Quiet {
        print!("{}", table::run_table(&runs[0]));
        println!("{}", written(&runs, args));
    }
    Ok(())
}

/// `airq compare SCENARIO [--configs a,b,...]`; draws the standard plots unless `plots`
/// is false.
pub fn compare(
    args: &RunArgs,
    configs: &[String],
    jobs: Option<usize>,
    plots: bool,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    if configs.is_empty() {
        return Err(CliError::new("--configs: name at least one configuration"));
    }
    for (i, c) in configs.iter().enumerate() {
        check_preset(c).map_err(|why| CliError::new(format!("--configs: {why}")))?;
        if configs[..i].contains(c) {
            return Err(CliError::new(format!("--configs: `{c}` is listed twice")));
        }
    }
    if jobs == Some(0) {
        return Err(CliError::new("--jobs: at least 1"));
    }
    let scenario = scenario::load(&args.scenario, &args.overrides())?;
    let jobs = jobs.unwrap_or_else(default_jobs);
    let runs = run_and_write(&scenario, configs, jobs, args, verbosity)?;
    if verbosity != Verbosity::Quiet {
        print!("{}", table::compare_table(&runs));
        println!("{}", written(&runs, args));
    }
    if plots {
        let paths: Vec<_> = runs.iter().map(|r| results_path(r, args)).collect();
        for plot in write_standard_plots(&runs, &paths, &args.output)? {
            if verbosity != Verbosity::Quiet {
                println!("plot: {}", plot.display());
            }
        }
    }
    Ok(())
}
