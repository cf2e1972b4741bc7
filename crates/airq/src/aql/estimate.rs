//! How AQL prices a packet in airtime at dequeue: the kernel's estimate or our own
//! timing model.
//!
//! - [`AirtimeEstimator::Mac80211`] — `ieee80211_calc_expected_tx_airtime`
//!   (`net/mac80211/airtime.c`, see [`crate::phy::mac80211_estimate`]) from the last TX
//!   rate, then stored the way `ieee80211_info_set_tx_time_est` (`include/net/mac80211.h`)
//!   stores it: a 10-bit field in 4 µs units, so at most 4092 µs per packet. Two kernel
//!   eras round differently ([`TxTimeEstEncoding`]).
//! - [`AirtimeEstimator::Exact`] — [`crate::phy::exact_expected_airtime`], the exact
//!   TXTIME of an A-MPDU of `mpdus_per_ampdu` identical MPDUs divided by their number,
//!   rounded up to a microsecond. The A-MPDU length is an assumption the caller states.
//!
//! `len_bytes` is what the kernel passes (`skb->len` of the packet being dequeued); both
//! estimators add the same 38 bytes to it (mac80211's `len += 38`; for an IP packet that is
//! exactly the QoS Data header, LLC/SNAP and FCS of [`crate::phy::mac_frame`]), so the
//! two can be compared on the same input. mac80211 charges VO without A-MPDU
//! (`ampdu = ac != VO`); [`kernel_assumes_ampdu`] gives that choice.

use crate::ids::Ac;
use crate::phy::mac80211_estimate::expected_tx_airtime_us;
use crate::phy::mac_frame::QOS_DATA_IP_OVERHEAD_BYTES;
use crate::phy::{exact_expected_airtime, Band, Rate};

use super::params::AqlParamsError;

/// The unit of the kernel's `tx_time_est` field (`IEEE80211_TX_TIME_EST_UNIT`), µs.
pub const TX_TIME_EST_UNIT_US: u32 = 4;
/// The largest airtime the 10-bit `tx_time_est` field holds: 1023 · 4 µs.
pub const TX_TIME_EST_MAX_US: u32 = 4_092;

/// mac80211's A-MPDU assumption for the most common case (agg_shift 5: non-HE rates
/// faster than VHT20 MCS 5 2SS, HE rates slower than 20 µs per 1024 bytes): 32 MPDUs.
/// Used as the default A-MPDU length of [`AirtimeEstimator::Exact`].
pub const DEFAULT_EXACT_MPDUS_PER_AMPDU: u32 = 32;

/// How the kernel squeezes an estimate into `tx_time_est`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TxTimeEstEncoding {
    /// Linux 6.0 on ("mac80211: improve AQL tx time estimation", Felix Fietkau, 2022,
    /// the series that also added the per-PHY limit and excluded multicast):
    /// round up to 4 µs, at most 1023 units; an estimate of 0 (rate unknown or outside
    /// the tables) is charged as 4 µs.
    #[default]
    RoundUp,
    /// Linux 5.5–5.19: `min(est, 4095) >> 2 << 2`, truncating; an estimate of 0 is not
    /// charged at all.
    Truncate,
}

impl TxTimeEstEncoding {
    /// The airtime the kernel would store and later release for an estimate of
    /// `estimate_us`. (The kernel passes the `u32` estimate through a `u16` parameter,
    /// which wraps above 65535 µs; we saturate instead.)
    pub const fn store(self, estimate_us: u32) -> u32 {
        match self {
            TxTimeEstEncoding::RoundUp => {
                let units = estimate_us.div_ceil(TX_TIME_EST_UNIT_US);
                let units = if units == 0 { 1 } else { units };
                let max_units = TX_TIME_EST_MAX_US / TX_TIME_EST_UNIT_US;
                let units = if units > max_units { max_units } else { units };
                units * TX_TIME_EST_UNIT_US
            }
            TxTimeEstEncoding::Truncate => {
                let capped = if estimate_us > 4_095 {
                    4_095
                } else {
                    estimate_us
                };
                capped >> 2 << 2
            }
        }
    }
}

/// The airtime estimate AQL charges per packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AirtimeEstimator {
    /// The kernel's table estimate from the last TX rate, stored as the kernel stores it.
    Mac80211 { encoding: TxTimeEstEncoding },
    /// Exact TXTIME, amortised over an assumed A-MPDU of `mpdus_per_ampdu` MPDUs, in
    /// `band` (for the 2.4 GHz signal extension).
    Exact { mpdus_per_ampdu: u32, band: Band },
}

