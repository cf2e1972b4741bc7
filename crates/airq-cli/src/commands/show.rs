//! `airq show RESULTS...`: the table of one results file, or the side-by-side table of
//! several (as `compare` printed it), redrawn from the files alone.

use crate::error::CliError;
use crate::labels::check_side_by_side;
use crate::results;
use crate::table;
use std::path::PathBuf;

/// Loads every file (refusing newer format versions) and prints its table; several
/// must be runs of one experiment unless `allow_mixed`.
pub fn show(paths: &[PathBuf], allow_mixed: bool) -> Result<(), CliError> {
    let runs = paths
        .iter()
        .map(|p| results::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let names = |r: &results::ResultsFile| -> Vec<String> {
        r.stations.iter().map(|s| s.name.clone()).collect()
    };
    if let Some((first, rest)) = runs.split_first() {
        if let Some(i) = rest.iter().position(|r| names(r) != names(first)) {
            return Err(CliError::new(format!(
                "{} and {} have different stations: only runs of one scenario go side by side",
                paths[0].display(),
                paths[i + 1].display()
            )));
        }
    }
    check_side_by_side(
        &runs.iter().collect::<Vec<_>>(),
        &paths.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        allow_mixed,
    )?;
    for r in &runs {
        for warning in super::warnings(r) {
            eprintln!("{warning}");
        }
    }
    match runs.as_slice() {
        [one] => print!("{}", table::run_table(one)),
        _ => print!("{}", table::compare_table(&runs)),
    }
    Ok(())
}
