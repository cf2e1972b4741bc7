//! DSSS (IEEE 802.11-2020 Clause 15: 1 and 2 Mbit/s) and HR/DSSS with CCK (Clause 16:
//! 5.5 and 11 Mbit/s) rates and their PPDU duration.
//!
//! TXTIME follows the HR/DSSS TXTIME calculation (16.3.4, which also covers the 1 and
//! 2 Mbit/s rates an HR/DSSS PHY sends):
//!
//! TXTIME = PreambleLength + PLCPHeaderTime + ⌈8 · LENGTH / DATARATE⌉ µs
//!
//! with the long PPDU format's 144 µs preamble and 48 µs header (192 µs, 16.2.2.2) or the
//! short format's 72 µs and 24 µs (96 µs, 16.2.2.3). The short format sends its header at
//! 2 Mbit/s and is not defined for a 1 Mbit/s PSDU. PBCC (an obsolete option) is not
//! modelled.

use core::fmt;

use super::error::PhyError;
use crate::time::Duration;

/// A DSSS or HR/DSSS data rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DsssDataRate {
    /// 1 Mbit/s, DBPSK (Clause 15).
    Mbps1,
    /// 2 Mbit/s, DQPSK (Clause 15).
    Mbps2,
    /// 5.5 Mbit/s, CCK (Clause 16).
    Mbps5_5,
    /// 11 Mbit/s, CCK (Clause 16).
    Mbps11,
}

impl DsssDataRate {
    /// All rates, slowest first.
    pub const ALL: [DsssDataRate; 4] = [
        DsssDataRate::Mbps1,
        DsssDataRate::Mbps2,
        DsssDataRate::Mbps5_5,
        DsssDataRate::Mbps11,
    ];

    /// The data rate in kbit/s.
    pub const fn kbps(self) -> u32 {
        match self {
            DsssDataRate::Mbps1 => 1_000,
            DsssDataRate::Mbps2 => 2_000,
            DsssDataRate::Mbps5_5 => 5_500,
            DsssDataRate::Mbps11 => 11_000,
        }
    }

    /// The rate of `kbps` kbit/s, or [`PhyError::UnknownLegacyRate`].
    pub const fn from_kbps(kbps: u32) -> Result<DsssDataRate, PhyError> {
        match kbps {
            1_000 => Ok(DsssDataRate::Mbps1),
            2_000 => Ok(DsssDataRate::Mbps2),
            5_500 => Ok(DsssDataRate::Mbps5_5),
            11_000 => Ok(DsssDataRate::Mbps11),
            _ => Err(PhyError::UnknownLegacyRate { kbps }),
        }
    }
}

/// The PLCP preamble and header format of a DSSS/HR-DSSS PPDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DsssPreamble {
    /// Long PPDU format: 144 µs SYNC+SFD, 48 µs header at 1 Mbit/s (16.2.2.2).
    Long,
    /// Short PPDU format: 72 µs SYNC+SFD, 24 µs header at 2 Mbit/s (16.2.2.3).
    Short,
}

/// A validated DSSS/HR-DSSS rate: a data rate and a preamble format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DsssRate {
    data_rate: DsssDataRate,
    preamble: DsssPreamble,
}

impl DsssRate {
    /// Long PLCP preamble (SYNC + SFD), µs.
    pub const LONG_PREAMBLE_US: u64 = 144;
    /// Long PLCP header, µs.
    pub const LONG_HEADER_US: u64 = 48;
    /// Short PLCP preamble, µs.
    pub const SHORT_PREAMBLE_US: u64 = 72;
    /// Short PLCP header, µs.
    pub const SHORT_HEADER_US: u64 = 24;

    /// A rate, or [`PhyError::ShortPreambleAt1Mbps`] for the one undefined combination.
    pub const fn new(data_rate: DsssDataRate, preamble: DsssPreamble) -> Result<Self, PhyError> {
        if matches!(
            (data_rate, preamble),
            (DsssDataRate::Mbps1, DsssPreamble::Short)
        ) {
            return Err(PhyError::ShortPreambleAt1Mbps);
        }
        Ok(DsssRate {
            data_rate,
            preamble,
        })
    }

