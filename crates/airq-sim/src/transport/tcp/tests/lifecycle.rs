//! The connection life cycle and the receiver: handshake options, close, request and
//! response on a kept-alive connection, delayed and quick ACKs.

use super::testbed::{cubic, fifo_path, Testbed};
use crate::transport::tcp::{Outgoing, TcpConfig, TcpEndpoint, TcpState};
use airq::{Duration, Instant};

/// Delivers segments back and forth between two endpoints at one instant until both
/// are quiet; returns the segments `b` sent.
fn exchange(
    a: &mut TcpEndpoint,
    b: &mut TcpEndpoint,
    now: Instant,
    mut to_b: Vec<Outgoing>,
) -> Vec<Outgoing> {
    let mut from_b = Vec::new();
    while !to_b.is_empty() {
        let mut to_a = Vec::new();
        for o in to_b.drain(..) {
            b.on_segment(now, &o.segment, false, &mut to_a);
        }
        from_b.extend(to_a.iter().copied());
        for o in to_a {
            a.on_segment(now, &o.segment, false, &mut to_b);
        }
    }
    from_b
}

#[test]
fn handshake_negotiates_options_and_both_fins_close_the_connection() {
    let ecn = TcpConfig {
        ecn: true,
        ..cubic()
    };
    let mut client = TcpEndpoint::client(&ecn);
    let mut server = TcpEndpoint::server(&TcpConfig { mss: 1400, ..ecn });
    let mut out = Vec::new();
    let t = Instant::from_millis(1);
    client.connect(t, &mut out);
    assert_eq!(client.state(), TcpState::SynSent);
    let syn = out[0].segment;
    assert!(syn.flags.syn && syn.flags.ece && syn.flags.cwr && !out[0].ect);
    let replies = exchange(&mut client, &mut server, t, out);
    let syn_ack = replies[0].segment;
    assert!(syn_ack.flags.syn && syn_ack.flags.ack && syn_ack.flags.ece && !syn_ack.flags.cwr);
    assert_eq!(client.state(), TcpState::Established);
    assert_eq!(server.state(), TcpState::Established);
    assert!(client.ecn_enabled() && server.ecn_enabled());
    assert!(client.sack_enabled() && server.sack_enabled());
    assert_eq!(
        (client.mss(), server.mss()),
        (1400, 1400),
        "the smaller MSS wins"
    );
    assert_eq!(client.cwnd(), 10, "RFC 6928 initial window");

    let mut out = Vec::new();
    client.write(5000, t, &mut out);
    client.close(t, &mut out);
    assert_eq!(client.state(), TcpState::FinWait);
    // The data left at write (no Nagle hold: no small segment outstanding), so the FIN
    // goes alone.
    let lens: Vec<(u32, bool)> = out
        .iter()
        .map(|o| (o.segment.len, o.segment.flags.fin))
        .collect();
    assert_eq!(
        lens,
        [
            (1400, false),
            (1400, false),
            (1400, false),
            (800, false),
            (0, true)
        ]
    );
    assert!(out.iter().all(|o| o.ect), "new data is ECT(0)");
    exchange(&mut client, &mut server, t, out);
    assert_eq!(server.delivered(), 5000);
    assert_eq!(server.state(), TcpState::CloseWait);

    let mut out = Vec::new();
    server.write(3000, t, &mut out);
    server.close(t, &mut out);
    assert_eq!(server.state(), TcpState::LastAck);
    exchange(&mut server, &mut client, t, out);
    assert_eq!(client.delivered(), 3000);
    assert_eq!(client.acked(), 5000);
    assert_eq!(server.acked(), 3000);
    assert_eq!(client.state(), TcpState::TimeWait);
    assert_eq!(server.state(), TcpState::Closed);
    assert_eq!(client.next_timer(), None);
    let mut out = Vec::new();
    client.write(10, t, &mut out);
    assert!(out.is_empty());
    assert_eq!(client.stats().refused_writes, 1);
}