impl Default for AirtimeEstimator {
    /// The current kernel's behaviour.
    fn default() -> Self {
        AirtimeEstimator::Mac80211 {
            encoding: TxTimeEstEncoding::RoundUp,
        }
    }
}

impl AirtimeEstimator {
    /// The exact model with [`DEFAULT_EXACT_MPDUS_PER_AMPDU`] MPDUs per A-MPDU.
    pub const fn exact(band: Band) -> Self {
        AirtimeEstimator::Exact {
            mpdus_per_ampdu: DEFAULT_EXACT_MPDUS_PER_AMPDU,
            band,
        }
    }

    pub fn validate(&self) -> Result<(), AqlParamsError> {
        match self {
            AirtimeEstimator::Exact {
                mpdus_per_ampdu: 0, ..
            } => Err(AqlParamsError::new(
                "estimator.mpdus_per_ampdu",
                None,
                "must be at least 1",
            )),
            _ => Ok(()),
        }
    }

    /// The airtime in µs to charge for a packet of `len_bytes` sent at `rate`, in an
    /// A-MPDU if `ampdu` (and the rate can aggregate).
    ///
    /// For `Mac80211`, rates outside the kernel's tables (VHT above 4 streams) estimate
    /// 0, as in the kernel, and are then stored per the encoding.
    pub fn estimate_us(&self, rate: &Rate, len_bytes: u32, ampdu: bool) -> u32 {
        match *self {
            AirtimeEstimator::Mac80211 { encoding } => {
                let estimate = expected_tx_airtime_us(rate, len_bytes, ampdu).unwrap_or(0);
                encoding.store(estimate)
            }
            AirtimeEstimator::Exact {
                mpdus_per_ampdu,
                band,
            } => {
                let mpdu_bytes = len_bytes.saturating_add(QOS_DATA_IP_OVERHEAD_BYTES);
                let mpdus = if ampdu { mpdus_per_ampdu } else { 1 };
                let airtime = exact_expected_airtime(rate, mpdu_bytes, mpdus, band);
                let us = airtime.as_nanos().div_ceil(1_000);
                if us > u32::MAX as u64 {
                    u32::MAX
                } else {
                    us as u32
                }
            }
        }
    }
}

