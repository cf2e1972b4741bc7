//! Runs side by side (`show`, `plot`, `compare`'s table): they must be runs of one
//! experiment — one scenario, the same `--set`s, seed and duration — differing only in
//! their variant, or every column would carry the first run's description. Asked to mix
//! (`--allow-mixed`), each column's label says what sets its run apart.

use crate::error::CliError;
use crate::results::ResultsFile;
use std::path::Path;

/// Refuses runs that are not of one experiment unless `allow_mixed`, and runs that
/// cannot be told apart at all; `paths` name the runs in messages.
pub fn check_side_by_side(
    runs: &[&ResultsFile],
    paths: &[&Path],
    allow_mixed: bool,
) -> Result<(), CliError> {
    let Some((first, rest)) = runs.split_first() else {
        return Err(CliError::new("no results files"));
    };
    let f = &first.metadata;
    for (i, r) in rest.iter().enumerate() {
        let m = &r.metadata;
        let differs = [
            (m.scenario != f.scenario, "scenario"),
            (
                m.scenario_text != f.scenario_text,
                "scenario text or --set options",
            ),
            (m.seed != f.seed, "seed"),
            (m.duration_s != f.duration_s, "duration"),
        ];
        let what: Vec<&str> = differs.iter().filter(|d| d.0).map(|d| d.1).collect();
        if !what.is_empty() && !allow_mixed {
            return Err(CliError::new(format!(
                "{} ({} of `{}`, seed {}, {} s) and {} ({} of `{}`, seed {}, {} s) are runs \
                 of different experiments (their {} differ): side by side they would read as \
                 one. Pass --allow-mixed to show them anyway, each labelled with what sets \
                 it apart.",
                paths[0].display(),
                f.variant,
                f.scenario,
                f.seed,
                f.duration_s,
                paths[i + 1].display(),
                m.variant,
                m.scenario,
                m.seed,
                m.duration_s,
                what.join(", ")
            )));
        }
    }
    let labels = column_labels(runs);
    for (i, label) in labels.iter().enumerate() {
        if let Some(j) = labels[..i].iter().position(|l| l == label) {
            return Err(CliError::new(format!(
                "{} and {} are the same run (`{label}`): give each run once",
                paths[j].display(),
                paths[i].display()
            )));
        }
    }
    Ok(())
}

/// Each run's label: its variant, and whatever else sets it apart from the others
/// (scenario, seed, duration, the `--set`s not every run has; a hash of the scenario
/// text when only that differs).
pub fn column_labels(runs: &[&ResultsFile]) -> Vec<String> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    let f = &first.metadata;
    let any = |p: &dyn Fn(&ResultsFile) -> bool| runs.iter().any(|r| p(r));
    let scenario = any(&|r| r.metadata.scenario != f.scenario);
    let seed = any(&|r| r.metadata.seed != f.seed);
    let duration = any(&|r| r.metadata.duration_s != f.duration_s);
    let text = any(&|r| r.metadata.scenario_text != f.scenario_text);
    // The --sets a run has and some other has not (the duration aside: said above).
    let sets: Vec<Vec<String>> = runs
        .iter()
        .map(|r| r.metadata.unlabelled_overrides())
        .collect();
    let own: Vec<Vec<&String>> = sets
        .iter()
        .map(|s| {
            s.iter()
                .filter(|o| !o.starts_with("duration="))
                .filter(|o| !sets.iter().all(|t| t.contains(o)))
                .collect()
        })
        .collect();
    let by_sets = own.iter().any(|o| !o.is_empty());
    runs.iter()
        .zip(&own)
        .map(|(r, own)| {
            let m = &r.metadata;
            let mut label = m.variant.clone();
            if scenario {
                label = format!("{}:{label}", m.scenario);
            }
            if seed {
                label += &format!(" s{}", m.seed);
            }
            if duration {
                label += &format!(" {}s", m.duration_s);
            }
            for o in own {
                label += &format!(" {o}");
            }
            if text && !scenario && !seed && !duration && !by_sets {
                let hash = m.scenario_text.bytes().fold(0x811c_9dc5u32, |h, b| {
                    (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
                });
                label += &format!(" #{hash:08x}");
            }
            label
        })
        .collect()
}

/// `runs` as repetitions — the same variants, each under the same seeds, of one
/// experiment that differs only in its seed — ordered seed by seed, each seed's runs in
/// the order the variants first appear, with the number of variants; `None` if they are
/// not.
pub fn as_repetitions(runs: &[ResultsFile]) -> Option<(Vec<&ResultsFile>, usize)> {
    let first = &runs.first()?.metadata;
    let text = without_seed(&first.scenario_text)?;
    let mut variants: Vec<(&str, &[String])> = Vec::new();
    let mut seeds: Vec<u64> = Vec::new();
    for r in runs {
        let m = &r.metadata;
        if m.scenario != first.scenario
            || m.duration_s != first.duration_s
            || m.omit_s != first.omit_s
            || without_seed(&m.scenario_text)? != text
        {
            return None;
        }
        let v = (m.variant.as_str(), m.variant_set.as_slice());
        if !variants.contains(&v) {
            variants.push(v);
        }
        if !seeds.contains(&m.seed) {
            seeds.push(m.seed);
        }
    }
    seeds.sort_unstable();
    if seeds.len() < 2 || runs.len() != seeds.len() * variants.len() {
        return None;
    }
    let mut ordered = Vec::with_capacity(runs.len());
    for &seed in &seeds {
        for v in &variants {
            ordered.push(runs.iter().find(|r| {
                let m = &r.metadata;
                m.seed == seed && (m.variant.as_str(), m.variant_set.as_slice()) == *v
            })?);
        }
    }
    Some((ordered, variants.len()))
}

/// A scenario's text without its `seed` key, to compare runs that differ in it alone.
fn without_seed(text: &str) -> Option<String> {
    let mut doc: toml_edit::DocumentMut = text.parse().ok()?;
    doc.remove("seed");
    Some(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::column_labels;
    use crate::report_view::tests::results;

    /// Runs of two points of a sweep over a station's key, shown together: each is
    /// labelled with the --set that sets it apart, not a hash of its scenario text.
    #[test]
    fn mixed_runs_are_labelled_with_the_sets_that_set_them_apart() {
        let mut a = results("airtime");
        let mut b = results("airtime");
        for (r, mcs) in [(&mut a, 0), (&mut b, 3)] {
            r.metadata.overrides = vec![
                "duration=6.0".into(),
                "omit=2.0".into(),
                format!("station.slow.mcs={mcs}"),
            ];
            r.metadata.scenario_text += &format!("\n# mcs {mcs}");
        }
        assert_eq!(
            column_labels(&[&a, &b]),
            ["airtime station.slow.mcs=0", "airtime station.slow.mcs=3"]
        );
        // Only the text differs (an edited file): a hash of it tells them apart.
        b.metadata.overrides = a.metadata.overrides.clone();
        let labels = column_labels(&[&a, &b]);
        assert!(
            labels.iter().all(|l| l.starts_with("airtime #")),
            "{labels:?}"
        );
        assert_ne!(labels[0], labels[1]);
    }
}
