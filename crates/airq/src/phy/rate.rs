//! [`Rate`]: one validated PHY rate of any PHY the library models, with its data rate,
//! data bits per symbol, symbol duration and PPDU duration (TXTIME).
//!
//! Each variant wraps the PHY's own validated type, so a `Rate` that exists is one the
//! standard defines: DSSS/HR-DSSS ([`DsssRate`], IEEE 802.11-2020 Clauses 15 and 16),
//! OFDM/ERP-OFDM ([`OfdmRate`], Clauses 17 and 18), HT ([`HtRate`], Clause 19), VHT
//! ([`VhtRate`], Clause 21) and HE SU ([`HeRate`], IEEE 802.11ax-2021 Clause 27). The
//! per-PHY files document each TXTIME equation; this file only dispatches and adds the
//! 2.4 GHz signal extension, which applies to every OFDM-based PPDU there (Clause 18 for
//! ERP, 19.4.3 for HT, 27.4.3 for HE) and to none in 5 or 6 GHz.

use core::fmt;

use super::band::{Band, ChannelWidth};
use super::dsss::{DsssDataRate, DsssPreamble, DsssRate};
use super::error::{PhyError, PhyKind};
use super::he::{HeGi, HeRate};
use super::ht::{GuardInterval, HtRate};
use super::ofdm::{OfdmRate, SIGNAL_EXTENSION};
use super::vht::VhtRate;
use crate::time::Duration;

/// A PHY rate: modulation, coding, streams, width and guard interval, as the TXVECTOR
/// would carry them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rate {
    Dsss(DsssRate),
    Ofdm(OfdmRate),
    Ht(HtRate),
    Vht(VhtRate),
    He(HeRate),
}

impl Rate {
    /// A DSSS/HR-DSSS rate; the short preamble is rejected at 1 Mbit/s.
    pub const fn dsss(data_rate: DsssDataRate, preamble: DsssPreamble) -> Result<Rate, PhyError> {
        match DsssRate::new(data_rate, preamble) {
            Ok(r) => Ok(Rate::Dsss(r)),
            Err(e) => Err(e),
        }
    }

    /// An OFDM (5 GHz) or ERP-OFDM (2.4 GHz) rate.
    pub const fn ofdm(rate: OfdmRate) -> Rate {
        Rate::Ofdm(rate)
    }

    /// A legacy rate by its data rate in kbit/s: DSSS/CCK for 1, 2, 5.5 and 11 Mbit/s
    /// (with `preamble`), OFDM for 6 to 54 Mbit/s (`preamble` ignored).
    pub const fn legacy_kbps(kbps: u32, preamble: DsssPreamble) -> Result<Rate, PhyError> {
        if let Ok(r) = OfdmRate::from_kbps(kbps) {
            return Ok(Rate::Ofdm(r));
        }
        match DsssDataRate::from_kbps(kbps) {
            Ok(r) => Rate::dsss(r, preamble),
            Err(e) => Err(e),
        }
    }

    /// An HT rate (MCS 0–31, 20/40 MHz).
    pub const fn ht(mcs: u8, width: ChannelWidth, gi: GuardInterval) -> Result<Rate, PhyError> {
        match HtRate::new(mcs, width, gi) {
            Ok(r) => Ok(Rate::Ht(r)),
            Err(e) => Err(e),
        }
    }

    /// A VHT rate (MCS 0–9, 1–8 streams, excluded combinations rejected).
    pub const fn vht(
        mcs: u8,
        nss: u8,
        width: ChannelWidth,
        gi: GuardInterval,
    ) -> Result<Rate, PhyError> {
        match VhtRate::new(mcs, nss, width, gi) {
            Ok(r) => Ok(Rate::Vht(r)),
            Err(e) => Err(e),
        }
    }

    /// An HE SU rate (MCS 0–11, 1–8 streams) with the default HE-LTF for `gi`
    /// (see [`HeRate::new`]).
    pub const fn he(mcs: u8, nss: u8, width: ChannelWidth, gi: HeGi) -> Result<Rate, PhyError> {
        match HeRate::new(mcs, nss, width, gi) {
            Ok(r) => Ok(Rate::He(r)),
            Err(e) => Err(e),
        }
    }

