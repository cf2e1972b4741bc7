//! The configuration of the AP's transmit path: one choice per layer of DESIGN.md's data
//! path (qdisc, MAC queueing, scheduler, AQL, driver), each with its parameters and the
//! Linux defaults they come from. Named combinations are in [`super::preset`].

use super::aggregation::AggregationConfig;
use super::error::ApConfigError;
use crate::mac::retry_time::RetryTimeParams;
use airq::admission::AdmissionParams;
use airq::airtime::{AirtimeParams, GroupMode};
use airq::aql::AqlParams;
use airq::codel::CodelParams;
use airq::fq::{FattestSearch, FqParams, Quantum};
use airq::{Duration, StationId};

/// pfifo_fast's limit: the device's `tx_queue_len`, 1000 packets on Ethernet-like
/// devices such as a mac80211 interface (`DEFAULT_TX_QUEUE_LEN`, `ether_setup`).
pub const PFIFO_FAST_LIMIT_PACKETS: u32 = 1000;

/// ath9k's per-AC limit on frames handed to the driver and not yet completed
/// (`sc->tx.txq_max_pending[ac]`, set to `ATH_MAX_QDEPTH` in `ath9k_init_queues`,
/// init.c). ath9k.h: `ATH_TXBUF 512`, `ATH_TXBUF_RESERVE 5`,
/// `ATH_MAX_QDEPTH (ATH_TXBUF / 4 - ATH_TXBUF_RESERVE)` = 123.
pub const ATH9K_TXQ_MAX_PENDING: u32 = 512 / 4 - 5;

/// ath9k.h `ATH_AGGR_MIN_QDEPTH 2`: "minimum h/w qdepth to be sustained to maximize
/// aggregation" — A-MPDUs queued to (or on) one hardware queue.
pub const ATH9K_AGGR_MIN_QDEPTH: u32 = 2;

/// ath9k.h `ATH_NON_AGGR_MIN_QDEPTH 8`: "minimum h/w qdepth for non-aggregated traffic".
pub const ATH9K_NON_AGGR_MIN_QDEPTH: u32 = 8;

/// ath9k.h `ATH_AMPDU_SUBFRAME_DEFAULT 32`: `ath_tx_form_aggr` (xmit.c) ends an A-MPDU
/// at `min(h_baw, ATH_AMPDU_SUBFRAME_DEFAULT)` subframes, `h_baw` being half the
/// BlockAck window.
pub const ATH9K_AMPDU_SUBFRAME_DEFAULT: u16 = 32;

/// ath10k with 10.x firmware (QCA988x): MSDU descriptors the host may have outstanding
/// in the firmware, all queues together (hw.h `TARGET_10X_NUM_MSDU_DESC (1024 + 400)`,
/// copied to `ar->htt.max_num_pending_tx` in `ath10k_core_init_firmware_features`,
/// core.c; `ath10k_htt_tx_inc_pending` refuses a frame at that count, htt_tx.c).
pub const ATH10K_MAX_PENDING_FRAMES: u32 = 1024 + 400;

/// The qdisc in front of the MAC layer.
///
/// A mac80211 interface has one netdev queue per AC, so Linux attaches `mq` with one
/// instance of the default qdisc per AC: each instance here is per AC, with its own limit,
/// and is held back only when its own AC's MAC queue is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QdiscConfig {
    /// `noqueue`: packets go straight to the MAC layer, and are dropped
    /// ([`DropCause::QueueFull`](crate::mac::txpath::DropCause::QueueFull)) if it has
    /// stopped the AC's queue.
    None,
    /// `pfifo_fast` with a tail-drop limit over its three bands.
    PfifoFast { limit_packets: u32 },
    /// `fq_codel`, built from [`airq::Fq`] with a single tin.
    FqCodel(FqParams),
}

impl QdiscConfig {
    /// pfifo_fast with Linux's limit.
    pub const fn pfifo_fast() -> QdiscConfig {
        QdiscConfig::PfifoFast {
            limit_packets: PFIFO_FAST_LIMIT_PACKETS,
        }
    }

    /// fq_codel with Linux's defaults.
    pub fn fq_codel() -> QdiscConfig {
        QdiscConfig::FqCodel(fq_codel_defaults())
    }
}

/// `sch_fq_codel`'s defaults (net/sched/sch_fq_codel.c `fq_codel_init`): 1024 flows,
/// limit 10240 packets, memory limit 32 MB, quantum `psched_mtu` = 1514 bytes, and
/// CoDel's generic 5 ms / 100 ms with ECN on and the device MTU as the CoDel `mtu`.
pub fn fq_codel_defaults() -> FqParams {
    FqParams {
        flows: 1024,
        limit_packets: 10 * 1024,
        memory_limit_bytes: 32 << 20,
        quantum: Quantum::Bytes(1514),
        codel: CodelParams {
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
            ecn: true,
            mtu_bytes: 1514,
            ce_threshold: None,
        },
        // How the fattest flow is found costs time, not results.
        fattest: FattestSearch::default(),
    }
}

