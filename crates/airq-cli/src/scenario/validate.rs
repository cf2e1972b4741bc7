//! The scenario's own values checked: name, durations, `[bss]`, `[wired]`; stations,
//! traffic and the AP are checked by their own modules.

use super::file::{ApEdcaName, BandName, ProtectionName, ScenarioFile, TimingName};
use super::location::{KeyPath, SourceMap};
use super::{station, traffic, units, variant, ApSpec, Scenario};
use crate::error::CliError;
use airq::phy::{Band, PhyKind};
use airq::Duration;
use airq_sim::bss::WiredLink;
use airq_sim::mac::basic_rates::BasicRateSet;
use airq_sim::mac::link::BssConfig;
use airq_sim::mac::protection::Protection;
use airq_sim::mac::timing::MacTiming;

/// Fastest wired link, Mbit/s (1 Tbit/s).
pub const MAX_WIRED_MBPS: f64 = 1e6;

/// Longest one-way wired delay (each of `delay_ms` and `extra_delay_ms`), ms: ten
/// seconds, far beyond a geostationary hop.
pub const MAX_WIRED_DELAY_MS: f64 = 10_000.0;

/// Longest scenario name: it starts every file name a run writes.
pub const MAX_NAME_LEN: usize = 64;

/// Most simulator flows a scenario may make.
pub const MAX_FLOWS: u64 = 1_000_000;

/// Most steps of the time series.
pub const MAX_SAMPLES: u64 = 1_000_000;

/// Most values the time series may hold (about 8 bytes each).
pub const MAX_SERIES_VALUES: u64 = 100_000_000;

