//! `[ap]` → [`ApConfig`]: the preset the run asks for, then the scenario's layer choices
//! and parameters over it, then the stations' airtime weights and groups. The result is
//! checked by `ApConfig::validate`, so a bad parameter is refused before the run starts.

use super::ap_file::{
    ApSection, AqlKind, DriverKind, FqSection, GroupModeName, MacKind, QdiscKind, SchedulerKind,
};
use super::location::{KeyPath, Seg, SourceMap};
use super::station::{has_vht, Station};
use super::units;
use crate::error::CliError;
use airq::airtime::{GroupMode, SchedulingMode};
use airq::fq::{FqParams, Quantum};
use airq::{Duration, StationId};
use airq_sim::ap::config::MAX_HOST_LATENCY;
use airq_sim::ap::{
    AirtimeGroup, ApConfig, AqlConfig, DriverConfig, FirmwareMode, MacConfig, QdiscConfig,
    SchedulerConfig, StationWeight, PRESET_NAMES,
};

/// The AP of a scenario, ready to be configured as any preset.
#[derive(Clone, Debug)]
pub struct ApSpec {
    /// The scenario's preset (`airtime` when it names none).
    pub preset: String,
    section: ApSection,
    weights: Vec<StationWeight>,
    groups: Vec<AirtimeGroup>,
    /// `file:line` of `[ap]`.
    origin: String,
    stations: usize,
    /// Whether the AP has VHT: when no station has a VHT or HE rate it is taken to be an
    /// 802.11n AP, as the seeds' ath9k, and mac80211 gives its FQ-MAC 4 MiB of memory
    /// instead of 16 (`ieee80211_txq_setup_flows`).
    vht: bool,
}

impl ApSpec {
    /// Checks `[ap]` and the stations' `weight` and `group` keys.
    pub fn new(
        section: &ApSection,
        stations: &[Station],
        map: &SourceMap,
    ) -> Result<ApSpec, CliError> {
        let preset = section
            .preset
            .clone()
            .unwrap_or_else(|| "airtime".to_string());
        check_preset(&preset)
            .map_err(|why| map.error_at(&KeyPath::key("ap").join("preset"), why))?;
        for (key, fq) in [("fq_codel", &section.fq_codel), ("fq_mac", &section.fq_mac)] {
            let Some(fq) = fq else { continue };
            let path = KeyPath::key("ap").join(key);
            if fq.quantum_bytes.is_some() && fq.quantum_frames.is_some() {
                return Err(map.error_at(
                    &path.join("quantum_frames"),
                    "give quantum_bytes or quantum_frames, not both",
                ));
            }
            // CoDel's times in whole microseconds at least (Linux keeps them in 1.024 us
            // units): a smaller value would round to nothing.
            for (k, v) in [("target_ms", fq.target_ms), ("interval_ms", fq.interval_ms)] {
                if v.is_some_and(|v| !(0.001..=1e6).contains(&v)) {
                    return Err(map.error_at(
                        &path.join(k),
                        format!("must be 0.001 ms (1 us) to 1000 s, got {}", v.unwrap()),
                    ));
                }
            }
        }
        if let Some(us) = section.host_latency_us {
            let max_us = MAX_HOST_LATENCY.as_micros() as f64;
            if !(us.is_finite() && units::from_us(us) > Duration::ZERO && us <= max_us) {
                return Err(map.error_at(
                    &KeyPath::key("ap").join("host_latency_us"),
                    format!("must be above 0 us and at most {max_us} us, got {us}"),
                ));
            }
        }
        super::aggregation::check(section, map)?;
        super::admission::check(section, map)?;
        super::retry::check(section, map)?;
        let mut groups: Vec<AirtimeGroup> = Vec::new();
        for (i, g) in section.group.iter().enumerate() {
            let path = KeyPath::key("ap").join("group").index(i);
            if section.group[..i].iter().any(|o| o.name == g.name) {
                return Err(
                    map.error_at(&path.join("name"), format!("a second group `{}`", g.name))
                );
            }
            groups.push(AirtimeGroup {
                weight_us: g.weight.unwrap_or(256),
                mode: match g.mode {
                    GroupModeName::Share => GroupMode::Share,
                    GroupModeName::Limit => GroupMode::Limit,
                },
                stations: Vec::new(),
                parent: match &g.parent {
                    None => None,
                    Some(name) => Some(
                        section.group[..i]
                            .iter()
                            .position(|o| &o.name == name)
                            .ok_or_else(|| {
                                map.error_at(
                                    &path.join("parent"),
                                    format!(
                                        "no [[ap.group]] before this one is named `{name}` \
                                         (a group is nested in one listed before it)"
                                    ),
                                )
                            })?,
                    ),
                },
            });
        }
        let mut weights = Vec::new();
        for (i, s) in stations.iter().enumerate() {
            if let Some(weight_us) = s.weight_us {
                weights.push(StationWeight {
                    station: StationId(i as u32),
                    weight_us,
                });
            }
            if let Some(name) = &s.group {
                let g = section
                    .group
                    .iter()
                    .position(|g| &g.name == name)
                    .ok_or_else(|| {
                        map.error_at(
                            &KeyPath::entry("station", s.table).join("group"),
                            format!("no [[ap.group]] is named `{name}`"),
                        )
                    })?;
                groups[g].stations.push(StationId(i as u32));
            }
        }
        let spec = ApSpec {
            preset: preset.clone(),
            section: section.clone(),
            weights,
            groups,
            origin: map.origin(&KeyPath::key("ap")),
            stations: stations.len(),
            vht: stations.iter().any(|s| has_vht(&s.link.rate)),
        };
        spec.config(&preset)?;
        Ok(spec)
    }

