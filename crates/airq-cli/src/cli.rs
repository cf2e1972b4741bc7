//! The command line (clap): `airq run`, `airq compare`, `airq sweep`, `airq list`,
//! `airq check`, `airq show`, `airq plot`, `airq completions`, `airq man`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Simulate a WiFi access point's queueing designs, compare them side by side.
#[derive(Debug, Parser)]
#[command(name = "airq", version, disable_help_subcommand = true)]
pub struct Cli {
    /// No progress bars, no tables: only errors (files are still written).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Also print each run's wall time and events, and the files written.
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    #[command(subcommand)]
    /// What to do.
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario under one AP configuration.
    Run {
        #[command(flatten)]
        /// Scenario, seed, duration, overrides and outputs.
        common: RunArgs,
        /// AP configuration (a preset; default: the scenario's `ap.preset`, else airtime).
        #[arg(short, long, conflicts_with = "variant")]
        config: Option<String>,
        /// A variant instead of a preset: `NAME` (a `[[variant]]` of the scenario) or
        /// `NAME:key=value,...` (`preset=P` and any scenario keys).
        #[arg(long, value_name = "SPEC")]
        variant: Option<String>,
        /// Write every frame received over the simulated air to FILE (pcapng with
        /// radiotap and 802.11 headers, as `airq emulate --pcap`; each packet's IPv4
        /// and transport headers only). One run only: with several seeds, add --seeds 1.
        #[arg(long, value_name = "FILE")]
        pcap: Option<PathBuf>,
    },
    /// Run a scenario's BSS in real time with real Linux hosts in network namespaces
    /// (root): ping, iperf3, irtt and web page loads through the emulated AP; one results
    /// file.
    Emulate {
        #[command(flatten)]
        /// Scenario, duration, overrides and outputs.
        common: RunArgs,
        /// AP configuration (a preset; default: the scenario's `ap.preset`).
        #[arg(short, long, conflicts_with = "variant")]
        config: Option<String>,
        /// A variant instead of a preset (as for `run`).
        #[arg(long, value_name = "SPEC")]
        variant: Option<String>,
        /// Keep the hosts up after the scenario's tests until Ctrl-C, and print the
        /// `ip netns exec` commands to run your own tools in them.
        #[arg(long)]
        hold: bool,
        /// Write every frame received over the emulated air to FILE (pcapng: radiotap
        /// with TSFT, rate/MCS/VHT/HE, A-MPDU reference and SNR, then the 802.11 QoS
        /// Data frame; timestamps in the model's time from the start of the run).
        #[arg(long, value_name = "FILE")]
        pcap: Option<PathBuf>,
    },
    /// Inside an emulated host: the `http` test's web server or client
    /// (`airq emulate` starts them; arguments as `airq_emu::http::main` reads them).
    #[command(hide = true)]
    EmulateHttp {
        /// `server ...` or `client ...`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run a scenario under several AP configurations in parallel; one table.
    Compare {
        #[command(flatten)]
        /// Scenario, seed, duration, overrides and outputs.
        common: RunArgs,
        /// AP presets, comma-separated (default, with no --variant either: the
        /// scenario's `[[variant]]`s if it has any, else every preset).
        #[arg(long, value_delimiter = ',')]
        configs: Option<Vec<String>>,
        /// A variant to run beside them (repeatable): `NAME` (a `[[variant]]` of the
        /// scenario, or a preset) or `NAME:key=value,...` (`preset=P` names the preset it
        /// starts from; other keys change the scenario as `--set` does, for this variant
        /// only). Its name labels its column, files and plots.
        #[arg(long = "variant", value_name = "SPEC")]
        variants: Vec<String>,
        /// Worker threads (default: the machine's parallelism).
        #[arg(short, long)]
        jobs: Option<usize>,
        /// Do not draw the plots (PNG, into the output directory).
        #[arg(long)]
        no_plots: bool,
    },
    /// Run a scenario over a grid of parameter values x variants x seeds; tidy tables.
    Sweep {
        #[command(flatten)]
        /// Scenario, seed(s), duration, overrides and outputs.
        common: RunArgs,
        /// A swept key and its values: `--param ap.fq_mac.target_ms=5,10,20`
        /// (repeatable: the grid is every combination).
        #[arg(long = "param", value_name = "KEY=V1,V2,...", required = true)]
        params: Vec<String>,
        /// AP presets, comma-separated (as for compare).
        #[arg(long, value_delimiter = ',')]
        configs: Option<Vec<String>>,
        /// Variants (as for compare).
        #[arg(long = "variant", value_name = "SPEC")]
        variants: Vec<String>,
        /// Worker threads (default: the machine's parallelism).
        #[arg(short, long)]
        jobs: Option<usize>,
        /// Do not draw the plots (total goodput, Jain's index and the worst station's
        /// ping p99 against the first parameter).
        #[arg(long)]
        no_plots: bool,
    },
    /// Run every experiment of the seed documents (experiments/) and write a report:
    /// what each seed found, what we measure, figures and a verdict per experiment.
    Reproduce {
        /// The short forms (fewer seeds, shorter runs): for CI.
        #[arg(long)]
        quick: bool,
        /// Only these experiments, by number (comma-separated).
        #[arg(long, value_delimiter = ',')]
        only: Vec<u32>,
        /// Directory for the report (report.md, report.html, report.json), and per
        /// experiment its results files and plots.
        #[arg(short, long, default_value = "results/reproduce")]
        output: PathBuf,
        /// The folder of experiment files and seed-figures.toml.
        #[arg(long, default_value = "experiments")]
        experiments: PathBuf,
        /// Replace results files of other runs that have the same names.
        #[arg(long)]
        force: bool,
        /// Worker threads (default: the machine's parallelism).
        #[arg(short, long)]
        jobs: Option<usize>,
    },
    /// List scenarios, AP configurations, traffic tests, plots or scenario keys.
    List {
        /// scenarios (bundled, or in --dir), configs (AP presets), tests (traffic),
        /// plots, or keys (every scenario key: type, default, range, meaning).
        what: ListWhat,
        /// A folder of scenario files for `list scenarios` (default: the bundled ones).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// For `list keys`: Markdown (docs/scenario-keys.md) instead of plain text.
        #[arg(long)]
        markdown: bool,
    },
    /// Print the table of results files (several: side by side, as compare does).
    Show {
        #[arg(required = true)]
        /// Results files (`.json.gz`).
        results: Vec<PathBuf>,
        /// Show runs of different experiments (scenario, --set options, seed,
        /// duration) side by side, each column labelled with what sets it apart.
        #[arg(long)]
        allow_mixed: bool,
        /// Also write their JSON summary here (`-`: standard output, and no table).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Also write their per-station CSV here (`-`: standard output, and no table).
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Draw a plot from results files (several: one run per configuration, side by side).
    Plot {
        #[arg(required = true)]
        /// Results files (`.json.gz`) of one scenario.
        results: Vec<PathBuf>,
        /// The plot (see `airq list plots`).
        #[arg(short, long, value_parser = plot_names())]
        plot: String,
        /// The file to write, `.png` or `.svg` (default: `<scenario>-<plot>.png` here).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Draw runs of different experiments (scenario, --set options, seed, duration)
        /// together, each labelled with what sets it apart.
        #[arg(long)]
        allow_mixed: bool,
    },
    /// Check scenario files: parse and validate, and say whether they can run today.
    Check {
        #[arg(required = true)]
        /// Scenario files (TOML).
        scenarios: Vec<PathBuf>,
        /// Overrides, as for `run`.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Print the shell completion script of bash, zsh, fish, elvish or powershell.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): airq(1), then every command's page.
    Man,
    /// Print help: of airq, of a command (`airq help compare`), or of every scenario key
    /// (`airq help scenario`).
    Help {
        /// A command's name, or `scenario`.
        topic: Option<String>,
    },
}

/// What `airq list` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ListWhat {
    /// The `.toml` files of a directory, with their descriptions.
    Scenarios,
    /// The AP configurations (presets).
    Configs,
    /// The traffic tests a scenario may name.
    Tests,
    /// The plots `airq plot` draws.
    Plots,
    /// Every key of a scenario file: type, default, allowed values, unit, meaning.
    Keys,
}

/// The names `--plot` takes.
fn plot_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(airq_report::PlotKind::ALL.map(|k| k.name()))
}

/// Options of `run` and `compare`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scenario file (TOML), or the name of a bundled scenario
    /// (`airq list scenarios`).
    pub scenario: PathBuf,
    /// Seed (overrides the scenario's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Repetitions: run every configuration under this many seeds (the scenario's or
    /// --seed's, and the next ones); tables show mean ± 95% confidence interval.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub seeds: Option<u32>,
    /// Simulated seconds (overrides the scenario's).
    #[arg(long, allow_negative_numbers = true)]
    pub duration: Option<f64>,
    /// Warm-up seconds left out of every summary (iperf3's -O; the same as
    /// `--set omit=S`); the time series keep them.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub omit: Option<f64>,
    /// Override any scenario key: `--set station.1.mcs=7` (indices from 0).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The driver under every configuration: `softmac` (ath9k-like), `firmware`
    /// (ath10k push-pull) or `firmware_push` (ath10k push only); the same as
    /// `--set ap.driver=...`.
    #[arg(long, value_parser = ["softmac", "firmware", "firmware_push"])]
    pub driver: Option<String>,
    /// Directory for the results files.
    #[arg(short, long, default_value = "results")]
    pub output: PathBuf,
    /// Replace results files of other runs (another scenario text, variant, seed or
    /// duration) that have the same name; without it they are left alone and nothing
    /// runs. A rerun of the same run always replaces its file.
    #[arg(long)]
    pub force: bool,
    /// Also write a JSON summary here (`-`: standard output).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Also write the per-station summary as CSV here (`-`: standard output), and the
    /// per-flow one beside it: `x.csv` → `x.flows.csv` (not for `-`). A ping percentile
    /// that falls among lost pings is `inf` (a lost ping counts as an infinite RTT).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Also write each run as a flent data file (`.flent.gz`) beside its results file.
    #[arg(long)]
    pub flent: bool,
}

impl RunArgs {
    /// Every override: `--set`s first, then `--driver`, `--seed`, `--duration` and
    /// `--omit`.
    pub fn overrides(&self) -> Vec<String> {
        let mut sets = self.set.clone();
        if let Some(driver) = &self.driver {
            sets.push(format!("ap.driver={driver}"));
        }
        if let Some(seed) = self.seed {
            sets.push(format!("seed={seed}"));
        }
        if let Some(d) = self.duration {
            sets.push(format!("duration={d:?}"));
        }
        if let Some(s) = self.omit {
            sets.push(format!("omit={s:?}"));
        }
        sets
    }
}
