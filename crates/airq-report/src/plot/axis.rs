//! Two axes plotters lacks in the form these figures need: a [`CategoryAxis`] whose ticks
//! sit exactly on the named groups (designs) of a bar chart, and a [`LogAxis`] with
//! ticks at 1, 2, 5 × 10ⁿ, or 1, 3 × 10ⁿ, or decades, whichever fits (labels a reader
//! can use without counting decades), and light
//! grid lines at every integer multiple of a decade.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};

/// Named groups at x = 0, 1, ..., n-1; the axis spans -0.5..n-0.5.
#[derive(Clone, Debug)]
pub(crate) struct CategoryAxis {
    names: Vec<String>,
}

impl CategoryAxis {
    /// An axis with one group per name.
    pub(crate) fn new(names: Vec<String>) -> Self {
        CategoryAxis { names }
    }
}

impl Ranged for CategoryAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        map_linear(*value, self.range(), limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.names.len()).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.names.len() as f64 - 0.5
    }
}

impl ValueFormatter<f64> for CategoryAxis {
    fn format_ext(&self, value: &f64) -> String {
        let i = value.round();
        if (value - i).abs() < 1e-9 && i >= 0.0 {
            self.names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    }
}

/// A base-10 logarithmic axis over `low..high` (both > 0).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LogAxis {
    low: f64,
    high: f64,
}

impl LogAxis {
    /// The smallest axis of whole 1-2-5 steps that holds every value in `low..=high`.
    pub(crate) fn covering(low: f64, high: f64) -> Self {
        let low = low.max(f64::MIN_POSITIVE);
        let high = high.max(low * 1.0001);
        let down = |v: f64| {
            let decade = 10f64.powf(v.log10().floor());
            let m = [5.0, 2.0, 1.0]
                .into_iter()
                .find(|m| m * decade <= v * 1.000_001);
            m.unwrap_or(1.0) * decade
        };
        let up = |v: f64| {
            let decade = 10f64.powf(v.log10().floor());
            let m = [1.0, 2.0, 5.0, 10.0]
                .into_iter()
                .find(|m| m * decade >= v * 0.999_999);
            m.unwrap_or(10.0) * decade
        };
        LogAxis {
            low: down(low),
            high: up(high),
        }
    }

    /// An axis from a little below `low` to a little above `high` (both > 0), so that
    /// markers at either end stay clear of the frame: 5% of the span in decades on each
    /// side, at least 0.05 decade.
    pub(crate) fn around(low: f64, high: f64) -> Self {
        let low = low.max(f64::MIN_POSITIVE);
        let high = high.max(low);
        let margin = ((high / low).log10() * 0.05).max(0.05);
        let factor = 10f64.powf(margin);
        LogAxis {
            low: low / factor,
            high: high * factor,
        }
    }

    /// Points m × 10ⁿ within the axis for each multiplier m.
    fn points(&self, multipliers: &[f64]) -> Vec<f64> {
        let mut out = Vec::new();
        let mut decade = 10f64.powf(self.low.log10().floor());
        while decade <= self.high * 1.000_001 {
            for m in multipliers {
                let v = m * decade;
                if v >= self.low * 0.999_999 && v <= self.high * 1.000_001 {
                    out.push(v);
                }
            }
            decade *= 10.0;
        }
        out
    }
}

impl Ranged for LogAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let v = value.max(f64::MIN_POSITIVE).log10();
        map_linear(v, self.low.log10()..self.high.log10(), limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            let all = self.points(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
            if all.len() <= hint.max_num_points() {
                return all;
            }
        }
        // The densest of 1-2-5, 1-3 and decades that fits the space.
        [&[1.0, 2.0, 5.0][..], &[1.0, 3.0][..]]
            .into_iter()
            .map(|m| self.points(m))
            .find(|ticks| ticks.len() <= hint.max_num_points())
            .unwrap_or_else(|| self.points(&[1.0]))
    }

    fn range(&self) -> Range<f64> {
        self.low..self.high
    }
}

