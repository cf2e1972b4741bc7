//! What an experiment's figures say about its seed: each check of the seed's shape
//! holds or not, each published number is or is not of the same magnitude as ours, and
//! the verdict follows by one rule:
//!
//! - **diverges**: a check of the seed's shape fails, or a run is not sound (it stalled,
//!   or delivered nothing);
//! - **same shape, different magnitude**: every check holds, but a published number is
//!   outside the tolerance of ours (ours / seed outside `[1 / (1 + t), 1 + t]`, or on the
//!   wrong side of a stated bound);
//! - **reproduced**: every check holds and every published number agrees.
//!
//! The rule never looks at how far a check missed: a seed's ordering either holds in our
//! model or it does not.

use super::manifest::{Beside, Check, Op, Operand, SeedFigure};
use super::metric::{Runs, Value};
use serde::Serialize;

/// The verdict on one experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Shape and magnitudes agree.
    Reproduced,
    /// Shape agrees, a published number does not.
    SameShapeDifferentMagnitude,
    /// The shape does not hold (or a run was not sound).
    Diverges,
}

impl Verdict {
    /// In words.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::SameShapeDifferentMagnitude => "same shape, different magnitude",
            Verdict::Diverges => "diverges",
        }
    }
}

/// A check, evaluated.
#[derive(Clone, Debug, Serialize)]
pub struct CheckOutcome {
    /// The seed's statement.
    pub says: String,
    /// The comparison as written, with our values: `fifo.slow.ping_p50_ms (661) > 10 × …`.
    pub detail: String,
    /// Whether it holds.
    pub holds: bool,
    /// For `>` and `<`: whether the 95% confidence intervals of the two sides are apart
    /// (the ordering is not within the spread over seeds). Reported, not part of the
    /// verdict.
    pub clear: Option<bool>,
}

/// A published number beside ours.
#[derive(Clone, Debug, Serialize)]
pub struct BesideOutcome {
    /// The seed figure's id.
    pub seed_id: String,
    /// As published (`35`, `> 200`).
    pub seed: String,
    /// Where it was published.
    pub source: String,
    /// Our metric.
    pub ours_metric: String,
    /// Our value, shown.
    pub ours: String,
    /// ours / seed, when the seed gives a number.
    pub ratio: Option<f64>,
    /// Whether it is of the same magnitude (or on the right side of the bound).
    pub agrees: bool,
}

/// Evaluates `check` on `runs`; an error names a metric the runs do not have.
pub fn check(runs: &Runs, c: &Check) -> Result<CheckOutcome, String> {
    let left = runs.value(&c.left)?;
    let (right, right_half, right_text) = match &c.right {
        Operand::Number(x) => (*x, 0.0, format!("{x}")),
        Operand::Metric(path) => {
            let v = runs.value(path)?;
            (v.point(), v.half_width(), format!("{path} ({})", v.shown()))
        }
    };
    let l = left.point();
    let r = c.factor * right;
    let holds = match c.op {
        Op::Greater => l > r,
        Op::Less => l < r,
        Op::About => l.is_finite() && r.is_finite() && (l - r).abs() <= c.tolerance * r.abs(),
    };
    // Intervals apart: the gap between the means exceeds both half-widths together.
    let gap = (l - r).abs();
    let spread = left.half_width() + c.factor * right_half;
    let clear = (c.op != Op::About).then(|| gap.is_nan() || gap > spread);
    let factor = if c.factor == 1.0 {
        String::new()
    } else {
        format!("{} × ", c.factor)
    };
    let tolerance = if c.op == Op::About {
        format!(" (within {}%)", c.tolerance * 100.0)
    } else {
        String::new()
    };
    Ok(CheckOutcome {
        says: c.says.clone(),
        detail: format!(
            "{} ({}) {} {factor}{right_text}{tolerance}",
            c.left,
            left.shown(),
            c.op.symbol()
        ),
        holds: holds && !l.is_nan() && !r.is_nan(),
        clear,
    })
}

/// Puts the published `figure` beside our metric `b.ours`.
pub fn beside(
    runs: &Runs,
    b: &Beside,
    figure: &SeedFigure,
    source: &str,
    tolerance: f64,
) -> Result<BesideOutcome, String> {
    let ours: Value = runs.value(&b.ours)?;
    let x = ours.point();
    let (ratio, agrees) = match (figure.value, figure.value_min, figure.value_max) {
        (Some(seed), ..) => {
            let ratio = x / seed;
            (
                Some(ratio),
                ratio.is_finite() && ratio >= 1.0 / (1.0 + tolerance) && ratio <= 1.0 + tolerance,
            )
        }
        (None, lo, hi) => (
            None,
            !x.is_nan() && lo.is_none_or(|lo| x > lo) && hi.is_none_or(|hi| x < hi),
        ),
    };
    Ok(BesideOutcome {
        seed_id: figure.id.clone(),
        seed: figure.shown(),
        source: format!("{} ({})", source, figure.place),
        ours_metric: b.ours.clone(),
        ours: ours.shown(),
        ratio,
        agrees,
    })
}

/// The verdict from the checks, the published numbers and whether every run was sound.
pub fn verdict(checks: &[CheckOutcome], besides: &[BesideOutcome], sound: bool) -> Verdict {
    if !sound || checks.iter().any(|c| !c.holds) {
        Verdict::Diverges
    } else if besides.iter().any(|b| !b.agrees) {
        Verdict::SameShapeDifferentMagnitude
    } else {
        Verdict::Reproduced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(holds: bool) -> CheckOutcome {
        CheckOutcome {
            says: String::new(),
            detail: String::new(),
            holds,
            clear: None,
        }
    }

    fn besides(agrees: bool) -> BesideOutcome {
        BesideOutcome {
            seed_id: String::new(),
            seed: String::new(),
            source: String::new(),
            ours_metric: String::new(),
            ours: String::new(),
            ratio: None,
            agrees,
        }
    }

    #[test]
    fn the_rule() {
        let ok = [outcome(true), outcome(true)];
        assert_eq!(verdict(&ok, &[besides(true)], true), Verdict::Reproduced);
        assert_eq!(verdict(&ok, &[], true), Verdict::Reproduced);
        assert_eq!(
            verdict(&ok, &[besides(true), besides(false)], true),
            Verdict::SameShapeDifferentMagnitude
        );
        assert_eq!(
            verdict(&[outcome(true), outcome(false)], &[besides(true)], true),
            Verdict::Diverges
        );
        // A run that stalled or delivered nothing never reproduces anything.
        assert_eq!(verdict(&ok, &[besides(true)], false), Verdict::Diverges);
    }
}
