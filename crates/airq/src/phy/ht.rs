//! HT rates (IEEE 802.11-2020 Clause 19): MCS 0–31, 20/40 MHz, long or short guard
//! interval, HT-mixed format PPDU, and their PPDU duration.
//!
//! MCS m uses N_SS = ⌊m / 8⌋ + 1 spatial streams and the per-stream modulation of MCS
//! m mod 8 (19.5, Tables 19-27 to 19-41 in the 2016 numbering). N_SD is 52 at 20 MHz
//! and 108 at 40 MHz (Table 19-6). TXTIME for the HT-mixed format (19.4.3):
//!
//! TXTIME = T_LEG_PREAMBLE + T_L-SIG + T_HT-SIG + T_HT-PREAMBLE + T_SYM · N_SYM   (long GI)
//! TXTIME = T_LEG_PREAMBLE + T_L-SIG + T_HT-SIG + T_HT-PREAMBLE
//!          + T_SYM · ⌈T_SYMS · N_SYM / T_SYM⌉                                    (short GI)
//!
//! plus the 6 µs signal extension in 2.4 GHz, with T_LEG_PREAMBLE = 16 µs (L-STF + L-LTF),
//! T_L-SIG = 4 µs, T_HT-SIG = 8 µs, T_HT-PREAMBLE = T_HT-STF + N_LTF · T_HT-LTF = 4 + 4 · N_LTF
//! µs, where N_LTF is 1, 2, 4, 4 for 1–4 space-time streams (19.3.9.4.6; no STBC, no
//! extension streams). N_SYM = ⌈(16 + 8 · LENGTH + 6 · N_ES) / N_DBPS⌉ for BCC
//! (19.3.11, Equation (19-32) in the 2016 numbering); LDPC and STBC are not modelled.
//!
//! N_ES, the number of BCC encoders, is the N_ES column of those tables: one encoder per
//! 320 Mbit/s at the long GI, i.e. N_ES = ⌈N_DBPS / 1280⌉ (2 for the 40 MHz MCSs whose
//! rate exceeds 300 Mbit/s, 1 otherwise). A PSDU of length 0 is an NDP, which
//! has no Data field.

use core::fmt;

use super::band::ChannelWidth;
use super::error::{PhyError, PhyKind};
use super::modulation::Modulation;
use super::ofdm_symbols::{
    n_sym, short_gi_data_ns, SYMBOL_LONG_GI_NS, SYMBOL_SHORT_GI_NS, TAIL_BITS_PER_ENCODER,
};
use crate::time::Duration;

/// The guard interval of HT and VHT symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GuardInterval {
    /// 0.8 µs: 4.0 µs symbols.
    Long,
    /// 0.4 µs: 3.6 µs symbols.
    Short,
}

impl GuardInterval {
    /// The symbol duration T_SYM (long) or T_SYMS (short) in ns.
    pub const fn symbol_ns(self) -> u64 {
        match self {
            GuardInterval::Long => SYMBOL_LONG_GI_NS,
            GuardInterval::Short => SYMBOL_SHORT_GI_NS,
        }
    }

    /// The data time in ns of `n_sym` symbols, with the short-GI rounding of 19.4.3.
    pub(super) const fn data_field_ns(self, n_sym: u64) -> u64 {
        match self {
            GuardInterval::Long => n_sym * SYMBOL_LONG_GI_NS,
            GuardInterval::Short => short_gi_data_ns(n_sym),
        }
    }
}

impl fmt::Display for GuardInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GuardInterval::Long => "LGI",
            GuardInterval::Short => "SGI",
        })
    }
}

/// A validated HT rate: MCS 0–31 at 20 or 40 MHz.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HtRate {
    mcs: u8,
    width: ChannelWidth,
    gi: GuardInterval,
}

impl HtRate {
    /// The highest equal-modulation MCS (4 streams of 64-QAM 5/6).
    pub const MAX_MCS: u8 = 31;

    /// T_LEG_PREAMBLE + T_L-SIG + T_HT-SIG + T_HT-STF: 16 + 4 + 8 + 4 µs.
    const FIXED_PREAMBLE_NS: u64 = 32_000;
    /// T_HT-LTF.
    const HT_LTF_NS: u64 = 4_000;

