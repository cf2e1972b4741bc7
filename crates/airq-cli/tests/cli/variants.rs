//! Named variants, labels and output safety, as a researcher meets them: variants from
//! the scenario file and the command line label every column and file; runs of other
//! settings never overwrite each other; a comparison whose columns would be one result
//! twice is refused; outputs are checked before anything is simulated.

use super::{airq, json, results_files, stdout, write, SMALL};
use airq_cli::results;
use std::path::Path;

/// [`SMALL`] with a 2x2 grid of variants: {legacy MAC, FQ-MAC} x {round robin,
/// airtime}, from `fifo` and as a scenario file writes them (quoted dotted keys, or
/// nested tables).
fn grid() -> String {
    format!(
        "{SMALL}\n\
         [[variant]]\nname = \"legacy+rr\"\npreset = \"fifo\"\n\n\
         [[variant]]\nname = \"fq_mac+rr\"\npreset = \"fifo\"\nset = {{ \"ap.mac\" = \"fq_mac\" }}\n\n\
         [[variant]]\nname = \"legacy+airtime\"\npreset = \"fifo\"\nset = {{ ap = {{ scheduler = \"airtime\" }} }}\n\n\
         [[variant]]\nname = \"fq_mac+airtime\"\npreset = \"fifo\"\n\
         set = {{ \"ap.mac\" = \"fq_mac\", \"ap.scheduler\" = \"airtime\" }}\n"
    )
}

#[test]
fn a_scenarios_variants_are_compared_by_default_and_label_everything() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "grid.toml", &grid());
    let out = dir.path().join("out");
    let summary = dir.path().join("s.json");
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args(["--no-plots", "-o"])
        .arg(&out)
        .arg("--json")
        .arg(&summary)
        .assert()
        .success();
    let table = stdout(&a);
    for name in ["legacy+rr", "fq_mac+rr", "legacy+airtime", "fq_mac+airtime"] {
        assert!(table.contains(name), "{table}");
    }
    assert!(
        table.contains("fq_mac+airtime: fifo with ap.mac=\"fq_mac\" ap.scheduler=\"airtime\""),
        "the table says what a variant is:\n{table}"
    );
    assert_eq!(
        results_files(&out),
        [
            "small-fq_mac+airtime-seed3.json.gz",
            "small-fq_mac+rr-seed3.json.gz",
            "small-legacy+airtime-seed3.json.gz",
            "small-legacy+rr-seed3.json.gz"
        ]
    );
    let r = results::load(&out.join("small-fq_mac+airtime-seed3.json.gz")).unwrap();
    assert_eq!(r.metadata.variant, "fq_mac+airtime");
    assert_eq!(r.metadata.config, "fifo");
    assert_eq!(r.metadata.ap_config["qdisc"], "pfifo_fast");
    assert_eq!(r.metadata.ap_config["scheduler"], "airtime");
    assert_eq!(r.metadata.ap_config["mac"], "fq_mac");
    let rr = results::load(&out.join("small-legacy+rr-seed3.json.gz")).unwrap();
    assert_eq!(rr.metadata.ap_config["mac"], "legacy");
    assert_eq!(
        rr.metadata.scenario_text, r.metadata.scenario_text,
        "one experiment: the variants' changes are kept apart from the scenario text"
    );
    // FQ-MAC with the airtime scheduler ends the anomaly: the variants really ran
    // differently.
    let share = |r: &results::ResultsFile| r.stations[1].airtime_share;
    assert!(
        share(&rr) > share(&r) + 0.1,
        "{} vs {}",
        share(&rr),
        share(&r)
    );
    let s = json(&summary);
    let configs: Vec<&str> = s["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["config"].as_str().unwrap())
        .collect();
    assert_eq!(configs.len(), 4);
    // `show` of the four files is one comparison again.
    let paths: Vec<_> = results_files(&out).iter().map(|f| out.join(f)).collect();
    let shown = stdout(&airq().arg("show").args(&paths).assert().success());
    assert!(shown.contains("legacy+airtime"), "{shown}");
}

