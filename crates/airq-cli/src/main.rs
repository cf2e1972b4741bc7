//! `airq`: the command-line tool. See `airq --help`.

use airq_cli::cli::{Cli, Command};
use airq_cli::commands::{
    check, completions, help, list, plot, reproduce, run, show, sweep, Verbosity,
};
use clap::Parser;

/// mimalloc instead of the system's allocator: it backs its arenas with transparent huge
/// pages, which at 1000 stations (tens of MB of per-station state touched at random)
/// spares most of the TLB misses and page faults: 1.2x the simulated seconds per CPU
/// second there, none lost at 3 stations (README, "Many stations").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
        Command::Run {
            common,
            config,
            variant,
            pcap,
        } => run::run(
            common,
            config.as_deref(),
            variant.as_deref(),
            pcap.as_deref(),
            verbosity,
        ),
        Command::Emulate {
            common,
            config,
            variant,
            hold,
            pcap,
        } => airq_cli::commands::emulate::emulate(
            common,
            &airq_cli::commands::emulate::EmulateOptions {
                config: config.as_deref(),
                variant: variant.as_deref(),
                hold: *hold,
                pcap: pcap.as_deref(),
            },
            verbosity,
        ),
        Command::EmulateHttp { args } => {
            airq_emu::http::main(args).map_err(airq_cli::error::CliError::new)
        }
        Command::Compare {
            common,
            configs,
            variants,
            jobs,
            no_plots,
        } => run::compare(
            common,
            configs.as_deref(),
            variants,
            *jobs,
            !*no_plots,
            verbosity,
        ),
        Command::Sweep {
            common,
            params,
            configs,
            variants,
            jobs,
            no_plots,
        } => sweep::sweep(
            common,
            params,
            configs.as_deref(),
            variants,
            *jobs,
            !*no_plots,
            verbosity,
        ),
        Command::Reproduce {
            quick,
            only,
            output,
            experiments,
            force,
            jobs,
        } => reproduce::reproduce(
            &reproduce::Options {
                experiments: experiments.clone(),
                output: output.clone(),
                quick: *quick,
                only: only.clone(),
                force: *force,
                jobs: *jobs,
            },
            verbosity,
        ),
        Command::List {
            what,
            dir,
            markdown,
        } => list::list(*what, dir.as_deref(), *markdown),
        Command::Check { scenarios, set } => check::check(scenarios, set),
        Command::Show {
            results,
            allow_mixed,
            json,
            csv,
        } => show::show(results, *allow_mixed, json.as_deref(), csv.as_deref()),
        Command::Plot {
            results,
            plot,
            output,
            allow_mixed,
        } => plot::plot(results, plot, output.as_deref(), *allow_mixed, verbosity),
        Command::Completions { shell } => completions::completions(*shell),
        Command::Man => completions::man(),
        Command::Help { topic } => help::help(topic.as_deref()),
    };
    if let Err(e) = result {
        eprintln!("airq: {e}");
        std::process::exit(1);
    }
}
