//! `airq show RESULTS...`: the table of one results file, the side-by-side table of
//! several (as `compare` printed it), or of repetitions (the same variants under several
//! seeds: mean ± 95% CI, as `--seeds` printed it), redrawn from the files alone; and
//! their summaries as JSON or CSV.

use crate::error::CliError;
use crate::labels::{as_repetitions, check_side_by_side};
use crate::outputs::Target;
use crate::results;
use crate::summary;
use crate::table;
use std::path::{Path, PathBuf};

/// Loads every file (refusing newer format versions) and prints its table; several
/// must be runs of one experiment unless `allow_mixed`.
pub fn show(
    paths: &[PathBuf],
    allow_mixed: bool,
    json: Option<&Path>,
    csv: Option<&Path>,
) -> Result<(), CliError> {
    let targets: Vec<Target> = [json, csv].into_iter().flatten().map(Target::of).collect();
    for t in &targets {
        t.check()?;
    }
    let runs = paths
        .iter()
        .map(|p| results::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = json {
        let json = serde_json::to_string_pretty(&summary::summarise(&runs))
            .map_err(|e| CliError::new(format!("cannot encode the summary: {e}")))?;
        Target::of(path).write(&(json + "\n"))?;
    }
    if let Some(path) = csv {
        Target::of(path).write(&summary::csv(&runs))?;
    }
    if json.is_some_and(|p| p == Path::new("-")) || csv.is_some_and(|p| p == Path::new("-")) {
        return Ok(());
    }
    for r in &runs {
        for warning in super::warnings(r) {
            eprintln!("{warning}");
        }
    }
    if let Some((ordered, variants)) = as_repetitions(&runs) {
        let ordered: Vec<_> = ordered.into_iter().cloned().collect();
        print!("{}", table::seeds_table(&ordered, variants));
        return Ok(());
    }
    check_side_by_side(
        &runs.iter().collect::<Vec<_>>(),
        &paths.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        allow_mixed,
    )?;
    match runs.as_slice() {
        [one] => print!("{}", table::run_table(one)),
        _ => print!("{}", table::compare_table(&runs)),
    }
    Ok(())
}