    /// Which PHY this rate belongs to.
    pub const fn phy_kind(&self) -> PhyKind {
        match self {
            Rate::Dsss(_) => PhyKind::Dsss,
            Rate::Ofdm(_) => PhyKind::Ofdm,
            Rate::Ht(_) => PhyKind::Ht,
            Rate::Vht(_) => PhyKind::Vht,
            Rate::He(_) => PhyKind::He,
        }
    }

    /// Whether PPDUs at this rate can carry an A-MPDU (HT, VHT, HE).
    pub const fn supports_ampdu(&self) -> bool {
        matches!(self, Rate::Ht(_) | Rate::Vht(_) | Rate::He(_))
    }

    /// Number of spatial streams (1 for DSSS and OFDM).
    pub const fn nss(&self) -> u8 {
        match self {
            Rate::Dsss(_) | Rate::Ofdm(_) => 1,
            Rate::Ht(r) => r.nss(),
            Rate::Vht(r) => r.nss(),
            Rate::He(r) => r.nss(),
        }
    }

    /// The PHY data rate in kbit/s, rounded down (72.2 Mbit/s is 72 222).
    pub const fn data_rate_kbps(&self) -> u32 {
        match self {
            Rate::Dsss(r) => r.data_rate_kbps(),
            Rate::Ofdm(r) => r.data_rate_kbps(),
            Rate::Ht(r) => r.data_rate_kbps(),
            Rate::Vht(r) => r.data_rate_kbps(),
            Rate::He(r) => r.data_rate_kbps(),
        }
    }

    /// The data rate in Mbit/s, for display only.
    pub fn data_rate_mbps(&self) -> f64 {
        self.data_rate_kbps() as f64 / 1000.0
    }

    /// N_DBPS, data bits per OFDM symbol over all streams; `None` for DSSS/CCK, which
    /// has no OFDM symbols.
    pub const fn n_dbps(&self) -> Option<u32> {
        match self {
            Rate::Dsss(_) => None,
            Rate::Ofdm(r) => Some(r.n_dbps()),
            Rate::Ht(r) => Some(r.n_dbps()),
            Rate::Vht(r) => Some(r.n_dbps()),
            Rate::He(r) => Some(r.n_dbps()),
        }
    }

    /// The duration of a Data-field OFDM symbol including its GI; `None` for DSSS/CCK.
    pub const fn symbol_duration(&self) -> Option<Duration> {
        match self {
            Rate::Dsss(_) => None,
            Rate::Ofdm(r) => Some(r.symbol_duration()),
            Rate::Ht(r) => Some(r.symbol_duration()),
            Rate::Vht(r) => Some(r.symbol_duration()),
            Rate::He(r) => Some(r.symbol_duration()),
        }
    }

    /// Everything before the Data field (PLCP preamble and header for DSSS).
    pub const fn preamble_duration(&self) -> Duration {
        match self {
            Rate::Dsss(r) => r.preamble_duration(),
            Rate::Ofdm(r) => r.preamble_duration(),
            Rate::Ht(r) => r.preamble_duration(),
            Rate::Vht(r) => r.preamble_duration(),
            Rate::He(r) => r.preamble_duration(),
        }
    }

    /// The signal extension that follows a PPDU at this rate in `band`: 6 µs for
    /// OFDM-based PPDUs in 2.4 GHz, otherwise zero.
    pub const fn signal_extension(&self, band: Band) -> Duration {
        match (self, band) {
            (Rate::Dsss(_), _) | (_, Band::Ghz5 | Band::Ghz6) => Duration::ZERO,
            (_, Band::Ghz2_4) => SIGNAL_EXTENSION,
        }
    }

    /// TXTIME of a PPDU carrying a PSDU of `psdu_bytes` (for VHT and HE: APEP_LENGTH)
    /// in `band`, including the 2.4 GHz signal extension.
    pub const fn ppdu_duration(&self, psdu_bytes: u32, band: Band) -> Duration {
        let ppdu = match self {
            Rate::Dsss(r) => r.ppdu_duration(psdu_bytes),
            Rate::Ofdm(r) => r.ppdu_duration(psdu_bytes),
            Rate::Ht(r) => r.ppdu_duration(psdu_bytes),
            Rate::Vht(r) => r.ppdu_duration(psdu_bytes),
            Rate::He(r) => r.ppdu_duration(psdu_bytes),
        };
        Duration::from_nanos(ppdu.as_nanos() + self.signal_extension(band).as_nanos())
    }
}

