//! Saturation throughput of the DCF against Bianchi's model (G. Bianchi, "Performance
//! Analysis of the IEEE 802.11 Distributed Coordination Function", IEEE JSAC 18(3),
//! 2000): equations (7) and (9) for τ and p, solved by bisection, and the throughput of
//! equation (13) with the basic-access T_s and T_c of §IV, computed with the timings the
//! simulator uses: T_s = PPDU + SIFS + Ack + DIFS; T_c = PPDU + EIFS (the bystanders'
//! EIFS, which the colliders' Ack timeout matches in the model).

use crate::saturated::uplink_throughputs;
use airq::phy::{DsssDataRate, DsssPreamble, Rate};
use airq::Duration;
use airq_sim::mac::edca::EdcaParams;
use airq_sim::mac::frame::MPDU_OVERHEAD_BYTES;
use airq_sim::mac::link::{BssConfig, StationLink};
use airq_sim::mac::timing::ack_duration;

const CW_MIN: u16 = 31;
const CW_MAX: u16 = 1023;
const PACKET_BYTES: u32 = 1500;

/// τ for `n` stations, window W = CWmin + 1, `m` backoff stages: the fixed point of
/// τ = 2(1−2p) / ((1−2p)(W+1) + pW(1−(2p)^m)) (eq. 7) and p = 1 − (1−τ)^(n−1) (eq. 9).
/// Eq. 7 is used divided through by (1−2p), τ = 2 / (W + 1 + pW·Σ_{i<m}(2p)^i), which
/// is the same function without its removable singularity at p = 1/2.
pub(crate) fn bianchi_tau(n: u32, w: f64, m: i32) -> f64 {
    let tau_of_p = |p: f64| {
        let stages: f64 = (0..m).map(|i| (2.0 * p).powi(i)).sum();
        2.0 / (w + 1.0 + p * w * stages)
    };
    // g(p) = p − (1 − (1 − τ(p))^(n−1)) is increasing in p; bisect on (0, 1).
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let p = 0.5 * (lo + hi);
        let g = p - (1.0 - (1.0 - tau_of_p(p)).powi(n as i32 - 1));
        if g > 0.0 {
            hi = p;
        } else {
            lo = p;
        }
    }
    tau_of_p(0.5 * (lo + hi))
}

/// Saturation throughput (bit/s of IP packets), eq. 13.
fn bianchi_throughput(n: u32, slot: f64, ts: f64, tc: f64, payload_bits: f64) -> f64 {
    let m = (f64::from(CW_MAX + 1) / f64::from(CW_MIN + 1))
        .log2()
        .round() as i32;
    let tau = bianchi_tau(n, f64::from(CW_MIN + 1), m);
    let p_tr = 1.0 - (1.0 - tau).powi(n as i32);
    let p_s = f64::from(n) * tau * (1.0 - tau).powi(n as i32 - 1) / p_tr;
    p_s * p_tr * payload_bits / ((1.0 - p_tr) * slot + p_tr * p_s * ts + p_tr * (1.0 - p_s) * tc)
}

fn bss_80211b() -> BssConfig {
    let mut bss = BssConfig::dsss();
    bss.edca = EdcaParams::dcf(CW_MIN, CW_MAX);
    // The model's AP contends like its stations (it sends only Acks here anyway).
    bss.ap_edca = None;
    bss.beacon_interval = None;
    // The model has no retry limit.
    bss.retry_limit = u8::MAX;
    bss
}

fn simulate(rate: Rate, n: u16, seconds: u64) -> f64 {
    let stations = vec![StationLink::new(rate); n as usize];
    uplink_throughputs(bss_80211b(), stations, PACKET_BYTES, seconds)
        .iter()
        .sum()
}

fn model(rate: Rate, n: u32) -> f64 {
    let bss = bss_80211b();
    let t = bss.timing;
    let ppdu = rate.ppdu_duration(PACKET_BYTES + MPDU_OVERHEAD_BYTES, bss.band);
    let ack = ack_duration(&bss.control_rate(&rate), bss.band);
    let eifs = t.eifs(ack_duration(&bss.beacon_rate, bss.band));
    let us = |d: Duration| d.as_nanos() as f64 * 1e-9;
    let ts = us(ppdu + t.sifs_time + ack + t.difs());
    let tc = us(ppdu + eifs);
    bianchi_throughput(n, us(t.slot_time), ts, tc, f64::from(PACKET_BYTES * 8))
}

#[test]
fn solver_satisfies_both_equations() {
    for n in [2u32, 5, 10, 20, 50] {
        let tau = bianchi_tau(n, 32.0, 5);
        let p = 1.0 - (1.0 - tau).powi(n as i32 - 1);
        // Eq. 7 in its original form, away from p = 1/2.
        let eq7 =
            2.0 * (1.0 - 2.0 * p) / ((1.0 - 2.0 * p) * 33.0 + p * 32.0 * (1.0 - (2.0 * p).powi(5)));
        assert!(
            (eq7 - tau).abs() < 1e-9,
            "n={n}: tau {tau}, eq. 7 gives {eq7}"
        );
    }
    // One station never collides: τ = 2/(W+1).
    assert!((bianchi_tau(1, 32.0, 5) - 2.0 / 33.0).abs() < 1e-12);
}

#[test]
fn saturation_throughput_matches_bianchi_within_3_percent() {
    let rates = [
        (DsssDataRate::Mbps1, 200),
        (DsssDataRate::Mbps2, 120),
        (DsssDataRate::Mbps5_5, 60),
        (DsssDataRate::Mbps11, 40),
    ];
    let mut report = String::new();
    let mut worst: f64 = 0.0;
    for (data_rate, seconds) in rates {
        let rate = Rate::dsss(data_rate, DsssPreamble::Long).unwrap();
        for n in [5u16, 10, 20, 50] {
            let sim = simulate(rate, n, seconds);
            let model = model(rate, u32::from(n));
            let err = (sim - model) / model;
            assert!(err.is_finite(), "sim {sim}, model {model}");
            worst = worst.max(err.abs());
            report += &format!(
                "{:>5} kbit/s n={n:>2}: sim {:.3} Mbit/s, model {:.3} Mbit/s, {:+.2}%\n",
                data_rate.kbps(),
                sim / 1e6,
                model / 1e6,
                err * 100.0
            );
        }
    }
    println!("{report}");
    assert!(worst < 0.03, "worst error {:.2}%:\n{report}", worst * 100.0);
}
