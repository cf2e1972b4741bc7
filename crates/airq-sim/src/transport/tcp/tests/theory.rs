//! One flow against theory: link utilisation with a BDP-sized FIFO (CUBIC's β = 0.7
//! keeps a BDP buffer from draining), the CUBIC window curve of RFC 9438 eq. 1–2, and
//! NewReno's throughput under random loss against Mathis et al. (1997).

use super::testbed::{linux, PathSpec, QueueSpec, Testbed};
use crate::transport::tcp::{CongestionControl, TcpConfig};
use airq::{Duration, Instant};

const MSS: f64 = 1448.0;

/// 20 Mbit/s, 20 ms RTT, a FIFO of one BDP (34 packets of 1500 bytes): after the first
/// seconds CUBIC keeps the link ≥ 95 % busy.
#[test]
fn cubic_fills_a_bdp_fifo_bottleneck() {
    let path = PathSpec {
        rate_bps: 20_000_000,
        delay: Duration::from_millis(10),
        queue: QueueSpec::Fifo { limit_packets: 34 },
        loss: 0.0,
    };
    let mut tb = Testbed::new(path, 1);
    let cfg = linux(CongestionControl::Cubic);
    tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
    tb.run_until(Instant::from_secs(2));
    let (bytes0, delivered0) = (tb.link_bytes, tb.flows[0].server.delivered());
    tb.run_until(Instant::from_secs(12));
    tb.assert_invariants();
    let utilisation = (tb.link_bytes - bytes0) as f64 * 8.0 / (20e6 * 10.0);
    let goodput = (tb.flows[0].server.delivered() - delivered0) as f64 * 8.0 / 10.0;
    let s = tb.flows[0].client.stats();
    println!(
        "utilisation {utilisation:.4}, goodput {:.2} Mbit/s, drops {}, fast recoveries {}, rto {}",
        goodput / 1e6,
        tb.queue_drops,
        s.fast_recoveries,
        s.rto_timeouts
    );
    assert!(utilisation >= 0.95, "utilisation {utilisation}");
    assert!(
        tb.queue_drops > 0,
        "the FIFO overflowed: the test saw losses"
    );
    assert_eq!(s.rto_timeouts, 0);
}

/// After one loss at W_max the window follows W(t) = C(t − K)³ + W_max (RFC 9438 eq. 1)
/// with K = ∛((W_max − cwnd_epoch)/C) (eq. 2), C = 0.4, t from the reduction. A path
/// with no queueing (1 Gbit/s, huge buffer) and 100 ms RTT, so the window is never
/// limited by the link; one segment dropped when cwnd first reaches 100.
#[test]
fn cubic_window_follows_rfc_9438_curve() {
    let path = PathSpec {
        rate_bps: 1_000_000_000,
        delay: Duration::from_millis(50),
        queue: QueueSpec::Fifo {
            limit_packets: 100_000,
        },
        loss: 0.0,
    };
    let mut tb = Testbed::new(path, 1);
    let mut dropped = false;
    tb.drop_filter = Some(Box::new(move |seg, _, cwnd| {
        let drop = !dropped && seg.len > 0 && cwnd >= 100;
        dropped |= drop;
        drop
    }));
    let cfg = linux(CongestionControl::Cubic);
    tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
    tb.run_until(Instant::from_secs(10));
    let f = &tb.flows[0];
    assert_eq!(tb.filter_drops, 1);
    assert_eq!(f.client.stats().fast_recoveries, 1);
    assert_eq!(f.client.stats().rto_timeouts, 0);
    let reduction = f
        .trace
        .iter()
        .find(|&&(_, _, ssthresh)| ssthresh < 0x7fff_ffff)
        .expect("a reduction");
    let (t0, _, cwnd_epoch) = *reduction;
    let w_max = f64::from(f.client.cubic_w_max().expect("cubic"));
    let c = 0.4;
    let k = ((w_max - f64::from(cwnd_epoch)) / c).cbrt();
    println!("W_max {w_max}, cwnd_epoch {cwnd_epoch}, K {k:.3} s, reduction at {t0}");
    let mut worst: f64 = 0.0;
    for tenths in (10..=75).step_by(5) {
        let t = f64::from(tenths) / 10.0;
        let at = t0 + Duration::from_millis(tenths as u64 * 100);
        let cwnd = f
            .trace
            .iter()
            .take_while(|&&(when, _, _)| when <= at)
            .last()
            .map(|&(_, cwnd, _)| f64::from(cwnd))
            .expect("trace");
        let w = c * (t - k).powi(3) + w_max;
        let err = (cwnd - w).abs() / w;
        worst = worst.max(err);
        println!(
            "t {t:.1} s: cwnd {cwnd}, W(t) {w:.1}, error {:.2} %",
            err * 100.0
        );
        assert!(err < 0.05, "t {t}: cwnd {cwnd} vs W(t) {w:.1}");
    }
    println!("worst error {:.2} %", worst * 100.0);
}

