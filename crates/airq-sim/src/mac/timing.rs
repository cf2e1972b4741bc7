//! Basic MAC timing a simulator of channel access needs: slot time, SIFS, the DIFS, PIFS,
//! AIFS and EIFS derived from them, and the duration of the Ack and BlockAck responses.
//!
//! aSlotTime and aSIFSTime come from the PHY characteristics tables of IEEE 802.11-2020:
//! Table 16-4 (HR/DSSS: 20 µs, 10 µs; DSSS is the same), Table 17-21 (OFDM at 20 MHz
//! channel spacing: 9 µs, 16 µs), the ERP characteristics of Clause 18 (10 µs SIFS; 20 µs
//! slot, or 9 µs when every station in the BSS can use the short slot), and the HT, VHT
//! and HE (IEEE 802.11ax-2021) PHY characteristics, which keep the band's values: 10 µs
//! SIFS in 2.4 GHz, 16 µs in 5 and 6 GHz, 9 µs slot. The derived spaces are those of
//! 10.3.2.3 (IFS):
//!
//! - PIFS = aSIFSTime + aSlotTime
//! - DIFS = aSIFSTime + 2 · aSlotTime
//! - AIFS\[AC\] = AIFSN\[AC\] · aSlotTime + aSIFSTime
//! - EIFS = aSIFSTime + DIFS + AckTxTime (the Ack at the lowest mandatory rate)
//!
//! An Ack (14 bytes) or compressed BlockAck (32 bytes) is sent at a basic rate chosen by
//! the rules of 10.6.6.5; the caller passes that rate. Its TXTIME includes the 2.4 GHz
//! signal extension for OFDM-based rates.

use airq::phy::mac_frame::{ACK_BYTES, BLOCK_ACK_COMPRESSED_BYTES};
use airq::phy::{Band, Rate};
use airq::Duration;

/// aSlotTime and aSIFSTime of a BSS's PHY and band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MacTiming {
    /// aSlotTime.
    pub slot_time: Duration,
    /// aSIFSTime.
    pub sifs_time: Duration,
}

impl MacTiming {
    /// DSSS/HR-DSSS (Table 16-4): 20 µs slot, 10 µs SIFS.
    pub const DSSS: MacTiming = MacTiming::from_micros(20, 10);
    /// 2.4 GHz ERP, HT or HE with the long slot (a BSS with non-ERP stations).
    pub const GHZ2_4_LONG_SLOT: MacTiming = MacTiming::from_micros(20, 10);
    /// 2.4 GHz ERP, HT or HE with the short slot.
    pub const GHZ2_4_SHORT_SLOT: MacTiming = MacTiming::from_micros(9, 10);
    /// OFDM at 20 MHz channel spacing (Table 17-21), and HT, VHT, HE in 5 and 6 GHz:
    /// 9 µs slot, 16 µs SIFS.
    pub const OFDM: MacTiming = MacTiming::from_micros(9, 16);

    const fn from_micros(slot_us: u64, sifs_us: u64) -> MacTiming {
        MacTiming {
            slot_time: Duration::from_micros(slot_us),
            sifs_time: Duration::from_micros(sifs_us),
        }
    }

    /// The timing of an OFDM-based BSS in `band`; `short_slot` matters in 2.4 GHz only.
    pub const fn for_band(band: Band, short_slot: bool) -> MacTiming {
        match band {
            Band::Ghz2_4 if short_slot => Self::GHZ2_4_SHORT_SLOT,
            Band::Ghz2_4 => Self::GHZ2_4_LONG_SLOT,
            Band::Ghz5 | Band::Ghz6 => Self::OFDM,
        }
    }

    /// PIFS = aSIFSTime + aSlotTime.
    pub fn pifs(&self) -> Duration {
        self.sifs_time + self.slot_time
    }

    /// DIFS = aSIFSTime + 2 · aSlotTime.
    pub fn difs(&self) -> Duration {
        self.sifs_time + self.slot_time * 2
    }

