//! The reference's data: one function per table of the schema.

use super::{key, ms, number, tests_taking, KeyDoc, Kind, TableDoc};
use crate::scenario::traffic::TESTS;
use airq::airtime::AirtimeParams;
use airq::aql::AqlParams;
use airq::fq::{FqParams, Quantum};
use airq::phy::Band;
use airq_sim::ap::config::{
    fq_codel_defaults, ATH10K_MAX_PENDING_FRAMES, ATH9K_AGGR_MIN_QDEPTH,
    ATH9K_AMPDU_SUBFRAME_DEFAULT, ATH9K_NON_AGGR_MIN_QDEPTH, ATH9K_TXQ_MAX_PENDING,
    DEFAULT_HOST_LATENCY, FIRMWARE_FETCH_FRAMES, MAX_HOST_LATENCY, PFIFO_FAST_LIMIT_PACKETS,
};
use airq_sim::ap::PRESET_NAMES;
use airq_sim::bss::WiredLink;
use airq_sim::mac::link::BssConfig;
use airq_sim::phy::channel::DEFAULT_STATION_TX_POWER_DBM;
use airq_sim::station::STATION_QUEUE_PACKETS;
use airq_sim::transport::tcp::TcpConfig;

const BANDS: &[&str] = &["2.4GHz", "5GHz", "6GHz"];
const TIMINGS: &[&str] = &["ofdm", "dsss"];
const STANDARDS: &[&str] = &["dsss", "ofdm", "ht", "vht", "he"];
const QDISCS: &[&str] = &["none", "pfifo_fast", "fq_codel"];
const MACS: &[&str] = &["legacy", "fq_mac"];
const SCHEDULERS: &[&str] = &["round_robin", "airtime"];
const AQLS: &[&str] = &["off", "kernel", "self_tuning"];
const DRIVERS: &[&str] = &["softmac", "firmware", "firmware_push"];
const GROUP_MODES: &[&str] = &["share", "limit"];
const PATH_LOSS_MODELS: &[&str] = &["tgax_residential", "tgax_enterprise"];
const ATTENUATION_CHANGES: &[&str] = &["step", "ramp"];

/// Every table of the schema, in the order the reference lists them.
pub fn tables() -> Vec<TableDoc> {
    vec![
        top_level(),
        bss(),
        wired(),
        station(),
        traffic(),
        ap(),
        TableDoc {
            path: "ap.pfifo_fast",
            about: "Parameters of the pfifo_fast qdisc, wherever it is in use.",
            keys: vec![key(
                "limit_packets",
                Kind::Integer,
                "packets",
                PFIFO_FAST_LIMIT_PACKETS.to_string(),
                "1 or more",
                "100",
                "Tail-drop limit over the three bands, per AC: the device's tx_queue_len \
                 (DEFAULT_TX_QUEUE_LEN, ether_setup).",
            )],
        },
        fq(
            "ap.fq_codel",
            "Parameters of the fq_codel qdisc (RFC 8290), wherever it is in use; defaults \
             of net/sched/sch_fq_codel.c fq_codel_init.",
            fq_codel_defaults(),
        ),
        TableDoc {
            path: "ap.legacy",
            about: "Parameters of the legacy MAC queues (ath9k before mac80211's TXQs).",
            keys: vec![key(
                "txq_max_pending",
                Kind::Integer,
                "frames",
                ATH9K_TXQ_MAX_PENDING.to_string(),
                "1 or more",
                "64",
                "Frames per AC in the driver before the AC's netdev queue is stopped \
                 (ath9k ATH_MAX_QDEPTH = ATH_TXBUF / 4 - ATH_TXBUF_RESERVE).",
            )],
        },
        fq(
            "ap.fq_mac",
            "Parameters of FQ-MAC, mac80211's FQ-CoDel per station-TID, wherever it is in \
             use; defaults of include/net/fq_impl.h fq_init and net/mac80211/tx.c \
             ieee80211_txq_setup_flows.",
            FqParams::default(),
        ),
        airtime(),
        aql_limits(),
        softmac(),
        firmware(),
        group(),
        variant(),
    ]
}

