//! Simulator measurements → results: the one place where `airq_sim::metrics::Metrics`
//! becomes a [`ResultsFile`]. Everything here is measured by the simulator; this file
//! only converts units and summarises (shares, means).

use crate::build::SimInputs;
use crate::results::RadioSummary;
use crate::results::{
    ChannelSummary, FlowSummary, Metadata, Percentiles, QueueSeries, ResultsFile, Series,
    StallSummary, StarvationSummary, StationSummary, TcpResult, VoipResult, FORMAT_NAME,
    FORMAT_VERSION, PING_REPLY_DUE_S,
};
use crate::scenario::Scenario;
use airq_sim::apps::traffic::{App, Direction, FlowSpec};
use airq_sim::mac::link::StationLink;
use airq_sim::mac::rate_control::RateControlConfig;
use airq_sim::mac::txpath::DropCause;
use airq_sim::metrics::distribution::Distribution;
use airq_sim::metrics::radio::RadioMetrics;
use airq_sim::metrics::{EchoCount, FlowMetrics, Metrics, StationMetrics};

/// How a run went, apart from what it measured.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The AP preset.
    pub config: String,
    /// The run's label.
    pub variant: String,
    /// The variant's changes.
    pub variant_set: Vec<String>,
    /// The scenario text with the `--set`s (not the variant's changes).
    pub scenario_text: String,
    /// The command line of the run.
    pub command_line: Vec<String>,
    /// Wall-clock start, UTC, RFC 3339.
    pub started_utc: String,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
}

/// The results file of one run of `scenario`.
pub fn collect(
    scenario: &Scenario,
    input: &SimInputs,
    metrics: &Metrics,
    info: RunInfo,
) -> ResultsFile {
    let ap = &input.ap;
    let shares = metrics.airtime_shares();
    let by_station = metrics.flows_by_station(scenario.stations.len());
    let stations = scenario
        .stations
        .iter()
        .zip(&metrics.stations)
        .zip(&by_station)
        .enumerate()
        .map(|(i, ((station, m), flows))| {
            let goodput = metrics.flows_goodput_mbps(flows);
            let mut summary = station_summary(station, m, goodput, shares[i]);
            // A station's ping figures are its round trips to the server: a ping to
            // another station (two hops through the AP) is its flow's alone.
            let to_server: Vec<usize> = flows
                .iter()
                .copied()
                .filter(|&f| input.bss.flows[f].peer().is_none())
                .collect();
            summary.ping_rtt_ms = ping_percentiles(metrics, &to_server);
            summary.ping_loss = ping_loss(input, metrics, &to_server);
            // A cause only the time-based retry limit produces, listed when it is on:
            // results of runs without it stay as they were.
            if ap.retry_time.is_none() {
                summary.drops.remove(DropCause::RetryTimeLimit.name());
            }
            summary
        })
        .collect();
    let flows = input
        .bss
        .flows
        .iter()
        .zip(&input.flow_tests)
        .zip(&metrics.flows)
        .enumerate()
        .map(|(i, ((spec, test), m))| FlowSummary {
            station: scenario.stations[spec.station.index()].name.clone(),
            test: test.to_string(),
            direction: match spec.direction {
                Direction::Downlink => "down",
                Direction::Uplink => "up",
            }
            .to_string(),
            to: spec
                .peer()
                .map(|p| scenario.stations[p.index()].name.clone()),
            dscp: spec.dscp.get(),
            goodput_mbps: metrics.flow_goodput_mbps(i),
            rtt_ms: m
                .rtt
                .iter()
                .map(|s| [s.at.as_secs_f64(), ms(s.rtt)])
                .collect(),
            pings_sent: echo_count(spec, m, metrics).map(|e| e.sent),
            pings_lost: echo_count(spec, m, metrics).map(|e| e.lost),
            voip: m.voip.map(|v| VoipResult {
                sent: v.sent,
                received: v.received,
                loss_fraction: v.loss_fraction,
                jitter_ms: ms(v.jitter),
                mean_delay_ms: v.mean_delay_ms,
                mouth_to_ear_ms: v.mouth_to_ear_ms,
                r: v.r,
                mos: v.mos,
            }),
            tcp: m.tcp.map(|t| TcpResult {
                retransmits: t.retransmits,
                rto_timeouts: t.rto_timeouts,
                ce_received: t.ce_received,
                ecn_reductions: t.ecn_reductions,
                connections: t.connections,
            }),
            page_load_s: m.page_loads.iter().map(|d| d.as_secs_f64()).collect(),
        })
        .collect();
    let c = &metrics.channel;
    let channel = ChannelSummary {
        busy_s: c.busy.as_secs_f64(),
        collision_s: c.collision.as_secs_f64(),
        beacon_s: c.beacon.as_secs_f64(),
        idle_s: c.idle(metrics.duration).as_secs_f64(),
        exchanges: c.exchanges,
        collisions: c.collisions,
    };
    ResultsFile {
        format: FORMAT_NAME.to_string(),
        format_version: FORMAT_VERSION,
        metadata: Metadata {
            airq_version: env!("CARGO_PKG_VERSION").to_string(),
            scenario: scenario.name.clone(),
            scenario_file: scenario.path.clone(),
            scenario_text: info.scenario_text,
            overrides: scenario.overrides.clone(),
            seed: scenario.seed,
            config: info.config,
            variant: info.variant,
            variant_set: info.variant_set,
            ap_config: crate::ap_data::ap_data(ap),
            command_line: info.command_line,
            started_utc: info.started_utc,
            wall_s: info.wall_s,
            events: metrics.events,
            duration_s: scenario.duration_s(),
            omit_s: metrics.start.as_secs_f64(),
            step_s: scenario.step.as_secs_f64(),
            bss_timing: scenario.derived_timing.clone(),
            bss_protection: scenario.protection_note.clone(),
            emulation: None,
        },
        stations,
        flows,
        channel,
        series: series(metrics),
        stalls: metrics
            .stalls
            .iter()
            .map(|st| StallSummary {
                station: scenario.stations[st.station.index()].name.clone(),
                idle_since_s: st.idle_since.as_secs_f64(),
                detected_at_s: st.detected_at.as_secs_f64(),
            })
            .collect(),
        starvation: metrics
            .starvation
            .iter()
            .map(|st| StarvationSummary {
                station: scenario.stations[st.station.index()].name.clone(),
                since_s: st.since.as_secs_f64(),
                until_s: st.until.map(|t| t.as_secs_f64()),
                above_mac: st.above_mac,
                behind_higher_ac: st.behind_higher_ac,
            })
            .collect(),
        ap_queue: QueueSeries {
            step_s: input.bss.queue_sample_step.map_or(0.0, |s| s.as_secs_f64()),
            queued_packets: metrics.ap_queue.iter().map(|d| d.queued_packets).collect(),
            driver_frames: metrics.ap_queue.iter().map(|d| d.driver_frames).collect(),
            driver_airtime_ms: metrics
                .ap_queue
                .iter()
                .map(|d| ms(d.driver_airtime))
                .collect(),
        },
        admission: None,
        aggregation: None,
        flow_index: Default::default(),
    }
}

