//! The BSS basic rate set and the rate of control responses (IEEE 802.11-2020 10.6.6.5).
//!
//! An Ack, BlockAck or CTS answering a frame is sent at the primary rate of 10.6.6.5.2:
//! the highest rate of the BSSBasicRateSet that is not above the rate of the frame that
//! elicited it and is of the same modulation class; if the set has none, the highest
//! mandatory rate of the PHY of that class not above it (DSSS/HR-DSSS 1, 2, 5.5,
//! 11 Mbit/s; OFDM and ERP-OFDM 6, 12, 24). An eliciting HT, VHT or HE PPDU is answered
//! in a non-HT OFDM PPDU (10.6.6.5.3), compared by its non-HT reference rate: the OFDM
//! rate of the same constellation and code rate (BPSK 1/2 → 6 Mbit/s, QPSK 1/2 → 12,
//! QPSK 3/4 → 18, 16-QAM 1/2 → 24, 16-QAM 3/4 → 36, 64-QAM 2/3 → 48, 64-QAM 3/4 and
//! above → 54). mac80211 picks the RTS/CTS rate of a data frame the same way, "the
//! fastest basic rate that is not faster than the data rate" (`net/mac80211/rate.c`,
//! `rate_fixup_ratelist`).
//!
//! The set's defaults are hostapd's when `basic_rates` is not configured
//! (`src/ap/hw_features.c`, `hostapd_prepare_rates`): 6, 12 and 24 Mbit/s for
//! `hw_mode=a` (5 and 6 GHz), 1 and 2 for `hw_mode=b`, 1, 2, 5.5 and 11 for `hw_mode=g`
//! (the 2.4 GHz default for ERP/HT/HE BSSs, which keeps 802.11b stations able to answer).

use airq::phy::{CodeRate, DsssDataRate, DsssPreamble, OfdmRate, Rate};

/// A set of legacy (DSSS/HR-DSSS and OFDM) rates, as BSSBasicRateSet carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BasicRateSet {
    /// Bit i: [`DsssDataRate::ALL`]\[i\] (bits 0–3), [`OfdmRate::ALL`]\[i − 4\] (4–11).
    mask: u16,
}

/// The modulation classes 10.6.6.5 tells apart for response rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Dsss,
    Ofdm,
}

impl BasicRateSet {
    /// hostapd's `hw_mode=a`: 6, 12, 24 Mbit/s.
    pub const HOSTAPD_A: BasicRateSet = BasicRateSet {
        mask: 0b0001_0101 << 4,
    };
    /// hostapd's `hw_mode=b`: 1, 2 Mbit/s.
    pub const HOSTAPD_B: BasicRateSet = BasicRateSet { mask: 0b0011 };
    /// hostapd's `hw_mode=g`: 1, 2, 5.5, 11 Mbit/s.
    pub const HOSTAPD_G: BasicRateSet = BasicRateSet { mask: 0b1111 };
    const MANDATORY: BasicRateSet = BasicRateSet {
        mask: 0b1111 | Self::HOSTAPD_A.mask,
    };

    /// The set of the given rates in kbit/s (1000, 2000, 5500, 11000, 6000, ..., 54000);
    /// `None` if one is not a legacy rate or the list is empty.
    pub fn from_kbps(rates: &[u32]) -> Option<BasicRateSet> {
        let mut mask = 0u16;
        for &kbps in rates {
            let bit = (0..12).find(|&i| Self::kbps_of(i) == kbps)?;
            mask |= 1 << bit;
        }
        (mask != 0).then_some(BasicRateSet { mask })
    }

