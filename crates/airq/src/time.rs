//! Time for the library: [`Instant`] and [`Duration`] in integer nanoseconds.
//!
//! The library reads no clock (STYLE.md rule 1): every time-dependent call takes `now`
//! from the caller — a simulator's event clock, a firmware timer, a test. Integer
//! nanoseconds give exact, reproducible arithmetic; a `u64` of nanoseconds lasts 584 years.
//! Linux keeps CoDel time in 1024 ns units in a `u32` to save space; we do not need to.
//!
//! Arithmetic saturates instead of panicking or wrapping: an `Instant` earlier than the
//! one it is compared with yields a zero `Duration`, which is what a queue wants when a
//! caller's clocks disagree by a little.

use core::fmt;
use core::ops::{Add, AddAssign, Div, Mul, Sub, SubAssign};

/// A span of time in integer nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(u64);

/// A point in time: nanoseconds since the caller's epoch (for a simulator, its start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(u64);

impl Duration {
    pub const ZERO: Duration = Duration(0);
    pub const MAX: Duration = Duration(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Self {
        Duration(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        Duration(us.saturating_mul(1_000))
    }
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms.saturating_mul(1_000_000))
    }
    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1_000_000_000))
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Whole microseconds, rounded down.
    pub const fn as_micros(self) -> u64 {
        self.0 / 1_000
    }
    /// Whole milliseconds, rounded down.
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }
    /// Seconds as a float, for metrics and plots only (never in the data path).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
    pub const fn saturating_sub(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_sub(rhs.0))
    }
    pub const fn checked_add(self, rhs: Duration) -> Option<Duration> {
        match self.0.checked_add(rhs.0) {
            Some(ns) => Some(Duration(ns)),
            None => None,
        }
    }
}

impl Instant {
    pub const ZERO: Instant = Instant(0);

    pub const fn from_nanos(ns: u64) -> Self {
        Instant(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        Instant(us.saturating_mul(1_000))
    }
    pub const fn from_millis(ms: u64) -> Self {
        Instant(ms.saturating_mul(1_000_000))
    }
    pub const fn from_secs(s: u64) -> Self {
        Instant(s.saturating_mul(1_000_000_000))
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Time elapsed since `earlier`, or zero if `earlier` is in fact later.
    pub const fn saturating_duration_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
    /// Time elapsed since `earlier`, or `None` if `earlier` is later than `self`.
    pub const fn checked_duration_since(self, earlier: Instant) -> Option<Duration> {
        match self.0.checked_sub(earlier.0) {
            Some(ns) => Some(Duration(ns)),
            None => None,
        }
    }
}

impl Add for Duration {
    type Output = Duration;
    fn add(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Duration {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}
impl Sub for Duration {
    type Output = Duration;
    fn sub(self, rhs: Duration) -> Duration {
        self.saturating_sub(rhs)
    }
}
impl SubAssign for Duration {
    fn sub_assign(&mut self, rhs: Duration) {
        *self = *self - rhs;
    }
}
impl Mul<u64> for Duration {
    type Output = Duration;
    fn mul(self, rhs: u64) -> Duration {
        Duration(self.0.saturating_mul(rhs))
    }
}
impl Div<u64> for Duration {
    type Output = Duration;
    /// Division by zero yields [`Duration::MAX`] rather than a panic.
    fn div(self, rhs: u64) -> Duration {
        Duration(self.0.checked_div(rhs).unwrap_or(u64::MAX))
    }
}
impl Add<Duration> for Instant {
    type Output = Instant;
    fn add(self, rhs: Duration) -> Instant {
        Instant(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}
impl Sub<Duration> for Instant {
    type Output = Instant;
    fn sub(self, rhs: Duration) -> Instant {
        Instant(self.0.saturating_sub(rhs.0))
    }
}
impl Sub for Instant {
    type Output = Duration;
    /// Saturating: see [`Instant::saturating_duration_since`].
    fn sub(self, earlier: Instant) -> Duration {
        self.saturating_duration_since(earlier)
    }
}

/// Writes `ns` with the largest unit (s, ms, µs as `us`, ns) in which it is at least 1,
/// with up to three decimals and trailing zeros trimmed: `1.234ms`, `20ms`, `0ns`.
fn fmt_nanos(f: &mut fmt::Formatter<'_>, ns: u64) -> fmt::Result {
    let (scale, unit) = match ns {
        0..=999 => return write!(f, "{ns}ns"),
        1_000..=999_999 => (1_000, "us"),
        1_000_000..=999_999_999 => (1_000_000, "ms"),
        _ => (1_000_000_000, "s"),
    };
    let whole = ns / scale;
    // Three decimals, rounded to nearest; a carry into the whole part is kept exact.
    let mut milli = ((ns % scale) * 1000 + scale / 2) / scale;
    let whole = whole + milli / 1000;
    milli %= 1000;
    if milli == 0 {
        return write!(f, "{whole}{unit}");
    }
    let mut digits = 3;
    while milli % 10 == 0 {
        milli /= 10;
        digits -= 1;
    }
    write!(f, "{whole}.{milli:0digits$}{unit}")
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_nanos(f, self.0)
    }
}

impl fmt::Display for Instant {
    /// Shown as the time since the epoch, like a simulator's clock: `t=1.5s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("t=")?;
        fmt_nanos(f, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn display_picks_unit_and_trims_zeros() {
        assert_eq!(format!("{}", Duration::from_micros(1234)), "1.234ms");
        assert_eq!(format!("{}", Duration::from_millis(20)), "20ms");
        assert_eq!(format!("{}", Duration::from_micros(1500)), "1.5ms");
        assert_eq!(format!("{}", Duration::from_nanos(0)), "0ns");
        assert_eq!(format!("{}", Duration::from_nanos(999)), "999ns");
        assert_eq!(format!("{}", Duration::from_nanos(1_050)), "1.05us");
        assert_eq!(format!("{}", Duration::from_secs(30)), "30s");
        assert_eq!(format!("{}", Instant::from_millis(1500)), "t=1.5s");
    }

    #[test]
    fn display_rounds_to_three_decimals_with_carry() {
        assert_eq!(format!("{}", Duration::from_nanos(1_234_567)), "1.235ms");
        assert_eq!(format!("{}", Duration::from_nanos(1_999_999)), "2ms");
    }

    #[test]
    fn arithmetic_saturates_instead_of_panicking() {
        let a = Instant::from_millis(5);
        let b = Instant::from_millis(7);
        assert_eq!(b - a, Duration::from_millis(2));
        assert_eq!(a - b, Duration::ZERO);
        assert_eq!(a.checked_duration_since(b), None);
        assert_eq!(Duration::MAX + Duration::from_nanos(1), Duration::MAX);
        assert_eq!(Duration::from_millis(1) / 0, Duration::MAX);
        assert_eq!(Duration::from_millis(100) / 4, Duration::from_millis(25));
    }
}