fn top_level() -> TableDoc {
    TableDoc {
        path: "",
        about: "The run: its name, length, seeds; the tables below.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                "1 to 64 letters, digits, - _ .",
                "\"my-test\"",
                "Names the results files (<name>-<variant>-seed<N>.json.gz).",
            ),
            key(
                "description",
                Kind::String,
                "",
                "\"\"",
                "any",
                "\"one slow station\"",
                "One line, shown by `airq list scenarios`.",
            ),
            key(
                "duration",
                Kind::Number,
                "s",
                "required",
                "above 0, at most 1e7",
                "30.0",
                "Simulated time (--duration overrides it).",
            ),
            key(
                "step",
                Kind::Number,
                "s",
                "0.2",
                "above 0, at most duration; at most 1e6 steps and 1e8 values (steps x 3 x (stations + flows))",
                "0.5",
                "Step of the time series (flent's default).",
            ),
            key(
                "omit",
                Kind::Number,
                "s",
                "0",
                "0 to below duration",
                "5.0",
                "Warm-up left out of every summary, kept in the time series (iperf3's \
                 --omit; --omit overrides it).",
            ),
            key(
                "seed",
                Kind::Integer,
                "",
                "1",
                "0 to 2^64-1",
                "7",
                "Root seed, split into named streams (--seed overrides it).",
            ),
            key(
                "seeds",
                Kind::Integer,
                "",
                "1",
                "1 to 1000",
                "5",
                "Repetitions: every variant runs under seeds seed to seed+seeds-1; tables \
                 show mean ± 95% confidence interval (--seeds overrides it).",
            ),
            key(
                "bss",
                Kind::Table,
                "",
                "[bss]'s defaults",
                "[bss] keys",
                "{ band = \"2.4GHz\" }",
                "BSS-wide radio settings: see [bss].",
            ),
            key(
                "ap",
                Kind::Table,
                "",
                "[ap]'s defaults",
                "[ap] keys",
                "{ preset = \"fifo\" }",
                "The AP's transmit path: see [ap].",
            ),
            key(
                "wired",
                Kind::Table,
                "",
                "[wired]'s defaults",
                "[wired] keys",
                "{ delay_ms = 10.0 }",
                "The link between the server and the AP: see [wired].",
            ),
            key(
                "station",
                Kind::Tables,
                "",
                "required",
                "one or more [[station]]",
                "[{ name = \"a\", standard = \"ht\", mcs = 7 }]",
                "The stations: see [[station]].",
            ),
            key(
                "traffic",
                Kind::Tables,
                "",
                "required",
                "one or more [[traffic]]",
                "[{ test = \"udp_flood\" }]",
                "The tests run: see [[traffic]].",
            ),
            key(
                "variant",
                Kind::Tables,
                "",
                "none",
                "[[variant]]s",
                "[{ name = \"v\", preset = \"fifo\" }]",
                "Named AP configurations `compare` runs side by side: see [[variant]].",
            ),
        ],
    }
}