    pub const fn data_rate(self) -> DsssDataRate {
        self.data_rate
    }

    pub const fn preamble(self) -> DsssPreamble {
        self.preamble
    }

    /// The data rate in kbit/s.
    pub const fn data_rate_kbps(self) -> u32 {
        self.data_rate.kbps()
    }

    /// PLCP preamble plus header: 192 µs long, 96 µs short.
    pub const fn preamble_duration(self) -> Duration {
        Duration::from_micros(match self.preamble {
            DsssPreamble::Long => Self::LONG_PREAMBLE_US + Self::LONG_HEADER_US,
            DsssPreamble::Short => Self::SHORT_PREAMBLE_US + Self::SHORT_HEADER_US,
        })
    }

    /// TXTIME of a PSDU of `psdu_bytes` (16.3.4): preamble + header + ⌈8 · LENGTH / rate⌉
    /// whole microseconds.
    pub const fn ppdu_duration(self, psdu_bytes: u32) -> Duration {
        let payload_us = (8_000 * psdu_bytes as u64).div_ceil(self.data_rate.kbps() as u64);
        Duration::from_nanos(self.preamble_duration().as_nanos() + payload_us * 1_000)
    }
}

impl fmt::Display for DsssRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.data_rate {
            DsssDataRate::Mbps1 => "DSSS 1 Mbit/s",
            DsssDataRate::Mbps2 => "DSSS 2 Mbit/s",
            DsssDataRate::Mbps5_5 => "CCK 5.5 Mbit/s",
            DsssDataRate::Mbps11 => "CCK 11 Mbit/s",
        };
        let preamble = match self.preamble {
            DsssPreamble::Long => "long",
            DsssPreamble::Short => "short",
        };
        write!(f, "{name} {preamble} preamble")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(data_rate: DsssDataRate, preamble: DsssPreamble) -> DsssRate {
        DsssRate::new(data_rate, preamble).unwrap()
    }

    #[test]
    fn long_preamble_1500_bytes_at_1_mbps() {
        // 192 µs preamble + header, then 12000 bits at 1 bit/µs: 12192 µs.
        let d = rate(DsssDataRate::Mbps1, DsssPreamble::Long).ppdu_duration(1500);
        assert_eq!(d, Duration::from_micros(12_192));
    }

    #[test]
    fn short_preamble_halves_the_overhead() {
        // 96 µs + 12000 bits / 11 bit/µs = 1090.9 → 1091 µs: 1187 µs.
        let d = rate(DsssDataRate::Mbps11, DsssPreamble::Short).ppdu_duration(1500);
        assert_eq!(d, Duration::from_micros(1_187));
        // 14-byte ACK at 2 Mbit/s, short: 96 + 56 = 152 µs.
        let d = rate(DsssDataRate::Mbps2, DsssPreamble::Short).ppdu_duration(14);
        assert_eq!(d, Duration::from_micros(152));
        // 14-byte ACK at 5.5 Mbit/s, long: 192 + ⌈112 / 5.5⌉ = 192 + 21 = 213 µs.
        let d = rate(DsssDataRate::Mbps5_5, DsssPreamble::Long).ppdu_duration(14);
        assert_eq!(d, Duration::from_micros(213));
    }

    #[test]
    fn short_preamble_at_1_mbps_is_rejected() {
        assert_eq!(
            DsssRate::new(DsssDataRate::Mbps1, DsssPreamble::Short),
            Err(PhyError::ShortPreambleAt1Mbps)
        );
        assert_eq!(
            DsssDataRate::from_kbps(5_000),
            Err(PhyError::UnknownLegacyRate { kbps: 5_000 })
        );
        for r in DsssDataRate::ALL {
            assert_eq!(DsssDataRate::from_kbps(r.kbps()), Ok(r));
        }
    }
}
