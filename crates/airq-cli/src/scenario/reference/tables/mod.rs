//! The reference's data: one function per table of the schema, in files by part of the
//! scenario: the run, BSS and wired link (`run`), stations, traffic, and the AP with its
//! groups and the variants (`ap`).

mod admission;
mod ap;
mod qos_aggregate;
mod retry;
mod run;
mod station;
mod traffic;

use admission::admission;
use ap::{
    aggregate_sizing, airtime, ap, aql_limits, firmware, fq, group, just_in_time, softmac, variant,
};
use qos_aggregate::qos_aggregate;
use retry::retry;
use run::{bss, top_level, wired};
use station::station;
use traffic::traffic;

use super::{key, ms, number, tests_taking, KeyDoc, Kind, TableDoc};
use crate::scenario::traffic::TESTS;
use airq::aggregate::{AggregateSizingParams, JustInTimeParams};
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
const PROTECTIONS: &[&str] = &["auto", "off", "cts_to_self", "rts_cts"];
const AP_EDCAS: &[&str] = &["ap", "station"];
const STANDARDS: &[&str] = &["dsss", "ofdm", "ht", "vht", "he"];
const QDISCS: &[&str] = &["none", "pfifo_fast", "fq_codel"];
const MACS: &[&str] = &["legacy", "fq_mac"];
const SCHEDULERS: &[&str] = &["round_robin", "airtime"];
const AQLS: &[&str] = &["off", "kernel", "self_tuning"];
const DRIVERS: &[&str] = &["softmac", "firmware", "firmware_push"];
const GROUP_MODES: &[&str] = &["share", "limit"];
const PATH_LOSS_MODELS: &[&str] = &["tgax_residential", "tgax_enterprise"];
const ATTENUATION_CHANGES: &[&str] = &["step", "ramp"];
const RATE_CONTROLS: &[&str] = &["fixed", "minstrel_ht"];
const STATION_QUEUES: &[&str] = &["fifo", "fq_mac"];

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
            fq_codel_defaults().memory_limit_bytes.to_string(),
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
            format!(
                "{}; {} when no station has a VHT or HE rate (an AP without VHT)",
                FqParams::default().memory_limit_bytes,
                FqParams::mac80211_non_vht().memory_limit_bytes
            ),
        ),
        airtime(),
        aql_limits(),
        softmac(),
        firmware(),
        aggregate_sizing(),
        just_in_time(),
        qos_aggregate(),
        admission(),
        retry(),
        group(),
        variant(),
    ]
}