fn bss() -> TableDoc {
    let ofdm = BssConfig::ofdm(Band::Ghz5);
    let dsss = BssConfig::dsss();
    let radio = ofdm.radio;
    TableDoc {
        path: "bss",
        about: "BSS-wide radio settings.",
        keys: vec![
            key(
                "band",
                Kind::Choice(BANDS),
                "",
                "5GHz",
                "",
                "\"2.4GHz\"",
                "The frequency band; it decides which standards stations may use.",
            ),
            key(
                "timing",
                Kind::Choice(TIMINGS),
                "",
                "ofdm",
                "",
                "\"ofdm\"",
                "MAC timing and control rates: ofdm (short slot, OFDM control frames; \
                 11a/g/n/ac/ax) or dsss (802.11b: long slot, 1 Mbit/s control frames; \
                 2.4GHz only).",
            ),
            key(
                "rts_cts",
                Kind::Boolean,
                "",
                "false",
                "true, false",
                "true",
                "RTS/CTS before every data PPDU (IEEE 802.11-2020 10.3.2.8).",
            ),
            key(
                "beacons",
                Kind::Boolean,
                "",
                "true",
                "true, false",
                "false",
                "Beacons every 100 TU (102.4 ms) at the lowest basic rate.",
            ),
            key(
                "retry_limit",
                Kind::Integer,
                "",
                format!(
                    "{} ({} with dsss timing)",
                    ofdm.retry_limit, dsss.retry_limit
                ),
                "1 to 255",
                "4",
                "Transmissions of an MPDU, the first included, before it is dropped.",
            ),
            key(
                "max_aggregate_airtime_us",
                Kind::Integer,
                "µs",
                ofdm.max_aggregate_airtime.as_micros().to_string(),
                "1 or more",
                "2000",
                "Cap on the airtime of one A-MPDU (ath9k ATH_AMPDU_LIMIT_MAX).",
            ),
            key(
                "station_queue_packets",
                Kind::Integer,
                "packets",
                STATION_QUEUE_PACKETS.to_string(),
                "1 or more",
                "100",
                "Packets each station's own transmit queue holds.",
            ),
            key(
                "path_loss",
                Kind::Choice(PATH_LOSS_MODELS),
                "",
                "tgax_residential",
                "",
                "\"tgax_enterprise\"",
                "Path loss of stations placed by distance_m: the TGax indoor models (IEEE \
                 802.11-14/0980r16): residential, free space to 5 m then 35 dB per decade, \
                 5 dB per wall; enterprise, free space to 10 m, 7 dB per wall. Evaluated at \
                 2437, 5180 or 5975 MHz by band.",
            ),
            key(
                "noise_figure_db",
                Kind::Number,
                "dB",
                number(radio.noise_figure_db),
                "0 to 30",
                "5.0",
                "Every receiver's noise figure, above thermal noise kTB over the channel \
                 width (22 MHz for DSSS): -94 dBm at 20 MHz with 7 dB (TGax evaluation \
                 methodology, ns-3's default). Stations with a channel only.",
            ),
            key(
                "ap_tx_power_dbm",
                Kind::Number,
                "dBm",
                number(radio.ap_tx_power_dbm),
                "-30 to 40",
                "23.0",
                "The AP's transmit power (TGax scenarios: 20 dBm). Stations with a channel \
                 only.",
            ),
        ],
    }
}

fn wired() -> TableDoc {
    let link = WiredLink::default();
    TableDoc {
        path: "wired",
        about: "The link between the server and the AP.",
        keys: vec![
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                number(link.rate_bps as f64 / 1e6),
                "above 0, at most 1e6 (1 Tbit/s)",
                "100.0",
                "Rate of the link; each direction queues at most Linux's txqueuelen (1000 \
                 packets) waiting to be sent, and drops beyond it (counted as wire_queue).",
            ),
            key(
                "delay_ms",
                Kind::Number,
                "ms",
                ms(link.delay),
                "0 to 10000",
                "5.0",
                "One-way propagation delay.",
            ),
            key(
                "extra_delay_ms",
                Kind::Number,
                "ms",
                "0",
                "0 to 10000",
                "20.0",
                "Added one-way delay (a netem delay on the server, as flent testbeds add).",
            ),
        ],
    }
}

