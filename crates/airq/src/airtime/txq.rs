//! A TXQ as the scheduler sees it (mac80211 `struct txq_info`'s scheduling part): one
//! per station and TID, plus one per interface for multicast, each in its TID's access
//! category. Its packets live elsewhere (an [`Fq`](crate::Fq) tin); the driver tells the
//! scheduler whether it still has any when it returns the TXQ.

use super::txq_list::Links;
use crate::ids::{Ac, Tid};

/// A TXQ registered with a scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxqId(pub(crate) u32);

impl TxqId {
    /// Dense index from 0, usable for the caller's own per-TXQ tables.
    pub fn index(self) -> usize {
        self.0 as usize
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
    /// A station's TXQ in per-AC mode: whether, at its last visit by `next_txq`'s loop,
    /// the station's AQL gate let it through (what the visit added to mac80211's
    /// `found_eligible`).
    pub(super) eligible: bool,
}
