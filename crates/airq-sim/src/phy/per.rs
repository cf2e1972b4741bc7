//! The packet error rate of one MPDU at a PHY rate and an SNR: each PHY's bit error model
//! ([`super::ofdm_error`] for OFDM, HT, VHT and HE; [`super::dsss_error`] for DSSS/CCK)
//! turned into the probability that an MPDU of a given length has at least one bit wrong,
//! 1 − (1 − P_b)^(8·bytes), as ns-3 computes a chunk's success rate per MPDU.
//!
//! The SNR is the one of each spatial stream. 802.11 states its receiver sensitivities
//! per receive antenna and independent of the number of streams (IEEE 802.11-2020
//! 19.3.19.4, 21.3.18.4): a transmitter splits its power over N_SS streams and a receiver
//! with N_SS chains collects it back, so each stream sees the SNR of one antenna, as in
//! ns-3's AWGN MIMO model (no receive-diversity gain modelled).
//!
//! The PHY header decides whether the receiver sees the PPDU at all: a header in error
//! loses every MPDU of it ([`header_error`]). Its SIG fields go at the most robust rate
//! whatever the data rate — BPSK 1/2 for the OFDM family: L-SIG (24 bits, IEEE
//! 802.11-2020 17.3.4), HT-SIG (48 bits, 19.3.9.4.3), VHT-SIG-A (48) and VHT-SIG-B (26
//! at 20 MHz, 21.3.8.3), RL-SIG and HE-SIG-A (24 + 52, IEEE 802.11ax-2021 27.3.11); the
//! DSSS PLCP header's 48 bits at 1 Mbit/s, or 2 Mbit/s with the short preamble (16.2.2)
//! — as ns-3 computes a PHY header section's success apart from the payload's
//! (`InterferenceHelper::CalculatePhyHeaderPer`).

use super::{dsss_error, ofdm_error};
use airq::phy::{CodeRate, DsssDataRate, DsssPreamble, Modulation, OfdmRate, Rate};

/// The per-bit success of one PPDU's Data field: an MPDU of n bytes is received with
/// probability exp(8n · `ln_success_per_bit`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChunkErrors {
    ln_success_per_bit: f64,
}

impl ChunkErrors {
    /// The errors of PPDUs at `rate` and linear per-stream SNR `snr` (over the rate's
    /// noise bandwidth: see [`noise_bandwidth_hz`]).
    pub fn new(rate: &Rate, snr: f64) -> ChunkErrors {
        let ln_success_per_bit = match rate {
            Rate::Dsss(r) => dsss_error::ln_success_per_bit(r.data_rate(), snr),
            _ => {
                let modulation = modulation(rate);
                let ber = ofdm_error::bit_error_rate(modulation, snr);
                (-ber).ln_1p()
            }
        };
        ChunkErrors { ln_success_per_bit }
    }

    /// The probability that an MPDU of `bytes` is received in error.
    pub fn mpdu_error(&self, bytes: u32) -> f64 {
        self.bits_error(8 * bytes)
    }

    /// The probability that `bits` bits are not all received.
    pub fn bits_error(&self, bits: u32) -> f64 {
        if bits == 0 {
            return 0.0;
        }
        -(self.ln_success_per_bit * f64::from(bits)).exp_m1()
    }
}

/// The rate and length in bits of the PHY header's SIG fields of a PPDU at `rate` (see
/// the module's notes).
pub fn header(rate: &Rate) -> (Rate, u32) {
    let bpsk_1_2 = Rate::Ofdm(OfdmRate::Mbps6);
    match rate {
        Rate::Dsss(r) => {
            let header_rate = match r.preamble() {
                DsssPreamble::Long => DsssDataRate::Mbps1,
                DsssPreamble::Short => DsssDataRate::Mbps2,
            };
            let rate = Rate::dsss(header_rate, DsssPreamble::Long).expect("a valid DSSS rate");
            (rate, 48)
        }
        Rate::Ofdm(_) => (bpsk_1_2, 24),
        Rate::Ht(_) => (bpsk_1_2, 24 + 48),
        Rate::Vht(_) => (bpsk_1_2, 24 + 48 + 26),
        Rate::He(_) => (bpsk_1_2, 24 + 24 + 52),
    }
}

/// The probability that the PHY header of a PPDU at `rate` is received in error at
/// linear per-stream SNR `snr`: then no MPDU of it is.
pub fn header_error(rate: &Rate, snr: f64) -> f64 {
    let (header_rate, bits) = header(rate);
    ChunkErrors::new(&header_rate, snr).bits_error(bits)
}

/// The constellation and code rate of an OFDM-based rate (IEEE 802.11-2020 Table 17-4
/// for 11a/g; the MCS tables for HT, VHT and HE).
fn modulation(rate: &Rate) -> Modulation {
    let ofdm = |n_bpscs, code_rate| Modulation { n_bpscs, code_rate };
    match rate {
        Rate::Ofdm(r) => match r {
            OfdmRate::Mbps6 => ofdm(1, CodeRate::R1_2),
            OfdmRate::Mbps9 => ofdm(1, CodeRate::R3_4),
            OfdmRate::Mbps12 => ofdm(2, CodeRate::R1_2),
            OfdmRate::Mbps18 => ofdm(2, CodeRate::R3_4),
            OfdmRate::Mbps24 => ofdm(4, CodeRate::R1_2),
            OfdmRate::Mbps36 => ofdm(4, CodeRate::R3_4),
            OfdmRate::Mbps48 => ofdm(6, CodeRate::R2_3),
            OfdmRate::Mbps54 => ofdm(6, CodeRate::R3_4),
        },
        Rate::Ht(r) => r.modulation(),
        Rate::Vht(r) => r.modulation(),
        Rate::He(r) => r.modulation(),
        Rate::Dsss(_) => unreachable!("DSSS has no OFDM modulation"),
    }
}

