//! `[[station]]` tables → stations: names expanded for `count`, each PHY rate built and
//! checked by `airq::phy` against the IEEE 802.11-2020 rate tables (HT Clause 19, VHT
//! Clause 21, HE 802.11ax-2021 Clause 27), and only the keys that make sense for the
//! station's standard accepted.

use super::file::{StandardName, StationSection};
use super::location::{KeyPath, SourceMap};
use crate::error::CliError;
use airq::phy::{Band, ChannelWidth, DsssPreamble, GuardInterval, HeGi, PhyKind, Rate};
use airq_sim::mac::link::StationLink;

/// One station of the BSS, as the simulator and the results name it.
#[derive(Clone, Debug, PartialEq)]
pub struct Station {
    /// Its name (`count` groups expanded: `fast1`).
    pub name: String,
    /// Its link: rate, error rate, aggregation.
    pub link: StationLink,
    /// Its own airtime weight, µs, if not the scheduler's default.
    pub weight_us: Option<u32>,
    /// The `[[ap.group]]` it is in.
    pub group: Option<String>,
    /// Which `[[station]]` table it came from.
    pub table: usize,
}

/// Most stations a scenario may have.
pub const MAX_STATIONS: usize = u16::MAX as usize;

/// Every station of the scenario, in file order, `count` groups expanded (`fast1`,
/// `fast2`, ...).
pub fn expand(
    sections: &[StationSection],
    band: Band,
    map: &SourceMap,
) -> Result<Vec<Station>, CliError> {
    if sections.is_empty() {
        return Err(CliError::new(format!(
            "{}: the scenario has no stations: add at least one [[station]] table",
            map.file()
        )));
    }
    let mut stations: Vec<Station> = Vec::new();
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (i, s) in sections.iter().enumerate() {
        let path = KeyPath::entry("station", i);
        let at = |key: &str, why: String| map.error_at(&path.join(key), why);
        if s.name.is_empty() || s.name.contains(char::is_whitespace) {
            return Err(at("name", "a station name is one word".into()));
        }
        let rate = rate(s, band).map_err(|(key, why)| at(key, why))?;
        let mut link = StationLink::new(rate);
        if let Some(fer) = s.frame_error_rate {
            if !(0.0..1.0).contains(&fer) {
                return Err(at(
                    "frame_error_rate",
                    format!("must be at least 0 and below 1, got {fer}"),
                ));
            }
            link.mpdu_error = fer;
        }
        if let Some(w) = s.weight {
            if w == 0 || w > airq::airtime::AirtimeParams::MAX_WEIGHT_US {
                return Err(at("weight", format!("must be 1 to 65535 us, got {w}")));
            }
        }
        let count = s.count.unwrap_or(1);
        if count == 0 {
            return Err(at("count", "must be at least 1".into()));
        }
        // Bounded before anything is made of it.
        if stations.len() as u64 + u64::from(count) > MAX_STATIONS as u64 {
            return Err(at(
                "count",
                format!(
                    "{count} more stations after {} make more than the {MAX_STATIONS} a \
                     scenario may have",
                    stations.len()
                ),
            ));
        }
        for n in 1..=count {
            let name = if s.count.is_none() {
                s.name.clone()
            } else {
                format!("{}{n}", s.name)
            };
            if !names.insert(name.clone()) {
                return Err(at("name", format!("a second station named `{name}`")));
            }
            stations.push(Station {
                name,
                link: link.clone(),
                weight_us: s.weight,
                group: s.group.clone(),
                table: i,
            });
        }
    }
    Ok(stations)
}

