//! A TXQ as the scheduler sees it (mac80211 `struct txq_info`'s scheduling part): one
//! per station and TID, plus one per interface for multicast, each in its TID's access
//! category. Its packets live elsewhere (an [`Fq`](crate::Fq) tin); the driver tells the
//! scheduler whether it still has any when it returns the TXQ.

use super::txq_list::Links;
use crate::ids::{Ac, Tid};
use core::fmt;

/// A TXQ registered with a scheduler. Its slot is reused after the TXQ is removed
/// (with its station, or by [`remove_txq`](super::AirtimeScheduler::remove_txq)); the
/// identifier carries the slot's generation, so one kept after the removal is refused
/// ([`SchedError::UnknownTxq`](super::SchedError::UnknownTxq)) rather than reaching the
/// slot's next TXQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxqId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl TxqId {
    /// Dense index from 0, usable for the caller's own per-TXQ tables: below the most
    /// TXQs ever registered at once (a removed TXQ's index is reused).
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Display for TxqId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TXQ {} (generation {})", self.index, self.generation)
    }
}

pub(super) struct Txq {
    /// Slot of the owning station; `None` for an interface (multicast) TXQ, which the
    /// airtime scheduler never throttles.
    pub(super) station: Option<u32>,
    pub(super) tid: Tid,
    pub(super) ac: Ac,
    /// The scheduling round in which `next_txq` last handed it out.
    pub(super) schedule_round: u16,
    pub(super) links: Links,
    pub(super) live: bool,
    /// Bumped each time the slot is freed, so stale [`TxqId`]s are refused.
    pub(super) generation: u32,
    /// A station's TXQ in per-AC mode: whether, at its last visit by `next_txq`'s loop,
    /// the station's AQL gate let it through (what the visit added to mac80211's
    /// `found_eligible`).
    pub(super) eligible: bool,
}
