//! Bit and symbol errors of the DSSS and HR-DSSS (802.11b) PHYs at an SNR, after the
//! model of ns-3's `DsssErrorRateModel` as G. Pei and T. R. Henderson, "Validation of
//! ns-3 802.11b PHY model" (Boeing, 2009) describe and validate it.
//!
//! The SNR γ is taken over 22 MHz, so the energy per bit is Eb/N0 = γ · 22 MHz / R_s / k
//! for R_s symbols per second of k bits.
//!
//! - 1 Mbit/s DBPSK (1 Msymbol/s, 1 bit): P_b = ½·exp(−Eb/N0) (Proakis, *Digital
//!   Communications*, 4th ed., eq. 5.2-69).
//! - 2 Mbit/s DQPSK (1 Msymbol/s, 2 bits), Gray-coded, in its high-SNR approximation
//!   P_b ≈ (√2 + 1)/√(8π√2) · x^(−½) · exp(−(2 − √2)·x), x = Eb/N0.
//! - 5.5 Mbit/s CCK (1.375 Msymbol/s, 4 bits): the 16 codewords as M = 2N = 16
//!   biorthogonal signals, whose probability of a correct decision is
//!   P_c = ∫_{−β}^{∞} [2Φ(v + β) − 1]^{N−1} φ(v) dv (Proakis §5.2, biorthogonal signals),
//!   here with β² = Es/N0 = γ · 22/1.375; a symbol error loses the symbol's 4 bits.
//! - 11 Mbit/s CCK (1.375 Msymbol/s, 8 bits): two such 16-ary decisions per symbol at
//!   half the energy each, P_s = 1 − (1 − P_s,16(β² = Es/2N0))².

use super::gaussian::{normal_pdf, q_function};
use airq::phy::DsssDataRate;

/// The DSSS noise bandwidth, Hz.
pub const DSSS_BANDWIDTH_HZ: f64 = 22e6;

/// CCK symbols per second (5.5 and 11 Mbit/s).
const CCK_SYMBOL_RATE: f64 = 1.375e6;

/// ln P(one bit received) at 1 and 2 Mbit/s, and the symbol-level equivalent at 5.5
/// and 11 Mbit/s (ln(1 − P_s)/bits per symbol), at linear SNR `snr` over 22 MHz: a chunk
/// of n bits is received with probability exp(n · this).
pub fn ln_success_per_bit(rate: DsssDataRate, snr: f64) -> f64 {
    let chips_per_symbol = |symbol_rate: f64| snr * DSSS_BANDWIDTH_HZ / symbol_rate;
    match rate {
        DsssDataRate::Mbps1 => {
            let eb_n0 = chips_per_symbol(1e6);
            (-0.5 * (-eb_n0).exp()).ln_1p()
        }
        DsssDataRate::Mbps2 => {
            let x = chips_per_symbol(1e6) / 2.0;
            let sqrt2 = core::f64::consts::SQRT_2;
            let scale = (sqrt2 + 1.0) / (8.0 * core::f64::consts::PI * sqrt2).sqrt();
            let ber = (scale / x.sqrt() * (-(2.0 - sqrt2) * x).exp()).min(0.5);
            (-ber).ln_1p()
        }
        DsssDataRate::Mbps5_5 => {
            let es_n0 = chips_per_symbol(CCK_SYMBOL_RATE);
            (-biorthogonal_symbol_error(8, es_n0.sqrt())).ln_1p() / 4.0
        }
        DsssDataRate::Mbps11 => {
            let es_n0 = chips_per_symbol(CCK_SYMBOL_RATE) / 2.0;
            2.0 * (-biorthogonal_symbol_error(8, es_n0.sqrt())).ln_1p() / 8.0
        }
    }
}

/// The symbol error probability of M = 2·`n` biorthogonal signals at `beta`:
/// 1 − P_c = Q(β) + ∫_{−β}^{∞} (1 − [1 − 2Q(v + β)]^{n−1}) φ(v) dv, written as an error
/// (not 1 − P_c) so that small probabilities keep their digits. Simpson's rule over
/// [−β, max(−β, 0) + 9], beyond which φ is below 1e-18.
pub fn biorthogonal_symbol_error(n: u32, beta: f64) -> f64 {
    let k = f64::from(n - 1);
    if n == 1 {
        return q_function(beta);
    }
    let f = |v: f64| {
        let a = 2.0 * q_function(v + beta);
        -(k * (-a.min(1.0)).ln_1p()).exp_m1() * normal_pdf(v)
    };
    let (lo, hi) = (-beta, (-beta).max(0.0) + 9.0);
    const STEPS: u32 = 600;
    let h = (hi - lo) / f64::from(STEPS);
    let mut sum = f(lo) + f(hi);
    for i in 1..STEPS {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += w * f(lo + h * f64::from(i));
    }
    (q_function(beta) + sum * h / 3.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::noise::{db_to_ratio, noise_floor_dbm};

    /// ns-3's test setting: the SNR of `rss_dbm` against 22 MHz of thermal noise and a
    /// 7 dB noise figure.
    fn snr_of(rss_dbm: f64) -> f64 {
        db_to_ratio(rss_dbm - noise_floor_dbm(DSSS_BANDWIDTH_HZ, 7.0))
    }

    #[test]
    fn frame_success_matches_the_validation_reports_points() {
        // ns-3 src/wifi/test/wifi-error-rate-models-test.cc: 1078-byte frames ("values
        // taken from the sample 80211b.c program used in the validation paper"):
        // (rate, received power dBm, success, tolerance).
        let bits = f64::from((1024 + 40 + 14) * 8);
        let points = [
            (DsssDataRate::Mbps1, -98.0, 0.202, 0.005),
            (DsssDataRate::Mbps1, -97.0, 0.813, 0.005),
            (DsssDataRate::Mbps2, -93.0, 0.519, 0.005),
            (DsssDataRate::Mbps2, -92.0, 0.915, 0.005),
            (DsssDataRate::Mbps5_5, -91.0, 0.132, 0.005),
            (DsssDataRate::Mbps5_5, -90.0, 0.744, 0.005),
            (DsssDataRate::Mbps11, -88.0, 0.128, 0.005),
            (DsssDataRate::Mbps11, -87.0, 0.739, 0.005),
            (DsssDataRate::Mbps11, -86.0, 0.973, 0.005),
        ];
        for (rate, rss, want, tol) in points {
            let got = (bits * ln_success_per_bit(rate, snr_of(rss))).exp();
            assert!(
                (got - want).abs() <= tol,
                "{rate:?} at {rss} dBm: {got}, ns-3 {want}"
            );
        }
    }

    #[test]
    fn biorthogonal_with_two_signals_is_antipodal() {
        // N = 1: M = 2 biorthogonal signals are BPSK, P_s = Q(β).
        for beta in [0.5, 1.0, 2.0, 3.0] {
            let got = biorthogonal_symbol_error(1, beta);
            assert!((got - q_function(beta)).abs() < 1e-12, "{beta}: {got}");
        }
        // More signals, more errors; more energy, fewer.
        assert!(biorthogonal_symbol_error(8, 2.0) > biorthogonal_symbol_error(2, 2.0));
        assert!(biorthogonal_symbol_error(8, 3.0) < biorthogonal_symbol_error(8, 2.0));
    }
}