    /// An HT rate, or the reason it does not exist.
    pub const fn new(mcs: u8, width: ChannelWidth, gi: GuardInterval) -> Result<Self, PhyError> {
        if mcs > Self::MAX_MCS {
            return Err(PhyError::McsOutOfRange {
                phy: PhyKind::Ht,
                mcs,
                max: Self::MAX_MCS,
            });
        }
        if !matches!(width, ChannelWidth::Mhz20 | ChannelWidth::Mhz40) {
            return Err(PhyError::ChannelWidthNotSupported {
                phy: PhyKind::Ht,
                width,
            });
        }
        Ok(HtRate { mcs, width, gi })
    }

    pub const fn mcs(self) -> u8 {
        self.mcs
    }

    pub const fn width(self) -> ChannelWidth {
        self.width
    }

    pub const fn gi(self) -> GuardInterval {
        self.gi
    }

    /// N_SS = ⌊MCS / 8⌋ + 1.
    pub const fn nss(self) -> u8 {
        self.mcs / 8 + 1
    }

    /// The per-stream modulation and code rate (MCS mod 8).
    pub const fn modulation(self) -> Modulation {
        Modulation::of_valid_mcs(self.mcs % 8)
    }

    /// N_SD, data subcarriers (Table 19-6).
    pub const fn n_sd(self) -> u32 {
        match self.width {
            ChannelWidth::Mhz20 => 52,
            _ => 108,
        }
    }

    /// N_DBPS over all streams.
    pub const fn n_dbps(self) -> u32 {
        self.modulation().n_dbps(self.n_sd(), self.nss() as u32)
    }

    /// N_ES, the number of BCC encoders.
    pub const fn n_es(self) -> u32 {
        self.n_dbps().div_ceil(1280)
    }

    /// N_LTF, HT-LTF symbols for N_STS = N_SS (19.3.9.4.6): 1, 2, 4, 4.
    pub const fn n_ltf(self) -> u32 {
        match self.nss() {
            1 => 1,
            2 => 2,
            _ => 4,
        }
    }

    /// The symbol duration: 4.0 µs (long GI) or 3.6 µs (short GI).
    pub const fn symbol_duration(self) -> Duration {
        Duration::from_nanos(self.gi.symbol_ns())
    }

    /// The data rate in kbit/s (rounded down): N_DBPS / T_SYM.
    pub const fn data_rate_kbps(self) -> u32 {
        (self.n_dbps() as u64 * 1_000_000 / self.gi.symbol_ns()) as u32
    }

    /// Everything before the Data field: L-STF, L-LTF, L-SIG, HT-SIG, HT-STF, HT-LTFs.
    pub const fn preamble_duration(self) -> Duration {
        Duration::from_nanos(Self::FIXED_PREAMBLE_NS + self.n_ltf() as u64 * Self::HT_LTF_NS)
    }

    /// N_SYM for a PSDU of `psdu_bytes` (0 for an NDP).
    pub const fn n_sym(self, psdu_bytes: u32) -> u64 {
        if psdu_bytes == 0 {
            return 0;
        }
        n_sym(
            psdu_bytes,
            self.n_dbps(),
            TAIL_BITS_PER_ENCODER * self.n_es() as u64,
        )
    }

    /// TXTIME of a PSDU of `psdu_bytes` (19.4.3), without the 2.4 GHz signal extension.
    pub const fn ppdu_duration(self, psdu_bytes: u32) -> Duration {
        let data_ns = self.gi.data_field_ns(self.n_sym(psdu_bytes));
        Duration::from_nanos(self.preamble_duration().as_nanos() + data_ns)
    }
}

