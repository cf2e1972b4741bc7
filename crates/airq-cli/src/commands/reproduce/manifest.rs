//! The experiments `airq reproduce` runs, as data: one TOML file per experiment in
//! `experiments/` (which scenario, which variants, how long and how many seeds, what the
//! seed's passage says as checks, and which of the seeds' published figures to put beside
//! ours), and `experiments/seed-figures.toml`, the seeds' published numbers with their
//! sources. Unknown keys are errors that name the file and line.

use crate::error::{io_error, CliError};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The seeds' published figures (`experiments/seed-figures.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedFigures {
    /// The documents, by key.
    pub source: BTreeMap<String, Source>,
    /// Every published value.
    pub figure: Vec<SeedFigure>,
    /// Every stated shape without a number.
    pub shape: Vec<Shape>,
}

/// A seed document.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// How the report names it: `seed 000 (netdev 2.2 paper)`.
    pub cite: String,
    /// Authors, title, venue and year.
    pub title: String,
    /// Where its text is.
    pub file: String,
    /// Its testbed, as far as the document describes it.
    pub testbed: String,
}

/// One published value.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedFigure {
    /// The experiment's number in the reproduction list.
    pub experiment: u32,
    /// Unique, stable name.
    pub id: String,
    /// A key of [`SeedFigures::source`].
    pub source: String,
    /// The place in the document.
    #[serde(rename = "where")]
    pub place: String,
    /// `text`, `table` or `ping-log`.
    pub read_from: String,
    /// What is measured, unit in the name.
    pub quantity: String,
    /// The AP configuration, in the seed's words.
    pub design: String,
    /// Which station(s).
    pub station: String,
    /// A column set, where the seed's table has several.
    pub condition: Option<String>,
    /// The number.
    pub value: Option<f64>,
    /// A stated lower bound.
    pub value_min: Option<f64>,
    /// A stated upper bound.
    pub value_max: Option<f64>,
    /// Every sample, where the seed prints them.
    pub samples: Option<Vec<f64>>,
    /// How it was derived, if not printed as such.
    pub note: Option<String>,
}

impl SeedFigure {
    /// The value as the report prints it: `35`, `> 200`, `< 100`, `10 – 20`, or the
    /// range of the samples.
    pub fn shown(&self) -> String {
        match (self.value, self.value_min, self.value_max, &self.samples) {
            (Some(v), ..) => format!("{v}"),
            (None, Some(lo), Some(hi), _) => format!("{lo} – {hi}"),
            (None, Some(lo), None, _) => format!("> {lo}"),
            (None, None, Some(hi), _) => format!("< {hi}"),
            (None, None, None, Some(s)) if !s.is_empty() => {
                let lo = s.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                format!("{lo} – {hi} ({} samples)", s.len())
            }
            _ => "—".to_string(),
        }
    }
}

/// A shape a seed states without a number.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    /// The experiment's number.
    pub experiment: u32,
    /// A key of [`SeedFigures::source`].
    pub source: String,
    /// The place in the document.
    #[serde(rename = "where")]
    pub place: String,
    /// The seed's sentence.
    pub statement: String,
}

/// One experiment file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// Its number in the reproduction list (issue 16), 1-18.
    pub experiment: u32,
    /// Short title.
    pub title: String,
    /// The seed passage it reproduces.
    pub reproduces: String,
    /// The scenario file, relative to the experiment file's folder (an experiment of one
    /// part; else `[[part]]`).
    pub scenario: Option<PathBuf>,
    /// AP presets to run, as `compare --configs`.
    #[serde(default)]
    pub configs: Vec<String>,
    /// Variants to run, as `compare --variant` (a `[[variant]]` of the scenario, or
    /// `NAME:key=value,...`).
    #[serde(default)]
    pub variants: Vec<String>,
    /// Overrides of the scenario, as `--set`.
    #[serde(default)]
    pub set: Vec<String>,
    /// Several comparisons, each of its own scenario (metrics then start `PART:`).
    #[serde(default)]
    pub part: Vec<Part>,
    /// The full run.
    pub full: Length,
    /// The `--quick` run (CI).
    pub quick: Length,
    /// What we think explains a difference from the seed (model limits, testbed details
    /// the seed does not give). Printed in the report's section.
    pub notes: Option<String>,
    /// How far our value may be from a seed's published number and still count as the
    /// same magnitude: ours / seed within `[1 / (1 + t), 1 + t]`.
    #[serde(default = "default_tolerance")]
    pub magnitude_tolerance: f64,
    /// The seed's shape, as checks on our figures.
    #[serde(default)]
    pub check: Vec<Check>,
    /// Seeds' published figures to put beside ours.
    #[serde(default)]
    pub beside: Vec<Beside>,
    /// More of our figures to show in the section's table.
    #[serde(default)]
    pub show: Vec<String>,
    /// The plots the report shows (of each part): `airq list plots`'s names or
    /// `repetitions`; every plot is written beside the results either way.
    #[serde(default = "default_figures")]
    pub figures: Vec<String>,
}

