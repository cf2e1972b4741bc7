//! A-MPDU framing (IEEE 802.11-2020 9.7): the PSDU length of an aggregate of MPDUs and
//! the duration of the PPDU that carries it.
//!
//! Each A-MPDU subframe is a 4-byte MPDU delimiter, the MPDU, and 0–3 padding bytes that
//! make the subframe a multiple of 4 bytes; the last subframe of an HT PPDU is not padded
//! (9.7.1). In a VHT or HE PPDU the aggregate is sized by APEP_LENGTH, the A-MPDU before
//! its end-of-frame padding, which VHT-SIG-B carries in 4-byte units; there the last
//! subframe is padded too, so [`ampdu_ppdu_duration`] rounds the length up to 4 bytes for
//! VHT and HE. The EOF padding itself fills the last symbol and costs no time beyond
//! TXTIME. The maximum A-MPDU lengths (65 535 B for HT, 1 048 575 B for VHT,
//! 6 500 631 B for HE) and aPPDUMaxTime are not enforced here.

use super::band::Band;
use super::error::PhyError;
use super::rate::Rate;
use crate::time::Duration;

/// The MPDU delimiter in front of every MPDU of an A-MPDU.
pub const MPDU_DELIMITER_BYTES: u32 = 4;

/// `bytes` rounded up to a multiple of 4.
const fn pad_to_4(bytes: u32) -> u32 {
    bytes.saturating_add(3) & !3
}

/// The length of one A-MPDU subframe: delimiter + MPDU, padded to 4 bytes unless it is
/// the last subframe.
pub const fn ampdu_subframe_bytes(mpdu_bytes: u32, is_last: bool) -> u32 {
    let subframe = MPDU_DELIMITER_BYTES.saturating_add(mpdu_bytes);
    if is_last {
        subframe
    } else {
        pad_to_4(subframe)
    }
}

/// The PSDU length of an A-MPDU of MPDUs of the given lengths, in order (0 for none).
pub fn ampdu_psdu_bytes(mpdu_bytes: &[u32]) -> u32 {
    let mut psdu = PsduLength::new(true);
    for &mpdu in mpdu_bytes {
        psdu.push(mpdu);
    }
    psdu.unpadded_bytes()
}

/// The length of a PSDU being filled MPDU by MPDU, so that an aggregate can be checked
/// against its limits as it grows (the simulator's A-MPDU builder) with the framing of
/// [`ampdu_subframe_bytes`]. Without aggregation a PSDU is one MPDU; more pushed onto it
/// are summed as if concatenated. Lengths saturate at `u32::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PsduLength {
    aggregate: bool,
    /// Bytes so far, the last subframe unpadded.
    bytes: u32,
    /// Padding the last subframe owes if another follows it.
    pad: u32,
    count: u32,
}

impl PsduLength {
    /// An empty PSDU: an A-MPDU if `aggregate`, else a single MPDU.
    pub const fn new(aggregate: bool) -> PsduLength {
        PsduLength {
            aggregate,
            bytes: 0,
            pad: 0,
            count: 0,
        }
    }

    /// The length with one more MPDU of `mpdu_bytes`, without adding it.
    pub const fn with(&self, mpdu_bytes: u32) -> PsduLength {
        let mut next = *self;
        next.push(mpdu_bytes);
        next
    }

    /// Adds an MPDU of `mpdu_bytes` (as the last subframe of an A-MPDU).
    pub const fn push(&mut self, mpdu_bytes: u32) {
        if self.aggregate {
            let last = ampdu_subframe_bytes(mpdu_bytes, true);
            self.bytes = self.bytes.saturating_add(self.pad).saturating_add(last);
            self.pad = ampdu_subframe_bytes(mpdu_bytes, false).saturating_sub(last);
        } else {
            self.bytes = self.bytes.saturating_add(mpdu_bytes);
        }
        self.count = self.count.saturating_add(1);
    }

