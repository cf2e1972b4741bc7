//! # Aggregate building rules beyond mac80211's
//!
//! The seed's §4.1 ("Further reducing latency") proposes rules for how large the
//! aggregates a driver builds should be; none is in Linux. Each is off unless its user
//! turns it on, and each is a pure rule over numbers the driver already has: no clock,
//! no I/O.
//!
//! - [`sizing`] — [`AggregateSizing`]: dynamic aggregate sizing, an airtime cap on each
//!   aggregate that shrinks as more stations have data outstanding (Høiland-Jørgensen
//!   et al., "Ending the Anomaly", netdev 2.2 paper §4.1, "Dynamic aggregate sizing").
//! - [`just_in_time`] — [`JustInTime`]: a softmac driver builds its next aggregate
//!   shortly before the current one ends instead of keeping two queued (§4.1,
//!   "Minimising hardware queue length").
//! - [`qos_aggregate`] — [`QosAggregate`]: combined QoS aggregates, a station's queued
//!   VO frames at the head of its next BE/VI A-MPDU instead of a VO TXOP of their own
//!   (§4.3, "Improved network efficiency").

pub mod just_in_time;
pub mod qos_aggregate;
pub mod sizing;

pub use just_in_time::{JustInTime, JustInTimeError, JustInTimeParams, JustInTimeStats};
pub use qos_aggregate::{
    OwnTxopReason, QosAggregate, QosAggregateError, QosAggregateParams, QosAggregateStats,
    QosDecision,
};
pub use sizing::{
    AggregateSizing, AggregateSizingError, AggregateSizingParams, AggregateSizingStats,
};