/// The noise bandwidth of PPDUs at `rate`: 22 MHz for DSSS/CCK, 20 MHz for 11a/g, the
/// channel width for HT, VHT and HE.
pub fn noise_bandwidth_hz(rate: &Rate) -> f64 {
    let mhz = match rate {
        Rate::Dsss(_) => return dsss_error::DSSS_BANDWIDTH_HZ,
        Rate::Ofdm(_) => 20,
        Rate::Ht(r) => r.width().mhz(),
        Rate::Vht(r) => r.width().mhz(),
        Rate::He(r) => r.width().mhz(),
    };
    f64::from(mhz) * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval, HeGi};

    fn db(x: f64) -> f64 {
        10f64.powf(x / 10.0)
    }

    #[test]
    fn longer_mpdus_fail_more_often() {
        let rate = Rate::ofdm(OfdmRate::Mbps54);
        let e = ChunkErrors::new(&rate, db(22.0));
        // (1 - P_b)^n: the success of 3000 bytes is the square of 1500 bytes'.
        let s1500 = 1.0 - e.mpdu_error(1500);
        let s3000 = 1.0 - e.mpdu_error(3000);
        assert!((s3000 - s1500 * s1500).abs() < 1e-12);
        assert_eq!(e.mpdu_error(0), 0.0);
        // The same chunk as the OFDM model's own 2000-byte point (ns-3: 0.410).
        assert!(((1.0 - e.mpdu_error(2000)) - 0.410).abs() < 0.001);
    }

    #[test]
    fn ht_vht_and_he_use_their_mcs_modulation() {
        let ht7 = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let ht15 = Rate::ht(15, ChannelWidth::Mhz40, GuardInterval::Short).unwrap();
        let vht7 = Rate::vht(7, 2, ChannelWidth::Mhz80, GuardInterval::Long).unwrap();
        let he7 = Rate::he(7, 1, ChannelWidth::Mhz20, HeGi::Gi0_8).unwrap();
        let snr = db(24.0);
        let p = ChunkErrors::new(&ht7, snr).mpdu_error(1538);
        for r in [ht15, vht7, he7] {
            assert_eq!(ChunkErrors::new(&r, snr).mpdu_error(1538), p, "{r}");
        }
        assert!(p > 0.01 && p < 0.2, "MCS 7 at 24 dB: {p}");
        let he11 = Rate::he(11, 1, ChannelWidth::Mhz20, HeGi::Gi0_8).unwrap();
        assert!(ChunkErrors::new(&he11, snr).mpdu_error(1538) > 0.999);
    }

    #[test]
    fn noise_bandwidth_is_the_channel_width() {
        let vht = Rate::vht(9, 2, ChannelWidth::Mhz160, GuardInterval::Short).unwrap();
        assert_eq!(noise_bandwidth_hz(&vht), 160e6);
        assert_eq!(noise_bandwidth_hz(&Rate::ofdm(OfdmRate::Mbps6)), 20e6);
        let cck = Rate::dsss(
            airq::phy::DsssDataRate::Mbps11,
            airq::phy::DsssPreamble::Short,
        )
        .unwrap();
        assert_eq!(noise_bandwidth_hz(&cck), 22e6);
    }

    /// The header's SIG bits at BPSK 1/2: 72 of them before an HT PPDU, 24 before an
    /// 11a/g one; at 4 dB (where HT MCS 0's 1538-byte MPDU mostly fails) an HT header
    /// is lost as often as 1 − (1 − BER)^72 says, at 10 dB almost never.
    #[test]
    fn the_header_is_its_sig_bits_at_bpsk_one_half() {
        let ht0 = Rate::ht(0, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let ber = ofdm_error::bit_error_rate(
            Modulation {
                n_bpscs: 1,
                code_rate: CodeRate::R1_2,
            },
            db(4.0),
        );
        let expected = 1.0 - (1.0 - ber).powi(72);
        assert!((header_error(&ht0, db(4.0)) - expected).abs() < 1e-12);
        assert!(header_error(&ht0, db(4.0)) < ChunkErrors::new(&ht0, db(4.0)).mpdu_error(1538));
        assert!(header_error(&ht0, db(10.0)) < 1e-6);
        let legacy = Rate::ofdm(OfdmRate::Mbps54);
        assert_eq!(header(&legacy).1, 24);
        // DSSS: the PLCP header at 1 Mbit/s, 2 Mbit/s with the short preamble.
        let long = Rate::dsss(DsssDataRate::Mbps11, DsssPreamble::Long).unwrap();
        let short = Rate::dsss(DsssDataRate::Mbps11, DsssPreamble::Short).unwrap();
        assert!(header_error(&long, db(-2.0)) < header_error(&short, db(-2.0)));
        assert_eq!(header(&long).1, 48);
    }
}
