//! VHT rates (IEEE 802.11-2020 Clause 21): MCS 0–9, 1–8 spatial streams, 20/40/80/160
//! MHz, long or short guard interval, single-user VHT PPDU, and their PPDU duration.
//!
//! N_SD is 52, 108, 234 and 468 data subcarriers at 20, 40, 80 and 160 (or 80+80) MHz.
//! Some MCS/N_SS/width combinations are excluded because their bits do not split evenly
//! over the BCC encoders (21.5): MCS 9 at 20 MHz except with 3 or 6 streams, MCS 6 at 80
//! MHz with 3 or 7 streams, MCS 9 at 80 MHz with 6 streams, MCS 9 at 160 MHz with 3
//! streams. [`VhtRate::new`] rejects them.
//!
//! TXTIME of a VHT SU PPDU (21.4.3):
//!
//! TXTIME = T_LEG_PREAMBLE + T_L-SIG + T_VHT-SIG-A + T_VHT-PREAMBLE + T_VHT-SIG-B
//!          + T_SYM · N_SYM                        (long GI; short GI rounds as HT does)
//!
//! with 16 + 4 + 8 µs, T_VHT-PREAMBLE = T_VHT-STF + N_VHTLTF · T_VHT-LTF = 4 + 4 · N_VHTLTF
//! µs (N_VHTLTF = 1, 2, 4, 4, 6, 6, 8, 8 for 1–8 space-time streams), T_VHT-SIG-B = 4 µs,
//! and, for BCC, N_SYM = ⌈(8 · APEP_LENGTH + 16 + 6 · N_ES) / N_DBPS⌉ (Equation (21-62) in
//! the 2016 numbering). The length passed in is APEP_LENGTH, the A-MPDU before its
//! end-of-frame padding (every VHT PSDU is an A-MPDU). LDPC and STBC are not modelled; a
//! length of 0 is an NDP, which has no Data field.
//!
//! N_ES follows the N_ES column of the VHT MCS tables: one encoder per 540 Mbit/s at the
//! long GI (N_ES = ⌈N_DBPS / 2160⌉), raised to the next count that divides both N_DBPS
//! and N_CBPS where that first count does not. The raised entries are all at 7 or 8
//! streams or 160 MHz; the test below checks them against the table.

use core::fmt;

use super::band::ChannelWidth;
use super::error::{check_mcs_nss, PhyError, PhyKind};
use super::ht::GuardInterval;
use super::modulation::Modulation;
use super::ofdm_symbols::{n_sym, TAIL_BITS_PER_ENCODER};
use crate::time::Duration;

/// A validated VHT rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VhtRate {
    mcs: u8,
    nss: u8,
    width: ChannelWidth,
    gi: GuardInterval,
}

impl VhtRate {
    pub const MAX_MCS: u8 = 9;
    pub const MAX_NSS: u8 = 8;

    /// T_LEG_PREAMBLE + T_L-SIG + T_VHT-SIG-A + T_VHT-STF + T_VHT-SIG-B: 16 + 4 + 8 + 4 + 4 µs.
    const FIXED_PREAMBLE_NS: u64 = 36_000;
    /// T_VHT-LTF.
    const VHT_LTF_NS: u64 = 4_000;

    /// A VHT rate, or the reason it does not exist.
    pub const fn new(
        mcs: u8,
        nss: u8,
        width: ChannelWidth,
        gi: GuardInterval,
    ) -> Result<Self, PhyError> {
        if let Err(e) = check_mcs_nss(PhyKind::Vht, mcs, Self::MAX_MCS, nss, Self::MAX_NSS) {
            return Err(e);
        }
        if is_excluded(mcs, nss, width) {
            return Err(PhyError::VhtMcsExcluded { mcs, nss, width });
        }
        Ok(VhtRate {
            mcs,
            nss,
            width,
            gi,
        })
    }

    pub const fn mcs(self) -> u8 {
        self.mcs
    }

