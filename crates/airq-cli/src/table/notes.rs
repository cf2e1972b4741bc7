//! The lines a table adds to say what its figures are: settings derived from the
//! stations that differ between runs, CoDel per station, and the notes under a table
//! (percentiles among lost pings, a saturated flood's drops).

use crate::results::{Metadata, PingStats, ResultsFile};
use crate::scenario::reference::wrap;
use airq_sim::apps::traffic::SATURATED_BACKLOG_PACKETS;
use airq_sim::metrics::distribution::LossyPercentile;
use std::fmt::Write as _;

/// The note under a table where a percentile reads `lost`.
const LOST_NOTE: &str = "lost: the percentile falls among the unanswered pings (more than \
                         1 - p of them lost)";

/// Whether `r` is a simulated run with a saturated UDP flood (see [`saturated_note`]).
fn has_saturated_flood(r: &ResultsFile) -> bool {
    r.metadata.emulation.is_none() && r.flows.iter().any(|f| f.test.starts_with("udp_flood"))
}

/// The notes under a table of `runs`, each after a blank line.
pub(super) fn notes(runs: &[&ResultsFile]) -> String {
    let mut out = String::new();
    if runs.iter().any(|r| has_lost_percentile(r)) {
        let _ = writeln!(out, "\n{LOST_NOTE}");
    }
    out + &saturated_note(runs)
}

/// The note under a table of simulated runs with a saturated UDP flood, after a blank
/// line: its drops are the saturation model's ([`airq_sim::apps::traffic`]), not a
/// property of the AP.
pub(super) fn saturated_note(runs: &[&ResultsFile]) -> String {
    if !runs.iter().any(|r| has_saturated_flood(r)) {
        return String::new();
    }
    let text = format!(
        "drops: a saturated UDP flood (udp_flood, udp_flood_up) keeps {SATURATED_BACKLOG_PACKETS} \
         packets queued at its sender and sends one more for each that leaves, so a full \
         queue drops one per departure: those drops count what this model offers, not a \
         real sender's excess (airq emulate's iperf3 floods drop several times more)"
    );
    format!("\n{}", wrap(&text, "", "  "))
}

/// Settings a scenario derives from its stations rather than names, when they differ
/// between the runs of one table: a variant that changes the stations can change them
/// too, a second change beside the one it names. FQ-MAC's memory limit (4 MiB on an AP
/// none of whose stations has a VHT or HE rate) and the BSS timing (802.11b's when
/// every station is DSSS). A run that sets one itself (`--set`, a variant's change) is a
/// difference asked for: nothing is said of that setting. Runs are named by `label`.
pub fn derived_differences(runs: &[&Metadata], label: &dyn Fn(&Metadata) -> String) -> String {
    let set_by_a_run = |key: &str| {
        runs.iter().any(|r| {
            r.overrides
                .iter()
                .chain(&r.variant_set)
                .any(|o| o.contains(key))
        })
    };
    let mut out = String::new();
    let memory: Vec<(String, u64)> = runs
        .iter()
        .filter_map(|r| {
            let bytes = r.ap_config["fq_mac"]["memory_limit_bytes"].as_u64()?;
            Some((label(r), bytes))
        })
        .collect();
    if memory.iter().any(|m| m.1 != memory[0].1) && !set_by_a_run("memory_limit_bytes") {
        let each: Vec<String> = memory
            .iter()
            .map(|(v, bytes)| format!("{v} {bytes}"))
            .collect();
        let text = format!(
            "note: FQ-MAC's memory limit differs between the runs (bytes; 4 MiB when no \
             station has a VHT or HE rate): {}",
            dedup(each).join(", ")
        );
        out += &wrap(&text, "", "  ");
    }
    let timing: Vec<String> = runs
        .iter()
        .map(|r| {
            let t = r.bss_timing.as_deref().unwrap_or("the band's");
            format!("{} {t}", label(r))
        })
        .collect();
    if runs.iter().any(|r| r.bss_timing != runs[0].bss_timing) && !set_by_a_run("bss.timing") {
        let text = format!(
            "note: the BSS timing differs between the runs (derived from the stations): {}",
            dedup(timing).join(", ")
        );
        out += &wrap(&text, "", "  ");
    }
    out
}

/// `items` without repeats, in first-seen order.
fn dedup(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The CoDel parameters FQ-MAC judged each station by at the end, when they were set
/// per station (`[ap] slow_station_codel`), stations of the same parameters together.
pub(super) fn codel_line(r: &ResultsFile) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for s in &r.stations {
        let Some(c) = s.codel else { continue };
        let ecn = if c.ecn { "with" } else { "without" };
        let params = format!("{} / {} ms {ecn} ECN", c.target_ms, c.interval_ms);
        match groups.iter_mut().find(|(p, _)| *p == params) {
            Some((_, names)) => names.push(&s.name),
            None => groups.push((params, vec![&s.name])),
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(params, names)| format!("{} {params}", names.join(", ")))
        .collect();
    let text = format!(
        "CoDel per station (slow_station_codel), at the end: {}",
        parts.join("; ")
    );
    wrap(&text, "", "  ")
}

/// Whether a ping percentile of `r`, a station's or a flow's, falls among lost pings.
fn has_lost_percentile(r: &ResultsFile) -> bool {
    let lost = |p: PingStats| [p.p50, p.p90, p.p99].contains(&LossyPercentile::Lost);
    let stations = r.stations.iter().filter_map(|s| r.station_ping(&s.name));
    let flows = r.flows.iter().filter_map(|f| f.ping());
    stations.chain(flows).any(lost)
}
