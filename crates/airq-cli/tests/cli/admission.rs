//! Soft admission control (`[ap.admission]`, seed 000 §4.3) through the CLI: a bulk TCP
//! download marked EF is demoted to BE within a second of its start while the VoIP call
//! beside it, also EF, keeps VO and its quality; a well-behaved call is never demoted;
//! bad keys are refused with file, line and key.

use super::{airq, write};
use airq_cli::results::{self, ResultsFile};
use std::path::Path;

/// A phone with an EF call, a laptop whose EF bulk download starts at 1 s, two desktops
/// downloading at BE.
const SCENARIO: &str = r#"name = "admission"
duration = 5.0
omit = 1.0
seed = 1
[bss]
band = "5GHz"
[[station]]
name = "phone"
standard = "ht"
mcs = 7
[[station]]
name = "laptop"
standard = "ht"
mcs = 7
[[station]]
name = "desktop"
count = 2
standard = "ht"
mcs = 7
[[traffic]]
test = "voip"
stations = ["phone"]
[[traffic]]
test = "tcp_download"
stations = ["laptop"]
dscp = 46
start = 1.0
[[traffic]]
test = "tcp_download"
stations = ["desktop"]
[[variant]]
name = "off"
[[variant]]
name = "on"
set = { "ap.admission.enabled" = true }
"#;

fn compare(dir: &Path, text: &str) -> (ResultsFile, ResultsFile) {
    let scenario = write(dir, "admission.toml", text);
    airq()
        .args(["-q", "compare"])
        .arg(&scenario)
        .args(["--no-plots", "-o"])
        .arg(dir)
        .assert()
        .success();
    let load = |v: &str| results::load(&dir.join(format!("admission-{v}-seed1.json.gz"))).unwrap();
    (load("off"), load("on"))
}

fn flow<'a>(r: &'a ResultsFile, station: &str, test: &str) -> (usize, &'a results::FlowSummary) {
    r.flows
        .iter()
        .enumerate()
        .find(|(_, f)| f.station == station && f.test == test)
        .unwrap_or_else(|| panic!("no {test} flow to {station}"))
}

fn mos(r: &ResultsFile) -> f64 {
    r.flows
        .iter()
        .filter_map(|f| f.voip.map(|v| v.mos))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn an_ef_bulk_flow_is_demoted_within_a_second_and_the_call_keeps_vo() {
    let dir = tempfile::tempdir().unwrap();
    let (off, on) = compare(dir.path(), SCENARIO);
    assert!(off.admission.is_none(), "off: no admission in the results");
    assert!(off.metadata.ap_config.get("admission").is_none());
    assert_eq!(on.metadata.ap_config["admission"]["target_ms"], 5.0);
    let a = on.admission.as_ref().expect("on: admission in the results");

    let (bulk, _) = flow(&on, "laptop", "tcp_download");
    let b = a.flows[bulk];
    let at = b.first_demotion_s.expect("the EF bulk flow is demoted");
    assert!(
        (1.0..2.0).contains(&at),
        "demoted at {at} s, started at 1 s"
    );
    assert_eq!((b.demotions, b.promotions), (1, 0), "and stays demoted");
    assert!(b.demoted_packets > 1000, "{b:?}");
    // Nothing else was touched: the call (both legs) and the BE downloads.
    for (i, f) in on.flows.iter().enumerate() {
        if i != bulk {
            assert_eq!(a.flows[i].demoted_packets, 0, "{} {}", f.station, f.test);
        }
    }
    assert_eq!(a.stations[0].demotions, 0, "the phone");
    assert_eq!(a.demoted_packets, b.demoted_packets);

    // The call keeps its quality; the BE downloads get the share the EF flow took.
    assert!(
        mos(&on) > 4.2 && mos(&off) > 4.2,
        "{} {}",
        mos(&on),
        mos(&off)
    );
    let desktops = |r: &ResultsFile| -> f64 {
        r.flows
            .iter()
            .filter(|f| f.station.starts_with("desktop"))
            .map(|f| f.goodput_mbps)
            .sum()
    };
    assert!(
        desktops(&on) > 1.3 * desktops(&off),
        "BE downloads: {} Mbit/s with admission control, {} without",
        desktops(&on),
        desktops(&off)
    );
}

#[test]
fn a_well_behaved_call_is_never_demoted() {
    // The same without the EF bulk flow, the phone downloading at BE too.
    let text = SCENARIO.replace(
        "stations = [\"laptop\"]\ndscp = 46",
        "stations = [\"phone\", \"laptop\"]\ndscp = 0",
    );
    let dir = tempfile::tempdir().unwrap();
    let (_, on) = compare(dir.path(), &text);
    let a = on.admission.as_ref().unwrap();
    assert_eq!((a.demotions, a.demoted_packets), (0, 0), "{a:?}");
    assert!(
        a.priority_packets > 200,
        "the call's packets were judged: {a:?}"
    );
    assert!(mos(&on) > 4.2, "{}", mos(&on));
}

#[test]
fn bad_keys_name_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    for (table, key) in [
        ("[ap.admission]\ntarget_ms = 5.0", "ap.admission.target_ms"),
        (
            "[ap.admission]\nenabled = true\ninterval_ms = -1",
            "ap.admission.interval_ms",
        ),
        (
            "[ap.admission]\nenabled = true\ndemote_to = \"vo\"",
            "demote_to",
        ),
        (
            "[ap.admission]\nenabled = true\nflows = 0",
            "ap.admission.flows",
        ),
        ("[ap.admission]\nenable = true", "enable"),
    ] {
        let text = SCENARIO.replace("[bss]", &format!("{table}\n[bss]"));
        let scenario = write(dir.path(), "bad.toml", &text);
        let out = airq().arg("check").arg(&scenario).assert().failure();
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        // The table starts on line 5; the bad key is its last line.
        let line = 5 + table.lines().count() - 1;
        assert!(err.contains(&format!("bad.toml:{line}")), "{table}: {err}");
        assert!(err.contains(key), "{table}: {err}");
    }
}