/// Checks `raw` and builds the scenario.
pub fn validate(
    raw: ScenarioFile,
    file: &str,
    text: &str,
    overrides: &[String],
    map: &SourceMap,
) -> Result<Scenario, CliError> {
    let at = |path: KeyPath, why: String| map.error_at(&path, why);
    if raw.name.is_empty()
        || raw.name.len() > MAX_NAME_LEN
        || !raw
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(at(
            KeyPath::key("name"),
            format!(
                "names the results files: 1 to {MAX_NAME_LEN} letters, digits, `-`, `_` and \
                 `.`"
            ),
        ));
    }
    let duration = seconds(raw.duration).map_err(|why| at(KeyPath::key("duration"), why))?;
    let step = seconds(raw.step.unwrap_or(0.2)).map_err(|why| at(KeyPath::key("step"), why))?;
    if step > duration {
        return Err(at(
            KeyPath::key("step"),
            format!("the step ({step}) is longer than the run ({duration})"),
        ));
    }
    let omit = match raw.omit.filter(|&s| s != 0.0) {
        None => Duration::ZERO,
        Some(s) => {
            let omit = seconds(s).map_err(|why| {
                let why = match s < 0.0 {
                    true => format!("must be 0 s (no warm-up) to 1e7 s, got {s}"),
                    false => why,
                };
                at(KeyPath::key("omit"), why)
            })?;
            if omit >= duration {
                return Err(at(
                    KeyPath::key("omit"),
                    format!("the warm-up ({omit}) must end before the run ({duration})"),
                ));
            }
            omit
        }
    };
    let seeds = raw.seeds.unwrap_or(1);
    if !(1..=1000).contains(&seeds) {
        return Err(at(
            KeyPath::key("seeds"),
            format!("must be 1 to 1000, got {seeds}"),
        ));
    }
    let bss_path = KeyPath::key("bss");
    let band = match raw.bss.band {
        BandName::Ghz2_4 => Band::Ghz2_4,
        BandName::Ghz5 => Band::Ghz5,
        BandName::Ghz6 => Band::Ghz6,
    };
    let stations = station::expand(&raw.station, band, map)?;
    let (mut bss, derived_timing) = bss_timing(raw.bss.timing, band, &stations)
        .map_err(|why| at(bss_path.join("timing"), why))?;
    bss.rts_cts = raw.bss.rts_cts.unwrap_or(false);
    let (protection, protection_note) = bss_protection(raw.bss.protection, band, &stations)
        .map_err(|why| at(bss_path.join("protection"), why))?;
    bss.protection = protection;
    if raw.bss.ap_edca == Some(ApEdcaName::Station) {
        bss.ap_edca = None;
    }
    if let Some(rates) = &raw.bss.basic_rates_mbps {
        bss.basic_rates =
            basic_rates(rates, band).map_err(|why| at(bss_path.join("basic_rates_mbps"), why))?;
        bss.beacon_rate = bss.basic_rates.lowest();
    }
    bss.radio = super::radio::radio(&raw.bss, map)?;
    if raw.bss.beacons == Some(false) {
        bss.beacon_interval = None;
    }
    if let Some(r) = raw.bss.retry_limit {
        if r == 0 {
            return Err(at(
                bss_path.join("retry_limit"),
                "must be at least 1".into(),
            ));
        }
        // One limit for every MPDU, aggregated or not, as before the two had sources.
        bss.retry_limit = r;
        bss.ampdu_retry_limit = r;
    }
    if let Some(us) = raw.bss.max_aggregate_airtime_us {
        if us == 0 {
            return Err(at(
                bss_path.join("max_aggregate_airtime_us"),
                "must be above 0".into(),
            ));
        }
        bss.max_aggregate_airtime = Duration::from_micros(u64::from(us));
    }
    if raw.bss.station_queue_packets == Some(0) {
        return Err(at(
            bss_path.join("station_queue_packets"),
            "must be at least 1".into(),
        ));
    }
    let wired = wired(&raw, map)?;
    let traffic = raw
        .traffic
        .iter()
        .enumerate()
        .map(|(i, t)| traffic::validate(t, i, &stations, duration, &wired, map))
        .collect::<Result<Vec<_>, _>>()?;
    // Sizes bounded before anything is made of them: the flows, and the samples of the
    // time series.
    let mut flows = 0u64;
    for (i, t) in traffic.iter().enumerate() {
        flows += t.flow_count();
        if flows > MAX_FLOWS {
            return Err(at(
                KeyPath::entry("traffic", i).join("flows"),
                format!("the traffic makes more than {MAX_FLOWS} flows in all ({flows} so far)"),
            ));
        }
    }
    let samples = duration.as_nanos() / step.as_nanos().max(1);
    // Per step: bytes and airtime per station (the uplink airtime too), bytes, TCP
    // window and RTT per flow.
    let values = samples.saturating_mul(3 * stations.len() as u64 + 3 * flows);
    if samples > MAX_SAMPLES || values > MAX_SERIES_VALUES {
        return Err(at(
            KeyPath::key("step"),
            format!(
                "{samples} steps of the time series x {} stations and {flows} flows are too \
                 many to keep (at most {MAX_SAMPLES} steps and {MAX_SERIES_VALUES} values): \
                 take a longer step",
                stations.len()
            ),
        ));
    }
    if traffic.is_empty() {
        return Err(CliError::new(format!(
            "{file}: the scenario has no traffic: add a [[traffic]] table (e.g. test = \"udp_flood\")"
        )));
    }
    let ap = ApSpec::new(&raw.ap, &stations, map)?;
    let variants = variant::check_all(&raw.variant, map)?;
    Ok(Scenario {
        name: raw.name,
        description: raw.description,
        path: file.to_string(),
        text: text.to_string(),
        overrides: overrides.to_vec(),
        duration,
        step,
        omit,
        seed: raw.seed.unwrap_or(1),
        seeds,
        bss,
        derived_timing,
        protection_note,
        station_queue_packets: raw.bss.station_queue_packets,
        wired,
        stations,
        traffic,
        ap,
        variants,
    })
}

fn wired(raw: &ScenarioFile, map: &SourceMap) -> Result<WiredLink, CliError> {
    let path = KeyPath::key("wired");
    let w = &raw.wired;
    let mut link = WiredLink::default();
    if let Some(mbps) = w.rate_mbps {
        if !(mbps > 0.0 && mbps <= MAX_WIRED_MBPS) || units::bps_from_mbps(mbps) == 0 {
            return Err(map.error_at(
                &path.join("rate_mbps"),
                format!("must be above 0 (1 bit/s at least) and at most {MAX_WIRED_MBPS} Mbit/s, got {mbps}"),
            ));
        }
        link.rate_bps = units::bps_from_mbps(mbps);
    }
    let ms = |key: &str, v: Option<f64>| -> Result<Option<Duration>, CliError> {
        let Some(ms) = v else { return Ok(None) };
        if !(0.0..=MAX_WIRED_DELAY_MS).contains(&ms) {
            return Err(map.error_at(
                &path.join(key),
                format!("must be 0 to {MAX_WIRED_DELAY_MS} ms (10 s), got {ms}"),
            ));
        }
        Ok(Some(units::from_ms(ms)))
    };
    let delay = ms("delay_ms", w.delay_ms)?.unwrap_or(link.delay);
    link.delay = delay + ms("extra_delay_ms", w.extra_delay_ms)?.unwrap_or(Duration::ZERO);
    Ok(link)
}

