//! OFDM rates (IEEE 802.11-2020 Clause 17, 20 MHz channel spacing) and their PPDU
//! duration; the same rates are ERP-OFDM in 2.4 GHz (Clause 18).
//!
//! TXTIME (17.4.3; Equation (17-29) in the 2016 numbering):
//!
//! TXTIME = T_PREAMBLE + T_SIGNAL + T_SYM · N_SYM, N_SYM = ⌈(16 + 8 · LENGTH + 6) / N_DBPS⌉
//!
//! with T_PREAMBLE = 16 µs (L-STF + L-LTF), T_SIGNAL = 4 µs and T_SYM = 4 µs (the
//! timing-related parameters, Table 17-5 in 2016), and N_DBPS from the
//! modulation-dependent parameters (Table 17-4 in 2016). An ERP-OFDM PPDU in 2.4 GHz is
//! followed by a 6 µs signal extension (aSignalExtension, Clause 18) during which nothing
//! is sent, so that the receiver's decoder finishes within the 10 µs SIFS of 2.4 GHz.
//! [`crate::phy::Rate::ppdu_duration`] adds it when the band is
//! [`crate::phy::Band::Ghz2_4`]; [`SIGNAL_EXTENSION`] is the constant. 5 and 10 MHz
//! channel spacing is not modelled.

use core::fmt;

use super::error::PhyError;
use super::ofdm_symbols::{n_sym, SYMBOL_LONG_GI_NS, TAIL_BITS_PER_ENCODER};
use crate::time::Duration;

/// T_PREAMBLE: L-STF + L-LTF.
pub const T_PREAMBLE: Duration = Duration::from_micros(16);
/// T_SIGNAL: the SIGNAL (L-SIG) symbol.
pub const T_SIGNAL: Duration = Duration::from_micros(4);
/// The signal extension after an OFDM-based PPDU in 2.4 GHz (ERP, HT, HE).
pub const SIGNAL_EXTENSION: Duration = Duration::from_micros(6);

/// A Clause 17 OFDM data rate at 20 MHz channel spacing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OfdmRate {
    Mbps6,
    Mbps9,
    Mbps12,
    Mbps18,
    Mbps24,
    Mbps36,
    Mbps48,
    Mbps54,
}

impl OfdmRate {
    /// All rates, slowest first.
    pub const ALL: [OfdmRate; 8] = [
        OfdmRate::Mbps6,
        OfdmRate::Mbps9,
        OfdmRate::Mbps12,
        OfdmRate::Mbps18,
        OfdmRate::Mbps24,
        OfdmRate::Mbps36,
        OfdmRate::Mbps48,
        OfdmRate::Mbps54,
    ];

    /// N_DBPS, data bits per OFDM symbol (modulation-dependent parameters, 17.3.2).
    pub const fn n_dbps(self) -> u32 {
        match self {
            OfdmRate::Mbps6 => 24,
            OfdmRate::Mbps9 => 36,
            OfdmRate::Mbps12 => 48,
            OfdmRate::Mbps18 => 72,
            OfdmRate::Mbps24 => 96,
            OfdmRate::Mbps36 => 144,
            OfdmRate::Mbps48 => 192,
            OfdmRate::Mbps54 => 216,
        }
    }

    /// The data rate in kbit/s: N_DBPS per 4 µs symbol.
    pub const fn data_rate_kbps(self) -> u32 {
        self.n_dbps() * 250
    }

    /// The rate of `kbps` kbit/s, or [`PhyError::UnknownLegacyRate`].
    pub const fn from_kbps(kbps: u32) -> Result<OfdmRate, PhyError> {
        match kbps {
            6_000 => Ok(OfdmRate::Mbps6),
            9_000 => Ok(OfdmRate::Mbps9),
            12_000 => Ok(OfdmRate::Mbps12),
            18_000 => Ok(OfdmRate::Mbps18),
            24_000 => Ok(OfdmRate::Mbps24),
            36_000 => Ok(OfdmRate::Mbps36),
            48_000 => Ok(OfdmRate::Mbps48),
            54_000 => Ok(OfdmRate::Mbps54),
            _ => Err(PhyError::UnknownLegacyRate { kbps }),
        }
    }

    /// T_SYM, 4 µs.
    pub const fn symbol_duration(self) -> Duration {
        Duration::from_nanos(SYMBOL_LONG_GI_NS)
    }

    /// T_PREAMBLE + T_SIGNAL, 20 µs.
    pub const fn preamble_duration(self) -> Duration {
        Duration::from_nanos(T_PREAMBLE.as_nanos() + T_SIGNAL.as_nanos())
    }

    /// TXTIME of a PSDU of `psdu_bytes` (17.4.3), without the 2.4 GHz signal
    /// extension.
    pub const fn ppdu_duration(self, psdu_bytes: u32) -> Duration {
        let n_sym = n_sym(psdu_bytes, self.n_dbps(), TAIL_BITS_PER_ENCODER);
        Duration::from_nanos(self.preamble_duration().as_nanos() + n_sym * SYMBOL_LONG_GI_NS)
    }
}

impl fmt::Display for OfdmRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OFDM {} Mbit/s", self.data_rate_kbps() / 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_dbps_gives_the_nominal_rate() {
        let mbps = [6, 9, 12, 18, 24, 36, 48, 54];
        for (rate, mbps) in OfdmRate::ALL.into_iter().zip(mbps) {
            assert_eq!(rate.data_rate_kbps(), mbps * 1000);
            assert_eq!(OfdmRate::from_kbps(mbps * 1000), Ok(rate));
        }
        assert_eq!(
            OfdmRate::from_kbps(11_000),
            Err(PhyError::UnknownLegacyRate { kbps: 11_000 })
        );
    }

    #[test]
    fn frame_of_1500_bytes_at_54_mbps() {
        // 20 + 4 · ⌈(16 + 12000 + 6) / 216⌉ = 20 + 4 · ⌈55.66⌉ = 20 + 4 · 56 = 244 µs.
        let d = OfdmRate::Mbps54.ppdu_duration(1500);
        assert_eq!(d, Duration::from_micros(244));
    }

    #[test]
    fn ack_at_24_mbps_is_28_us() {
        // 14-byte ACK: ⌈(16 + 112 + 6) / 96⌉ = ⌈1.40⌉ = 2 symbols; 20 + 8 = 28 µs.
        assert_eq!(
            OfdmRate::Mbps24.ppdu_duration(14),
            Duration::from_micros(28)
        );
        // And at 6 Mbit/s: ⌈134 / 24⌉ = 6 symbols; 20 + 24 = 44 µs.
        assert_eq!(OfdmRate::Mbps6.ppdu_duration(14), Duration::from_micros(44));
    }
}
