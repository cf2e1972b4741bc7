//! `[bss]`'s channel-model keys → [`RadioParams`]: the AP's transmit power, the
//! receivers' noise figure and the path loss model of stations placed by distance
//! (`airq_sim::phy`). They matter only to stations with `distance_m` or
//! `attenuation_db`.

use super::file::{BssSection, PathLossName};
use super::location::{KeyPath, SourceMap};
use crate::error::CliError;
use airq_sim::phy::channel::RadioParams;
use airq_sim::phy::path_loss::PathLossModel;

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
    Ok(radio)
}