/// A bulk write ended by `finish` (a test's stop): what was sent is delivered and
/// followed by a FIN; the endless rest is dropped, not sent.
#[test]
fn finish_ends_a_bulk_write_where_the_sending_stands() {
    let mut client = TcpEndpoint::client(&cubic());
    let mut server = TcpEndpoint::server(&cubic());
    let t = Instant::from_millis(1);
    let mut out = Vec::new();
    client.connect(t, &mut out);
    exchange(&mut client, &mut server, t, out);
    let mut sent = Vec::new();
    server.write(u64::MAX, t, &mut sent);
    // The initial window's ten segments are in flight, unacknowledged.
    assert_eq!(sent.len(), 10);
    let in_flight: u64 = sent.iter().map(|o| u64::from(o.segment.len)).sum();
    let mut fin = Vec::new();
    server.finish(t, &mut fin);
    assert_eq!(server.state(), TcpState::FinWait);
    assert_eq!(
        server.unacked(),
        in_flight,
        "only what was sent is left to deliver"
    );
    // The FIN waits for room in the window (ten segments already out).
    sent.extend(fin);
    exchange(&mut server, &mut client, t, sent);
    assert_eq!(client.delivered(), in_flight);
    assert_eq!(server.acked(), in_flight);
    assert_eq!(client.state(), TcpState::CloseWait);
    let mut out = Vec::new();
    server.write(10, t, &mut out);
    assert!(out.is_empty(), "writes after finish are refused");
}

#[test]
fn ecn_is_off_unless_both_ends_ask() {
    let mut client = TcpEndpoint::client(&TcpConfig {
        ecn: true,
        ..cubic()
    });
    let mut server = TcpEndpoint::server(&cubic());
    let mut out = Vec::new();
    client.connect(Instant::ZERO, &mut out);
    exchange(&mut client, &mut server, Instant::ZERO, out);
    assert_eq!(client.state(), TcpState::Established);
    assert!(!client.ecn_enabled() && !server.ecn_enabled());
}

#[test]
fn a_lone_segment_is_acked_by_the_delayed_ack_timer_after_quick_acks() {
    let mut client = TcpEndpoint::client(&cubic());
    let mut server = TcpEndpoint::server(&cubic());
    let mut out = Vec::new();
    client.connect(Instant::ZERO, &mut out);
    exchange(&mut client, &mut server, Instant::ZERO, out);
    // 40 single segments, each alone: the first 16 are quick-ACKed (Linux quickack
    // mode), then each waits 40 ms for the delayed-ACK timer.
    let mut immediate = 0;
    for i in 0..40u64 {
        let now = Instant::from_millis(10 + i * 100);
        let mut out = Vec::new();
        client.write(1000, now, &mut out);
        assert_eq!(out.len(), 1);
        let mut acks = Vec::new();
        server.on_segment(now, &out[0].segment, false, &mut acks);
        if acks.is_empty() {
            assert_eq!(server.next_timer(), Some(now + Duration::from_millis(40)));
            server.on_timer(now + Duration::from_millis(40), &mut acks);
            assert_eq!(acks.len(), 1);
        } else {
            immediate += 1;
        }
        for a in acks {
            client.on_segment(
                now + Duration::from_millis(40),
                &a.segment,
                false,
                &mut Vec::new(),
            );
        }
    }
    assert_eq!(immediate, 16);
    assert_eq!(client.acked(), 40_000);
}

#[test]
fn receiver_acks_every_second_full_segment() {
    let mut tb = Testbed::new(fifo_path(100, 20, 1000), 1);
    let bytes = 3000 * 1448;
    tb.add_flow(&cubic(), &cubic(), Instant::ZERO, bytes);
    tb.run_until(Instant::from_secs(5));
    let f = &tb.flows[0];
    assert_eq!(f.server.delivered(), bytes);
    let acks = f.server.stats().pure_acks_sent;
    println!("3000 segments, {acks} ACKs");
    // 1500 for the pairs, up to 16 quick ACKs, some timer ACKs for odd flight ends.
    assert!(
        (1500..=1560).contains(&acks),
        "{acks} ACKs for 3000 segments"
    );
}

#[test]
fn request_response_on_a_kept_alive_connection() {
    let mut tb = Testbed::new(fifo_path(20, 40, 100), 3);
    tb.add_flow(&cubic(), &cubic(), Instant::ZERO, 0);
    for round in 1..=3u64 {
        let start = Instant::from_secs(round * 2);
        tb.run_until(start);
        tb.act(0, false, |ep, now, out| ep.write(300, now, out));
        tb.run_until(start + Duration::from_millis(100));
        assert_eq!(tb.flows[0].server.delivered(), 300 * round);
        tb.act(0, true, |ep, now, out| ep.write(200_000, now, out));
        tb.run_until(start + Duration::from_millis(1500));
        assert_eq!(tb.flows[0].client.delivered(), 200_000 * round);
    }
    tb.act(0, false, |ep, now, out| ep.close(now, out));
    tb.run_until(Instant::from_secs(9));
    tb.act(0, true, |ep, now, out| ep.close(now, out));
    tb.run_until(Instant::from_secs(10));
    assert_eq!(tb.flows[0].client.state(), TcpState::TimeWait);
    assert_eq!(tb.flows[0].server.state(), TcpState::Closed);
}