/// The MAC layer's queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacConfig {
    /// ath9k before mac80211's intermediate queues: a FIFO per station-TID, and per AC a
    /// limit on frames in the driver after which the netdev queue is stopped.
    Legacy { txq_max_pending: u32 },
    /// FQ-MAC: an [`airq::Fq`] with one tin per station-TID.
    FqMac(FqParams),
}

impl MacConfig {
    /// ath9k's defaults.
    pub const fn legacy() -> MacConfig {
        MacConfig::Legacy {
            txq_max_pending: ATH9K_TXQ_MAX_PENDING,
        }
    }

    /// mac80211's defaults.
    pub fn fq_mac() -> MacConfig {
        MacConfig::FqMac(FqParams::default())
    }
}

/// How the next station-TID to serve is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerConfig {
    /// Round robin over station-TIDs ([`AirtimeParams::round_robin`]).
    RoundRobin,
    /// The airtime DRR over stations.
    Airtime(AirtimeParams),
}

impl SchedulerConfig {
    /// Airtime fairness with mac80211's defaults.
    pub fn airtime() -> SchedulerConfig {
        SchedulerConfig::Airtime(AirtimeParams::default())
    }

    pub(crate) fn params(&self) -> AirtimeParams {
        match self {
            SchedulerConfig::RoundRobin => AirtimeParams::round_robin(),
            SchedulerConfig::Airtime(p) => *p,
        }
    }
}

/// Airtime Queue Limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AqlConfig {
    Off,
    /// The library's [`airq::aql::Aql`]: the kernel's gates, or self-tuning limits when
    /// `self_tuning` is set.
    On(AqlParams),
}

impl AqlConfig {
    /// The kernel's limits (5 / 12 ms per station-AC, 24 ms per interface).
    pub fn kernel() -> AqlConfig {
        AqlConfig::On(AqlParams::default())
    }

    /// The kernel's limits with the self-tuning limit per station-AC.
    pub fn self_tuning() -> AqlConfig {
        AqlConfig::On(AqlParams {
            self_tuning: Some(Default::default()),
            ..AqlParams::default()
        })
    }
}

/// How much of its own work the host's driver does after the event that calls for it:
/// a TX completion is handled, and the hardware or firmware queue refilled, this long
/// after the exchange ends (ath9k: the completion interrupt schedules the TX tasklet,
/// `ath9k_tasklet` → `ath_tx_tasklet` → `ath_txq_schedule`; ath10k: the HTT message is
/// handled in a tasklet or NAPI poll). Our choice, 50 µs: the order of a softirq's
/// latency on a router-class CPU; no figure for it is published that we could cite.
/// Must be above zero: results must not depend on refills that take no time.
pub const DEFAULT_HOST_LATENCY: Duration = Duration::from_micros(50);

/// Longest host latency accepted: a driver that takes longer than a beacon interval to
/// react is broken, not slow.
pub const MAX_HOST_LATENCY: Duration = Duration::from_millis(100);

/// ath10k's push-pull mode: MSDUs the firmware asks for per TXQ in one fetch
/// indication, at most. The firmware's figure is closed; ours, 32, is one ath9k-sized
/// aggregate (ATH_AMPDU_SUBFRAME_DEFAULT), so that the firmware holds about one
/// aggregate per TXQ beyond what it is sending.
pub const FIRMWARE_FETCH_FRAMES: u32 = 32;

/// Who decides which station-TID the firmware gets frames for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirmwareMode {
    /// ath10k with peer flow control (push-pull, `HTT_TX_MODE_SWITCH_PUSH_PULL`): the
    /// firmware asks for frames of particular TXQs (`HTT_T2H_MSG_TYPE_TX_FETCH_IND`),
    /// at most `fetch_frames` each, and the host answers each through the airtime
    /// scheduler's `may_transmit` (`ath10k_htt_rx_tx_fetch_ind` →
    /// `ieee80211_txq_may_transmit`), so airtime fairness, weights and groups hold.
    Pull { fetch_frames: u32 },
    /// ath10k before peer flow control: the host pushes whatever its scheduler hands
    /// out until the firmware is full, and the firmware serves its station-TIDs in its
    /// own round robin, one PPDU per turn: the scheduler chooses what enters the
    /// firmware, not what goes on the air.
    Push,
}