#[test]
fn command_line_variants_and_overrides_name_their_files_apart() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    for target in ["5", "50"] {
        airq()
            .arg("run")
            .arg(&scenario)
            .args(["-q", "--config", "airtime", "--set"])
            .arg(format!("ap.fq_mac.target_ms={target}"))
            .arg("-o")
            .arg(dir.path())
            .assert()
            .success();
    }
    airq()
        .arg("run")
        .arg(&scenario)
        .args([
            "-q",
            "--variant",
            "t1:preset=airtime,ap.fq_mac.target_ms=1",
            "-o",
        ])
        .arg(dir.path())
        .assert()
        .success();
    airq()
        .arg("run")
        .arg(&scenario)
        .args([
            "-q",
            "--config",
            "airtime",
            "--set",
            "station.0.mcs=3",
            "-o",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert_eq!(
        results_files(dir.path()),
        [
            "small-airtime+fq_mac.target_ms=5-seed3.json.gz",
            "small-airtime+fq_mac.target_ms=50-seed3.json.gz",
            "small-airtime+station.0.mcs=3-seed3.json.gz",
            "small-t1-seed3.json.gz"
        ]
    );
    let t5 = results::load(
        &dir.path()
            .join("small-airtime+fq_mac.target_ms=5-seed3.json.gz"),
    );
    assert_eq!(t5.unwrap().metadata.ap_config["fq_mac"]["target_ms"], 5.0);
    let t1 = results::load(&dir.path().join("small-t1-seed3.json.gz")).unwrap();
    assert_eq!(t1.metadata.ap_config["fq_mac"]["target_ms"], 1.0);
    assert_eq!(t1.metadata.variant_set, ["ap.fq_mac.target_ms=1"]);
}

#[test]
fn a_comparison_of_identical_columns_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args([
            "--set",
            "ap.qdisc=fq_codel",
            "--set",
            "ap.scheduler=airtime",
            "-o",
        ])
        .arg(dir.path())
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("`fifo` and `fq_codel` would simulate exactly the same AP and scenario"),
        "{err}"
    );
    assert!(results_files(dir.path()).is_empty(), "nothing ran");
    // A --set that keeps the presets apart labels every column that uses it.
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args(["--configs", "fq_mac,airtime", "--no-plots"])
        .args(["--set", "ap.fq_mac.target_ms=5", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let table = stdout(&a);
    assert!(
        table.contains("fq_mac+fq_mac.target_ms=5")
            && table.contains("airtime+fq_mac.target_ms=5")
            && table.contains("with --set"),
        "{table}"
    );
}

#[test]
fn another_runs_results_are_not_replaced_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let run = |extra: &[&str]| {
        let mut cmd = airq();
        cmd.arg("run")
            .arg(&scenario)
            .args(["-q", "--config", "fifo", "-o"])
            .arg(dir.path())
            .args(extra);
        cmd.assert()
    };
    run(&[]).success();
    let path = dir.path().join("small-fifo-seed3.json.gz");
    let first = results::load(&path).unwrap();
    // The same run again replaces its file.
    run(&[]).success();
    // A different duration is another experiment under the same name: refused, the
    // first file intact.
    let a = run(&["--duration", "0.5"]).failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("already holds another run") && err.contains("1 s vs 0.5 s"),
        "{err}"
    );
    assert_eq!(results::load(&path).unwrap().stations, first.stations);
    run(&["--duration", "0.5", "--force"]).success();
    assert_eq!(results::load(&path).unwrap().metadata.duration_s, 0.5);
}

