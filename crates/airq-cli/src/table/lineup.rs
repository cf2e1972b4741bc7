//! Which row is whose when runs side by side have different stations (a variant that
//! sets `station.fast.count`): rows are stations by name, and flows by their label
//! (station, test, direction, class), in the order they first appear over the runs, and
//! each run's cell is its own station's or flow's, blank where it has none. Matching by
//! position printed one run's third station in another's "slow" row.

use super::flows::flow_labels;
use crate::results::ResultsFile;
use std::collections::HashMap;

/// Row names over `runs`, in the order they first appear, and for each run where each
/// name is in its list.
pub(super) struct Lineup {
    pub names: Vec<String>,
    index: Vec<HashMap<String, usize>>,
}

impl Lineup {
    /// Stations by name.
    pub fn stations<'a>(runs: impl IntoIterator<Item = &'a ResultsFile>) -> Lineup {
        Lineup::of(runs.into_iter().map(|r| {
            r.stations
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>()
        }))
    }

    /// Flows by label.
    pub fn flows<'a>(runs: impl IntoIterator<Item = &'a ResultsFile>) -> Lineup {
        Lineup::of(runs.into_iter().map(|r| flow_labels(&r.flows)))
    }

    fn of(lists: impl Iterator<Item = Vec<String>>) -> Lineup {
        let mut names: Vec<String> = Vec::new();
        let mut seen: HashMap<String, ()> = HashMap::new();
        let mut index = Vec::new();
        for list in lists {
            for n in &list {
                if seen.insert(n.clone(), ()).is_none() {
                    names.push(n.clone());
                }
            }
            index.push(list.into_iter().enumerate().map(|(i, n)| (n, i)).collect());
        }
        Lineup { names, index }
    }

    /// Where row `name` is in the `run`th run's list, if it has it.
    pub fn position(&self, run: usize, name: &str) -> Option<usize> {
        self.index.get(run).and_then(|m| m.get(name)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_names_in_first_appearance_and_each_run_finds_its_own() {
        let l = Lineup::of(
            [
                vec!["fast1".to_string(), "fast2".into(), "slow".into()],
                vec![
                    "fast1".into(),
                    "fast2".into(),
                    "fast3".into(),
                    "slow".into(),
                ],
            ]
            .into_iter(),
        );
        assert_eq!(l.names, ["fast1", "fast2", "slow", "fast3"]);
        assert_eq!(l.position(0, "slow"), Some(2));
        assert_eq!(l.position(1, "slow"), Some(3));
        assert_eq!(l.position(0, "fast3"), None);
        assert_eq!(l.position(2, "slow"), None);
    }
}
