//! The radio cells of the run and comparison tables: a rate-controlled station's most
//! used rates instead of its configured one, and the mean SNR of each direction, from
//! the results file's [`RadioSummary`] (`airq_sim::metrics::radio`).

use crate::results::{RadioSummary, StationSummary};

/// The rate column: the configured rate, or for a station with rate control the
/// controller and the two most used rates of the direction that sent more MPDUs
/// (`Minstrel-HT down: MCS 15 62%, MCS 14 30%`).
pub(super) fn rate_cell(s: &StationSummary) -> String {
    let Some(rc) = &s.rate_control else {
        return s.rate.clone();
    };
    let name = match rc.as_str() {
        "minstrel_ht" => "Minstrel-HT",
        other => other,
    };
    let (direction, radio) = busier(s);
    match radio {
        Some(r) if r.mpdus > 0 => format!("{name} {direction}: {}", r.top_rates(2)),
        _ => format!("{name} (nothing sent)"),
    }
}

/// A comparison's cell: the most used rate of the direction that sent more MPDUs, with
/// its share (`MCS 12 99% down`); the configured rate for a fixed one.
pub(super) fn top_rate_cell(s: &StationSummary) -> String {
    if s.rate_control.is_none() {
        return s.rate.clone();
    }
    let (direction, radio) = busier(s);
    match radio {
        Some(r) if r.mpdus > 0 => format!("{} {direction}", r.top_rates(1)),
        _ => String::new(),
    }
}

/// The direction that sent more MPDUs (down on a tie) and its summary.
fn busier(s: &StationSummary) -> (&'static str, &Option<RadioSummary>) {
    let mpdus = |r: &Option<RadioSummary>| r.as_ref().map_or(0, |r| r.mpdus);
    if mpdus(&s.radio_up) > mpdus(&s.radio_down) {
        ("up", &s.radio_up)
    } else {
        ("down", &s.radio_down)
    }
}

/// Whether any station of the run had a channel model (an SNR to show).
pub(super) fn has_snr(stations: &[StationSummary]) -> bool {
    stations
        .iter()
        .any(|s| snr(&s.radio_down).is_some() || snr(&s.radio_up).is_some())
}

fn snr(r: &Option<RadioSummary>) -> Option<f64> {
    r.as_ref().and_then(|r| r.mean_snr_db)
}

/// The mean SNR cell, dB, down/up (`-` for a direction that sent nothing).
pub(super) fn snr_cell(s: &StationSummary) -> String {
    let cell = |r| snr(r).map_or("-".to_string(), |v| format!("{v:.1}"));
    format!("{}/{}", cell(&s.radio_down), cell(&s.radio_up))
}
