//! The FQ-MAC layer: the library's [`Fq`] with one tin per station-TID, as mac80211 gives
//! every `txq_info` its own tin over the radio's shared flow pool (`net/mac80211/tx.c`
//! `ieee80211_txq_init`, `ieee80211_txq_enqueue`, `fq_tin_dequeue_func`). It never stops
//! the netdev queue for backlog: its limits drop from the globally fattest flow instead.

use super::txq_key::TxqKey;
use crate::mac::txpath::DropCause;
use crate::net::packet::SimPacket;
use airq::codel::CodelParams;
use airq::fq::{DropReason, FqParams, FqStats, TinId};
use airq::{Fq, Instant, StationId};

pub(crate) struct FqMac {
    fq: Fq<SimPacket>,
    /// Per station-TID.
    tins: Vec<TinId>,
}

impl FqMac {
    /// Validated parameters only (the caller checks them).
    pub(crate) fn new(params: FqParams, keys: usize) -> Option<FqMac> {
        let mut fq = Fq::new(params).ok()?;
        let tins = (0..keys).map(|_| fq.add_tin()).collect();
        Some(FqMac { fq, tins })
    }

    /// Queues a packet in its station-TID's tin; packets the global limits drop (from any
    /// tin, possibly this packet) go to `on_drop`.
    pub(crate) fn enqueue(
        &mut self,
        key: TxqKey,
        packet: SimPacket,
        now: Instant,
        mut on_drop: impl FnMut(SimPacket, DropCause),
    ) {
        let result = self.fq.enqueue(self.tins[key.index()], packet, now, |d| {
            on_drop(d.packet, cause(d.reason))
        });
        if let Err(e) = result {
            debug_assert!(false, "FQ-MAC tin vanished: {:?}", e.error);
            on_drop(e.packet, DropCause::FqOverlimit);
        }
    }

    /// The next packet of the station-TID; CoDel's drops go to `on_drop`.
    pub(crate) fn dequeue(
        &mut self,
        key: TxqKey,
        now: Instant,
        mut on_drop: impl FnMut(SimPacket, DropCause),
    ) -> Option<SimPacket> {
        self.fq
            .dequeue(self.tins[key.index()], now, |d| {
                on_drop(d.packet, cause(d.reason))
            })
            .ok()
            .flatten()
    }

    /// Judges every TID of `station` by `codel` instead of the FQ-MAC's own parameters
    /// (`None`: by those again).
    pub(crate) fn set_station_codel(&mut self, station: StationId, codel: Option<CodelParams>) {
        for key in TxqKey::of_station(station) {
            let set = self.fq.set_tin_codel(self.tins[key.index()], codel);
            debug_assert!(set.is_ok(), "{set:?}");
        }
    }

    /// The CoDel parameters `station`'s TIDs are judged by.
    pub(crate) fn station_codel(&self, station: StationId) -> Option<CodelParams> {
        let key = TxqKey::of_station(station).next()?;
        self.fq.tin_codel(*self.tins.get(key.index())?).ok()
    }

    pub(crate) fn has_queue(&self, key: TxqKey) -> bool {
        self.fq.has_queue(self.tins[key.index()]).unwrap_or(false)
    }

    /// Packets queued for the station-TID.
    pub(crate) fn backlog_packets(&self, key: TxqKey) -> u32 {
        self.fq
            .tin_stats(self.tins[key.index()])
            .map_or(0, |s| s.backlog_packets)
    }

    pub(crate) fn stats(&self) -> FqStats {
        self.fq.stats()
    }

    pub(crate) fn assert_invariants(&self) {
        self.fq.assert_invariants();
    }
}

/// The MAC layer's reason for an [`Fq`] drop.
fn cause(reason: DropReason) -> DropCause {
    match reason {
        DropReason::Codel => DropCause::FqCodel,
        // Limits; purges and filters are never asked of the MAC layer here.
        DropReason::Overlimit
        | DropReason::Overmemory
        | DropReason::Purged
        | DropReason::Filtered => DropCause::FqOverlimit,
    }
}
