//! An attenuation that changes during a run, as a programmable attenuator between an AP
//! and a client in a rate-vs-range test: a list of (time, dB) points held as steps or
//! joined by ramps, evaluated at each PPDU.

use airq::Instant;

/// How the attenuation goes from one point to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AttenuationChange {
    /// Each point's value holds until the next point.
    #[default]
    Step,
    /// Linear in dB from each point to the next.
    Ramp,
}

/// An attenuation schedule: before the first point its value, after the last the last's.
#[derive(Clone, Debug, PartialEq)]
pub struct Attenuation {
    /// (from when, dB), times strictly increasing; never empty.
    points: Vec<(Instant, f64)>,
    change: AttenuationChange,
}

/// Why a schedule cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum AttenuationError {
    /// No points.
    Empty,
    /// Point `index`'s time is not after the one before.
    NotIncreasing { index: usize },
}

impl Attenuation {
    /// A constant attenuation.
    pub fn constant(db: f64) -> Attenuation {
        Attenuation {
            points: vec![(Instant::ZERO, db)],
            change: AttenuationChange::Step,
        }
    }

    /// A schedule of `points` (times strictly increasing).
    pub fn schedule(
        points: Vec<(Instant, f64)>,
        change: AttenuationChange,
    ) -> Result<Attenuation, AttenuationError> {
        if points.is_empty() {
            return Err(AttenuationError::Empty);
        }
        if let Some(i) = (1..points.len()).find(|&i| points[i].0 <= points[i - 1].0) {
            return Err(AttenuationError::NotIncreasing { index: i });
        }
        Ok(Attenuation { points, change })
    }

    /// The attenuation at `now`, dB.
    pub fn at(&self, now: Instant) -> f64 {
        // The last point at or before `now`.
        let after = self.points.partition_point(|&(t, _)| t <= now);
        let Some(&(t0, db0)) = after.checked_sub(1).map(|i| &self.points[i]) else {
            return self.points[0].1;
        };
        match (self.change, self.points.get(after)) {
            (AttenuationChange::Ramp, Some(&(t1, db1))) => {
                let span = (t1.as_nanos() - t0.as_nanos()) as f64;
                let into = (now.as_nanos() - t0.as_nanos()) as f64;
                db0 + (db1 - db0) * into / span
            }
            _ => db0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points() -> Vec<(Instant, f64)> {
        vec![
            (Instant::from_secs(1), 40.0),
            (Instant::from_secs(11), 60.0),
            (Instant::from_secs(12), 50.0),
        ]
    }

    #[test]
    fn steps_hold_each_value_until_the_next_point() {
        let a = Attenuation::schedule(points(), AttenuationChange::Step).unwrap();
        assert_eq!(
            a.at(Instant::ZERO),
            40.0,
            "before the first point: its value"
        );
        assert_eq!(a.at(Instant::from_secs(1)), 40.0);
        assert_eq!(a.at(Instant::from_millis(10_999)), 40.0);
        assert_eq!(a.at(Instant::from_secs(11)), 60.0);
        assert_eq!(a.at(Instant::from_secs(100)), 50.0);
    }

    #[test]
    fn ramps_are_linear_between_points() {
        let a = Attenuation::schedule(points(), AttenuationChange::Ramp).unwrap();
        assert_eq!(a.at(Instant::ZERO), 40.0);
        assert_eq!(a.at(Instant::from_secs(6)), 50.0);
        assert_eq!(a.at(Instant::from_millis(11_500)), 55.0);
        assert_eq!(a.at(Instant::from_secs(12)), 50.0);
        assert_eq!(a.at(Instant::from_secs(20)), 50.0);
        assert_eq!(Attenuation::constant(30.0).at(Instant::from_secs(5)), 30.0);
    }

    #[test]
    fn schedules_are_checked() {
        let change = AttenuationChange::Step;
        assert_eq!(
            Attenuation::schedule(vec![], change),
            Err(AttenuationError::Empty)
        );
        let mut p = points();
        p[2].0 = p[1].0;
        assert_eq!(
            Attenuation::schedule(p, change),
            Err(AttenuationError::NotIncreasing { index: 2 })
        );
    }
}
