//! Handshake, close, delayed ACKs, single-loss SACK recovery, RTO backoff.

use super::testbed::{linux, PathSpec, QueueSpec, Testbed};
use crate::tcp::{CongestionControl, TcpState};
use airq::{Duration, Instant};

fn path(rate_mbps: u64, rtt_ms: u64, limit: usize) -> PathSpec {
    PathSpec {
        rate_bps: rate_mbps * 1_000_000,
        delay: Duration::from_millis(rtt_ms / 2),
        queue: QueueSpec::Fifo {
            limit_packets: limit,
        },
        loss: 0.0,
    }
}

#[test]
fn bulk_transfer_of_a_megabyte_completes() {
    let mut tb = Testbed::new(path(20, 20, 100), 1);
    let cfg = linux(CongestionControl::Cubic);
    tb.add_flow(&cfg, &cfg, Instant::ZERO, 1_000_000);
    tb.run_until(Instant::from_secs(5));
    tb.assert_invariants();
    let f = &tb.flows[0];
    assert_eq!(f.server.delivered(), 1_000_000);
    assert_eq!(f.client.acked(), 1_000_000);
    assert_eq!(f.client.state(), TcpState::Established);
    println!("{:?}", f.client.stats());
}
