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
    /// Replaces the preset's qdisc: `none`, `pfifo_fast`, `fq_codel`.
    pub qdisc: Option<QdiscKind>,
    /// Replaces the preset's MAC queueing: `legacy`, `fq_mac`.
    pub mac: Option<MacKind>,
    /// Replaces the preset's scheduler: `round_robin`, `airtime`.
    pub scheduler: Option<SchedulerKind>,
    /// Replaces the preset's AQL: `off`, `kernel`, `self_tuning`.
    pub aql: Option<AqlKind>,
    /// Replaces the preset's driver: `softmac` (ath9k-like), `firmware` (ath10k-like,
    /// push-pull), `firmware_push` (ath10k before peer flow control).
    pub driver: Option<DriverKind>,
    /// How long the host's driver takes to act on a completion or a firmware fetch, µs
    /// (default 50).
    pub host_latency_us: Option<f64>,
    /// FQ-MAC's CoDel parameters per station, as mac80211 set them from 2016 to 2025.
    pub slow_station_codel: Option<bool>,
    /// Parameters of the pfifo_fast qdisc.
    pub pfifo_fast: Option<PfifoFastSection>,
    /// Parameters of the fq_codel qdisc.
    pub fq_codel: Option<FqSection>,
    /// Parameters of the legacy MAC queues.
    pub legacy: Option<LegacySection>,
    /// Parameters of FQ-MAC.
    pub fq_mac: Option<FqSection>,
    /// Parameters of the airtime scheduler.
    pub airtime: Option<AirtimeSection>,
    /// AQL limits (kernel or self-tuning AQL).
    pub aql_limits: Option<AqlSection>,
    /// Parameters of the softmac driver.
    pub softmac: Option<SoftmacSection>,
    /// Parameters of the firmware driver.
    pub firmware: Option<FirmwareSection>,
    /// Dynamic aggregate sizing (seed §4.1), off by default.
    pub aggregate_sizing: Option<AggregateSizingSection>,
    /// Just-in-time aggregates in the softmac driver (seed §4.1), off by default.
    pub just_in_time: Option<JustInTimeSection>,
    /// Combined QoS aggregates (seed §4.3), off by default.
    pub qos_aggregate: Option<QosAggregateSection>,
    /// Soft admission control of VO/VI (seed §4.3), off by default.
    pub admission: Option<AdmissionSection>,
    /// A time-based retry limit (seed §4.1), off by default.
    pub retry: Option<RetrySection>,
    /// Airtime groups stations join with their `group` key.
    #[serde(default)]
    pub group: Vec<GroupSection>,
}

/// The qdisc layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QdiscKind {
    /// `noqueue`: straight to the MAC layer.
    None,
    /// Linux's default qdisc: three bands, tail drop.
    PfifoFast,
    /// FQ-CoDel (RFC 8290).
    FqCodel,
}

/// The MAC queueing layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MacKind {
    /// Per station-TID FIFOs, as ath9k before mac80211's TXQs.
    Legacy,
    /// mac80211's FQ-CoDel per station-TID.
    FqMac,
}

/// The station scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerKind {
    /// Round robin over station-TIDs.
    RoundRobin,
    /// Airtime deficit round robin over stations.
    Airtime,
}

/// Airtime Queue Limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AqlKind {
    /// No AQL.
    Off,
    /// The kernel's limits.
    Kernel,
    /// The kernel's limits, self-tuned per station-AC.
    SelfTuning,
}

/// The driver model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriverKind {
    /// ath9k-like: at most two aggregates queued in hardware per AC.
    Softmac,
    /// ath10k-like, push-pull: the firmware asks for frames per TXQ, the host's
    /// scheduler answers.
    Firmware,
    /// ath10k-like, push only: the firmware serves what the host pushed in its own
    /// round robin.
    FirmwarePush,
}

/// `[ap.pfifo_fast]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PfifoFastSection {
    /// Tail-drop limit, packets.
    pub limit_packets: Option<u32>,
}

/// `[ap.fq_codel]` and `[ap.fq_mac]`: FQ-CoDel's parameters.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FqSection {
    /// Flow queues.
    pub flows: Option<u32>,
    /// Global limit, packets.
    pub limit_packets: Option<u32>,
    /// Global memory limit, bytes.
    pub memory_limit_bytes: Option<u64>,
    /// DRR quantum, bytes.
    pub quantum_bytes: Option<u32>,
    /// A frame-count quantum instead of bytes (Kan Yan's AQL proposal).
    pub quantum_frames: Option<u32>,
    /// CoDel target and interval, ms.
    pub target_ms: Option<f64>,
    /// CoDel interval, ms.
    pub interval_ms: Option<f64>,
    /// Mark ECN-capable packets instead of dropping.
    pub ecn: Option<bool>,
}

/// `[ap.legacy]`: the pre-FQ-MAC driver queues.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacySection {
    /// Frames per AC in the driver before the AC's queue is stopped.
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
    /// The sparse-station optimisation: a newly active station's TXQ goes to the head.
    pub sparse_first: Option<bool>,
}