/// What sits between the MAC layer and the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverConfig {
    /// ath9k-like: the driver builds each aggregate when its hardware queue has room.
    Softmac {
        /// A-MPDUs per AC queued to or on the hardware.
        aggr_min_qdepth: u32,
        /// PPDUs (of any kind) per AC below which a non-aggregated frame may be queued.
        non_aggr_min_qdepth: u32,
        /// Subframes per A-MPDU, at most; also at most half the BlockAck window.
        max_subframes: u16,
    },
    /// ath10k-like: frames go into a deep firmware queue, which builds aggregates
    /// itself when the medium is won; pulled by the firmware or pushed by the host.
    Firmware {
        max_pending_frames: u32,
        mode: FirmwareMode,
    },
}

impl DriverConfig {
    /// ath9k's hardware queue depths.
    pub const fn softmac() -> DriverConfig {
        DriverConfig::Softmac {
            aggr_min_qdepth: ATH9K_AGGR_MIN_QDEPTH,
            non_aggr_min_qdepth: ATH9K_NON_AGGR_MIN_QDEPTH,
            max_subframes: ATH9K_AMPDU_SUBFRAME_DEFAULT,
        }
    }

    /// The driver's own cap on A-MPDU subframes, below the BlockAck window's: ath9k's
    /// `min(h_baw, ATH_AMPDU_SUBFRAME_DEFAULT)`; none for the firmware (its aggregation
    /// is closed; the window bounds it).
    pub fn max_subframes(&self) -> Option<u16> {
        match *self {
            DriverConfig::Softmac { max_subframes, .. } => Some(max_subframes),
            DriverConfig::Firmware { .. } => None,
        }
    }

    /// ath10k's firmware queue in push-pull mode.
    pub const fn firmware() -> DriverConfig {
        DriverConfig::Firmware {
            max_pending_frames: ATH10K_MAX_PENDING_FRAMES,
            mode: FirmwareMode::Pull {
                fetch_frames: FIRMWARE_FETCH_FRAMES,
            },
        }
    }

    /// ath10k's firmware queue in push mode (before peer flow control).
    pub const fn firmware_push() -> DriverConfig {
        DriverConfig::Firmware {
            max_pending_frames: ATH10K_MAX_PENDING_FRAMES,
            mode: FirmwareMode::Push,
        }
    }
}

/// A station's airtime weight, µs per DRR refill (`iw … station set … airtime_weight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StationWeight {
    pub station: StationId,
    pub weight_us: u32,
}

/// A group of stations sharing one airtime weight in the airtime scheduler (seed
/// netdev 2.2 §4.2, "airtime policies": "groups could also be recursive"; slide 19's
/// limited guest network is a [`GroupMode::Limit`] group). Only the airtime scheduler
/// uses groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AirtimeGroup {
    /// DRR weight of the group, µs per refill.
    pub weight_us: u32,
    pub mode: GroupMode,
    /// Its stations; a station is in at most one group.
    pub stations: Vec<StationId>,
    /// The group it is nested in, by its index in [`ApConfig::airtime_groups`] (an
    /// earlier one); `None` at the root.
    pub parent: Option<usize>,
}

/// The AP transmit path's configuration: one choice per layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApConfig {
    pub qdisc: QdiscConfig,
    pub mac: MacConfig,
    pub scheduler: SchedulerConfig,
    pub aql: AqlConfig,
    pub driver: DriverConfig,
    /// Weights of stations that do not have the scheduler's default (256 µs). Only the
    /// airtime scheduler uses them.
    pub airtime_weights: Vec<StationWeight>,
    /// Airtime groups; stations in none are scheduled at the root beside the groups.
    pub airtime_groups: Vec<AirtimeGroup>,
    /// See [`DEFAULT_HOST_LATENCY`].
    pub host_latency: Duration,
    /// Soft admission control of VO/VI (seed 000 §4.3, [`airq::admission`]), with
    /// FQ-MAC only; `None` (the default, as Linux has none): off.
    pub admission: Option<AdmissionParams>,
    /// Aggregate-building options of the seed's §4.1, all off by default.
    pub aggregation: AggregationConfig,
    /// A time-based retry limit on the AP's MPDUs (seed 000 §4.1,
    /// [`crate::mac::retry_time`]); `None` (the default, as Linux): the retry count only.
    pub retry_time: Option<RetryTimeParams>,
    /// FQ-MAC's CoDel parameters per station as mac80211 set them from 2016 to 2025
    /// ([`super::station_codel`]): a station slower than 6 Mbit/s times the stations
    /// gets 50 ms / 300 ms without ECN. Off by default, as Linux since the revert.
    pub slow_station_codel: bool,
}

