//! Settings a run has no use for: a `--set` or a scenario key that tunes a layer the run's
//! configuration does not have (`ap.fq_codel.target_ms` without the fq_codel qdisc, a
//! station's airtime weight under round robin). Such a setting changes nothing, so a
//! label or a sweep point that carries it would say something the run did not do: a
//! variant's own such change and a `--set` no run uses are refused, a `--set` some runs
//! use is left out of the others' labels, and every one is noted.

use crate::build::SimInputs;
use crate::error::CliError;
use crate::run_set::{unquoted, RunSpec};
use crate::scenario::ap::{unused, Unused};
use crate::scenario::overrides::Override;
use crate::scenario::{Scenario, Variant};

/// One setting a run has no use for.
#[derive(Clone, Debug, PartialEq)]
pub struct UnusedKey {
    /// The `--set` as given; `None` for a key of the scenario file.
    pub set: Option<String>,
    /// How a note names it: `` `ap.fq_codel.target_ms=1` ``, `the scenario's [ap.legacy]`.
    pub what: String,
    /// Why the run has no use for it.
    pub why: Unused,
}

/// What of `base`'s `--set`s and scenario keys the run of `v` (`scenario`, built as
/// `input`) has no use for, and the `--set`s its label is to carry. A change of the
/// variant's own that it has no use for is an error.
pub fn of_run(
    base: &Scenario,
    v: &Variant,
    scenario: &Scenario,
    input: &SimInputs,
) -> Result<(Vec<UnusedKey>, Vec<String>), CliError> {
    let layers = unused(&input.ap);
    let unused_by = |raw: &str| {
        let path = Override::parse(raw).ok()?.path;
        layers.iter().find(|u| u.covers(&path)).cloned()
    };
    for raw in &v.set {
        if let Some(u) = unused_by(raw) {
            return Err(CliError::new(format!(
                "variant `{}` ({}): `{raw}` changes nothing: it has {} ({}). Choose the \
                 layer it tunes too, or leave it out",
                v.name, v.origin, u.lacks, u.has
            )));
        }
    }
    let mut out = Vec::new();
    let mut labelled = Vec::new();
    for raw in &base.overrides {
        let why = match (raw.strip_prefix("ap.preset="), &v.preset) {
            (Some(_), Some(p)) => Some(Unused {
                keys: "ap.preset",
                lacks: "",
                has: format!("its own preset, {p}"),
            }),
            // The variant's name says it already.
            (Some(asked), None) if v.name == unquoted(asked) => continue,
            _ => unused_by(raw),
        };
        match why {
            Some(why) => out.push(UnusedKey {
                set: Some(raw.clone()),
                what: format!("`{raw}`"),
                why,
            }),
            None => labelled.push(raw.clone()),
        }
    }
    for (keys, named) in scenario.ap.keys_set() {
        let Some(u) = layers.iter().find(|u| u.keys == keys) else {
            continue;
        };
        let from_set = base
            .overrides
            .iter()
            .any(|raw| Override::parse(raw).is_ok_and(|o| u.covers(&o.path)));
        if !from_set {
            out.push(UnusedKey {
                set: None,
                what: format!("the scenario's {named}"),
                why: u.clone(),
            });
        }
    }
    Ok((out, labelled))
}

/// Refuses a `--set` of `overrides` that none of `runs` has a use for.
pub fn check_sets(overrides: &[String], runs: &[RunSpec]) -> Result<(), CliError> {
    for raw in overrides {
        let what = format!("`{raw}`");
        if !runs.is_empty() && runs.iter().all(|r| idle(r, &what).is_some()) {
            let hint = if raw.starts_with("ap.preset=") {
                "each names its own preset (--config, --configs, or a variant's `preset`): \
                 leave --set ap.preset out"
            } else {
                "choose the layer it tunes as well (ap.qdisc, ap.mac, ap.scheduler, ap.aql \
                 or ap.driver) or a configuration that has it"
            };
            let runs: Vec<&RunSpec> = runs.iter().collect();
            return Err(CliError::new(format!(
                "--set {raw} changes nothing: {}; {hint}",
                ignored_by(&runs, &what)
            )));
        }
    }
    Ok(())
}

/// A line for every setting some of `runs` have no use for: which runs ignore it and
/// why, and which use it.
pub fn notes(runs: &[RunSpec]) -> Vec<String> {
    let mut whats: Vec<&str> = Vec::new();
    for k in runs.iter().flat_map(|r| &r.unused) {
        if !whats.contains(&k.what.as_str()) {
            whats.push(&k.what);
        }
    }
    whats.into_iter().map(|what| note(runs, what)).collect()
}

/// Refuses a sweep over a key some of a point's `runs` have no use for: their points
/// would repeat one result.
pub fn check_params<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    runs: &[RunSpec],
) -> Result<(), CliError> {
    for key in keys {
        let swept = |k: &UnusedKey| {
            k.set
                .as_ref()
                .and_then(|raw| raw.split_once('='))
                .is_some_and(|(k, _)| k == key)
        };
        if let Some(k) = runs.iter().flat_map(|r| &r.unused).find(|k| swept(k)) {
            return Err(CliError::new(format!(
                "--param {key}: {}. Its points would repeat one result in those: sweep the \
                 configurations it tunes (--configs or --variant)",
                note(runs, &k.what)
            )));
        }
    }
    Ok(())
}

/// Which of `runs` ignore `what` and why, and which use it.
fn note(runs: &[RunSpec], what: &str) -> String {
    let (idle, used): (Vec<&RunSpec>, Vec<&RunSpec>) =
        runs.iter().partition(|r| self::idle(r, what).is_some());
    let mut note = ignored_by(&idle, what);
    if !used.is_empty() {
        note += &format!("; {} {} it", names(&used), verb(&used, "uses", "use"));
    }
    note
}

/// Why `run` has no use for `what`, if it has none.
fn idle<'a>(run: &'a RunSpec, what: &str) -> Option<&'a Unused> {
    run.unused.iter().find(|k| k.what == what).map(|k| &k.why)
}

/// `fifo (qdisc pfifo_fast: no fq_codel qdisc), fq_mac, airtime (qdisc none: no fq_codel
/// qdisc) ignore WHAT`: the runs of `idle` grouped by what they have instead.
fn ignored_by(idle: &[&RunSpec], what: &str) -> String {
    let mut groups: Vec<(&Unused, Vec<&RunSpec>)> = Vec::new();
    for r in idle {
        let Some(u) = self::idle(r, what) else {
            continue;
        };
        match groups.iter_mut().find(|(g, _)| g.has == u.has) {
            Some((_, rs)) => rs.push(r),
            None => groups.push((u, vec![r])),
        }
    }
    let shown: Vec<String> = groups
        .iter()
        .map(|(u, rs)| match u.lacks {
            "" => format!("{} ({})", names(rs), u.has),
            lacks => format!("{} ({}: {lacks})", names(rs), u.has),
        })
        .collect();
    format!(
        "{} {} {what}",
        shown.join(", "),
        verb(idle, "ignores", "ignore")
    )
}

/// `one` for a single variant among `runs`, else `many`.
fn verb(runs: &[&RunSpec], one: &'static str, many: &'static str) -> &'static str {
    if names(runs).contains(", ") {
        many
    } else {
        one
    }
}

/// The variants of `runs`, once each, in order.
fn names(runs: &[&RunSpec]) -> String {
    let mut n: Vec<&str> = Vec::new();
    for r in runs {
        if !n.contains(&r.variant.name.as_str()) {
            n.push(&r.variant.name);
        }
    }
    n.join(", ")
}
