//! The stations of a comparison figure: their order, their colours, and — when there are
//! more than colours can tell apart — which few are drawn one by one while the others are
//! shown only through aggregates over all stations (a box plot, bands, a pooled CDF).
//!
//! The rule, the same in every comparison figure: a comparison of at most
//! [`theme::DISTINCT_STATIONS`] stations draws every station in its own colour, in order
//! of first appearance. A larger one ranks its stations by goodput under the first design
//! (ties by first appearance; a station missing from that design by its goodput in the
//! first design that has it) and draws the lowest, the median and the highest — three of
//! each end for the seven colours — in that order, each in its own colour; every other
//! station is in the aggregates and, where it is drawn at all, in grey. The figure says so
//! in a note under its caption. The extremes show what the design does to the stations it
//! treats worst and best, the median the typical one: a slow station starved or hogging
//! the air sits at one end of the ranking under any design worth comparing.

use std::collections::HashMap;

use plotters::style::RGBColor;

use super::legend::{Entry, Marker};
use crate::model::Comparison;
use crate::theme;

/// Station names of a comparison and the ones drawn one by one. Names are looked up in
/// a map: the figures ask for every station's colour, and a scan of the names for each
/// made them quadratic in stations (minutes at 65,535; issue 20).
pub(crate) struct StationColours {
    /// Every station, in order of first appearance.
    names: Vec<String>,
    /// Each name's position in `names`.
    index: HashMap<String, usize>,
    /// Positions in `names` of the stations drawn one by one, in legend order; every
    /// station when they are few.
    drawn: Vec<usize>,
    /// Per position in `names`, its position in `drawn`, if it is drawn.
    drawn_at: Vec<Option<usize>>,
    /// The design the drawn stations were chosen under, when they were chosen.
    chosen_under: Option<String>,
}

impl StationColours {
    pub(crate) fn of(comparison: &Comparison) -> Self {
        let mut names: Vec<String> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut goodput_mbps: Vec<f64> = Vec::new();
        for sta in comparison.runs.iter().flat_map(|r| &r.stations) {
            if !index.contains_key(&sta.name) {
                index.insert(sta.name.clone(), names.len());
                names.push(sta.name.clone());
                goodput_mbps.push(sta.goodput_mbps);
            }
        }
        let chosen = choose_drawn(&goodput_mbps, theme::DISTINCT_STATIONS);
        let chosen_under = chosen.as_ref().map(|_| {
            comparison
                .runs
                .first()
                .map_or_else(String::new, |r| r.config.clone())
        });
        let drawn = chosen.unwrap_or_else(|| (0..names.len()).collect());
        let mut drawn_at = vec![None; names.len()];
        for (k, &i) in drawn.iter().enumerate() {
            // The first position of a station chosen twice, as a scan of `drawn` found.
            drawn_at[i].get_or_insert(k);
        }
        StationColours {
            drawn,
            drawn_at,
            names,
            index,
            chosen_under,
        }
    }

    /// The colour of the station called `name`: its own while it is drawn one by one,
    /// the others' grey if not (black for a name not in the comparison).
    pub(crate) fn colour(&self, name: &str) -> RGBColor {
        match self.index(name) {
            None => RGBColor(0, 0, 0),
            Some(i) => self.drawn_at[i].map_or(theme::OTHERS_COLOUR, theme::station_colour),
        }
    }

    /// The station's position in first-appearance order.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// All names, in order of first appearance.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The names of the stations drawn one by one, in legend order.
    pub(crate) fn drawn(&self) -> impl Iterator<Item = &str> + '_ {
        self.drawn.iter().map(|&i| self.names[i].as_str())
    }

    /// The position of station `name` among the drawn ones, if it is drawn.
    pub(crate) fn drawn_position(&self, name: &str) -> Option<usize> {
        self.drawn_at[self.index(name)?]
    }

    /// Whether some stations are shown only through aggregates.
    pub(crate) fn summarised(&self) -> bool {
        self.chosen_under.is_some()
    }

    /// How many stations are not drawn one by one.
    pub(crate) fn others(&self) -> usize {
        self.names.len() - self.drawn.len()
    }

    /// Legend entries of the drawn stations with `marker`.
    pub(crate) fn entries(&self, marker: Marker) -> Vec<Entry> {
        self.drawn()
            .map(|n| Entry::new(n, self.colour(n), marker))
            .collect()
    }

    /// The figure's caption: `caption`, and when stations are summarised a line under it
    /// saying which are drawn and that the others are `rest` (e.g. "in the box plots").
    pub(crate) fn caption(&self, caption: &str, rest: &str) -> String {
        let Some(design) = &self.chosen_under else {
            return caption.to_string();
        };
        let ends = (self.drawn.len() - 1) / 2;
        let note = format!(
            "{} stations: {} drawn (the {ends} lowest, the median and the {} highest \
             goodput under {design}), the others {rest}",
            self.names.len(),
            self.drawn.len(),
            self.drawn.len() - 1 - ends,
        );
        if caption.is_empty() {
            note
        } else {
            format!("{caption}\n{note}")
        }
    }
}

