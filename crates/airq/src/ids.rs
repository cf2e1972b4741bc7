//! Identifiers of the 802.11 world the queues serve: stations, traffic identifiers and
//! access categories.
//!
//! The TID → AC mapping is the 802.1D user-priority mapping of IEEE 802.11-2020 Table
//! 10-1 (UP to AC), as mac80211's `ieee802_1d_to_ac[tid & 7]`.

use core::fmt;

/// A station associated with the AP, as the caller numbers them.
///
/// Identifiers index tables (as mac80211 passes a `sta` pointer, so every per-packet
/// call is O(1)), so they should be dense, like 802.11 association IDs (1–2007), and at
/// most [`StationId::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StationId(pub u32);

impl StationId {
    /// The largest identifier accepted: tables indexed by it stay within a few hundred KiB.
    pub const MAX: u32 = 0xFFFF;

    /// The index into per-station tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "station {}", self.0)
    }
}

/// A traffic identifier, 0–15 (IEEE 802.11-2020 9.2.4.5.2). TIDs 0–7 carry 802.1D user
/// priorities; 8–15 are for TSPEC traffic streams, which mac80211 maps by `tid & 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tid(u8);

impl Tid {
    /// Number of TIDs (mac80211 `IEEE80211_NUM_TIDS`).
    pub const COUNT: usize = 16;

    /// A TID, or `None` above 15.
    pub const fn new(tid: u8) -> Option<Self> {
        if (tid as usize) < Self::COUNT {
            Some(Tid(tid))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// The access category of this TID (Table 10-1 via `tid & 7`).
    pub const fn ac(self) -> Ac {
        match self.0 & 7 {
            1 | 2 => Ac::Bk,
            0 | 3 => Ac::Be,
            4 | 5 => Ac::Vi,
            _ => Ac::Vo,
        }
    }
}

impl fmt::Display for Tid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TID {}", self.0)
    }
}

/// An EDCA access category, in mac80211's order and numbering (`IEEE80211_AC_VO` = 0 …
/// `IEEE80211_AC_BK` = 3): highest priority first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ac {
    Vo = 0,
    Vi = 1,
    Be = 2,
    Bk = 3,
}

impl Ac {
    /// Number of access categories.
    pub const COUNT: usize = 4;
    /// All access categories, highest priority first.
    pub const ALL: [Ac; 4] = [Ac::Vo, Ac::Vi, Ac::Be, Ac::Bk];

    /// The index 0–3, usable for per-AC arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Ac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ac::Vo => "VO",
            Ac::Vi => "VI",
            Ac::Be => "BE",
            Ac::Bk => "BK",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tid_to_ac_follows_table_10_1() {
        let expected = [
            Ac::Be,
            Ac::Bk,
            Ac::Bk,
            Ac::Be,
            Ac::Vi,
            Ac::Vi,
            Ac::Vo,
            Ac::Vo,
        ];
        for (tid, ac) in expected.iter().enumerate() {
            assert_eq!(Tid::new(tid as u8).unwrap().ac(), *ac);
            assert_eq!(
                Tid::new(tid as u8 + 8).unwrap().ac(),
                *ac,
                "TSPEC TIDs map by tid & 7"
            );
        }
        assert!(Tid::new(16).is_none());
        assert_eq!(Ac::ALL.map(Ac::index), [0, 1, 2, 3]);
    }
}