fn ms(d: airq::Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

/// Records the CoDel parameters each station had at the end (`codel`, by station), when
/// `ap` set them per station; files of other runs stay as they were.
pub fn record_station_codel(
    results: &mut ResultsFile,
    ap: &airq_sim::ap::ApConfig,
    codel: impl IntoIterator<Item = Option<airq::codel::CodelParams>>,
) {
    if !ap.slow_station_codel {
        return;
    }
    for (station, c) in results.stations.iter_mut().zip(codel) {
        station.codel = c.map(Into::into);
    }
}

/// Percentiles of the RTTs of every ping flow among a station's `flows`; `None`
/// without replies.
fn ping_percentiles(metrics: &Metrics, flows: &[usize]) -> Option<Percentiles> {
    let rtts: Vec<f64> = flows
        .iter()
        .flat_map(|&f| metrics.flows[f].rtt.iter().map(|s| ms(s.rtt)))
        .collect();
    let p = Distribution::new(rtts).ok()?.percentiles()?;
    Some(Percentiles {
        p50: p.p50,
        p90: p.p90,
        p99: p.p99,
    })
}

/// How long after a request its reply is due ([`crate::results::PING_REPLY_DUE_S`]).
const PING_REPLY_DUE: airq::Duration = airq::Duration::from_secs(PING_REPLY_DUE_S);

/// A ping flow's requests whose reply was due by the end of the run, and those lost;
/// `None` for other flows.
fn echo_count(spec: &FlowSpec, m: &FlowMetrics, metrics: &Metrics) -> Option<EchoCount> {
    matches!(spec.app, App::Ping { .. }).then(|| m.echo_count(metrics.end(), PING_REPLY_DUE))
}

/// The fraction of the requests of the ping flows among a station's `flows` never answered, of those
/// whose reply was due; `None` without ping flows or requests due.
fn ping_loss(input: &SimInputs, metrics: &Metrics, flows: &[usize]) -> Option<f64> {
    let (sent, lost) = flows
        .iter()
        .filter_map(|&f| echo_count(&input.bss.flows[f], &metrics.flows[f], metrics))
        .fold((0, 0), |(s, l), e| (s + e.sent, l + e.lost));
    (sent > 0).then(|| lost as f64 / sent as f64)
}

fn station_summary(
    station: &crate::scenario::Station,
    m: &StationMetrics,
    goodput_mbps: f64,
    airtime_share: f64,
) -> StationSummary {
    let received = m.rx_packets_down + m.rx_packets_up;
    StationSummary {
        name: station.name.clone(),
        rate: station.link.rate.to_string(),
        phy_rate_mbps: station.link.rate.data_rate_mbps(),
        goodput_mbps,
        rx_bytes_down: m.rx_bytes_down,
        rx_bytes_up: m.rx_bytes_up,
        rx_packets_down: m.rx_packets_down,
        rx_packets_up: m.rx_packets_up,
        airtime_share,
        airtime_down_s: m.airtime_down.as_secs_f64(),
        airtime_up_s: m.airtime_up.as_secs_f64(),
        drops: DropCause::ALL
            .iter()
            .map(|&c| (c.name().to_string(), m.drops_of(c)))
            .collect(),
        mpdus_per_ampdu_down: StationMetrics::mean_mpdus(&m.ampdu_mpdus_down),
        mpdus_per_ampdu_up: StationMetrics::mean_mpdus(&m.ampdu_mpdus_up),
        mpdu_failures_down: m.mpdu_failures_down,
        mpdu_failures_up: m.mpdu_failures_up,
        collisions: m.collisions,
        mean_delay_ms: (received > 0)
            .then(|| m.delay_sum.as_nanos() as f64 / received as f64 / 1e6),
        max_delay_ms: ms(m.delay_max),
        ping_rtt_ms: None,
        ping_loss: None,
        rate_control: rate_control_name(&station.link.rate_control),
        radio_down: radio_summary(&station.link, &m.radio_down),
        radio_up: radio_summary(&station.link, &m.radio_up),
        codel: None,
    }
}

/// The rate control's name, `None` for a fixed rate.
fn rate_control_name(config: &RateControlConfig) -> Option<String> {
    match config {
        RateControlConfig::Fixed => None,
        RateControlConfig::MinstrelHt(_) => Some("minstrel_ht".into()),
    }
}

/// One direction's SNR and rates; `None` for a fixed rate without a channel model (one
/// rate, no SNR: nothing the station's `rate` does not say).
fn radio_summary(link: &StationLink, m: &RadioMetrics) -> Option<RadioSummary> {
    if link.rate_control == RateControlConfig::Fixed && link.channel.is_none() {
        return None;
    }
    let by_rate = m
        .mpdus_by_rate
        .iter()
        .map(|(rate, n)| (rate.to_string(), rate.data_rate_mbps(), *n))
        .collect();
    Some(RadioSummary::new(m.mean_snr_db(), by_rate, m.rts_mpdus))
}

fn series(metrics: &Metrics) -> Series {
    let mut s = Series::default();
    for sample in &metrics.series {
        s.t_s.push(sample.at.as_secs_f64());
        s.rx_bytes.push(sample.rx_bytes.clone());
        s.airtime_s
            .push(sample.airtime.iter().map(|a| a.as_secs_f64()).collect());
        s.airtime_up_s
            .push(sample.airtime_up.iter().map(|a| a.as_secs_f64()).collect());
        s.flow_rx_bytes.push(sample.flow_rx_bytes.clone());
        let tcp: Vec<_> = (0..metrics.flows.len() as u32)
            .map(|f| sample.tcp_sender(f))
            .collect();
        s.flow_tcp_cwnd
            .push(tcp.iter().map(|t| t.map(|t| t.cwnd_segments)).collect());
        s.flow_tcp_rtt_ms
            .push(tcp.iter().map(|t| t.and_then(|t| t.srtt).map(ms)).collect());
        s.ap_queued_packets.push(sample.ap.queued_packets);
        s.ap_driver_frames.push(sample.ap.driver_frames);
        s.ap_driver_airtime_ms.push(ms(sample.ap.driver_airtime));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;
    use airq::Duration;
    use airq_sim::metrics::{FlowMetrics, QueueDepth, Sample, TcpSenderSample};

    const TEXT: &str = "name = \"t\"\nduration = 2.0\nstep = 1.0\n[[station]]\nname = \"a\"\n\
        standard = \"ht\"\nmcs = 7\n[[station]]\nname = \"b\"\nstandard = \"ht\"\nmcs = 0\n\
        [[traffic]]\ntest = \"udp_flood\"\n";

    #[test]
    fn measurements_become_summaries_in_their_units() {
        let scenario = parse("t.toml", TEXT, &[]).unwrap();
        let ms = Duration::from_millis;
        let mut a = StationMetrics {
            rx_bytes_down: 2_000_000,
            rx_packets_down: 4,
            airtime_down: ms(300),
            delay_sum: ms(40),
            delay_max: ms(25),
            ampdu_mpdus_down: vec![0, 2, 0, 2],
            ..StationMetrics::default()
        };
        a.drops[DropCause::FqCodel as usize] = 3;
        let b = StationMetrics {
            rx_bytes_up: 500_000,
            airtime_up: ms(100),
            ..StationMetrics::default()
        };
        let flow = |station, rx_bytes| FlowMetrics {
            rx_bytes,
            ..FlowMetrics::new(airq::StationId(station))
        };
        let metrics = Metrics {
            stations: vec![a, b],
            flows: vec![flow(0, 2_000_000), flow(1, 500_000)],
            series: vec![Sample {
                at: ms(1000),
                rx_bytes: vec![1, 2],
                airtime: vec![ms(3), ms(4)],
                airtime_up: vec![ms(1), ms(0)],
                flow_rx_bytes: vec![1, 2],
                flow_tcp: vec![(
                    0,
                    TcpSenderSample {
                        cwnd_segments: 42,
                        srtt: Some(Duration::from_micros(12_500)),
                    },
                )],
                ap: QueueDepth {
                    queued_packets: 7,
                    driver_frames: 8,
                    driver_airtime: Duration::from_micros(1500),
                },
            }],
            events: 99,
            duration: ms(2000),
            ..Metrics::default()
        };
        let info = RunInfo {
            config: "fifo".into(),
            variant: "fifo".into(),
            variant_set: Vec::new(),
            scenario_text: scenario.text.clone(),
            command_line: vec!["airq".into()],
            started_utc: "2025-01-01T00:00:00Z".into(),
            wall_s: 0.5,
        };
        let input = crate::build::build(&scenario, "fifo").unwrap();
        let r = collect(&scenario, &input, &metrics, info);
        let (sa, sb) = (&r.stations[0], &r.stations[1]);
        // Application bytes: 2 MB in 2 s = 8 Mbit/s; 0.5 MB up = 2 Mbit/s.
        assert_eq!((sa.goodput_mbps, sb.goodput_mbps), (8.0, 2.0));
        assert_eq!((sa.airtime_share, sb.airtime_share), (0.75, 0.25));
        assert_eq!(sa.mean_delay_ms, Some(10.0));
        assert_eq!(sb.mean_delay_ms, None, "nothing received");
        assert_eq!(sa.max_delay_ms, 25.0);
        assert_eq!(sa.mpdus_per_ampdu_down, 2.0, "(2x1 + 2x3) MPDUs / 4 PPDUs");
        assert_eq!(sa.drops["fq_codel"], 3);
        assert_eq!(sa.total_drops(), 3);
        assert_eq!(sa.rate, "HT MCS 7 20 MHz LGI");
        assert_eq!(r.series.t_s, [1.0]);
        assert_eq!(r.series.airtime_s, [[0.003, 0.004]]);
        assert_eq!(r.series.airtime_up_s, [[0.001, 0.0]]);
        assert_eq!(r.series.ap_driver_airtime_ms, [1.5]);
        // The second flow (a UDP flood) has no TCP sender: null.
        assert_eq!(r.series.flow_tcp_cwnd, [[Some(42), None]]);
        assert_eq!(r.series.flow_tcp_rtt_ms, [[Some(12.5), None]]);
        assert_eq!(
            (r.metadata.events, r.metadata.duration_s, r.metadata.step_s),
            (99, 2.0, 1.0)
        );
        assert_eq!(r.channel.idle_s, 2.0);
    }
}
