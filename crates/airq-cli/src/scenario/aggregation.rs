//! `[ap.aggregate_sizing]` and `[ap.just_in_time]` → the AP's [`AggregationConfig`]: the aggregate-building
//! options of the seed's §4.1 (netdev 2.2 paper), each off unless its table says
//! `enabled = true`. Parameters without `enabled` are refused, so that a table written
//! to turn an option on cannot silently leave it off.

use super::ap_file::ApSection;
use super::location::{KeyPath, SourceMap};
use crate::error::CliError;
use airq::aggregate::{AggregateSizingParams, JustInTimeParams};
use airq::Duration;
use airq_sim::ap::ApConfig;

/// Checks the options' tables, naming the key at fault.
pub fn check(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    check_just_in_time(section, map)?;
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

/// Turns on the options the section enables.
pub fn apply(section: &ApSection, c: &mut ApConfig) {
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
