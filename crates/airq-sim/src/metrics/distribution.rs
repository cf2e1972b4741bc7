//! Exact order statistics of a set of samples (delays, throughputs): percentiles and
//! the empirical CDF for plots.
//!
//! The samples are kept and sorted once, so every percentile is exact rather than a
//! histogram bucket's edge; a run's latency samples number in the thousands to
//! millions, which sorting handles in milliseconds. Percentiles interpolate linearly
//! between order statistics, the definition of numpy's default (`method="linear"`,
//! Hyndman & Fan 1996 definition 7) and of R's default quantile type 7, so results can
//! be checked against either.

#![warn(missing_docs)]
use std::fmt;

/// A sample that cannot be ordered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DistributionError {
    /// The sample at `index` (in the order given) is NaN or infinite.
    NotFinite {
        /// Position of the sample in the input.
        index: usize,
        /// The sample.
        value: f64,
    },
}

impl fmt::Display for DistributionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistributionError::NotFinite { index, value } => {
                write!(f, "sample {index} is {value}, not a finite number")
            }
        }
    }
}

impl std::error::Error for DistributionError {}

/// Samples sorted in ascending order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distribution {
    sorted: Vec<f64>,
}

/// The three percentiles latency results are usually quoted at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Percentiles {
    /// The median.
    pub p50: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
}

/// A percentile of samples some of which were lost (a ping without a reply).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LossyPercentile {
    /// The percentile lies among the measured samples.
    Value(f64),
    /// The percentile lies among the lost samples: more than `1 − q/100` were lost.
    Lost,
}

