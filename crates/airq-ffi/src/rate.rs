//! `airq_rate`: a PHY rate as a driver knows it from its rate control (the TXVECTOR's
//! PHY, MCS, streams, width and guard interval), checked into airq's [`Rate`] (IEEE
//! 802.11-2020 Clauses 15-21, 802.11ax-2021 Clause 27), for AQL's airtime estimate.

use crate::status::{Error, Result};
use airq::phy::{ChannelWidth, DsssPreamble, GuardInterval, HeGi, Rate};

/// PHY: DSSS/CCK or OFDM, by `legacy_kbps`.
pub const AIRQ_PHY_LEGACY: u8 = 0;
/// PHY: HT (802.11n), MCS 0-31.
pub const AIRQ_PHY_HT: u8 = 1;
/// PHY: VHT (802.11ac), MCS 0-9 with 1-8 streams.
pub const AIRQ_PHY_VHT: u8 = 2;
/// PHY: HE SU (802.11ax), MCS 0-11 with 1-8 streams.
pub const AIRQ_PHY_HE: u8 = 3;

/// A PHY rate. Fields a PHY does not use are ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqRate {
    /// `AIRQ_PHY_*`.
    pub phy: u8,
    /// HT: 0-31 (streams implied); VHT: 0-9; HE: 0-11.
    pub mcs: u8,
    /// Spatial streams, VHT and HE: 1-8.
    pub nss: u8,
    /// HT and VHT: the 0.4 µs short guard interval.
    pub short_gi: bool,
    /// HT, VHT, HE: 20, 40, 80 or 160 MHz.
    pub width_mhz: u16,
    /// HE guard interval, ns: 800, 1600 or 3200.
    pub he_gi_ns: u16,
    /// Legacy: 1000, 2000, 5500, 11000 (DSSS/CCK) or 6000-54000 (OFDM) kbit/s.
    pub legacy_kbps: u32,
    /// Legacy DSSS/CCK: the short preamble (not at 1 Mbit/s).
    pub short_preamble: bool,
}

impl AirqRate {
    /// The rate this describes, or the reason it is none.
    pub(crate) fn to_rate(self) -> Result<Rate> {
        let invalid = |e| Error::invalid(format_args!("rate: {e}"));
        let width = || ChannelWidth::from_mhz(self.width_mhz).map_err(invalid);
        let gi = if self.short_gi {
            GuardInterval::Short
        } else {
            GuardInterval::Long
        };
        match self.phy {
            AIRQ_PHY_LEGACY => {
                let preamble = if self.short_preamble {
                    DsssPreamble::Short
                } else {
                    DsssPreamble::Long
                };
                Rate::legacy_kbps(self.legacy_kbps, preamble).map_err(invalid)
            }
            AIRQ_PHY_HT => Rate::ht(self.mcs, width()?, gi).map_err(invalid),
            AIRQ_PHY_VHT => Rate::vht(self.mcs, self.nss, width()?, gi).map_err(invalid),
            AIRQ_PHY_HE => {
                let gi = match self.he_gi_ns {
                    800 => HeGi::Gi0_8,
                    1600 => HeGi::Gi1_6,
                    3200 => HeGi::Gi3_2,
                    ns => {
                        return Err(Error::invalid(format_args!(
                            "rate: HE guard interval must be 800, 1600 or 3200 ns, got {ns}"
                        )))
                    }
                };
                Rate::he(self.mcs, self.nss, width()?, gi).map_err(invalid)
            }
            phy => Err(Error::invalid(format_args!(
                "rate: phy must be 0-3 (AIRQ_PHY_*), got {phy}"
            ))),
        }
    }
}