impl ApConfig {
    /// Checks every layer's parameters and the weights against `stations` stations.
    pub fn validate(&self, stations: usize) -> Result<(), ApConfigError> {
        match self.qdisc {
            QdiscConfig::None => {}
            QdiscConfig::PfifoFast { limit_packets } => {
                nonzero(limit_packets, "qdisc pfifo_fast limit_packets")?
            }
            QdiscConfig::FqCodel(p) => p.validate().map_err(|error| ApConfigError::Fq {
                layer: "qdisc fq_codel",
                error,
            })?,
        }
        match self.mac {
            MacConfig::Legacy { txq_max_pending } => {
                nonzero(txq_max_pending, "mac legacy txq_max_pending")?
            }
            MacConfig::FqMac(p) => p.validate().map_err(|error| ApConfigError::Fq {
                layer: "mac fq_mac",
                error,
            })?,
        }
        self.scheduler
            .params()
            .validate()
            .map_err(ApConfigError::Scheduler)?;
        for w in &self.airtime_weights {
            if w.station.index() >= stations {
                return Err(ApConfigError::WeightForUnknownStation {
                    station: w.station,
                    stations,
                });
            }
            if w.weight_us == 0 || w.weight_us > AirtimeParams::MAX_WEIGHT_US {
                return Err(ApConfigError::WeightOutOfRange {
                    station: w.station,
                    weight_us: w.weight_us,
                });
            }
        }
        let mut grouped = vec![false; stations];
        for (group, g) in self.airtime_groups.iter().enumerate() {
            if g.parent.is_some_and(|p| p >= group) {
                return Err(ApConfigError::GroupParentNotEarlier { group });
            }
            if g.weight_us == 0 || g.weight_us > AirtimeParams::MAX_WEIGHT_US {
                return Err(ApConfigError::GroupWeightOutOfRange {
                    group,
                    weight_us: g.weight_us,
                });
            }
            for &station in &g.stations {
                let Some(seen) = grouped.get_mut(station.index()) else {
                    return Err(ApConfigError::GroupOfUnknownStation {
                        group,
                        station,
                        stations,
                    });
                };
                if std::mem::replace(seen, true) {
                    return Err(ApConfigError::StationInTwoGroups { station });
                }
            }
        }
        if let AqlConfig::On(p) = &self.aql {
            p.validate().map_err(ApConfigError::Aql)?;
        }
        match self.driver {
            DriverConfig::Softmac {
                aggr_min_qdepth,
                non_aggr_min_qdepth,
                max_subframes,
            } => {
                nonzero(aggr_min_qdepth, "driver softmac aggr_min_qdepth")?;
                nonzero(non_aggr_min_qdepth, "driver softmac non_aggr_min_qdepth")?;
                nonzero(u32::from(max_subframes), "driver softmac max_subframes")?;
            }
            DriverConfig::Firmware {
                max_pending_frames,
                mode,
            } => {
                nonzero(max_pending_frames, "driver firmware max_pending_frames")?;
                if let FirmwareMode::Pull { fetch_frames } = mode {
                    nonzero(fetch_frames, "driver firmware fetch_frames")?;
                }
            }
        }
        if self.host_latency == Duration::ZERO || self.host_latency > MAX_HOST_LATENCY {
            return Err(ApConfigError::HostLatencyOutOfRange(self.host_latency));
        }
        if let Some(p) = &self.admission {
            p.validate().map_err(ApConfigError::Admission)?;
            if !matches!(self.mac, MacConfig::FqMac(_)) {
                return Err(ApConfigError::AdmissionWithoutFqMac);
            }
        }
        if self.aggregation.qos.is_some() && !matches!(self.mac, MacConfig::FqMac(_)) {
            return Err(ApConfigError::QosAggregateWithoutFqMac);
        }
        if self.slow_station_codel && !matches!(self.mac, MacConfig::FqMac(_)) {
            return Err(ApConfigError::SlowStationCodelWithoutFqMac);
        }
        let softmac = matches!(self.driver, DriverConfig::Softmac { .. });
        self.aggregation
            .validate(softmac)
            .map_err(ApConfigError::Aggregation)?;
        if let Some(p) = &self.retry_time {
            let ns = u32::from(p.time_limit > Duration::ZERO);
            nonzero(ns, "retry time_limit")?;
            nonzero(u32::from(p.min_tries), "retry min_tries")?;
        }
        Ok(())
    }
}

fn nonzero(value: u32, field: &'static str) -> Result<(), ApConfigError> {
    if value == 0 {
        return Err(ApConfigError::ZeroLimit(field));
    }
    Ok(())
}
