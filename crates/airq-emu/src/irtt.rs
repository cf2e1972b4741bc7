//! irtt's measurements of an isochronous UDP exchange as the two legs of a call
//! (`airq emulate`'s `voip` test). irtt (Pete Heist's Isochronous Round-Trip Tester,
//! Debian's `irtt`) sends a request every interval from the client (the station) and
//! its server answers each at once; with server timestamps (`--tstamp=both`, its
//! default) its JSON output (`-o FILE.json`, json format version 1) has, per round trip
//! (`round_trips[]`), the wall-clock times the client sent the request
//! (`timestamps.client.send.wall`), the server received it and sent the reply, and the
//! client received the reply, in Unix nanoseconds, and whether the request or the reply
//! was lost (`lost`: `false`, `true_up`, `true_down`, or `true` when the side is
//! unknown). Both ends run on this machine's clock, so those times give the one-way
//! delays of the request (the uplink leg) and of the reply (the downlink leg). Each leg
//! becomes airq-sim's [`VoipStats`], as the simulator's own call legs are measured, and
//! so is rated with its E-model (`airq_sim::apps::emodel`, ITU-T G.107).
//!
//! A reply exists only for a request the server received: the downlink leg's packets
//! are those, not one every interval whatever happened upstream.

use airq::{Duration, Instant};
use airq_sim::apps::voip_stats::{VoipConfig, VoipStats, DELIVERY_DUE};

/// Whether and where a round trip was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    /// Request and reply arrived.
    No,
    /// The request did not reach the server.
    Up,
    /// The server got the request; its reply did not come back.
    Down,
    /// Lost, side unknown (irtt's `true`): taken as lost upstream, so that no reply
    /// is counted that may never have been sent.
    Unknown,
}

/// One of irtt's round trips, wall-clock Unix nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundTrip {
    pub seq: u64,
    pub lost: Lost,
    pub client_send: u64,
    pub server_receive: Option<u64>,
    pub server_send: Option<u64>,
    pub client_receive: Option<u64>,
}

/// The round trips of irtt's JSON output, or why it cannot be read.
pub fn parse(text: &str) -> Result<Vec<RoundTrip>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not irtt's JSON: {e}"))?;
    let trips = v["round_trips"]
        .as_array()
        .ok_or("irtt's JSON has no `round_trips`")?;
    trips
        .iter()
        .map(|t| {
            let wall = |side: &str, which: &str| t["timestamps"][side][which]["wall"].as_u64();
            let lost = match t["lost"].as_str() {
                Some("false") => Lost::No,
                Some("true_up") => Lost::Up,
                Some("true_down") => Lost::Down,
                Some("true") => Lost::Unknown,
                other => return Err(format!("irtt round trip with `lost` {other:?}")),
            };
            Ok(RoundTrip {
                seq: t["seqno"]
                    .as_u64()
                    .ok_or("irtt round trip without `seqno`")?,
                lost,
                client_send: wall("client", "send")
                    .ok_or("irtt round trip without the client's send time")?,
                server_receive: wall("server", "receive"),
                server_send: wall("server", "send"),
                client_receive: wall("client", "receive"),
            })
        })
        .collect()
}

/// The two legs of a call measured by irtt.
#[derive(Clone, Debug)]
pub struct Legs {
    /// Station to server: the requests.
    pub up: VoipStats,
    /// Server to station: the replies.
    pub down: VoipStats,
}

/// The legs of `trips`, on the emulation's clock (`wall_zero_ns`: the wall-clock time
/// of its zero), counting the packets sent in `from..=to` and, as the simulator does,
/// leaving out those sent less than [`DELIVERY_DUE`] before `to` and not received.
pub fn legs(
    trips: &[RoundTrip],
    wall_zero_ns: u64,
    from: Instant,
    to: Instant,
    config: VoipConfig,
) -> Legs {
    let at = |wall: u64| Instant::from_nanos(wall.saturating_sub(wall_zero_ns));
    let counted = |t: Instant| t >= from && t <= to;
    let mut up = VoipStats::new(config);
    let mut down = VoipStats::new(config);
    // (arrival, seq, sent) per leg, to record in arrival order.
    let (mut up_rx, mut down_rx) = (Vec::new(), Vec::new());
    for t in trips {
        let sent = at(t.client_send);
        if counted(sent) {
            let _ = up.record_sent(t.seq, sent);
            if let (Lost::No | Lost::Down, Some(r)) = (t.lost, t.server_receive) {
                up_rx.push((at(r).max(sent), t.seq, sent));
            }
        }
        if matches!(t.lost, Lost::No | Lost::Down) {
            // A reply without the server's send time left at most when the request
            // arrived; without either, when the request was sent.
            let reply = at(t.server_send.or(t.server_receive).unwrap_or(t.client_send));
            if counted(reply) {
                let _ = down.record_sent(t.seq, reply);
                if let (Lost::No, Some(r)) = (t.lost, t.client_receive) {
                    down_rx.push((at(r).max(reply), t.seq, reply));
                }
            }
        }
    }
    for (stats, rx) in [(&mut up, &mut up_rx), (&mut down, &mut down_rx)] {
        rx.sort();
        for &(arrival, seq, sent) in rx.iter() {
            let _ = stats.record_received(seq, sent, arrival);
        }
    }
    Legs {
        up: up.as_of(to, DELIVERY_DUE),
        down: down.as_of(to, DELIVERY_DUE),
    }
}

