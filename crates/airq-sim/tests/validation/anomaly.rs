//! The performance anomaly (M. Heusse, F. Rousseau, G. Berger-Sabbatel, A. Duda,
//! "Performance Anomaly of 802.11b", IEEE INFOCOM 2003): one station at 1 Mbit/s among
//! N − 1 at 11 Mbit/s, all saturated uplink, all get the same throughput — the rate of
//! the slow one drags everyone down. Nothing in the simulator codes this; it falls out
//! of DCF giving every station the same chance to transmit. Two models give the
//! expected throughput, both with the timings the simulator uses.
//!
//! # Heusse et al.'s closed form
//!
//! Every host sends one frame per cycle, so a cycle holds N − 1 fast frames, one slow
//! frame and the collisions, and every host gets one frame's data per cycle:
//!
//!   T_f = t_ov + s_d/R + t_cont,   T_s = t_ov + s_d/r + t_cont,
//!   t_ov = DIFS + t_pr + SIFS + t_pr + t_ack,
//!   t_cont(N) = SLOT · CWmin · (1 + P_c(N)) / (2N),
//!   P_c(N) = 1 − (1 − 1/CWmin)^(N−1),
//!   t_jam = (2/N) · T_s + (1 − 2/N) · T_f,
//!   X_f = X_s = s_d / ((N − 1) · T_f + T_s + N · P_c(N) · t_jam).
//!
//! The review below gives X_f as the fast hosts' share of the channel, U_f = T_f / (the
//! same denominator), times their efficiency s_d / (R · T_f), times R; the slow host's
//! works out the same. Where these come from, and what had to be interpreted:
//!
//! - The paper itself was not at hand, so no equation numbers are quoted. t_ov, T_f, T_s,
//!   U_f, X_f and t_jam (the mean time a collision takes, over the pairs of hosts that can
//!   collide: a pair includes the slow host with probability 2/N) are as a review of the
//!   paper gives them (bodunhu.com/blog/posts/performance-anomaly-of-802.11b). P_c(N), with
//!   CWmin = 31, is as a MATLAB reimplementation gives it
//!   (gist.github.com/wldhg/73b559073d7aae90d311b0345e4c079b).
//! - t_cont is not in the review. The reimplementation has half the value above
//!   (… · CWmin/2 / (2N)); the form above is used because at N = 1 it is the mean of a
//!   backoff drawn from 0..=CWmin, SLOT · CWmin/2, and the halved one is not. With the
//!   halved t_cont the closed form would be 0.6–1.1% higher at N = 2 to 10.
//! - t_pr + s_d/r and t_pr + t_ack are the library's PPDU durations of the MPDU (long
//!   preamble) and of the Ack at the rate IEEE 802.11-2020 10.6.6.5 gives: the highest
//!   basic rate not above the data rate, and the BSS has hostapd's 2.4 GHz basic rates
//!   (1, 2, 5.5, 11 Mbit/s), so each host's Ack goes at its data rate, as the
//!   reimplementation sends it (the review writes t_ov^R, the overhead with the Ack at
//!   R, in T_s as well).
//! - s_d is the data frame (the MPDU), and the paper's X counts its bits; here the
//!   numerator counts the 1500-byte IP packet, which is what the simulator measures, and
//!   only the airtime uses the MPDU.
//! - t_jam is taken literally: a collision is charged a whole T_s or T_f. In the
//!   simulator a collision lasts the longest PPDU plus EIFS (SIFS + DIFS + the 1 Mbit/s
//!   Ack), which is that T less t_cont.
//! - The backoff is drawn from 0..=31, so two hosts pick the same slot with probability
//!   1/32, not 1/CWmin; with 1/32 in P_c the closed form would be 0.2–0.7% higher.
//!
//! Against the simulator (6000 s per N, seed 1) every station is within 5% of the
//! closed form up to N = 8 (4.6% at worst, at N = 8), but the closed form is low by an
//! amount that grows with N: the mean over the stations is 0.0%, 0.3%, 1.4%, 3.8% and
//! 5.4% above it at N = 2, 3, 5, 8 and 10 (measured with the Acks at the data rate;
//! with every Ack at 1 Mbit/s it was 0.0%, 0.3%, 1.5%, 3.7% and 5.6%). The main cause
//! is the collision count. The closed form charges P_c(N) = 0.032, 0.064, 0.123, 0.205
//! and 0.256 collisions per delivered frame, as if every host always drew its backoff
//! from 0..=CWmin; the simulator's channel counters showed (with the Acks at 1 Mbit/s) 0.031, 0.059, 0.106, 0.161 and 0.191 (Bianchi's
//! model below, with the exponential backoff, gives 0.030, 0.058, 0.106, 0.163 and
//! 0.194). At N = 10 the extra collisions cost about 240 µs per delivered frame (3.6 ms
//! in the simulator); t_cont counting too few idle backoff slots (1.9 per frame, where
//! the simulator idles 3.6) gives back only about 30 µs. So at N = 10 the test allows
//! 8%, not 5%.
//!
//! # Bianchi's model extended to mixed rates
//!
//! Bianchi's model (see `bianchi.rs`) extended to stations of different rates: every
//! station has the same attempt probability τ, so the same chance τ(1−τ)^(N−1) of a
//! successful transmission per slot, and the mean slot length weighs each outcome by its
//! duration — a success of the slow or of a fast station, a collision that involves the
//! slow station (it lasts as long as the slow frame) or only fast ones. Each station gets
//!
//!   X = τ(1−τ)^(N−1) · L / E\[slot\]
//!
//! — the same for all, Heusse's observation. This model counts collisions as the
//! simulator has them and agrees with it within 1.5% for every station.

