//! The seeds' published figures (`experiments/seed-figures.toml`) are well-formed data:
//! every entry names a declared source and the place in it, says how it was read, and
//! carries exactly one kind of value; every experiment of the reproduction list (1-18)
//! has at least one entry; the few numbers a seed prints in full are checked against the
//! sentence that summarises them.

use airq_cli::commands::reproduce::manifest::{load_seed_figures, SeedFigures};
use std::collections::BTreeSet;
use std::path::Path;

fn load() -> SeedFigures {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    load_seed_figures(&dir).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_figure_names_its_source_and_carries_one_kind_of_value() {
    let data = load();
    let mut ids = BTreeSet::new();
    for f in &data.figure {
        assert!(ids.insert(f.id.as_str()), "duplicate id {}", f.id);
        assert!(
            data.source.contains_key(&f.source),
            "{}: unknown source {}",
            f.id,
            f.source
        );
        assert!(!f.place.is_empty(), "{}: where is empty", f.id);
        assert!(
            ["text", "table", "ping-log"].contains(&f.read_from.as_str()),
            "{}: read_from {}",
            f.id,
            f.read_from
        );
        assert!(
            (1..=18).contains(&f.experiment),
            "{}: experiment {}",
            f.id,
            f.experiment
        );
        let bound = f.value_min.is_some() || f.value_max.is_some();
        let kinds = [f.value.is_some(), bound, f.samples.is_some()];
        assert_eq!(
            kinds.iter().filter(|k| **k).count(),
            1,
            "{}: one kind of value",
            f.id
        );
        if let (Some(lo), Some(hi)) = (f.value_min, f.value_max) {
            assert!(lo < hi, "{}: empty range", f.id);
        }
        if f.read_from == "ping-log" {
            // Every printed ping, or a figure derived from them that says how.
            let samples = f.samples.as_ref().is_some_and(|s| !s.is_empty());
            assert!(samples || f.note.is_some(), "{}", f.id);
        }
    }
    for s in &data.shape {
        assert!(
            data.source.contains_key(&s.source),
            "shape: unknown source {}",
            s.source
        );
    }
}

#[test]
fn every_experiment_of_the_reproduction_list_has_an_entry() {
    let data = load();
    let covered: BTreeSet<u32> = data
        .figure
        .iter()
        .map(|f| f.experiment)
        .chain(data.shape.iter().map(|s| s.experiment))
        .collect();
    let missing: Vec<u32> = (1..=18).filter(|e| !covered.contains(e)).collect();
    assert!(
        missing.is_empty(),
        "experiments without an entry: {missing:?}"
    );
}

#[test]
fn the_ath9k_commit_totals_are_the_sums_of_its_stations() {
    // The commit message prints per-station and total goodput; the totals must be the sums
    // (to the printed 0.01 Mbit/s), which catches a mistyped value.
    let data = load();
    let value = |id: &str| {
        data.figure
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.value)
            .unwrap()
    };
    for when in ["before", "after"] {
        let sum: f64 = ["fast1", "fast2", "slow"]
            .iter()
            .map(|s| value(&format!("ath9k-3sta-{s}-{when}")))
            .sum();
        let total = value(&format!("ath9k-3sta-total-{when}"));
        assert!((sum - total).abs() < 0.011, "{when}: {sum} vs {total}");
    }
}

#[test]
fn the_near_far_logs_match_the_ranges_the_issue_quotes() {
    // Issue 16 summarises the talk's logs as 1.1-1.8 ms idle, 100-173 ms (pfifo_fast),
    // 2-59 ms (fq_codel) and 1.4-51 ms (intermediate queues): the printed samples agree.
    let data = load();
    let samples = |id: &str| {
        data.figure
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.samples.clone())
            .unwrap()
    };
    let range = |s: &[f64]| {
        let lo = s.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    let pfifo = samples("nearfar-pfifo-fast");
    let (idle_lo, idle_hi) = range(&pfifo[..6]);
    assert!(
        idle_lo >= 1.1 && idle_hi <= 1.81,
        "idle {idle_lo}-{idle_hi}"
    );
    let (_, loaded_hi) = range(&pfifo[9..]);
    assert!((loaded_hi - 173.305).abs() < 1e-9);
    let (_, fq_hi) = range(&samples("nearfar-fq-codel")[6..]);
    assert!((fq_hi - 59.292).abs() < 1e-9);
    let (_, iq_hi) = range(&samples("nearfar-intermediate-queues")[6..]);
    assert!((iq_hi - 51.174).abs() < 1e-9);
}
