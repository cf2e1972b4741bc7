//! Two flows through an FQ-CoDel bottleneck: flow-queue fairness (Jain's index), and ECN
//! marking instead of dropping.

use super::testbed::{linux, PathSpec, QueueSpec, Testbed};
use crate::transport::tcp::{CongestionControl, TcpConfig};
use airq::{Duration, Instant};

fn fq_codel_path(ecn: bool) -> PathSpec {
    PathSpec {
        rate_bps: 20_000_000,
        delay: Duration::from_millis(10),
        queue: QueueSpec::FqCodel { ecn },
        loss: 0.0,
    }
}

/// Jain's fairness index (Σx)² / (n·Σx²).
fn jain(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    sum * sum / (x.len() as f64 * sq)
}

/// Goodput of each flow (bytes/s) over `from..to`.
fn goodputs(tb: &mut Testbed, from: Instant, to: Instant) -> Vec<f64> {
    tb.run_until(from);
    let d0: Vec<u64> = tb.flows.iter().map(|f| f.server.delivered()).collect();
    tb.run_until(to);
    let secs = (to - from).as_secs_f64();
    tb.flows
        .iter()
        .zip(d0)
        .map(|(f, d)| (f.server.delivered() - d) as f64 / secs)
        .collect()
}

#[test]
fn two_cubic_flows_share_an_fq_codel_bottleneck_fairly() {
    let mut tb = Testbed::new(fq_codel_path(false), 7);
    let cfg = linux(CongestionControl::Cubic);
    tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
    tb.add_flow(&cfg, &cfg, Instant::from_secs(1), u64::MAX);
    let g = goodputs(&mut tb, Instant::from_secs(4), Instant::from_secs(14));
    tb.assert_invariants();
    let j = jain(&g);
    let total: f64 = g.iter().sum::<f64>() * 8.0 / 1e6;
    println!(
        "goodputs {g:?} B/s, total {total:.2} Mbit/s, Jain {j:.4}, drops {}",
        tb.queue_drops
    );
    assert!(j >= 0.95, "Jain {j}");
    assert!(tb.queue_drops > 0, "CoDel dropped");
    assert!(total > 17.0, "the link stays busy: {total} Mbit/s");
}

#[test]
fn ecn_marks_replace_drops() {
    let mut tb = Testbed::new(fq_codel_path(true), 8);
    let cfg = TcpConfig {
        ecn: true,
        ..linux(CongestionControl::Cubic)
    };
    tb.add_flow(&cfg, &cfg, Instant::ZERO, u64::MAX);
    tb.add_flow(&cfg, &cfg, Instant::from_millis(500), u64::MAX);
    let g = goodputs(&mut tb, Instant::from_secs(3), Instant::from_secs(10));
    tb.assert_invariants();
    let total: f64 = g.iter().sum::<f64>() * 8.0 / 1e6;
    for f in &tb.flows {
        assert!(f.client.ecn_enabled() && f.server.ecn_enabled());
        let c = f.client.stats();
        let s = f.server.stats();
        println!(
            "client: retransmits {}, ecn reductions {}, srtt {:?}; server: CE received {}",
            c.retransmits, c.ecn_reductions, c.srtt, s.ce_received
        );
        assert_eq!(c.retransmits, 0, "no loss at all");
        assert!(c.ecn_reductions > 0);
        assert!(s.ce_received > 0);
    }
    println!(
        "CE marks {}, drops {}, total {total:.2} Mbit/s",
        tb.ce_marks, tb.queue_drops
    );
    assert!(tb.ce_marks > 0);
    assert_eq!(tb.queue_drops, 0);
    assert!(total > 17.0, "{total} Mbit/s");
}
