//! Why a PHY rate description or an aggregate was rejected: [`PhyError`].
//!
//! Every constructor in [`crate::phy`] validates its input against the IEEE 802.11-2020
//! rate tables (and IEEE 802.11ax-2021 for HE) and returns one of these instead of
//! panicking, naming the PHY and the value that is out of bounds.

use core::fmt;

use super::band::ChannelWidth;
use super::he::{HeGi, HeLtf};

/// The PHY family a rate belongs to, for error messages and [`crate::phy::Rate::phy_kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhyKind {
    /// DSSS (Clause 15) and HR/DSSS with CCK (Clause 16).
    Dsss,
    /// OFDM (Clause 17), also ERP-OFDM in 2.4 GHz (Clause 18).
    Ofdm,
    /// HT (Clause 19).
    Ht,
    /// VHT (Clause 21).
    Vht,
    /// HE (IEEE 802.11ax-2021 Clause 27).
    He,
}

impl fmt::Display for PhyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PhyKind::Dsss => "DSSS/CCK",
            PhyKind::Ofdm => "OFDM",
            PhyKind::Ht => "HT",
            PhyKind::Vht => "VHT",
            PhyKind::He => "HE",
        })
    }
}

/// What is wrong with a requested rate or aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhyError {
    /// No DSSS/CCK or OFDM PHY defines this data rate.
    UnknownLegacyRate { kbps: u32 },
    /// The short PLCP preamble is defined for 2, 5.5 and 11 Mbit/s only
    /// (IEEE 802.11-2020 16.2.2.3: the short PPDU's header is sent at 2 Mbit/s).
    ShortPreambleAt1Mbps,
    /// The MCS index is above the highest one the PHY defines (for HT: 0–31; MCS 32 and
    /// the unequal-modulation MCSs 33–76 are not modelled).
    McsOutOfRange { phy: PhyKind, mcs: u8, max: u8 },
    /// The number of spatial streams is zero or above what the PHY defines.
    SpatialStreamsOutOfRange { phy: PhyKind, nss: u8, max: u8 },
    /// The PHY has no PPDU format of this width (HT is 20/40 MHz only).
    ChannelWidthNotSupported { phy: PhyKind, width: ChannelWidth },
    /// A channel width in MHz that is not 20, 40, 80 or 160.
    UnknownChannelWidth { mhz: u16 },
    /// A VHT MCS/NSS/width combination the standard excludes (IEEE 802.11-2020 21.5).
    VhtMcsExcluded {
        mcs: u8,
        nss: u8,
        width: ChannelWidth,
    },
    /// An HE-LTF size and guard interval that an HE SU PPDU may not combine
    /// (IEEE 802.11ax-2021 Clause 27 allows 1x+0.8, 2x+0.8, 2x+1.6, 4x+0.8 and 4x+3.2 µs).
    HeLtfGiNotAllowed { ltf: HeLtf, gi: HeGi },
    /// A-MPDUs exist only in HT, VHT and HE PPDUs (IEEE 802.11-2020 9.7).
    AggregationNotSupported { phy: PhyKind },
    /// An A-MPDU needs at least one MPDU.
    EmptyAmpdu,
}

/// Checks an MCS index and a number of spatial streams (at least 1) against a PHY's
/// maxima, as the VHT and HE constructors need.
pub(super) const fn check_mcs_nss(
    phy: PhyKind,
    mcs: u8,
    max_mcs: u8,
    nss: u8,
    max_nss: u8,
) -> Result<(), PhyError> {
    if mcs > max_mcs {
        return Err(PhyError::McsOutOfRange {
            phy,
            mcs,
            max: max_mcs,
        });
    }
    if nss == 0 || nss > max_nss {
        return Err(PhyError::SpatialStreamsOutOfRange {
            phy,
            nss,
            max: max_nss,
        });
    }
    Ok(())
}

impl fmt::Display for PhyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PhyError::UnknownLegacyRate { kbps } => write!(
                f,
                "no DSSS/CCK or OFDM rate of {kbps} kbit/s (DSSS/CCK: 1000, 2000, 5500, \
                 11000; OFDM: 6000, 9000, 12000, 18000, 24000, 36000, 48000, 54000)"
            ),
            PhyError::ShortPreambleAt1Mbps => {
                f.write_str("the short DSSS preamble is not defined at 1 Mbit/s")
            }
            PhyError::McsOutOfRange { phy, mcs, max } => {
                write!(f, "{phy} MCS {mcs} is out of range (0..={max})")
            }
            PhyError::SpatialStreamsOutOfRange { phy, nss, max } => {
                write!(
                    f,
                    "{phy} with {nss} spatial streams is out of range (1..={max})"
                )
            }
            PhyError::ChannelWidthNotSupported { phy, width } => {
                write!(f, "{phy} has no {width} PPDU format")
            }
            PhyError::UnknownChannelWidth { mhz } => write!(
                f,
                "channel width of {mhz} MHz is not one of 20, 40, 80, 160 MHz"
            ),
            PhyError::VhtMcsExcluded { mcs, nss, width } => write!(
                f,
                "VHT MCS {mcs} with {nss} spatial streams at {width} is excluded by the \
                 standard (IEEE 802.11-2020 21.5)"
            ),
            PhyError::HeLtfGiNotAllowed { ltf, gi } => write!(
                f,
                "an HE SU PPDU cannot combine {ltf} HE-LTF with a {gi} guard interval"
            ),
            PhyError::AggregationNotSupported { phy } => {
                write!(f, "{phy} PPDUs cannot carry an A-MPDU")
            }
            PhyError::EmptyAmpdu => f.write_str("an A-MPDU needs at least one MPDU"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_name_the_phy_and_the_value() {
        let e = PhyError::McsOutOfRange {
            phy: PhyKind::Ht,
            mcs: 32,
            max: 31,
        };
        assert_eq!(e.to_string(), "HT MCS 32 is out of range (0..=31)");
        let e = PhyError::VhtMcsExcluded {
            mcs: 9,
            nss: 1,
            width: ChannelWidth::Mhz20,
        };
        assert!(e
            .to_string()
            .starts_with("VHT MCS 9 with 1 spatial streams at 20 MHz"));
        let e = PhyError::HeLtfGiNotAllowed {
            ltf: HeLtf::X1,
            gi: HeGi::Gi3_2,
        };
        assert_eq!(
            e.to_string(),
            "an HE SU PPDU cannot combine 1x HE-LTF with a 3.2 us guard interval"
        );
    }
}
