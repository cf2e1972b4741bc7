//! A soak test (issue 20, "overload and soak tests"): an AP overloaded about 1000× — a
//! UDP stream far faster than the channel to each of four stations — simulated for ten
//! minutes, with the process's resident memory (`VmRSS` of /proc/self/status) printed at
//! intervals of simulated time beside what the run did (events, packets delivered and
//! dropped, where, and the AP's backlog). A simulator whose queues are bounded (the
//! AP's qdisc and MAC limits, the wired link's txqueuelen) keeps a flat memory however
//! long the overload lasts; only the time series grow, by one sample per step (and a
//! queue-depth sample every 10 ms): the RSS less the series' heap is what must stay
//! flat.
//!
//! ```sh
//! cargo run --release -p airq-cli --example soak -- [SECONDS] [INTERVAL] [PRESET] [SCENARIO]
//! ```
//! Defaults: 600 simulated seconds, a line every 60, the `airtime_aql` preset, and the
//! scenario below (any scenario file may be given instead). Exits 1 if the memory at
//! the end, less the series, is more than 10% (and 8 MB) above the first interval's.

use airq::Instant;
use airq_cli::build::build;
use airq_cli::scenario;
use airq_sim::bss::Simulation;
use airq_sim::mac::txpath::DropCause;
use airq_sim::metrics::{Metrics, QueueDepth, Sample, TcpSenderSample};
use std::mem::size_of;

/// Four HT MCS0 stations (6.5 Mbit/s PHY rate each: about 5 Mbit/s of UDP goodput for
/// the whole BSS), each sent 1,500 Mbit/s of UDP over a 10 Gbit/s wired link: 6 Gbit/s
/// offered, about 1000× what the channel carries.
const OVERLOAD: &str = r#"name = "soak-overload"
description = "4 HT MCS0 stations, 1.5 Gbit/s of UDP to each: about 1000x the channel"
duration = 600.0
step = 1.0
seed = 1

[bss]
band = "5GHz"

[wired]
rate_mbps = 10000
delay_ms = 1.0

[[station]]
name = "slow"
count = 4
standard = "ht"
mcs = 0

[[traffic]]
test = "udp_cbr"
rate_mbps = 1500
"#;

/// The heap the time series hold, in kB: the one thing that grows with the duration
/// by design (a sample per step, a queue-depth sample every 10 ms up to a million).
fn series_kb(m: &Metrics) -> u64 {
    let per_sample: usize = m
        .series
        .iter()
        .map(|s| {
            (s.rx_bytes.capacity() + s.flow_rx_bytes.capacity()) * size_of::<u64>()
                + (s.airtime.capacity() + s.airtime_up.capacity()) * size_of::<airq::Duration>()
                + s.flow_tcp.capacity() * size_of::<(u32, TcpSenderSample)>()
        })
        .sum();
    let bytes = m.series.capacity() * size_of::<Sample>()
        + m.ap_queue.capacity() * size_of::<QueueDepth>()
        + per_sample;
    bytes as u64 / 1024
}

/// The process's resident memory, in kB.
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).map_or(600.0, |a| a.parse().expect("SECONDS"));
    let interval: f64 = args.get(2).map_or(60.0, |a| a.parse().expect("INTERVAL"));
    let preset = args.get(3).map_or("airtime_aql", String::as_str);
    let duration = format!("duration={seconds}");
    let s = match args.get(4) {
        Some(path) => scenario::load(path.as_ref(), &[duration]),
        None => scenario::parse("soak-overload.toml", OVERLOAD, &[duration]),
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let input = build(&s, preset).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(input.bss, &input.ap).expect("a runnable scenario");
    println!(
        "{} under {preset}: {seconds} simulated s, RSS every {interval} s",
        s.name
    );
    println!(
        "{:>8} {:>8} {:>8} {:>10} {:>14} {:>13} {:>11} {:>13} {:>11} {:>10}",
        "sim s",
        "wall s",
        "RSS MB",
        "series MB",
        "RSS-series MB",
        "events",
        "delivered",
        "dropped",
        "wire drops",
        "AP backlog"
    );
    let started = std::time::Instant::now();
    let mut first = None;
    let mut last = 0;
    let mut t = 0.0;
    while t < seconds {
        t = (t + interval).min(seconds);
        sim.run_until(Instant::from_nanos((t * 1e9).round() as u64));
        let m = sim.metrics();
        let delivered: u64 = m.flows.iter().map(|f| f.rx_packets).sum();
        let dropped: u64 = m.stations.iter().map(|s| s.drops.iter().sum::<u64>()).sum();
        let wire: u64 = m
            .stations
            .iter()
            .map(|s| s.drops_of(DropCause::WireQueue))
            .sum();
        let rss = rss_kb();
        let series = series_kb(m);
        last = rss.saturating_sub(series);
        first.get_or_insert(last);
        println!(
            "{t:>8.0} {:>8.1} {:>8.1} {:>10.1} {:>14.1} {:>13} {:>11} {:>13} {:>11} {:>10}",
            started.elapsed().as_secs_f64(),
            rss as f64 / 1024.0,
            series as f64 / 1024.0,
            last as f64 / 1024.0,
            m.events,
            delivered,
            dropped,
            wire,
            sim.ap().backlog().total().packets(),
        );
    }
    let first = first.unwrap_or(last);
    let growth = last as f64 / first as f64 - 1.0;
    println!(
        "RSS less the series: {:.1} MB after the first {interval} s, {:.1} MB at the end: {:+.1}%",
        first as f64 / 1024.0,
        last as f64 / 1024.0,
        growth * 100.0
    );
    if last > first + 8 * 1024 && growth > 0.10 {
        eprintln!("memory grew under a steady overload");
        std::process::exit(1);
    }
}
