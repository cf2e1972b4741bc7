//! HE rates (IEEE 802.11ax-2021 Clause 27, an amendment to IEEE 802.11-2020): HE SU PPDU,
//! MCS 0–11, 1–8 spatial streams, 20/40/80/160 MHz, guard interval 0.8/1.6/3.2 µs, and
//! their PPDU duration.
//!
//! The Data field uses 12.8 µs symbols plus the GI (13.6, 14.4 or 16.0 µs) over the full
//! band's resource unit: N_SD = 234, 468, 980, 1960 data subcarriers (RU 242, 484, 996,
//! 2×996; the HE-MCS tables of 27.5). N_DBPS is rounded down where N_CBPS · R is not
//! whole (see [`crate::phy::modulation`]).
//!
//! TXTIME of an HE SU PPDU (27.4.3):
//!
//! TXTIME = T_L-STF + T_L-LTF + T_L-SIG + T_RL-SIG + T_HE-SIG-A + T_HE-STF
//!          + N_HE-LTF · T_HE-LTF-SYM + N_SYM · T_SYM + T_PE
//!
//! with 8 + 8 + 4 + 4 + 8 + 4 µs, N_HE-LTF = 1, 2, 4, 4, 6, 6, 8, 8 for 1–8 space-time
//! streams, T_HE-LTF-SYM = HE-LTF (3.2 µs for 1x, 6.4 µs for 2x, 12.8 µs for 4x) plus the
//! GI, plus the 6 µs signal extension in 2.4 GHz. Assumptions, all documented here:
//!
//! - HE-LTF: an HE SU PPDU may combine 1x+0.8, 2x+0.8, 2x+1.6, 4x+0.8 or 4x+3.2 µs.
//!   [`HeRate::new`] pairs 0.8 and 1.6 µs with the 2x HE-LTF and 3.2 µs with the 4x
//!   HE-LTF (the usual pairings for data); [`HeRate::with_ltf`] picks another.
//! - Coding: LDPC (mandatory above 20 MHz, for MCS 10–11 and beyond 4 streams), so no
//!   tail bits: N_SYM = ⌈(8 · APEP_LENGTH + 16) / N_DBPS⌉. The LDPC extra symbol segment
//!   and the pre-FEC padding factor a are not modelled; they can add at most one symbol.
//! - Packet extension: nominal packet padding 0 µs, so T_PE = 0. No midambles, no STBC,
//!   no DCM, no HE ER SU or MU formats.
//! - A length of 0 is an NDP, which has no Data field.

use core::fmt;

use super::band::ChannelWidth;
use super::error::{check_mcs_nss, PhyError, PhyKind};
use super::modulation::Modulation;
use super::ofdm_symbols::n_sym;
use crate::time::Duration;

/// The guard interval of HE Data and HE-LTF symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeGi {
    /// 0.8 µs: 13.6 µs symbols.
    Gi0_8,
    /// 1.6 µs: 14.4 µs symbols.
    Gi1_6,
    /// 3.2 µs: 16.0 µs symbols.
    Gi3_2,
}

impl HeGi {
    /// The guard interval in ns.
    pub const fn ns(self) -> u64 {
        match self {
            HeGi::Gi0_8 => 800,
            HeGi::Gi1_6 => 1_600,
            HeGi::Gi3_2 => 3_200,
        }
    }
}

impl fmt::Display for HeGi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeGi::Gi0_8 => "0.8 us",
            HeGi::Gi1_6 => "1.6 us",
            HeGi::Gi3_2 => "3.2 us",
        })
    }
}

/// The HE-LTF size: its symbol without GI is 3.2, 6.4 or 12.8 µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeLtf {
    X1,
    X2,
    X4,
}

impl HeLtf {
    /// The HE-LTF symbol without its GI, in ns.
    pub const fn ns(self) -> u64 {
        match self {
            HeLtf::X1 => 3_200,
            HeLtf::X2 => 6_400,
            HeLtf::X4 => 12_800,
        }
    }

    /// The HE-LTF [`HeRate::new`] pairs with `gi`: 2x for 0.8 and 1.6 µs, 4x for 3.2 µs.
    pub const fn default_for(gi: HeGi) -> HeLtf {
        match gi {
            HeGi::Gi0_8 | HeGi::Gi1_6 => HeLtf::X2,
            HeGi::Gi3_2 => HeLtf::X4,
        }
    }

    /// Whether an HE SU PPDU may combine this HE-LTF with `gi`.
    pub const fn allows(self, gi: HeGi) -> bool {
        matches!(
            (self, gi),
            (HeLtf::X1, HeGi::Gi0_8)
                | (HeLtf::X2, HeGi::Gi0_8 | HeGi::Gi1_6)
                | (HeLtf::X4, HeGi::Gi0_8 | HeGi::Gi3_2)
        )
    }
}

impl fmt::Display for HeLtf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeLtf::X1 => "1x",
            HeLtf::X2 => "2x",
            HeLtf::X4 => "4x",
        })
    }
}

