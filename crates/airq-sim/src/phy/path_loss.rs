//! Indoor path loss from distance: the log-distance models of the IEEE 802.11ax (TGax)
//! simulation scenarios, IEEE 802.11-14/0980r16, scenario 1 (residential) and scenario 2
//! (enterprise):
//!
//! ```text
//! PL(d) = 40.05 + 20·log10(fc/2.4) + 20·log10(min(d, d_BP))
//!         + (d > d_BP)·35·log10(d/d_BP) + L_wall·W          [dB; d in m, fc in GHz]
//! ```
//!
//! free-space loss (40.05 dB at 1 m and 2.4 GHz) up to the break point d_BP, exponent 3.5
//! beyond it, and a loss per wall traversed. Residential: d_BP = 5 m, 5 dB per wall (and
//! 18.3·F^((F+2)/(F+1)−0.46) dB for F floors, not modelled: one floor); enterprise:
//! d_BP = 10 m, 7 dB per wall. d = max(3-D distance, 1 m). The documents' shadowing
//! (5 dB log-normal) is left out: a station's loss is deterministic, so a scenario says
//! what it means.

use airq::phy::Band;

/// A distance-based path loss model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathLossModel {
    /// TGax scenario 1, residential: break point 5 m, 5 dB per wall.
    #[default]
    TgaxResidential,
    /// TGax scenario 2, enterprise: break point 10 m, 7 dB per wall.
    TgaxEnterprise,
}

impl PathLossModel {
    /// The break point d_BP, m.
    pub const fn break_point_m(self) -> f64 {
        match self {
            PathLossModel::TgaxResidential => 5.0,
            PathLossModel::TgaxEnterprise => 10.0,
        }
    }

    /// The loss of one wall, dB.
    pub const fn wall_loss_db(self) -> f64 {
        match self {
            PathLossModel::TgaxResidential => 5.0,
            PathLossModel::TgaxEnterprise => 7.0,
        }
    }

    /// PL(d) at `distance_m` through `walls` walls on a carrier of `frequency_mhz`, dB.
    pub fn path_loss_db(self, distance_m: f64, walls: u32, frequency_mhz: f64) -> f64 {
        let d = distance_m.max(1.0);
        let bp = self.break_point_m();
        let mut pl = 40.05 + 20.0 * (frequency_mhz / 2400.0).log10() + 20.0 * d.min(bp).log10();
        if d > bp {
            pl += 35.0 * (d / bp).log10();
        }
        pl + self.wall_loss_db() * f64::from(walls)
    }
}

/// The carrier the path loss is evaluated at: channel 6 (2437 MHz) in 2.4 GHz, channel
/// 36 (5180 MHz) in 5 GHz, channel 5 (5975 MHz, the first preferred scanning channel) in
/// 6 GHz (IEEE 802.11-2020 Annex E; 802.11ax-2021 26.17.2.3.3).
pub const fn center_frequency_mhz(band: Band) -> f64 {
    match band {
        Band::Ghz2_4 => 2437.0,
        Band::Ghz5 => 5180.0,
        Band::Ghz6 => 5975.0,
    }
}