fn station() -> TableDoc {
    TableDoc {
        path: "station[]",
        about: "One station, or `count` identical ones. Rates are checked against IEEE \
                802.11-2020's rate tables (HT Clause 19, VHT Clause 21; HE 802.11ax-2021 \
                Clause 27); a key that does not apply to the standard is refused.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                "one word, unique",
                "\"laptop\"",
                "Its name, or the base of `count` names.",
            ),
            key(
                "count",
                Kind::Integer,
                "",
                "1 (named <name>)",
                format!(
                    "1 or more; {} stations in all at most",
                    crate::scenario::station::MAX_STATIONS
                ),
                "3",
                "Identical stations named <name>1, <name>2, ...",
            ),
            key(
                "standard",
                Kind::Choice(STANDARDS),
                "",
                "required",
                "",
                "\"vht\"",
                "The PHY: dsss (802.11b, 2.4GHz), ofdm (802.11a/g), ht (802.11n), vht \
                 (802.11ac, 5GHz), he (802.11ax single-user).",
            ),
            key(
                "mcs",
                Kind::Integer,
                "",
                "required (ht, vht, he)",
                "HT 0 to 31, VHT 0 to 9, HE 0 to 11",
                "5",
                "MCS index (HT, VHT, HE).",
            ),
            key(
                "width",
                Kind::Integer,
                "MHz",
                "20",
                "HT 20, 40; VHT and HE 20, 40, 80, 160",
                "40",
                "Channel width (HT, VHT, HE).",
            ),
            key(
                "gi",
                Kind::String,
                "",
                "long (HT, VHT); 0.8 (HE)",
                "long, short (HT, VHT); 0.8, 1.6, 3.2 (HE, µs)",
                "\"short\"",
                "Guard interval (HT, VHT, HE).",
            ),
            key(
                "streams",
                Kind::Integer,
                "",
                "1 (VHT, HE); the MCS's (HT)",
                "1 to 8; HT: the MCS's own",
                "2",
                "Spatial streams (VHT, HE; an HT MCS implies them).",
            ),
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                "required (dsss, ofdm)",
                "dsss 1, 2, 5.5, 11; ofdm 6, 9, 12, 18, 24, 36, 48, 54",
                "54.0",
                "Legacy rate (DSSS, OFDM).",
            ),
            key(
                "preamble",
                Kind::String,
                "",
                "long",
                "long, short",
                "\"short\"",
                "DSSS preamble (dsss only).",
            ),
            key(
                "frame_error_rate",
                Kind::Number,
                "",
                "0",
                "0 to below 1",
                "0.1",
                "Probability that one MPDU is received in error, the same for every MPDU \
                 (not with distance_m or attenuation_db).",
            ),
            key(
                "distance_m",
                Kind::Number,
                "m",
                "none (fixed errors)",
                "above 0, at most 10000",
                "12.0",
                "Distance to the AP: the [bss] path_loss model gives the loss, and each \
                 MPDU's error probability follows the SNR of its PPDU (NIST OFDM model; \
                 802.11b DSSS/CCK model) at its rate and length.",
            ),
            key(
                "walls",
                Kind::Integer,
                "",
                "0",
                "0 to 100; with distance_m",
                "2",
                "Walls between the station and the AP, for the path_loss model.",
            ),
            key(
                "attenuation_db",
                Kind::NumberOrPairs,
                "dB",
                "none (fixed errors)",
                "0 to 250 dB; pairs of time 0 to 1e7 s, times increasing",
                "[[0.0, 40.0], [10.0, 60.0]]",
                "Attenuation between the station and the AP (with distance_m, added to its \
                 path loss): a number, or [time_s, dB] points evaluated at each PPDU (the \
                 first point's value before it, the last's after it), as a programmable \
                 attenuator in a rate-vs-range test. Gives the station the SNR error model.",
            ),
            key(
                "attenuation_change",
                Kind::Choice(ATTENUATION_CHANGES),
                "",
                "step",
                "",
                "\"ramp\"",
                "Between the points of an attenuation_db schedule: step holds each value \
                 until the next point, ramp goes linearly in dB.",
            ),
            key(
                "tx_power_dbm",
                Kind::Number,
                "dBm",
                number(DEFAULT_STATION_TX_POWER_DBM),
                "-30 to 40; with distance_m or attenuation_db",
                "18.0",
                "The station's transmit power (TGax scenarios: 15 dBm), for its uplink.",
            ),
            key(
                "weight",
                Kind::Integer,
                "µs",
                format!(
                    "ap.airtime.default_weight_us ({})",
                    AirtimeParams::default().default_weight_us
                ),
                format!("1 to {}", AirtimeParams::MAX_WEIGHT_US),
                "512",
                "Airtime weight per scheduler round (`iw ... station set ... \
                 airtime_weight`); the airtime scheduler only.",
            ),
            key(
                "group",
                Kind::String,
                "",
                "none",
                "the name of an [[ap.group]]",
                "\"g\"",
                "The airtime group the station belongs to.",
            ),
        ],
    }
}