#[test]
fn outputs_are_checked_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    // A file where the output folder should be.
    let blocked = write(dir.path(), "blocked", "");
    let a = airq()
        .arg("run")
        .arg(&scenario)
        .args(["--duration", "1000", "-o"])
        .arg(&blocked)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("cannot create"), "{err}");
    assert!(
        !err.contains("simulated"),
        "failed before simulating: {err}"
    );
    // --json into a folder.
    let a = airq()
        .arg("run")
        .arg(&scenario)
        .args(["--duration", "1000", "-o"])
        .arg(dir.path().join("out"))
        .arg("--json")
        .arg(dir.path())
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("is a folder"), "{err}");
    // `-` is standard output.
    let a = airq()
        .arg("run")
        .arg(&scenario)
        .args(["-q", "--csv", "-", "-o"])
        .arg(dir.path().join("out"))
        .assert()
        .success();
    assert!(
        stdout(&a).starts_with("scenario,seed,config,station"),
        "{}",
        stdout(&a)
    );
    assert!(!Path::new("-").exists());
}

#[test]
fn variants_that_do_not_fit_the_scenario_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let bad = format!("{SMALL}\n[[variant]]\nname = \"x\"\nset = {{ \"ap.qdisc\" = \"codel\" }}\n");
    let scenario = write(dir.path(), "bad.toml", &bad);
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("variant `x`") && err.contains("ap.qdisc"),
        "{err}"
    );
    let seed = format!("{SMALL}\n[[variant]]\nname = \"x\"\nset = {{ seed = 4 }}\n");
    let scenario = write(dir.path(), "seed.toml", &seed);
    let a = airq().arg("check").arg(&scenario).assert().failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("seed.toml:") && err.contains("not the run"),
        "{err}"
    );
}

#[test]
fn seeds_repeat_every_variant_and_the_table_shows_the_spread() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args([
            "--configs",
            "fifo,airtime",
            "--seeds",
            "3",
            "--seed",
            "10",
            "-o",
        ])
        .arg(dir.path())
        .arg("--json")
        .arg(dir.path().join("s.json"))
        .assert()
        .success();
    let table = stdout(&a);
    // A box per variant of its runs' values over the seeds, beside the first seed's
    // standard plots.
    let boxes = dir
        .path()
        .join("small-fifo,airtime-seeds10-12-repetitions.png");
    assert!(
        table.contains(&format!("plot: {}", boxes.display())),
        "{table}"
    );
    super::assert_png(&boxes);
    // The JSON has every run, and each variant's figures over the seeds.
    let s = json(&dir.path().join("s.json"));
    assert_eq!(s["runs"].as_array().unwrap().len(), 6);
    let rep = &s["repetitions"];
    assert_eq!(rep["seeds"], serde_json::json!([10, 11, 12]));
    assert_eq!(rep["variants"][1]["config"], "airtime");
    let total = &rep["variants"][1]["total_goodput_mbps"];
    assert_eq!(total["n"], 3);
    assert!(total["mean"].as_f64().unwrap() > 1.0 && total["ci95"].as_f64().unwrap() >= 0.0);
    assert!(table.starts_with("small: 3 seeds (10, 11, 12)"), "{table}");
    assert!(table.contains(" ± "), "{table}");
    assert_eq!(results_files(dir.path()).len(), 6);
    // `show` of the six files is the same table again, whatever order they come in.
    let mut paths: Vec<_> = results_files(dir.path())
        .iter()
        .map(|f| dir.path().join(f))
        .collect();
    paths.reverse();
    let shown = stdout(&airq().arg("show").args(&paths).assert().success());
    assert_eq!(
        shown.lines().nth(3),
        table.lines().nth(3),
        "{shown}\nvs\n{table}"
    );
    assert!(shown.starts_with("small: 3 seeds (10, 11, 12)"), "{shown}");
    let csv = stdout(
        &airq()
            .arg("show")
            .args(&paths)
            .args(["--csv", "-"])
            .assert()
            .success(),
    );
    assert_eq!(csv.lines().count(), 1 + 6 * 2, "{csv}");
    // Each seed's run is the run `--seed` alone makes: byte-identical figures.
    let alone = dir.path().join("alone");
    airq()
        .arg("run")
        .arg(&scenario)
        .args(["-q", "--config", "airtime", "--seed", "11", "-o"])
        .arg(&alone)
        .assert()
        .success();
    let a = results::load(&alone.join("small-airtime-seed11.json.gz")).unwrap();
    let b = results::load(&dir.path().join("small-airtime-seed11.json.gz")).unwrap();
    assert_eq!(a.stations, b.stations);
    assert_eq!(a.metadata.scenario_text, b.metadata.scenario_text);
    let e = airq()
        .arg("run")
        .arg(&scenario)
        .args(["--seeds", "0"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&e.get_output().stderr).into_owned();
    assert!(err.contains("--seeds"), "{err}");
}

