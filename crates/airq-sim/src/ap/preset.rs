//! Named configurations reproducing the seeds' comparisons (Høiland-Jørgensen et al.,
//! "Ending the Anomaly", USENIX ATC 2017, §5; Kan Yan's AQL on ath10k): each adds one
//! layer of the fix to the one before.
//!
//! | preset        | qdisc      | MAC     | scheduler   | AQL    | driver   |
//! |---------------|------------|---------|-------------|--------|----------|
//! | `fifo`        | pfifo_fast | legacy  | round robin | off    | softmac  |
//! | `fq_codel`    | fq_codel   | legacy  | round robin | off    | softmac  |
//! | `fq_mac`      | none       | FQ-MAC  | round robin | off    | softmac  |
//! | `airtime`     | none       | FQ-MAC  | airtime DRR | off    | softmac  |
//! | `airtime_aql` | none       | FQ-MAC  | airtime DRR | kernel | firmware |

use super::config::{AqlConfig, DriverConfig, MacConfig, QdiscConfig, SchedulerConfig};
use super::{ApConfig, ApConfigError};

/// The presets, in the order of the table above.
pub const PRESET_NAMES: [&str; 5] = ["fifo", "fq_codel", "fq_mac", "airtime", "airtime_aql"];

impl ApConfig {
    /// The configuration named `name` (one of [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Result<ApConfig, ApConfigError> {
        let (qdisc, mac, scheduler, aql, driver) = match name {
            "fifo" => (
                QdiscConfig::pfifo_fast(),
                MacConfig::legacy(),
                SchedulerConfig::RoundRobin,
                AqlConfig::Off,
                DriverConfig::softmac(),
            ),
            "fq_codel" => (
                QdiscConfig::fq_codel(),
                MacConfig::legacy(),
                SchedulerConfig::RoundRobin,
                AqlConfig::Off,
                DriverConfig::softmac(),
            ),
            "fq_mac" => (
                QdiscConfig::None,
                MacConfig::fq_mac(),
                SchedulerConfig::RoundRobin,
                AqlConfig::Off,
                DriverConfig::softmac(),
            ),
            "airtime" => (
                QdiscConfig::None,
                MacConfig::fq_mac(),
                SchedulerConfig::airtime(),
                AqlConfig::Off,
                DriverConfig::softmac(),
            ),
            "airtime_aql" => (
                QdiscConfig::None,
                MacConfig::fq_mac(),
                SchedulerConfig::airtime(),
                AqlConfig::kernel(),
                DriverConfig::firmware(),
            ),
            _ => return Err(ApConfigError::UnknownPreset(name.to_string())),
        };
        Ok(ApConfig {
            qdisc,
            mac,
            scheduler,
            aql,
            driver,
            airtime_weights: Vec::new(),
            airtime_groups: Vec::new(),
        })
    }

    /// Every preset, by name.
    pub fn presets() -> impl Iterator<Item = (&'static str, ApConfig)> {
        PRESET_NAMES
            .iter()
            .map(|&name| (name, ApConfig::preset(name).expect("listed presets exist")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_preset_exists_and_validates() {
        for (name, config) in ApConfig::presets() {
            assert!(config.validate(2).is_ok(), "{name}");
        }
    }

    #[test]
    fn unknown_preset_lists_the_valid_names() {
        let e = ApConfig::preset("codel").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown AP preset \"codel\"; valid presets: fifo, fq_codel, fq_mac, airtime, \
             airtime_aql"
        );
    }
}