fn traffic() -> TableDoc {
    let tcp = TcpConfig::default();
    let page = airq_sim::apps::traffic::WebPage::default();
    let tests: Vec<&str> = TESTS.iter().map(|t| t.name).collect();
    TableDoc {
        path: "traffic[]",
        about: "One test, as flent names it, to some or all stations (`airq list tests`). \
                Every test takes `test`, `stations`, `start` and `stop`; the other keys \
                belong to the tests named beside them.",
        keys: vec![
            key(
                "test",
                Kind::String,
                "",
                "required",
                tests.join(", "),
                "\"tcp_download\"",
                "The test.",
            ),
            key(
                "stations",
                Kind::Strings,
                "",
                "every station",
                "station names, or the base name of a `count` group",
                "[\"fast\"]",
                "The stations the test runs to or from.",
            ),
            key(
                "flows",
                Kind::Integer,
                "",
                "1",
                "1 or more; at most 1e6 flows in the whole scenario",
                "2",
                format!("Flows per station. {}", tests_taking("flows")),
            ),
            key(
                "direction",
                Kind::String,
                "",
                "down",
                "down, up",
                "\"up\"",
                format!(
                    "down (to the stations) or up. {}",
                    tests_taking("direction")
                ),
            ),
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                "required (udp_cbr)",
                "above 0; down: flows × rate at most the wired rate; a packet a µs at most",
                "10.0",
                format!("Rate per flow. {}", tests_taking("rate_mbps")),
            ),
            key(
                "payload_bytes",
                Kind::Integer,
                "bytes",
                "1472",
                "1 to 65507",
                "1000",
                format!("UDP payload per packet. {}", tests_taking("payload_bytes")),
            ),
            key(
                "dscp",
                Kind::Integer,
                "",
                "0 (BE); voip 46 (EF)",
                "0 to 63",
                "46",
                format!(
                    "DiffServ code point; sets the TID as Linux maps it (RFC 8325 §4.3). {}",
                    tests_taking("dscp")
                ),
            ),
            key(
                "interval_ms",
                Kind::Number,
                "ms",
                "200",
                "0.001 to 1e10 (the longest run)",
                "100.0",
                format!("Between two pings. {}", tests_taking("interval_ms")),
            ),
            key(
                "to",
                Kind::String,
                "",
                "none (the server)",
                "a station's name",
                "\"slow\"",
                format!(
                    "Ping this station from the others, through the AP. {}",
                    tests_taking("to")
                ),
            ),
            key(
                "pages",
                Kind::Integer,
                "",
                "no limit (until stop)",
                "1 or more",
                "10",
                format!("Pages to fetch. {}", tests_taking("pages")),
            ),
            key(
                "cc",
                Kind::String,
                "",
                "cubic",
                "cubic, newreno",
                "\"newreno\"",
                format!("TCP congestion control. {}", tests_taking("cc")),
            ),
            key(
                "ecn",
                Kind::Boolean,
                "",
                tcp.ecn.to_string(),
                "true, false",
                "true",
                format!(
                    "Negotiate ECN on both ends of the TCP connections (RFC 3168). {}",
                    tests_taking("ecn")
                ),
            ),
            key(
                "keep_alive",
                Kind::Boolean,
                "",
                page.keep_alive.to_string(),
                "true, false",
                "true",
                format!(
                    "Keep web connections open from page to page. {}",
                    tests_taking("keep_alive")
                ),
            ),
            key(
                "think_ms",
                Kind::Number,
                "ms",
                ms(page.think_time),
                "0 to 1e10",
                "500.0",
                format!("Pause between two pages. {}", tests_taking("think_ms")),
            ),
            key(
                "start",
                Kind::Number,
                "s",
                "0",
                "0 to below duration",
                "1.0",
                "When the test starts.",
            ),
            key(
                "stop",
                Kind::Number,
                "s",
                "the end of the run",
                "after start",
                "20.0",
                "When the test stops.",
            ),
        ],
    }
}

