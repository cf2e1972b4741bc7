//! Every scenario in `scenarios/` parses and runs briefly.

use super::{airq, scenarios_dir};

#[test]
fn every_scenario_parses_and_runs_briefly() {
    let mut files: Vec<_> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    let out = tempfile::tempdir().unwrap();
    for file in &files {
        let check = airq().arg("check").arg(file).assert().success();
        let stdout = String::from_utf8(check.get_output().stdout.clone()).unwrap();
        assert!(
            stdout.trim_end().ends_with(": ok; runs") || stdout.contains("; runs"),
            "{stdout}"
        );
        // One second, or past the latest start of its traffic (near-far starts its
        // download at 5 s).
        let text = std::fs::read_to_string(file).unwrap();
        let scenario: toml::Table = toml::from_str(&text).unwrap();
        let latest_start = scenario
            .get("traffic")
            .and_then(|t| t.as_array())
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("start").and_then(|s| s.as_float()))
            .fold(0.0_f64, f64::max);
        let duration = format!("{}", (latest_start + 1.0).max(1.0));
        airq()
            .args(["-q", "run"])
            .arg(file)
            .args(["--duration", &duration, "--omit", "0", "--seeds", "1", "-o"])
            .arg(out.path())
            .assert()
            .success();
    }
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), files.len());
}

#[test]
fn list_names_scenarios_configs_and_tests() {
    let listed = |what: &str| {
        let a = airq()
            .args(["list", what, "--dir"])
            .arg(scenarios_dir())
            .assert()
            .success();
        String::from_utf8(a.get_output().stdout.clone()).unwrap()
    };
    let scenarios = listed("scenarios");
    assert!(scenarios.contains("udp-flood-anomaly.toml"), "{scenarios}");
    assert!(scenarios.contains("seed 000 Fig. 3"), "{scenarios}");
    let configs = listed("configs");
    for preset in airq_sim::ap::PRESET_NAMES {
        assert!(configs.lines().any(|l| l.starts_with(preset)), "{configs}");
    }
    let tests = listed("tests");
    assert!(tests.contains("tcp_download"), "{tests}");
    assert!(tests.contains("with `to`, from each station"), "{tests}");
}

/// The bundled scenarios run by name from any folder, as an installed binary would.
#[test]
fn bundled_scenarios_run_by_name_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let a = airq()
        .current_dir(dir.path())
        .args(["list", "scenarios"])
        .assert()
        .success();
    let listed = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    assert!(
        listed.lines().any(|l| l.starts_with("ending-the-anomaly ")),
        "{listed}"
    );
    airq()
        .current_dir(dir.path())
        .args([
            "run",
            "udp-flood-anomaly",
            "--duration",
            "0.5",
            "-q",
            "-o",
            "out",
        ])
        .assert()
        .success();
    assert!(dir
        .path()
        .join("out/udp-flood-anomaly-airtime-seed1.json.gz")
        .exists());
    let a = airq()
        .current_dir(dir.path())
        .args(["run", "no-such-scenario"])
        .assert()
        .failure();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("no bundled scenario has that name: ") && err.contains("ending-the-anomaly"),
        "{err}"
    );
}
