//! Raw samples onto flent's time grid. flent stores every series twice: the raw samples
//! with absolute times, and `results`, the samples linearly interpolated onto the grid
//! x = 0, step, 2·step, … (`x_values`). This follows the rules of flent's
//! `TimeseriesAggregator`: between two samples the value is interpolated when the next
//! sample is at most 5 steps away (else the grid point is a gap, `null`); before the first
//! sample and after the last the nearest sample is used only within half a step.

/// Interpolation reaches at most this many steps to the next sample.
const MAX_DISTANCE_STEPS: f64 = 5.0;

/// `samples` (time, value), in time order, at `points` grid points `k · step`.
pub(crate) fn resample(samples: &[(f64, f64)], step: f64, points: usize) -> Vec<Option<f64>> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    (0..points)
        .map(|k| value_at(&sorted, k as f64 * step, step))
        .collect()
}

fn value_at(sorted: &[(f64, f64)], t: f64, step: f64) -> Option<f64> {
    let next = sorted.partition_point(|s| s.0 <= t);
    let near = |s: (f64, f64)| ((s.0 - t).abs() <= 0.5 * step + 1e-9).then_some(s.1);
    match (next.checked_sub(1).map(|i| sorted[i]), sorted.get(next)) {
        (None, None) => None,
        (None, Some(&n)) => near(n),
        (Some(p), None) => near(p),
        (Some((tp, vp)), Some(&(tn, vn))) => {
            if tp == t {
                Some(vp)
            } else if tn - t <= MAX_DISTANCE_STEPS * step {
                Some(vp + (vn - vp) * (t - tp) / (tn - tp))
            } else {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_grid_samples_come_back_exactly() {
        let samples: Vec<(f64, f64)> = (1..=4).map(|i| (i as f64 * 0.5, i as f64)).collect();
        let got = resample(&samples, 0.5, 6);
        // x = 0 is a full step before the first sample: a gap, as in flent.
        assert_eq!(
            got,
            vec![None, Some(1.0), Some(2.0), Some(3.0), Some(4.0), None]
        );
    }

    #[test]
    fn between_samples_is_linear() {
        // v(t) = 10 + 4t sampled off-grid; the grid points lie on the same line.
        let samples = [(0.3, 11.2), (1.1, 14.4), (2.9, 21.6)];
        let got = resample(&samples, 0.5, 6);
        for (k, v) in got.iter().enumerate().skip(1).take(5) {
            let t = k as f64 * 0.5;
            let want = 10.0 + 4.0 * t;
            if t <= 2.9 {
                assert!((v.unwrap() - want).abs() < 1e-9, "t={t}: {v:?} vs {want}");
            }
        }
        // t = 0 lies 0.3 s (more than half a step) before the first sample: a gap.
        assert_eq!(got[0], None);
        assert_eq!(resample(&samples, 1.0, 1), vec![Some(11.2)]);
    }

    #[test]
    fn long_gaps_and_ends_are_null() {
        let samples = [(0.0, 1.0), (10.0, 2.0)];
        let got = resample(&samples, 1.0, 13);
        assert_eq!(got[0], Some(1.0));
        assert_eq!(got[2], None); // next sample 8 steps away
        assert_eq!(got[5], Some(1.5)); // next sample 5 steps away: interpolated
        assert_eq!(got[10], Some(2.0));
        assert_eq!(got[11], None);
        assert!(resample(&[], 1.0, 3).iter().all(Option::is_none));
    }
}
