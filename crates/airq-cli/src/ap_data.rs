//! The AP configuration a run used, as data for its results file: every layer choice and
//! parameter, under the keys a scenario's `[ap]` table uses (`qdisc`, `fq_codel.target_ms`,
//! `aql_limits`, ...), so a reader can see — and a script compare — exactly what ran,
//! whatever preset and overrides produced it.

use airq::airtime::{GroupMode, SchedulingMode};
use airq::fq::{FqParams, Quantum};
use airq::Duration;
use airq_sim::ap::{
    ApConfig, AqlConfig, DriverConfig, FirmwareMode, MacConfig, QdiscConfig, SchedulerConfig,
};
use serde_json::{json, Map, Value};

/// `ap` as the results file records it.
pub fn ap_data(ap: &ApConfig) -> Value {
    let mut m = Map::new();
    let (qdisc, params) = match &ap.qdisc {
        QdiscConfig::None => ("none", None),
        QdiscConfig::PfifoFast { limit_packets } => (
            "pfifo_fast",
            Some(("pfifo_fast", json!({ "limit_packets": limit_packets }))),
        ),
        QdiscConfig::FqCodel(p) => ("fq_codel", Some(("fq_codel", fq(p)))),
    };
    m.insert("qdisc".into(), qdisc.into());
    m.extend(params.map(|(k, v)| (k.to_string(), v)));
    let (mac, (key, params)) = match &ap.mac {
        MacConfig::Legacy { txq_max_pending } => (
            "legacy",
            ("legacy", json!({ "txq_max_pending": txq_max_pending })),
        ),
        MacConfig::FqMac(p) => ("fq_mac", ("fq_mac", fq(p))),
    };
    m.insert("mac".into(), mac.into());
    m.insert(key.into(), params);
    // Only when on, so that files of runs without it stay as they were.
    if ap.slow_station_codel {
        m.insert("slow_station_codel".into(), true.into());
    }
    match &ap.scheduler {
        SchedulerConfig::RoundRobin => {
            m.insert("scheduler".into(), "round_robin".into());
        }
        SchedulerConfig::Airtime(p) => {
            m.insert("scheduler".into(), "airtime".into());
            m.insert(
                "airtime".into(),
                json!({
                    "default_weight_us": p.default_weight_us,
                    "use_tx": p.use_tx,
                    "use_rx": p.use_rx,
                    "fairness": p.fairness,
                    "active_window_ms": ms(p.active_window),
                    "station_first": p.mode == SchedulingMode::StationFirst,
                    "sparse_first": p.sparse_first,
                }),
            );
        }
    }
    match &ap.aql {
        AqlConfig::Off => {
            m.insert("aql".into(), "off".into());
        }
        AqlConfig::On(p) => {
            let kind = if p.self_tuning.is_some() {
                "self_tuning"
            } else {
                "kernel"
            };
            m.insert("aql".into(), kind.into());
            let per_ac: Vec<Value> = p
                .limits
                .iter()
                .map(|l| {
                    json!({
                        "limit_low_us": l.aql_limit_low_us,
                        "limit_high_us": l.aql_limit_high_us,
                    })
                })
                .collect();
            m.insert(
                "aql_limits".into(),
                json!({
                    "per_ac_vo_vi_be_bk": per_ac,
                    "threshold_us": p.aql_threshold_us,
                    "station_gate": p.station_gate_enabled,
                    "estimator": format!("{:?}", p.estimator),
                    "self_tuning": p.self_tuning.as_ref().map(|t| format!("{t:?}")),
                }),
            );
        }
    }
    match &ap.driver {
        DriverConfig::Softmac {
            aggr_min_qdepth,
            non_aggr_min_qdepth,
            max_subframes,
        } => {
            m.insert("driver".into(), "softmac".into());
            m.insert(
                "softmac".into(),
                json!({
                    "aggr_min_qdepth": aggr_min_qdepth,
                    "non_aggr_min_qdepth": non_aggr_min_qdepth,
                    "max_subframes": max_subframes,
                }),
            );
        }
        DriverConfig::Firmware {
            max_pending_frames,
            mode,
        } => {
            let (driver, fetch) = match mode {
                FirmwareMode::Pull { fetch_frames } => ("firmware", Some(*fetch_frames)),
                FirmwareMode::Push => ("firmware_push", None),
            };
            m.insert("driver".into(), driver.into());
            m.insert(
                "firmware".into(),
                json!({ "max_pending_frames": max_pending_frames, "fetch_frames": fetch }),
            );
        }
    }
    m.insert(
        "host_latency_us".into(),
        (ap.host_latency.as_nanos() as f64 / 1e3).into(),
    );
    // Only when on: results of runs without it stay as they were.
    if let Some(p) = &ap.aggregation.sizing {
        m.insert(
            "aggregate_sizing".into(),
            json!({
                "enabled": true,
                "round_airtime_us": p.round_airtime.as_micros(),
                "min_airtime_us": p.min_airtime.as_micros(),
            }),
        );
    }
    if let Some(p) = &ap.aggregation.qos {
        m.insert(
            "qos_aggregate".into(),
            json!({
                "enabled": true,
                "max_vo_frames": p.max_vo_frames,
                "max_contenders": p.max_contenders,
                "contention_window_ms": p.contention_window.as_millis(),
                "max_wait_us": p.max_wait.as_micros(),
            }),
        );
    }
    if let Some(p) = &ap.aggregation.just_in_time {
        m.insert(
            "just_in_time".into(),
            json!({
                "enabled": true,
                "lead_time_us": p.lead_time.as_micros(),
                "max_jitter_us": p.max_jitter.as_micros(),
            }),
        );
    }
    let weights: Vec<Value> = ap
        .airtime_weights
        .iter()
        .map(|w| json!({ "station": w.station.index(), "weight_us": w.weight_us }))
        .collect();
    m.insert("station_weights".into(), weights.into());
    let groups: Vec<Value> = ap
        .airtime_groups
        .iter()
        .map(|g| {
            json!({
                "weight": g.weight_us,
                "mode": match g.mode {
                    GroupMode::Share => "share",
                    GroupMode::Limit => "limit",
                },
                "stations": g.stations.iter().map(|s| s.index()).collect::<Vec<_>>(),
                "parent": g.parent,
            })
        })
        .collect();
    m.insert("group".into(), groups.into());
    // Only when on: results of runs without it stay as they were.
    if let Some(p) = &ap.admission {
        m.insert(
            "admission".into(),
            json!({
                "enabled": true,
                "target_ms": ms(p.target),
                "interval_ms": ms(p.interval),
                "promote_after_ms": ms(p.promote_after),
                "mtu_bytes": p.mtu_bytes,
                "demote_to": p.demote_to.to_string().to_lowercase(),
                "flows": p.flows,
            }),
        );
    }
    // Only when on: results of runs without it stay as they were.
    if let Some(p) = &ap.retry_time {
        m.insert(
            "retry".into(),
            json!({
                "time_limit_ms": ms(p.time_limit),
                "min_tries": p.min_tries,
                "include_queue_time": p.include_queue_time,
            }),
        );
    }
    Value::Object(m)
}

