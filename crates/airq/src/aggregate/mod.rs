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

pub mod just_in_time;
pub mod sizing;

pub use just_in_time::{JustInTime, JustInTimeError, JustInTimeParams, JustInTimeStats};
pub use sizing::{
    AggregateSizing, AggregateSizingError, AggregateSizingParams, AggregateSizingStats,
};
