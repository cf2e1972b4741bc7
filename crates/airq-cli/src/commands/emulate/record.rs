//! The tools' measurements into the results file: ping, iperf3 and irtt output parsed,
//! and the real-time loop's lateness.

use crate::error::CliError;
use crate::results::{EmulationSummary, Iperf3Result, UdpReport};
use airq::{Duration, Instant};
use airq_emu::irtt;
use airq_emu::lateness::{Lateness, TOO_LATE_NS};
use airq_emu::realtime::LoopReport;
use airq_sim::apps::traffic::App;
use airq_sim::metrics::{Metrics, RttSample, VoipSummary};

use super::*;

/// The tools' measurements into the model's: each ping's replies as the flow's RTT
/// samples and its requests, within the measured span; each call's legs as irtt
/// measured them, rated as the simulator rates its own. Returns what iperf3 reported
/// of each TCP and UDP flow.
/// `flood_bps` is what a saturated UDP flow offered.
pub(super) fn record_tools(
    tools: &[(Tool, std::process::Output)],
    m: &mut Metrics,
    flood_bps: u64,
) -> Result<Vec<Iperf3Result>, CliError> {
    let (from, to) = (m.start, m.end());
    let mut iperf3 = Vec::new();
    for (tool, output) in tools {
        let text = String::from_utf8_lossy(&output.stdout);
        let failed = |what: &str| {
            CliError::new(format!(
                "flow {}: {what}: {}",
                tool.flow,
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        };
        match tool.spec.app {
            App::Ping { .. } => {
                let interval = tool.spec.interval().expect("a ping has an interval");
                let fm = &mut m.flows[tool.flow];
                let (mut sent, replies) = parse_ping(&text);
                if sent == 0 && stopped_at_grace(output) {
                    // Killed before its summary (replies still on their way from a
                    // starved queue): it sent on its schedule, so every request counts,
                    // not only those answered.
                    sent = super::tools::ping_count(tool.started, tool.stop, interval);
                    eprintln!(
                        "airq: note: flow {}: ping was stopped {:.0} s after the end before \
                         its summary; its {sent} requests are counted from its schedule",
                        tool.flow,
                        GRACE.as_secs_f64()
                    );
                }
                let start = tool.started - Instant::ZERO;
                for seq in 0..sent {
                    let at = start + interval * u64::from(seq);
                    if at >= from && at <= to {
                        fm.echo_requests.push(at);
                    }
                }
                for (seq, rtt) in replies {
                    let sent_at = start + interval * u64::from(seq);
                    if sent_at >= from && sent_at <= to {
                        fm.rtt.push(RttSample {
                            at: sent_at + rtt,
                            rtt,
                        });
                    }
                }
                fm.rtt.sort_by_key(|s| s.at);
            }
            App::Tcp { .. } => {
                let Some((goodput_mbps, retransmits, congestion)) = parse_iperf3(&text) else {
                    if stopped_at_grace(output) {
                        note_no_report(tool.flow);
                        continue;
                    }
                    return Err(failed("iperf3 gave no result"));
                };
                iperf3.push(Iperf3Result {
                    flow: tool.flow,
                    goodput_mbps,
                    retransmits,
                    congestion,
                    udp: None,
                    offered_mbps: None,
                });
            }
            App::Udp { load, .. } => {
                let Some((goodput_mbps, udp)) = parse_iperf3_udp(&text) else {
                    if stopped_at_grace(output) {
                        note_no_report(tool.flow);
                        continue;
                    }
                    return Err(failed("iperf3 gave no result"));
                };
                let offered_mbps = matches!(load, airq_sim::apps::traffic::Load::Saturated { .. })
                    .then_some(flood_bps as f64 / 1e6);
                iperf3.push(Iperf3Result {
                    flow: tool.flow,
                    goodput_mbps,
                    retransmits: 0,
                    congestion: None,
                    udp: Some(udp),
                    offered_mbps,
                });
            }
            App::Voip { config } => {
                let json = std::fs::read_to_string(&tool.json)
                    .map_err(|e| failed(&format!("irtt wrote no output ({e})")))?;
                let trips = irtt::parse(&json).map_err(|e| failed(&e))?;
                let origin = Instant::ZERO;
                let legs = irtt::legs(
                    &trips,
                    tool.wall_zero_ns,
                    origin + from,
                    origin + to,
                    config,
                );
                m.flows[tool.flow].voip = VoipSummary::of(&legs.down);
                if let Some(up) = tool.pair {
                    m.flows[up].voip = VoipSummary::of(&legs.up);
                }
            }
            App::Http { .. } => {
                // Each page load completed within the measured span, as the simulator
                // keeps those (it clears them when its warm-up ends).
                let start = tool.started - Instant::ZERO;
                let fm = &mut m.flows[tool.flow];
                for l in airq_emu::http::parse_loads(&text) {
                    let load = Duration::from_nanos(l.load_time.as_nanos() as u64);
                    let done = start + Duration::from_nanos(l.started.as_nanos() as u64) + load;
                    if done >= from && done <= to {
                        fm.page_loads.push(load);
                    }
                }
                if !output.status.success() {
                    return Err(failed("the web client failed"));
                }
            }
        }
    }
    Ok(iperf3)
}

/// Whether the tool was still running [`GRACE`] after the run's end and was killed
/// ([`run_tools`](super::tools::run_tools)). An iperf3 whose test ran can be: its
/// control connection is not marked (iperf3 marks only its data streams), so under
/// saturated VO/VI traffic it waits in the best-effort queues like any BE flow, and
/// the end-of-test exchange can take longer than the grace (`rrul`).
fn stopped_at_grace(output: &std::process::Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    // SIGKILL: `Child::kill`'s signal.
    output.status.signal() == Some(9)
}

/// Says that flow `k`'s iperf3 report is missing, and why.
fn note_no_report(k: usize) {
    eprintln!(
        "airq: note: flow {k}: iperf3 was stopped {:.0} s after the end before it reported (its \
         control connection is not marked: best effort); its report is left out of \
         `metadata.emulation.iperf3`, the model's count of what the flow carried is kept",
        GRACE.as_secs_f64()
    );
}

/// Requests sent and the replies (sequence number from 0, RTT) of `ping -n` output.
pub(super) fn parse_ping(text: &str) -> (u32, Vec<(u32, Duration)>) {
    let mut replies = Vec::new();
    let mut sent = 0;
    for line in text.lines() {
        if let (Some(seq), Some(time)) =
            (line.split("icmp_seq=").nth(1), line.split("time=").nth(1))
        {
            let seq: Option<u32> = seq.split_whitespace().next().and_then(|s| s.parse().ok());
            let ms: Option<f64> = time.trim_end_matches(" ms").trim().parse().ok();
            if let (Some(seq), Some(ms)) = (seq, ms) {
                let rtt = Duration::from_nanos((ms * 1e6).round() as u64);
                replies.push((seq.saturating_sub(1), rtt));
            }
        } else if let Some((n, _)) = line.split_once(" packets transmitted") {
            sent = n.trim().parse().unwrap_or(0);
        }
    }
    (sent, replies)
}

/// The receiver's goodput (Mbit/s) and loss and jitter of iperf3's UDP JSON: its
/// `end.sum_received` where it has one, else `end.sum` (the receiver's report).
pub(super) fn parse_iperf3_udp(text: &str) -> Option<(f64, UdpReport)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let end = &v["end"];
    let sum = if end["sum_received"].is_object() {
        &end["sum_received"]
    } else {
        &end["sum"]
    };
    let mbps = sum["bits_per_second"].as_f64()? / 1e6;
    let packets = sum["packets"].as_u64()?;
    let lost_packets = sum["lost_packets"].as_u64()?;
    let report = UdpReport {
        packets,
        lost_packets,
        jitter_ms: sum["jitter_ms"].as_f64().unwrap_or(0.0),
    };
    Some((mbps, report))
}

/// The receiver's goodput (`end.sum_received`, Mbit/s), the sender's retransmits
/// (`end.sum_sent.retransmits`) and congestion control (`end.sender_tcp_congestion`)
/// of iperf3's JSON.
pub(super) fn parse_iperf3(text: &str) -> Option<(f64, u64, Option<String>)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let mbps = v["end"]["sum_received"]["bits_per_second"].as_f64()? / 1e6;
    let retransmits = v["end"]["sum_sent"]["retransmits"].as_u64().unwrap_or(0);
    let cc = v["end"]["sender_tcp_congestion"]
        .as_str()
        .map(str::to_string);
    Some((mbps, retransmits, cc))
}

