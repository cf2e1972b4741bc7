//! `[ap.retry]` → the AP's time-based retry limit (`ApConfig::retry_time`, seed netdev
//! 2.2 §4.1 after Nomoto et al., ICN 2017; `airq_sim::mac::retry_time`). Off unless
//! `time_limit_ms` is given; `min_tries` and `include_queue_time` without it are refused,
//! so that a table written to turn the limit on cannot silently leave it off. It applies
//! to every driver and MAC (the retries are below both).

use super::ap_file::{ApSection, RetrySection};
use super::location::{KeyPath, SourceMap};
use super::units;
use crate::error::CliError;
use airq_sim::ap::ApConfig;
use airq_sim::mac::retry_time::RetryTimeParams;

/// Longest time limit accepted: 1000 s.
const MAX_MS: f64 = 1e6;

/// Checks `[ap.retry]`, naming the key at fault.
pub fn check(section: &ApSection, map: &SourceMap) -> Result<(), CliError> {
    let Some(r) = &section.retry else {
        return Ok(());
    };
    let path = KeyPath::key("ap").join("retry");
    let Some(limit) = r.time_limit_ms else {
        let given = [
            ("min_tries", r.min_tries.is_some()),
            ("include_queue_time", r.include_queue_time.is_some()),
        ];
        if let Some((k, _)) = given.iter().find(|(_, g)| *g) {
            return Err(map.error_at(
                &path.join(k),
                "set `time_limit_ms` to turn the time-based retry limit on",
            ));
        }
        return Ok(());
    };
    if !(0.001..=MAX_MS).contains(&limit) {
        return Err(map.error_at(
            &path.join("time_limit_ms"),
            format!("must be 0.001 ms (1 us) to 1000 s, got {limit}"),
        ));
    }
    if r.min_tries == Some(0) {
        return Err(map.error_at(
            &path.join("min_tries"),
            "must be 1 to 255 (transmissions, the first included), got 0",
        ));
    }
    Ok(())
}

/// Turns the time-based retry limit on when the section gives one.
pub fn apply(section: &ApSection, c: &mut ApConfig) {
    if let Some(r) = &section.retry {
        c.retry_time = params(r);
    }
}

fn params(r: &RetrySection) -> Option<RetryTimeParams> {
    Some(RetryTimeParams {
        time_limit: units::from_ms(r.time_limit_ms?),
        min_tries: r.min_tries.unwrap_or(RetryTimeParams::DEFAULT_MIN_TRIES),
        include_queue_time: r.include_queue_time.unwrap_or(false),
    })
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use airq::Duration;

    fn scenario(retry: &str) -> String {
        format!(
            "name = \"t\"\nduration = 1.0\n[ap.retry]\n{retry}\n[[station]]\n\
             name = \"a\"\nstandard = \"ht\"\nmcs = 7\n[[traffic]]\ntest = \"udp_flood\"\n"
        )
    }

    #[test]
    fn on_with_a_time_limit_in_every_preset() {
        let text = scenario("time_limit_ms = 12.5\ninclude_queue_time = true");
        let ap = parse("t.toml", &text, &[]).unwrap().ap;
        for preset in ["fifo", "airtime", "airtime_aql"] {
            let p = ap.config(preset).unwrap().retry_time.unwrap();
            assert_eq!(p.time_limit, Duration::from_micros(12_500));
            assert_eq!(p.min_tries, RetryTimeParams::DEFAULT_MIN_TRIES);
            assert!(p.include_queue_time);
        }
        let off = parse("t.toml", &scenario(""), &[]).unwrap().ap;
        assert_eq!(off.config("airtime").unwrap().retry_time, None);
    }

    #[test]
    fn bad_values_name_file_line_and_key() {
        for (lines, key) in [
            ("min_tries = 3", "min_tries"),
            ("include_queue_time = true", "include_queue_time"),
            ("time_limit_ms = 0", "time_limit_ms"),
            ("time_limit_ms = 1e308", "time_limit_ms"),
            ("time_limit_ms = 10\nmin_tries = 0", "min_tries"),
            ("time_limit_ms = 10\nmin_tries = 256", "min_tries"),
            ("time_limit = 10", "time_limit"),
        ] {
            let e = parse("t.toml", &scenario(lines), &[])
                .unwrap_err()
                .to_string();
            assert!(e.contains("t.toml:") && e.contains(key), "{lines}: {e}");
        }
    }
}