impl From<DsssRate> for Rate {
    fn from(r: DsssRate) -> Rate {
        Rate::Dsss(r)
    }
}

impl From<OfdmRate> for Rate {
    fn from(r: OfdmRate) -> Rate {
        Rate::Ofdm(r)
    }
}

impl From<HtRate> for Rate {
    fn from(r: HtRate) -> Rate {
        Rate::Ht(r)
    }
}

impl From<VhtRate> for Rate {
    fn from(r: VhtRate) -> Rate {
        Rate::Vht(r)
    }
}

impl From<HeRate> for Rate {
    fn from(r: HeRate) -> Rate {
        Rate::He(r)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rate::Dsss(r) => fmt::Display::fmt(r, f),
            Rate::Ofdm(r) => fmt::Display::fmt(r, f),
            Rate::Ht(r) => fmt::Display::fmt(r, f),
            Rate::Vht(r) => fmt::Display::fmt(r, f),
            Rate::He(r) => fmt::Display::fmt(r, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn legacy_rates_by_kbps() {
        assert_eq!(
            Rate::legacy_kbps(54_000, DsssPreamble::Long),
            Ok(Rate::Ofdm(OfdmRate::Mbps54))
        );
        assert_eq!(
            Rate::legacy_kbps(1_000, DsssPreamble::Short),
            Err(PhyError::ShortPreambleAt1Mbps)
        );
        assert_eq!(
            Rate::legacy_kbps(22_000, DsssPreamble::Long),
            Err(PhyError::UnknownLegacyRate { kbps: 22_000 })
        );
        let cck = Rate::legacy_kbps(11_000, DsssPreamble::Short).unwrap();
        assert_eq!(cck.phy_kind(), PhyKind::Dsss);
        assert_eq!(cck.n_dbps(), None);
        assert_eq!(cck.symbol_duration(), None);
    }

    #[test]
    fn signal_extension_only_for_ofdm_in_2_4_ghz() {
        let erp = Rate::ofdm(OfdmRate::Mbps54);
        // ERP-OFDM: 244 µs (see ofdm.rs) + 6 µs signal extension.
        assert_eq!(
            erp.ppdu_duration(1500, Band::Ghz2_4),
            Duration::from_micros(250)
        );
        assert_eq!(
            erp.ppdu_duration(1500, Band::Ghz5),
            Duration::from_micros(244)
        );
        let ht = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        assert_eq!(
            ht.ppdu_duration(1500, Band::Ghz2_4),
            Duration::from_micros(230)
        );
        let cck = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(
            cck.ppdu_duration(1500, Band::Ghz2_4),
            Duration::from_micros(12_192)
        );
    }

    #[test]
    fn dispatch_reaches_every_phy() {
        let he = Rate::he(11, 1, ChannelWidth::Mhz80, HeGi::Gi0_8).unwrap();
        assert_eq!(he.n_dbps(), Some(8166));
        assert_eq!(he.symbol_duration(), Some(Duration::from_nanos(13_600)));
        assert!((he.data_rate_mbps() - 600.441).abs() < 1e-9);
        assert!(he.supports_ampdu());
        assert!(!Rate::ofdm(OfdmRate::Mbps6).supports_ampdu());
        let vht = Rate::vht(9, 2, ChannelWidth::Mhz160, GuardInterval::Short).unwrap();
        assert_eq!(vht.nss(), 2);
        assert_eq!(vht.data_rate_kbps(), 1_733_333);
        assert_eq!(
            Rate::vht(9, 1, ChannelWidth::Mhz20, GuardInterval::Long),
            Err(PhyError::VhtMcsExcluded {
                mcs: 9,
                nss: 1,
                width: ChannelWidth::Mhz20
            })
        );
    }

    #[test]
    fn display_names_the_rate() {
        let ht = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Short).unwrap();
        assert_eq!(ht.to_string(), "HT MCS 7 20 MHz SGI");
        assert_eq!(Rate::ofdm(OfdmRate::Mbps24).to_string(), "OFDM 24 Mbit/s");
        let he = Rate::he(5, 2, ChannelWidth::Mhz40, HeGi::Gi3_2).unwrap();
        assert_eq!(he.to_string(), "HE MCS 5 NSS 2 40 MHz GI 3.2 us 4x HE-LTF");
    }
}