/// A validated HE SU rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeRate {
    mcs: u8,
    nss: u8,
    width: ChannelWidth,
    gi: HeGi,
    ltf: HeLtf,
}

impl HeRate {
    pub const MAX_MCS: u8 = 11;
    pub const MAX_NSS: u8 = 8;

    /// T_L-STF + T_L-LTF + T_L-SIG + T_RL-SIG + T_HE-SIG-A + T_HE-STF: 8+8+4+4+8+4 µs.
    const FIXED_PREAMBLE_NS: u64 = 36_000;
    /// The Data symbol without its GI.
    const SYMBOL_WITHOUT_GI_NS: u64 = 12_800;

    /// An HE SU rate with the HE-LTF of [`HeLtf::default_for`] `gi`.
    pub const fn new(mcs: u8, nss: u8, width: ChannelWidth, gi: HeGi) -> Result<Self, PhyError> {
        Self::with_ltf(mcs, nss, width, gi, HeLtf::default_for(gi))
    }

    /// An HE SU rate with an explicit HE-LTF size.
    pub const fn with_ltf(
        mcs: u8,
        nss: u8,
        width: ChannelWidth,
        gi: HeGi,
        ltf: HeLtf,
    ) -> Result<Self, PhyError> {
        if let Err(e) = check_mcs_nss(PhyKind::He, mcs, Self::MAX_MCS, nss, Self::MAX_NSS) {
            return Err(e);
        }
        if !ltf.allows(gi) {
            return Err(PhyError::HeLtfGiNotAllowed { ltf, gi });
        }
        Ok(HeRate {
            mcs,
            nss,
            width,
            gi,
            ltf,
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

    pub const fn gi(self) -> HeGi {
        self.gi
    }

    pub const fn ltf(self) -> HeLtf {
        self.ltf
    }

    pub const fn modulation(self) -> Modulation {
        Modulation::of_valid_mcs(self.mcs)
    }

    /// N_SD of the full-band RU: 234, 468, 980, 1960.
    pub const fn n_sd(self) -> u32 {
        match self.width {
            ChannelWidth::Mhz20 => 234,
            ChannelWidth::Mhz40 => 468,
            ChannelWidth::Mhz80 => 980,
            ChannelWidth::Mhz160 => 1960,
        }
    }

    /// N_DBPS over all streams, rounded down.
    pub const fn n_dbps(self) -> u32 {
        self.modulation().n_dbps(self.n_sd(), self.nss as u32)
    }

    /// N_HE-LTF for N_STS = N_SS: 1, 2, 4, 4, 6, 6, 8, 8.
    pub const fn n_he_ltf(self) -> u32 {
        match self.nss {
            1 => 1,
            2 => 2,
            3 | 4 => 4,
            5 | 6 => 6,
            _ => 8,
        }
    }

    /// T_SYM: 12.8 µs plus the GI.
    pub const fn symbol_duration(self) -> Duration {
        Duration::from_nanos(self.symbol_ns())
    }

    const fn symbol_ns(self) -> u64 {
        Self::SYMBOL_WITHOUT_GI_NS + self.gi.ns()
    }

    /// T_HE-LTF-SYM: the HE-LTF plus the GI.
    pub const fn he_ltf_symbol_duration(self) -> Duration {
        Duration::from_nanos(self.ltf.ns() + self.gi.ns())
    }

    /// The data rate in kbit/s (rounded down): N_DBPS / T_SYM.
    pub const fn data_rate_kbps(self) -> u32 {
        (self.n_dbps() as u64 * 1_000_000 / self.symbol_ns()) as u32
    }

    /// Everything before the Data field: the legacy preamble, RL-SIG, HE-SIG-A, HE-STF
    /// and the HE-LTFs.
    pub const fn preamble_duration(self) -> Duration {
        let ltfs_ns = self.n_he_ltf() as u64 * self.he_ltf_symbol_duration().as_nanos();
        Duration::from_nanos(Self::FIXED_PREAMBLE_NS + ltfs_ns)
    }

    /// N_SYM for an APEP_LENGTH of `apep_bytes` with LDPC (no tail bits; 0 for an NDP).
    pub const fn n_sym(self, apep_bytes: u32) -> u64 {
        if apep_bytes == 0 {
            return 0;
        }
        n_sym(apep_bytes, self.n_dbps(), 0)
    }

    /// TXTIME of an HE SU PPDU carrying `apep_bytes` (27.4.3), T_PE = 0, without the
    /// 2.4 GHz signal extension.
    pub const fn ppdu_duration(self, apep_bytes: u32) -> Duration {
        let data_ns = self.n_sym(apep_bytes) * self.symbol_ns();
        Duration::from_nanos(self.preamble_duration().as_nanos() + data_ns)
    }
}

impl fmt::Display for HeRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "HE MCS {} NSS {} {} GI {} {} HE-LTF",
            self.mcs, self.nss, self.width, self.gi, self.ltf
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ChannelWidth::{Mhz160, Mhz20, Mhz40, Mhz80};
    use HeGi::{Gi0_8, Gi1_6, Gi3_2};

    fn he(mcs: u8, nss: u8, width: ChannelWidth, gi: HeGi) -> HeRate {
        HeRate::new(mcs, nss, width, gi).unwrap()
    }

    #[test]
    fn data_rates_match_the_published_tables() {
        // IEEE 802.11ax-2021 27.5 HE-MCS tables (Mbit/s at 0.8 / 1.6 / 3.2 µs GI).
        assert_eq!(he(11, 1, Mhz80, Gi0_8).data_rate_kbps(), 600_441); // 600.4
        assert_eq!(he(11, 2, Mhz160, Gi0_8).data_rate_kbps(), 2_401_911); // 2401.9
        assert_eq!(he(11, 1, Mhz20, Gi0_8).data_rate_kbps(), 143_382); // 143.4
        assert_eq!(he(0, 1, Mhz20, Gi0_8).data_rate_kbps(), 8_602); // 8.6
        assert_eq!(he(0, 1, Mhz20, Gi3_2).data_rate_kbps(), 7_312); // 7.3
        assert_eq!(he(9, 1, Mhz40, Gi1_6).data_rate_kbps(), 216_666); // 216.7
        assert_eq!(he(11, 8, Mhz160, Gi0_8).data_rate_kbps(), 9_607_794); // 9607.8
    }

    #[test]
    fn symbol_and_ltf_durations_follow_the_gi() {
        assert_eq!(
            he(0, 1, Mhz20, Gi0_8).symbol_duration(),
            Duration::from_nanos(13_600)
        );
        assert_eq!(
            he(0, 1, Mhz20, Gi1_6).symbol_duration(),
            Duration::from_nanos(14_400)
        );
        assert_eq!(
            he(0, 1, Mhz20, Gi3_2).symbol_duration(),
            Duration::from_nanos(16_000)
        );
        assert_eq!(
            he(0, 1, Mhz20, Gi0_8).he_ltf_symbol_duration(),
            Duration::from_nanos(7_200)
        );
        assert_eq!(
            he(0, 1, Mhz20, Gi3_2).he_ltf_symbol_duration(),
            Duration::from_nanos(16_000)
        );
        let x1 = HeRate::with_ltf(0, 1, Mhz20, Gi0_8, HeLtf::X1).unwrap();
        assert_eq!(x1.he_ltf_symbol_duration(), Duration::from_nanos(4_000));
    }

    #[test]
    fn he_su_ppdu_duration_by_hand() {
        // HE80 MCS 11, 2 SS, GI 0.8 µs, 2x HE-LTF: N_DBPS ⌊980·10·2·5/6⌋ = 16333.
        // Preamble: 36 µs + 2 HE-LTFs · 7.2 µs = 50.4 µs.
        // APEP 1500 B: N_SYM = ⌈(12000 + 16) / 16333⌉ = 1; 50.4 + 13.6 = 64.0 µs.
        let r = he(11, 2, Mhz80, Gi0_8);
        assert_eq!(r.n_dbps(), 16_333);
        assert_eq!(r.ppdu_duration(1500), Duration::from_nanos(64_000));
        // 64 kB: N_SYM = ⌈(524288 + 16) / 16333⌉ = ⌈32.1⌉ = 33; 50.4 + 448.8 = 499.2 µs.
        assert_eq!(r.ppdu_duration(65_536), Duration::from_nanos(499_200));
        // HE20 MCS 0, 3 SS, GI 3.2 µs, 4x HE-LTF: N_DBPS 351, 4 HE-LTFs of 16 µs.
        // Preamble 36 + 64 = 100 µs; 100 B: ⌈816 / 351⌉ = 3 symbols of 16 µs: 148 µs.
        assert_eq!(
            he(0, 3, Mhz20, Gi3_2).ppdu_duration(100),
            Duration::from_micros(148)
        );
    }

    #[test]
    fn invalid_he_rates_are_rejected() {
        assert_eq!(
            HeRate::new(12, 1, Mhz40, Gi0_8),
            Err(PhyError::McsOutOfRange {
                phy: PhyKind::He,
                mcs: 12,
                max: 11
            })
        );
        assert_eq!(
            HeRate::new(0, 9, Mhz40, Gi0_8),
            Err(PhyError::SpatialStreamsOutOfRange {
                phy: PhyKind::He,
                nss: 9,
                max: 8
            })
        );
        assert_eq!(
            HeRate::with_ltf(0, 1, Mhz40, Gi1_6, HeLtf::X4),
            Err(PhyError::HeLtfGiNotAllowed {
                ltf: HeLtf::X4,
                gi: Gi1_6
            })
        );
        assert!(HeRate::with_ltf(0, 1, Mhz40, Gi3_2, HeLtf::X2).is_err());
        assert!(HeRate::with_ltf(0, 1, Mhz40, Gi0_8, HeLtf::X4).is_ok());
    }
}
