//! The results-file target: bytes as a results file through what `airq show` and `airq
//! plot` do with it before printing or drawing (crates/airq-cli/src/commands/show.rs,
//! plot.rs). Bytes that open as gzip are written to a file and loaded as the commands
//! load it (`results::load`); other bytes are taken as the file's JSON
//! (`results::from_json`), which is where mutations of the structure land. A loaded file
//! then goes through the warnings, the run's table, a side-by-side table of it twice,
//! the summaries (JSON and CSV) and the plots' view of it (`report_view::comparison`,
//! which validates it). Every refusal must be an error value; a panic, an abort on
//! allocation or a hang is a finding. Drawing the PNG itself is left to the
//! process-level fuzz (crates/airq-cli/examples/fuzz_results.rs).

use airq_cli::commands::warnings;
use airq_cli::report_view::comparison;
use airq_cli::results::{self, ResultsFile};
use airq_cli::{summary, table};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Loads `data` as a results file and uses it as `show` and `plot` would.
pub fn results_file(data: &[u8]) {
    let loaded = if data.starts_with(&[0x1f, 0x8b]) {
        let path = scratch_file();
        std::fs::write(&path, data).expect("cannot write the scratch file");
        let loaded = results::load(&path);
        let _ = std::fs::remove_file(&path);
        loaded
    } else {
        let Ok(json) = std::str::from_utf8(data) else {
            return;
        };
        results::from_json(json)
    };
    match loaded {
        Ok(r) => exercise(&r),
        Err(e) => assert!(!e.to_string().trim().is_empty(), "an empty error message"),
    }
}

/// What `show` and `plot` compute from a loaded file.
fn exercise(r: &ResultsFile) {
    let _ = warnings(r);
    let _ = table::run_table(r);
    let two = [r.clone(), r.clone()];
    let _ = table::compare_table(&two);
    let _ = summary::summarise(&two);
    let _ = summary::csv(&two);
    let _ = summary::flows_csv(&two);
    let path = Path::new("fuzz.json.gz");
    if let Err(e) = comparison([(path, r)], false) {
        assert!(!e.to_string().trim().is_empty(), "an empty error message");
    }
}

/// A file of this thread's own in the temporary folder, for one input at a time.
fn scratch_file() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static PATH: PathBuf = std::env::temp_dir().join(format!(
            "airq-fuzz-{}-{}.json.gz",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
    }
    PATH.with(PathBuf::clone)
}
