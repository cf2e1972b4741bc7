//! The scenario file as written: the TOML schema, deserialised with serde. Every table
//! refuses unknown keys, so a typo is an error naming its line, never silently ignored.
//! Optional keys are `Option`s here; their defaults are applied, and every value is
//! checked, in [`super::validate`].
//!
//! ```toml
//! name = "udp-flood-anomaly"
//! description = "..."
//! duration = 30.0            # simulated seconds
//! step = 0.2                 # time-series step, s (flent's default)
//! omit = 5.0                 # warm-up left out of every summary, s (default 0)
//! seed = 1
//! seeds = 5                  # repetitions: seeds 1..5, mean ± 95% CI (default 1)
//! [bss]     band = "5GHz", rts_cts = false, beacons = true, timing = "ofdm",
//!           protection = "auto", ap_edca = "ap"
//! [ap]      preset = "airtime", driver = "firmware", qdisc, mac, scheduler, aql
//! [wired]   rate_mbps = 1000, delay_ms = 1.0, extra_delay_ms = 0.0
//! [[station]] name = "fast", count = 2, standard = "ht", mcs = 15, width = 20, gi = "long"
//! [[station]] ..., distance_m = 12.0, walls = 1, attenuation_db = [[0, 0], [10, 30]]
//! [[traffic]] test = "udp_flood", stations = ["fast", "slow"]
//! [[traffic]] test = "ping", interval_ms = 200, to = "slow"   # station-to-station
//! [[variant]] name = "fq_codel+airtime", preset = "fifo", set = { "ap.qdisc" = "fq_codel" }
//! ```

use super::ap_file::ApSection;
use super::variant::VariantSection;
use serde::Deserialize;

/// A whole scenario file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Names the results files (`<name>-<config>-seed<N>.json.gz`).
    pub name: String,
    /// One line, shown by `airq list scenarios`.
    #[serde(default)]
    pub description: String,
    /// Simulated time, s.
    pub duration: f64,
    /// Step of the time series, s.
    pub step: Option<f64>,
    /// Warm-up left out of every summary, s (iperf3's `--omit`; default 0).
    pub omit: Option<f64>,
    /// Root seed (default 1).
    pub seed: Option<u64>,
    /// Repetitions: runs under this many seeds from `seed` on (default 1; `--seeds`
    /// overrides).
    pub seeds: Option<u32>,
    #[serde(default)]
    /// `[bss]`.
    pub bss: BssSection,
    #[serde(default)]
    /// `[ap]`.
    pub ap: ApSection,
    #[serde(default)]
    /// `[wired]`.
    pub wired: WiredSection,
    #[serde(default)]
    /// `[[station]]` tables.
    pub station: Vec<StationSection>,
    #[serde(default)]
    /// `[[traffic]]` tables.
    pub traffic: Vec<TrafficSection>,
    #[serde(default)]
    /// `[[variant]]` tables.
    pub variant: Vec<VariantSection>,
}

/// The frequency band of the BSS.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum BandName {
    #[serde(rename = "2.4GHz")]
    /// 2.4 GHz.
    Ghz2_4,
    #[default]
    #[serde(rename = "5GHz")]
    /// 5 GHz.
    Ghz5,
    #[serde(rename = "6GHz")]
    /// 6 GHz.
    Ghz6,
}

/// The MAC timing of the BSS: OFDM-based (11a/g/n/ac/ax) or 802.11b.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimingName {
    /// Short slot, aCWmin 15.
    Ofdm,
    /// 802.11b: long slot, aCWmin 31 (2.4 GHz only).
    Dsss,
}

/// ERP protection of the BSS's OFDM frames (IEEE 802.11-2020 10.26.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtectionName {
    /// What the stations call for: CTS-to-self in 2.4 GHz with 802.11b and OFDM stations.
    Auto,
    /// None.
    Off,
    /// A CTS-to-self at a DSSS rate before every OFDM PPDU (2.4 GHz only).
    CtsToSelf,
    /// RTS/CTS at a DSSS rate before every OFDM PPDU (2.4 GHz only).
    RtsCts,
}

/// The EDCA parameters the AP contends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApEdcaName {
    /// Its own: dot11QAPEDCATable's defaults, as hostapd sets them (AIFSN 1 for VI and
    /// VO, BE's CWmax 63).
    Ap,
    /// The stations' (Table 9-155), as ns-3's AP and models of the DCF have it.
    Station,
}