type KeyError = (&'static str, String);

/// The station's rate, or the key at fault and why.
fn rate(s: &StationSection, band: Band) -> Result<Rate, KeyError> {
    let standard = s.standard;
    let refuse = |key: &'static str, given: bool| -> Result<(), KeyError> {
        if given {
            return Err((
                key,
                format!("does not apply to {} stations", standard_name(standard)),
            ));
        }
        Ok(())
    };
    let legacy = matches!(standard, StandardName::Dsss | StandardName::Ofdm);
    if legacy {
        refuse("mcs", s.mcs.is_some())?;
        refuse("width", s.width.is_some())?;
        refuse("gi", s.gi.is_some())?;
        refuse("streams", s.streams.is_some())?;
    } else {
        refuse("rate_mbps", s.rate_mbps.is_some())?;
    }
    if standard != StandardName::Dsss {
        refuse("preamble", s.preamble.is_some())?;
    }
    let allowed_bands: &[Band] = match standard {
        StandardName::Dsss => &[Band::Ghz2_4],
        StandardName::Ofdm | StandardName::Ht => &[Band::Ghz2_4, Band::Ghz5],
        StandardName::Vht => &[Band::Ghz5],
        StandardName::He => &[Band::Ghz2_4, Band::Ghz5, Band::Ghz6],
    };
    if !allowed_bands.contains(&band) {
        let band = match band {
            Band::Ghz2_4 => "2.4GHz",
            Band::Ghz5 => "5GHz",
            Band::Ghz6 => "6GHz",
        };
        return Err((
            "standard",
            format!(
                "{} stations cannot operate in the {band} band of the BSS (see [bss] band)",
                standard_name(standard)
            ),
        ));
    }
    let phy = |e: airq::phy::PhyError| e.to_string();
    if legacy {
        let mbps = s.rate_mbps.ok_or((
            "rate_mbps",
            "required for a legacy station (e.g. 11 or 54)".to_string(),
        ))?;
        let kbps = (mbps * 1000.0).round();
        if !(1.0..=1e6).contains(&kbps) || (kbps - mbps * 1000.0).abs() > 1e-6 {
            return Err(("rate_mbps", format!("{mbps} Mbit/s is not a legacy rate")));
        }
        let preamble = match s.preamble.as_deref() {
            None | Some("long") => DsssPreamble::Long,
            Some("short") => DsssPreamble::Short,
            Some(p) => return Err(("preamble", format!("`{p}`: expected `long` or `short`"))),
        };
        let rate = Rate::legacy_kbps(kbps as u32, preamble).map_err(|e| ("rate_mbps", phy(e)))?;
        let want = if standard == StandardName::Dsss {
            PhyKind::Dsss
        } else {
            PhyKind::Ofdm
        };
        if rate.phy_kind() != want {
            return Err((
                "rate_mbps",
                format!("{mbps} Mbit/s is a {} rate, not {want}", rate.phy_kind()),
            ));
        }
        return Ok(rate);
    }
    let mcs = s
        .mcs
        .ok_or(("mcs", "required for an HT, VHT or HE station".to_string()))?;
    let width = ChannelWidth::from_mhz(s.width.unwrap_or(20)).map_err(|e| ("width", phy(e)))?;
    match standard {
        StandardName::Ht => {
            let rate = Rate::ht(mcs, width, ht_gi(s)?).map_err(|e| ("mcs", phy(e)))?;
            if let Some(streams) = s.streams {
                if streams != rate.nss() {
                    let first = (rate.nss() - 1) * 8;
                    return Err((
                        "streams",
                        format!(
                            "HT MCS {mcs} is a {}-stream MCS (MCS {first} to {}), but streams = {streams}",
                            rate.nss(),
                            first + 7
                        ),
                    ));
                }
            }
            Ok(rate)
        }
        StandardName::Vht => Rate::vht(mcs, s.streams.unwrap_or(1), width, ht_gi(s)?)
            .map_err(|e| (vht_he_key(&e), phy(e))),
        StandardName::He => {
            let gi = match s.gi.as_deref() {
                None | Some("0.8") => HeGi::Gi0_8,
                Some("1.6") => HeGi::Gi1_6,
                Some("3.2") => HeGi::Gi3_2,
                Some(g) => {
                    return Err((
                        "gi",
                        format!("`{g}`: an HE guard interval is 0.8, 1.6 or 3.2"),
                    ))
                }
            };
            Rate::he(mcs, s.streams.unwrap_or(1), width, gi).map_err(|e| (vht_he_key(&e), phy(e)))
        }
        StandardName::Dsss | StandardName::Ofdm => unreachable!("legacy handled above"),
    }
}

