//! Cost per delivered packet against the number of stations (issue 19): a TCP download
//! and a 200 ms ping to every station (two fast at HT MCS15 for every slow one at
//! MCS0), run for `seconds` under `preset`, printing simulated seconds per wall second
//! (and per second of this thread's CPU time, which other jobs on the machine do not
//! inflate, and of its user time alone: the kernel's part, `kernel_s`, is mostly the
//! zeroing of pages touched for the first time) and the time per delivered TCP segment
//! and per delivered packet (every IP packet delivered over the air, either way).
//! Meant to be run under `valgrind --tool=callgrind` as well, whose instruction count
//! divided by the segments printed is the cost per segment independent of the
//! machine's load.
//!
//! `cargo run --release -p airq-sim --example scale [stations] [seconds] [preset]`
//! (defaults 100, 10, airtime).

use airq::phy::Band;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::BssConfig;
use airq_sim::testbed::ht20;
use airq_sim::transport::tcp::TcpConfig;

fn main() {
    let mut args = std::env::args().skip(1);
    let stations: u32 = args.next().map_or(100, |s| s.parse().expect("stations"));
    let seconds: f64 = args.next().map_or(10.0, |s| s.parse().expect("seconds"));
    let preset = args.next().unwrap_or_else(|| "airtime".to_string());
    let links = (0..stations)
        .map(|i| ht20(if i % 3 == 2 { 0 } else { 15 }))
        .collect();
    let mut flows: Vec<FlowSpec> = (0..stations)
        .map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink))
        .collect();
    flows.extend((0..stations).map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(200))));
    let scenario = BssScenario::new(BssConfig::ofdm(Band::Ghz5), links, flows);
    let config = ApConfig::preset(&preset).expect("a known preset");
    let mut sim = Simulation::new(scenario, &config).expect("a valid scenario");
    let sim_time = Duration::from_nanos((seconds * 1e9) as u64);
    let cpu = cpu_seconds();
    let kernel = kernel_seconds();
    let wall = std::time::Instant::now();
    sim.run_until(Instant::ZERO + sim_time);
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu).map(|(after, before)| after - before);
    let kernel = kernel_seconds()
        .zip(kernel)
        .map(|(after, before)| after - before);
    let metrics = sim.metrics();
    // Delivered in order, in full-sized segments.
    let mss = u64::from(TcpConfig::default().mss);
    let segments: u64 = metrics.flows[..stations as usize]
        .iter()
        .map(|f| f.rx_bytes)
        .sum::<u64>()
        / mss;
    let packets: u64 = metrics
        .stations
        .iter()
        .map(|s| s.rx_packets_down + s.rx_packets_up)
        .sum();
    let sim_s = sim_time.as_secs_f64();
    let cpu = match cpu.zip(kernel) {
        Some((cpu, kernel)) => format!(
            "cpu_s {cpu:.4} sim_per_cpu {:.1} us_per_packet_cpu {:.3} kernel_s {kernel:.3} \
             sim_per_user_cpu {:.1}",
            sim_s / cpu,
            cpu * 1e6 / packets.max(1) as f64,
            sim_s / (cpu - kernel),
        ),
        None => {
            "cpu_s - sim_per_cpu - us_per_packet_cpu - kernel_s - sim_per_user_cpu -".to_string()
        }
    };
    println!(
        "stations {stations} preset {preset} sim_s {sim_s:.1} wall_s {wall:.3} sim_per_wall {:.1} \
         {cpu} events {} exchanges {} tcp_segments {segments} packets {packets} \
         us_per_segment {:.3}",
        sim_s / wall,
        metrics.events,
        metrics.channel.exchanges,
        wall * 1e6 / segments.max(1) as f64
    );
}

/// The CPU time this thread has run (`CLOCK_THREAD_CPUTIME_ID`); `None` if the clock
/// cannot be read.
fn cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// The CPU time this thread has spent in the kernel (`getrusage(RUSAGE_THREAD)`'s
/// system time, which Linux splits from the exact total by tick samples): mostly the
/// zeroing of pages the run touches for the first time. `None` if it cannot be read.
fn kernel_seconds() -> Option<f64> {
    // SAFETY: an all-zero rusage is a valid value for the call to fill.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid rusage for the call to fill.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) } == 0;
    ok.then_some(u.ru_stime.tv_sec as f64 + u.ru_stime.tv_usec as f64 * 1e-6)
}

/// The allocator the `airq` CLI runs with (crates/airq-cli/src/main.rs), so that the
/// figures here are the CLI's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