/// `[bss]`: BSS-wide radio settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BssSection {
    #[serde(default)]
    /// `2.4GHz`, `5GHz` (default) or `6GHz`.
    pub band: BandName,
    /// `ofdm` or `dsss`; unset, what the stations call for (dsss if every station is
    /// 802.11b, the long slot if some are, else ofdm).
    pub timing: Option<TimingName>,
    /// RTS/CTS before every data PPDU (default off).
    pub rts_cts: Option<bool>,
    /// `auto` (default), `off`, `cts_to_self` or `rts_cts`.
    pub protection: Option<ProtectionName>,
    /// `ap` (default) or `station`: the EDCA parameters the AP contends with.
    pub ap_edca: Option<ApEdcaName>,
    /// The BSS basic rate set, Mbit/s (default hostapd's for the band).
    pub basic_rates_mbps: Option<Vec<f64>>,
    /// Beacons every 102.4 ms (default on).
    pub beacons: Option<bool>,
    /// Transmissions of an MPDU before it is dropped.
    pub retry_limit: Option<u8>,
    /// Cap on the airtime of one A-MPDU, µs (ath9k: 4000).
    pub max_aggregate_airtime_us: Option<u32>,
    /// Packets each station's own queue holds.
    pub station_queue_packets: Option<usize>,
    /// The path loss model of stations placed by `distance_m`.
    pub path_loss: Option<PathLossName>,
    /// Every receiver's noise figure, dB.
    pub noise_figure_db: Option<f64>,
    /// The AP's transmit power, dBm.
    pub ap_tx_power_dbm: Option<f64>,
    /// The channel's centre frequency, MHz (default: the band's path-loss carrier).
    pub frequency_mhz: Option<u32>,
}

/// A distance-based path loss model (IEEE 802.11-14/0980r16, the TGax scenarios).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathLossName {
    /// Scenario 1: break point 5 m, 5 dB per wall.
    TgaxResidential,
    /// Scenario 2: break point 10 m, 7 dB per wall.
    TgaxEnterprise,
}

/// `rate_control`: the link's rate fixed, or chosen by Minstrel-HT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RateControlName {
    /// The station's rate, always.
    Fixed,
    /// Linux's Minstrel-HT (`airq_sim::mac::rate_control`).
    MinstrelHt,
}

/// `queue`: the station's own queues above its radio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StationQueueName {
    /// One FIFO per AC (`pfifo_fast` under `mq`): an unmodified client.
    Fifo,
    /// mac80211's FQ-CoDel per TID (FQ-MAC) under `noqueue`.
    FqMac,
}

/// How a scheduled attenuation goes from one point to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttenuationChangeName {
    /// Each value holds until the next point.
    Step,
    /// Linear from each point to the next.
    Ramp,
}

/// `attenuation_db`: a number of dB, or `[[time_s, dB], ...]` points.
#[derive(Clone, Debug, PartialEq)]
pub enum AttenuationDb {
    /// The same all run.
    Constant(f64),
    /// (time s, dB) points.
    Schedule(Vec<(f64, f64)>),
}