fn ap() -> TableDoc {
    let preset_keys = |name: &'static str, values: &'static [&'static str], example, what| {
        key(
            name,
            Kind::Choice(values),
            "",
            "preset's",
            "",
            example,
            what,
        )
    };
    TableDoc {
        path: "ap",
        about: "The AP's transmit path: a preset (`airq list configs`), any layer replaced, \
                and any layer's parameters changed in the table named for the choice it \
                tunes, which applies wherever that choice is in use.",
        keys: vec![
            key(
                "preset",
                Kind::String,
                "",
                "airtime",
                PRESET_NAMES.join(", "),
                "\"fq_mac\"",
                "The configuration the layers below change (--config replaces it).",
            ),
            preset_keys(
                "qdisc",
                QDISCS,
                "\"fq_codel\"",
                "The qdisc: none (noqueue), pfifo_fast (Linux's default), fq_codel (RFC \
                 8290).",
            ),
            preset_keys(
                "mac",
                MACS,
                "\"fq_mac\"",
                "The MAC queues: legacy (per station-TID FIFOs, ath9k before mac80211's \
                 TXQs) or fq_mac (mac80211's FQ-CoDel per station-TID).",
            ),
            preset_keys(
                "scheduler",
                SCHEDULERS,
                "\"round_robin\"",
                "The station scheduler: round_robin over station-TIDs, or airtime \
                 (mac80211's airtime deficit round robin over stations).",
            ),
            preset_keys(
                "aql",
                AQLS,
                "\"kernel\"",
                "Airtime Queue Limits: off, kernel (mac80211's limits), self_tuning (the \
                 kernel's limits tuned per station-AC).",
            ),
            key(
                "driver",
                Kind::Choice(DRIVERS),
                "",
                "preset's (softmac)",
                "",
                "\"firmware\"",
                "The driver: softmac (ath9k-like), firmware (ath10k push-pull), \
                 firmware_push (ath10k before peer flow control); --driver sets it.",
            ),
            key(
                "host_latency_us",
                Kind::Number,
                "µs",
                number(DEFAULT_HOST_LATENCY.as_micros() as f64),
                format!(
                    "above 0, at most {}",
                    number(MAX_HOST_LATENCY.as_micros() as f64)
                ),
                "100.0",
                "How long the host's driver takes to act on a completion or a firmware \
                 fetch (our choice: a softirq's latency).",
            ),
            table_key("pfifo_fast", "{ limit_packets = 100 }"),
            table_key("fq_codel", "{ target_ms = 10.0 }"),
            table_key("legacy", "{ txq_max_pending = 64 }"),
            table_key("fq_mac", "{ quantum_frames = 2 }"),
            table_key("airtime", "{ use_rx = false }"),
            table_key("aql_limits", "{ threshold_us = 12000 }"),
            table_key("softmac", "{ max_subframes = 16 }"),
            table_key("firmware", "{ fetch_frames = 16 }"),
            key(
                "group",
                Kind::Tables,
                "",
                "none",
                "[[ap.group]]s",
                "[{ name = \"g\", weight = 512 }]",
                "Airtime groups: see [[ap.group]].",
            ),
        ],
    }
}

/// A parameter table's key in `[ap]`.
fn table_key(name: &'static str, example: &'static str) -> KeyDoc {
    key(
        name,
        Kind::Table,
        "",
        "its defaults",
        format!("[ap.{name}] keys"),
        example,
        format!("Parameters of {name}: see [ap.{name}]."),
    )
}

