//! The radio in the results (issue 13): a Minstrel-HT station behind an attenuator has
//! its mean SNR per direction (the link budget: transmit power − attenuation − noise
//! floor) and its MPDUs' shares per rate (summing to 1) in the results file, the run
//! table shows them, and a results file without them (older) still loads.

use super::{airq, stdout, write};
use airq_cli::results;
use std::io::{Read, Write};
use std::path::Path;

/// One HT MCS 7 station with Minstrel-HT 80 dB from the AP, TCP download and ping.
const SCENARIO: &str = r#"name = "radio"
duration = 3.0
omit = 1.0
seed = 2
[bss]
band = "5GHz"
[[station]]
name = "sta"
standard = "ht"
mcs = 7
width = 20
gi = "long"
attenuation_db = 80.0
rate_control = "minstrel_ht"
[[traffic]]
test = "tcp_download"
[[traffic]]
test = "ping"
interval_ms = 100
"#;

/// The one results file `airq run` wrote into `dir`.
fn results_file(dir: &Path) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".json.gz"))
        .expect("a results file")
}

#[test]
fn snr_and_rate_shares_are_in_the_results_and_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "radio.toml", SCENARIO);
    let out = stdout(
        &airq()
            .arg("run")
            .arg(&path)
            .arg("-o")
            .arg(dir.path())
            .assert()
            .success(),
    );
    let file = results_file(dir.path());
    let r = results::load(&file).unwrap();
    let s = &r.stations[0];
    assert_eq!(s.rate_control.as_deref(), Some("minstrel_ht"));
    // Noise floor of 20 MHz: -174 dBm/Hz + 10 log10(20e6) + 7 dB noise figure.
    let noise = -174.0 + 10.0 * 20e6f64.log10() + 7.0;
    for (radio, tx_dbm) in [(&s.radio_down, 20.0), (&s.radio_up, 15.0)] {
        let radio = radio.as_ref().expect("radio summary");
        let snr = radio.mean_snr_db.expect("an SNR with a channel");
        let expected = tx_dbm - 80.0 - noise;
        assert!((snr - expected).abs() < 1.0, "{snr} vs {expected}");
        let sum: f64 = radio.rates.iter().map(|r| r.share).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        let mpdus: u64 = radio.rates.iter().map(|r| r.mpdus).sum();
        assert_eq!(mpdus, radio.mpdus);
        assert!(radio.mpdus > 0);
        assert!(radio.rates.windows(2).all(|w| w[0].mpdus >= w[1].mpdus));
        assert!(radio.rates.iter().all(|r| r.rate.starts_with("HT MCS")));
    }
    // The download's direction: rate control's most used rate in the table.
    let top = &s.radio_down.as_ref().unwrap().rates[0];
    let short = top.rate.split_whitespace().take(3).collect::<Vec<_>>()[1..].join(" ");
    assert!(
        out.contains(&format!("Minstrel-HT down: {short} ")),
        "{short}: {out}"
    );
    assert!(out.contains("SNR dn/up dB"), "{out}");
    airq()
        .arg("show")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains("Minstrel-HT down: "));

    // A file written before these fields existed loads, without them.
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    for s in json["stations"].as_array_mut().unwrap() {
        let s = s.as_object_mut().unwrap();
        for k in ["rate_control", "radio_down", "radio_up"] {
            assert!(s.remove(k).is_some(), "{k}");
        }
    }
    let old_file = dir.path().join("old.json.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&old_file).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(json.to_string().as_bytes()).unwrap();
    gz.finish().unwrap();
    let old = results::load(&old_file).unwrap();
    assert_eq!(old.stations[0].radio_down, None);
    assert_eq!(old.stations[0].rate_control, None);
    airq()
        .arg("show")
        .arg(&old_file)
        .assert()
        .success()
        .stdout(predicates::str::contains("HT MCS 7 20 MHz LGI"));
}

#[test]
fn a_fixed_rate_without_a_channel_writes_no_radio_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", super::SMALL);
    airq()
        .args(["-q", "run"])
        .arg(&path)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(results_file(dir.path())).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    for k in ["rate_control", "radio_down", "radio_up", "retry_time_limit"] {
        assert!(!text.contains(k), "{k}");
    }
}

#[test]
fn the_comparison_shows_the_most_used_rate_and_the_snr_only_when_there_is_a_radio() {
    let dir = tempfile::tempdir().unwrap();
    let compare = |name: &str, text: &str| {
        let path = write(dir.path(), name, text);
        stdout(
            &airq()
                .arg("compare")
                .arg(&path)
                .args(["--configs", "fq_mac,airtime", "--no-plots", "-o"])
                .arg(dir.path().join(name.replace(".toml", "")))
                .assert()
                .success(),
        )
    };
    let out = compare("radio.toml", SCENARIO);
    assert!(
        out.contains("most used rate") && out.contains(" down "),
        "{out}"
    );
    assert!(out.contains("SNR down/up, dB"), "{out}");
    let plain = compare("small.toml", super::SMALL);
    assert!(
        !plain.contains("most used rate") && !plain.contains("SNR"),
        "{plain}"
    );
}
