//! Scenario files write times as float seconds or milliseconds and rates in Mbit/s;
//! the simulator counts integer nanoseconds and bit/s. The conversions, rounded to the
//! nearest unit, are here once.

use airq::Duration;

/// `s` seconds (finite, at least 0).
pub fn from_secs(s: f64) -> Duration {
    Duration::from_nanos((s * 1e9).round() as u64)
}

/// `ms` milliseconds (finite, at least 0).
pub fn from_ms(ms: f64) -> Duration {
    Duration::from_nanos((ms * 1e6).round() as u64)
}

/// `us` microseconds (finite, at least 0).
pub fn from_us(us: f64) -> Duration {
    Duration::from_nanos((us * 1e3).round() as u64)
}

/// `mbps` Mbit/s in bit/s.
pub fn bps_from_mbps(mbps: f64) -> u64 {
    (mbps * 1e6).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_to_the_nearest_unit() {
        assert_eq!(from_secs(0.2), Duration::from_millis(200));
        assert_eq!(from_ms(1.5), Duration::from_micros(1500));
        assert_eq!(bps_from_mbps(6.5), 6_500_000);
    }
}