/// The table of repetitions has the per-flow blocks a comparison of single runs has
/// (flow goodput, VoIP MOS, delay, jitter and loss), each as mean ± CI over the seeds,
/// and the stations' mean delay and drops.
#[test]
fn seeds_table_shows_each_kind_of_flow_over_the_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{SMALL}\n[[traffic]]\ntest = \"voip\"\nstations = [\"slow\"]\n");
    let scenario = write(dir.path(), "voip.toml", &text);
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args(["--configs", "fifo,airtime", "--seeds", "2", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let table = stdout(&a);
    for block in [
        "mean delay, ms",
        "drops",
        "UDP flow goodput, Mbit/s",
        "VoIP MOS",
        "VoIP delay, ms",
        "VoIP jitter, ms",
        "VoIP lost, %",
    ] {
        assert!(table.contains(&format!("\n{block}")), "{block}:\n{table}");
    }
    let mos = table
        .lines()
        .skip_while(|l| !l.starts_with("VoIP MOS"))
        .nth(1)
        .unwrap_or_default();
    assert!(mos.starts_with("  slow voip down EF"), "{table}");
    assert_eq!(mos.matches(" ± ").count(), 2, "{table}");
}

/// Variants with different stations (one sets a count) line up by name: each run's
/// "slow" cell is its own slow station's, the stations only one run has get a blank in
/// the other, and `show` of the two files prints the same table.
#[test]
fn runs_with_different_stations_line_up_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let a = airq()
        .arg("compare")
        .arg(&scenario)
        .args([
            "--variant",
            "one:preset=airtime",
            "--variant",
            "two:preset=airtime,station.fast.count=2",
            "--no-plots",
            "-o",
        ])
        .arg(dir.path())
        .arg("--json")
        .arg(dir.path().join("s.json"))
        .assert()
        .success();
    let table = stdout(&a);
    let s = json(&dir.path().join("s.json"));
    let goodput = |run: usize, name: &str| {
        let stations = s["runs"][run]["stations"].as_array().unwrap();
        let st = stations.iter().find(|st| st["name"] == name).unwrap();
        format!("{:.2}", st["goodput_mbps"].as_f64().unwrap())
    };
    let cells = |label: &str| -> Vec<String> {
        let line = table
            .lines()
            .find(|l| l.starts_with("  ") && l.split_whitespace().next() == Some(label))
            .unwrap_or_else(|| panic!("no row {label}:\n{table}"));
        line[label.len() + 2..]
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert_eq!(
        cells("slow"),
        [goodput(0, "slow"), goodput(1, "slow")],
        "{table}"
    );
    assert_eq!(cells("fast1"), [goodput(1, "fast1")], "{table}");
    assert_eq!(cells("fast"), [goodput(0, "fast")], "{table}");
    let shown = stdout(
        &airq()
            .arg("show")
            .args(results_files(dir.path()).iter().map(|f| dir.path().join(f)))
            .assert()
            .success(),
    );
    assert!(shown.contains("fast2"), "{shown}");
}
