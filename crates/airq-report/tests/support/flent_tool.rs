//! Running the real flent from a test, shared by airq-report's and airq-cli's flent
//! tests (airq-cli includes this file by path). Without a `flent` on PATH a test prints
//! a skip notice and passes, unless `AIRQ_REQUIRE_FLENT=1` (as CI sets it), when a
//! missing flent is a failure.

use std::path::Path;
use std::process::{Command, Output};

/// Runs flent with `args` in `dir`; `None` when flent cannot be started at all.
pub fn flent(args: &[&str], dir: &Path) -> Option<Output> {
    Command::new("flent")
        .args(args)
        .current_dir(dir)
        // matplotlib writes its cache here rather than in a shared home directory.
        .env("MPLCONFIGDIR", dir.join("mpl"))
        .output()
        .ok()
}

/// Whether flent runs here; fails when it does not and `AIRQ_REQUIRE_FLENT=1`.
pub fn flent_available(dir: &Path) -> bool {
    let found = flent(&["--version"], dir).is_some_and(|o| o.status.success());
    if !found {
        let required = std::env::var("AIRQ_REQUIRE_FLENT").is_ok_and(|v| v == "1");
        assert!(!required, "AIRQ_REQUIRE_FLENT=1 but flent is not on PATH");
        eprintln!("SKIPPED: flent not found on PATH (install it: pip install flent matplotlib)");
    }
    found
}

/// Runs flent with `args` in `dir`, which must succeed; its standard output.
pub fn flent_ok(args: &[&str], dir: &Path) -> String {
    let out = flent(args, dir).expect("flent starts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "flent {args:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The value in the "avg" column of flent's summary for `series`.
pub fn summary_avg(summary: &str, series: &str) -> f64 {
    let line = summary
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{series} ")))
        .unwrap_or_else(|| panic!("summary has no {series}:\n{summary}"));
    // Series names hold "::" themselves: the value follows the " : " after the name.
    let after = line.split_once(" : ").expect("a ' : ' after the name").1;
    let value = after.split_whitespace().next().unwrap();
    value
        .parse()
        .unwrap_or_else(|_| panic!("{series}: no value ({line})"))
}
