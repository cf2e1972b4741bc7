//! Repetitions: the same runs under several seeds, summarised as a mean and a 95%
//! confidence interval of the mean (Student's t, the runs taken as independent samples).
//! One run of one seed is one sample of a random process; a figure without its spread
//! cannot say whether two designs differ.

/// The mean of `samples` and the half-width of its 95% confidence interval (`None`
/// with fewer than two samples).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MeanCi {
    /// Sample mean.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the mean.
    pub ci95: Option<f64>,
    /// Samples.
    pub n: usize,
}

impl MeanCi {
    /// Of `samples` (finite values; others are not counted).
    pub fn of(samples: &[f64]) -> Option<MeanCi> {
        let finite: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
        let n = finite.len();
        if n == 0 {
            return None;
        }
        let mean = finite.iter().sum::<f64>() / n as f64;
        let ci95 = (n >= 2).then(|| {
            let var = finite.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            t_975(n - 1) * (var / n as f64).sqrt()
        });
        Some(MeanCi { mean, ci95, n })
    }

    /// `12.3 ± 0.4` with `decimals` decimals (just the mean with one sample).
    pub fn show(&self, decimals: usize) -> String {
        match self.ci95 {
            Some(ci) => format!("{:.decimals$} ± {:.decimals$}", self.mean, ci),
            None => format!("{:.decimals$}", self.mean),
        }
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom: two-sided 95%.
/// Exact to three decimals up to 30 (NIST/SEMATECH e-Handbook of Statistical Methods,
/// table 1.3.6.7.2); above, the first Cornish–Fisher term `z + (z³ + z) / (4 df)`,
/// within 0.002 of the table at 40, 60 and 120.
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let z: f64 = 1.959_964;
            z + (z.powi(3) + z) / (4.0 * df as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_published_table() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(4), 2.776);
        assert_eq!(t_975(30), 2.042);
        // NIST table: 40 → 2.021, 60 → 2.000, 120 → 1.980.
        for (df, table) in [(40, 2.021), (60, 2.000), (120, 1.980)] {
            assert!((t_975(df) - table).abs() < 0.002, "{df}: {}", t_975(df));
        }
    }

    #[test]
    fn the_interval_of_five_samples() {
        // Mean 3, sample variance 2.5: 2.776 * sqrt(2.5 / 5) = 1.963.
        let m = MeanCi::of(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!((m.mean, m.n), (3.0, 5));
        assert!((m.ci95.unwrap() - 1.962_9).abs() < 1e-3, "{m:?}");
        assert_eq!(m.show(1), "3.0 ± 2.0");
        assert_eq!(MeanCi::of(&[7.0]).unwrap().show(2), "7.00");
        assert_eq!(MeanCi::of(&[f64::INFINITY]), None);
    }
}