    pub const fn nss(self) -> u8 {
        self.nss
    }

    pub const fn width(self) -> ChannelWidth {
        self.width
    }

    pub const fn gi(self) -> GuardInterval {
        self.gi
    }

    pub const fn modulation(self) -> Modulation {
        Modulation::of_valid_mcs(self.mcs)
    }

    /// N_SD, data subcarriers.
    pub const fn n_sd(self) -> u32 {
        n_sd(self.width)
    }

    /// N_CBPS over all streams.
    pub const fn n_cbps(self) -> u32 {
        self.modulation().n_cbps(self.n_sd(), self.nss as u32)
    }

    /// N_DBPS over all streams.
    pub const fn n_dbps(self) -> u32 {
        self.modulation().n_dbps(self.n_sd(), self.nss as u32)
    }

    /// N_ES, the number of BCC encoders.
    pub const fn n_es(self) -> u32 {
        n_es(self.n_dbps(), self.n_cbps())
    }

    /// N_VHTLTF for N_STS = N_SS: 1, 2, 4, 4, 6, 6, 8, 8.
    pub const fn n_vht_ltf(self) -> u32 {
        match self.nss {
            1 => 1,
            2 => 2,
            3 | 4 => 4,
            5 | 6 => 6,
            _ => 8,
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

    /// Everything before the Data field: L-STF, L-LTF, L-SIG, VHT-SIG-A, VHT-STF,
    /// VHT-LTFs, VHT-SIG-B.
    pub const fn preamble_duration(self) -> Duration {
        Duration::from_nanos(Self::FIXED_PREAMBLE_NS + self.n_vht_ltf() as u64 * Self::VHT_LTF_NS)
    }

    /// N_SYM for an APEP_LENGTH of `apep_bytes` (0 for an NDP).
    pub const fn n_sym(self, apep_bytes: u32) -> u64 {
        if apep_bytes == 0 {
            return 0;
        }
        n_sym(
            apep_bytes,
            self.n_dbps(),
            TAIL_BITS_PER_ENCODER * self.n_es() as u64,
        )
    }

    /// TXTIME of a VHT SU PPDU carrying `apep_bytes` (21.4.3).
    pub const fn ppdu_duration(self, apep_bytes: u32) -> Duration {
        let data_ns = self.gi.data_field_ns(self.n_sym(apep_bytes));
        Duration::from_nanos(self.preamble_duration().as_nanos() + data_ns)
    }
}

/// N_SD per width (52, 108, 234, 468).
const fn n_sd(width: ChannelWidth) -> u32 {
    match width {
        ChannelWidth::Mhz20 => 52,
        ChannelWidth::Mhz40 => 108,
        ChannelWidth::Mhz80 => 234,
        ChannelWidth::Mhz160 => 468,
    }
}

/// The combinations 21.5 excludes.
const fn is_excluded(mcs: u8, nss: u8, width: ChannelWidth) -> bool {
    matches!(
        (width, mcs, nss),
        (ChannelWidth::Mhz20, 9, 1 | 2 | 4 | 5 | 7 | 8)
            | (ChannelWidth::Mhz80, 6, 3 | 7)
            | (ChannelWidth::Mhz80, 9, 6)
            | (ChannelWidth::Mhz160, 9, 3)
    )
}

/// The first guess at N_ES: one encoder per 2160 data bits per symbol (540 Mbit/s at
/// the long GI, 600 Mbit/s at the short GI).
const fn n_es_first_guess(n_dbps: u32) -> u32 {
    n_dbps.div_ceil(2160)
}

/// Whether `n_es` encoders each get a whole number of data and coded bits per symbol.
const fn splits_evenly(n_dbps: u32, n_cbps: u32, n_es: u32) -> bool {
    matches!(n_dbps.checked_rem(n_es), Some(0)) && matches!(n_cbps.checked_rem(n_es), Some(0))
}

/// N_ES: the first guess, raised until the bits split evenly (for an allowed combination
/// this ends within a few steps; the bound keeps it finite for any input).
const fn n_es(n_dbps: u32, n_cbps: u32) -> u32 {
    let first = n_es_first_guess(n_dbps);
    let mut n_es = first;
    while n_es < first + 16 {
        if splits_evenly(n_dbps, n_cbps, n_es) {
            return n_es;
        }
        n_es += 1;
    }
    first
}

impl fmt::Display for VhtRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "VHT MCS {} NSS {} {} {}",
            self.mcs, self.nss, self.width, self.gi
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ChannelWidth::{Mhz160, Mhz20, Mhz40, Mhz80};
    use GuardInterval::{Long, Short};

    fn vht(mcs: u8, nss: u8, width: ChannelWidth, gi: GuardInterval) -> VhtRate {
        VhtRate::new(mcs, nss, width, gi).unwrap()
    }

    #[test]
    fn data_rates_match_the_published_tables() {
        // IEEE 802.11-2020 21.5 VHT MCS tables (Mbit/s, 800 ns / 400 ns GI).
        assert_eq!(vht(0, 1, Mhz20, Long).data_rate_kbps(), 6_500);
        assert_eq!(vht(8, 1, Mhz20, Long).data_rate_kbps(), 78_000);
        assert_eq!(vht(9, 1, Mhz40, Short).data_rate_kbps(), 200_000);
        assert_eq!(vht(9, 1, Mhz80, Long).data_rate_kbps(), 390_000);
        assert_eq!(vht(9, 1, Mhz80, Short).data_rate_kbps(), 433_333); // 433.3
        assert_eq!(vht(9, 2, Mhz160, Short).data_rate_kbps(), 1_733_333); // 1733.3
        assert_eq!(vht(9, 8, Mhz160, Short).data_rate_kbps(), 6_933_333); // 6933.3
        assert_eq!(vht(9, 3, Mhz20, Long).data_rate_kbps(), 260_000); // the allowed VHT20 MCS 9
    }

    #[test]
    fn excluded_combinations_are_rejected() {
        for nss in [1, 2, 4, 5, 7, 8] {
            assert_eq!(
                VhtRate::new(9, nss, Mhz20, Long),
                Err(PhyError::VhtMcsExcluded {
                    mcs: 9,
                    nss,
                    width: Mhz20
                })
            );
        }
        assert!(VhtRate::new(9, 3, Mhz20, Long).is_ok());
        assert!(VhtRate::new(9, 6, Mhz20, Long).is_ok());
        assert!(VhtRate::new(6, 3, Mhz80, Short).is_err());
        assert!(VhtRate::new(6, 7, Mhz80, Short).is_err());
        assert!(VhtRate::new(9, 6, Mhz80, Short).is_err());
        assert!(VhtRate::new(9, 3, Mhz160, Short).is_err());
        assert!(VhtRate::new(9, 3, Mhz80, Short).is_ok());
    }

    #[test]
    fn out_of_range_inputs_are_rejected() {
        assert_eq!(
            VhtRate::new(10, 1, Mhz80, Long),
            Err(PhyError::McsOutOfRange {
                phy: PhyKind::Vht,
                mcs: 10,
                max: 9
            })
        );
        assert_eq!(
            VhtRate::new(0, 0, Mhz80, Long),
            Err(PhyError::SpatialStreamsOutOfRange {
                phy: PhyKind::Vht,
                nss: 0,
                max: 8
            })
        );
        assert!(VhtRate::new(0, 9, Mhz80, Long).is_err());
    }

    #[test]
    fn exclusion_list_is_where_the_first_n_es_guess_does_not_split() {
        // The standard's reason for each exclusion: N_DBPS is not whole, or the first
        // N_ES does not divide N_DBPS and N_CBPS. Every allowed combination has a whole
        // N_DBPS and an N_ES that splits it evenly.
        for width in ChannelWidth::ALL {
            for nss in 1..=8u8 {
                for mcs in 0..=9u8 {
                    let m = Modulation::of_valid_mcs(mcs);
                    let (n_sd, streams) = (n_sd(width), nss as u32);
                    let n_dbps = m.n_dbps(n_sd, streams);
                    let n_cbps = m.n_cbps(n_sd, streams);
                    let whole = m.n_dbps_is_whole(n_sd, streams);
                    let first_splits =
                        whole && splits_evenly(n_dbps, n_cbps, n_es_first_guess(n_dbps));
                    match VhtRate::new(mcs, nss, width, Long) {
                        Ok(rate) => {
                            assert!(whole, "{rate}");
                            assert!(splits_evenly(n_dbps, n_cbps, rate.n_es()), "{rate}");
                        }
                        Err(_) => assert!(!first_splits, "MCS {mcs} NSS {nss} {width}"),
                    }
                }
            }
        }
    }

    #[test]
    fn n_es_matches_the_table_exceptions() {
        // N_ES entries of the 802.11-2016 VHT MCS tables (21-30 to 21-61) that differ from
        // ⌈rate / 540 Mbit/s⌉, as transcribed in ns-3 (src/wifi/model/vht/vht-phy.cc).
        let exceptions = [
            (Mhz80, 7, 2, 3),
            (Mhz80, 7, 7, 6),
            (Mhz80, 7, 8, 6),
            (Mhz80, 8, 7, 6),
            (Mhz160, 4, 7, 6),
            (Mhz160, 5, 8, 8),
            (Mhz160, 6, 7, 8),
            (Mhz160, 7, 3, 4),
            (Mhz160, 7, 4, 6),
            (Mhz160, 7, 5, 7),
            (Mhz160, 7, 7, 9),
            (Mhz160, 7, 8, 12),
            (Mhz160, 7, 9, 12),
        ];
        for (width, nss, mcs, n_es) in exceptions {
            assert_eq!(
                vht(mcs, nss, width, Long).n_es(),
                n_es,
                "MCS {mcs} NSS {nss}"
            );
        }
        // And ordinary entries: one encoder up to 540 Mbit/s, then one more per 540.
        assert_eq!(vht(9, 1, Mhz80, Long).n_es(), 1); // 390 Mbit/s
        assert_eq!(vht(7, 2, Mhz80, Long).n_es(), 2); // 585 Mbit/s
        assert_eq!(vht(9, 4, Mhz160, Long).n_es(), 6); // 3120 Mbit/s
    }

    #[test]
    fn vht_ppdu_duration_by_hand() {
        // VHT80 MCS 9, 1 SS, short GI: N_DBPS 1560, N_ES 1, N_VHTLTF 1.
        // Preamble: 16 + 4 + 8 (SIG-A) + 4 (STF) + 4 (1 LTF) + 4 (SIG-B) = 40 µs.
        // APEP 1500 B: N_SYM = ⌈(12000 + 16 + 6) / 1560⌉ = ⌈7.71⌉ = 8.
        // Data: 4 · ⌈8 · 3.6 / 4⌉ = 4 · ⌈7.2⌉ = 32 µs. Total 72 µs.
        assert_eq!(
            vht(9, 1, Mhz80, Short).ppdu_duration(1500),
            Duration::from_micros(72)
        );
        // VHT40 MCS 0, 3 SS, long GI: N_DBPS 162, N_VHTLTF 4; preamble 36 + 16 = 52 µs.
        // N_SYM = ⌈(800 + 22) / 162⌉ = ⌈5.07⌉ = 6; 52 + 24 = 76 µs.
        assert_eq!(
            vht(0, 3, Mhz40, Long).ppdu_duration(100),
            Duration::from_micros(76)
        );
        // NDP: preamble only.
        assert_eq!(
            vht(0, 2, Mhz20, Long).ppdu_duration(0),
            Duration::from_micros(44)
        );
    }
}