/// mac80211 assumes aggregation for every AC but VO (`ampdu = txq->ac !=
/// IEEE80211_AC_VO` in `ieee80211_tx_dequeue`).
pub const fn kernel_assumes_ampdu(ac: Ac) -> bool {
    !matches!(ac, Ac::Vo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{ChannelWidth, DsssDataRate, DsssPreamble, GuardInterval};

    const KERNEL: AirtimeEstimator = AirtimeEstimator::Mac80211 {
        encoding: TxTimeEstEncoding::RoundUp,
    };
    const KERNEL_5_5: AirtimeEstimator = AirtimeEstimator::Mac80211 {
        encoding: TxTimeEstEncoding::Truncate,
    };

    fn ht20(mcs: u8) -> Rate {
        Rate::ht(mcs, ChannelWidth::Mhz20, GuardInterval::Long).unwrap()
    }

    #[test]
    fn encodings_round_and_cap() {
        use TxTimeEstEncoding::{RoundUp, Truncate};
        assert_eq!(Truncate.store(191), 188);
        assert_eq!(RoundUp.store(191), 192);
        assert_eq!(Truncate.store(192), 192);
        assert_eq!(RoundUp.store(192), 192);
        assert_eq!(Truncate.store(4_095), 4_092);
        assert_eq!(Truncate.store(12_506), 4_092);
        assert_eq!(RoundUp.store(4_092), 4_092);
        assert_eq!(RoundUp.store(4_093), 4_092);
        assert_eq!(RoundUp.store(u32::MAX), 4_092);
        // Zero: charged as one unit since 6.0, not at all before.
        assert_eq!(RoundUp.store(0), 4);
        assert_eq!(Truncate.store(0), 0);
        assert_eq!(Truncate.store(3), 0);
        assert_eq!(RoundUp.store(1), 4);
    }

    #[test]
    fn mac80211_estimate_is_stored_in_4us_units() {
        // HT20 MCS 7 LGI, 1500 B: 1538 B · 129056 / 2^20 = 189 µs, + 40 >> 4 = 191 µs.
        let rate = ht20(7);
        assert_eq!(expected_tx_airtime_us(&rate, 1500, true), Some(191));
        assert_eq!(KERNEL.estimate_us(&rate, 1500, true), 192);
        assert_eq!(KERNEL_5_5.estimate_us(&rate, 1500, true), 188);
        // Without A-MPDU the whole 40 µs overhead is charged: 189 + 40 = 229 µs.
        assert_eq!(KERNEL.estimate_us(&rate, 1500, false), 232);
        assert_eq!(KERNEL_5_5.estimate_us(&rate, 1500, false), 228);
    }

    #[test]
    fn mac80211_estimate_caps_at_4092us() {
        // 1 Mbit/s DSSS, 1500 B: 192 + 10 + 1538 · 8 = 12506 µs, far above the field.
        let rate = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(expected_tx_airtime_us(&rate, 1500, true), Some(12_506));
        assert_eq!(KERNEL.estimate_us(&rate, 1500, true), TX_TIME_EST_MAX_US);
        assert_eq!(
            KERNEL_5_5.estimate_us(&rate, 1500, true),
            TX_TIME_EST_MAX_US
        );
        // The exact model has no such cap: 192 µs PLCP + 1538 · 8 µs.
        let exact = AirtimeEstimator::exact(Band::Ghz2_4);
        assert_eq!(exact.estimate_us(&rate, 1500, true), 192 + 1538 * 8);
    }

    #[test]
    fn exact_and_kernel_agree_roughly_on_ht() {
        // HT20 MCS 7, 1538-byte MPDUs, 32 per A-MPDU: the PSDU is 31 · 1544 + 1542 =
        // 49406 B; N_SYM = ⌈(395248 + 16 + 6) / 260⌉ = 1521; 36 + 4 · 1521 = 6120 µs;
        // / 32 = 191.25 µs → 192 µs rounded up.
        let rate = ht20(7);
        let exact = AirtimeEstimator::exact(Band::Ghz5);
        assert_eq!(exact.estimate_us(&rate, 1500, true), 192);
        assert_eq!(KERNEL.estimate_us(&rate, 1500, true), 192);
        // Alone: 36 + 4 · ⌈(16 + 12304 + 6) / 260⌉ = 228 µs; the kernel says 229 → 232.
        assert_eq!(exact.estimate_us(&rate, 1500, false), 228);
    }

    #[test]
    fn exact_and_kernel_on_a_slow_and_a_fast_rate() {
        let exact = AirtimeEstimator::exact(Band::Ghz5);
        // HT20 MCS 0 (6.5 Mbit/s): the kernel amortises the 40 µs overhead over 2 MPDUs
        // (agg_shift 1): 1290528 · 1538 / 2^20 = 1892, + 20 = 1912 µs. The exact model:
        // 1546 B per subframe at 26 bits per 4 µs symbol ≈ 1902 µs.
        let slow = ht20(0);
        assert_eq!(KERNEL.estimate_us(&slow, 1500, true), 1_912);
        assert_eq!(exact.estimate_us(&slow, 1500, true), 1_902);
        // HT40 MCS 15 SGI (300 Mbit/s): table entry 27960 (group shift 3), 27960 · 1538
        // / 2^20 = 41, + 44 >> 5 = 42 µs, stored as 44. Exact over 32 MPDUs: 43 µs.
        let fast = Rate::ht(15, ChannelWidth::Mhz40, GuardInterval::Short).unwrap();
        assert_eq!(expected_tx_airtime_us(&fast, 1500, true), Some(42));
        assert_eq!(KERNEL.estimate_us(&fast, 1500, true), 44);
        assert_eq!(exact.estimate_us(&fast, 1500, true), 43);
        // A smaller assumed A-MPDU costs more per packet, a lone MPDU most.
        let exact4 = AirtimeEstimator::Exact {
            mpdus_per_ampdu: 4,
            band: Band::Ghz5,
        };
        let four = exact4.estimate_us(&fast, 1500, true);
        assert!(43 < four && four < exact.estimate_us(&fast, 1500, false));
    }

    #[test]
    fn exact_requires_a_positive_ampdu_length() {
        let e = AirtimeEstimator::Exact {
            mpdus_per_ampdu: 0,
            band: Band::Ghz5,
        };
        assert_eq!(e.validate().unwrap_err().field, "estimator.mpdus_per_ampdu");
        assert!(AirtimeEstimator::exact(Band::Ghz6).validate().is_ok());
    }

    #[test]
    fn vo_is_charged_without_aggregation() {
        assert!(!kernel_assumes_ampdu(Ac::Vo));
        assert!(kernel_assumes_ampdu(Ac::Vi));
        assert!(kernel_assumes_ampdu(Ac::Be));
        assert!(kernel_assumes_ampdu(Ac::Bk));
    }
}
