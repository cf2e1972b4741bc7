//! `--omit` (a warm-up left out of every summary), and runs whose figures describe no
//! traffic at all: flagged loudly, never a silent Jain's index of 1.

use super::{airq, stdout, write, PING};
use airq_cli::results;

#[test]
fn a_warm_up_is_left_out_of_the_summaries_but_not_the_series() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "ping.toml", PING);
    let run = |extra: &[&str]| {
        let a = airq()
            .arg("run")
            .arg(&scenario)
            .args(["--config", "fifo", "-o"])
            .arg(dir.path())
            .args(extra)
            .assert()
            .success();
        stdout(&a)
    };
    run(&[]);
    let table = run(&["--omit", "1"]);
    assert!(
        table.contains("figures from 1 s to 2 s: the first 1 s (warm-up) left out"),
        "{table}"
    );
    let whole = results::load(&dir.path().join("ping-small-fifo-seed3.json.gz")).unwrap();
    let late = results::load(&dir.path().join("ping-small-fifo+omit=1.0-seed3.json.gz")).unwrap();
    assert_eq!((whole.metadata.omit_s, late.metadata.omit_s), (0.0, 1.0));
    assert_eq!(whole.series, late.series, "the series cover the whole run");
    // Pings every 100 ms: 20 in the run, 10 in its second half.
    let sent = |r: &results::ResultsFile| -> u64 {
        r.flows.iter().filter_map(|f| f.pings_sent).sum::<u64>()
    };
    assert!(
        sent(&whole) >= 2 * sent(&late) - 2,
        "{} {}",
        sent(&whole),
        sent(&late)
    );
    // The second half's goodput, from the cumulative series: bytes after 1 s over 1 s.
    let t = &whole.series.t_s;
    let i1 = t.iter().position(|&x| (x - 1.0).abs() < 1e-9).unwrap();
    let last = t.len() - 1;
    for (i, s) in late.stations.iter().enumerate() {
        let bytes = whole.series.rx_bytes[last][i] - whole.series.rx_bytes[i1][i];
        assert_eq!(s.rx_bytes_down + s.rx_bytes_up, bytes, "{}", s.name);
    }
    for (bad, why) in [
        ("2", "must end before the run"),
        ("-1", "must be 0 s (no warm-up) to 1e7 s, got -1"),
    ] {
        let a = airq()
            .arg("run")
            .arg(&scenario)
            .args(["--omit", bad])
            .assert()
            .failure();
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains("omit") && err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn a_run_that_delivers_nothing_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    // Pings that stop before the warm-up ends (a flood would still drain its queue).
    let text = PING
        .replace("[[traffic]]\ntest = \"udp_flood\"\n\n", "")
        .replace("test = \"ping\"", "test = \"ping\"\nstop = 0.5");
    assert!(!text.contains("udp_flood"));
    let scenario = write(dir.path(), "early.toml", &text);
    let a = airq()
        .arg("run")
        .arg(&scenario)
        .args(["--omit", "1", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "WARNING: ping-small under airtime with omit=1.0 (seed 3): nothing was delivered"
        ) && !err.contains("packets reached the stations"),
        "{err}"
    );
    let table = stdout(&a);
    assert!(
        table.contains("Jain's index of airtime shares n/a (nothing delivered)"),
        "{table}"
    );
    assert!(!table.contains("1.000"), "{table}");
}

#[test]
fn a_link_that_works_one_way_only_delivers_nothing() {
    // The AP's pings reach the station; its replies, sent at -30 dBm, never arrive.
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        dir.path(),
        "oneway.toml",
        "name = \"oneway\"\nduration = 2.0\nseed = 3\n\n[[station]]\nname = \"sta\"\n\
         standard = \"ht\"\nmcs = 0\nattenuation_db = 80.0\ntx_power_dbm = -30.0\n\n\
         [[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n",
    );
    let a = airq()
        .arg("run")
        .arg(&scenario)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("nothing was delivered end to end")
            && err.contains("20 packets reached the stations and 0 came from them"),
        "{err}"
    );
    let table = stdout(&a);
    assert!(table.contains("n/a (nothing delivered)"), "{table}");
}
