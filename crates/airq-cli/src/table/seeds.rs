//! The table of repetitions (`--seeds N`): one column per variant, every figure the mean
//! over seeds ± the half-width of its 95% confidence interval ([`crate::repeat`]), the
//! same blocks as a comparison of single runs (stations, then each kind of flow). A
//! ping percentile that some seed lost (more than 1 - p of its pings unanswered) is not
//! averaged: the cell says in how many seeds it was lost.

use super::flows::{numeric_figures, Kind};
use super::lineup::Lineup;
use super::{settings_line, variant_line};
use crate::repeat::MeanCi;
use crate::results::ResultsFile;
use airq_sim::metrics::distribution::LossyPercentile;
use std::fmt::Write as _;

/// `runs` seed by seed, `variants` runs per seed, as `--seeds` makes them.
pub fn seeds_table(runs: &[ResultsFile], variants: usize) -> String {
    let variants = variants.max(1);
    let Some(first) = runs.first() else {
        return String::new();
    };
    let groups: Vec<Vec<&ResultsFile>> = (0..variants)
        .map(|i| runs.iter().skip(i).step_by(variants).collect())
        .collect();
    let seeds: Vec<u64> = groups[0].iter().map(|r| r.metadata.seed).collect();
    let m = &first.metadata;
    let mut out = format!(
        "{}: {} seeds ({}), {:.1} s simulated each; mean ± 95% confidence interval over \
         seeds\n",
        m.scenario,
        seeds.len(),
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        m.duration_s
    );
    // Repetitions of one experiment: the first run's settings are every run's.
    out += &settings_line(&[m]);
    let variants_metadata: Vec<&crate::results::Metadata> =
        groups.iter().map(|g| &g[0].metadata).collect();
    out += &super::derived_differences(&variants_metadata, &|m| m.variant.clone());
    for g in &groups {
        out += &variant_line(&g[0].metadata);
    }
    // One run per variant (the first seed's) decides the rows: stations by name, flows
    // by label; every seed of a variant has the same stations.
    let heads: Vec<&ResultsFile> = groups.iter().map(|g| g[0]).collect();
    let stations = Lineup::stations(heads.iter().copied());
    let flows = Lineup::flows(heads.iter().copied());
    let names: Vec<&str> = stations.names.iter().map(String::as_str).collect();
    let label_width = (names.iter().map(|n| n.len()))
        .chain(flows.names.iter().map(String::len))
        .map(|l| l + 2)
        .max()
        .unwrap_or(0)
        .max(16);
    let header: Vec<String> = groups
        .iter()
        .map(|g| g[0].metadata.variant.clone())
        .collect();
    let widths: Vec<usize> = header.iter().map(|h| h.len().max(15)).collect();
    let row = |out: &mut String, label: &str, cells: Vec<String>| {
        let _ = write!(out, "{label:<label_width$}");
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {cell:>w$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    };
    row(&mut out, "", header.clone());
    let cells = |f: &dyn Fn(&ResultsFile) -> Option<f64>, decimals: usize| -> Vec<String> {
        groups
            .iter()
            .map(|g| {
                let samples: Vec<f64> = g.iter().filter_map(|r| f(r)).collect();
                MeanCi::of(&samples).map_or(String::new(), |m| m.show(decimals))
            })
            .collect()
    };
    // A figure of each variant's station or flow `name` (at its place in that
    // variant's runs).
    let cells_of = |lineup: &Lineup,
                    name: &str,
                    f: &dyn Fn(&ResultsFile, usize) -> Option<f64>,
                    decimals: usize|
     -> Vec<String> {
        (groups.iter().enumerate())
            .map(|(k, g)| {
                let Some(i) = lineup.position(k, name) else {
                    return String::new();
                };
                let samples: Vec<f64> = g.iter().filter_map(|r| f(r, i)).collect();
                MeanCi::of(&samples).map_or(String::new(), |m| m.show(decimals))
            })
            .collect()
    };
    let section = |out: &mut String,
                   title: &str,
                   f: &dyn Fn(&ResultsFile, usize) -> Option<f64>,
                   decimals: usize| {
        row(out, title, vec![String::new(); groups.len()]);
        for name in &names {
            row(
                out,
                &format!("  {name}"),
                cells_of(&stations, name, f, decimals),
            );
        }
    };
    section(
        &mut out,
        "goodput, Mbit/s",
        &|r, i| Some(r.stations[i].goodput_mbps),
        2,
    );
    row(
        &mut out,
        "  total",
        cells(&|r| Some(r.total_goodput_mbps()), 2),
    );
    section(
        &mut out,
        "airtime share, %",
        &|r, i| Some(r.stations[i].airtime_share * 100.0),
        1,
    );
    row(&mut out, "  Jain's index", cells(&|r| r.airtime_jain(), 3));
    row(
        &mut out,
        "  channel in use, %",
        cells(&|r| r.channel.in_use_share().map(|u| u * 100.0), 1),
    );
    let pinged = groups
        .iter()
        .flatten()
        .any(|r| names.iter().any(|n| r.station_ping(n).is_some()));
    if pinged {
        for (title, pick) in [
            ("ping p50, ms", 0usize),
            ("ping p90, ms", 1),
            ("ping p99, ms", 2),
        ] {
            row(&mut out, title, vec![String::new(); groups.len()]);
            for name in &names {
                let cells: Vec<String> = groups
                    .iter()
                    .map(|g| {
                        let mut values = Vec::new();
                        let mut lost = 0;
                        for r in g {
                            let Some(p) = r.station_ping(name) else {
                                continue;
                            };
                            match [p.p50, p.p90, p.p99][pick] {
                                LossyPercentile::Value(v) => values.push(v),
                                LossyPercentile::Lost => lost += 1,
                            }
                        }
                        if lost > 0 {
                            format!("lost in {lost}/{}", g.len())
                        } else {
                            MeanCi::of(&values).map_or(String::new(), |m| m.show(1))
                        }
                    })
                    .collect();
                row(&mut out, &format!("  {name}"), cells);
            }
        }
        section(
            &mut out,
            "pings lost, %",
            &|r, i| {
                r.station_ping(&r.stations[i].name)
                    .and_then(|p| p.loss())
                    .map(|l| l * 100.0)
            },
            1,
        );
    }
    section(
        &mut out,
        "mean delay, ms",
        &|r, i| r.stations[i].mean_delay_ms,
        1,
    );
    section(
        &mut out,
        "drops",
        &|r, i| Some(r.stations[i].total_drops() as f64),
        1,
    );
    // Each flow row's kind, from the first variant that has it.
    let kind_of = |label: &str| {
        (heads.iter().enumerate())
            .find_map(|(k, r)| flows.position(k, label).map(|i| Kind::of(&r.flows[i])))
            .expect("every label comes from a run")
    };
    for (kind, title, figure, decimals) in numeric_figures() {
        let rows: Vec<&String> = flows.names.iter().filter(|l| kind_of(l) == kind).collect();
        if rows.is_empty() {
            continue;
        }
        row(&mut out, title, vec![String::new(); groups.len()]);
        for label in rows {
            let values = cells_of(&flows, label, &|r, i| figure(&r.flows[i]), decimals);
            row(&mut out, &format!("  {label}"), values);
        }
    }
    out + &super::notes::saturated_note(&heads)
}
