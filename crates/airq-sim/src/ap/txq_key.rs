//! The AP's per-receiver-TID queues are found by one dense index, station × 16 + TID, as
//! mac80211 gives every station a `txq[IEEE80211_NUM_TIDS]` array: every per-TID table
//! of the transmit path (MAC FIFOs, tins, TXQs, firmware queues, BlockAck state) is a
//! `Vec` indexed by it, so each per-packet lookup is O(1).

use airq::{Ac, StationId, Tid};

/// A station-TID of the AP (a mac80211 TXQ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxqKey(u32);

impl TxqKey {
    /// `station` is at most [`StationId::MAX`] (as [`ApTx::new`](super::ApTx::new)
    /// checks), so the key fits in a `u32`.
    pub fn new(station: StationId, tid: Tid) -> TxqKey {
        TxqKey(station.0 * Tid::COUNT as u32 + u32::from(tid.get()))
    }

    pub fn station(self) -> StationId {
        StationId(self.0 / Tid::COUNT as u32)
    }

    pub fn tid(self) -> Tid {
        Tid::new((self.0 % Tid::COUNT as u32) as u8).expect("below Tid::COUNT")
    }

    pub fn ac(self) -> Ac {
        self.tid().ac()
    }

    /// The index into per-station-TID tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Every key of `station`, in TID order.
    pub fn of_station(station: StationId) -> impl Iterator<Item = TxqKey> {
        let first = station.0 * Tid::COUNT as u32;
        (first..first + Tid::COUNT as u32).map(TxqKey)
    }

    /// Every key of `stations` stations, in index order.
    pub fn all(stations: usize) -> impl Iterator<Item = TxqKey> {
        (0..(stations * Tid::COUNT) as u32).map(TxqKey)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trips() {
        let tid = Tid::new(5).unwrap();
        let k = TxqKey::new(StationId(300), tid);
        assert_eq!(
            (k.station(), k.tid(), k.ac()),
            (StationId(300), tid, Ac::Vi)
        );
        assert_eq!(k.index(), 300 * 16 + 5);
        assert_eq!(TxqKey::all(2).count(), 32);
        let of_300: Vec<TxqKey> = TxqKey::of_station(StationId(300)).collect();
        assert_eq!(of_300.len(), Tid::COUNT);
        assert!(of_300.iter().all(|k| k.station() == StationId(300)));
        assert_eq!(of_300[5], k);
    }
}
