//! `airq list scenarios|configs|tests|plots`.

use crate::cli::ListWhat;
use crate::error::{io_error, CliError};
use crate::scenario::TESTS;
use airq_report::PlotKind;
use airq_sim::ap::PRESET_NAMES;
use std::path::Path;

/// Prints the list asked for; scenarios are the `.toml` files in `dir`.
pub fn list(what: ListWhat, dir: &Path) -> Result<(), CliError> {
    match what {
        ListWhat::Scenarios => {
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
        ListWhat::Configs => {
            for name in PRESET_NAMES {
                println!("{name:<12} {}", preset_about(name));
            }
        }
        ListWhat::Tests => {
            for t in TESTS {
                println!("{:<18} {}", t.name, t.about);
            }
        }
        ListWhat::Plots => {
            for kind in PlotKind::ALL {
                println!("{:<12} {}", kind.name(), kind.description());
            }
        }
    }
    Ok(())
}

/// The `description` of a scenario file, or why it has none.
fn description(path: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(path) else {
        return "(cannot read)".into();
    };
    match text.parse::<toml::Table>() {
        Ok(t) => t
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("(no description)")
            .to_string(),
        Err(_) => "(not valid TOML: see airq check)".into(),
    }
}

/// What each preset is, as `airq_sim::ap::preset` tabulates it.
fn preset_about(name: &str) -> &'static str {
    match name {
        "fifo" => {
            "pfifo_fast qdisc, legacy per-TID driver FIFOs, round robin (Linux <= 4.8, ath9k)"
        }
        "fq_codel" => "fq_codel qdisc over the legacy driver FIFOs, round robin",
        "fq_mac" => "no qdisc, FQ-MAC (per-TID FQ-CoDel in mac80211), round robin",
        "airtime" => "FQ-MAC and the airtime-fairness DRR scheduler (softmac driver)",
        "airtime_aql" => {
            "FQ-MAC, airtime DRR and Airtime Queue Limits over a firmware-offload driver"
        }
        _ => "",
    }
}
