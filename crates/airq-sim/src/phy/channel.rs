//! One station's radio channel to the AP: the path loss (a distance through a TGax model,
//! an attenuation in dB that may change during the run, or both in series), each end's
//! transmit power and the receiver's noise floor, giving the SNR of every PPDU and so the
//! error probability of each of its MPDUs ([`super::per`]).
//!
//! Defaults are those of the TGax simulation scenarios (IEEE 802.11-14/0980r16) as ns-3's
//! 802.11ax validation takes them: the AP transmits at 20 dBm and a station at 15 dBm,
//! both with 0 dBi antennas; receivers have a 7 dB noise figure
//! ([`super::noise::DEFAULT_NOISE_FIGURE_DB`]). The channel is reciprocal: the same loss
//! both ways, so the uplink is 5 dB worse than the downlink by default.

use super::attenuation::Attenuation;
use super::noise::{db_to_ratio, noise_floor_dbm, DEFAULT_NOISE_FIGURE_DB};
use super::path_loss::{center_frequency_mhz, PathLossModel};
use super::per::{noise_bandwidth_hz, ChunkErrors};
use airq::phy::{Band, Rate};
use airq::Instant;

/// The AP's default transmit power, dBm (TGax scenarios, 802.11-14/0980r16).
pub const DEFAULT_AP_TX_POWER_DBM: f64 = 20.0;

/// A station's default transmit power, dBm (TGax scenarios, 802.11-14/0980r16).
pub const DEFAULT_STATION_TX_POWER_DBM: f64 = 15.0;

/// BSS-wide radio parameters of the channel model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RadioParams {
    /// The AP's transmit power, dBm.
    pub ap_tx_power_dbm: f64,
    /// Every receiver's noise figure, dB.
    pub noise_figure_db: f64,
    /// The model of stations placed by distance.
    pub path_loss: PathLossModel,
    /// The channel's centre frequency, MHz; `None`: the band's
    /// [`center_frequency_mhz`]. The path loss is evaluated at it and a capture's
    /// radiotap Channel field says it.
    pub frequency_mhz: Option<u32>,
}

impl RadioParams {
    /// The channel's centre frequency in `band`, MHz.
    pub fn carrier_mhz(&self, band: Band) -> f64 {
        self.frequency_mhz
            .map_or(center_frequency_mhz(band), f64::from)
    }
}

impl Default for RadioParams {
    fn default() -> RadioParams {
        RadioParams {
            ap_tx_power_dbm: DEFAULT_AP_TX_POWER_DBM,
            noise_figure_db: DEFAULT_NOISE_FIGURE_DB,
            path_loss: PathLossModel::default(),
            frequency_mhz: None,
        }
    }
}

/// Where a station is: how far from the AP, through what.
#[derive(Clone, Debug, PartialEq)]
pub struct StationChannel {
    /// Distance to the AP, m, for the BSS's path loss model; `None` for none.
    pub distance_m: Option<f64>,
    /// Walls between it and the AP (with `distance_m`).
    pub walls: u32,
    /// Attenuation in series with the path loss (a cable and attenuator, or the whole
    /// loss when there is no distance).
    pub attenuation: Attenuation,
    /// Its transmit power, dBm.
    pub tx_power_dbm: f64,
}

impl StationChannel {
    /// A station behind a fixed `attenuation_db` of loss, at the default power.
    pub fn attenuated(attenuation_db: f64) -> StationChannel {
        StationChannel {
            distance_m: None,
            walls: 0,
            attenuation: Attenuation::constant(attenuation_db),
            tx_power_dbm: DEFAULT_STATION_TX_POWER_DBM,
        }
    }

    /// The loss between the station and the AP at `now` in `band`, dB.
    pub fn loss_db(&self, radio: &RadioParams, band: Band, now: Instant) -> f64 {
        let path = self.distance_m.map_or(0.0, |d| {
            radio
                .path_loss
                .path_loss_db(d, self.walls, radio.carrier_mhz(band))
        });
        path + self.attenuation.at(now)
    }

