//! `[ap.aggregate_sizing]`, `[ap.just_in_time]` and `[ap.qos_aggregate]` → the AP's
//! [`AggregationConfig`]: the aggregate-building options of the seed's §4.1 and §4.3
//! (netdev 2.2 paper), each off unless its table says
//! `enabled = true`. Parameters without `enabled` are refused, so that a table written
//! to turn an option on cannot silently leave it off.

use super::ap_file::ApSection;
use super::location::{KeyPath, SourceMap};
use crate::error::CliError;
use airq::aggregate::{AggregateSizingParams, JustInTimeParams, QosAggregateParams};
use airq::Duration;
use airq_sim::ap::ApConfig;

/// Checks the options' tables, naming the key at fault.
pub fn check(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    check_just_in_time(section, map)?;
    check_qos_aggregate(section, map)?;
    let Some(a) = &section.aggregate_sizing else {
        return Ok(());
    };
    let path = KeyPath::key("ap").join("aggregate_sizing");
    let given = [
        ("round_airtime_us", a.round_airtime_us),
        ("min_airtime_us", a.min_airtime_us),
    ];
    if a.enabled.is_none() {
        if let Some((k, _)) = given.iter().find(|(_, v)| v.is_some()) {
            return Err(map.error_at(
                &path.join(k),
                "set `enabled = true` to turn aggregate sizing on (or `false` to keep it off)",
            ));
        }
    }
    let p = sizing_params(a.round_airtime_us, a.min_airtime_us);
    if p.min_airtime.is_zero() {
        return Err(map.error_at(&path.join("min_airtime_us"), "must be at least 1 us"));
    }
    let max_us = AggregateSizingParams::MAX_ROUND_AIRTIME.as_micros();
    if p.round_airtime < p.min_airtime || p.round_airtime.as_micros() > max_us {
        return Err(map.error_at(
            &path.join("round_airtime_us"),
            format!(
                "must be at least min_airtime_us ({} us) and at most {max_us} us, got {} us",
                p.min_airtime.as_micros(),
                p.round_airtime.as_micros()
            ),
        ));
    }
    Ok(())
}

fn check_just_in_time(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    let Some(j) = &section.just_in_time else {
        return Ok(());
    };
    let path = KeyPath::key("ap").join("just_in_time");
    let given = [
        ("lead_time_us", j.lead_time_us),
        ("max_jitter_us", j.max_jitter_us),
    ];
    if j.enabled.is_none() {
        if let Some((k, _)) = given.iter().find(|(_, v)| v.is_some()) {
            return Err(map.error_at(
                &path.join(k),
                "set `enabled = true` to turn just-in-time aggregates on (or `false` to keep \
                 them off)",
            ));
        }
    }
    let max_us = JustInTimeParams::MAX.as_micros();
    for (k, v) in given {
        if let Some(us) = v.filter(|&us| u64::from(us) > max_us) {
            return Err(map.error_at(
                &path.join(k),
                format!("must be at most {max_us} us, got {us} us"),
            ));
        }
    }
    Ok(())
}

fn check_qos_aggregate(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    let Some(q) = &section.qos_aggregate else {
        return Ok(());
    };
    let path = KeyPath::key("ap").join("qos_aggregate");
    let given = [
        ("max_vo_frames", q.max_vo_frames.map(u64::from)),
        ("max_contenders", q.max_contenders.map(u64::from)),
        (
            "contention_window_ms",
            q.contention_window_ms.map(u64::from),
        ),
        ("max_wait_us", q.max_wait_us.map(u64::from)),
    ];
    if q.enabled.is_none() {
        if let Some((k, _)) = given.iter().find(|(_, v)| v.is_some()) {
            return Err(map.error_at(
                &path.join(k),
                "set `enabled = true` to turn combined QoS aggregates on (or `false` to keep \
                 them off)",
            ));
        }
    }
    let max_frames = QosAggregateParams::MAX_VO_FRAMES;
    if let Some(n) = q.max_vo_frames.filter(|&n| n == 0 || n > max_frames) {
        return Err(map.error_at(
            &path.join("max_vo_frames"),
            format!("must be 1 to {max_frames}, got {n}"),
        ));
    }
    let max_window = QosAggregateParams::MAX_CONTENTION_WINDOW.as_millis();
    if let Some(ms) = q
        .contention_window_ms
        .filter(|&ms| ms == 0 || u64::from(ms) > max_window)
    {
        return Err(map.error_at(
            &path.join("contention_window_ms"),
            format!("must be 1 to {max_window} ms, got {ms} ms"),
        ));
    }
    let max_wait = QosAggregateParams::MAX_WAIT.as_micros();
    if let Some(us) = q
        .max_wait_us
        .filter(|&us| us == 0 || u64::from(us) > max_wait)
    {
        return Err(map.error_at(
            &path.join("max_wait_us"),
            format!("must be 1 to {max_wait} us, got {us} us"),
        ));
    }
    Ok(())
}

/// Turns on the options the section enables.
pub fn apply(section: &ApSection, c: &mut ApConfig) {
    if let Some(q) = &section.qos_aggregate {
        if q.enabled == Some(true) {
            let d = QosAggregateParams::default();
            c.aggregation.qos = Some(QosAggregateParams {
                max_vo_frames: q.max_vo_frames.unwrap_or(d.max_vo_frames),
                max_contenders: q.max_contenders.unwrap_or(d.max_contenders),
                contention_window: q.contention_window_ms.map_or(d.contention_window, |ms| {
                    Duration::from_millis(u64::from(ms))
                }),
                max_wait: q
                    .max_wait_us
                    .map_or(d.max_wait, |us| Duration::from_micros(u64::from(us))),
            });
        }
    }
    if let Some(j) = &section.just_in_time {
        if j.enabled == Some(true) {
            let d = JustInTimeParams::default();
            let us = |v: u32| Duration::from_micros(u64::from(v));
            c.aggregation.just_in_time = Some(JustInTimeParams {
                lead_time: j.lead_time_us.map_or(d.lead_time, us),
                max_jitter: j.max_jitter_us.map_or(d.max_jitter, us),
            });
        }
    }
    if let Some(a) = &section.aggregate_sizing {
        if a.enabled == Some(true) {
            c.aggregation.sizing = Some(sizing_params(a.round_airtime_us, a.min_airtime_us));
        }
    }
}

fn sizing_params(round_us: Option<u32>, min_us: Option<u32>) -> AggregateSizingParams {
    let d = AggregateSizingParams::default();
    let us = |v: u32| Duration::from_micros(u64::from(v));
    AggregateSizingParams {
        round_airtime: round_us.map_or(d.round_airtime, us),
        min_airtime: min_us.map_or(d.min_airtime, us),
    }
}