impl fmt::Display for HtRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HT MCS {} {} {}", self.mcs, self.width, self.gi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ht(mcs: u8, width: ChannelWidth, gi: GuardInterval) -> HtRate {
        HtRate::new(mcs, width, gi).unwrap()
    }

    use ChannelWidth::{Mhz20, Mhz40};
    use GuardInterval::{Long, Short};

    #[test]
    fn data_rates_match_the_published_tables() {
        // IEEE 802.11-2020 19.5, HT MCS tables (Mbit/s at 800 ns / 400 ns GI): MCS 0 6.5,
        // MCS 7 65 / 72.2, MCS 15 130 (20 MHz); MCS 7 135 / 150, MCS 15 270 / 300,
        // MCS 31 540 / 600 (40 MHz).
        assert_eq!(ht(0, Mhz20, Long).data_rate_kbps(), 6_500);
        assert_eq!(ht(7, Mhz20, Long).data_rate_kbps(), 65_000);
        assert_eq!(ht(7, Mhz20, Short).data_rate_kbps(), 72_222); // 72.2
        assert_eq!(ht(15, Mhz20, Long).data_rate_kbps(), 130_000);
        assert_eq!(ht(7, Mhz40, Short).data_rate_kbps(), 150_000);
        assert_eq!(ht(15, Mhz40, Short).data_rate_kbps(), 300_000);
        assert_eq!(ht(31, Mhz40, Short).data_rate_kbps(), 600_000);
    }

    #[test]
    fn streams_encoders_and_training_fields() {
        assert_eq!(ht(0, Mhz20, Long).nss(), 1);
        assert_eq!(ht(23, Mhz20, Long).nss(), 3);
        // 3 streams train with 4 HT-LTFs.
        assert_eq!(ht(23, Mhz20, Long).n_ltf(), 4);
        // N_ES: 2 only where the 40 MHz rate exceeds 300 Mbit/s (N_ES column of the
        // 40 MHz, 3 and 4 stream tables in 19.5).
        assert_eq!(ht(15, Mhz40, Long).n_es(), 1); // 270 Mbit/s
        assert_eq!(ht(21, Mhz40, Long).n_es(), 2); // 324 Mbit/s
        assert_eq!(ht(20, Mhz40, Long).n_es(), 1); // 243 Mbit/s
        assert_eq!(ht(28, Mhz40, Long).n_es(), 2); // 324 Mbit/s
        assert_eq!(ht(27, Mhz40, Long).n_es(), 1); // 216 Mbit/s
        assert_eq!(ht(31, Mhz20, Long).n_es(), 1); // 260 Mbit/s
    }

    #[test]
    fn ht_mixed_ppdu_of_1500_bytes_at_mcs7() {
        // MCS 7, 20 MHz, 1 SS, N_DBPS 260, N_ES 1.
        // Preamble: 16 (L-STF+L-LTF) + 4 (L-SIG) + 8 (HT-SIG) + 4 (HT-STF) + 4 (1 HT-LTF) = 36 µs.
        // N_SYM = ⌈(16 + 12000 + 6) / 260⌉ = ⌈46.24⌉ = 47.
        // Long GI: 36 + 47 · 4 = 224 µs.
        assert_eq!(
            ht(7, Mhz20, Long).ppdu_duration(1500),
            Duration::from_micros(224)
        );
        // Short GI: 36 + 4 · ⌈47 · 3.6 / 4⌉ = 36 + 4 · ⌈42.3⌉ = 36 + 172 = 208 µs.
        assert_eq!(
            ht(7, Mhz20, Short).ppdu_duration(1500),
            Duration::from_micros(208)
        );
    }

    #[test]
    fn ht_mixed_ppdu_with_two_encoders_and_four_ltfs() {
        // MCS 31, 40 MHz, 4 SS, N_DBPS 2160, N_ES 2, N_LTF 4.
        // Preamble: 32 + 4 · 4 = 48 µs.
        // 65535-byte A-MPDU: N_SYM = ⌈(16 + 524280 + 12) / 2160⌉ = ⌈242.73⌉ = 243.
        // Short GI: 48 + 4 · ⌈243 · 0.9⌉ = 48 + 4 · ⌈218.7⌉ = 48 + 876 = 924 µs.
        let d = ht(31, Mhz40, Short).ppdu_duration(65_535);
        assert_eq!(d, Duration::from_micros(924));
    }

    #[test]
    fn ndp_has_no_data_field() {
        let r = ht(8, Mhz20, Long);
        assert_eq!(r.ppdu_duration(0), Duration::from_micros(40));
    }

    #[test]
    fn invalid_ht_rates_are_rejected() {
        assert_eq!(
            HtRate::new(32, Mhz40, Long),
            Err(PhyError::McsOutOfRange {
                phy: PhyKind::Ht,
                mcs: 32,
                max: 31
            })
        );
        assert_eq!(
            HtRate::new(7, ChannelWidth::Mhz80, Long),
            Err(PhyError::ChannelWidthNotSupported {
                phy: PhyKind::Ht,
                width: ChannelWidth::Mhz80
            })
        );
    }
}