/// The stations to draw one by one out of stations with `goodput_mbps`, as positions in
/// legend order, or `None` when all `limit` fit: ranked by goodput (ties by position),
/// the (limit−1)/2 lowest, the median (the lower one of an even count) and the rest of
/// `limit` from the top, lowest first.
pub(crate) fn choose_drawn(goodput_mbps: &[f64], limit: usize) -> Option<Vec<usize>> {
    let n = goodput_mbps.len();
    if n <= limit {
        return None;
    }
    let mut ranked: Vec<usize> = (0..n).collect();
    ranked.sort_by(|&a, &b| goodput_mbps[a].total_cmp(&goodput_mbps[b]).then(a.cmp(&b)));
    let low = limit.saturating_sub(1) / 2;
    let high = limit.saturating_sub(1 + low);
    let mut ranks: Vec<usize> = (0..low).collect();
    if limit > 0 {
        ranks.push((n - 1) / 2);
    }
    ranks.extend(n - high..n);
    Some(ranks.into_iter().map(|r| ranked[r]).collect())
}

/// Minimum, first quartile, median, third quartile and maximum of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FiveNumbers {
    pub(crate) min: f64,
    pub(crate) q1: f64,
    pub(crate) median: f64,
    pub(crate) q3: f64,
    pub(crate) max: f64,
}

impl FiveNumbers {
    /// The summary of `values`, quartiles interpolated between order statistics
    /// (Hyndman & Fan 1996, type 7, as R's and NumPy's default); `None` when empty.
    pub(crate) fn of(values: impl IntoIterator<Item = f64>) -> Option<FiveNumbers> {
        let mut sorted: Vec<f64> = values.into_iter().collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let at = |p: f64| {
            let h = (sorted.len() - 1) as f64 * p;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        };
        Some(FiveNumbers {
            min: sorted[0],
            q1: at(0.25),
            median: at(0.5),
            q3: at(0.75),
            max: sorted[sorted.len() - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{crowd_comparison, demo_comparison};

    #[test]
    fn few_stations_are_all_drawn_in_their_own_order() {
        assert_eq!(choose_drawn(&[3.0, 1.0, 2.0], 7), None);
        assert_eq!(choose_drawn(&[1.0; 7], 7), None);
        let c = demo_comparison(1);
        let colours = StationColours::of(&c);
        assert!(!colours.summarised());
        assert_eq!(colours.drawn().collect::<Vec<_>>(), colours.names());
        assert_eq!(colours.caption("cap", "in grey"), "cap");
        assert_eq!(colours.others(), 0);
    }

    #[test]
    fn many_stations_draw_the_ends_and_the_median_by_goodput() {
        // Goodput 10, 9, ..., 1: the lowest are positions 9, 8, 7; the median of ten
        // (the lower one) is rank 4, goodput 5, position 5; the highest 2, 1, 0.
        let goodput: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        assert_eq!(choose_drawn(&goodput, 7), Some(vec![9, 8, 7, 5, 2, 1, 0]));
        // An even limit takes one more from the top.
        assert_eq!(choose_drawn(&goodput, 4), Some(vec![9, 5, 1, 0]));
    }

    #[test]
    fn ties_are_broken_by_first_appearance() {
        let goodput = [2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0];
        assert_eq!(choose_drawn(&goodput, 7), Some(vec![1, 2, 3, 5, 8, 0, 9]));
    }

    #[test]
    fn drawn_stations_take_distinct_colours_and_the_rest_grey() {
        let c = crowd_comparison(30, 10.0, 0.2, 1);
        let colours = StationColours::of(&c);
        assert!(colours.summarised());
        let drawn: Vec<&str> = colours.drawn().collect();
        assert_eq!(drawn.len(), theme::DISTINCT_STATIONS);
        assert_eq!(colours.others(), 30 - drawn.len());
        let mut seen = Vec::new();
        for name in &drawn {
            let colour = colours.colour(name);
            assert!(!seen.contains(&colour) && colour != theme::OTHERS_COLOUR);
            seen.push(colour);
        }
        let other = colours
            .names()
            .iter()
            .find(|n| !drawn.contains(&n.as_str()));
        assert_eq!(colours.colour(other.unwrap()), theme::OTHERS_COLOUR);
        // The ranking is under the first design, lowest first.
        let first = &c.runs[0];
        let goodput = |n: &str| {
            let sta = first.stations.iter().find(|s| s.name == n).unwrap();
            sta.goodput_mbps
        };
        assert!(drawn.windows(2).all(|w| goodput(w[0]) <= goodput(w[1])));
        let min = first
            .stations
            .iter()
            .map(|s| s.goodput_mbps)
            .fold(f64::MAX, f64::min);
        assert_eq!(goodput(drawn[0]), min);
        assert_eq!(
            colours.caption("seed 1", "in grey"),
            "seed 1\n30 stations: 7 drawn (the 3 lowest, the median and the 3 highest \
             goodput under fifo), the others in grey"
        );
    }

    #[test]
    fn five_numbers_interpolate_quartiles() {
        let f = FiveNumbers::of([4.0, 1.0, 3.0, 2.0, 5.0]).unwrap();
        assert_eq!(
            (f.min, f.q1, f.median, f.q3, f.max),
            (1.0, 2.0, 3.0, 4.0, 5.0)
        );
        let f = FiveNumbers::of([1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!((f.q1, f.median, f.q3), (1.75, 2.5, 3.25));
        assert_eq!(FiveNumbers::of([7.0]).unwrap().q3, 7.0);
        assert_eq!(FiveNumbers::of([]), None);
    }
}
