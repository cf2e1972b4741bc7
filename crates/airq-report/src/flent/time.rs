//! UTC timestamps in the form flent writes them, `%Y-%m-%dT%H:%M:%S.%fZ`: flent reads a
//! time without the trailing `Z` as local time and guesses an offset, so the `Z` matters.
//!
//! The calendar date comes from the day count by Howard Hinnant's `civil_from_days`
//! ("chrono-Compatible Low-Level Date Algorithms", 2013), valid for the proleptic
//! Gregorian calendar.

/// `unix_s` (seconds since 1970-01-01T00:00:00Z, ≥ 0) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
pub(crate) fn format_utc(unix_s: f64) -> String {
    let micros = (unix_s * 1e6).round().max(0.0) as u64;
    let (secs, frac) = (micros / 1_000_000, micros % 1_000_000);
    let (days, day_secs) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:06}Z",
        day_secs / 3600,
        day_secs % 3600 / 60,
        day_secs % 60
    )
}

/// (year, month 1–12, day 1–31) of the day `z` days after 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..=146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // 0..=399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1st
    let mp = (5 * doy + 2) / 153; // March = 0
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(format_utc(0.0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(format_utc(951_782_400.0), "2000-02-29T00:00:00.000000Z");
        assert_eq!(format_utc(1_767_225_600.25), "2026-01-01T00:00:00.250000Z");
        // 2024-12-31T23:59:59Z, the last second of a leap year.
        assert_eq!(format_utc(1_735_689_599.0), "2024-12-31T23:59:59.000000Z");
        assert_eq!(format_utc(4_102_444_800.0), "2100-01-01T00:00:00.000000Z");
    }

    /// Every day of 1970–2400 follows the one before it in the calendar.
    #[test]
    fn days_advance_through_the_calendar() {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days_in = |y: i64, m: u32| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut expected = (1970, 1, 1);
        for z in 0..156_000 {
            assert_eq!(civil_from_days(z), expected, "day {z}");
            let (y, m, d) = expected;
            expected = if d < days_in(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }
}
