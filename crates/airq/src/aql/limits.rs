//! The two AQL gates of Linux mac80211, as pure functions of the pending airtime.
//!
//! - The station gate, `ieee80211_txq_airtime_check` (`net/mac80211/tx.c`, v5.5): a
//!   station-AC may dequeue while its pending airtime is below its `aql_limit_low`, or
//!   below its `aql_limit_high` while the interface total is below `aql_threshold`.
//! - The per-AC PHY gate, `ieee80211_txq_schedule_airtime_check` (tx.c, v6.0, commit
//!   8e4bac067105): an AC may be scheduled while its pending airtime is below
//!   `(n − 1) · aql_limit_low / 2 + aql_limit_high`, n being the number of active TXQs
//!   of the AC — "the high AQL limit for the first txq and half of the low AQL limit for
//!   each subsequent queue". It stops a driver from running scheduling rounds until
//!   every station has filled its own budget.
//!
//! All comparisons are strict (`<`), as in the kernel: at exactly the limit the gate
//! closes. Arithmetic is in `u64`, so no input can overflow.

/// The station gate: may a station-AC with `pending_us` airtime in the hardware dequeue
/// another packet, when the interface has `total_pending_us` pending?
pub const fn station_may_dequeue(
    pending_us: u64,
    total_pending_us: u64,
    aql_limit_low_us: u32,
    aql_limit_high_us: u32,
    aql_threshold_us: u32,
) -> bool {
    pending_us < aql_limit_low_us as u64
        || (total_pending_us < aql_threshold_us as u64 && pending_us < aql_limit_high_us as u64)
}

/// The per-AC PHY cap for `active_txqs` active TXQs: `(n − 1) · low / 2 + high`.
///
/// `n = 0` is treated as `n = 1` (the cap of a lone queue, `high`): a scheduler asking
/// about an AC with no active TXQ is about to activate one. The kernel computes
/// `num_txq − 1` in unsigned arithmetic, so there 0 wraps to a cap of about 2^31 µs,
/// i.e. no cap; nothing is scheduled from an empty AC either way.
pub const fn phy_ac_limit_us(
    aql_limit_low_us: u32,
    aql_limit_high_us: u32,
    active_txqs: u32,
) -> u64 {
    let extra_txqs = active_txqs.saturating_sub(1) as u64;
    extra_txqs * aql_limit_low_us as u64 / 2 + aql_limit_high_us as u64
}

/// The per-AC PHY gate: may the scheduler hand out a TXQ of an AC that has
/// `ac_pending_us` pending and `active_txqs` active TXQs?
pub const fn phy_may_schedule(
    ac_pending_us: u64,
    aql_limit_low_us: u32,
    aql_limit_high_us: u32,
    active_txqs: u32,
) -> bool {
    ac_pending_us < phy_ac_limit_us(aql_limit_low_us, aql_limit_high_us, active_txqs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOW: u32 = 5_000;
    const HIGH: u32 = 12_000;
    const THRESHOLD: u32 = 24_000;

    fn gate(pending: u64, total: u64) -> bool {
        station_may_dequeue(pending, total, LOW, HIGH, THRESHOLD)
    }

    #[test]
    fn station_gate_low_limit_boundary() {
        // Below the low limit the interface total does not matter.
        assert!(gate(4_999, 1_000_000));
        assert!(!gate(5_000, 24_000));
        assert!(!gate(5_000, 1_000_000));
    }

    #[test]
    fn station_gate_threshold_boundary() {
        assert!(gate(5_000, 23_999));
        assert!(!gate(5_000, 24_000));
        assert!(gate(11_999, 23_999));
        assert!(!gate(11_999, 24_000));
    }

    #[test]
    fn station_gate_high_limit_boundary() {
        assert!(gate(11_999, 11_999));
        assert!(!gate(12_000, 12_000));
        assert!(!gate(12_000, 0));
    }

    #[test]
    fn phy_cap_values_with_defaults() {
        assert_eq!(phy_ac_limit_us(LOW, HIGH, 1), 12_000);
        assert_eq!(phy_ac_limit_us(LOW, HIGH, 4), 19_500);
        assert_eq!(phy_ac_limit_us(LOW, HIGH, 10), 34_500);
        assert_eq!(phy_ac_limit_us(LOW, HIGH, 32), 89_500);
        // n = 0 is the lone-queue cap.
        assert_eq!(phy_ac_limit_us(LOW, HIGH, 0), 12_000);
        // No overflow at the extremes.
        assert_eq!(
            phy_ac_limit_us(u32::MAX, u32::MAX, u32::MAX),
            (u32::MAX as u64 - 1) * u32::MAX as u64 / 2 + u32::MAX as u64
        );
    }

    #[test]
    fn phy_gate_is_strict() {
        assert!(phy_may_schedule(19_499, LOW, HIGH, 4));
        assert!(!phy_may_schedule(19_500, LOW, HIGH, 4));
        assert!(phy_may_schedule(11_999, LOW, HIGH, 1));
        assert!(!phy_may_schedule(12_000, LOW, HIGH, 1));
    }
}
