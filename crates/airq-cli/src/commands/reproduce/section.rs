//! One experiment's section of the report (what the seed found, what we measure, the
//! checks, the verdict, the notes, the figures), and the report's front: the verdict
//! table and the experiments not built yet.

use super::document::Block;
use super::manifest::SeedFigures;
use super::metric::{PartRuns, Runs};
use super::verdict::{self, Verdict};
use super::{Outcome, Prepared, Shown};
use crate::commands::{starvation_warning, unsound};
use crate::error::CliError;
use crate::results::ResultsFile;
use std::path::{Path, PathBuf};

/// Evaluates the checks and the published numbers of `p` on its `runs`.
pub(super) fn evaluate(
    p: &Prepared,
    runs: &[&[ResultsFile]],
    figures: &SeedFigures,
) -> Result<Outcome, CliError> {
    let e = &p.loaded.experiment;
    let context = |why: String| CliError::new(format!("{}: {why}", p.loaded.file.display()));
    let view = Runs {
        parts: p
            .parts
            .iter()
            .zip(runs)
            .map(|(part, runs)| PartRuns {
                name: &part.name,
                runs,
                variants: &part.variants,
            })
            .collect(),
    };
    let checks: Vec<_> = e
        .check
        .iter()
        .map(|c| verdict::check(&view, c).map_err(context))
        .collect::<Result<_, _>>()?;
    let beside: Vec<_> = e
        .beside
        .iter()
        .map(|b| {
            // load_experiments checked that every `beside` names a published figure.
            let figure = figures.figure.iter().find(|f| f.id == b.seed);
            let figure = figure.ok_or_else(|| context(format!("no seed figure `{}`", b.seed)))?;
            let source = figures
                .source
                .get(&figure.source)
                .map_or(figure.source.as_str(), |s| s.cite.as_str());
            verdict::beside(&view, b, figure, source, e.magnitude_tolerance).map_err(context)
        })
        .collect::<Result<_, _>>()?;
    let shown: Vec<Shown> = e
        .show
        .iter()
        .map(|path| {
            view.value(path).map_err(context).map(|v| Shown {
                metric: path.clone(),
                value: v.shown(),
            })
        })
        .collect::<Result<_, _>>()?;
    let every_run = || runs.iter().flat_map(|r| r.iter());
    let warnings: Vec<String> = every_run().flat_map(unsound).collect();
    let starved: Vec<String> = every_run().filter_map(starvation_warning).collect();
    let first = &p.parts[0];
    let scenario = first.specs.first().map(|s| &s.scenario);
    Ok(Outcome {
        experiment: e.experiment,
        title: e.title.clone(),
        slug: p.loaded.slug(),
        verdict: verdict::verdict(&checks, &beside, warnings.is_empty()),
        seeds: u32::try_from(runs[0].len() / first.variants.len().max(1)).unwrap_or(u32::MAX),
        duration_s: scenario.map_or(0.0, |s| s.duration_s()),
        omit_s: scenario.map_or(0.0, |s| s.omit.as_secs_f64()),
        checks,
        beside,
        shown,
        warnings,
        starved,
    })
}

