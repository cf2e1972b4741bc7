//! Where a PHY operates: the frequency [`Band`] and the [`ChannelWidth`] of a PPDU.
//!
//! The band matters for timing in two places: OFDM-based PPDUs in 2.4 GHz end with a 6 µs
//! signal extension (IEEE 802.11-2020 Clause 18 ERP, 19.4.3 HT; IEEE 802.11ax-2021
//! 27.4.3 HE), and the MAC's slot time and SIFS differ per band (airq-sim's
//! `mac::timing`). The width sets the number of data subcarriers N_SD. An
//! 80+80 MHz PPDU has the same N_SD as a 160 MHz one, so [`ChannelWidth::Mhz160`] stands
//! for both.

use core::fmt;

use super::error::PhyError;

/// The frequency band a PPDU is sent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Band {
    /// 2.4 GHz: DSSS/CCK, ERP-OFDM, HT, HE.
    Ghz2_4,
    /// 5 GHz: OFDM, HT, VHT, HE.
    Ghz5,
    /// 6 GHz: HE only (IEEE 802.11ax-2021).
    Ghz6,
}

/// The bandwidth of a PPDU (CH_BANDWIDTH in the TXVECTOR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChannelWidth {
    Mhz20,
    Mhz40,
    Mhz80,
    /// 160 MHz, and 80+80 MHz, which has the same number of data subcarriers.
    Mhz160,
}

impl ChannelWidth {
    /// All widths, narrowest first.
    pub const ALL: [ChannelWidth; 4] = [
        ChannelWidth::Mhz20,
        ChannelWidth::Mhz40,
        ChannelWidth::Mhz80,
        ChannelWidth::Mhz160,
    ];

    /// The width in MHz.
    pub const fn mhz(self) -> u16 {
        match self {
            ChannelWidth::Mhz20 => 20,
            ChannelWidth::Mhz40 => 40,
            ChannelWidth::Mhz80 => 80,
            ChannelWidth::Mhz160 => 160,
        }
    }

    /// The width of `mhz` MHz, or [`PhyError::UnknownChannelWidth`].
    pub const fn from_mhz(mhz: u16) -> Result<ChannelWidth, PhyError> {
        match mhz {
            20 => Ok(ChannelWidth::Mhz20),
            40 => Ok(ChannelWidth::Mhz40),
            80 => Ok(ChannelWidth::Mhz80),
            160 => Ok(ChannelWidth::Mhz160),
            _ => Err(PhyError::UnknownChannelWidth { mhz }),
        }
    }
}

impl fmt::Display for ChannelWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} MHz", self.mhz())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_round_trips_through_mhz() {
        for width in ChannelWidth::ALL {
            assert_eq!(ChannelWidth::from_mhz(width.mhz()), Ok(width));
        }
        assert_eq!(
            ChannelWidth::from_mhz(60),
            Err(PhyError::UnknownChannelWidth { mhz: 60 })
        );
    }
}
