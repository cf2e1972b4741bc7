//! The receiver's noise floor: thermal noise kTB over the noise bandwidth, raised by the
//! receiver's noise figure, and the SNR of a received signal against it.
//!
//! N = 10·log10(k·T0·B / 1 mW) + NF, with Boltzmann's constant k = 1.380649e-23 J/K
//! (SI 2019, exact) and the reference temperature T0 = 290 K at which noise figures are
//! defined (IEEE Std 100; ITU-R P.372): −173.98 dBm/Hz, so −100.97 dBm over 20 MHz and,
//! with a 7 dB noise figure, −93.97 dBm. The noise bandwidth is the channel width of the
//! PPDU (20, 40, 80, 160 MHz) and 22 MHz for DSSS/CCK, as ns-3's `WifiPhy` takes it.

/// Boltzmann's constant, J/K.
pub const BOLTZMANN_J_PER_K: f64 = 1.380_649e-23;

/// The reference temperature of noise figures, K.
pub const T0_K: f64 = 290.0;

/// The default receiver noise figure, dB: the TGax evaluation methodology's (IEEE
/// 802.11-14/0571) and ns-3's `WifiPhy::RxNoiseFigure`.
pub const DEFAULT_NOISE_FIGURE_DB: f64 = 7.0;

/// Thermal noise power kT0B over `bandwidth_hz`, dBm.
pub fn thermal_noise_dbm(bandwidth_hz: f64) -> f64 {
    10.0 * (BOLTZMANN_J_PER_K * T0_K * bandwidth_hz / 1e-3).log10()
}

/// The noise floor of a receiver with `noise_figure_db` over `bandwidth_hz`, dBm.
pub fn noise_floor_dbm(bandwidth_hz: f64, noise_figure_db: f64) -> f64 {
    thermal_noise_dbm(bandwidth_hz) + noise_figure_db
}

/// dB to a linear power ratio.
pub fn db_to_ratio(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thermal_noise_is_minus_174_dbm_per_hz() {
        assert!((thermal_noise_dbm(1.0) - -173.975).abs() < 0.001);
        // 20 MHz: -100.97 dBm; 22 MHz: -100.55 dBm (ns-3's DSSS test figure, -100.5523,
        // takes k = 1.3803e-23, 0.001 dB off the exact SI value).
        assert!((thermal_noise_dbm(20e6) - -100.965).abs() < 0.001);
        assert!((thermal_noise_dbm(22e6) - -100.552_278_6).abs() < 0.002);
        // Doubling the width costs 3 dB.
        let step = thermal_noise_dbm(80e6) - thermal_noise_dbm(40e6);
        assert!((step - 3.0103).abs() < 1e-4);
    }

    #[test]
    fn a_20_mhz_receiver_with_7_db_noise_figure_hears_down_to_minus_94_dbm() {
        let n = noise_floor_dbm(20e6, DEFAULT_NOISE_FIGURE_DB);
        assert!((n - -93.965).abs() < 0.001, "{n}");
    }
}