    /// The rates in kbit/s, DSSS first, each class slowest first.
    pub fn kbps(&self) -> impl Iterator<Item = u32> + '_ {
        (0..12)
            .filter(|&i| self.mask & (1 << i) != 0)
            .map(Self::kbps_of)
    }

    fn kbps_of(bit: u32) -> u32 {
        if bit < 4 {
            DsssDataRate::ALL[bit as usize].kbps()
        } else {
            OfdmRate::ALL[bit as usize - 4].data_rate_kbps()
        }
    }

    /// The lowest rate of the set (beacons and other broadcast management frames).
    pub fn lowest(&self) -> Rate {
        let bit = self.mask.trailing_zeros();
        Self::rate_of(bit, DsssPreamble::Long)
    }

    fn rate_of(bit: u32, preamble: DsssPreamble) -> Rate {
        if bit < 4 {
            let data_rate = DsssDataRate::ALL[bit as usize];
            // The short preamble is not defined at 1 Mbit/s.
            Rate::dsss(data_rate, preamble)
                .or_else(|_| Rate::dsss(data_rate, DsssPreamble::Long))
                .expect("the long preamble is defined at every DSSS rate")
        } else {
            Rate::ofdm(OfdmRate::ALL[bit as usize - 4])
        }
    }

    /// The rate of a control response (Ack, BlockAck, CTS) to a frame sent at
    /// `eliciting` (10.6.6.5): the highest basic rate of the same modulation class not
    /// above the eliciting rate (for HT, VHT and HE, its non-HT reference rate), else the
    /// highest such mandatory rate, else the lowest rate of the class. A DSSS response
    /// keeps the eliciting frame's preamble where the rate allows it.
    pub fn control_response_rate(&self, eliciting: &Rate) -> Rate {
        let (class, reference_kbps, preamble) = match eliciting {
            Rate::Dsss(r) => (Class::Dsss, r.data_rate_kbps(), r.preamble()),
            Rate::Ofdm(r) => (Class::Ofdm, r.data_rate_kbps(), DsssPreamble::Long),
            Rate::Ht(r) => (
                Class::Ofdm,
                non_ht_reference_kbps(r.modulation().n_bpscs, r.modulation().code_rate),
                DsssPreamble::Long,
            ),
            Rate::Vht(r) => (
                Class::Ofdm,
                non_ht_reference_kbps(r.modulation().n_bpscs, r.modulation().code_rate),
                DsssPreamble::Long,
            ),
            Rate::He(r) => (
                Class::Ofdm,
                non_ht_reference_kbps(r.modulation().n_bpscs, r.modulation().code_rate),
                DsssPreamble::Long,
            ),
        };
        let bits = match class {
            Class::Dsss => 0..4,
            Class::Ofdm => 4..12,
        };
        let highest = |set: BasicRateSet| {
            bits.clone()
                .rev()
                .find(|&i| set.mask & (1 << i) != 0 && Self::kbps_of(i) <= reference_kbps)
        };
        let bit = highest(*self)
            .or_else(|| highest(Self::MANDATORY))
            .unwrap_or(bits.start);
        Self::rate_of(bit, preamble)
    }
}

