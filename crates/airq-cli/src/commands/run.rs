//! `airq run` and `airq compare`.

use super::{results_path, run_and_write, written, Verbosity};
use crate::cli::RunArgs;
use crate::error::CliError;
use crate::execute::default_jobs;
use crate::export::{write_repetitions_plot, write_standard_plots};
use crate::run_set::{self, RunSpec};
use crate::scenario::{self, ap::check_preset, variant, Scenario, Variant};
use crate::table::{self, seeds_table};
use airq_sim::ap::PRESET_NAMES;
use std::path::Path;

/// Says the MAC timing the BSS got from its stations, if it was derived, and its ERP
/// protection, if it has one.
pub(crate) fn print_derived_timing(scenario: &Scenario) {
    if let Some(timing) = &scenario.derived_timing {
        println!("bss timing: {timing}; bss.timing sets it");
    }
    if let Some(protection) = &scenario.protection_note {
        println!("bss protection: {protection}; bss.protection sets it");
    }
}

/// `airq run SCENARIO [--config PRESET | --variant SPEC]`.
pub fn run(
    args: &RunArgs,
    config: Option<&str>,
    variant: Option<&str>,
    pcap: Option<&std::path::Path>,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    let scenario = scenario::load(&args.scenario, &args.overrides())?;
    let variant = match (config, variant) {
        (_, Some(spec)) => variant::from_command_line(spec, &scenario.variants)?,
        (Some(preset), None) => {
            check_preset(preset).map_err(|why| CliError::new(format!("--config: {why}")))?;
            Variant::preset(preset)
        }
        // The scenario's preset (after any --set ap.preset), not one of its own.
        (None, None) => Variant {
            preset: None,
            origin: "[ap] preset".to_string(),
            ..Variant::preset(&scenario.ap.preset)
        },
    };
    let specs = seeded(&args.scenario, &args.overrides(), args.seeds, &[variant])?;
    if pcap.is_some() && specs.len() > 1 {
        // One capture file is one run: the file names of several would be ours to
        // invent, and a capture of every seed is rarely what is wanted.
        return Err(CliError::new(format!(
            "--pcap: one run only, and this is {} (one per seed: the scenario's `seeds` \
             or --seeds); add --seeds 1",
            specs.len()
        )));
    }
    let jobs = if specs.len() > 1 { default_jobs() } else { 1 };
    let runs = super::run_and_write_with(&specs, jobs, args, verbosity, pcap)?;
    if verbosity != Verbosity::Quiet {
        if runs.len() > 1 {
            print!("{}", seeds_table(&runs, 1));
        } else {
            print!("{}", table::run_table(&runs[0]));
        }
        print_derived_timing(&scenario);
        for note in crate::unused::notes(&specs[..1]) {
            println!("note: {note}");
        }
        println!("{}", written(&runs, args));
        if let Some(pcap) = pcap {
            println!("air: {}", pcap.display());
        }
    }
    Ok(())
}

/// `airq compare SCENARIO [--configs a,b,...] [--variant SPEC]...`; draws the standard
/// plots unless `plots` is false.
pub fn compare(
    args: &RunArgs,
    configs: Option<&[String]>,
    variants: &[String],
    jobs: Option<usize>,
    plots: bool,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    if jobs == Some(0) {
        return Err(CliError::new("--jobs: at least 1"));
    }
    let scenario = scenario::load(&args.scenario, &args.overrides())?;
    let variants = compared(&scenario, configs, variants)?;
    let jobs = jobs.unwrap_or_else(default_jobs);
    let specs = seeded(&args.scenario, &args.overrides(), args.seeds, &variants)?;
    let runs = run_and_write(&specs, jobs, args, verbosity)?;
    if verbosity != Verbosity::Quiet {
        if runs.len() > variants.len() {
            print!("{}", seeds_table(&runs, variants.len()));
        } else {
            print!("{}", table::compare_table(&runs));
        }
        print_derived_timing(&scenario);
        for note in crate::unused::notes(&specs[..variants.len()]) {
            println!("note: {note}");
        }
        println!("{}", written(&runs, args));
    }
    if plots {
        // The plots draw one seed: the first.
        let first = &runs[..variants.len()];
        let paths: Vec<_> = first.iter().map(|r| results_path(r, args)).collect();
        let mut written = write_standard_plots(first, &paths, &args.output)?;
        if runs.len() > variants.len() {
            written.push(write_repetitions_plot(&runs, variants.len(), &args.output)?);
        }
        for plot in written {
            if verbosity != Verbosity::Quiet {
                println!("plot: {}", plot.display());
            }
        }
    }
    Ok(())
}

/// The runs of `variants` of the scenario at `path` with `overrides`, under every seed
/// `seeds` (else the scenario's `seeds`) asks for: the scenario's seed and the next
/// ones, seed by seed, each seed's runs in the order of `variants`.
pub(super) fn seeded(
    path: &Path,
    overrides: &[String],
    seeds: Option<u32>,
    variants: &[Variant],
) -> Result<Vec<RunSpec>, CliError> {
    let scenario = scenario::load(path, overrides)?;
    let n = seeds.unwrap_or(scenario.seeds);
    if seeds.is_none() && n == 1 {
        return run_set::resolve(&scenario, variants);
    }
    let mut specs = Vec::new();
    for k in 0..u64::from(n) {
        let seed = scenario.seed.checked_add(k).ok_or_else(|| {
            CliError::new(format!(
                "--seeds {n}: seed {} + {k} overflows",
                scenario.seed
            ))
        })?;
        let mut overrides: Vec<String> = overrides
            .iter()
            .filter(|o| !o.starts_with("seed="))
            .cloned()
            .collect();
        overrides.push(format!("seed={seed}"));
        let scenario = scenario::load(path, &overrides)?;
        specs.extend(run_set::resolve(&scenario, variants)?);
    }
    Ok(specs)
}

/// The variants a comparison runs: `--configs` then `--variant`s in the order given;
/// with neither, the scenario's `[[variant]]`s, or every preset if it has none.
pub fn compared(
    scenario: &Scenario,
    configs: Option<&[String]>,
    specs: &[String],
) -> Result<Vec<Variant>, CliError> {
    let mut variants = Vec::new();
    if let Some(configs) = configs {
        if configs.is_empty() {
            return Err(CliError::new("--configs: name at least one configuration"));
        }
        for c in configs {
            check_preset(c).map_err(|why| CliError::new(format!("--configs: {why}")))?;
            variants.push(Variant::preset(c));
        }
    }
    for spec in specs {
        variants.push(variant::from_command_line(spec, &scenario.variants)?);
    }
    if variants.is_empty() {
        variants = if scenario.variants.is_empty() {
            PRESET_NAMES.iter().map(|p| Variant::preset(p)).collect()
        } else {
            scenario.variants.clone()
        };
    }
    Ok(variants)
}
