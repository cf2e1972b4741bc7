//! The channel model's keys ([bss] path_loss, noise_figure_db, ap_tx_power_dbm,
//! frequency_mhz;
//! [[station]] distance_m, walls, attenuation_db, attenuation_change, tx_power_dbm):
//! accepted when sound, refused with the file, line and key when not, and a station
//! behind too much attenuation gets nothing through.

use super::{airq, json, write, SMALL};
use predicates::str::contains;

/// `airq check` of `text` fails with each of `expected` in its message.
fn refused(text: &str, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bad.toml", text);
    let mut assert = airq().arg("check").arg(&path).assert().failure();
    for e in expected {
        assert = assert.stderr(contains(*e));
    }
}

/// [`SMALL`] with `fast` given `fast_keys` and `slow` given `slow_keys`.
fn with(fast_keys: &str, slow_keys: &str) -> String {
    SMALL
        .replace("mcs = 7\n", &format!("mcs = 7\n{fast_keys}\n"))
        .replace("mcs = 0\n", &format!("mcs = 0\n{slow_keys}\n"))
}

#[test]
fn sound_channel_keys_are_accepted() {
    let text = with(
        "distance_m = 12.0\nwalls = 2\ntx_power_dbm = 18",
        "attenuation_db = [[0, 40.0], [0.5, 70]]\nattenuation_change = \"ramp\"",
    )
    .replace(
        "seed = 3\n",
        "seed = 3\n[bss]\npath_loss = \"tgax_enterprise\"\nnoise_figure_db = 5\nap_tx_power_dbm = 23.0\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "good.toml", &text);
    airq().arg("check").arg(&path).assert().success();
    let path = write(dir.path(), "step.toml", &with("attenuation_db = 30", ""));
    airq().arg("check").arg(&path).assert().success();
}

#[test]
fn bad_channel_values_are_refused_with_their_line() {
    refused(
        &with("attenuation_db = -3", ""),
        &[
            "bad.toml:9:1",
            "station.0.attenuation_db",
            "must be 0 to 250 dB",
        ],
    );
    refused(
        &with("attenuation_db = [[0, 40], [0, 50]]", ""),
        &["bad.toml:9:1", "point 2: the times must increase"],
    );
    refused(
        &with("attenuation_db = []", ""),
        &["station.0.attenuation_db", "an empty schedule"],
    );
    refused(
        &with("attenuation_db = \"far\"", ""),
        &[
            "station.0.attenuation_db",
            "a number of dB or an array of [time_s, dB] pairs",
        ],
    );
    refused(
        &with("attenuation_db = [[0, 40, 1]]", ""),
        &["station.0.attenuation_db"],
    );
    refused(
        &with("attenuation_db = 40\nattenuation_change = \"ramp\"", ""),
        &[
            "station.0.attenuation_change",
            "applies to an attenuation schedule",
        ],
    );
    refused(
        &with("attenuation_change = \"slide\"", ""),
        &["station.0.attenuation_change", "unknown value `slide`"],
    );
    refused(
        &with("distance_m = 0", ""),
        &["bad.toml:9:1", "station.0.distance_m", "must be above 0"],
    );
    refused(
        &with("walls = 2", ""),
        &["station.0.walls", "needs the channel model"],
    );
    refused(
        &with("attenuation_db = 50\nwalls = 2", ""),
        &["station.0.walls", "give distance_m"],
    );
    refused(
        &with("", "tx_power_dbm = 15"),
        &["station.1.tx_power_dbm", "needs the channel model"],
    );
    refused(
        &with("distance_m = 5\ntx_power_dbm = 60", ""),
        &["station.0.tx_power_dbm", "must be -30 to 40 dBm"],
    );
    refused(
        &with("distance_m = 5\nframe_error_rate = 0.1", ""),
        &["station.0.frame_error_rate", "give one or the other"],
    );
    let bss = |keys: &str| SMALL.replace("seed = 3\n", &format!("seed = 3\n[bss]\n{keys}\n"));
    refused(
        &bss("noise_figure_db = -1"),
        &["bad.toml:5:1", "bss.noise_figure_db", "must be 0 to 30 dB"],
    );
    refused(
        &bss("ap_tx_power_dbm = 100"),
        &["bss.ap_tx_power_dbm", "must be -30 to 40 dBm"],
    );
    refused(
        &bss("frequency_mhz = 2412"),
        &[
            "bad.toml:5:1",
            "bss.frequency_mhz",
            "2412 MHz is not a 20 MHz channel's centre in the 5GHz band",
        ],
    );
    refused(
        &bss("band = \"2.4GHz\"\nfrequency_mhz = 2414"),
        &["bad.toml:6:1", "bss.frequency_mhz", "in the 2.4GHz band"],
    );
    refused(
        &bss("path_loss = \"free_space\""),
        &[
            "bss.path_loss",
            "unknown value `free_space`",
            "tgax_residential",
        ],
    );
}

#[test]
fn a_station_out_of_range_gets_nothing_through() {
    // fast (HT MCS 7) 60 dB from the AP is as good as without a channel; slow (MCS 0)
    // behind 150 dB hears nothing.
    let text = with("attenuation_db = 60", "attenuation_db = 150");
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "range.toml", &text);
    airq()
        .arg("run")
        .arg(&path)
        .arg("-o")
        .arg(dir.path())
        .arg("--json")
        .arg(dir.path().join("s.json"))
        .assert()
        .success();
    let summary = json(&dir.path().join("s.json"));
    let text = summary.to_string();
    let goodput = |station: &str| -> f64 {
        let stations = summary
            .pointer("/runs/0/stations")
            .or_else(|| summary.pointer("/stations"))
            .and_then(|s| s.as_array())
            .unwrap_or_else(|| panic!("no stations in {text}"));
        let s = stations
            .iter()
            .find(|s| s["name"] == station)
            .unwrap_or_else(|| panic!("no {station} in {text}"));
        s["goodput_mbps"].as_f64().unwrap_or_else(|| panic!("{s}"))
    };
    assert!(goodput("fast") > 10.0, "{text}");
    assert_eq!(goodput("slow"), 0.0, "{text}");
}
