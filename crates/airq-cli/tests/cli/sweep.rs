//! `airq sweep`: a grid of parameter values x variants x seeds, run as a user would.

use super::{airq, assert_png, stdout, write, SMALL};
use airq_cli::results;

#[test]
fn a_sweep_writes_every_run_and_tidy_tables_with_confidence_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let a = airq()
        .arg("sweep")
        .arg(&scenario)
        .args(["--param", "ap.fq_mac.target_ms=2,5,20"])
        .args(["--configs", "fq_mac,airtime", "--seeds", "3", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let out = stdout(&a);
    assert!(
        out.starts_with("small: sweep of ap.fq_mac.target_ms (3 points x 2 variants x 3 seeds)"),
        "{out}"
    );
    assert!(
        out.contains("ap.fq_mac.target_ms=20") && out.contains(" ± "),
        "{out}"
    );
    let results: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json.gz"))
        .collect();
    assert_eq!(results.len(), 18, "{results:?}");
    // Each run's file says which point it was.
    let r = results::load(
        &dir.path()
            .join("small-airtime+fq_mac.target_ms=5-seed4.json.gz"),
    )
    .unwrap();
    assert_eq!(r.metadata.ap_config["fq_mac"]["target_ms"], 5.0);
    assert_eq!(r.metadata.seed, 4);

    let tidy =
        std::fs::read_to_string(dir.path().join("small-sweep-ap.fq_mac.target_ms.csv")).unwrap();
    let mut lines = tidy.lines();
    assert_eq!(
        lines.next().unwrap(),
        "scenario,variant,preset,ap.fq_mac.target_ms,seed,duration_s,station,metric,value"
    );
    // Per run: total goodput, Jain, and four figures per station (no ping here).
    assert_eq!(lines.count(), 18 * (2 + 2 * 4));
    assert!(tidy.contains("small,airtime,airtime,5,4,1,slow,goodput_mbps,"));
    assert!(tidy.contains("small,airtime,airtime,5,4,1,slow,mean_delay_ms,"));

    let means =
        std::fs::read_to_string(dir.path().join("small-sweep-ap.fq_mac.target_ms-means.csv"))
            .unwrap();
    let header = means.lines().next().unwrap();
    assert_eq!(
        header,
        "scenario,variant,preset,ap.fq_mac.target_ms,station,metric,seeds,n,mean,ci95,seeds_lost"
    );
    let row = means
        .lines()
        .find(|l| l.starts_with("small,airtime,airtime,20,*,airtime_jain,3,3,"))
        .unwrap_or_else(|| panic!("{means}"));
    let cols: Vec<&str> = row.split(',').collect();
    let (mean, ci): (f64, f64) = (cols[8].parse().unwrap(), cols[9].parse().unwrap());
    assert!(mean > 0.9 && mean <= 1.0 && ci >= 0.0, "{row}");
    // Each figure against the parameter; no ping in the scenario: no ping figure.
    for metric in ["total_goodput_mbps", "airtime_jain"] {
        let png = dir
            .path()
            .join(format!("small-sweep-ap.fq_mac.target_ms-{metric}.png"));
        assert!(out.contains(&format!("plot: {}", png.display())), "{out}");
        assert_png(&png);
    }
    assert!(!out.contains("worst_ping_p99_ms"), "{out}");
}

/// A sweep over a station's key: every point has the same variant label, so the
/// `--csv` rows and the `--json` runs say which point each is (its overrides) rather
/// than reading as repetitions of one run.
#[test]
fn a_sweep_over_a_station_key_labels_each_points_rows() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let (csv, json) = (dir.path().join("s.csv"), dir.path().join("s.json"));
    airq()
        .arg("sweep")
        .arg(&scenario)
        .args([
            "--param",
            "station.slow.mcs=0,3",
            "--configs",
            "fifo",
            "--no-plots",
        ])
        .args(["-q", "--csv"])
        .arg(&csv)
        .arg("--json")
        .arg(&json)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(csv).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (row, mcs) in rows.iter().zip([0, 0, 3, 3]) {
        assert!(row.starts_with("small,3,fifo,"), "{csv}");
        assert!(row.ends_with(&format!(",station.slow.mcs={mcs}")), "{csv}");
    }
    let flows = std::fs::read_to_string(dir.path().join("s.flows.csv")).unwrap();
    assert!(
        flows.lines().next().unwrap().ends_with(",overrides"),
        "{flows}"
    );
    assert!(flows.contains(",station.slow.mcs=3\n"), "{flows}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let points: Vec<String> = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{} {} {}", r["config"], r["overrides"], r["duration_s"]))
        .collect();
    assert_eq!(
        points,
        [
            r#""fifo" ["station.slow.mcs=0"] 1.0"#,
            r#""fifo" ["station.slow.mcs=3"] 1.0"#
        ],
        "{json}"
    );
}

