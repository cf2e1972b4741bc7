//! Bit errors of the OFDM PHYs (11a/g, HT, VHT, HE) at an SNR: the NIST error rate
//! model, as G. Pei and T. R. Henderson, "Validation of OFDM error rate model in ns-3"
//! (Boeing, 2010) describe it after L. E. Miller, "Validation of 802.11a/UWB Coexistence
//! Simulation" (NIST, 2003), and as ns-3's `NistErrorRateModel` implements it.
//!
//! 1. The uncoded bit error rate of the subcarrier constellation at SNR γ (signal over
//!    noise in the channel width; Pei & Henderson eqs. 1–4, and J. G. Proakis, *Digital
//!    Communications*, 4th ed., §5.2): BPSK ½·erfc(√γ), QPSK ½·erfc(√(γ/2)), and
//!    Gray-coded square M-QAM (16 to 1024) (1 − 1/√M)/log2(√M) · erfc(√(3γ / (2(M − 1)))).
//! 2. The bit error rate after hard-decision Viterbi decoding of the K = 7 (133, 171)
//!    convolutional code, punctured to rate R = b/(b+1), by the union bound over the
//!    code's distance spectrum with the Bhattacharyya bound P_d ≤ D^d,
//!    D = √(4p(1 − p)):  P_b ≤ 1/(2b) · Σ_d c_d · D^d  (Pei & Henderson eq. 5). The
//!    spectra c_d are the first nine or ten terms from d_free: rate 1/2, 2/3 and 3/4 from
//!    Miller's Tables 3.1.1–3.1.2, rate 5/6 from D. Haccoun and G. Bégin, "High-rate
//!    punctured convolutional codes for Viterbi and sequential decoding", IEEE Trans.
//!    Commun. 37(11), 1989, Table V — the coefficients ns-3 uses.
//! 3. A chunk of n bits is received when every bit is: (1 − P_b)^n.
//!
//! The model is an AWGN one with BCC everywhere; HE's LDPC (about 2 dB better) and
//! fading are not modelled. Its curves fall within about 1 dB of measured ones (Pei &
//! Henderson).

use super::gaussian::erfc;
use airq::phy::{CodeRate, Modulation};

/// The uncoded bit error rate of a constellation with `n_bpscs` bits per subcarrier
/// (1 BPSK, 2 QPSK, 4 16-QAM, ... 10 1024-QAM) at linear SNR `snr`.
pub fn uncoded_ber(n_bpscs: u32, snr: f64) -> f64 {
    match n_bpscs {
        1 => 0.5 * erfc(snr.sqrt()),
        2 => 0.5 * erfc((snr / 2.0).sqrt()),
        _ => {
            let m = f64::from(1u32 << n_bpscs);
            let sqrt_m = m.sqrt();
            (1.0 - 1.0 / sqrt_m) / sqrt_m.log2() * erfc((3.0 * snr / (2.0 * (m - 1.0))).sqrt())
        }
    }
}

/// A punctured code's distance spectrum: the period b (R = b/(b+1); b = 1 for 1/2),
/// and (c_d, d) for the first distances from d_free (rate 1/2 has only even ones).
struct Spectrum {
    b: f64,
    terms: &'static [(f64, i32)],
}

const R1_2: Spectrum = Spectrum {
    b: 1.0,
    terms: &[
        (36.0, 10),
        (211.0, 12),
        (1404.0, 14),
        (11_633.0, 16),
        (77_433.0, 18),
        (502_690.0, 20),
        (3_322_763.0, 22),
        (21_292_910.0, 24),
        (134_365_911.0, 26),
    ],
};

const R2_3: Spectrum = Spectrum {
    b: 2.0,
    terms: &[
        (3.0, 6),
        (70.0, 7),
        (285.0, 8),
        (1276.0, 9),
        (6160.0, 10),
        (27_128.0, 11),
        (117_019.0, 12),
        (498_860.0, 13),
        (2_103_891.0, 14),
        (8_784_123.0, 15),
    ],
};

const R3_4: Spectrum = Spectrum {
    b: 3.0,
    terms: &[
        (42.0, 5),
        (201.0, 6),
        (1492.0, 7),
        (10_469.0, 8),
        (62_935.0, 9),
        (379_644.0, 10),
        (2_253_373.0, 11),
        (13_073_811.0, 12),
        (75_152_755.0, 13),
        (428_005_675.0, 14),
    ],
};

const R5_6: Spectrum = Spectrum {
    b: 5.0,
    terms: &[
        (92.0, 4),
        (528.0, 5),
        (8694.0, 6),
        (79_453.0, 7),
        (792_114.0, 8),
        (7_375_573.0, 9),
        (67_884_974.0, 10),
        (610_875_423.0, 11),
        (5_427_275_376.0, 12),
        (47_664_215_639.0, 13),
    ],
};

fn spectrum(code_rate: CodeRate) -> &'static Spectrum {
    match (code_rate.numerator, code_rate.denominator) {
        (2, 3) => &R2_3,
        (3, 4) => &R3_4,
        (5, 6) => &R5_6,
        _ => &R1_2,
    }
}

/// The decoded bit error rate, at most 1, for channel bit error rate `p` and
/// `code_rate` (the union bound of step 2).
pub fn coded_ber(p: f64, code_rate: CodeRate) -> f64 {
    let s = spectrum(code_rate);
    let d = (4.0 * p * (1.0 - p)).sqrt();
    let sum: f64 = s.terms.iter().map(|&(c, e)| c * d.powi(e)).sum();
    (sum / (2.0 * s.b)).min(1.0)
}

