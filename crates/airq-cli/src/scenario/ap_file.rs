//! The `[ap]` table as written: a preset (the seeds' named designs) and, on top of it,
//! any layer of the AP's transmit path replaced and any layer's parameters changed. A
//! parameter table is named for the layer choice it tunes (`[ap.fq_codel]` tunes the
//! fq_codel qdisc) and applies whenever that choice is in use, whichever preset or
//! `compare` configuration brought it in. Defaults are the Linux ones of
//! `airq_sim::ap::config`.

use serde::Deserialize;

/// `[ap]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApSection {
    /// One of `airq_sim::ap::PRESET_NAMES` (default `airtime`); `--config` replaces it.
    pub preset: Option<String>,
    pub qdisc: Option<QdiscKind>,
    pub mac: Option<MacKind>,
    pub scheduler: Option<SchedulerKind>,
    pub aql: Option<AqlKind>,
    pub driver: Option<DriverKind>,
    pub pfifo_fast: Option<PfifoFastSection>,
    pub fq_codel: Option<FqSection>,
    pub legacy: Option<LegacySection>,
    pub fq_mac: Option<FqSection>,
    pub airtime: Option<AirtimeSection>,
    pub aql_limits: Option<AqlSection>,
    pub softmac: Option<SoftmacSection>,
    pub firmware: Option<FirmwareSection>,
    /// Airtime groups stations join with their `group` key.
    #[serde(default)]
    pub group: Vec<GroupSection>,
}

/// The qdisc layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QdiscKind {
    None,
    PfifoFast,
    FqCodel,
}

/// The MAC queueing layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MacKind {
    Legacy,
    FqMac,
}

/// The station scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerKind {
    RoundRobin,
    Airtime,
}

/// Airtime Queue Limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AqlKind {
    Off,
    Kernel,
    SelfTuning,
}

/// The driver model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriverKind {
    Softmac,
    Firmware,
}

/// `[ap.pfifo_fast]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PfifoFastSection {
    pub limit_packets: Option<u32>,
}

/// `[ap.fq_codel]` and `[ap.fq_mac]`: FQ-CoDel's parameters.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FqSection {
    pub flows: Option<u32>,
    pub limit_packets: Option<u32>,
    pub memory_limit_bytes: Option<u64>,
    pub quantum_bytes: Option<u32>,
    /// A frame-count quantum instead of bytes (Kan Yan's AQL proposal).
    pub quantum_frames: Option<u32>,
    /// CoDel target and interval, ms.
    pub target_ms: Option<f64>,
    pub interval_ms: Option<f64>,
    pub ecn: Option<bool>,
}

/// `[ap.legacy]`: the pre-FQ-MAC driver queues.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacySection {
    pub txq_max_pending: Option<u32>,
}

/// `[ap.airtime]`: the airtime DRR scheduler.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirtimeSection {
    /// Weight of stations without their own `weight`, µs.
    pub default_weight_us: Option<u32>,
    /// Charge received (uplink) airtime too.
    pub use_rx: Option<bool>,
    /// Pick the station first, then its highest AC (seed §4.3).
    pub station_first: Option<bool>,
}

/// `[ap.aql_limits]`: the kernel's AQL limits, µs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AqlSection {
    pub limit_low_us: Option<u32>,
    pub limit_high_us: Option<u32>,
    pub threshold_us: Option<u32>,
}

/// `[ap.softmac]`: ath9k's hardware queue depths.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftmacSection {
    pub aggr_min_qdepth: Option<u32>,
    pub non_aggr_min_qdepth: Option<u32>,
}

/// `[ap.firmware]`: ath10k's firmware queue.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirmwareSection {
    pub max_pending_frames: Option<u32>,
}

/// How a group uses the airtime its siblings leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupModeName {
    /// Work-conserving.
    #[default]
    Share,
    /// Capped at its share even when the rest is idle (a guest network).
    Limit,
}

/// `[[ap.group]]`: an airtime group (seed netdev 2.2 §4.2, "airtime policies").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSection {
    pub name: String,
    /// DRR weight of the group, µs (256 by default).
    pub weight: Option<u32>,
    #[serde(default)]
    pub mode: GroupModeName,
}
