//! Named configurations reproducing the seeds' comparisons (Høiland-Jørgensen et al.,
//! "Ending the Anomaly", USENIX ATC 2017, §5; Kan Yan's AQL): each changes exactly one
//! layer of the one before, so that a comparison along the ladder isolates each step.
//!
//! | preset        | qdisc      | MAC     | scheduler   | AQL    | driver  |
//! |---------------|------------|---------|-------------|--------|---------|
//! | `fifo`        | pfifo_fast | legacy  | round robin | off    | softmac |
//! | `fq_codel`    | fq_codel   | legacy  | round robin | off    | softmac |
//! | `fq_mac`      | none       | FQ-MAC  | round robin | off    | softmac |
//! | `airtime`     | none       | FQ-MAC  | airtime DRR | off    | softmac |
//! | `airtime_aql` | none       | FQ-MAC  | airtime DRR | kernel | softmac |
//!
//! (`fq_codel` → `fq_mac` moves the queue from the qdisc into the MAC: one step, the
//! seed's, since mac80211 gives drivers with intermediate queues `noqueue`.)
//!
//! The driver is a separate axis: every preset runs on the ath10k-like firmware driver
//! too ([`ApConfig::with_driver`]), which is where AQL was made for (Kan Yan's ath10k
//! case): `airtime` against `airtime_aql` on the firmware driver isolates AQL there.

use super::config::{
    AqlConfig, DriverConfig, MacConfig, QdiscConfig, SchedulerConfig, DEFAULT_HOST_LATENCY,
};
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
                DriverConfig::softmac(),
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
            host_latency: DEFAULT_HOST_LATENCY,
            admission: None,
            aggregation: Default::default(),
            retry_time: None,
            slow_station_codel: false,
        })
    }

    /// The same configuration on another driver.
    pub fn with_driver(mut self, driver: DriverConfig) -> ApConfig {
        self.driver = driver;
        self
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

    /// Each step of the ladder changes exactly one layer. The qdisc and the MAC queues
    /// are one layer, where the queue is: FQ-MAC moves it from the qdisc into the MAC
    /// (mac80211 drivers with TXQs get `noqueue`).
    #[test]
    fn each_preset_changes_one_layer_of_the_one_before() {
        let layers = |c: &ApConfig| {
            [
                format!("{:?} {:?}", c.qdisc, c.mac),
                format!("{:?}", c.scheduler),
                format!("{:?}", c.aql),
                format!("{:?}", c.driver),
            ]
        };
        let ladder: Vec<_> = ApConfig::presets().map(|(_, c)| layers(&c)).collect();
        for (i, pair) in ladder.windows(2).enumerate() {
            let changed = pair[0].iter().zip(&pair[1]).filter(|(a, b)| a != b).count();
            assert_eq!(changed, 1, "{} -> {}", PRESET_NAMES[i], PRESET_NAMES[i + 1]);
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