    /// The AP configured as `preset` with the scenario's changes.
    pub fn config(&self, preset: &str) -> Result<ApConfig, CliError> {
        check_preset(preset).map_err(CliError::new)?;
        let mut c = ApConfig::preset(preset).map_err(|e| CliError::new(e.to_string()))?;
        let s = &self.section;
        if let Some(q) = s.qdisc {
            c.qdisc = match q {
                QdiscKind::None => QdiscConfig::None,
                QdiscKind::PfifoFast => QdiscConfig::pfifo_fast(),
                QdiscKind::FqCodel => QdiscConfig::fq_codel(),
            };
        }
        if let Some(m) = s.mac {
            c.mac = match m {
                MacKind::Legacy => MacConfig::legacy(),
                MacKind::FqMac => MacConfig::fq_mac(),
            };
        }
        if let (MacConfig::FqMac(p), false) = (&mut c.mac, self.vht) {
            p.memory_limit_bytes = FqParams::mac80211_non_vht().memory_limit_bytes;
        }
        if let Some(k) = s.scheduler {
            c.scheduler = match k {
                SchedulerKind::RoundRobin => SchedulerConfig::RoundRobin,
                SchedulerKind::Airtime => SchedulerConfig::airtime(),
            };
        }
        if let Some(a) = s.aql {
            c.aql = match a {
                AqlKind::Off => AqlConfig::Off,
                AqlKind::Kernel => AqlConfig::kernel(),
                AqlKind::SelfTuning => AqlConfig::self_tuning(),
            };
        }
        if let Some(d) = s.driver {
            c.driver = match d {
                DriverKind::Softmac => DriverConfig::softmac(),
                DriverKind::Firmware => DriverConfig::firmware(),
                DriverKind::FirmwarePush => DriverConfig::firmware_push(),
            };
        }
        if let Some(us) = s.host_latency_us {
            c.host_latency = units::from_us(us);
        }
        self.tune(&mut c);
        super::aggregation::apply(s, &mut c);
        super::admission::apply(s, &mut c);
        super::retry::apply(s, &mut c);
        c.airtime_weights = self.weights.clone();
        c.airtime_groups = self.groups.clone();
        c.validate(self.stations)
            .map_err(|e| CliError::new(format!("{}: [ap] as {preset}: {e}", self.origin)))?;
        Ok(c)
    }