/// `[ap.aql_limits]`: the kernel's AQL limits, µs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AqlSection {
    /// Per station-AC low limit, µs.
    pub limit_low_us: Option<u32>,
    /// Per station-AC high limit, µs.
    pub limit_high_us: Option<u32>,
    /// Interface-wide threshold, µs.
    pub threshold_us: Option<u32>,
}

/// `[ap.softmac]`: ath9k's hardware queue depths.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftmacSection {
    /// A-MPDUs per AC queued to the hardware.
    pub aggr_min_qdepth: Option<u32>,
    /// PPDUs per AC below which a single frame may be queued.
    pub non_aggr_min_qdepth: Option<u32>,
    /// Subframes per A-MPDU, at most (also at most half the BlockAck window).
    pub max_subframes: Option<u16>,
}

/// `[ap.firmware]`: ath10k's firmware queue.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirmwareSection {
    /// Frames the firmware holds at most.
    pub max_pending_frames: Option<u32>,
    /// Push-pull: frames the firmware asks for per TXQ in one fetch, at most.
    pub fetch_frames: Option<u32>,
}

/// `[ap.retry]`: a time-based retry limit (seed netdev 2.2 §4.1,
/// `airq_sim::mac::retry_time`): a failed MPDU with at least `min_tries` transmissions is
/// dropped once older than `time_limit_ms`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetrySection {
    /// The limit, ms; the rule is off without it.
    pub time_limit_ms: Option<f64>,
    /// Transmissions an MPDU always gets (default 2).
    pub min_tries: Option<u8>,
    /// Count the age from the CoDel queue's timestamp (without one, the arrival at the
    /// AP) instead of the first transmission (default false).
    pub include_queue_time: Option<bool>,
}

/// `[ap.aggregate_sizing]`: dynamic aggregate sizing (seed netdev 2.2 §4.1): each
/// aggregate's airtime is capped at `round_airtime_us / n` of `n` backlogged stations,
/// never below `min_airtime_us` (`airq::aggregate::sizing`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AggregateSizingSection {
    /// On or off; must be given when a parameter is.
    pub enabled: Option<bool>,
    /// The airtime budget of one round of the backlogged stations, µs.
    pub round_airtime_us: Option<u32>,
    /// The least an aggregate is capped to, µs.
    pub min_airtime_us: Option<u32>,
}

/// `[ap.just_in_time]`: the softmac driver builds the A-MPDU after the one on the air
/// `lead_time_us` before that one's expected end, late by up to `max_jitter_us` of host
/// scheduling jitter (`airq::aggregate::just_in_time`), instead of keeping two queued.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JustInTimeSection {
    /// On or off; must be given when a parameter is.
    pub enabled: Option<bool>,
    /// How long before the on-air aggregate's expected end the next is built, µs.
    pub lead_time_us: Option<u32>,
    /// The host's scheduling lateness is uniform up to this, µs.
    pub max_jitter_us: Option<u32>,
}

/// `[ap.qos_aggregate]`: combined QoS aggregates (seed netdev 2.2 §4.3, "Improved
/// network efficiency"; `airq::aggregate::qos_aggregate`): a station's queued VO frames
/// ride at the head of its next BE/VI A-MPDU when its VO queue is short and few
/// stations contend, instead of a VO TXOP of their own.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QosAggregateSection {
    /// On or off; must be given when a parameter is.
    pub enabled: Option<bool>,
    /// Most VO frames queued (and carried) for the combination to apply.
    pub max_vo_frames: Option<u16>,
    /// Most stations heard within `contention_window_ms` for it to apply.
    pub max_contenders: Option<u32>,
    /// How far back a station heard counts as contending, ms.
    pub contention_window_ms: Option<u32>,
    /// The longest a VO frame waits for a carrier, µs.
    pub max_wait_us: Option<u32>,
}

/// `[ap.admission]`: soft admission control (seed netdev 2.2 §4.3, `airq::admission`):
/// a flow marked VO or VI that keeps a standing queue is demoted to BE (or BK) until it
/// behaves. With FQ-MAC only.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmissionSection {
    /// On or off; must be given when a parameter is.
    pub enabled: Option<bool>,
    /// Sojourn at or above which a packet leaves above target, ms.
    pub target_ms: Option<f64>,
    /// How long a flow's packets leave above target before it is demoted, ms.
    pub interval_ms: Option<f64>,
    /// How long a demoted flow goes without a standing queue before it is promoted, ms.
    pub promote_after_ms: Option<f64>,
    /// A flow with at most this many bytes queued is never above target.
    pub mtu_bytes: Option<u32>,
    /// `be` or `bk`.
    pub demote_to: Option<DemoteTo>,
    /// Flow buckets.
    pub flows: Option<u32>,
}

/// Where soft admission control demotes a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DemoteTo {
    /// Best effort (TID 0).
    Be,
    /// Background (TID 1).
    Bk,
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
    /// What stations' `group` keys name.
    pub name: String,
    /// DRR weight of the group, µs (256 by default).
    pub weight: Option<u32>,
    #[serde(default)]
    /// `share` (work-conserving) or `limit` (capped at its share).
    pub mode: GroupModeName,
    /// The group it is nested in (listed before it); at the root without.
    pub parent: Option<String>,
}
