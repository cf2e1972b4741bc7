//! The runs a command asks for: one per variant, each labelled with exactly what makes
//! it differ — the variant's name, and every `--set` on the AP (`+fq_mac.target_ms=5`)
//! it has a use for ([`crate::unused`]), since a preset changed by the command line is
//! no longer that preset. Every run is
//! built (and so checked) before any starts; two variants that would simulate the very
//! same thing are refused, as their columns would be one result printed twice under two
//! names.

use crate::build::{build, without_bbr, SimInputs};
use crate::error::CliError;
use crate::scenario::{self, Scenario, Variant};
use crate::unused::{self, UnusedKey};

/// One run to make.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// What labels it everywhere: the variant's name and the `--set`s on the AP.
    pub label: String,
    /// The variant.
    pub variant: Variant,
    /// The AP preset it starts from.
    pub preset: String,
    /// The scenario with the variant's changes.
    pub scenario: Scenario,
    /// The scenario's text with the `--set`s but not the variant's changes: the same
    /// for every variant of one experiment.
    pub base_text: String,
    /// The simulator's inputs.
    pub input: SimInputs,
    /// The `--set`s and scenario keys this run has no use for (`ap.fq_codel.target_ms=1`
    /// under a configuration without fq_codel); its label leaves such `--set`s out.
    pub unused: Vec<UnusedKey>,
}

/// The runs of `variants` of `base` (the scenario with the command line's `--set`s).
pub fn resolve(base: &Scenario, variants: &[Variant]) -> Result<Vec<RunSpec>, CliError> {
    resolve_for(base, variants, false)
}

/// [`resolve`] for `airq emulate`: tests with `cc = "bbr"`, which the simulator
/// refuses, are built as CUBIC ones (the emulator runs them with the hosts' BBR, and
/// finds them with [`crate::build::without_bbr`] on the run's scenario).
pub fn resolve_emulated(base: &Scenario, variants: &[Variant]) -> Result<Vec<RunSpec>, CliError> {
    resolve_for(base, variants, true)
}

fn resolve_for(
    base: &Scenario,
    variants: &[Variant],
    emulated: bool,
) -> Result<Vec<RunSpec>, CliError> {
    if variants.is_empty() {
        return Err(CliError::new("no configuration to run: name at least one"));
    }
    let suffix = ap_suffix(&base.overrides);
    let mut runs: Vec<RunSpec> = Vec::with_capacity(variants.len());
    for v in variants {
        if let Some(other) = runs.iter().find(|r| r.variant.name == v.name) {
            return Err(CliError::new(format!(
                "variant `{}` is asked for twice ({} and {})",
                v.name, other.variant.origin, v.origin
            )));
        }
        let scenario = scenario::of_variant(base, v)?;
        let preset = v
            .preset
            .clone()
            .unwrap_or_else(|| scenario.ap.preset.clone());
        let built = if emulated {
            build(&without_bbr(&scenario).0, &preset)
        } else {
            build(&scenario, &preset)
        };
        let input = built.map_err(|e| {
            if v.set.is_empty() {
                e
            } else {
                e.context(format!("variant `{}` ({})", v.name, v.origin))
            }
        })?;
        if let Some(same) = runs.iter().find(|r| r.input == input) {
            return Err(CliError::new(format!(
                "`{}` and `{}` would simulate exactly the same AP and scenario: one result \
                 under two names. {}",
                same.variant.name,
                v.name,
                if !suffix.is_empty() {
                    "The --set options on the AP apply to every configuration and replace \
                     what made them differ; name variants instead \
                     (--variant NAME:key=value,...)."
                } else {
                    "The scenario's [ap] section chooses the layers they differ in; name \
                     variants instead ([[variant]] or --variant NAME:key=value,...)."
                }
            )));
        }
        let (unused, labelled) = unused::of_run(base, v, &scenario, &input)?;
        runs.push(RunSpec {
            label: format!("{}{}", v.name, ap_suffix(&labelled)),
            variant: v.clone(),
            preset,
            scenario,
            base_text: base.text.clone(),
            input,
            unused,
        });
    }
    unused::check_sets(&base.overrides, &runs)?;
    Ok(runs)
}

/// `+key=value` for every `--set ap.key=value`, in order (`--driver` is one).
pub fn ap_suffix(overrides: &[String]) -> String {
    overrides
        .iter()
        .filter_map(|o| o.strip_prefix("ap."))
        .map(|o| format!("+{}", unquoted(o)))
        .collect()
}

/// `key=value` without TOML's quotes around a string value.
pub fn unquoted(o: &str) -> String {
    o.replace('"', "")
}