pub(super) fn summary(
    report: &LoopReport,
    iperf3: Vec<Iperf3Result>,
    pcap_frames: Option<u64>,
    host_queue_drops: Vec<u64>,
) -> EmulationSummary {
    let l = &report.lateness;
    EmulationSummary {
        lateness_p50_us: l.percentile_us(50.0),
        lateness_p99_us: l.percentile_us(99.0),
        lateness_max_us: l.max_us(),
        events: l.count(),
        events_over_1ms: l.too_late(),
        delivery_lateness_p99_us: report.delivery_lateness.percentile_us(99.0),
        packets_read: report.read_packets,
        packets_delivered: report.delivered_packets,
        packets_not_carried: report.not_carried,
        realtime_priority: report.realtime_priority,
        pcap_frames,
        iperf3,
        host_queue_drops,
    }
}

pub(super) fn lateness_line(report: &LoopReport) -> String {
    let l: &Lateness = &report.lateness;
    format!(
        "real time: {} events, lateness p50 {:.0} us, p99 {:.0} us, max {:.0} us (at {:.2} s); \
         {} packets read from the hosts, {} delivered",
        l.count(),
        l.percentile_us(50.0),
        l.percentile_us(99.0),
        l.max_us(),
        l.max_at_s(),
        report.read_packets,
        report.delivered_packets
    )
}