fn fq(p: &FqParams) -> Value {
    let (quantum_key, quantum) = match p.quantum {
        Quantum::Bytes(b) => ("quantum_bytes", b),
        Quantum::Frames(n) => ("quantum_frames", n),
    };
    json!({
        "flows": p.flows,
        "limit_packets": p.limit_packets,
        "memory_limit_bytes": p.memory_limit_bytes,
        quantum_key: quantum,
        "target_ms": ms(p.codel.target),
        "interval_ms": ms(p.codel.interval),
        "ecn": p.codel.ecn,
        "mtu_bytes": p.codel.mtu_bytes,
    })
}

fn ms(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_recorded_with_its_layers_and_parameters() {
        let fifo = ap_data(&ApConfig::preset("fifo").unwrap());
        assert_eq!(fifo["qdisc"], "pfifo_fast");
        assert_eq!(fifo["mac"], "legacy");
        assert_eq!(fifo["scheduler"], "round_robin");
        let aql = ap_data(&ApConfig::preset("airtime_aql").unwrap());
        assert_eq!(aql["mac"], "fq_mac");
        assert_eq!(aql["fq_mac"]["target_ms"], 20.0, "mac80211's CoDel target");
        assert_eq!(aql["aql"], "kernel");
        assert_eq!(
            aql["aql_limits"]["per_ac_vo_vi_be_bk"][2]["limit_low_us"],
            5000
        );
        assert_eq!(aql["airtime"]["station_first"], false);
    }
}