impl Distribution {
    /// The distribution of `samples`. NaN and infinite samples are refused (with the
    /// index of the first), not dropped: a NaN delay is a bug upstream and must not
    /// quietly shrink the sample. An empty set is fine; its statistics are `None`.
    pub fn new(mut samples: Vec<f64>) -> Result<Distribution, DistributionError> {
        if let Some(index) = samples.iter().position(|x| !x.is_finite()) {
            return Err(DistributionError::NotFinite {
                index,
                value: samples[index],
            });
        }
        samples.sort_by(f64::total_cmp);
        Ok(Distribution { sorted: samples })
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// The samples in ascending order.
    pub fn sorted(&self) -> &[f64] {
        &self.sorted
    }

    /// The smallest sample.
    pub fn min(&self) -> Option<f64> {
        self.sorted.first().copied()
    }

    /// The largest sample.
    pub fn max(&self) -> Option<f64> {
        self.sorted.last().copied()
    }

    /// The arithmetic mean (summed in ascending order, so the result does not depend
    /// on the order the samples came in).
    pub fn mean(&self) -> Option<f64> {
        if self.sorted.is_empty() {
            return None;
        }
        Some(self.sorted.iter().sum::<f64>() / self.sorted.len() as f64)
    }

    /// The `q`-th percentile, `q` in 0–100, interpolated linearly between order
    /// statistics: with the n samples sorted as x₀ ≤ … ≤ xₙ₋₁ and h = (n − 1)·q/100,
    /// the result is x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). So q = 0 is the minimum,
    /// q = 100 the maximum and q = 50 the usual median. `None` if there are no samples
    /// or `q` is outside 0–100 (or NaN).
    pub fn percentile(&self, q: f64) -> Option<f64> {
        if self.sorted.is_empty() || !(0.0..=100.0).contains(&q) {
            return None;
        }
        let h = (self.sorted.len() - 1) as f64 * q / 100.0;
        let lo = h.floor() as usize;
        let x_lo = self.sorted[lo];
        match self.sorted.get(lo + 1) {
            Some(&x_hi) => Some(x_lo + (h - lo as f64) * (x_hi - x_lo)),
            None => Some(x_lo),
        }
    }

    /// The `q`-th percentile of `total` samples, of which these are the ones measured and
    /// the others were lost, counting a lost sample as larger than any measured (an
    /// unanswered ping as an infinite RTT). This is the convention of flent's ping CDFs:
    /// the CDF F(x) = #{xᵢ ≤ x}/`total` stops at the received fraction r = n/`total`
    /// below 1, and the percentile is where F reaches q/100 — [`LossyPercentile::Lost`]
    /// when q/100 > r, i.e. more than 1 − q/100 were lost. Otherwise it is the
    /// [`percentile`](Distribution::percentile) of the measured samples at q/r (so with
    /// no loss exactly `percentile(q)`; with 1% lost the 99th is the largest measured).
    /// `None` if `total` is 0 or below the number of samples, or `q` is outside 0–100.
    pub fn percentile_with_loss(&self, q: f64, total: usize) -> Option<LossyPercentile> {
        let n = self.sorted.len();
        if total == 0 || total < n || !(0.0..=100.0).contains(&q) {
            return None;
        }
        if n == total {
            return self.percentile(q).map(LossyPercentile::Value);
        }
        if n == 0 || q * total as f64 > 100.0 * n as f64 {
            return Some(LossyPercentile::Lost);
        }
        let q_measured = (q * total as f64 / n as f64).min(100.0);
        self.percentile(q_measured).map(LossyPercentile::Value)
    }

    /// The median, 90th and 99th percentiles, or `None` without samples.
    pub fn percentiles(&self) -> Option<Percentiles> {
        Some(Percentiles {
            p50: self.percentile(50.0)?,
            p90: self.percentile(90.0)?,
            p99: self.percentile(99.0)?,
        })
    }

    /// At most `points` points (x, F(x)) of the empirical CDF, F(x) being the fraction
    /// of samples ≤ x, for plotting. The points are samples spread evenly by rank, from
    /// the smallest to the largest (where F = 1); with `points` ≥ the number of samples
    /// every distinct sample appears once. Empty without samples or points.
    pub fn cdf(&self, points: usize) -> Vec<(f64, f64)> {
        let n = self.sorted.len();
        if n == 0 || points == 0 {
            return Vec::new();
        }
        let ranks: Vec<usize> = if points >= n {
            (0..n).collect()
        } else if points == 1 {
            vec![n - 1]
        } else {
            // Rank k·(n − 1)/(points − 1), rounded to nearest, for k = 0 … points − 1.
            (0..points)
                .map(|k| (k * (n - 1) + (points - 1) / 2) / (points - 1))
                .collect()
        };
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(ranks.len());
        for rank in ranks {
            let x = self.sorted[rank];
            // With ties, F(x) counts every sample equal to x.
            let at_or_below = self.sorted.partition_point(|&s| s <= x);
            let point = (x, at_or_below as f64 / n as f64);
            if out.last() != Some(&point) {
                out.push(point);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(samples: &[f64]) -> Distribution {
        Distribution::new(samples.to_vec()).unwrap()
    }

    #[test]
    fn percentiles_interpolate_like_numpy() {
        // numpy.percentile([15, 20, 35, 40, 50], q) with the default linear method,
        // by hand: h = 4q/100.
        let d = dist(&[40.0, 15.0, 50.0, 35.0, 20.0]);
        let cases = [
            (0.0, 15.0),
            (25.0, 20.0),  // h = 1
            (40.0, 29.0),  // h = 1.6: 20 + 0.6·15
            (50.0, 35.0),  // h = 2
            (90.0, 46.0),  // h = 3.6: 40 + 0.6·10
            (99.0, 49.6),  // h = 3.96: 40 + 0.96·10
            (100.0, 50.0), // h = 4
        ];
        for (q, expected) in cases {
            let got = d.percentile(q).unwrap();
            assert!((got - expected).abs() < 1e-9, "p{q}: {got} != {expected}");
        }
        // An even count: the median is the mean of the middle two.
        assert_eq!(dist(&[1.0, 2.0, 3.0, 4.0]).percentile(50.0), Some(2.5));
    }

    #[test]
    fn a_lost_sample_counts_as_larger_than_any_measured() {
        use LossyPercentile::{Lost, Value};
        let d = dist(&[40.0, 15.0, 50.0, 35.0, 20.0]);
        // No loss: the plain percentiles.
        for q in [0.0, 50.0, 90.0, 99.0, 100.0] {
            assert_eq!(d.percentile_with_loss(q, 5), d.percentile(q).map(Value));
        }
        // 5 of 10 received (r = 0.5): F reaches 0.5 at the largest measured sample; the
        // 40th is the measured 80th (h = 3.2: 40 + 0.2·10); above the 50th all is lost.
        assert_eq!(d.percentile_with_loss(50.0, 10), Some(Value(50.0)));
        let Some(Value(p40)) = d.percentile_with_loss(40.0, 10) else {
            panic!("p40 is measured");
        };
        assert!((p40 - 42.0).abs() < 1e-9, "{p40}");
        assert_eq!(d.percentile_with_loss(50.1, 10), Some(Lost));
        assert_eq!(d.percentile_with_loss(99.0, 10), Some(Lost));
        // Exactly 1% lost: the 99th is the largest measured; more than 1%: lost.
        let hundred: Vec<f64> = (1..=99).map(f64::from).collect();
        let d99 = dist(&hundred);
        assert_eq!(d99.percentile_with_loss(99.0, 100), Some(Value(99.0)));
        assert_eq!(d99.percentile_with_loss(99.0, 101), Some(Lost));
        assert_eq!(
            d99.percentile_with_loss(90.0, 101).map(|p| p != Lost),
            Some(true)
        );
        // Nothing received: every percentile is lost.
        assert_eq!(dist(&[]).percentile_with_loss(0.0, 3), Some(Lost));
        assert_eq!(d.percentile_with_loss(50.0, 0), None);
        assert_eq!(
            d.percentile_with_loss(50.0, 4),
            None,
            "fewer sent than received"
        );
        assert_eq!(d.percentile_with_loss(100.1, 10), None);
    }

    #[test]
    fn summary_statistics() {
        let d = dist(&[3.0, -1.0, 7.0, 1.0]);
        assert_eq!(d.len(), 4);
        assert_eq!(d.min(), Some(-1.0));
        assert_eq!(d.max(), Some(7.0));
        assert_eq!(d.mean(), Some(2.5));
        assert_eq!(d.sorted(), &[-1.0, 1.0, 3.0, 7.0]);
        // h = 3·0.9 = 2.7: 3 + 0.7·4; h = 2.97: 3 + 0.97·4.
        let p = d.percentiles().unwrap();
        assert_eq!(p.p50, 2.0);
        assert!((p.p90 - 5.8).abs() < 1e-9 && (p.p99 - 6.88).abs() < 1e-9);
    }

    #[test]
    fn one_sample_is_every_percentile() {
        let d = dist(&[4.2]);
        for q in [0.0, 37.0, 100.0] {
            assert_eq!(d.percentile(q), Some(4.2));
        }
    }

    #[test]
    fn empty_and_out_of_range_give_none() {
        let empty = dist(&[]);
        assert!(empty.is_empty());
        assert_eq!((empty.min(), empty.max(), empty.mean()), (None, None, None));
        assert_eq!(empty.percentile(50.0), None);
        assert_eq!(empty.percentiles(), None);
        assert!(empty.cdf(10).is_empty());
        let d = dist(&[1.0, 2.0]);
        for q in [-0.1, 100.1, f64::NAN] {
            assert_eq!(d.percentile(q), None, "q = {q}");
        }
    }

    #[test]
    fn non_finite_samples_are_refused_with_their_index() {
        let err = Distribution::new(vec![1.0, 2.0, f64::NAN, f64::INFINITY]).unwrap_err();
        assert!(matches!(err, DistributionError::NotFinite { index: 2, .. }));
        assert_eq!(err.to_string(), "sample 2 is NaN, not a finite number");
        let err = Distribution::new(vec![f64::NEG_INFINITY]).unwrap_err();
        assert!(matches!(err, DistributionError::NotFinite { index: 0, .. }));
    }

    #[test]
    fn cdf_of_few_samples_is_the_step_function() {
        let d = dist(&[3.0, 1.0, 2.0, 2.0]);
        assert_eq!(d.cdf(100), vec![(1.0, 0.25), (2.0, 0.75), (3.0, 1.0)]);
        assert_eq!(d.cdf(1), vec![(3.0, 1.0)]);
    }

    #[test]
    fn cdf_is_thinned_by_rank_and_ends_at_the_maximum() {
        let samples: Vec<f64> = (0..1000).map(|i| f64::from(i) / 10.0).collect();
        let cdf = dist(&samples).cdf(11);
        assert_eq!(cdf.len(), 11);
        assert_eq!(cdf[0], (0.0, 0.001));
        // Rank 100 of 0…999 (k = 1: 999/10 rounded) is the 101st sample.
        assert_eq!(cdf[1], (10.0, 0.101));
        assert_eq!(cdf[10], (99.9, 1.0));
        assert!(cdf.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
    }
}