/// A positive, finite number of seconds.
fn seconds(s: f64) -> Result<Duration, String> {
    if !(s > 0.0 && s.is_finite() && s <= 1e7) {
        return Err(format!(
            "must be above 0 s and at most 1e7 s (116 days), got {s}"
        ));
    }
    let d = units::from_secs(s);
    if d == Duration::ZERO {
        return Err(format!("{s} s is below a nanosecond"));
    }
    Ok(d)
}

/// The BSS's MAC timing: the `timing` key's if set, else what its stations' standards
/// call for, with a note saying what was derived (`None` for the plain OFDM default).
/// In 2.4 GHz a BSS of 802.11b (DSSS/CCK) stations only runs 802.11b timing (Table 16-4:
/// 20 µs slot; aCWmin 31); a BSS with some 802.11b stations among ERP/HT/HE ones keeps
/// OFDM's aCWmin but uses the long slot, since the short slot is only for a BSS whose
/// every station supports it (IEEE 802.11-2020 Clause 18, ERP characteristics; hostapd
/// counts the stations without short slot time, `num_sta_no_short_slot_time`, and
/// turns it off while there are any). ERP protection (10.26) is not modelled.
/// A `basic_rates_mbps` list as a BSSBasicRateSet: legacy rates only (DSSS/HR-DSSS 1, 2,
/// 5.5, 11 and OFDM 6 to 54 Mbit/s), DSSS ones in the 2.4 GHz band only.
fn basic_rates(rates: &[f64], band: Band) -> Result<BasicRateSet, String> {
    const LEGAL: &str = "1, 2, 5.5, 11 (2.4GHz only), 6, 9, 12, 18, 24, 36, 48, 54";
    let mut kbps = Vec::with_capacity(rates.len());
    for &mbps in rates {
        let k = (mbps * 1000.0).round();
        let whole = k.is_finite() && (k - mbps * 1000.0).abs() < 1e-6 && (1.0..1e6).contains(&k);
        if !whole || BasicRateSet::from_kbps(&[k as u32]).is_none() {
            return Err(format!("{mbps} Mbit/s is not a basic rate: one of {LEGAL}"));
        }
        if band != Band::Ghz2_4 && matches!(k as u32, 1000 | 2000 | 5500 | 11000) {
            return Err(format!(
                "{mbps} Mbit/s is a DSSS/HR-DSSS rate, which only the 2.4GHz band has"
            ));
        }
        kbps.push(k as u32);
    }
    BasicRateSet::from_kbps(&kbps).ok_or_else(|| format!("name at least one rate: {LEGAL}"))
}

pub(super) fn bss_timing(
    timing: Option<TimingName>,
    band: Band,
    stations: &[station::Station],
) -> Result<(BssConfig, Option<String>), String> {
    let dsss = |s: &station::Station| s.link.rate.phy_kind() == PhyKind::Dsss;
    match timing {
        Some(TimingName::Ofdm) => Ok((BssConfig::ofdm(band), None)),
        Some(TimingName::Dsss) if band == Band::Ghz2_4 => Ok((BssConfig::dsss(), None)),
        Some(TimingName::Dsss) => {
            Err("802.11b (dsss) timing exists in the 2.4GHz band only".into())
        }
        None if band == Band::Ghz2_4 && !stations.is_empty() && stations.iter().all(dsss) => Ok((
            BssConfig::dsss(),
            Some("dsss (derived: every station is 802.11b; 20 us slot, aCWmin 31)".into()),
        )),
        None if band == Band::Ghz2_4 && stations.iter().any(dsss) => {
            let mut bss = BssConfig::ofdm(band);
            bss.timing = MacTiming::for_band(band, false);
            Ok((
                bss,
                Some(
                    "ofdm with the long slot (derived: 802.11b stations in the BSS; 20 us \
                     slot, aCWmin 15)"
                        .into(),
                ),
            ))
        }
        None => Ok((BssConfig::ofdm(band), None)),
    }
}