/// The non-HT reference rate in kbit/s of an HT/VHT/HE MCS's constellation (N_BPSCS)
/// and code rate (10.6.6.5.3): the OFDM rate with the same modulation and coding, 54
/// Mbit/s for 64-QAM 3/4 and everything denser.
fn non_ht_reference_kbps(n_bpscs: u32, code_rate: CodeRate) -> u32 {
    use CodeRate as R;
    match (n_bpscs, code_rate) {
        (1, _) => 6_000,
        (2, R::R1_2) => 12_000,
        (2, _) => 18_000,
        (4, R::R1_2) => 24_000,
        (4, _) => 36_000,
        (6, R::R2_3) => 48_000,
        _ => 54_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval, HeGi};

    fn kbps(r: Rate) -> u32 {
        r.data_rate_kbps()
    }

    fn dsss(d: DsssDataRate, p: DsssPreamble) -> Rate {
        Rate::dsss(d, p).unwrap()
    }

    #[test]
    fn hostapd_defaults() {
        let list = |s: BasicRateSet| s.kbps().collect::<Vec<_>>();
        assert_eq!(list(BasicRateSet::HOSTAPD_A), [6_000, 12_000, 24_000]);
        assert_eq!(list(BasicRateSet::HOSTAPD_B), [1_000, 2_000]);
        assert_eq!(list(BasicRateSet::HOSTAPD_G), [1_000, 2_000, 5_500, 11_000]);
        assert_eq!(
            BasicRateSet::from_kbps(&[6_000, 12_000, 24_000]),
            Some(BasicRateSet::HOSTAPD_A)
        );
        assert_eq!(BasicRateSet::from_kbps(&[7_000]), None);
        assert_eq!(BasicRateSet::from_kbps(&[]), None);
        assert_eq!(kbps(BasicRateSet::HOSTAPD_G.lowest()), 1_000);
        assert_eq!(kbps(BasicRateSet::HOSTAPD_A.lowest()), 6_000);
    }

    /// 10.6.6.5.2: the highest basic rate not above the eliciting rate, same class.
    #[test]
    fn legacy_frames_are_answered_at_the_highest_basic_rate_not_above_theirs() {
        let g = BasicRateSet::HOSTAPD_G;
        let short = DsssPreamble::Short;
        // 11 Mbit/s CCK is answered at 11 (not 1), 5.5 at 5.5, 2 at 2, with its preamble.
        for d in [
            DsssDataRate::Mbps2,
            DsssDataRate::Mbps5_5,
            DsssDataRate::Mbps11,
        ] {
            assert_eq!(g.control_response_rate(&dsss(d, short)), dsss(d, short));
        }
        let one = dsss(DsssDataRate::Mbps1, DsssPreamble::Long);
        assert_eq!(g.control_response_rate(&one), one);
        // hw_mode=b: 11 Mbit/s answered at 2.
        assert_eq!(
            kbps(BasicRateSet::HOSTAPD_B.control_response_rate(&dsss(DsssDataRate::Mbps11, short))),
            2_000
        );
        // OFDM in 5 GHz: 54 → 24, 18 → 12, 9 → 6.
        let a = BasicRateSet::HOSTAPD_A;
        let ofdm = |r| kbps(a.control_response_rate(&Rate::ofdm(r)));
        assert_eq!(ofdm(OfdmRate::Mbps54), 24_000);
        assert_eq!(ofdm(OfdmRate::Mbps18), 12_000);
        assert_eq!(ofdm(OfdmRate::Mbps9), 6_000);
        // ERP-OFDM in a hw_mode=g BSS has no OFDM basic rate: the mandatory 6/12/24.
        assert_eq!(
            kbps(g.control_response_rate(&Rate::ofdm(OfdmRate::Mbps54))),
            24_000
        );
        assert_eq!(
            kbps(g.control_response_rate(&Rate::ofdm(OfdmRate::Mbps9))),
            6_000
        );
    }

    /// 10.6.6.5.3: HT, VHT and HE frames by their non-HT reference rate.
    #[test]
    fn ht_frames_are_answered_by_their_non_ht_reference_rate() {
        let a = BasicRateSet::HOSTAPD_A;
        let ht = |mcs| {
            let r = Rate::ht(mcs, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
            kbps(a.control_response_rate(&r))
        };
        // MCS0 (BPSK 1/2) → 6, MCS1 (QPSK 1/2) → 12, MCS2 (QPSK 3/4, ref 18) → 12,
        // MCS3 (16-QAM 1/2) → 24, MCS7 and MCS15 → 24.
        assert_eq!(
            [ht(0), ht(1), ht(2), ht(3), ht(7), ht(15)],
            [6_000, 12_000, 12_000, 24_000, 24_000, 24_000]
        );
        let vht = Rate::vht(9, 2, ChannelWidth::Mhz80, GuardInterval::Short).unwrap();
        assert_eq!(kbps(a.control_response_rate(&vht)), 24_000);
        let he = Rate::he(0, 1, ChannelWidth::Mhz20, HeGi::Gi0_8).unwrap();
        assert_eq!(kbps(a.control_response_rate(&he)), 6_000);
        // 2.4 GHz, hw_mode=g: an HT frame is answered in ERP-OFDM at a mandatory rate.
        let g = BasicRateSet::HOSTAPD_G;
        let mcs0 = Rate::ht(0, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        assert_eq!(g.control_response_rate(&mcs0), Rate::ofdm(OfdmRate::Mbps6));
    }
}
