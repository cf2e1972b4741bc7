//! Saturation throughput of a BSS of 802.11b stations built from the stations' standard
//! alone (no `bss.timing`, beacons off), through the CLI as a user runs it, against
//! Bianchi's model (G. Bianchi, "Performance Analysis of the IEEE 802.11 Distributed
//! Coordination Function", IEEE JSAC 18(3), 2000: τ and p from eqs. (7) and (9), S from
//! eq. (13) with the basic-access T_s and T_c of §IV).
//!
//! The BSS must come out with 802.11b timing (Table 16-4: 20 µs slot, 10 µs SIFS; the
//! DSSS column of Table 9-155: AC_BE AIFSN 3, CWmin 31, CWmax 1023), the Ack at 11 Mbit/s
//! after an 11 Mbit/s frame (the highest basic rate not above it, IEEE 802.11-2020
//! 10.6.6.5, with hostapd's 2.4 GHz basic rates), and after a collision the deferral
//! EIFS − DIFS + AIFS, EIFS holding the Ack at 1 Mbit/s (10.3.2.3.7):
//!
//!   T_s = PPDU + SIFS + Ack(11 Mbit/s) + AIFS\[BE\],
//!   T_c = PPDU + EIFS − DIFS + AIFS\[BE\].

use super::{airq, write};
use airq::phy::{Band, DsssDataRate, DsssPreamble, Rate};
use airq::Duration;
use airq_sim::mac::frame::MPDU_OVERHEAD_BYTES;
use airq_sim::mac::timing::{ack_duration, MacTiming};

const IP_BYTES: u32 = 1500;
const SECONDS: u64 = 30;

/// τ for `n` stations, window `w` = CWmin + 1, `m` doubling stages (eqs. 7 and 9, eq. 7
/// divided through by 1 − 2p), by bisection on p.
fn tau(n: u32, w: f64, m: i32) -> f64 {
    let tau_of_p = |p: f64| {
        let stages: f64 = (0..m).map(|i| (2.0 * p).powi(i)).sum();
        2.0 / (w + 1.0 + p * w * stages)
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let p = 0.5 * (lo + hi);
        if p - (1.0 - (1.0 - tau_of_p(p)).powi(n as i32 - 1)) > 0.0 {
            hi = p;
        } else {
            lo = p;
        }
    }
    tau_of_p(0.5 * (lo + hi))
}

/// Bianchi's S (bit/s of IP packets) for `n` saturated 11 Mbit/s 802.11b stations.
fn model(n: u32) -> f64 {
    let t = MacTiming::DSSS;
    let secs = |d: Duration| d.as_nanos() as f64 * 1e-9;
    let long = |r| Rate::dsss(r, DsssPreamble::Long).unwrap();
    let data = long(DsssDataRate::Mbps11);
    let ppdu = data.ppdu_duration(IP_BYTES + MPDU_OVERHEAD_BYTES, Band::Ghz2_4);
    let ack = ack_duration(&data, Band::Ghz2_4);
    let eifs = t.eifs(ack_duration(&long(DsssDataRate::Mbps1), Band::Ghz2_4));
    let aifs = t.aifs(3);
    let ts = secs(ppdu + t.sifs_time + ack + aifs);
    let tc = secs(ppdu + eifs - t.difs() + aifs);
    let tau = tau(n, 32.0, 5);
    let p_tr = 1.0 - (1.0 - tau).powi(n as i32);
    let p_s = f64::from(n) * tau * (1.0 - tau).powi(n as i32 - 1) / p_tr;
    let slot = secs(t.slot_time);
    p_s * p_tr * f64::from(IP_BYTES * 8)
        / ((1.0 - p_tr) * slot + p_tr * p_s * ts + p_tr * (1.0 - p_s) * tc)
}

fn simulate(dir: &std::path::Path, n: u32) -> (f64, String) {
    let text = format!(
        "name = \"b{n}\"\nduration = {SECONDS}.0\nseed = 1\n[bss]\nband = \"2.4GHz\"\n\
         beacons = false\n[ap]\npreset = \"fifo\"\n[[station]]\nname = \"b\"\ncount = {n}\n\
         standard = \"dsss\"\nrate_mbps = 11.0\n[[traffic]]\ntest = \"udp_flood_up\"\n"
    );
    let scenario = write(dir, &format!("b{n}.toml"), &text);
    let out = airq()
        .arg("run")
        .arg(&scenario)
        .arg("-o")
        .arg(dir)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let file = dir.join(format!("b{n}-fifo-seed1.json.gz"));
    let r = super::results_json(&file);
    assert_eq!(
        r["metadata"]["bss_timing"]
            .as_str()
            .map(|s| s.starts_with("dsss")),
        Some(true),
        "{}",
        r["metadata"]
    );
    let bytes: u64 = r["stations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rx_bytes_up"].as_u64().unwrap())
        .sum();
    (bytes as f64 * 8.0 / SECONDS as f64, stdout)
}

#[test]
fn an_80211b_bss_from_its_stations_matches_bianchi() {
    let dir = tempfile::tempdir().unwrap();
    let mut report = String::new();
    let mut worst: f64 = 0.0;
    for n in [5u32, 10, 20] {
        let (sim, stdout) = simulate(dir.path(), n);
        assert!(stdout.contains("bss timing: dsss (derived"), "{stdout}");
        let model = model(n);
        let err = (sim - model) / model;
        worst = worst.max(err.abs());
        report += &format!(
            "n={n:>2}: sim {:.3} Mbit/s, model {:.3} Mbit/s, {:+.2}%\n",
            sim / 1e6,
            model / 1e6,
            err * 100.0
        );
    }
    println!("{report}");
    assert!(worst < 0.03, "worst {:.2}%\n{report}", worst * 100.0);
}