#[test]
fn bad_sweeps_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let fails = |args: &[&str]| {
        let a = airq()
            .arg("sweep")
            .arg(&scenario)
            .args(args)
            .arg("-o")
            .arg(dir.path())
            .assert()
            .failure();
        String::from_utf8_lossy(&a.get_output().stderr).into_owned()
    };
    let e = fails(&[
        "--configs",
        "airtime",
        "--param",
        "ap.fq_mac.target_ms=20,100",
    ]);
    assert!(
        e.contains("the sweep's point ap.fq_mac.target_ms=100")
            && e.contains("must be below the interval"),
        "{e}"
    );
    let e = fails(&["--param", "seed=1,2"]);
    assert!(e.contains("--seeds"), "{e}");
    let e = fails(&["--param", "duration=1,2"]);
    assert!(e.contains("the duration is not a parameter"), "{e}");
    let e = fails(&["--param", "a=1", "--set", "a=2"]);
    assert!(e.contains("cannot also be set"), "{e}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "nothing ran"
    );
}

#[test]
fn a_point_that_delivers_nothing_has_no_fairness_index_and_its_warning_names_it() {
    // The slow station's uplink at -30 dBm reaches nothing at 80 dB; at 0 dB it does.
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"oneway\"\nduration = 1.0\nseed = 3\n\n[[station]]\nname = \"sta\"\n\
                standard = \"ht\"\nmcs = 0\nattenuation_db = 0.0\ntx_power_dbm = -30.0\n\n\
                [[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n";
    let scenario = write(dir.path(), "oneway.toml", text);
    let a = airq()
        .arg("sweep")
        .arg(&scenario)
        .args(["--param", "station.sta.attenuation_db=0,80"])
        .args(["--configs", "airtime", "--no-plots", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("oneway under airtime with station.sta.attenuation_db=80 (seed 3)")
            && !err.contains("attenuation_db=0 "),
        "{err}"
    );
    let table = stdout(&a);
    let jain_rows: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("Jain's index"))
        .collect();
    assert!(
        jain_rows
            .iter()
            .any(|l| l.starts_with("station.sta.attenuation_db=0 ") && l.ends_with("1.000"))
            && jain_rows
                .iter()
                .any(|l| l.starts_with("station.sta.attenuation_db=80") && l.ends_with("n/a"))
            && table.contains("n/a: no run of the point delivered a packet"),
        "{table}"
    );
}

/// A sweep over a station's standard changes the AP's FQ-MAC memory too (4 MiB without
/// a VHT station, 16 with one): the sweep says so, naming each point. A sweep of the
/// limit itself asked for that difference and says nothing of it.
#[test]
fn a_sweep_names_settings_its_points_change_beside_the_swept_key() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    let sweep = |param: &str| {
        let a = airq()
            .arg("sweep")
            .arg(&scenario)
            .args(["--param", param, "--configs", "airtime", "--no-plots", "-o"])
            .arg(dir.path())
            .assert()
            .success();
        stdout(&a).split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let out = sweep("station.fast.standard=\"ht\",\"vht\"");
    assert!(
        out.contains(
            "note: FQ-MAC's memory limit differs between the runs (bytes; 4 MiB when no station \
             has a VHT or HE rate): airtime station.fast.standard=\"ht\" 4194304, airtime \
             station.fast.standard=\"vht\" 16777216"
        ),
        "{out}"
    );
    let out = sweep("ap.fq_mac.memory_limit_bytes=4194304,16777216");
    assert!(!out.contains("note:"), "{out}");
}