/// A warning when a host's own interface dropped packets before the emulated AP read
/// them: what the model measured is then not all that host's tool sent.
pub(super) fn host_drop_warning(e: Option<&EmulationSummary>) -> Option<String> {
    let drops = &e?.host_queue_drops;
    let total: u64 = drops.iter().sum();
    (total > 0).then(|| {
        format!(
            "airq: WARNING: the hosts' own interfaces dropped {total} packets before the \
             emulated AP read them (server, then each station: {drops:?}): a sender's host \
             queue, not the modelled BSS, limited what it offered"
        )
    })
}

/// Loud warnings when the loop fell behind the clock: the model's timing was not kept.
pub(super) fn lateness_warnings(report: &LoopReport) -> Vec<String> {
    let l = &report.lateness;
    let mut out = Vec::new();
    if l.percentile_us(99.0) * 1000.0 > TOO_LATE_NS as f64 {
        out.push(format!(
            "airq: WARNING: the emulator fell behind real time: event lateness p99 {:.0} us \
             (above {} us); {} of {} events ran more than 1 ms late. The frames' timing is \
             not the model's: do not use these figures. Run on an idle machine, or lower the \
             load.",
            l.percentile_us(99.0),
            TOO_LATE_NS / 1000,
            l.too_late(),
            l.count()
        ));
    } else if l.too_late() > 0 {
        out.push(format!(
            "airq: note: {} of {} events ran more than 1 ms late (max {:.1} ms at {:.2} s)",
            l.too_late(),
            l.count(),
            l.max_us() / 1000.0,
            l.max_at_s()
        ));
    }
    if !report.realtime_priority {
        out.push(
            "airq: note: the loop could not get a real-time priority (SCHED_FIFO); other \
             processes may delay it"
                .to_string(),
        );
    }
    out
}