    /// The SNR, dB, of a PPDU at `rate` sent at `now`, by the station (`uplink`) or to it.
    pub fn snr_db(
        &self,
        radio: &RadioParams,
        band: Band,
        rate: &Rate,
        uplink: bool,
        now: Instant,
    ) -> f64 {
        let tx = if uplink {
            self.tx_power_dbm
        } else {
            radio.ap_tx_power_dbm
        };
        let rx = tx - self.loss_db(radio, band, now);
        rx - noise_floor_dbm(noise_bandwidth_hz(rate), radio.noise_figure_db)
    }

    /// The error model of a PPDU at `rate` sent at `now`.
    pub fn chunk_errors(
        &self,
        radio: &RadioParams,
        band: Band,
        rate: &Rate,
        uplink: bool,
        now: Instant,
    ) -> ChunkErrors {
        let snr_db = self.snr_db(radio, band, rate, uplink, now);
        ChunkErrors::new(rate, db_to_ratio(snr_db))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval};

    fn mcs7(width: ChannelWidth) -> Rate {
        Rate::ht(7, width, GuardInterval::Long).unwrap()
    }

    #[test]
    fn snr_is_power_minus_loss_minus_noise_floor() {
        let radio = RadioParams::default();
        let ch = StationChannel::attenuated(60.0);
        let rate = mcs7(ChannelWidth::Mhz20);
        // Down: 20 dBm - 60 dB = -40 dBm over a -93.97 dBm floor.
        let down = ch.snr_db(&radio, Band::Ghz5, &rate, false, Instant::ZERO);
        assert!((down - 53.965).abs() < 0.001, "{down}");
        // Up: 5 dB less power.
        let up = ch.snr_db(&radio, Band::Ghz5, &rate, true, Instant::ZERO);
        assert!((down - up - 5.0).abs() < 1e-9);
        // 40 MHz: 3 dB more noise.
        let wide = ch.snr_db(
            &radio,
            Band::Ghz5,
            &mcs7(ChannelWidth::Mhz40),
            false,
            Instant::ZERO,
        );
        assert!((down - wide - 3.0103).abs() < 1e-4);
    }

    #[test]
    fn distance_and_attenuation_add_up() {
        let radio = RadioParams::default();
        let mut ch = StationChannel::attenuated(10.0);
        ch.distance_m = Some(10.0);
        ch.walls = 1;
        let loss = ch.loss_db(&radio, Band::Ghz5, Instant::ZERO);
        let pl = PathLossModel::TgaxResidential.path_loss_db(10.0, 1, 5180.0);
        assert!((loss - pl - 10.0).abs() < 1e-9);
    }

    /// The path loss follows the channel's frequency: free space, 20 log10(f) dB.
    #[test]
    fn a_higher_channel_loses_more() {
        let mut ch = StationChannel::attenuated(0.0);
        ch.distance_m = Some(3.0);
        let default = RadioParams::default();
        let ch165 = RadioParams {
            frequency_mhz: Some(5825),
            ..default
        };
        assert_eq!(default.carrier_mhz(Band::Ghz5), 5180.0);
        let gap = ch.loss_db(&ch165, Band::Ghz5, Instant::ZERO)
            - ch.loss_db(&default, Band::Ghz5, Instant::ZERO);
        assert!(
            (gap - 20.0 * (5825f64 / 5180.0).log10()).abs() < 1e-9,
            "{gap}"
        );
    }

    #[test]
    fn mcs7_at_20_mhz_fails_near_90_db_of_loss() {
        // 20 dBm against a -94 dBm floor leaves 114 dB; 64-QAM 5/6 needs about 24 dB, so
        // the link should fail between 85 and 95 dB of loss (a home's 20-30 m).
        let radio = RadioParams::default();
        let rate = mcs7(ChannelWidth::Mhz20);
        let per = |loss: f64| {
            StationChannel::attenuated(loss)
                .chunk_errors(&radio, Band::Ghz5, &rate, false, Instant::ZERO)
                .mpdu_error(1538)
        };
        assert!(per(80.0) < 1e-6, "{}", per(80.0));
        assert!(per(88.0) < 0.05, "{}", per(88.0));
        assert!(per(92.0) > 0.95, "{}", per(92.0));
    }
}