/// Whether `mhz` is the centre frequency of a 20 MHz channel of `band`: in 2.4 GHz
/// 2407 + 5 n MHz for channels 1 to 13 and 2484 MHz for channel 14 (IEEE 802.11-2020
/// 15.4.4.3, 17.3.8.4.2); in 5 GHz 5000 + 5 n MHz, channels 32 to 177 (Annex E, the
/// global operating classes); in 6 GHz 5950 + 5 n MHz, channels 1, 5, ..., 233
/// (802.11ax-2021 27.3.23.2).
pub fn is_channel_mhz(band: Band, mhz: u32) -> bool {
    match band {
        Band::Ghz2_4 => (2412..=2472).contains(&mhz) && (mhz - 2407) % 5 == 0 || mhz == 2484,
        Band::Ghz5 => (5160..=5885).contains(&mhz) && mhz % 5 == 0,
        Band::Ghz6 => (5955..=7115).contains(&mhz) && (mhz - 5955) % 20 == 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn free_space_up_to_the_break_point() {
        let m = PathLossModel::TgaxResidential;
        // 1 m at 2.4 GHz is the model's anchor, 40.05 dB; closer is clamped to 1 m.
        assert!(close(m.path_loss_db(1.0, 0, 2400.0), 40.05));
        assert!(close(m.path_loss_db(0.2, 0, 2400.0), 40.05));
        // 20 dB per decade below d_BP: 5 m is 40.05 + 13.98.
        let five = 40.05 + 20.0 * 5f64.log10();
        assert!(close(m.path_loss_db(5.0, 0, 2400.0), five));
        // 35 dB per decade beyond it: 50 m adds 35 dB to 5 m.
        assert!(close(m.path_loss_db(50.0, 0, 2400.0), five + 35.0));
    }

    #[test]
    fn enterprise_breaks_later_and_walls_cost_more() {
        let e = PathLossModel::TgaxEnterprise;
        let r = PathLossModel::TgaxResidential;
        // 10 m: enterprise is still free space, residential 5 m free space + 3.5·log10(2).
        assert!(close(e.path_loss_db(10.0, 0, 2400.0), 60.05));
        let res = 40.05 + 20.0 * 5f64.log10() + 35.0 * 2f64.log10();
        assert!(close(r.path_loss_db(10.0, 0, 2400.0), res));
        assert!(close(
            e.path_loss_db(10.0, 2, 2400.0) - e.path_loss_db(10.0, 0, 2400.0),
            14.0
        ));
        assert!(close(
            r.path_loss_db(10.0, 2, 2400.0) - r.path_loss_db(10.0, 0, 2400.0),
            10.0
        ));
    }

    #[test]
    fn five_ghz_loses_6_7_db_more_than_2_4() {
        let m = PathLossModel::TgaxResidential;
        let five = center_frequency_mhz(Band::Ghz5);
        let two = center_frequency_mhz(Band::Ghz2_4);
        let gap = m.path_loss_db(20.0, 0, five) - m.path_loss_db(20.0, 0, two);
        assert!((gap - 20.0 * (5180f64 / 2437.0).log10()).abs() < 1e-9);
        assert!((gap - 6.55).abs() < 0.01, "{gap}");
        // A station 20 m away in a 5 GHz home: about 82 dB, 71 dB at 10 m.
        let pl = m.path_loss_db(20.0, 0, five);
        assert!((pl - 81.78).abs() < 0.01, "{pl}");
        let pl = m.path_loss_db(10.0, 0, five);
        assert!((pl - 71.25).abs() < 0.01, "{pl}");
    }

    #[test]
    fn channel_centres_follow_each_bands_numbering() {
        assert!(is_channel_mhz(Band::Ghz2_4, 2412) && is_channel_mhz(Band::Ghz2_4, 2484));
        assert!(!is_channel_mhz(Band::Ghz2_4, 2414) && !is_channel_mhz(Band::Ghz2_4, 2477));
        assert!(is_channel_mhz(Band::Ghz5, 5180) && is_channel_mhz(Band::Ghz5, 5745));
        assert!(!is_channel_mhz(Band::Ghz5, 2412) && !is_channel_mhz(Band::Ghz5, 5181));
        assert!(is_channel_mhz(Band::Ghz6, 5955) && is_channel_mhz(Band::Ghz6, 5975));
        assert!(!is_channel_mhz(Band::Ghz6, 5960) && !is_channel_mhz(Band::Ghz6, 7135));
        for band in [Band::Ghz2_4, Band::Ghz5, Band::Ghz6] {
            assert!(is_channel_mhz(band, center_frequency_mhz(band) as u32));
        }
    }
}
