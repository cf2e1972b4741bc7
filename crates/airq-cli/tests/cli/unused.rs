//! Settings a run has no use for (`airq_cli::unused`): a `--set` that tunes a layer no
//! configuration has is refused, one that some configurations use is left out of the
//! others' labels and noted, a sweep over one is refused, and a scenario's own such
//! keys are noted.

use super::{airq, results_files, stdout, write, SMALL};
use std::path::Path;

fn fails(dir: &Path, args: &[&str]) -> String {
    let a = airq().args(args).arg("-o").arg(dir).assert().failure();
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

#[test]
fn a_set_no_run_uses_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "small.toml", SMALL);
    let s = s.to_str().unwrap();
    let e = fails(dir.path(), &["run", s, "--set", "ap.fq_codel.target_ms=1"]);
    assert!(
        e.contains("--set ap.fq_codel.target_ms=1 changes nothing: airtime (qdisc none: no fq_codel qdisc) ignores")
            && e.contains("ap.qdisc"),
        "{e}"
    );
    let e = fails(
        dir.path(),
        &[
            "compare",
            s,
            "--configs",
            "fifo,fq_codel",
            "--set",
            "ap.airtime.use_rx=false",
        ],
    );
    assert!(
        e.contains("fifo, fq_codel (scheduler round_robin: no airtime scheduler) ignore"),
        "{e}"
    );
    let e = fails(
        dir.path(),
        &[
            "run",
            s,
            "--config",
            "airtime",
            "--set",
            "ap.firmware.fetch_frames=4",
        ],
    );
    assert!(e.contains("driver softmac: no firmware driver"), "{e}");
    let e = fails(
        dir.path(),
        &[
            "run",
            s,
            "--config",
            "airtime",
            "--driver",
            "firmware_push",
            "--set",
            "ap.firmware.fetch_frames=4",
        ],
    );
    assert!(
        e.contains("driver firmware_push: no firmware that fetches"),
        "{e}"
    );
    // A preset named by the run itself wins over --set ap.preset.
    let e = fails(
        dir.path(),
        &[
            "compare",
            s,
            "--configs",
            "fifo,airtime",
            "--set",
            "ap.preset=fq_mac",
        ],
    );
    assert!(e.contains("leave --set ap.preset out"), "{e}");
    // A variant's own change it has no use for.
    let e = fails(
        dir.path(),
        &[
            "compare",
            s,
            "--variant",
            "rr:preset=fifo,ap.airtime.use_rx=false",
        ],
    );
    assert!(
        e.contains("variant `rr` (--variant): `ap.airtime.use_rx=false` changes nothing"),
        "{e}"
    );
    assert!(results_files(dir.path()).is_empty(), "nothing ran");
}

#[test]
fn a_set_some_runs_use_labels_only_those_and_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "small.toml", SMALL);
    let a = airq()
        .arg("compare")
        .arg(&s)
        .args(["--configs", "fifo,airtime", "--no-plots"])
        .args(["--set", "ap.fq_mac.target_ms=5", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let out = stdout(&a);
    assert!(
        out.contains(
            "note: fifo (mac legacy: no FQ-MAC) ignores `ap.fq_mac.target_ms=5`; airtime uses it"
        ),
        "{out}"
    );
    assert!(!out.contains("fifo+fq_mac"), "{out}");
    assert!(out.contains("airtime+fq_mac.target_ms=5"), "{out}");
    assert_eq!(
        results_files(dir.path()),
        [
            "small-airtime+fq_mac.target_ms=5-seed3.json.gz",
            "small-fifo-seed3.json.gz"
        ]
    );
    // The scenario's preset, chosen by --set, is not said twice.
    let other = tempfile::tempdir().unwrap();
    let a = airq()
        .arg("run")
        .arg(&s)
        .args(["--set", "ap.preset=fifo", "-o"])
        .arg(other.path())
        .assert()
        .success();
    assert!(
        stdout(&a).contains("small under fifo (seed 3)"),
        "{}",
        stdout(&a)
    );
}

#[test]
fn a_sweep_over_a_key_some_variants_ignore_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "small.toml", SMALL);
    let s = s.to_str().unwrap();
    let e = fails(
        dir.path(),
        &["sweep", s, "--param", "ap.fq_codel.target_ms=1,20"],
    );
    assert!(
        e.contains("--param ap.fq_codel.target_ms: fifo (qdisc pfifo_fast: no fq_codel qdisc), fq_mac, airtime, airtime_aql (qdisc none: no fq_codel qdisc) ignore")
            && e.contains("fq_codel uses it")
            && e.contains("--configs"),
        "{e}"
    );
    assert!(results_files(dir.path()).is_empty(), "nothing ran");
    airq()
        .args(["-q", "sweep", s, "--configs", "fq_codel", "--no-plots"])
        .args(["--param", "ap.fq_codel.target_ms=1,20", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(results_files(dir.path()).len(), 2);
}

#[test]
fn a_scenarios_own_keys_a_run_ignores_are_noted() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{SMALL}\n[ap]\npreset = \"airtime\"\n\n[ap.fq_codel]\ntarget_ms = 1.0\n");
    let s = write(dir.path(), "small.toml", &text);
    let a = airq()
        .arg("run")
        .arg(&s)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let out = stdout(&a);
    assert!(
        out.contains(
            "note: airtime (qdisc none: no fq_codel qdisc) ignores the scenario's [ap.fq_codel]"
        ),
        "{out}"
    );
    // A comparison that has fq_codel uses it there.
    let a = airq()
        .arg("compare")
        .arg(&s)
        .args(["--configs", "fq_codel,airtime", "--no-plots", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let out = stdout(&a);
    assert!(
        out.contains("airtime (qdisc none: no fq_codel qdisc) ignores the scenario's [ap.fq_codel]; fq_codel uses it"),
        "{out}"
    );
}