impl<'de> Deserialize<'de> for AttenuationDb {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AttenuationDb, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = AttenuationDb;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of dB or an array of [time_s, dB] pairs")
            }
            fn visit_f64<E>(self, v: f64) -> Result<AttenuationDb, E> {
                Ok(AttenuationDb::Constant(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<AttenuationDb, E> {
                Ok(AttenuationDb::Constant(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<AttenuationDb, E> {
                Ok(AttenuationDb::Constant(v as f64))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<AttenuationDb, A::Error> {
                let mut points = Vec::new();
                while let Some(pair) = seq.next_element::<Vec<f64>>()? {
                    let [t, db] = pair[..] else {
                        return Err(serde::de::Error::invalid_length(
                            pair.len(),
                            &"a [time_s, dB] pair",
                        ));
                    };
                    points.push((t, db));
                }
                Ok(AttenuationDb::Schedule(points))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// `[wired]`: the link between the server and the AP.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WiredSection {
    /// Rate of the link, Mbit/s (default 1000).
    pub rate_mbps: Option<f64>,
    /// One-way propagation delay, ms.
    pub delay_ms: Option<f64>,
    /// Added one-way delay, ms (a netem delay on the server, as flent testbeds add).
    pub extra_delay_ms: Option<f64>,
}

/// The PHY a station uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StandardName {
    /// 802.11b DSSS/CCK: `rate_mbps` 1, 2, 5.5, 11.
    Dsss,
    /// 802.11a/g OFDM: `rate_mbps` 6 to 54.
    Ofdm,
    /// 802.11n (MCS 0-31, 20/40 MHz).
    Ht,
    /// 802.11ac (MCS 0-9, 1-8 streams).
    Vht,
    /// 802.11ax single-user (MCS 0-11, 1-8 streams).
    He,
}

/// `[[station]]`: one station, or `count` identical ones.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationSection {
    /// Its name, or the base of `count` names.
    pub name: String,
    /// Identical stations named `<name>1`, `<name>2`, ... (default 1: just `<name>`).
    pub count: Option<u32>,
    /// `dsss`, `ofdm`, `ht`, `vht` or `he`.
    pub standard: StandardName,
    /// MCS index (HT, VHT, HE).
    pub mcs: Option<u8>,
    /// Channel width, MHz.
    pub width: Option<u16>,
    /// `long`/`short` (HT, VHT); `0.8`/`1.6`/`3.2` µs (HE).
    pub gi: Option<String>,
    /// Spatial streams (VHT, HE; for HT the MCS implies them).
    pub streams: Option<u8>,
    /// Legacy rate (DSSS, OFDM), Mbit/s.
    pub rate_mbps: Option<f64>,
    /// DSSS preamble, `long` or `short`.
    pub preamble: Option<String>,
    /// Probability that one MPDU is received in error.
    pub frame_error_rate: Option<f64>,
    /// Distance to the AP, m (the [bss] path loss model).
    pub distance_m: Option<f64>,
    /// Walls between the station and the AP (with `distance_m`).
    pub walls: Option<u32>,
    /// Attenuation between the station and the AP, dB: a number or a schedule.
    pub attenuation_db: Option<AttenuationDb>,
    /// `step` (default) or `ramp` between the points of an attenuation schedule.
    pub attenuation_change: Option<AttenuationChangeName>,
    /// The station's transmit power, dBm.
    pub tx_power_dbm: Option<f64>,
    /// `fixed` (default) or `minstrel_ht`: how each PPDU's rate is chosen, both ways.
    pub rate_control: Option<RateControlName>,
    /// `fifo` (default) or `fq_mac`: the station's own queues.
    pub queue: Option<StationQueueName>,
    /// Airtime weight, µs per scheduler round (256 by default).
    pub weight: Option<u32>,
    /// The `[[ap.group]]` the station belongs to.
    pub group: Option<String>,
    /// A QoS station (default true); false: a legacy client on the DCF.
    pub qos: Option<bool>,
}

/// `[[traffic]]`: one test (flent's names) to some or all stations.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficSection {
    /// The test's name (see `airq list tests`).
    pub test: String,
    /// Station names, or the name of a `count` group for all of it; default every station.
    pub stations: Option<Vec<String>>,
    /// Flows per station.
    pub flows: Option<u32>,
    /// `down` (to the station) or `up`.
    pub direction: Option<String>,
    /// Rate per flow, Mbit/s (udp_cbr).
    pub rate_mbps: Option<f64>,
    /// UDP payload per packet.
    pub payload_bytes: Option<u32>,
    /// DiffServ code point, 0 to 63; sets the TID (RFC 8325 §4.3).
    pub dscp: Option<u8>,
    /// Ping interval, ms.
    pub interval_ms: Option<f64>,
    /// The station to ping instead of the server (ping).
    pub to: Option<String>,
    /// Pages to fetch (http).
    pub pages: Option<u32>,
    /// TCP congestion control: `cubic` or `newreno`.
    pub cc: Option<String>,
    /// Negotiate ECN on both ends of the TCP connections.
    pub ecn: Option<bool>,
    /// Keep web connections open from page to page (http).
    pub keep_alive: Option<bool>,
    /// Pause between two pages, ms (http).
    pub think_ms: Option<f64>,
    /// Start and stop times, s.
    pub start: Option<f64>,
    /// Stop time, s (default: the end of the run).
    pub stop: Option<f64>,
}

impl TrafficSection {
    /// The optional keys this entry sets, in schema order.
    pub fn given_keys(&self) -> Vec<&'static str> {
        [
            ("stations", self.stations.is_some()),
            ("flows", self.flows.is_some()),
            ("direction", self.direction.is_some()),
            ("rate_mbps", self.rate_mbps.is_some()),
            ("payload_bytes", self.payload_bytes.is_some()),
            ("dscp", self.dscp.is_some()),
            ("interval_ms", self.interval_ms.is_some()),
            ("to", self.to.is_some()),
            ("pages", self.pages.is_some()),
            ("cc", self.cc.is_some()),
            ("ecn", self.ecn.is_some()),
            ("keep_alive", self.keep_alive.is_some()),
            ("think_ms", self.think_ms.is_some()),
            ("start", self.start.is_some()),
            ("stop", self.stop.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, given)| given.then_some(k))
        .collect()
    }
}