impl ValueFormatter<f64> for LogAxis {
    fn format_ext(&self, value: &f64) -> String {
        format_tick(*value)
    }
}

/// A tick label with no needless digits: "0.5", "2", "12.5", "200".
pub(crate) fn format_tick(value: f64) -> String {
    // Adding +0.0 turns -0.0 into 0.0, so no axis shows "-0".
    let value = value + 0.0;
    let text = if value.abs() >= 1000.0 || value == value.round() {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.1}")
    } else if value.abs() >= 0.1 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

fn map_linear(value: f64, range: Range<f64>, (lo, hi): (i32, i32)) -> i32 {
    let span = range.end - range.start;
    let frac = if span > 0.0 {
        (value - range.start) / span
    } else {
        0.5
    };
    (lo as f64 + frac * (hi - lo) as f64).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::KeyPointWeight;

    struct Bold(usize);
    impl KeyPointHint for Bold {
        fn max_num_points(&self) -> usize {
            self.0
        }
        fn weight(&self) -> KeyPointWeight {
            KeyPointWeight::Bold
        }
    }

    #[test]
    fn log_axis_snaps_to_one_two_five() {
        let axis = LogAxis::covering(3.2, 43.0);
        assert_eq!(axis.range(), 2.0..50.0);
        assert_eq!(axis.key_points(Bold(20)), vec![2.0, 5.0, 10.0, 20.0, 50.0]);
        // Less space: 1-3 steps, then decades only.
        assert_eq!(axis.key_points(Bold(4)), vec![3.0, 10.0, 30.0]);
        assert_eq!(axis.key_points(Bold(2)), vec![10.0]);
        let wide = LogAxis::covering(3.2, 430.0);
        assert_eq!(wide.range(), 2.0..500.0);
        assert_eq!(
            wide.key_points(Bold(5)),
            vec![3.0, 10.0, 30.0, 100.0, 300.0]
        );
    }

    #[test]
    fn log_axis_around_leaves_a_margin() {
        let axis = LogAxis::around(1.0, 100.0);
        let r = axis.range();
        assert!((r.start.log10() + 0.1).abs() < 1e-9, "{r:?}");
        assert!((r.end.log10() - 2.1).abs() < 1e-9, "{r:?}");
        assert_eq!(
            axis.key_points(Bold(20)),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        let one = LogAxis::around(5.0, 5.0).range();
        assert!(one.start < 5.0 && 5.0 < one.end);
    }

    #[test]
    fn log_axis_maps_decades_evenly() {
        let axis = LogAxis::covering(1.0, 1000.0);
        assert_eq!(axis.map(&1.0, (0, 300)), 0);
        assert_eq!(axis.map(&10.0, (0, 300)), 100);
        assert_eq!(axis.map(&1000.0, (0, 300)), 300);
    }

    #[test]
    fn category_axis_labels_only_groups() {
        let axis = CategoryAxis::new(vec!["fifo".into(), "fq_mac".into()]);
        assert_eq!(axis.key_points(Bold(10)), vec![0.0, 1.0]);
        assert_eq!(axis.format_ext(&1.0), "fq_mac");
        assert_eq!(axis.format_ext(&0.5), "");
        assert_eq!(axis.map(&-0.5, (0, 200)), 0);
        assert_eq!(axis.map(&0.0, (0, 200)), 50);
    }

    #[test]
    fn tick_labels_drop_needless_digits() {
        assert_eq!(format_tick(0.5), "0.5");
        assert_eq!(format_tick(2.0), "2");
        assert_eq!(format_tick(12.5), "12.5");
        assert_eq!(format_tick(80.0), "80");
        assert_eq!(format_tick(-0.0), "0");
        assert_eq!(format_tick(0.25), "0.25");
        assert_eq!(format_tick(0.002), "0.002");
    }
}