    /// MPDUs pushed.
    pub const fn count(&self) -> u32 {
        self.count
    }

    /// The PSDU length, the last subframe unpadded (HT's PSDU).
    pub const fn unpadded_bytes(&self) -> u32 {
        self.bytes
    }

    /// The length TXTIME is computed from at `rate`: the PSDU (HT, and any single MPDU)
    /// or, for a VHT or HE A-MPDU, APEP_LENGTH with the last subframe padded (9.7.1).
    pub const fn bytes(&self, rate: &Rate) -> u32 {
        if self.aggregate && matches!(rate, Rate::Vht(_) | Rate::He(_)) {
            self.bytes.saturating_add(self.pad)
        } else {
            self.bytes
        }
    }

    /// TXTIME of the PPDU carrying this PSDU at `rate` in `band`.
    pub fn duration(&self, rate: &Rate, band: Band) -> Duration {
        rate.ppdu_duration(self.bytes(rate), band)
    }
}

/// The PSDU length of an A-MPDU of `count` MPDUs of `mpdu_bytes` each (0 for none).
pub const fn ampdu_psdu_bytes_uniform(mpdu_bytes: u32, count: u32) -> u32 {
    if count == 0 {
        return 0;
    }
    let padded = ampdu_subframe_bytes(mpdu_bytes, false);
    let last = ampdu_subframe_bytes(mpdu_bytes, true);
    padded.saturating_mul(count - 1).saturating_add(last)
}

/// The length TXTIME is computed from for an A-MPDU of `psdu_bytes` at `rate`: the PSDU
/// for HT, APEP_LENGTH (padded to 4 bytes) for VHT and HE.
const fn txtime_length(rate: &Rate, psdu_bytes: u32) -> u32 {
    match rate {
        Rate::Vht(_) | Rate::He(_) => pad_to_4(psdu_bytes),
        _ => psdu_bytes,
    }
}

/// TXTIME of the PPDU carrying an A-MPDU of MPDUs of the given lengths at `rate` in
/// `band`. Fails for DSSS/OFDM rates, which cannot carry an A-MPDU, and for an empty list.
pub fn ampdu_ppdu_duration(
    rate: &Rate,
    mpdu_bytes: &[u32],
    band: Band,
) -> Result<Duration, PhyError> {
    if !rate.supports_ampdu() {
        return Err(PhyError::AggregationNotSupported {
            phy: rate.phy_kind(),
        });
    }
    if mpdu_bytes.is_empty() {
        return Err(PhyError::EmptyAmpdu);
    }
    let length = txtime_length(rate, ampdu_psdu_bytes(mpdu_bytes));
    Ok(rate.ppdu_duration(length, band))
}

