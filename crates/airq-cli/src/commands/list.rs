//! `airq list scenarios|configs|tests|plots|keys`.

use crate::cli::ListWhat;
use crate::error::{io_error, CliError};
use crate::scenario::bundled::BUNDLED;
use crate::scenario::reference;
use crate::scenario::TESTS;
use airq_report::PlotKind;
use airq_sim::ap::{ApConfig, AqlConfig, DriverConfig, MacConfig, QdiscConfig, SchedulerConfig};
use std::path::Path;

/// Prints the list asked for; scenarios are the bundled ones, or the `.toml` files in
/// `dir`; keys as Markdown with `markdown`.
pub fn list(what: ListWhat, dir: Option<&Path>, markdown: bool) -> Result<(), CliError> {
    if markdown && what != ListWhat::Keys {
        return Err(CliError::new("--markdown is for `airq list keys`"));
    }
    match (what, dir) {
        (ListWhat::Scenarios, None) => {
            for (name, text) in BUNDLED {
                println!("{name:<40} {}", description_of(text));
            }
            println!("(bundled: `airq run NAME` runs one from any folder; --dir lists a folder)");
        }
        (ListWhat::Scenarios, Some(dir)) => {
            let mut files: Vec<_> = std::fs::read_dir(dir)
                .map_err(|e| io_error("cannot list", dir, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            files.sort();
            for path in files {
                println!("{:<40} {}", path.display(), description(&path));
            }
        }
        (ListWhat::Configs, _) => {
            for (name, config) in ApConfig::presets() {
                println!("{name:<12} {}", layers(&config));
            }
            println!(
                "Each changes one layer of the one above. Any of them runs on another \
                 driver with --driver softmac|firmware|firmware_push."
            );
        }
        (ListWhat::Tests, _) => {
            for t in TESTS {
                println!("{:<18} {}", t.name, t.about);
            }
        }
        (ListWhat::Plots, _) => {
            for kind in PlotKind::ALL {
                println!("{:<12} {}", kind.name(), kind.description());
            }
        }
        (ListWhat::Keys, _) if markdown => print!("{}", reference::markdown()),
        (ListWhat::Keys, _) => print!("{}", reference::text()),
    }
    Ok(())
}

/// The `description` of a scenario file, or why it has none.
fn description(path: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(path) else {
        return "(cannot read)".into();
    };
    description_of(&text)
}

/// The `description` of a scenario's text, or why it has none.
fn description_of(text: &str) -> String {
    match text.parse::<toml::Table>() {
        Ok(t) => t
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("(no description)")
            .to_string(),
        Err(_) => "(not valid TOML: see airq check)".into(),
    }
}

/// What a configuration sets, layer by layer, read from the configuration itself.
fn layers(c: &ApConfig) -> String {
    let qdisc = match c.qdisc {
        QdiscConfig::None => "none".to_string(),
        QdiscConfig::PfifoFast { limit_packets } => format!("pfifo_fast ({limit_packets} packets)"),
        QdiscConfig::FqCodel(p) => format!("fq_codel ({} flows)", p.flows),
    };
    let mac = match c.mac {
        MacConfig::Legacy { txq_max_pending } => {
            format!("legacy FIFOs ({txq_max_pending} frames/AC)")
        }
        MacConfig::FqMac(p) => format!("FQ-MAC ({} flows)", p.flows),
    };
    let scheduler = match c.scheduler {
        SchedulerConfig::RoundRobin => "round robin".to_string(),
        SchedulerConfig::Airtime(p) => format!("airtime DRR ({:?})", p.mode),
    };
    let aql = match c.aql {
        AqlConfig::Off => "off".to_string(),
        AqlConfig::On(p) if p.self_tuning.is_some() => "self-tuning".to_string(),
        AqlConfig::On(p) => format!(
            "kernel ({}/{} us, {} us)",
            p.limits[1].aql_limit_low_us, p.limits[1].aql_limit_high_us, p.aql_threshold_us
        ),
    };
    let driver = match c.driver {
        DriverConfig::Softmac {
            aggr_min_qdepth,
            max_subframes,
            ..
        } => format!("softmac ({aggr_min_qdepth} A-MPDUs/AC, {max_subframes} subframes)"),
        DriverConfig::Firmware {
            max_pending_frames,
            mode,
        } => format!("firmware {mode:?} ({max_pending_frames} frames)"),
    };
    let admission = match &c.admission {
        None => String::new(),
        Some(p) => format!(
            " | admission {} ms / {} ms -> {}",
            p.target.as_micros() as f64 / 1e3,
            p.interval.as_micros() as f64 / 1e3,
            p.demote_to
        ),
    };
    format!(
        "qdisc {qdisc} | MAC {mac} | scheduler {scheduler} | AQL {aql} | driver {driver}, host \
         latency {} us{admission}",
        c.host_latency.as_micros()
    )
}
