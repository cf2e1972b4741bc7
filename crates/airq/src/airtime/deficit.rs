//! A DRR deficit: the airtime credit, in µs, of whatever takes turns on a list — a
//! station (per AC, or for all ACs in station-first mode) or a group (per lane).
//! mac80211's is `struct airtime_info`'s `deficit` (`net/mac80211/sta_info.h`), which
//! `ieee80211_next_txq` refills by the station's weight while it is below the airtime
//! pending for the station (`ieee80211_sta_deficit`), and
//! `ieee80211_sta_register_airtime` charges (`net/mac80211/tx.c`, `sta_info.c`). Groups
//! use the same credit with nothing pending: their target is 0.
//!
//! 64 bits where mac80211 has an `s32`, so that no charge or refill the caller can
//! cause saturates it: it is refilled only while below its target (at most 4 ×
//! `u32::MAX` µs pending), so it stays below 2^35, and charges of at most 2^33 µs each
//! would take 2^30 calls to bring it near `i64::MIN`.

/// The credit and how often it was refilled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Deficit {
    /// Credit, µs; starts at the weight (`__sta_info_alloc`).
    pub(super) us: i64,
    /// Times it was refilled by the weight.
    pub(super) refills: u64,
}

impl Deficit {
    pub(super) fn new(weight_us: u32) -> Self {
        Deficit {
            us: i64::from(weight_us),
            refills: 0,
        }
    }

    /// Whether it is below `target_us` — the airtime pending below the MAC, so that the
    /// effective deficit (mac80211 `ieee80211_sta_deficit`) is negative; 0 for the raw
    /// deficit.
    #[inline(always)]
    pub(super) fn owes(&self, target_us: u64) -> bool {
        self.us < i64::try_from(target_us).unwrap_or(i64::MAX)
    }

    /// One refill by `quantum_us` (the weight), as `ieee80211_next_txq` gives the head
    /// of the list.
    #[inline(always)]
    pub(super) fn refill(&mut self, quantum_us: u32) {
        self.us = self.us.saturating_add(i64::from(quantum_us));
        self.refills += 1;
    }

    /// One refill if it [`owes`](Self::owes) `target_us`; whether it did.
    #[inline(always)]
    pub(super) fn refill_if_owing(&mut self, target_us: u64, quantum_us: u32) -> bool {
        let owes = self.owes(target_us);
        if owes {
            self.refill(quantum_us);
        }
        owes
    }

    /// Charges airtime used (`ieee80211_sta_register_airtime`); at most 2^33 µs, exact.
    #[inline(always)]
    pub(super) fn charge(&mut self, airtime_us: u64) {
        self.us = self
            .us
            .saturating_sub(i64::try_from(airtime_us).unwrap_or(i64::MAX));
    }

    /// Refills of `quantum_us` that bring it to `target_us` or above (0 if it is there
    /// already).
    pub(super) fn quanta_owed(&self, target_us: u64, quantum_us: u32) -> u64 {
        let gap_us = if self.us < 0 {
            target_us.saturating_add(self.us.unsigned_abs())
        } else {
            target_us.saturating_sub(self.us as u64)
        };
        gap_us.div_ceil(u64::from(quantum_us.max(1)))
    }

    /// What `visits` visits of `next_txq`'s loop give it, each refilling it by
    /// `quantum_us` while it owes `target_us`: up to `visits` quanta, computed, not
    /// looped (`pass_skip.rs`).
    pub(super) fn refill_visits(&mut self, quantum_us: u32, target_us: u64, visits: u64) {
        let n = self.quanta_owed(target_us, quantum_us).min(visits);
        // At most the quanta owed: it ends below target + quantum, well in range.
        let refilled = i128::from(self.us) + i128::from(n) * i128::from(quantum_us);
        self.us = i64::try_from(refilled).unwrap_or(i64::MAX);
        self.refills = self.refills.saturating_add(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owes_compares_with_the_target_pending_airtime_included() {
        let d = Deficit {
            us: 100,
            refills: 0,
        };
        assert!(!d.owes(0));
        assert!(!d.owes(100));
        assert!(d.owes(101));
        assert!(Deficit { us: -1, refills: 0 }.owes(0));
        // Pending beyond i64::MAX is owed by any deficit.
        assert!(Deficit {
            us: i64::MAX - 1,
            refills: 0
        }
        .owes(u64::MAX));
    }

    #[test]
    fn refill_visits_is_the_loops_refills_computed() {
        for (us, target, quantum, visits) in [
            (-1000i64, 0u64, 256u32, 10u64),
            (-1000, 300, 256, 2),
            (5, 4, 1, 3),
            (-(1i64 << 20), 0, 1, u64::MAX),
        ] {
            let mut computed = Deficit { us, refills: 0 };
            computed.refill_visits(quantum, target, visits);
            let mut looped = Deficit { us, refills: 0 };
            let mut visits_left = visits.min(1 << 34);
            while visits_left > 0 && looped.refill_if_owing(target, quantum) {
                visits_left -= 1;
            }
            assert_eq!(computed, looped, "{us} {target} {quantum} {visits}");
        }
    }

    #[test]
    fn charges_saturate_instead_of_wrapping() {
        let mut d = Deficit {
            us: i64::MIN + 5,
            refills: 0,
        };
        d.charge(u64::from(u32::MAX));
        assert_eq!(d.us, i64::MIN);
    }
}
