//! `[ap]`, its parameter tables and groups, and `[[variant]]`.

use super::*;

pub(super) fn ap() -> TableDoc {
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
            key(
                "slow_station_codel",
                Kind::Boolean,
                "",
                "false",
                "true, false",
                "true",
                "FQ-MAC's CoDel per station as mac80211 had it from 2016 to 2025 \
                 (sta_update_codel_params, reverted in 2025): a station whose expected \
                 throughput (Minstrel-HT's, or its fixed rate's) is below 6 Mbit/s times \
                 the stations gets target 50 ms, interval 300 ms, no ECN.",
            ),
            table_key("pfifo_fast", "{ limit_packets = 100 }"),
            table_key("fq_codel", "{ target_ms = 10.0 }"),
            table_key("legacy", "{ txq_max_pending = 64 }"),
            table_key("fq_mac", "{ quantum_frames = 2 }"),
            table_key("airtime", "{ use_rx = false }"),
            table_key("aql_limits", "{ threshold_us = 12000 }"),
            table_key("softmac", "{ max_subframes = 16 }"),
            table_key("firmware", "{ fetch_frames = 16 }"),
            table_key("aggregate_sizing", "{ enabled = true }"),
            table_key("just_in_time", "{ enabled = true }"),
            table_key("qos_aggregate", "{ enabled = true }"),
            table_key("admission", "{ enabled = true }"),
            table_key("retry", "{ time_limit_ms = 10.0 }"),
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
pub(super) fn table_key(name: &'static str, example: &'static str) -> KeyDoc {
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

/// `[ap.fq_codel]` or `[ap.fq_mac]`, whose defaults are `d` (the memory limit's
/// described by `memory_default`).
pub(super) fn fq(
    path: &'static str,
    about: &'static str,
    d: FqParams,
    memory_default: String,
) -> TableDoc {
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
                memory_default,
                "1 or more",
                "4194304",
                "Global limit on queued memory, counted as Linux's skb->truesize: 2304 \
                 bytes a packet (a NIC's 2 KiB receive buffer with its sk_buff).",
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

pub(super) fn airtime() -> TableDoc {
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

pub(super) fn aql_limits() -> TableDoc {
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

pub(super) fn softmac() -> TableDoc {
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

pub(super) fn aggregate_sizing() -> TableDoc {
    let d = AggregateSizingParams::default();
    TableDoc {
        path: "ap.aggregate_sizing",
        about: "Dynamic aggregate sizing (Ending the Anomaly, netdev 2.2 paper §4.1; not in \
                Linux), in either driver: with n stations holding frames at the AP, each \
                aggregate lasts at most round_airtime_us / n, never less than \
                min_airtime_us (nor more than it could otherwise). Off by default.",
        keys: vec![
            key(
                "enabled",
                Kind::Boolean,
                "",
                "false",
                "true, false; required when a parameter is given",
                "true",
                "Turns the rule on.",
            ),
            key(
                "round_airtime_us",
                Kind::Integer,
                "µs",
                d.round_airtime.as_micros().to_string(),
                format!(
                    "min_airtime_us to {}",
                    AggregateSizingParams::MAX_ROUND_AIRTIME.as_micros()
                ),
                "8000",
                "The airtime budget of one round of the backlogged stations: up to \
                 round_airtime_us / 4000 stations keep 4 ms aggregates.",
            ),
            key(
                "min_airtime_us",
                Kind::Integer,
                "µs",
                d.min_airtime.as_micros().to_string(),
                "1 or more",
                "500",
                "The floor of the cap (the seed's \"say, 1 ms\").",
            ),
        ],
    }
}

pub(super) fn just_in_time() -> TableDoc {
    let d = JustInTimeParams::default();
    let max = JustInTimeParams::MAX.as_micros();
    TableDoc {
        path: "ap.just_in_time",
        about: "Just-in-time aggregates (Ending the Anomaly, netdev 2.2 paper §4.1; not in \
                ath9k), softmac driver only: the A-MPDU after the one on the air is built \
                lead_time_us before that one's expected end (its start, which the model \
                knows, plus its TXTIME), late by a host scheduling jitter uniform up to \
                max_jitter_us from the run's host-jitter stream, instead of as soon as the \
                hardware queue has room for a second. Off by default.",
        keys: vec![
            key(
                "enabled",
                Kind::Boolean,
                "",
                "false",
                "true, false; required when a parameter is given",
                "true",
                "Turns the rule on (refused with a firmware driver).",
            ),
            key(
                "lead_time_us",
                Kind::Integer,
                "µs",
                d.lead_time.as_micros().to_string(),
                format!("0 to {max}"),
                "1000",
                "How long before the on-air A-MPDU's expected end the next is built (our \
                 choice: ten host latencies).",
            ),
            key(
                "max_jitter_us",
                Kind::Integer,
                "µs",
                d.max_jitter.as_micros().to_string(),
                format!("0 to {max}"),
                "500",
                "The host's scheduling lateness is uniform in 0 to this (our choice).",
            ),
        ],
    }
}

pub(super) fn firmware() -> TableDoc {
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

pub(super) fn group() -> TableDoc {
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

pub(super) fn variant() -> TableDoc {
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
