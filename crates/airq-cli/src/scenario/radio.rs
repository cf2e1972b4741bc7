//! `[bss]`'s channel-model keys → [`RadioParams`]: the AP's transmit power, the
//! receivers' noise figure, the path loss model of stations placed by distance
//! (`airq_sim::phy`) and the channel's frequency. They matter only to stations with
//! `distance_m` or `attenuation_db`, and the frequency to captures (`--pcap`).

use super::file::{BandName, BssSection, PathLossName};
use super::location::{KeyPath, SourceMap};
use crate::error::CliError;
use airq::phy::Band;
use airq_sim::phy::channel::RadioParams;
use airq_sim::phy::path_loss::{is_channel_mhz, PathLossModel};

/// The BSS's radio parameters, defaults where a key is not given.
pub fn radio(bss: &BssSection, map: &SourceMap) -> Result<RadioParams, CliError> {
    let at = |key: &str, why: String| map.error_at(&KeyPath::key("bss").join(key), why);
    let mut radio = RadioParams::default();
    if let Some(p) = bss.ap_tx_power_dbm {
        if !(-30.0..=40.0).contains(&p) {
            return Err(at(
                "ap_tx_power_dbm",
                format!("must be -30 to 40 dBm, got {p}"),
            ));
        }
        radio.ap_tx_power_dbm = p;
    }
    if let Some(nf) = bss.noise_figure_db {
        if !(0.0..=30.0).contains(&nf) {
            return Err(at(
                "noise_figure_db",
                format!("must be 0 to 30 dB, got {nf}"),
            ));
        }
        radio.noise_figure_db = nf;
    }
    if let Some(model) = bss.path_loss {
        radio.path_loss = match model {
            PathLossName::TgaxResidential => PathLossModel::TgaxResidential,
            PathLossName::TgaxEnterprise => PathLossModel::TgaxEnterprise,
        };
    }
    if let Some(mhz) = bss.frequency_mhz {
        let band = match bss.band {
            BandName::Ghz2_4 => Band::Ghz2_4,
            BandName::Ghz5 => Band::Ghz5,
            BandName::Ghz6 => Band::Ghz6,
        };
        if !is_channel_mhz(band, mhz) {
            return Err(at(
                "frequency_mhz",
                format!(
                    "{mhz} MHz is not a 20 MHz channel's centre in the {} band: 2412 to 2472 \
                     in steps of 5, or 2484 (2.4GHz); 5160 to 5885 in steps of 5 (5GHz); \
                     5955 to 7115 in steps of 20 (6GHz)",
                    band_name(band)
                ),
            ));
        }
        radio.frequency_mhz = Some(mhz);
    }
    Ok(radio)
}

fn band_name(band: Band) -> &'static str {
    match band {
        Band::Ghz2_4 => "2.4GHz",
        Band::Ghz5 => "5GHz",
        Band::Ghz6 => "6GHz",
    }
}