    /// The [`Unused`] keys this `[ap]` and its stations set, each with how to name it.
    pub fn keys_set(&self) -> Vec<(&'static str, &'static str)> {
        let s = &self.section;
        let tables = [
            (s.pfifo_fast.is_some(), "ap.pfifo_fast", "[ap.pfifo_fast]"),
            (s.fq_codel.is_some(), "ap.fq_codel", "[ap.fq_codel]"),
            (s.legacy.is_some(), "ap.legacy", "[ap.legacy]"),
            (s.fq_mac.is_some(), "ap.fq_mac", "[ap.fq_mac]"),
            (
                s.slow_station_codel.is_some(),
                "ap.slow_station_codel",
                "ap.slow_station_codel",
            ),
            (s.airtime.is_some(), "ap.airtime", "[ap.airtime]"),
            (s.aql_limits.is_some(), "ap.aql_limits", "[ap.aql_limits]"),
            (s.softmac.is_some(), "ap.softmac", "[ap.softmac]"),
            (s.firmware.is_some(), "ap.firmware", "[ap.firmware]"),
            (
                s.firmware
                    .as_ref()
                    .is_some_and(|f| f.fetch_frames.is_some()),
                "ap.firmware.fetch_frames",
                "ap.firmware.fetch_frames",
            ),
            (!self.weights.is_empty(), "weight", "station weights"),
            (!self.groups.is_empty(), "group", "[[ap.group]] tables"),
        ];
        tables
            .into_iter()
            .filter(|(set, _, _)| *set)
            .map(|(_, keys, named)| (keys, named))
            .collect()
    }

    /// Applies the parameter tables of the layer choices `c` uses.
    fn tune(&self, c: &mut ApConfig) {
        let s = &self.section;
        match &mut c.qdisc {
            QdiscConfig::PfifoFast { limit_packets } => {
                if let Some(l) = s.pfifo_fast.as_ref().and_then(|p| p.limit_packets) {
                    *limit_packets = l;
                }
            }
            QdiscConfig::FqCodel(p) => {
                if let Some(f) = &s.fq_codel {
                    tune_fq(p, f);
                }
            }
            QdiscConfig::None => {}
        }
        match &mut c.mac {
            MacConfig::Legacy { txq_max_pending } => {
                if let Some(l) = s.legacy.as_ref().and_then(|l| l.txq_max_pending) {
                    *txq_max_pending = l;
                }
            }
            MacConfig::FqMac(p) => {
                if let Some(f) = &s.fq_mac {
                    tune_fq(p, f);
                }
                c.slow_station_codel = s.slow_station_codel.unwrap_or(false);
            }
        }
        if let (SchedulerConfig::Airtime(p), Some(a)) = (&mut c.scheduler, &s.airtime) {
            p.default_weight_us = a.default_weight_us.unwrap_or(p.default_weight_us);
            p.use_rx = a.use_rx.unwrap_or(p.use_rx);
            p.sparse_first = a.sparse_first.unwrap_or(p.sparse_first);
            if a.station_first == Some(true) {
                p.mode = SchedulingMode::StationFirst;
            }
        }
        if let (AqlConfig::On(p), Some(a)) = (&mut c.aql, &s.aql_limits) {
            for l in &mut p.limits {
                l.aql_limit_low_us = a.limit_low_us.unwrap_or(l.aql_limit_low_us);
                l.aql_limit_high_us = a.limit_high_us.unwrap_or(l.aql_limit_high_us);
            }
            p.aql_threshold_us = a.threshold_us.unwrap_or(p.aql_threshold_us);
        }
        match &mut c.driver {
            DriverConfig::Softmac {
                aggr_min_qdepth,
                non_aggr_min_qdepth,
                max_subframes,
            } => {
                if let Some(sm) = &s.softmac {
                    *aggr_min_qdepth = sm.aggr_min_qdepth.unwrap_or(*aggr_min_qdepth);
                    *non_aggr_min_qdepth = sm.non_aggr_min_qdepth.unwrap_or(*non_aggr_min_qdepth);
                    *max_subframes = sm.max_subframes.unwrap_or(*max_subframes);
                }
            }
            DriverConfig::Firmware {
                max_pending_frames,
                mode,
            } => {
                if let Some(f) = &s.firmware {
                    *max_pending_frames = f.max_pending_frames.unwrap_or(*max_pending_frames);
                    if let (FirmwareMode::Pull { fetch_frames }, Some(n)) = (mode, f.fetch_frames) {
                        *fetch_frames = n;
                    }
                }
            }
        }
    }
}