/// `[ap.fq_codel]` or `[ap.fq_mac]`, whose defaults are `d`.
fn fq(path: &'static str, about: &'static str, d: FqParams) -> TableDoc {
    let (quantum_bytes, quantum_frames) = match d.quantum {
        Quantum::Bytes(n) => (n.to_string(), "none (a byte quantum)".to_string()),
        Quantum::Frames(n) => ("none (a frame quantum)".to_string(), n.to_string()),
    };
    let quantum_range = format!("1 to {}; not with the other quantum", Quantum::MAX);
    TableDoc {
        path,
        about,
        keys: vec![
            key(
                "flows",
                Kind::Integer,
                "",
                d.flows.to_string(),
                format!("1 to {}", FqParams::MAX_FLOWS),
                "256",
                "Flow queues (hashed per 5-tuple).",
            ),
            key(
                "limit_packets",
                Kind::Integer,
                "packets",
                d.limit_packets.to_string(),
                "1 or more",
                "1000",
                "Global limit on queued packets; the fattest flow drops above it.",
            ),
            key(
                "memory_limit_bytes",
                Kind::Integer,
                "bytes",
                d.memory_limit_bytes.to_string(),
                "1 or more",
                "4194304",
                "Global limit on queued memory (packets' truesize).",
            ),
            key(
                "quantum_bytes",
                Kind::Integer,
                "bytes",
                quantum_bytes,
                quantum_range.clone(),
                "1514",
                "DRR quantum: bytes a flow may send per round.",
            ),
            key(
                "quantum_frames",
                Kind::Integer,
                "frames",
                quantum_frames,
                quantum_range,
                "2",
                "A frame-count quantum instead (Kan Yan's AQL proposal): small ACKs count \
                 like full-size packets.",
            ),
            key(
                "target_ms",
                Kind::Number,
                "ms",
                ms(d.codel.target),
                "0.001 to 1e6, below interval_ms",
                "10.0",
                "CoDel's target: the standing queue delay it tolerates (RFC 8289 §4.4).",
            ),
            key(
                "interval_ms",
                Kind::Number,
                "ms",
                ms(d.codel.interval),
                "0.001 to 1e6",
                "200.0",
                "CoDel's interval: how long the delay may stay above target before it \
                 drops (RFC 8289 §4.3).",
            ),
            key(
                "ecn",
                Kind::Boolean,
                "",
                d.codel.ecn.to_string(),
                "true, false",
                "false",
                "Mark ECN-capable packets instead of dropping them (RFC 8289 §5.5).",
            ),
        ],
    }
}

fn airtime() -> TableDoc {
    let d = AirtimeParams::default();
    TableDoc {
        path: "ap.airtime",
        about: "Parameters of the airtime scheduler (net/mac80211 airtime DRR), wherever it \
                is in use.",
        keys: vec![
            key(
                "default_weight_us",
                Kind::Integer,
                "µs",
                d.default_weight_us.to_string(),
                format!("1 to {}", AirtimeParams::MAX_WEIGHT_US),
                "128",
                "Weight of stations without their own `weight` \
                 (IEEE80211_DEFAULT_AIRTIME_WEIGHT).",
            ),
            key(
                "use_rx",
                Kind::Boolean,
                "",
                d.use_rx.to_string(),
                "true, false",
                "false",
                "Charge received (uplink) airtime too (mac80211 AIRTIME_USE_RX).",
            ),
            key(
                "station_first",
                Kind::Boolean,
                "",
                "false (per AC, as mac80211)",
                "true, false",
                "true",
                "Pick the station first, then its highest AC (Ending the Anomaly §4.3).",
            ),
            key(
                "sparse_first",
                Kind::Boolean,
                "",
                d.sparse_first.to_string(),
                "true, false",
                "false",
                "The sparse-station optimisation (mac80211; seed 002 slide 33): a station \
                 that becomes active is put at the head of the list and served at once; \
                 false puts it at the back, to measure what the optimisation does.",
            ),
        ],
    }
}

fn aql_limits() -> TableDoc {
    let d = AqlParams::default();
    let limits = d.limits[0];
    TableDoc {
        path: "ap.aql_limits",
        about: "Airtime Queue Limits of every AC (kernel and self-tuning AQL); defaults of \
                include/net/cfg80211.h IEEE80211_DEFAULT_AQL_TXQ_LIMIT_L/_H and \
                IEEE80211_AQL_THRESHOLD.",
        keys: vec![
            key(
                "limit_low_us",
                Kind::Integer,
                "µs",
                limits.aql_limit_low_us.to_string(),
                "1 or more, at most limit_high_us",
                "2500",
                "Airtime a station-AC may always have pending (aql_limit_low).",
            ),
            key(
                "limit_high_us",
                Kind::Integer,
                "µs",
                limits.aql_limit_high_us.to_string(),
                "1 or more",
                "8000",
                "Airtime a station-AC may have pending while the interface is below the \
                 threshold (aql_limit_high).",
            ),
            key(
                "threshold_us",
                Kind::Integer,
                "µs",
                d.aql_threshold_us.to_string(),
                "1 or more",
                "12000",
                "Interface-wide pending airtime above which every station is held to its \
                 low limit (aql_threshold).",
            ),
        ],
    }
}

