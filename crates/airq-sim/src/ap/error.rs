//! What the AP's transmit path refuses: configurations that cannot run, and calls about
//! stations it does not have. Each says what is wrong in words a scenario author can act on.

use crate::net::packet::SimPacket;
use airq::airtime::SchedError;
use airq::aql::AqlParamsError;
use airq::fq::FqParamError;
use airq::StationId;
use std::fmt;

/// A configuration [`ApTx::new`](super::ApTx::new) cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApConfigError {
    /// No preset has this name.
    UnknownPreset(String),
    /// A limit that must be above zero is zero (the field is named).
    ZeroLimit(&'static str),
    /// FQ parameters of a layer (`qdisc fq_codel` or `mac fq_mac`) are out of range.
    Fq {
        layer: &'static str,
        error: FqParamError,
    },
    Scheduler(SchedError),
    Aql(AqlParamsError),
    /// Airtime weights are 1 to 65535 µs.
    WeightOutOfRange {
        station: StationId,
        weight_us: u32,
    },
    /// A weight names a station the BSS does not have.
    WeightForUnknownStation {
        station: StationId,
        stations: usize,
    },
    /// Group weights are 1 to 65535 µs.
    GroupWeightOutOfRange {
        group: usize,
        weight_us: u32,
    },
    /// A group names a station the BSS does not have.
    GroupOfUnknownStation {
        group: usize,
        station: StationId,
        stations: usize,
    },
    /// A group's parent must come before it in the list (so that nesting has no cycle).
    GroupParentNotEarlier {
        group: usize,
    },
    /// A station is listed in two groups.
    StationInTwoGroups {
        station: StationId,
    },
    /// Station identifiers go up to [`StationId::MAX`].
    TooManyStations(usize),
    /// The host latency is zero or longer than [`super::config::MAX_HOST_LATENCY`].
    HostLatencyOutOfRange(airq::Duration),
    /// An aggregate-building option's parameters are out of range.
    Aggregation(super::aggregation::AggregationError),
    /// Soft admission control's parameters are out of range.
    Admission(airq::admission::AdmissionParamsError),
    /// Soft admission control without FQ-MAC, whose sojourn it measures.
    AdmissionWithoutFqMac,
    /// Combined QoS aggregates without FQ-MAC (the seed's proposal is over mac80211's
    /// TXQs).
    QosAggregateWithoutFqMac,
    /// CoDel parameters per station without FQ-MAC (they are FQ-MAC's CoDel's).
    SlowStationCodelWithoutFqMac,
    /// A BSS parameter the transmit path cannot work with.
    Bss(&'static str),
    /// A station's link parameter the transmit path cannot work with.
    Link {
        station: StationId,
        reason: &'static str,
    },
}

impl fmt::Display for ApConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApConfigError::UnknownPreset(name) => write!(
                f,
                "unknown AP preset \"{name}\"; valid presets: {}",
                super::preset::PRESET_NAMES.join(", ")
            ),
            ApConfigError::ZeroLimit(field) => write!(f, "{field} must be above zero"),
            ApConfigError::Fq { layer, error } => write!(f, "{layer}: {error}"),
            ApConfigError::Scheduler(e) => write!(f, "scheduler: {e}"),
            ApConfigError::Aql(e) => write!(f, "aql: {e}"),
            ApConfigError::WeightOutOfRange { station, weight_us } => write!(
                f,
                "airtime weight of {station} must be between 1 and {} us, got {weight_us}",
                airq::airtime::AirtimeParams::MAX_WEIGHT_US
            ),
            ApConfigError::WeightForUnknownStation { station, stations } => write!(
                f,
                "airtime weight for {station}, but the BSS has {stations} stations \
                 (0 to {})",
                stations.saturating_sub(1)
            ),
            ApConfigError::GroupWeightOutOfRange { group, weight_us } => write!(
                f,
                "airtime weight of group {group} must be between 1 and {} us, got {weight_us}",
                airq::airtime::AirtimeParams::MAX_WEIGHT_US
            ),
            ApConfigError::GroupOfUnknownStation {
                group,
                station,
                stations,
            } => write!(
                f,
                "airtime group {group} lists {station}, but the BSS has {stations} \
                 stations"
            ),
            ApConfigError::GroupParentNotEarlier { group } => write!(
                f,
                "airtime group {group} is nested in a group that does not come before it"
            ),
            ApConfigError::StationInTwoGroups { station } => {
                write!(f, "{station} is in two airtime groups")
            }
            ApConfigError::TooManyStations(n) => write!(
                f,
                "{n} stations: at most {} are supported",
                StationId::MAX as usize + 1
            ),
            ApConfigError::HostLatencyOutOfRange(d) => write!(
                f,
                "host_latency must be above 0 and at most {} us, got {} us",
                super::config::MAX_HOST_LATENCY.as_micros(),
                d.as_nanos() as f64 / 1000.0
            ),
            ApConfigError::Aggregation(e) => write!(f, "{e}"),
            ApConfigError::Admission(e) => write!(f, "{e}"),
            ApConfigError::AdmissionWithoutFqMac => write!(
                f,
                "admission needs mac fq_mac: it measures the sojourn in FQ-MAC's queues"
            ),
            ApConfigError::QosAggregateWithoutFqMac => write!(
                f,
                "qos_aggregate needs mac fq_mac: it holds VO frames in mac80211's TXQs"
            ),
            ApConfigError::SlowStationCodelWithoutFqMac => write!(
                f,
                "slow_station_codel needs mac fq_mac: it sets the CoDel of FQ-MAC's TXQs"
            ),
            ApConfigError::Bss(reason) => write!(f, "BSS: {reason}"),
            ApConfigError::Link { station, reason } => write!(f, "{station}: {reason}"),
        }
    }
}

impl std::error::Error for ApConfigError {}

/// A call naming a station the AP does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownStation {
    pub station: StationId,
    pub stations: usize,
}

impl fmt::Display for UnknownStation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not in the BSS ({} stations)",
            self.station, self.stations
        )
    }
}

impl std::error::Error for UnknownStation {}

/// A packet [`ApTx::enqueue`](super::ApTx::enqueue) refused, handed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApEnqueueError {
    pub error: UnknownStation,
    pub packet: SimPacket,
}

impl fmt::Display for ApEnqueueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "packet {} refused: {}", self.packet.id, self.error)
    }
}

impl std::error::Error for ApEnqueueError {}