fn default_figures() -> Vec<String> {
    vec!["repetitions".to_string()]
}

/// The plots an experiment may show.
pub fn figure_names() -> Vec<&'static str> {
    airq_report::PlotKind::ALL
        .iter()
        .map(|k| k.name())
        .chain(["repetitions"])
        .collect()
}

/// One comparison of an experiment.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Its name (metrics start `NAME:`); empty for the one part of an experiment
    /// written without `[[part]]`.
    pub name: String,
    /// The scenario file, relative to the experiment file's folder.
    pub scenario: PathBuf,
    /// AP presets, as `compare --configs`.
    #[serde(default)]
    pub configs: Vec<String>,
    /// Variants, as `compare --variant`.
    #[serde(default)]
    pub variants: Vec<String>,
    /// Overrides, as `--set`.
    #[serde(default)]
    pub set: Vec<String>,
}

impl Experiment {
    /// Its comparisons: the `[[part]]`s, or the one the top-level keys describe.
    pub fn parts(&self) -> Vec<Part> {
        match &self.scenario {
            Some(scenario) => vec![Part {
                name: String::new(),
                scenario: scenario.clone(),
                configs: self.configs.clone(),
                variants: self.variants.clone(),
                set: self.set.clone(),
            }],
            None => self.part.clone(),
        }
    }
}

fn default_tolerance() -> f64 {
    0.5
}

/// How long and how often an experiment runs.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Length {
    /// Seeds (the scenario's seed and the next ones).
    pub seeds: u32,
    /// Simulated seconds.
    pub duration: f64,
    /// Warm-up seconds left out of every figure.
    pub omit: f64,
}

/// One statement of the seed as a check on our figures: `left op factor × right`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The seed's statement this checks, in words.
    pub says: String,
    /// A metric (see `metric.rs`).
    pub left: String,
    /// `>`, `<` or `~` (within `tolerance` of).
    pub op: Op,
    /// A metric or a number.
    pub right: Operand,
    /// Multiplies `right` (default 1).
    #[serde(default = "one")]
    pub factor: f64,
    /// For `~`: the relative distance allowed (default 0.1).
    #[serde(default = "tenth")]
    pub tolerance: f64,
}

fn one() -> f64 {
    1.0
}

fn tenth() -> f64 {
    0.1
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Op {
    /// Greater than.
    #[serde(rename = ">")]
    Greater,
    /// Less than.
    #[serde(rename = "<")]
    Less,
    /// Within a relative tolerance.
    #[serde(rename = "~")]
    About,
}

impl Op {
    /// As written in the file.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Greater => ">",
            Op::Less => "<",
            Op::About => "≈",
        }
    }
}

/// The right side of a check.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Operand {
    /// A constant.
    Number(f64),
    /// One of our metrics.
    Metric(String),
}

/// A seed's published figure beside one of ours.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Beside {
    /// An id of `seed-figures.toml`.
    pub seed: String,
    /// Our metric.
    pub ours: String,
}

/// An experiment file as loaded: where it came from, and its parts' scenario paths
/// resolved.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The experiment file.
    pub file: PathBuf,
    /// Its contents.
    pub experiment: Experiment,
    /// Its parts, each with its scenario file's path.
    pub parts: Vec<(Part, PathBuf)>,
}

impl Loaded {
    /// A short name for folders and anchors: `01-ping-latency` from `01-ping-latency.toml`.
    pub fn slug(&self) -> String {
        self.file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("{:02}", self.experiment.experiment))
    }
}

