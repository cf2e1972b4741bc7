//! How far behind the real clock the emulator ran each event: the wall time at which an
//! event ran minus the time the model had scheduled it for. A histogram of 1 µs bins up
//! to 10 ms (beyond that only counted, and the maximum kept exactly), from which the
//! percentiles are read; integer nanoseconds in, microseconds out.

/// Bins of 1 µs: 0 to 10 ms.
const BINS: usize = 10_000;

/// Lateness above this makes a run untrustworthy: a 1500-byte frame at HT MCS15 lasts
/// about 100 µs, so 1 ms behind reorders the model's own timing by ten frames.
pub const TOO_LATE_NS: u64 = 1_000_000;

#[derive(Clone, Debug)]
pub struct Lateness {
    bins: Vec<u64>,
    beyond: u64,
    count: u64,
    max_ns: u64,
    /// When the latest event was due, ns from the start.
    max_at_ns: u64,
    too_late: u64,
}

impl Default for Lateness {
    fn default() -> Self {
        Lateness {
            bins: vec![0; BINS],
            beyond: 0,
            count: 0,
            max_ns: 0,
            max_at_ns: 0,
            too_late: 0,
        }
    }
}

impl Lateness {
    /// Records an event due at `due_ns` (from the start) that ran `late_ns` late.
    pub fn record(&mut self, due_ns: u64, late_ns: u64) {
        self.count += 1;
        if late_ns > self.max_ns {
            self.max_ns = late_ns;
            self.max_at_ns = due_ns;
        }
        if late_ns > TOO_LATE_NS {
            self.too_late += 1;
        }
        match self.bins.get_mut((late_ns / 1000) as usize) {
            Some(b) => *b += 1,
            None => self.beyond += 1,
        }
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Events that ran more than [`TOO_LATE_NS`] late.
    pub fn too_late(&self) -> u64 {
        self.too_late
    }

    /// When the latest event was due, s from the start.
    pub fn max_at_s(&self) -> f64 {
        self.max_at_ns as f64 / 1e9
    }

    pub fn max_us(&self) -> f64 {
        self.max_ns as f64 / 1000.0
    }

    /// The `p`-th percentile (0–100), µs: the upper edge of the bin that holds it
    /// (the maximum if it lies beyond the bins); 0 without events.
    pub fn percentile_us(&self, p: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = ((p / 100.0 * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, b) in self.bins.iter().enumerate() {
            seen += b;
            if seen >= rank {
                return ((i + 1) as f64).min(self.max_us());
            }
        }
        self.max_us()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_read_from_the_bins() {
        let mut l = Lateness::default();
        for i in 0..100u64 {
            l.record(i, i * 1000 + 500);
        }
        assert_eq!(l.count(), 100);
        assert_eq!(l.percentile_us(50.0), 50.0);
        assert_eq!(l.percentile_us(99.0), 99.0);
        assert_eq!(l.max_us(), 99.5);
        assert_eq!(l.too_late(), 0);
        l.record(7, 20_000_000);
        assert_eq!(l.max_at_s(), 7e-9);
        assert_eq!(l.too_late(), 1);
        assert_eq!(l.percentile_us(100.0), 20_000.0);
    }
}
