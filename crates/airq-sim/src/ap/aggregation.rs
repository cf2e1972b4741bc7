//! The AP's aggregate-building options beyond ath9k's and mac80211's, from the seed's
//! §4.1 (netdev 2.2 paper, "Further reducing latency"): each is off by default, so that
//! a configuration without them runs exactly as Linux does.
//!
//! - Dynamic aggregate sizing ([`airq::aggregate::sizing`]): the airtime bound of each
//!   aggregate follows the number of stations with data outstanding at the AP — frames
//!   of theirs in the qdisc, the MAC layer or below it (retries, the hardware or
//!   firmware queue, the PPDU on the air). It applies wherever the AP builds an
//!   aggregate, in either driver model; it only lowers the duration bound of
//!   [`AggregateLimits`] (the byte, subframe and BlockAck-window bounds stay).
//! - Combined QoS aggregates ([`airq::aggregate::qos_aggregate`], seed §4.3): a
//!   station's queued VO frames ride at the head of its next BE/VI A-MPDU
//!   (`ap/qos_aggregate.rs`); softmac driver over FQ-MAC only.

use super::stats::LayerBacklog;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::tid_tx::AggregateLimits;
use airq::aggregate::{
    AggregateSizing, AggregateSizingError, AggregateSizingParams, JustInTimeError,
    JustInTimeParams, QosAggregateError, QosAggregateParams,
};

/// Which of the options are on, with their parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AggregationConfig {
    /// Dynamic aggregate sizing; `None` (the default): every aggregate may be as long
    /// as the PHY, the driver's cap and the TXOP limit allow.
    pub sizing: Option<AggregateSizingParams>,
    /// Just-in-time aggregates ([`super::just_in_time`]), softmac driver only; `None`
    /// (the default): ath9k's two A-MPDUs per hardware queue.
    pub just_in_time: Option<JustInTimeParams>,
    /// Combined QoS aggregates, softmac driver over FQ-MAC only; `None` (the default):
    /// VO frames go in VO TXOPs of their own, as in Linux.
    pub qos: Option<QosAggregateParams>,
}

impl AggregationConfig {
    /// Checks the options' parameters; `softmac`: the driver builds aggregates itself.
    pub fn validate(&self, softmac: bool) -> Result<(), AggregationError> {
        if let Some(p) = &self.qos {
            p.validate().map_err(AggregationError::Qos)?;
            if !softmac {
                return Err(AggregationError::QosWithoutSoftmac);
            }
        }
        if let Some(p) = &self.sizing {
            p.validate().map_err(AggregationError::Sizing)?;
        }
        if let Some(p) = &self.just_in_time {
            p.validate().map_err(AggregationError::JustInTime)?;
            if !softmac {
                return Err(AggregationError::JustInTimeWithoutSoftmac);
            }
        }
        Ok(())
    }
}

/// Why an [`AggregationConfig`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregationError {
    Sizing(AggregateSizingError),
    JustInTime(JustInTimeError),
    /// Just-in-time aggregates are a softmac driver's: a firmware builds its own.
    JustInTimeWithoutSoftmac,
    Qos(QosAggregateError),
    /// Combined QoS aggregates are modelled in the softmac driver only.
    QosWithoutSoftmac,
}

impl std::fmt::Display for AggregationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AggregationError::Sizing(e) => write!(f, "aggregate_sizing: {e}"),
            AggregationError::JustInTime(e) => write!(f, "just_in_time: {e}"),
            AggregationError::JustInTimeWithoutSoftmac => write!(
                f,
                "just_in_time needs driver softmac: a firmware builds its aggregates itself"
            ),
            AggregationError::Qos(e) => write!(f, "qos_aggregate: {e}"),
            AggregationError::QosWithoutSoftmac => write!(
                f,
                "qos_aggregate needs driver softmac: a firmware builds its aggregates itself \
                 (not modelled)"
            ),
        }
    }
}

/// The limits of the next aggregate to `link`: `limits` with its duration bound lowered
/// by the sizing rule, given every station's backlog. Non-aggregated PPDUs are left
/// alone (one MPDU always goes).
pub(super) fn sized_limits(
    sizing: &mut AggregateSizing,
    backlog: &[LayerBacklog],
    bss: &BssConfig,
    link: &StationLink,
    limits: &AggregateLimits,
) -> AggregateLimits {
    if !limits.ampdu {
        return *limits;
    }
    let backlogged = backlog.iter().filter(|b| b.packets() > 0).count();
    let cap = sizing.aggregate_airtime(
        u32::try_from(backlogged).unwrap_or(u32::MAX),
        limits.max_duration,
    );
    limits.capped(bss, link, cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::ht20;
    use airq::phy::Band;
    use airq::{Duration, Tid};

    fn backlog(stations: usize) -> Vec<LayerBacklog> {
        (0..stations)
            .map(|_| LayerBacklog {
                mac_packets: 10,
                ..LayerBacklog::default()
            })
            .collect()
    }

    /// With the defaults (16 ms round, 1 ms floor), an HT MCS7 aggregate keeps its 4 ms
    /// with four backlogged stations and is held to 1 ms with thirty; idle stations do
    /// not count.
    #[test]
    fn the_duration_bound_follows_the_backlogged_stations() {
        let bss = BssConfig::ofdm(Band::Ghz5);
        let link = ht20(7);
        let full = AggregateLimits::new(&bss, &link, Tid::new(0).unwrap());
        let mut sizing = AggregateSizing::new(AggregateSizingParams::default());
        let four = sized_limits(&mut sizing, &backlog(4), &bss, &link, &full);
        assert_eq!(four, full);
        let mut thirty = backlog(30);
        thirty.extend((0..10).map(|_| LayerBacklog::default()));
        let small = sized_limits(&mut sizing, &thirty, &bss, &link, &full);
        assert_eq!(small.max_duration, Duration::from_millis(1));
        assert!(small.max_psdu_bytes < full.max_psdu_bytes / 3);
        assert!(link.rate.ppdu_duration(small.max_psdu_bytes, bss.band) <= small.max_duration);
        let s = sizing.stats();
        assert_eq!((s.aggregates, s.capped), (2, 1));
    }

    #[test]
    fn invalid_parameters_are_refused() {
        let c = AggregationConfig {
            sizing: Some(AggregateSizingParams {
                min_airtime: Duration::ZERO,
                ..AggregateSizingParams::default()
            }),
            ..AggregationConfig::default()
        };
        let why = c.validate(true).unwrap_err().to_string();
        assert!(why.contains("min_airtime"), "{why}");
        assert_eq!(AggregationConfig::default().validate(false), Ok(()));
        let jit = AggregationConfig {
            just_in_time: Some(JustInTimeParams::default()),
            ..AggregationConfig::default()
        };
        assert_eq!(jit.validate(true), Ok(()));
        assert_eq!(
            jit.validate(false),
            Err(AggregationError::JustInTimeWithoutSoftmac)
        );
    }
}