/// Reads `seed-figures.toml` from `dir`.
pub fn load_seed_figures(dir: &Path) -> Result<SeedFigures, CliError> {
    let path = dir.join("seed-figures.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| io_error("cannot read", &path, e))?;
    let figures: SeedFigures = toml::from_str(&text)
        .map_err(|e| CliError::new(format!("{}: {}", path.display(), e.to_string().trim())))?;
    for f in &figures.figure {
        if !figures.source.contains_key(&f.source) {
            return Err(CliError::new(format!(
                "{}: figure {}: source `{}` is not one of [source]",
                path.display(),
                f.id,
                f.source
            )));
        }
    }
    Ok(figures)
}

/// Reads every experiment file of `dir` (`NN-*.toml`), in the order of their numbers,
/// each checked: numbers unique and 1-18, lengths positive, the warm-up shorter than the
/// run, every `beside` naming a published figure.
pub fn load_experiments(dir: &Path, figures: &SeedFigures) -> Result<Vec<Loaded>, CliError> {
    let entries = std::fs::read_dir(dir).map_err(|e| io_error("cannot read", dir, e))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "toml")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.as_bytes().first().is_some_and(u8::is_ascii_digit))
        })
        .collect();
    files.sort();
    let mut loaded: Vec<Loaded> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).map_err(|e| io_error("cannot read", &file, e))?;
        let experiment: Experiment = toml::from_str(&text)
            .map_err(|e| CliError::new(format!("{}: {}", file.display(), e.to_string().trim())))?;
        check_experiment(&experiment, figures)
            .map_err(|why| CliError::new(format!("{}: {why}", file.display())))?;
        if let Some(other) = loaded
            .iter()
            .find(|l| l.experiment.experiment == experiment.experiment)
        {
            return Err(CliError::new(format!(
                "{}: experiment {} is also {}",
                file.display(),
                experiment.experiment,
                other.file.display()
            )));
        }
        let folder = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let parts = experiment
            .parts()
            .into_iter()
            .map(|p| {
                let path = folder.join(&p.scenario);
                (p, path)
            })
            .collect();
        loaded.push(Loaded {
            file,
            experiment,
            parts,
        });
    }
    loaded.sort_by_key(|l| l.experiment.experiment);
    Ok(loaded)
}

fn check_experiment(e: &Experiment, figures: &SeedFigures) -> Result<(), String> {
    if !(1..=18).contains(&e.experiment) {
        return Err(format!("experiment = {}: must be 1-18", e.experiment));
    }
    for (name, l) in [("full", e.full), ("quick", e.quick)] {
        if l.seeds == 0 || l.seeds > 100 {
            return Err(format!("{name}.seeds = {}: must be 1-100", l.seeds));
        }
        if !(l.duration.is_finite() && l.duration > 0.0 && l.duration <= 3600.0) {
            return Err(format!(
                "{name}.duration = {}: must be in (0, 3600] s",
                l.duration
            ));
        }
        if !(l.omit.is_finite() && l.omit >= 0.0 && l.omit < l.duration) {
            return Err(format!(
                "{name}.omit = {}: must be at least 0 and less than the duration",
                l.omit
            ));
        }
    }
    if !(e.magnitude_tolerance.is_finite() && e.magnitude_tolerance > 0.0) {
        return Err("magnitude_tolerance: must be positive".to_string());
    }
    match (&e.scenario, e.part.is_empty()) {
        (Some(_), false) => {
            return Err("a scenario and [[part]]s: name the scenario in each part".to_string())
        }
        (None, true) => return Err("name the scenario (or [[part]]s)".to_string()),
        (None, false) if !(e.configs.is_empty() && e.variants.is_empty() && e.set.is_empty()) => {
            return Err("with [[part]]s, configs, variants and set belong in each part".to_string())
        }
        _ => {}
    }
    for (i, p) in e.parts().iter().enumerate() {
        if p.configs.is_empty() && p.variants.is_empty() {
            return Err("name the configs or variants to run".to_string());
        }
        if e.scenario.is_none() {
            let ok = !p.name.is_empty()
                && p.name.len() <= 32
                && p.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !ok {
                return Err(format!(
                    "part `{}`: a name of 1-32 lower-case letters, digits and _",
                    p.name
                ));
            }
            if e.part[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("part `{}` twice", p.name));
            }
        }
    }
    let known = figure_names();
    if let Some(f) = e.figures.iter().find(|f| !known.contains(&f.as_str())) {
        return Err(format!(
            "figures: no plot `{f}` (one of {})",
            known.join(", ")
        ));
    }
    for b in &e.beside {
        let figure = figures.figure.iter().find(|f| f.id == b.seed);
        match figure {
            None => return Err(format!("beside: `{}` is not in seed-figures.toml", b.seed)),
            Some(f) if f.samples.is_some() => {
                return Err(format!(
                    "beside: `{}` is a list of samples; compare its range in a check instead",
                    b.seed
                ))
            }
            Some(_) => {}
        }
    }
    for c in &e.check {
        if !(c.factor.is_finite() && c.factor > 0.0) {
            return Err(format!("check `{}`: factor must be positive", c.says));
        }
        if !(c.tolerance.is_finite() && c.tolerance > 0.0) {
            return Err(format!("check `{}`: tolerance must be positive", c.says));
        }
    }
    Ok(())
}
