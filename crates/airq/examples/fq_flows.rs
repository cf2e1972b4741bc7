//! Pushes a few flows through the FQ-MAC queues and prints what happened to each.
//!
//! Three stations share a 50 Mbit/s link that serves their tins round-robin, one packet
//! at a time (a stand-in for the air until the simulator exists). Two constant-rate bulk
//! flows offer 26 Mbit/s each to stations 0 and 1, a little more than their 25 Mbit/s
//! share; a VoIP flow (station 1) and a ping flow (station 2) are sparse.
//!
//! What to look for: CoDel (mac80211's 20 ms / 100 ms) drops the excess of the bulk flow
//! that is not ECN-capable and holds its sojourn time near the target. The ECN-capable
//! bulk flow is marked instead — but these senders do not slow down, so marks cannot
//! shrink its queue (a real TCP would halve its window). Meanwhile DRR++ serves the
//! sparse flows first: their sojourn stays in microseconds, even though VoIP shares a tin
//! with the bloated ECN flow.
//!
//! Run: `cargo run --release --example fq_flows [seconds]`

use airq::{DropReason, Duration, Ecn, Fq, FqParams, Instant, Packet, SimplePacket, TinId};

const LINK_BPS: u64 = 50_000_000;

struct FlowSpec {
    name: &'static str,
    station: usize,
    len_bytes: u32,
    interval: Duration,
    ecn: Ecn,
}

#[derive(Default)]
struct FlowResult {
    offered: u64,
    delivered: u64,
    delivered_bytes: u64,
    ce_marked: u64,
    codel_drops: u64,
    limit_drops: u64,
    sojourn_sum: Duration,
    sojourn_max: Duration,
}

fn main() {
    let seconds: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 10,
        Some(Ok(s)) if s > 0 => s,
        Some(_) => {
            eprintln!("usage: fq_flows [seconds > 0]");
            std::process::exit(2);
        }
    };
    let flows = [
        FlowSpec {
            name: "bulk",
            station: 0,
            len_bytes: 1500,
            interval: Duration::from_nanos(461_538),
            ecn: Ecn::NotEct,
        },
        FlowSpec {
            name: "bulk-ecn",
            station: 1,
            len_bytes: 1500,
            interval: Duration::from_nanos(461_538),
            ecn: Ecn::Ect0,
        },
        FlowSpec {
            name: "voip",
            station: 1,
            len_bytes: 200,
            interval: Duration::from_millis(20),
            ecn: Ecn::NotEct,
        },
        FlowSpec {
            name: "ping",
            station: 2,
            len_bytes: 84,
            interval: Duration::from_millis(100),
            ecn: Ecn::NotEct,
        },
    ];

    let mut fq = Fq::new(FqParams::default()).expect("default parameters are valid");
    let tins: Vec<TinId> = (0..3).map(|_| fq.add_tin()).collect();
    let mut results: Vec<FlowResult> = flows.iter().map(|_| FlowResult::default()).collect();
    let mut next_arrival: Vec<Instant> = flows.iter().map(|_| Instant::ZERO).collect();
    let end = Instant::from_secs(seconds);
    let mut link_free = Instant::ZERO;
    let mut next_tin = 0;

    // Packet ids carry their flow index in the top bits.
    let flow_of = |p: &SimplePacket| (p.id >> 32) as usize;
    let record_drop = |results: &mut Vec<FlowResult>, p: &SimplePacket, reason: DropReason| {
        let r = &mut results[flow_of(p)];
        match reason {
            DropReason::Codel => r.codel_drops += 1,
            _ => r.limit_drops += 1,
        }
    };

    loop {
        // The next event: an arrival, or the link finishing its current packet.
        let (first, &arrival) = next_arrival
            .iter()
            .enumerate()
            .min_by_key(|(_, t)| **t)
            .unwrap();
        let now = arrival.min(link_free);
        if now >= end {
            break;
        }
        if arrival <= link_free {
            let spec = &flows[first];
            let r = &mut results[first];
            let id = ((first as u64) << 32) | r.offered;
            r.offered += 1;
            let packet = SimplePacket::new(
                id,
                0x9e37_79b9u32.wrapping_mul(first as u32 + 1),
                spec.len_bytes,
            )
            .with_ecn(spec.ecn);
            let mut drops = Vec::new();
            fq.enqueue(tins[spec.station], packet, arrival, |d| drops.push(d))
                .expect("tins exist");
            for d in drops {
                record_drop(&mut results, &d.packet, d.reason);
            }
            next_arrival[first] = arrival + spec.interval;
            continue;
        }
        // The link is free: serve the next tin with packets, round-robin.
        let mut sent = false;
        for k in 0..tins.len() {
            let tin = tins[(next_tin + k) % tins.len()];
            let mut drops = Vec::new();
            let out = fq
                .dequeue(tin, link_free, |d| drops.push(d))
                .expect("tins exist");
            for d in drops {
                record_drop(&mut results, &d.packet, d.reason);
            }
            if let Some(p) = out {
                let r = &mut results[flow_of(&p)];
                let sojourn = link_free - p.enqueue_time();
                r.delivered += 1;
                r.delivered_bytes += u64::from(p.len_bytes());
                r.ce_marked += u64::from(p.ecn == Ecn::Ce);
                r.sojourn_sum += sojourn;
                r.sojourn_max = r.sojourn_max.max(sojourn);
                link_free +=
                    Duration::from_nanos(u64::from(p.len_bytes()) * 8 * 1_000_000_000 / LINK_BPS);
                next_tin = (next_tin + k + 1) % tins.len();
                sent = true;
                break;
            }
        }
        if !sent {
            // Idle until the next arrival.
            link_free = arrival;
        }
    }

    println!(
        "{seconds} s, link {} Mbit/s, tins served round-robin, mac80211 FQ-CoDel defaults\n",
        LINK_BPS / 1_000_000
    );
    println!(
        "{:<9} {:>3} {:>8} {:>9} {:>9} {:>7} {:>7} {:>6} {:>12} {:>11}",
        "flow",
        "sta",
        "offered",
        "delivered",
        "Mbit/s",
        "ce",
        "codel",
        "limit",
        "mean sojourn",
        "max sojourn"
    );
    for (spec, r) in flows.iter().zip(&results) {
        let mean = if r.delivered > 0 {
            r.sojourn_sum / r.delivered
        } else {
            Duration::ZERO
        };
        println!(
            "{:<9} {:>3} {:>8} {:>9} {:>9.2} {:>7} {:>7} {:>6} {:>12} {:>11}",
            spec.name,
            spec.station,
            r.offered,
            r.delivered,
            r.delivered_bytes as f64 * 8.0 / seconds as f64 / 1e6,
            r.ce_marked,
            r.codel_drops,
            r.limit_drops,
            mean.to_string(),
            r.sojourn_max.to_string(),
        );
    }
    println!();
    for (i, &tin) in tins.iter().enumerate() {
        let s = fq.tin_stats(tin).expect("tins exist");
        println!(
            "tin {i}: backlog {} pkts {} B, flows {}, tx {} pkts, codel drops {} marks {}, overlimit {}, collisions {}",
            s.backlog_packets, s.backlog_bytes, s.flows, s.tx_packets, s.codel.drop_count, s.codel.ecn_mark, s.overlimit, s.collisions
        );
    }
    let g = fq.stats();
    println!(
        "all:   backlog {} pkts, memory {} B, overlimit {}, overmemory {}, collisions {}",
        g.backlog_packets, g.memory_usage_bytes, g.overlimit, g.overmemory, g.collisions
    );
}
