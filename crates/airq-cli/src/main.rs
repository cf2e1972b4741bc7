//! `airq`: the command-line tool. See `airq --help`.

use airq_cli::cli::{Cli, Command};
use airq_cli::commands::{check, list, plot, run, show, Verbosity};
use clap::Parser;

fn main() {
    let cli = Cli::parse();
    let verbosity = if cli.quiet {
        Verbosity::Quiet
    } else if cli.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let result = match &cli.command {
        Command::Run { common, config } => run::run(common, config.as_deref(), verbosity),
        Command::Compare {
            common,
            configs,
            jobs,
            no_plots,
        } => run::compare(common, configs, *jobs, !*no_plots, verbosity),
        Command::List { what, dir } => list::list(*what, dir),
        Command::Check { scenarios, set } => check::check(scenarios, set),
        Command::Show { results } => show::show(results),
        Command::Plot {
            results,
            plot,
            output,
        } => plot::plot(results, plot, output.as_deref(), verbosity),
    };
    if let Err(e) = result {
        eprintln!("airq: {e}");
        std::process::exit(1);
    }
}
