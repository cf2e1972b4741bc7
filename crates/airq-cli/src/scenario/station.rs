//! `[[station]]` tables → stations: names expanded for `count`, each PHY rate built and
//! checked by `airq::phy` against the IEEE 802.11-2020 rate tables (HT Clause 19, VHT
//! Clause 21, HE 802.11ax-2021 Clause 27), and only the keys that make sense for the
//! station's standard accepted; a station with `distance_m` or `attenuation_db` gets a
//! channel (`airq_sim::phy::channel`) whose SNR decides its errors.

use super::file::{
    AttenuationChangeName, AttenuationDb, RateControlName, StandardName, StationQueueName,
    StationSection,
};
use super::location::{KeyPath, SourceMap};
use super::units;
use crate::error::CliError;
use airq::fq::FqParams;
use airq::phy::{Band, ChannelWidth, DsssPreamble, GuardInterval, HeGi, PhyKind, Rate};
use airq::Instant;
use airq_sim::mac::link::StationLink;
use airq_sim::mac::rate_control::groups::RateTable;
use airq_sim::mac::rate_control::minstrel_ht::MinstrelHtParams;
use airq_sim::mac::rate_control::RateControlConfig;
use airq_sim::phy::attenuation::{Attenuation, AttenuationChange, AttenuationError};
use airq_sim::phy::channel::StationChannel;
use airq_sim::station::StationQueue;

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
    /// Its own queues for its uplink.
    pub queue: StationQueue,
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
        if s.qos == Some(false) {
            link.qos = false;
            link.ampdu = false;
        }
        link.rate_control = rate_control(s, &rate).map_err(|(key, why)| at(key, why))?;
        link.channel = channel(s).map_err(|(key, why)| at(key, why))?;
        if link.channel.is_some() && s.frame_error_rate.is_some() {
            return Err(at(
                "frame_error_rate",
                "a station with distance_m or attenuation_db takes its errors from the \
                 channel model: give one or the other"
                    .into(),
            ));
        }
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
        let queue = station_queue(s.queue, &rate);
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
                queue: queue.clone(),
                table: i,
            });
        }
    }
    Ok(stations)
}

type KeyError = (&'static str, String);

/// Whether a radio at `rate` has VHT: one at a VHT or HE rate has, one at an older rate
/// is taken not to (the seeds' ath9k, HT only).
pub fn has_vht(rate: &Rate) -> bool {
    matches!(rate, Rate::Vht(_) | Rate::He(_))
}

/// The station's queues: FQ-MAC with mac80211's defaults, whose memory limit is 4 MiB
/// on hardware without VHT (`ieee80211_txq_setup_flows`).
fn station_queue(name: Option<StationQueueName>, rate: &Rate) -> StationQueue {
    match name {
        None | Some(StationQueueName::Fifo) => StationQueue::Fifo,
        Some(StationQueueName::FqMac) => StationQueue::FqMac(if has_vht(rate) {
            FqParams::default()
        } else {
            FqParams::mac80211_non_vht()
        }),
    }
}

/// The link's rate control; Minstrel-HT only where Linux's runs (HT and VHT groups).
fn rate_control(s: &StationSection, rate: &Rate) -> Result<RateControlConfig, KeyError> {
    match s.rate_control {
        None | Some(RateControlName::Fixed) => Ok(RateControlConfig::Fixed),
        Some(RateControlName::MinstrelHt) => {
            RateTable::new(rate).map_err(|e| ("rate_control", e.0.to_string()))?;
            Ok(RateControlConfig::MinstrelHt(MinstrelHtParams::default()))
        }
    }
}

/// Most attenuation or path loss a key may give, dB.
const MAX_LOSS_DB: f64 = 250.0;

/// The station's channel ([`airq_sim::phy::channel`]), if it has a distance or an
/// attenuation; the keys that need one refused without.
fn channel(s: &StationSection) -> Result<Option<StationChannel>, KeyError> {
    if s.distance_m.is_none() && s.attenuation_db.is_none() {
        for (key, given) in [
            ("walls", s.walls.is_some()),
            ("tx_power_dbm", s.tx_power_dbm.is_some()),
            ("attenuation_change", s.attenuation_change.is_some()),
        ] {
            if given {
                return Err((
                    key,
                    "needs the channel model: give distance_m or attenuation_db".into(),
                ));
            }
        }
        return Ok(None);
    }
    let mut channel = StationChannel::attenuated(0.0);
    if let Some(d) = s.distance_m {
        if !(d > 0.0 && d <= 10_000.0) {
            return Err((
                "distance_m",
                format!("must be above 0 and at most 10000 m, got {d}"),
            ));
        }
        channel.distance_m = Some(d);
    }
    if let Some(w) = s.walls {
        if channel.distance_m.is_none() {
            return Err((
                "walls",
                "counts walls along distance_m: give distance_m".into(),
            ));
        }
        if w > 100 {
            return Err(("walls", format!("must be 0 to 100, got {w}")));
        }
        channel.walls = w;
    }
    let db_ok = |db: f64| (0.0..=MAX_LOSS_DB).contains(&db);
    let change = match s.attenuation_change {
        None | Some(AttenuationChangeName::Step) => AttenuationChange::Step,
        Some(AttenuationChangeName::Ramp) => AttenuationChange::Ramp,
    };
    match &s.attenuation_db {
        None => {}
        Some(AttenuationDb::Constant(db)) => {
            if !db_ok(*db) {
                return Err((
                    "attenuation_db",
                    format!("must be 0 to {MAX_LOSS_DB} dB, got {db}"),
                ));
            }
            if s.attenuation_change.is_some() {
                return Err((
                    "attenuation_change",
                    "applies to an attenuation schedule ([[time_s, dB], ...])".into(),
                ));
            }
            channel.attenuation = Attenuation::constant(*db);
        }
        Some(AttenuationDb::Schedule(points)) => {
            if points.is_empty() {
                return Err((
                    "attenuation_db",
                    "an empty schedule: give [[time_s, dB], ...] or a number".into(),
                ));
            }
            let mut at = Vec::with_capacity(points.len());
            for (i, &(t, db)) in points.iter().enumerate() {
                if !(0.0..=1e7).contains(&t) {
                    return Err((
                        "attenuation_db",
                        format!("point {}: the time must be 0 to 1e7 s, got {t}", i + 1),
                    ));
                }
                if !db_ok(db) {
                    return Err((
                        "attenuation_db",
                        format!("point {}: must be 0 to {MAX_LOSS_DB} dB, got {db}", i + 1),
                    ));
                }
                at.push((Instant::ZERO + units::from_secs(t), db));
            }
            channel.attenuation = Attenuation::schedule(at, change).map_err(|e| {
                let why = match e {
                    AttenuationError::NotIncreasing { index } => format!(
                        "point {}: the times must increase ({} s after {} s)",
                        index + 1,
                        points[index].0,
                        points[index - 1].0
                    ),
                    AttenuationError::Empty => "an empty schedule".to_string(),
                };
                ("attenuation_db", why)
            })?;
        }
    }
    if let Some(p) = s.tx_power_dbm {
        if !(-30.0..=40.0).contains(&p) {
            return Err(("tx_power_dbm", format!("must be -30 to 40 dBm, got {p}")));
        }
        channel.tx_power_dbm = p;
    }
    Ok(Some(channel))
}

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
            distance_m: None,
            walls: None,
            attenuation_db: None,
            attenuation_change: None,
            tx_power_dbm: None,
            rate_control: None,
            queue: None,
            weight: None,
            group: None,
            qos: None,
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