    /// AIFS\[AC\] = AIFSN\[AC\] · aSlotTime + aSIFSTime. With AIFSN 2 this is the DIFS.
    pub fn aifs(&self, aifsn: u8) -> Duration {
        self.slot_time * aifsn as u64 + self.sifs_time
    }

    /// EIFS = aSIFSTime + DIFS + AckTxTime, given the Ack's duration at the lowest
    /// mandatory rate of the PHY (see [`ack_duration`]).
    pub fn eifs(&self, ack_at_lowest_rate: Duration) -> Duration {
        self.sifs_time + self.difs() + ack_at_lowest_rate
    }
}

/// TXTIME of a control frame of `frame_bytes` (FCS included) at `rate` in `band`.
pub const fn control_frame_duration(rate: &Rate, frame_bytes: u32, band: Band) -> Duration {
    rate.ppdu_duration(frame_bytes, band)
}

/// TXTIME of an Ack (14 bytes) at `rate` in `band`.
pub const fn ack_duration(rate: &Rate, band: Band) -> Duration {
    control_frame_duration(rate, ACK_BYTES, band)
}

/// TXTIME of a compressed BlockAck (32 bytes) at `rate` in `band`.
pub const fn block_ack_duration(rate: &Rate, band: Band) -> Duration {
    control_frame_duration(rate, BLOCK_ACK_COMPRESSED_BYTES, band)
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{DsssDataRate, DsssPreamble, OfdmRate};

    #[test]
    fn interframe_spaces() {
        let t = MacTiming::OFDM;
        assert_eq!(t.pifs(), Duration::from_micros(25));
        assert_eq!(t.difs(), Duration::from_micros(34));
        assert_eq!(t.aifs(2), t.difs());
        // AC_BE (AIFSN 3): 3 · 9 + 16 = 43 µs; AC_BK (AIFSN 7): 79 µs.
        assert_eq!(t.aifs(3), Duration::from_micros(43));
        assert_eq!(t.aifs(7), Duration::from_micros(79));
        assert_eq!(MacTiming::DSSS.difs(), Duration::from_micros(50));
        assert_eq!(
            MacTiming::for_band(Band::Ghz2_4, true).difs(),
            Duration::from_micros(28)
        );
        assert_eq!(MacTiming::for_band(Band::Ghz6, false), MacTiming::OFDM);
    }

    #[test]
    fn ack_and_block_ack_durations() {
        let ofdm24 = Rate::ofdm(OfdmRate::Mbps24);
        // Ack at 24 Mbit/s: 20 + 4 · ⌈(16 + 112 + 6) / 96⌉ = 20 + 8 = 28 µs.
        assert_eq!(ack_duration(&ofdm24, Band::Ghz5), Duration::from_micros(28));
        // In 2.4 GHz (ERP-OFDM) add the 6 µs signal extension.
        assert_eq!(
            ack_duration(&ofdm24, Band::Ghz2_4),
            Duration::from_micros(34)
        );
        // BlockAck at 24 Mbit/s: ⌈(16 + 256 + 6) / 96⌉ = ⌈2.9⌉ = 3 symbols: 32 µs.
        assert_eq!(
            block_ack_duration(&ofdm24, Band::Ghz5),
            Duration::from_micros(32)
        );
        // Ack at 1 Mbit/s long preamble: 192 + 112 = 304 µs.
        let dsss1 = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(
            ack_duration(&dsss1, Band::Ghz2_4),
            Duration::from_micros(304)
        );
    }

    #[test]
    fn eifs_uses_the_lowest_rate_ack() {
        // 5 GHz: SIFS 16 + DIFS 34 + Ack at 6 Mbit/s 44 = 94 µs.
        let ack = ack_duration(&Rate::ofdm(OfdmRate::Mbps6), Band::Ghz5);
        assert_eq!(MacTiming::OFDM.eifs(ack), Duration::from_micros(94));
    }
}