/// The section of one experiment.
pub(super) fn blocks(
    p: &Prepared,
    o: &Outcome,
    plots: &[PathBuf],
    report_dir: &Path,
    figures: &SeedFigures,
) -> Vec<Block> {
    let e = &p.loaded.experiment;
    let mut out = vec![
        Block::Heading(2, format!("{}. {}", e.experiment, e.title)),
        Block::Paragraph(format!(
            "**Verdict: {}.** Reproduces {}. {} seed(s) from {}, {} s each, the first {} s \
             left out. Experiment file: `{}`. The same runs: {}.",
            o.verdict.words(),
            e.reproduces,
            o.seeds,
            p.parts[0].specs.first().map_or(0, |s| s.scenario.seed),
            o.duration_s,
            o.omit_s,
            p.loaded.file.display(),
            p.parts
                .iter()
                .map(|part| match part.name.as_str() {
                    "" => format!("`{}`", part.command),
                    name => format!("{name}: `{}`", part.command),
                })
                .collect::<Vec<_>>()
                .join("; ")
        )),
        Block::Heading(3, "What the seed found".to_string()),
    ];
    let shapes: Vec<String> = figures
        .shape
        .iter()
        .filter(|s| s.experiment == e.experiment)
        .map(|s| {
            format!(
                "“{}” ({}, {})",
                s.statement,
                source_title(figures, &s.source),
                s.place
            )
        })
        .collect();
    if !shapes.is_empty() {
        out.push(Block::List(shapes));
    }
    let published: Vec<Vec<String>> = figures
        .figure
        .iter()
        .filter(|f| f.experiment == e.experiment)
        .map(|f| {
            vec![
                f.design.clone(),
                f.station.clone(),
                match &f.condition {
                    Some(c) => format!("{} ({c})", f.quantity),
                    None => f.quantity.clone(),
                },
                f.shown(),
                format!(
                    "{}, {} ({})",
                    source_title(figures, &f.source),
                    f.place,
                    f.read_from
                ),
            ]
        })
        .collect();
    if !published.is_empty() {
        out.push(Block::Table(
            [
                "design",
                "station",
                "quantity",
                "published",
                "where (read from)",
            ]
            .map(String::from)
            .to_vec(),
            published,
        ));
    }
    out.push(Block::Heading(3, "What we measure".to_string()));
    if !o.beside.is_empty() || !e.show.is_empty() {
        let mut rows: Vec<Vec<String>> = o
            .beside
            .iter()
            .map(|b| {
                vec![
                    format!("`{}`", b.ours_metric),
                    b.ours.clone(),
                    b.seed.clone(),
                    b.ratio.map_or("—".to_string(), |r| format!("{r:.2}")),
                    if b.agrees { "yes" } else { "no" }.to_string(),
                ]
            })
            .collect();
        for s in &o.shown {
            rows.push(vec![
                format!("`{}`", s.metric),
                s.value.clone(),
                "—".into(),
                "—".into(),
                "—".into(),
            ]);
        }
        out.push(Block::Table(
            [
                "our metric",
                "ours (mean ± 95% CI)",
                "published",
                "ours / published",
                "same magnitude",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        ));
        out.push(Block::Paragraph(format!(
            "Same magnitude: ours / published within [1/{t}, {t}], or on the stated side of a \
             published bound.",
            t = 1.0 + e.magnitude_tolerance
        )));
    }
    if !o.checks.is_empty() {
        out.push(Block::Paragraph(
            "The seed's shape, checked on our means:".into(),
        ));
        out.push(Block::List(
            o.checks
                .iter()
                .map(|c| {
                    let spread = match c.clear {
                        Some(false) => " (within the spread over seeds: the 95% intervals overlap)",
                        _ => "",
                    };
                    format!(
                        "{} {} — {}{spread}",
                        if c.holds { "✓" } else { "✗" },
                        c.says,
                        c.detail
                    )
                })
                .collect(),
        ));
    }
    if !o.warnings.is_empty() {
        out.push(Block::Paragraph(
            "**These runs were not sound** (the verdict is `diverges` for that reason):".into(),
        ));
        out.push(Block::List(o.warnings.clone()));
    }
    if !o.starved.is_empty() {
        out.push(Block::Paragraph(format!(
            "Stations starved in {} run(s) (the AP held packets for them, sent them \
             nothing and delivered none for a second or more; reported, not part of the \
             verdict: a design may starve a station, and some experiments show exactly \
             that):",
            o.starved.len()
        )));
        out.push(Block::List(o.starved.clone()));
    }
    if let Some(notes) = &e.notes {
        let heading = if o.verdict == Verdict::Reproduced {
            "Notes"
        } else {
            "Why we think we differ"
        };
        out.push(Block::Paragraph(format!("**{heading}.** {}", notes.trim())));
    }
    for plot in plots {
        let rel = plot.strip_prefix(report_dir).unwrap_or(plot);
        let name = plot
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(Block::Image(rel.display().to_string(), name));
    }
    out
}

fn source_title<'a>(figures: &'a SeedFigures, key: &'a str) -> &'a str {
    figures.source.get(key).map_or(key, |s| s.cite.as_str())
}

/// The report's front: what it is, the verdict per experiment, and the experiments of
/// the list that have no experiment file yet.
pub(super) fn front(quick: bool, outcomes: &[Outcome], figures: &SeedFigures) -> Vec<Block> {
    let mut out = vec![
        Block::Heading(1, "airq reproduces its seed documents".into()),
        Block::Paragraph(format!(
            "Written by `airq reproduce{}` (airq {}). Each section runs one experiment of \
             our seed documents in the simulator, puts the seed's published figures beside \
             ours and gives a verdict: **reproduced** (the seed's shape holds and its \
             numbers are of the same magnitude as ours), **same shape, different \
             magnitude**, or **diverges** (a check of the seed's shape fails, or a run was \
             not sound). The seeds' numbers come from `experiments/seed-figures.toml`, each \
             with its source; the models are never tuned to hit them.{}",
            if quick { " --quick" } else { "" },
            env!("CARGO_PKG_VERSION"),
            if quick {
                " **Quick form**: fewer seeds and shorter runs than the full report; \
                 confidence intervals are wide."
            } else {
                ""
            }
        )),
    ];
    out.push(Block::Table(
        [
            "#",
            "experiment",
            "verdict",
            "checks holding",
            "published numbers agreeing",
        ]
        .map(String::from)
        .to_vec(),
        outcomes
            .iter()
            .map(|o| {
                vec![
                    o.experiment.to_string(),
                    o.title.clone(),
                    o.verdict.words().to_string(),
                    format!(
                        "{}/{}",
                        o.checks.iter().filter(|c| c.holds).count(),
                        o.checks.len()
                    ),
                    format!(
                        "{}/{}",
                        o.beside.iter().filter(|b| b.agrees).count(),
                        o.beside.len()
                    ),
                ]
            })
            .collect(),
    ));
    let missing: Vec<String> = (1..=18u32)
        .filter(|n| !outcomes.iter().any(|o| o.experiment == *n))
        .map(|n| {
            let what = figures
                .shape
                .iter()
                .find(|s| s.experiment == n)
                .map(|s| s.statement.clone())
                .or_else(|| {
                    figures
                        .figure
                        .iter()
                        .find(|f| f.experiment == n)
                        .map(|f| format!("{} under {}", f.quantity, f.design))
                })
                .unwrap_or_default();
            format!("{n}: not run here — {what}")
        })
        .collect();
    if !missing.is_empty() {
        out.push(Block::Paragraph(
            "Experiments of the list this report does not run (no experiment file yet, or \
             not selected with `--only`):"
                .into(),
        ));
        out.push(Block::List(missing));
    }
    out
}

/// The sources the report cites, in full.
pub(super) fn sources(figures: &SeedFigures) -> Vec<Block> {
    vec![
        Block::Heading(2, "Sources".into()),
        Block::List(
            figures
                .source
                .values()
                .map(|s| {
                    format!(
                        "{}: {}. Text: `{}`. Testbed: {}.",
                        s.cite, s.title, s.file, s.testbed
                    )
                })
                .collect(),
        ),
    ]
}