/// Scenario keys a configuration has no use for: the parameters of a layer it does not
/// have (`ap.fq_codel` under a configuration without the fq_codel qdisc), or airtime
/// weights and groups under a round-robin scheduler. Setting one changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    /// The keys, as a path prefix (`ap.fq_codel`, `ap.firmware.fetch_frames`); `weight`
    /// and `group` stand for the stations' keys of those names (and `[[ap.group]]`).
    pub keys: &'static str,
    /// What the configuration lacks: `no fq_codel qdisc` (empty when `has` says it).
    pub lacks: &'static str,
    /// What it has instead, as the scenario key would say it: `qdisc none`.
    pub has: String,
}

impl Unused {
    /// Whether the key at `path` is one of these.
    pub fn covers(&self, path: &KeyPath) -> bool {
        let key = |i: usize| match path.0.get(i) {
            Some(Seg::Key(k)) => Some(k.as_str()),
            _ => None,
        };
        match self.keys {
            "weight" => key(0) == Some("station") && key(2) == Some("weight"),
            "group" => {
                (key(0) == Some("station") && key(2) == Some("group"))
                    || (key(0) == Some("ap") && key(1) == Some("group"))
            }
            prefix => {
                let path = path.to_string();
                path.strip_prefix(prefix)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            }
        }
    }
}

/// The keys `c` has no use for (see [`Unused`]).
pub fn unused(c: &ApConfig) -> Vec<Unused> {
    let mut out = Vec::new();
    let mut add = |keys: &'static str, lacks: &'static str, has: &str| {
        out.push(Unused {
            keys,
            lacks,
            has: has.to_string(),
        })
    };
    let qdisc = match c.qdisc {
        QdiscConfig::None => "qdisc none",
        QdiscConfig::PfifoFast { .. } => "qdisc pfifo_fast",
        QdiscConfig::FqCodel(_) => "qdisc fq_codel",
    };
    if !matches!(c.qdisc, QdiscConfig::PfifoFast { .. }) {
        add("ap.pfifo_fast", "no pfifo_fast qdisc", qdisc);
    }
    if !matches!(c.qdisc, QdiscConfig::FqCodel(_)) {
        add("ap.fq_codel", "no fq_codel qdisc", qdisc);
    }
    match c.mac {
        MacConfig::Legacy { .. } => {
            add("ap.fq_mac", "no FQ-MAC", "mac legacy");
            add("ap.slow_station_codel", "no FQ-MAC", "mac legacy");
        }
        MacConfig::FqMac(_) => add("ap.legacy", "no legacy MAC FIFOs", "mac fq_mac"),
    }
    if matches!(c.scheduler, SchedulerConfig::RoundRobin) {
        for keys in ["ap.airtime", "weight", "group"] {
            add(keys, "no airtime scheduler", "scheduler round_robin");
        }
    }
    if matches!(c.aql, AqlConfig::Off) {
        add("ap.aql_limits", "no AQL", "aql off");
    }
    match c.driver {
        DriverConfig::Softmac { .. } => add("ap.firmware", "no firmware driver", "driver softmac"),
        DriverConfig::Firmware { mode, .. } => {
            let has = match mode {
                FirmwareMode::Pull { .. } => "driver firmware",
                FirmwareMode::Push => "driver firmware_push",
            };
            add("ap.softmac", "no softmac driver", has);
            if matches!(mode, FirmwareMode::Push) {
                add("ap.firmware.fetch_frames", "no firmware that fetches", has);
            }
        }
    }
    out
}

