//! The AP's transmit path, each queueing layer of DESIGN.md's data path selectable:
//!
//! ```text
//! enqueue ─► [qdisc]   pfifo_fast | fq_codel | none       (mq: one instance per AC)
//!         ─► [MAC]     legacy per-TID FIFOs (ath9k ≤ 4.10) | FQ-MAC (airq::Fq)
//!         ─► [sched]   round robin | airtime DRR (airq::airtime)
//!         ─► [AQL]     off | kernel limits | self-tuning (airq::aql)
//!         ─► [driver]  softmac (ath9k: ≤ 2 A-MPDUs per AC in hardware)
//!                      | firmware (ath10k: ≤ 1424 frames; push-pull: it fetches about
//!                        one PPDU per AC, the scheduler decides whose; push: the host
//!                        fills it, its own round robin decides)
//!         ─► TxPath: has_frames / next_ppdu / tx_done ◄─ the channel
//! ```
//!
//! The drivers say when they next act of their own accord ([`ApTx::poll_at`]): a refill
//! one host latency after a completion, a firmware fetch, another round when one left a
//! hardware queue empty while frames wait, a limited airtime group's reopening; the event
//! loop calls [`ApTx::handle_timeout`] then.
//!
//! Backpressure runs upward as in Linux: the legacy MAC stops an AC's queue once it holds
//! more than `txq_max_pending` frames, and the qdisc then keeps the packets; FQ-MAC never
//! stops it, so with FQ-MAC the qdisc is normally `none`. Below the MAC, the driver model
//! decides when to pull: when its hardware queue has room (softmac) or its firmware queue
//! takes frames (firmware), through the scheduler and the AQL gate. Each station-TID's
//! BlockAck window and retries are a [`TidTx`](crate::mac::tid_tx::TidTx), in either
//! driver; the stations' reordering buffers are theirs
//! ([`reorder`](crate::mac::reorder)).
//! Completed PPDUs charge the scheduler with their airtime and release AQL.
//!
//! Per packet the work is O(1) apart from the FQ limits' fattest-flow search and the
//! scheduler's rotation past stations that may not send: every table is indexed by
//! station × TID ([`TxqKey`]) and nothing scans the stations.
//!
//! [`ApConfig`] chooses the layers ([`ApConfig::preset`] names the seeds' comparisons),
//! [`ApTx`] is the state, [`stats`] the statistics.

pub mod aggregation;
mod ap_tx;
mod aql_gate;
pub mod config;
mod deadlines;
mod error;
mod firmware;
pub(crate) mod fq_mac;
mod just_in_time;
mod ledger;
mod legacy_mac;
mod mac_layer;
mod mac_tx;
pub mod pfifo_fast;
pub mod preset;
mod qdisc;
mod qos_aggregate;
mod soft_admission;
mod softmac;
pub mod station_codel;
pub mod stats;
mod txq_key;

#[cfg(test)]
mod tests;

pub use ap_tx::ApTx;
pub use config::{
    AirtimeGroup, ApConfig, AqlConfig, DriverConfig, FirmwareMode, MacConfig, QdiscConfig,
    SchedulerConfig, StationWeight,
};
pub use error::{ApConfigError, ApEnqueueError, UnknownStation};
pub use preset::PRESET_NAMES;
pub use soft_admission::AdmissionCounters;
pub use stats::{ApBacklog, DropCounts, LayerBacklog, StationTxStats};
pub use txq_key::TxqKey;