fn standard_name(s: StandardName) -> &'static str {
    match s {
        StandardName::Dsss => "DSSS",
        StandardName::Ofdm => "OFDM",
        StandardName::Ht => "HT",
        StandardName::Vht => "VHT",
        StandardName::He => "HE",
    }
}

fn ht_gi(s: &StationSection) -> Result<GuardInterval, KeyError> {
    match s.gi.as_deref() {
        None | Some("long") => Ok(GuardInterval::Long),
        Some("short") => Ok(GuardInterval::Short),
        Some(g) => Err(("gi", format!("`{g}`: expected `long` or `short`"))),
    }
}

/// The key a VHT or HE rate error is about.
fn vht_he_key(e: &airq::phy::PhyError) -> &'static str {
    use airq::phy::PhyError as E;
    match e {
        E::SpatialStreamsOutOfRange { .. } => "streams",
        E::ChannelWidthNotSupported { .. } | E::UnknownChannelWidth { .. } => "width",
        E::HeLtfGiNotAllowed { .. } => "gi",
        _ => "mcs",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(standard: StandardName) -> StationSection {
        StationSection {
            name: "s".into(),
            count: None,
            standard,
            mcs: None,
            width: None,
            gi: None,
            streams: None,
            rate_mbps: None,
            preamble: None,
            frame_error_rate: None,
            weight: None,
            group: None,
        }
    }

    #[test]
    fn legacy_rates_are_the_standards() {
        let mut s = section(StandardName::Dsss);
        s.rate_mbps = Some(5.5);
        s.preamble = Some("short".into());
        assert_eq!(rate(&s, Band::Ghz2_4).unwrap().data_rate_kbps(), 5_500);
        s.rate_mbps = Some(54.0);
        assert_eq!(
            rate(&s, Band::Ghz2_4).unwrap_err(),
            ("rate_mbps", "54 Mbit/s is a OFDM rate, not DSSS/CCK".into())
        );
        let mut s = section(StandardName::Ofdm);
        s.rate_mbps = Some(24.0);
        assert_eq!(rate(&s, Band::Ghz5).unwrap().data_rate_kbps(), 24_000);
        s.rate_mbps = Some(22.0);
        assert_eq!(rate(&s, Band::Ghz5).unwrap_err().0, "rate_mbps");
    }

    #[test]
    fn vht_and_he_take_streams_width_and_gi() {
        let mut s = section(StandardName::Vht);
        (s.mcs, s.streams, s.width, s.gi) = (Some(9), Some(2), Some(80), Some("short".into()));
        // IEEE 802.11-2020 Table 21-37 (80 MHz, NSS 2): MCS 9 short GI is 866.7 Mbit/s.
        assert_eq!(rate(&s, Band::Ghz5).unwrap().data_rate_kbps(), 866_666);
        s.width = Some(20);
        assert_eq!(
            rate(&s, Band::Ghz5).unwrap_err().0,
            "mcs",
            "MCS 9 is excluded at 20 MHz, NSS 2"
        );
        let mut s = section(StandardName::He);
        (s.mcs, s.width, s.gi) = (Some(11), Some(80), Some("0.8".into()));
        // IEEE 802.11ax-2021 Table 27-105 (80 MHz, NSS 1, 0.8 µs GI): 600.4 Mbit/s.
        assert_eq!(rate(&s, Band::Ghz6).unwrap().data_rate_kbps(), 600_441);
        s.gi = Some("0.4".into());
        assert_eq!(rate(&s, Band::Ghz6).unwrap_err().0, "gi");
    }
}