fn tune_fq(p: &mut FqParams, f: &FqSection) {
    p.flows = f.flows.unwrap_or(p.flows);
    p.limit_packets = f.limit_packets.unwrap_or(p.limit_packets);
    p.memory_limit_bytes = f.memory_limit_bytes.unwrap_or(p.memory_limit_bytes);
    if let Some(b) = f.quantum_bytes {
        p.quantum = Quantum::Bytes(b);
    }
    if let Some(n) = f.quantum_frames {
        p.quantum = Quantum::Frames(n);
    }
    p.codel.target = f.target_ms.map_or(p.codel.target, units::from_ms);
    p.codel.interval = f.interval_ms.map_or(p.codel.interval, units::from_ms);
    p.codel.ecn = f.ecn.unwrap_or(p.codel.ecn);
}

/// Whether `name` is a preset; the error lists them.
pub fn check_preset(name: &str) -> Result<(), String> {
    if PRESET_NAMES.contains(&name) {
        return Ok(());
    }
    Err(format!(
        "unknown AP configuration `{name}`; presets: {}",
        PRESET_NAMES.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    /// `ap_lines` in `[ap]` of a two-station scenario.
    fn spec(ap_lines: &str) -> ApSpec {
        spec_of(ap_lines, "ht")
    }

    /// `ap_lines` in `[ap]` of a scenario with an MCS 7 and an MCS 0 station of
    /// `standard`.
    fn spec_of(ap_lines: &str, standard: &str) -> ApSpec {
        let text = format!(
            "name = \"t\"\nduration = 1.0\n[ap]\n{ap_lines}\n[[station]]\nname = \"a\"\n\
             standard = \"{standard}\"\nmcs = 7\n[[station]]\nname = \"b\"\n\
             standard = \"{standard}\"\nmcs = 0\n[[traffic]]\ntest = \"udp_flood\"\n"
        );
        parse("t.toml", &text, &[]).unwrap().ap
    }

    #[test]
    fn unused_keys_are_the_layers_a_configuration_lacks() {
        let path = |raw: &str| super::super::overrides::Override::parse(raw).unwrap().path;
        let keys = |preset: &str| -> Vec<&str> {
            unused(&ApConfig::preset(preset).unwrap())
                .iter()
                .map(|u| u.keys)
                .collect()
        };
        assert_eq!(
            keys("fifo"),
            [
                "ap.fq_codel",
                "ap.fq_mac",
                "ap.slow_station_codel",
                "ap.airtime",
                "weight",
                "group",
                "ap.aql_limits",
                "ap.firmware"
            ]
        );
        assert_eq!(
            keys("airtime_aql"),
            ["ap.pfifo_fast", "ap.fq_codel", "ap.legacy", "ap.firmware"]
        );
        let mut push = ApConfig::preset("airtime").unwrap();
        push.driver = DriverConfig::firmware_push();
        let push = unused(&push);
        let covered = |raw: &str| push.iter().find(|u| u.covers(&path(raw))).map(|u| u.keys);
        assert_eq!(
            covered("ap.firmware.fetch_frames=4"),
            Some("ap.firmware.fetch_frames")
        );
        assert_eq!(covered("ap.firmware.max_pending_frames=4"), None);
        assert_eq!(covered("ap.softmac={max_subframes=8}"), Some("ap.softmac"));
        assert_eq!(covered("ap.fq_codel.target_ms=1"), Some("ap.fq_codel"));
        assert_eq!(covered("ap.fq_mac.target_ms=1"), None);
        let rr = unused(&ApConfig::preset("fq_mac").unwrap());
        let covered = |raw: &str| rr.iter().find(|u| u.covers(&path(raw))).map(|u| u.keys);
        assert_eq!(covered("station.slow.weight=512"), Some("weight"));
        assert_eq!(covered("station.0.group=\"g\""), Some("group"));
        assert_eq!(covered("ap.group.0.weight=2"), Some("group"));
        assert_eq!(covered("station.0.mcs=3"), None);
        assert_eq!(covered("ap.airtime_x=1"), None);
    }

    #[test]
    fn without_changes_a_preset_is_the_simulators() {
        let s = spec_of("", "vht");
        assert_eq!(s.preset, "airtime");
        for name in PRESET_NAMES {
            assert_eq!(
                s.config(name).unwrap(),
                ApConfig::preset(name).unwrap(),
                "{name}"
            );
        }
    }

    /// mac80211 gives hardware without VHT 4 MiB instead of 16 (ieee80211_txq_setup_flows);
    /// an AP whose stations are all HT is taken to be such hardware.
    #[test]
    fn an_ap_without_vht_stations_has_4_mib_of_fq_mac_memory() {
        let memory = |s: &ApSpec, preset: &str| match s.config(preset).unwrap().mac {
            MacConfig::FqMac(p) => Some(p.memory_limit_bytes),
            MacConfig::Legacy { .. } => None,
        };
        for standard in ["ht", "vht", "he"] {
            let s = spec_of("", standard);
            let expected = if standard == "ht" { 4 << 20 } else { 16 << 20 };
            assert_eq!(memory(&s, "airtime"), Some(expected), "{standard}");
            assert_eq!(memory(&s, "fifo"), None);
        }
        let set = spec("[ap.fq_mac]\nmemory_limit_bytes = 1000000");
        assert_eq!(
            memory(&set, "fq_mac"),
            Some(1_000_000),
            "the scenario's own"
        );
    }

    #[test]
    fn softmac_parameters_reach_the_driver() {
        let c = spec("[ap.softmac]\naggr_min_qdepth = 3\nmax_subframes = 16")
            .config("fq_mac")
            .unwrap();
        assert_eq!(
            c.driver,
            DriverConfig::Softmac {
                aggr_min_qdepth: 3,
                non_aggr_min_qdepth: 8,
                max_subframes: 16,
            }
        );
        let text = "name = \"t\"\nduration = 1.0\n[ap.softmac]\nmax_subframes = 0\n[[station]]\nname = \"a\"\n\
                    standard = \"ht\"\nmcs = 7\n[[traffic]]\ntest = \"udp_flood\"\n";
        let e = parse("t.toml", text, &[]).unwrap_err().to_string();
        assert!(e.contains("t.toml:3") && e.contains("max_subframes"), "{e}");
    }

    #[test]
    fn layer_choices_replace_the_presets() {
        let c = spec("qdisc = \"fq_codel\"\ndriver = \"firmware\"")
            .config("fifo")
            .unwrap();
        assert_eq!(c.qdisc, QdiscConfig::fq_codel());
        assert_eq!(c.driver, DriverConfig::firmware());
        assert_eq!(
            c.mac,
            MacConfig::legacy(),
            "the other layers stay the preset's"
        );
    }

    #[test]
    fn parameter_tables_tune_the_choice_they_name_wherever_it_is_used() {
        let s = spec("[ap.fq_codel]\ntarget_ms = 10\n[ap.fq_mac]\nquantum_frames = 2\n");
        let QdiscConfig::FqCodel(q) = s.config("fq_codel").unwrap().qdisc else {
            panic!("fq_codel preset has the fq_codel qdisc");
        };
        assert_eq!(q.codel.target, Duration::from_millis(10));
        assert_eq!(q.codel.interval, Duration::from_millis(100), "untouched");
        let MacConfig::FqMac(m) = s.config("airtime").unwrap().mac else {
            panic!("airtime preset has FQ-MAC");
        };
        assert_eq!(m.quantum, Quantum::Frames(2));
        assert_eq!(
            m.codel.target,
            FqParams::default().codel.target,
            "qdisc table only"
        );
        // fifo uses neither: it is the preset unchanged.
        assert_eq!(s.config("fifo").unwrap(), ApConfig::preset("fifo").unwrap());
    }

    #[test]
    fn out_of_range_parameters_are_refused_per_preset() {
        let s = spec("[ap.pfifo_fast]\nlimit_packets = 0\n");
        let e = s.config("fifo").unwrap_err();
        assert!(
            e.message()
                .ends_with("[ap] as fifo: qdisc pfifo_fast limit_packets must be above zero"),
            "{e}"
        );
        assert!(s.config("airtime").is_ok(), "airtime has no pfifo_fast");
    }
}
