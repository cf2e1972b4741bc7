//! The AP's transmit path, each queueing layer of DESIGN.md's data path selectable:
//!
//! ```text
//! enqueue ─► [qdisc]   pfifo_fast | fq_codel | none       (mq: one instance per AC)
//!         ─► [MAC]     legacy per-TID FIFOs (ath9k ≤ 4.10) | FQ-MAC (airq::Fq)
//!         ─► [sched]   round robin | airtime DRR (airq::airtime)
//!         ─► [AQL]     off | kernel limits | self-tuning (airq::aql)
//!         ─► [driver]  softmac (ath9k: ≤ 2 A-MPDUs per AC in hardware)
//!                      | firmware (ath10k: ≤ 1424 frames, its own round robin)
//!         ─► TxPath: has_frames / next_ppdu / tx_done ◄─ the channel
//! ```
//!
//! [`ApConfig`] chooses the layers ([`ApConfig::preset`] names the seeds' comparisons).

pub mod config;
mod error;
pub mod preset;
mod txq_key;

pub use config::{
    ApConfig, AqlConfig, DriverConfig, MacConfig, QdiscConfig, SchedulerConfig, StationWeight,
};
pub use error::{ApConfigError, ApEnqueueError, UnknownStation};
pub use preset::PRESET_NAMES;
pub use txq_key::TxqKey;