use crate::bianchi::bianchi_tau;
use crate::saturated::uplink_throughputs;
use airq::phy::{DsssDataRate, DsssPreamble, Rate};
use airq::Duration;
use airq_sim::mac::edca::EdcaParams;
use airq_sim::mac::frame::MPDU_OVERHEAD_BYTES;
use airq_sim::mac::link::{BssConfig, StationLink};
use airq_sim::mac::timing::ack_duration;

const PACKET_BYTES: u32 = 1500;
const CW_MIN: u16 = 31;

fn bss() -> BssConfig {
    let mut bss = BssConfig::dsss();
    bss.edca = EdcaParams::dcf(CW_MIN, 1023);
    // The model's AP contends like its stations (it sends only Acks here anyway).
    bss.ap_edca = None;
    bss.beacon_interval = None;
    bss
}

fn rate(r: DsssDataRate) -> Rate {
    Rate::dsss(r, DsssPreamble::Long).unwrap()
}

/// Per-station throughput (bit/s of IP packets) of one 1 Mbit/s and `n − 1` 11 Mbit/s
/// stations, all saturated, by Bianchi's model extended to mixed rates (see the module
/// comment).
fn model(n: u32) -> f64 {
    let bss = bss();
    let t = bss.timing;
    let secs = |d: Duration| d.as_nanos() as f64 * 1e-9;
    let tau = bianchi_tau(n, f64::from(CW_MIN + 1), 5);
    let ack = |r| ack_duration(&bss.control_rate(&rate(r)), bss.band);
    let eifs = t.eifs(ack_duration(&bss.beacon_rate, bss.band));
    let mpdu = PACKET_BYTES + MPDU_OVERHEAD_BYTES;
    let ppdu = |r| rate(r).ppdu_duration(mpdu, bss.band);
    let success = |r| secs(ppdu(r) + t.sifs_time + ack(r) + t.difs());
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

/// Per-station throughput (bit/s of IP packets) of Heusse et al.'s closed form (see the
/// module comment) for one 1 Mbit/s and `n − 1` 11 Mbit/s stations.
fn heusse_closed_form(n: u32) -> f64 {
    let bss = bss();
    let t = bss.timing;
    let secs = |d: Duration| d.as_nanos() as f64 * 1e-9;
    let hosts = f64::from(n);
    let cw_min = f64::from(CW_MIN);
    let p_c = 1.0 - (1.0 - 1.0 / cw_min).powi(n as i32 - 1);
    let t_cont = secs(t.slot_time) * cw_min * (1.0 + p_c) / (2.0 * hosts);
    let mpdu = PACKET_BYTES + MPDU_OVERHEAD_BYTES;
    // t_ov + s_d/r + t_cont: the preambles are in the PPDU and Ack durations.
    let frame = |r| {
        let ppdu = rate(r).ppdu_duration(mpdu, bss.band);
        let ack = ack_duration(&bss.control_rate(&rate(r)), bss.band);
        secs(t.difs() + ppdu + t.sifs_time + ack) + t_cont
    };
    let t_f = frame(DsssDataRate::Mbps11);
    let t_s = frame(DsssDataRate::Mbps1);
    let t_jam = 2.0 / hosts * t_s + (1.0 - 2.0 / hosts) * t_f;
    let cycle = (hosts - 1.0) * t_f + t_s + p_c * t_jam * hosts;
    f64::from(PACKET_BYTES * 8) / cycle
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

#[test]
fn every_station_near_heusses_closed_form() {
    // (N, tolerance): the closed form's collision count makes it low by a margin that
    // grows with N, past 5% at N = 10 (see the module comment).
    let cases = [(2u16, 0.05), (3, 0.05), (5, 0.05), (8, 0.05), (10, 0.08)];
    let mut report = String::new();
    let mut failures = Vec::new();
    for (n, tolerance) in cases {
        let x = simulate(n, 6000);
        let closed = heusse_closed_form(u32::from(n));
        let ratios: Vec<f64> = x.iter().map(|xi| xi / closed).collect();
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let worst = ratios
            .iter()
            .copied()
            .max_by(|a, b| (a - 1.0).abs().total_cmp(&(b - 1.0).abs()))
            .unwrap();
        assert!(worst.is_finite());
        report += &format!(
            "n={n:>2}: closed form {:.4} Mbit/s, simulator mean {:.4} Mbit/s ({:.4}), \
             worst station {worst:.4}, slow station {:.4}\n",
            closed / 1e6,
            mean * closed / 1e6,
            mean,
            ratios[0],
        );
        if (worst - 1.0).abs() >= tolerance {
            failures.push(format!(
                "n={n}: worst station {worst:.4}, allowed ±{tolerance}"
            ));
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{failures:?}\n{report}");
}
