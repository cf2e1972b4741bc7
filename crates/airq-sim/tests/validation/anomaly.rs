//! The performance anomaly (M. Heusse, F. Rousseau, G. Berger-Sabbatel, A. Duda,
//! "Performance Anomaly of 802.11b", IEEE INFOCOM 2003): one station at 1 Mbit/s among
//! N − 1 at 11 Mbit/s, all saturated uplink, all get the same throughput — the rate of
//! the slow one drags everyone down. Nothing in the simulator codes this; it falls out
//! of DCF giving every station the same chance to transmit.
//!
//! The expected throughput is computed in the test with Bianchi's model (see
//! `bianchi.rs`) extended to stations of different rates: every station has the same
//! attempt probability τ, so the same chance τ(1−τ)^(N−1) of a successful transmission
//! per slot, and the mean slot length weighs each outcome by its duration — a success of
//! the slow or of a fast station, a collision that involves the slow station (it lasts as
//! long as the slow frame) or only fast ones. Each station gets
//!
//!   X = τ(1−τ)^(N−1) · L / E\[slot\]
//!
//! — the same for all, Heusse's observation. (Heusse et al.'s own closed form, with a
//! fixed collision probability 1 − (1 − 1/CWmin)^(N−1), was not available to check
//! against here; this model uses the same timings as the simulator.)

use crate::bianchi::bianchi_tau;
use crate::saturated::uplink_throughputs;
use airq::phy::{ack_duration, DsssDataRate, DsssPreamble, Rate};
use airq::Duration;
use airq_sim::edca::EdcaParams;
use airq_sim::frame::MPDU_OVERHEAD_BYTES;
use airq_sim::link::{BssConfig, StationLink};

const PACKET_BYTES: u32 = 1500;
const CW_MIN: u16 = 31;

fn bss() -> BssConfig {
    let mut bss = BssConfig::dsss();
    bss.edca = EdcaParams::dcf(CW_MIN, 1023);
    bss.beacon_interval = None;
    bss
}

fn rate(r: DsssDataRate) -> Rate {
    Rate::dsss(r, DsssPreamble::Long).unwrap()
}

/// Per-station throughput (bit/s of IP packets) of one 1 Mbit/s and `n − 1` 11 Mbit/s
/// stations, all saturated.
fn model(n: u32) -> f64 {
    let bss = bss();
    let t = bss.timing;
    let secs = |d: Duration| d.as_nanos() as f64 * 1e-9;
    let tau = bianchi_tau(n, f64::from(CW_MIN + 1), 5);
    let ack = ack_duration(&bss.control_rate, bss.band);
    let eifs = t.eifs(ack_duration(&bss.beacon_rate, bss.band));
    let mpdu = PACKET_BYTES + MPDU_OVERHEAD_BYTES;
    let ppdu = |r| rate(r).ppdu_duration(mpdu, bss.band);
    let success = |r| secs(ppdu(r) + t.sifs_time + ack + t.difs());
    let collision = |r| secs(ppdu(r) + eifs);
    let (slow, fast) = (DsssDataRate::Mbps1, DsssDataRate::Mbps11);
    let idle = (1.0 - tau).powi(n as i32);
    let one = tau * (1.0 - tau).powi(n as i32 - 1);
    let busy = 1.0 - idle;
    let with_slow = tau * (1.0 - (1.0 - tau).powi(n as i32 - 1));
    let fast_only = busy - f64::from(n) * one - with_slow;
    let slot = idle * secs(t.slot_time)
        + one * success(slow)
        + f64::from(n - 1) * one * success(fast)
        + with_slow * collision(slow)
        + fast_only * collision(fast);
    one * f64::from(PACKET_BYTES * 8) / slot
}

fn simulate(n: u16, seconds: u64) -> Vec<f64> {
    let mut stations = vec![StationLink::new(rate(DsssDataRate::Mbps11)); n as usize];
    stations[0] = StationLink::new(rate(DsssDataRate::Mbps1));
    uplink_throughputs(bss(), stations, PACKET_BYTES, seconds)
}

#[test]
fn slow_station_drags_everyone_to_the_same_throughput() {
    let mut report = String::new();
    let mut worst: f64 = 0.0;
    for n in [2u16, 3, 5, 8] {
        let x = simulate(n, 1000);
        let model = model(u32::from(n));
        for (i, xi) in x.iter().enumerate() {
            let err = (xi - model) / model;
            assert!(err.is_finite());
            worst = worst.max(err.abs());
            report += &format!(
                "n={n} station {i} ({}): {:.3} Mbit/s, model {:.3} Mbit/s, {:+.2}%\n",
                if i == 0 { "1 Mbit/s" } else { "11 Mbit/s" },
                xi / 1e6,
                model / 1e6,
                err * 100.0
            );
        }
    }
    println!("{report}");
    assert!(worst < 0.05, "worst {:.2}%\n{report}", worst * 100.0);
}