/// The BSS's ERP protection (IEEE 802.11-2020 10.26.2) and what to say of it. Unset
/// or `auto`: CTS-to-self in a 2.4 GHz BSS with both 802.11b (non-ERP) stations and
/// OFDM-based ones, as hostapd advertises Use_Protection when a non-ERP station is
/// associated (`ieee802_11_erp_info`) and mac80211 then protects every OFDM and HT frame
/// (`use_cts_prot`); a BSS of 802.11b stations only has no OFDM frame to protect.
pub(super) fn bss_protection(
    name: Option<ProtectionName>,
    band: Band,
    stations: &[station::Station],
) -> Result<(Protection, Option<String>), String> {
    let dsss = |s: &station::Station| s.link.rate.phy_kind() == PhyKind::Dsss;
    let explicit = |p: Protection| {
        if band != Band::Ghz2_4 {
            return Err(format!(
                "{} protects OFDM frames for 802.11b stations with a frame at a DSSS rate \
                 (IEEE 802.11-2020 10.26.2): the 2.4GHz band only",
                p.name()
            ));
        }
        Ok((p, Some(format!("{} (bss.protection)", p.name()))))
    };
    match name {
        Some(ProtectionName::Off) => Ok((Protection::None, None)),
        Some(ProtectionName::CtsToSelf) => explicit(Protection::CtsToSelf),
        Some(ProtectionName::RtsCts) => explicit(Protection::RtsCts),
        None | Some(ProtectionName::Auto)
            if band == Band::Ghz2_4 && stations.iter().any(dsss) && !stations.iter().all(dsss) =>
        {
            Ok((
                Protection::CtsToSelf,
                Some(
                    "cts_to_self (derived: 802.11b and OFDM stations in the BSS; a CTS at \
                     1 Mbit/s before each HT PPDU, at the fastest DSSS basic rate not above \
                     the data rate before an 11g one, long preamble)"
                        .into(),
                ),
            ))
        }
        None | Some(ProtectionName::Auto) => Ok((Protection::None, None)),
    }
}

#[cfg(test)]
mod tests {
    use airq::Ac;
    use airq_sim::mac::protection::Protection;
    use airq_sim::mac::timing::MacTiming;

    fn scenario(timing: &str, stations: &str) -> super::Scenario {
        let text = format!(
            "name = \"t\"\nduration = 1.0\n[bss]\nband = \"2.4GHz\"\n{timing}\n{stations}\n\
             [[traffic]]\ntest = \"udp_flood\"\n"
        );
        super::super::parse("t.toml", &text, &[]).unwrap()
    }

    const B: &str = "[[station]]\nname = \"b\"\nstandard = \"dsss\"\nrate_mbps = 11\n";
    const N: &str = "[[station]]\nname = \"n\"\nstandard = \"ht\"\nmcs = 7\n";

    /// Table 16-4 and Table 9-155's DSSS column for a BSS of 802.11b stations only.
    #[test]
    fn a_bss_of_80211b_stations_gets_80211b_timing() {
        let s = scenario("", B);
        assert_eq!(s.bss.timing, MacTiming::DSSS);
        assert_eq!(s.bss.edca.get(Ac::Be).cw_min, 31);
        assert!(s.derived_timing.unwrap().starts_with("dsss (derived"));
    }

    /// Clause 18: the short slot only when every station supports it.
    #[test]
    fn a_mixed_bss_uses_the_long_slot() {
        let s = scenario("", &format!("{B}{N}"));
        assert_eq!(s.bss.timing, MacTiming::GHZ2_4_LONG_SLOT);
        assert_eq!(s.bss.edca.get(Ac::Be).cw_min, 15);
        assert!(s.derived_timing.is_some());
        let n = scenario("", N);
        assert_eq!(n.bss.timing, MacTiming::GHZ2_4_SHORT_SLOT);
        assert_eq!(n.derived_timing, None);
    }

    /// `qos = false`: a legacy client on the DCF, no A-MPDU; QoS by default.
    #[test]
    fn qos_false_makes_a_non_qos_station() {
        let s = scenario("", &format!("{N}qos = false\n{B}"));
        let (n, b) = (&s.stations[0].link, &s.stations[1].link);
        assert!(!n.qos && !n.ampdu);
        assert!(b.qos);
        assert!(scenario("", N).stations[0].link.ampdu);
    }