/// The decoded bit error rate of `modulation` at linear SNR `snr`.
pub fn bit_error_rate(modulation: Modulation, snr: f64) -> f64 {
    let p = uncoded_ber(modulation.n_bpscs, snr);
    if p == 0.0 {
        return 0.0;
    }
    coded_ber(p, modulation.code_rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(n_bpscs: u32, code_rate: CodeRate) -> Modulation {
        Modulation { n_bpscs, code_rate }
    }

    /// (1 − P_b)^bits.
    fn success(modulation: Modulation, snr_db: f64, bytes: u32) -> f64 {
        let snr = 10f64.powf(snr_db / 10.0);
        (1.0 - bit_error_rate(modulation, snr)).powf(f64::from(bytes * 8))
    }

    #[test]
    fn uncoded_ber_follows_the_textbook_formulas() {
        // BPSK at Eb/N0 = 0 dB: Q(√2) = 0.0786496 (Proakis Fig. 5.2-4).
        assert!((uncoded_ber(1, 1.0) - 0.078_649_6).abs() < 1e-6);
        // 16-QAM at 20 dB from the general formula: 3/8 · erfc(√10).
        let want = 0.375 * erfc(10f64.sqrt());
        assert!((uncoded_ber(4, 100.0) - want).abs() < 1e-15);
        // QPSK is 4-QAM: the general formula gives the same.
        let qam4 = 0.5 * erfc((3.0 * 7.0 / 6.0f64).sqrt());
        assert!((uncoded_ber(2, 7.0) - qam4).abs() < 1e-15);
        // Each step up the ladder needs more SNR for the same BER.
        for n in [1, 2, 4, 6, 8, 10] {
            assert!(uncoded_ber(n, 100.0) < uncoded_ber(n + 2, 100.0));
        }
    }

    #[test]
    fn coded_ber_is_the_union_bound() {
        // At p = 0.01, D = √0.0396; rate 1/2's first term dominates: 18·D^10.
        let p: f64 = 0.01;
        let d = (4.0 * p * (1.0 - p)).sqrt();
        let first = 0.5 * 36.0 * d.powi(10);
        let got = coded_ber(p, CodeRate::R1_2);
        assert!(got > first && got < first * 1.5, "{got} vs {first}");
        // Weaker codes are worse at the same channel BER.
        assert!(coded_ber(p, CodeRate::R2_3) > got);
        assert!(coded_ber(p, CodeRate::R3_4) > coded_ber(p, CodeRate::R2_3));
        assert!(coded_ber(p, CodeRate::R5_6) > coded_ber(p, CodeRate::R3_4));
        assert_eq!(coded_ber(0.4, CodeRate::R5_6), 1.0);
    }

    #[test]
    fn frame_success_matches_ns3_published_points() {
        // ns-3 src/wifi/test/wifi-error-rate-models-test.cc (NistErrorRateModel, 2000
        // bytes), the values of its ofdm-validation example: (modulation, SNR dB,
        // success, tolerance).
        let points = [
            (m(1, CodeRate::R1_2), 3.0, 0.020, 0.001),  // 6 Mbit/s
            (m(1, CodeRate::R1_2), 4.0, 0.885, 0.001),  // 6 Mbit/s
            (m(1, CodeRate::R3_4), 7.0, 0.918, 0.001),  // 9 Mbit/s
            (m(2, CodeRate::R1_2), 7.0, 0.881, 0.001),  // 12 Mbit/s
            (m(2, CodeRate::R3_4), 9.5, 0.623, 0.001),  // 18 Mbit/s
            (m(4, CodeRate::R1_2), 13.0, 0.495, 0.001), // 24 Mbit/s
            (m(4, CodeRate::R3_4), 16.5, 0.818, 0.001), // 36 Mbit/s
            (m(6, CodeRate::R2_3), 21.0, 0.649, 0.001), // 48 Mbit/s
            (m(6, CodeRate::R3_4), 22.0, 0.410, 0.001), // 54 Mbit/s
            (m(6, CodeRate::R3_4), 23.0, 0.958, 0.001), // 54 Mbit/s
        ];
        for (modulation, snr_db, want, tol) in points {
            let got = success(modulation, snr_db, 2000);
            assert!(
                (got - want).abs() <= tol,
                "{modulation:?} at {snr_db} dB: {got}, ns-3 {want}"
            );
        }
    }

    #[test]
    fn mcs7_and_256_qam_thresholds_are_where_they_should_be() {
        // 10% PER of 1500-byte frames: 64-QAM 5/6 (HT MCS 7) near 24 dB, 256-QAM 5/6
        // (VHT MCS 9) near 30 dB, 1024-QAM 5/6 (HE MCS 11) near 36 dB: 6 dB per two
        // bits per subcarrier, as the M-QAM formula's 3/(M-1) says.
        let at_10_percent = |modulation: Modulation| {
            (0..4000)
                .map(|i| f64::from(i) * 0.01)
                .find(|&snr_db| success(modulation, snr_db, 1500) >= 0.9)
                .unwrap()
        };
        let mcs7 = at_10_percent(m(6, CodeRate::R5_6));
        let vht9 = at_10_percent(m(8, CodeRate::R5_6));
        let he11 = at_10_percent(m(10, CodeRate::R5_6));
        assert!((23.0..25.0).contains(&mcs7), "{mcs7}");
        assert!((vht9 - mcs7 - 6.0).abs() < 0.5, "{vht9}");
        assert!((he11 - vht9 - 6.0).abs() < 0.5, "{he11}");
    }
}