/// [`ampdu_ppdu_duration`] for `count` MPDUs of `mpdu_bytes` each.
pub fn ampdu_ppdu_duration_uniform(
    rate: &Rate,
    mpdu_bytes: u32,
    count: u32,
    band: Band,
) -> Result<Duration, PhyError> {
    if !rate.supports_ampdu() {
        return Err(PhyError::AggregationNotSupported {
            phy: rate.phy_kind(),
        });
    }
    if count == 0 {
        return Err(PhyError::EmptyAmpdu);
    }
    let length = txtime_length(rate, ampdu_psdu_bytes_uniform(mpdu_bytes, count));
    Ok(rate.ppdu_duration(length, band))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{ChannelWidth, GuardInterval, OfdmRate, PhyKind};
    use alloc::vec;

    #[test]
    fn subframes_are_padded_except_the_last() {
        // 4 + 1538 = 1542, padded to 1544 unless last.
        assert_eq!(ampdu_subframe_bytes(1538, false), 1544);
        assert_eq!(ampdu_subframe_bytes(1538, true), 1542);
        // 4 + 100 = 104 is already a multiple of 4.
        assert_eq!(ampdu_subframe_bytes(100, false), 104);
        // [101, 102, 103]: 105 → 108, 106 → 108, 107 (last, unpadded) = 323.
        assert_eq!(ampdu_psdu_bytes(&[101, 102, 103]), 323);
        assert_eq!(ampdu_psdu_bytes(&[1538]), 1542);
        assert_eq!(ampdu_psdu_bytes(&[]), 0);
    }

    #[test]
    fn psdu_length_grows_as_the_list() {
        let lens = [101u32, 1538, 4, 1001, 66];
        let mut psdu = PsduLength::new(true);
        for (i, &len) in lens.iter().enumerate() {
            assert_eq!(
                psdu.with(len).unpadded_bytes(),
                ampdu_psdu_bytes(&lens[..=i])
            );
            psdu.push(len);
        }
        assert_eq!(psdu.count(), 5);
        // The last subframe, 4 + 66 = 70 B, is padded to 72 B in VHT's APEP_LENGTH only.
        let vht = Rate::vht(9, 1, ChannelWidth::Mhz80, GuardInterval::Long).unwrap();
        assert_eq!(psdu.bytes(&vht), pad_to_4(psdu.unpadded_bytes()));
        let mut single = PsduLength::new(false);
        single.push(1538);
        assert_eq!(single.bytes(&vht), 1538);
        assert_eq!(
            PsduLength::new(true).with(u32::MAX).unpadded_bytes(),
            u32::MAX
        );
    }

    #[test]
    fn uniform_matches_the_list() {
        let list = vec![1538u32; 16];
        assert_eq!(ampdu_psdu_bytes_uniform(1538, 16), ampdu_psdu_bytes(&list));
        // 15 · 1544 + 1542 = 24702.
        assert_eq!(ampdu_psdu_bytes_uniform(1538, 16), 24_702);
        assert_eq!(ampdu_psdu_bytes_uniform(1538, 0), 0);
    }

    #[test]
    fn ht_ampdu_duration_by_hand() {
        // 16 × 1538 B at HT MCS 7, 20 MHz, long GI: PSDU 24702 B.
        // N_SYM = ⌈(16 + 197616 + 6) / 260⌉ = ⌈760.15⌉ = 761; 36 + 4 · 761 = 3080 µs.
        let rate = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let d = ampdu_ppdu_duration_uniform(&rate, 1538, 16, Band::Ghz5).unwrap();
        assert_eq!(d, Duration::from_micros(3_080));
        let list = vec![1538u32; 16];
        assert_eq!(ampdu_ppdu_duration(&rate, &list, Band::Ghz5), Ok(d));
    }

    #[test]
    fn vht_length_is_padded_to_4_bytes() {
        // One 1538 B MPDU: subframe 1542 B, APEP_LENGTH 1544 B.
        // VHT80 MCS 9 1 SS long GI, N_DBPS 1560: ⌈(12352 + 22) / 1560⌉ = ⌈7.93⌉ = 8 symbols.
        // 40 + 32 = 72 µs.
        let rate = Rate::vht(9, 1, ChannelWidth::Mhz80, GuardInterval::Long).unwrap();
        let d = ampdu_ppdu_duration(&rate, &[1538], Band::Ghz5).unwrap();
        assert_eq!(d, Duration::from_micros(72));
    }

    #[test]
    fn legacy_rates_and_empty_lists_are_rejected() {
        let ofdm = Rate::ofdm(OfdmRate::Mbps54);
        assert_eq!(
            ampdu_ppdu_duration(&ofdm, &[100], Band::Ghz5),
            Err(PhyError::AggregationNotSupported { phy: PhyKind::Ofdm })
        );
        let ht = Rate::ht(0, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        assert_eq!(
            ampdu_ppdu_duration(&ht, &[], Band::Ghz5),
            Err(PhyError::EmptyAmpdu)
        );
        assert_eq!(
            ampdu_ppdu_duration_uniform(&ht, 100, 0, Band::Ghz5),
            Err(PhyError::EmptyAmpdu)
        );
    }
}