    #[test]
    fn an_explicit_timing_wins() {
        let s = scenario("timing = \"ofdm\"", B);
        assert_eq!(s.bss.timing, MacTiming::GHZ2_4_SHORT_SLOT);
        assert_eq!(s.derived_timing, None);
        let s = scenario("timing = \"dsss\"", N);
        assert_eq!(s.bss.timing, MacTiming::DSSS);
    }

    /// 10.26.2 as hostapd (`ieee802_11_erp_info`: Use_Protection with a non-ERP
    /// station) and mac80211 (`use_cts_prot` → CTS-to-self) apply it: a mixed 2.4 GHz
    /// BSS protects, an 802.11b-only or OFDM-only one does not.
    #[test]
    fn a_mixed_bss_protects_its_ofdm_frames() {
        let s = scenario("", &format!("{B}{N}"));
        assert_eq!(s.bss.protection, Protection::CtsToSelf);
        assert!(s
            .protection_note
            .unwrap()
            .starts_with("cts_to_self (derived"));
        for stations in [B, N] {
            let s = scenario("", stations);
            assert_eq!(s.bss.protection, Protection::None);
            assert_eq!(s.protection_note, None);
        }
        let s = scenario("protection = \"off\"", &format!("{B}{N}"));
        assert_eq!(
            (s.bss.protection, s.protection_note),
            (Protection::None, None)
        );
        let s = scenario("protection = \"rts_cts\"", N);
        assert_eq!(s.bss.protection, Protection::RtsCts);
        assert_eq!(
            s.protection_note.as_deref(),
            Some("rts_cts (bss.protection)")
        );
        let s = scenario("protection = \"auto\"", &format!("{B}{N}"));
        assert_eq!(s.bss.protection, Protection::CtsToSelf);
    }

    /// Protection frames at a DSSS rate exist in 2.4 GHz only; a bad value names its
    /// line and the choices.
    #[test]
    fn protection_errors_name_the_line() {
        let text = |band: &str, p: &str| {
            format!(
                "name = \"t\"\nduration = 1.0\n[bss]\nband = \"{band}\"\nprotection = \"{p}\"\n\
                 {N}[[traffic]]\ntest = \"udp_flood\"\n"
            )
        };
        let e = super::super::parse("t.toml", &text("5GHz", "cts_to_self"), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml:5") && e.contains("protection"), "{e}");
        assert!(e.contains("2.4GHz band only"), "{e}");
        let e = super::super::parse("t.toml", &text("2.4GHz", "cts"), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml:5") && e.contains("cts_to_self"), "{e}");
        // Off and auto are fine in any band; auto protects nothing in 5 GHz.
        let s = super::super::parse("t.toml", &text("5GHz", "auto"), &[]).unwrap();
        assert_eq!(s.bss.protection, Protection::None);
    }

    /// `ap_edca`: the AP's own set (dot11QAPEDCATable) unless `station` asks for the
    /// stations'; with 802.11b timing, the DSSS column's; a bad value names its line and
    /// the choices.
    #[test]
    fn ap_edca_chooses_the_aps_parameters() {
        use airq_sim::mac::edca::{EdcaParams, TxopColumn};
        let s = scenario("", N);
        assert_eq!(
            s.bss.ap_edca,
            Some(EdcaParams::standard_ap(15, TxopColumn::Ofdm))
        );
        assert_eq!(s.bss.ap_edca_params().get(Ac::Vo).aifsn, 1);
        assert_eq!(scenario("ap_edca = \"ap\"", N).bss.ap_edca, s.bss.ap_edca);
        let s = scenario("", B);
        assert_eq!(
            s.bss.ap_edca,
            Some(EdcaParams::standard_ap(31, TxopColumn::Dsss))
        );
        let s = scenario("ap_edca = \"station\"", N);
        assert_eq!(s.bss.ap_edca, None);
        assert_eq!(s.bss.ap_edca_params(), &s.bss.edca);
        let text = "name = \"t\"\nduration = 1.0\n[bss]\nap_edca = \"sta\"\n\
                    [[traffic]]\ntest = \"udp_flood\"\n";
        let e = super::super::parse("t.toml", text, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml:4") && e.contains("ap_edca"), "{e}");
        assert!(e.contains("ap") && e.contains("station"), "{e}");
    }
}