/// NewReno under random loss p with no queueing loss: throughput ≈ MSS/RTT · C/√p
/// (Mathis, Semke, Mahdavi, Ott, CCR 1997, eq. 3), C = √(3/(2b)) with b the segments
/// acknowledged per unit of window growth. Within 25 %.
///
/// The constant is b = 1 (C ≈ 1.22), not the delayed-ACK b = 2 (C ≈ 0.87): the receiver
/// does ACK every second segment, but Linux grows cwnd by the number of segments each ACK
/// covers (`tcp_cong_avoid_ai(tp, cwnd, acked)`, appropriate byte counting as in
/// RFC 3465), so the window still gains one segment per RTT — the b = 1 case. Against
/// the b = 2 constant the measured throughput is about 1.5× the prediction.
#[test]
fn newreno_throughput_follows_mathis() {
    let rtt = 0.040;
    for (p, seconds, seed) in [(0.001, 120, 1), (0.005, 60, 2), (0.01, 60, 3)] {
        let path = PathSpec {
            rate_bps: 1_000_000_000,
            delay: Duration::from_millis(20),
            queue: QueueSpec::Fifo {
                limit_packets: 100_000,
            },
            loss: p,
        };
        let mut tb = Testbed::new(path, seed);
        let cfg = linux(CongestionControl::NewReno);
        tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
        let warmup = Instant::from_secs(5);
        tb.run_until(warmup);
        let d0 = tb.flows[0].server.delivered();
        tb.run_until(warmup + Duration::from_secs(seconds));
        let measured = (tb.flows[0].server.delivered() - d0) as f64 / seconds as f64;
        let mathis = |b: f64| MSS / rtt * (3.0 / (2.0 * b)).sqrt() / p.sqrt();
        let ratio_b2 = measured / mathis(2.0);
        let mathis = mathis(1.0);
        let s = tb.flows[0].client.stats();
        println!(
            "p {p}: {:.0} B/s vs Mathis {:.0} B/s, ratio {:.3} (b = 2: {ratio_b2:.3}); losses {}, recoveries {}, rto {}, tlp {}",
            measured,
            mathis,
            measured / mathis,
            tb.random_drops,
            s.fast_recoveries,
            s.rto_timeouts,
            s.tlp_probes
        );
        assert!(
            (measured / mathis - 1.0).abs() < 0.25,
            "p {p}: ratio {}",
            measured / mathis
        );
    }
}

/// HyStart (Linux's default) ends slow start on the ACK train / delay increase before a
/// deep FIFO overflows; without it slow start runs into the buffer and loses packets.
#[test]
fn hystart_leaves_slow_start_before_the_buffer_overflows() {
    let run = |hystart: bool| {
        let path = PathSpec {
            rate_bps: 20_000_000,
            delay: Duration::from_millis(10),
            queue: QueueSpec::Fifo { limit_packets: 300 },
            loss: 0.0,
        };
        let mut tb = Testbed::new(path, 1);
        let cfg = TcpConfig {
            hystart,
            ..linux(CongestionControl::Cubic)
        };
        tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
        tb.run_until(Instant::from_secs(2));
        let f = &tb.flows[0];
        let exit = f.trace.iter().find(|t| t.2 < 0x7fff_ffff).copied();
        (exit, tb.queue_drops, f.client.stats().fast_recoveries)
    };
    let (exit, drops, recoveries) = run(true);
    let (exit_at, cwnd, ssthresh) = exit.expect("slow start ended");
    println!("HyStart: slow start ended at {exit_at} with cwnd {cwnd}, ssthresh {ssthresh}; drops {drops}");
    // BDP = 20 Mbit/s · 20 ms = 34 packets; the 300-packet FIFO holds 9 BDPs.
    assert_eq!((drops, recoveries), (0, 0));
    assert!((17..=140).contains(&ssthresh), "ssthresh {ssthresh}");
    let (_, drops, recoveries) = run(false);
    println!("without HyStart: drops {drops}, fast recoveries {recoveries}");
    assert!(drops > 0 && recoveries > 0);
}
