//! Statistics of tins and of the whole structure, mirroring what Linux exports through
//! nl80211 (`enum nl80211_txq_stats`, filled by `ieee80211_fill_txq_stats`) and debugfs
//! `aqm`: backlog bytes/packets, flows, drops, ECN marks, overlimit, overmemory,
//! collisions, tx bytes/packets.

use crate::codel::CodelStats;

/// Statistics of one tin (Linux `struct fq_tin` counters plus the TXQ's `cstats`).
///
/// nl80211 per-TXQ fields map as: `BACKLOG_BYTES`, `BACKLOG_PACKETS`, `FLOWS` ← `flows`,
/// `DROPS` ← `codel.drop_count`, `ECN_MARKS` ← `codel.ecn_mark`, `OVERLIMIT`,
/// `COLLISIONS`, `TX_BYTES`, `TX_PACKETS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TinStats {
    /// Bytes queued now.
    pub backlog_bytes: u64,
    /// Packets queued now.
    pub backlog_packets: u32,
    /// Flow queues bound to this tin so far (counted each time an unbound queue is taken,
    /// as Linux's `tin->flows`).
    pub flows: u64,
    /// Packets that hashed to a flow queue bound to another tin and went to this tin's
    /// default queue instead.
    pub collisions: u64,
    /// Global-limit drop rounds that hit a flow of this tin (Linux counts rounds, each
    /// dropping up to 32 packets).
    pub overlimit: u64,
    /// Those rounds caused by the memory limit (Linux counts this only globally).
    pub overmemory: u64,
    /// Packets dropped from this tin by the global limits.
    pub limit_drops: u64,
    /// Bytes dequeued.
    pub tx_bytes: u64,
    /// Packets dequeued.
    pub tx_packets: u64,
    /// CoDel drops and marks of this tin's flows.
    pub codel: CodelStats,
}

/// Statistics of the whole structure (Linux `struct fq`; nl80211 per-wiphy TXQ stats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FqStats {
    /// Bytes queued now, over all tins.
    pub backlog_bytes: u64,
    /// Packets queued now, over all tins (`fq->backlog`).
    pub backlog_packets: u32,
    /// Memory held by queued packets (`fq->memory_usage`).
    pub memory_usage_bytes: u64,
    /// Global-limit drop rounds (`fq->overlimit`).
    pub overlimit: u64,
    /// Of which caused by the memory limit (`fq->overmemory`).
    pub overmemory: u64,
    /// Packets dropped by the global limits.
    pub limit_drops: u64,
    /// Collisions into a default queue (`fq->collisions`).
    pub collisions: u64,
    /// Bytes dequeued from all tins.
    pub tx_bytes: u64,
    /// Packets dequeued from all tins.
    pub tx_packets: u64,
    /// CoDel counters summed over all tins, including removed ones.
    pub codel: CodelStats,
    /// Tins that exist now.
    pub tins: u32,
    /// Size of the shared flow pool (nl80211 `MAX_FLOWS`).
    pub max_flows: u32,
}