/// irtt's interval argument for `interval` (`20ms`).
pub fn duration_arg(d: Duration) -> String {
    format!("{}us", d.as_nanos().div_ceil(1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two round trips as irtt 0.9.0 writes them: the first answered, the second's
    /// reply lost downstream (the server still stamped it).
    const SAMPLE: &str = r#"{"round_trips": [
        {"seqno": 0, "lost": "false",
         "timestamps": {"client": {"receive": {"wall": 1000005000, "monotonic": 1},
                                   "send": {"wall": 1000000000, "monotonic": 0}},
                        "server": {"receive": {"wall": 1000003000, "monotonic": 5},
                                   "send": {"wall": 1000003100, "monotonic": 6}}},
         "delay": {"receive": 1900, "rtt": 4900, "send": 3000}, "ipdv": {}},
        {"seqno": 1, "lost": "true_down",
         "timestamps": {"client": {"send": {"wall": 1020000000, "monotonic": 7}},
                        "server": {"receive": {"wall": 1020004000, "monotonic": 8},
                                   "send": {"wall": 1020004100, "monotonic": 9}}},
         "delay": {}, "ipdv": {}},
        {"seqno": 2, "lost": "true_up",
         "timestamps": {"client": {"send": {"wall": 1040000000, "monotonic": 10}}},
         "delay": {}, "ipdv": {}}
    ]}"#;

    #[test]
    fn round_trips_are_read_with_their_losses() {
        let trips = parse(SAMPLE).unwrap();
        assert_eq!(trips.len(), 3);
        assert_eq!(trips[0].lost, Lost::No);
        assert_eq!(trips[0].client_receive, Some(1_000_005_000));
        assert_eq!(trips[1].lost, Lost::Down);
        assert_eq!(
            (trips[1].server_send, trips[1].client_receive),
            (Some(1_020_004_100), None)
        );
        assert_eq!((trips[2].lost, trips[2].server_receive), (Lost::Up, None));
        assert!(parse("{}").is_err());
        assert!(parse("irtt: error").is_err());
    }

    /// The requests make the uplink leg (3 sent, 2 received: 3 µs and 4 µs), the
    /// replies of the requests that arrived the downlink leg (2 sent, 1 received: 1.9
    /// µs), on the emulation's clock.
    #[test]
    fn requests_and_replies_make_the_two_legs() {
        let trips = parse(SAMPLE).unwrap();
        let zero = 1_000_000_000 - 5_000_000; // the emulation began 5 ms before seq 0
        let legs = legs(
            &trips,
            zero,
            Instant::ZERO,
            Instant::ZERO + Duration::from_secs(10),
            VoipConfig::default(),
        );
        assert_eq!((legs.up.sent(), legs.up.received()), (3, 2));
        assert_eq!((legs.down.sent(), legs.down.received()), (2, 1));
        let ms = |s: &VoipStats| s.delay_distribution_ms().mean().unwrap();
        assert!((ms(&legs.up) - 0.0035).abs() < 1e-12, "{}", ms(&legs.up));
        assert!(
            (ms(&legs.down) - 0.0019).abs() < 1e-12,
            "{}",
            ms(&legs.down)
        );
        assert!(legs.up.rating().is_ok() && legs.down.rating().is_ok());
        // Only what was sent in the measured span counts.
        let late = Instant::ZERO + Duration::from_millis(20);
        let tail = super::legs(
            &trips,
            zero,
            late,
            Instant::ZERO + Duration::from_secs(10),
            VoipConfig::default(),
        );
        assert_eq!((tail.up.sent(), tail.down.sent()), (2, 1));
    }

    #[test]
    fn durations_are_given_in_microseconds() {
        assert_eq!(duration_arg(Duration::from_millis(20)), "20000us");
    }
}