fn softmac() -> TableDoc {
    TableDoc {
        path: "ap.softmac",
        about: "Parameters of the softmac (ath9k-like) driver: its hardware queue depths.",
        keys: vec![
            key(
                "aggr_min_qdepth",
                Kind::Integer,
                "A-MPDUs",
                ATH9K_AGGR_MIN_QDEPTH.to_string(),
                "1 or more",
                "3",
                "A-MPDUs per AC queued to the hardware (ath9k ATH_AGGR_MIN_QDEPTH).",
            ),
            key(
                "non_aggr_min_qdepth",
                Kind::Integer,
                "PPDUs",
                ATH9K_NON_AGGR_MIN_QDEPTH.to_string(),
                "1 or more",
                "4",
                "PPDUs per AC below which a single frame may be queued (ath9k \
                 ATH_NON_AGGR_MIN_QDEPTH).",
            ),
            key(
                "max_subframes",
                Kind::Integer,
                "frames",
                ATH9K_AMPDU_SUBFRAME_DEFAULT.to_string(),
                "1 to 65535; half the BlockAck window at most takes effect",
                "16",
                "Subframes per A-MPDU, at most (ath9k ATH_AMPDU_SUBFRAME_DEFAULT).",
            ),
        ],
    }
}

fn firmware() -> TableDoc {
    TableDoc {
        path: "ap.firmware",
        about: "Parameters of the firmware (ath10k-like) driver: its queue.",
        keys: vec![
            key(
                "max_pending_frames",
                Kind::Integer,
                "frames",
                ATH10K_MAX_PENDING_FRAMES.to_string(),
                "1 or more",
                "512",
                "Frames the firmware holds at most, all queues together (ath10k \
                 TARGET_10X_NUM_MSDU_DESC).",
            ),
            key(
                "fetch_frames",
                Kind::Integer,
                "frames",
                FIRMWARE_FETCH_FRAMES.to_string(),
                "1 or more",
                "16",
                "Push-pull only: frames the firmware asks for per TXQ in one fetch (our \
                 choice: one ath9k-sized aggregate).",
            ),
        ],
    }
}

fn group() -> TableDoc {
    TableDoc {
        path: "ap.group[]",
        about: "An airtime group: stations join it with their `group` key; groups nest \
                (netdev 2.2 airtime policies). The airtime scheduler only.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                "unique",
                "\"guests\"",
                "What stations' `group` keys name.",
            ),
            key(
                "weight",
                Kind::Integer,
                "µs",
                "256",
                format!("1 to {}", AirtimeParams::MAX_WEIGHT_US),
                "128",
                "DRR weight of the group per round.",
            ),
            key(
                "mode",
                Kind::Choice(GROUP_MODES),
                "",
                "share",
                "",
                "\"limit\"",
                "share: work-conserving; limit: capped at its share even when the rest is \
                 idle (a guest network).",
            ),
            key(
                "parent",
                Kind::String,
                "",
                "none (the root)",
                "the name of a group listed before it",
                "\"g\"",
                "The group it is nested in.",
            ),
        ],
    }
}

fn variant() -> TableDoc {
    TableDoc {
        path: "variant[]",
        about: "A named AP configuration `compare` runs beside the others: a preset and \
                changes to any scenario key. The name labels its column, files and plots.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                format!(
                    "1 to {} letters, digits, - _ . + =; unique",
                    crate::scenario::variant::MAX_NAME_LEN
                ),
                "\"fq+airtime\"",
                "Labels the variant's runs.",
            ),
            key(
                "preset",
                Kind::String,
                "",
                "the scenario's ap.preset",
                PRESET_NAMES.join(", "),
                "\"fifo\"",
                "The preset it starts from.",
            ),
            key(
                "set",
                Kind::AnyKeys,
                "",
                "{} (no change)",
                "scenario keys but name, description, seed, duration, step, variant, \
                 ap.preset",
                "{ \"ap.qdisc\" = \"fq_codel\" }",
                "Scenario keys it changes, as --set would (dotted keys or nested tables).",
            ),
        ],
    }
}
