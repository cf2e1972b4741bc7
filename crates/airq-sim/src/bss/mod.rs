//! The simulator: one event loop over the BSS — traffic sources, the wired link to the
//! server, the AP's transmit path, the stations' FIFOs, and the medium their EDCA
//! functions contend for. Integer nanoseconds throughout; one root seed.

use crate::ap::{ApConfig, ApTx};
use air::Air;
pub use error::SimError;
pub use external::{AirFrame, Delivered, Host, InjectError};
use hosts::{FlowState, Hosts};
use http::HttpState;
use nodes::Nodes;
use tcp_flows::Side;

mod air;
mod dispatch;
mod error;
mod external;
mod hosts;
mod http;
mod nodes;
mod tcp_flows;
use crate::apps::traffic::{App, Direction, FlowSpec, Load};
use crate::apps::voip_stats::{VoipStats, DELIVERY_DUE};
use crate::engine::event::EventQueue;
use crate::engine::rng::RngRoot;
use crate::mac::edca::{EdcaAcParams, EdcaParams};
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::medium::{Access, Medium};
use crate::mac::rate_control::groups::UnsupportedRate;
use crate::mac::rate_control::{RateControl, RateControlConfig};
use crate::mac::timing::ack_duration;
use crate::metrics::starvation::{StarvationWatch, StationSample};
use crate::metrics::{
    FlowMetrics, Metrics, QueueDepth, Sample, Stall, StationMetrics, TcpCounters, VoipSummary,
};
use crate::net::dscp::tid_for_dscp;
use crate::net::packet::NodeId;
pub use crate::net::wired::WiredLink;
use crate::station::{StationQueue, StationTx, STATION_QUEUE_PACKETS};
use airq::{Ac, Duration, Instant, StationId, Tid};

/// The default stall threshold: 100 ms of an idle medium while the AP holds frames no
/// policy holds back. Far above any legitimate gap (the longest PPDU is 5.5 ms, the
/// host latency tens of µs), short enough to flag a stall in any run.
pub const DEFAULT_STALL_AFTER: Duration = Duration::from_millis(100);

/// Everything about a BSS the simulator needs, apart from the AP's queueing.
#[derive(Clone, Debug, PartialEq)]
pub struct BssScenario {
    pub bss: BssConfig,
    pub stations: Vec<StationLink>,
    pub flows: Vec<FlowSpec>,
    pub wired: WiredLink,
    /// Packets a station's own queues hold.
    pub station_queue_packets: usize,
    /// Each station's queues, by index; a station past the end (all of them when it is
    /// empty) has FIFOs ([`StationQueue::Fifo`]).
    pub station_queues: Vec<StationQueue>,
    /// Step of the time series (flent's default 200 ms); `None` takes no samples.
    pub sample_step: Option<Duration>,
    /// Step of the AP queue-depth samples behind the depth histograms (finer than the
    /// time series: a firmware queue drains in milliseconds); `None` takes none.
    pub queue_sample_step: Option<Duration>,
    /// How long the medium may stay idle while the AP holds frames that no policy holds
    /// back before the run records a [`Stall`]; `None` checks
    /// nothing.
    pub stall_after: Option<Duration>,
    /// Where the measurements start: [`Simulation::measured`] leaves out what happened
    /// before (a warm-up, iperf3's `--omit`). Zero measures the whole run. The time
    /// series cover the whole run either way.
    pub measure_from: Duration,
    pub seed: u64,
}

impl BssScenario {
    pub fn new(bss: BssConfig, stations: Vec<StationLink>, flows: Vec<FlowSpec>) -> Self {
        BssScenario {
            bss,
            stations,
            flows,
            wired: WiredLink::default(),
            station_queue_packets: STATION_QUEUE_PACKETS,
            station_queues: Vec::new(),
            sample_step: Some(Duration::from_millis(200)),
            queue_sample_step: Some(Duration::from_millis(10)),
            stall_after: Some(DEFAULT_STALL_AFTER),
            measure_from: Duration::ZERO,
            seed: 1,
        }
    }
}

#[derive(Debug)]
enum Event {
    /// The medium's next access, valid if the generation is current.
    Contend(u64),
    ExchangeEnd,
    /// Target beacon transmission time.
    Beacon,
    /// Next packet of a periodic flow (CBR, ping).
    Periodic(u32),
    /// A flow starts.
    Start(u32),
    /// A bulk TCP flow's test ends: its senders stop writing and close.
    Stop(u32),
    /// The packet at the head of the wired link's direction `0` (towards the AP) or
    /// `1` (towards the server) arrives.
    WireArrival(usize),
    /// The timer of one end of a TCP connection.
    TcpTimer {
        flow: u32,
        conn: u32,
        side: Side,
    },
    /// Take a time-series sample.
    Sample,
    /// Take a queue-depth sample.
    QueueSample,
    /// The AP asked to be woken ([`ApTx::poll_at`]), valid if the generation is current.
    ApWake(u64),
    /// The medium has been idle since this instant for the stall threshold: check the
    /// AP's backlog.
    StallCheck(Instant),
    /// The warm-up ends: the measurements start ([`BssScenario::measure_from`]).
    MeasureFrom,
}

/// Rate control of each link that asks for it: the AP's towards the station and the
/// station's towards the AP, each with its own random stream (the sample table).
fn install_rate_control(
    root: &RngRoot,
    links: &[StationLink],
    ap: &mut ApTx,
    stations: &mut [StationTx],
) -> Result<(), SimError> {
    for (i, link) in links.iter().enumerate() {
        if link.rate_control == RateControlConfig::Fixed {
            continue;
        }
        let station = StationId(i as u32);
        let error = |e: UnsupportedRate| SimError::RateControl {
            station,
            reason: e.0,
        };
        let mut rng = root.stream("rate-control-down", i as u64);
        let down = RateControl::new(&link.rate_control, link.rate, &mut rng).map_err(error)?;
        let mut rng = root.stream("rate-control-up", i as u64);
        let up = RateControl::new(&link.rate_control, link.rate, &mut rng).map_err(error)?;
        ap.set_rate_control(station, down);
        stations[i].set_rate_control(up);
    }
    Ok(())
}

/// A simulation of one BSS: the event loop over its layers. The hosts hand it the packets
/// they send, the nodes' transmit paths queue them, the air carries what the nodes
/// send and reports what it delivered, and the loop hands that back to the hosts; each
/// layer says when it next needs attention (the AP's [`ApTx::poll_at`], the medium's
/// next access, the hosts' timers) and the loop wakes it then.
pub struct Simulation {
    now: Instant,
    /// A lane per wired direction (their arrivals are most of the events).
    events: EventQueue<Event, 2>,
    scenario: BssScenario,
    nodes: Nodes,
    air: Air,
    hosts: Hosts,
    ap_wake_gen: u64,
    ap_wake_at: Option<Instant>,
    metrics: Metrics,
    /// Watches the stations for starvation in the measured time.
    starvation: StarvationWatch,
    /// The counters when the warm-up ended, if one has.
    warmup: Option<Metrics>,
    /// Every real packet's wireless hops, when asked for ([`Simulation::record_air`]).
    air_log: Option<external::AirLog>,
}

impl Simulation {
    /// Whether [`Simulation::new`] would accept `scenario` and `ap`, without building
    /// anything: `airq check` of tens of thousands of stations in a few MB. `new` begins
    /// with it, and the rest of `new` cannot fail.
    pub fn check(scenario: &BssScenario, ap: &ApConfig) -> Result<(), SimError> {
        let bss = &scenario.bss;
        if Ac::ALL
            .iter()
            .any(|&ac| bss.ap_edca_params().get(ac).txop_limit != bss.edca.get(ac).txop_limit)
        {
            return Err(SimError::ApTxopLimit);
        }
        let stations_count = scenario.stations.len();
        if scenario.station_queues.len() > stations_count {
            return Err(SimError::StationQueue(StationId(stations_count as u32)));
        }
        for (i, q) in scenario.station_queues.iter().enumerate() {
            if let StationQueue::FqMac(p) = q {
                p.validate()
                    .map_err(|_| SimError::StationQueue(StationId(i as u32)))?;
            }
        }
        for (flow, spec) in scenario.flows.iter().enumerate() {
            if spec.station.index() >= stations_count {
                return Err(SimError::UnknownStation {
                    flow,
                    station: spec.station,
                    stations: stations_count,
                });
            }
            let periodic = matches!(
                spec.app,
                App::Ping { .. }
                    | App::Udp {
                        load: Load::Cbr { .. },
                        ..
                    }
            );
            if periodic && spec.interval().is_none() {
                return Err(SimError::ZeroRate { flow });
            }
            if let Some(peer) = spec.peer() {
                if peer.index() >= stations_count {
                    return Err(SimError::UnknownPeer {
                        flow,
                        peer,
                        stations: stations_count,
                    });
                }
                if peer == spec.station {
                    return Err(SimError::PeerIsItself {
                        flow,
                        station: peer,
                    });
                }
                if spec.direction != Direction::Uplink {
                    return Err(SimError::PeerPingNotUplink { flow });
                }
            }
            if let App::Tcp { config } | App::Http { config, .. } = &spec.app {
                config
                    .validate()
                    .map_err(|error| SimError::Tcp { flow, error })?;
            }
            if let App::Http { page, .. } = &spec.app {
                if page.objects.is_empty() || page.objects.contains(&0) || page.connections == 0 {
                    return Err(SimError::BadPage { flow });
                }
            }
        }
        ApTx::check(ap, &scenario.bss, &scenario.stations).map_err(SimError::Ap)
    }

    /// A simulation of `scenario` with an AP configured as `ap`.
    pub fn new(mut scenario: BssScenario, ap: &ApConfig) -> Result<Simulation, SimError> {
        Self::check(&scenario, ap)?;
        // A non-QoS station sends and receives no A-MPDU (see `StationLink::qos`).
        for link in scenario.stations.iter_mut().filter(|l| !l.qos) {
            link.ampdu = false;
        }
        let mut ap = ApTx::new(ap, &scenario.bss, &scenario.stations).map_err(SimError::Ap)?;
        let root = RngRoot::new(scenario.seed);
        ap.set_host_jitter(root.stream("host-jitter", 0));
        let n = scenario.stations.len();
        let bss = &scenario.bss;
        let queue_packets = scenario.station_queue_packets;
        let fifo = StationQueue::Fifo;
        let mut stations: Vec<StationTx> = scenario
            .stations
            .iter()
            .enumerate()
            .map(|(i, link)| {
                let queue = scenario.station_queues.get(i).unwrap_or(&fifo);
                StationTx::new(StationId(i as u32), bss, link, queue_packets, queue)
                    .ok_or(SimError::StationQueue(StationId(i as u32)))
            })
            .collect::<Result<_, _>>()?;
        install_rate_control(&root, &scenario.stations, &mut ap, &mut stations)?;
        let lowest_ack = ack_duration(&bss.beacon_rate, bss.band);
        let edca = bss.edca;
        // The AP contends with its own set (dot11QAPEDCATable: AIFSN 1 for VI and VO, BE's
        // CWmax 63), the stations with the one it advertises (Table 9-155).
        let ap_edca = *bss.ap_edca_params();
        // The DCF of a non-QoS station (10.3.3): DIFS (AIFSN 2) and the PHY's aCWmin and
        // aCWmax, which AC_BE's window is in the default EDCA set (Table 9-155).
        let be = edca.get(Ac::Be);
        let dcf = EdcaParams::dcf(be.cw_min, be.cw_max).ac[0];
        let links = &scenario.stations;
        let medium = Medium::new(
            bss.timing,
            bss.timing.eifs(lowest_ack),
            n + 1,
            |node, access| match (access, node) {
                (Access::Data(_), NodeId::Sta(s)) if !links[s.index()].qos => dcf,
                (Access::Data(ac), NodeId::Sta(_)) => *edca.get(ac),
                (Access::Data(ac), NodeId::Ap) => *ap_edca.get(ac),
                // Beacons go out at PIFS with no backoff (the beacon queue of ath9k:
                // AIFS 1, CW 0).
                (Access::Beacon, _) => EdcaAcParams {
                    aifsn: 1,
                    cw_min: 0,
                    cw_max: 0,
                    txop_limit: Duration::ZERO,
                },
            },
            (0..=n as u64).map(|i| root.stream("backoff", i)).collect(),
        );
        let error_rngs = (0..n as u64).map(|i| root.stream("errors", i)).collect();
        let hash_perturbation = root.stream("flow-hash", 0).next_u64() as u32;
        let flows: Vec<FlowState> = scenario
            .flows
            .iter()
            .map(|spec| FlowState {
                spec: spec.clone(),
                tid: flow_tid(spec, &scenario.stations),
                queued: 0,
                next_seq: 0,
                voip: match spec.app {
                    App::Voip { config } => Some(VoipStats::new(config)),
                    _ => None,
                },
                conns: Vec::new(),
                http: HttpState::new(&spec.app),
                hashes: Vec::new(),
            })
            .collect();
        let mut events = EventQueue::default();
        for (i, f) in flows.iter().enumerate() {
            events.schedule(f.spec.start, Event::Start(i as u32));
            // Periodic, saturated and web flows check their stop before each packet or
            // page; a bulk TCP sender writes once, endlessly, and is told.
            if let (App::Tcp { .. }, Some(stop)) = (&f.spec.app, f.spec.stop) {
                events.schedule(stop, Event::Stop(i as u32));
            }
        }
        if bss.beacon_interval.is_some() {
            events.schedule(Instant::ZERO, Event::Beacon);
        }
        if let Some(step) = scenario.sample_step {
            events.schedule(Instant::ZERO + step, Event::Sample);
        }
        if let Some(step) = scenario.queue_sample_step {
            events.schedule(Instant::ZERO + step, Event::QueueSample);
        }
        if scenario.measure_from > Duration::ZERO {
            events.schedule(Instant::ZERO + scenario.measure_from, Event::MeasureFrom);
        }
        let metrics = Metrics {
            stations: vec![StationMetrics::default(); n],
            flows: flows
                .iter()
                .map(|f| FlowMetrics::new(f.spec.station))
                .collect(),
            ..Metrics::default()
        };
        let hosts = Hosts::new(flows, n + 1, scenario.wired, hash_perturbation);
        Ok(Simulation {
            now: Instant::ZERO,
            events,
            scenario,
            nodes: Nodes::new(ap, stations),
            air: Air::new(medium, error_rngs),
            hosts,
            ap_wake_gen: 0,
            ap_wake_at: None,
            metrics,
            starvation: StarvationWatch::new(n),
            warmup: None,
            air_log: None,
        })
    }

    pub fn now(&self) -> Instant {
        self.now
    }

    pub fn ap(&self) -> &ApTx {
        &self.nodes.ap
    }

    /// Everything measured since the start of the run (but see
    /// [`Simulation::measured`]).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// What was measured after the warm-up ([`BssScenario::measure_from`]): the whole
    /// run without one, or before the warm-up has ended.
    pub fn measured(&self) -> Metrics {
        match &self.warmup {
            Some(start) => self.metrics.since(start, self.scenario.measure_from),
            None => self.metrics.clone(),
        }
    }

    /// [`Simulation::measured`], the simulation consumed: the time series move into the
    /// result instead of being copied (at 1000 stations, 60 s: 36 MB).
    pub fn into_measured(mut self) -> Metrics {
        match self.warmup.take() {
            Some(start) => {
                let (series, ap_queue) = self.metrics.take_series();
                let mut m = self.metrics.since(&start, self.scenario.measure_from);
                (m.series, m.ap_queue) = (series, ap_queue);
                m
            }
            None => self.metrics,
        }
    }

    pub fn scenario(&self) -> &BssScenario {
        &self.scenario
    }

    /// Runs every event up to and including `until`.
    pub fn run_until(&mut self, until: Instant) {
        while self.step(until) {}
        self.now = self.now.max(until);
        self.metrics.duration = self.now - Instant::ZERO;
        self.summarise_flows();
    }

    /// The warm-up is over: a copy of the counters marks where the measurements start,
    /// and what cannot be subtracted later starts again (the largest delay, the VoIP
    /// receivers' statistics, the page loads).
    fn start_measuring(&mut self) {
        self.metrics.duration = self.now - Instant::ZERO;
        self.summarise_flows();
        // The window's start needs the counters, not the time series so far.
        let (series, ap_queue) = self.metrics.take_series();
        self.warmup = Some(self.metrics.clone());
        (self.metrics.series, self.metrics.ap_queue) = (series, ap_queue);
        for s in &mut self.metrics.stations {
            s.delay_max = Duration::ZERO;
        }
        for (f, m) in self.hosts.flows.iter_mut().zip(&mut self.metrics.flows) {
            m.page_loads.clear();
            if let Some(stats) = &mut f.voip {
                stats.restart_counting();
            }
        }
    }

    /// The flows' VoIP and TCP summaries, from their endpoints' statistics.
    fn summarise_flows(&mut self) {
        for (f, m) in self.hosts.flows.iter().zip(&mut self.metrics.flows) {
            if let Some(stats) = &f.voip {
                m.voip = VoipSummary::of(&stats.as_of(self.now, DELIVERY_DUE));
            }
            if matches!(f.spec.app, App::Tcp { .. } | App::Http { .. }) {
                let mut counters = TcpCounters {
                    connections: f.conns.len() as u64,
                    ..TcpCounters::default()
                };
                for c in &f.conns {
                    for end in &c.ends {
                        counters.add(end.stats());
                    }
                }
                m.tcp = Some(counters);
            }
        }
    }

    /// Runs the next event if it is due by `until`; false when there is none.
    pub fn step(&mut self, until: Instant) -> bool {
        let Some((at, event)) = self.events.pop_until(until) else {
            return false;
        };
        self.now = at;
        self.metrics.events += 1;
        self.handle(event);
        self.after_event();
        true
    }

    /// After anything happened: the AP's and the medium's next deadlines are
    /// (re)scheduled, and the stall watch learns whether the medium went idle.
    fn after_event(&mut self) {
        let next = self.nodes.ap.poll_at(self.now).map(|t| t.max(self.now));
        if next != self.ap_wake_at {
            self.ap_wake_gen += 1;
            self.ap_wake_at = next;
            if let Some(t) = next {
                self.events.schedule(t, Event::ApWake(self.ap_wake_gen));
            }
        }
        if let Some((t, gen)) = self.air.reschedule(self.now) {
            self.events.schedule(t, Event::Contend(gen));
        }
        if let (Some(since), Some(after)) =
            (self.air.watch_idle(self.now), self.scenario.stall_after)
        {
            self.events
                .schedule(since + after, Event::StallCheck(since));
        }
    }

    /// The medium has been idle since `since`: every station the AP holds frames for is
    /// stalled, unless its airtime group is held to its limit.
    fn check_stall(&mut self, since: Instant) {
        if self.air.idle_since() != Some(since) {
            return;
        }
        let ap = &self.nodes.ap;
        for station in (0..ap.station_count() as u32).map(StationId) {
            let held = ap.station_backlog(station).map_or(0, |b| b.packets());
            if held > 0 && !ap.limit_holds_back(station, self.now) {
                self.metrics.stalls.push(Stall {
                    station,
                    idle_since: since - Instant::ZERO,
                    detected_at: self.now - Instant::ZERO,
                });
            }
        }
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Contend(gen) => {
                if self.air.is_current(gen) {
                    self.start_exchange();
                }
            }
            Event::ExchangeEnd => self.end_exchange(),
            Event::ApWake(gen) if gen == self.ap_wake_gen => {
                self.ap_wake_at = None;
                let dropped = self.nodes.ap.handle_timeout(self.now);
                self.account_drops(dropped);
                self.refill(NodeId::Ap);
                self.update_access(NodeId::Ap);
            }
            Event::ApWake(_) => {}
            Event::StallCheck(since) => self.check_stall(since),
            Event::MeasureFrom => self.start_measuring(),
            Event::Beacon => {
                let interval = self.scenario.bss.beacon_interval.expect("beacons on");
                self.events.schedule(self.now + interval, Event::Beacon);
                self.air.queue_beacon(self.now);
            }
            Event::Periodic(f) => match self.hosts.flows[f as usize].spec.app {
                App::Http { .. } => self.with_hosts(|h, cx| h.http_start_page(f, cx)),
                _ => self.with_hosts(|h, cx| h.periodic(f, cx)),
            },
            Event::Start(f) => {
                let flow = &self.hosts.flows[f as usize];
                match flow.spec.app {
                    App::Tcp { .. } => self.with_hosts(|h, cx| {
                        h.tcp_open(f, cx);
                    }),
                    App::Http { .. } => self.with_hosts(|h, cx| h.http_start_page(f, cx)),
                    _ if flow.spec.saturated_backlog().is_some() => {
                        let node = flow.sender();
                        self.refill(node);
                        self.update_access(node);
                    }
                    _ => self.with_hosts(|h, cx| h.periodic(f, cx)),
                }
            }
            Event::Stop(f) => self.with_hosts(|h, cx| h.tcp_stop(f, cx)),
            Event::TcpTimer { flow, conn, side } => {
                self.with_hosts(|h, cx| h.tcp_timer(flow, conn, side, cx))
            }
            Event::WireArrival(dir) => self.with_hosts(|h, cx| h.wire_arrival(dir, cx)),
            Event::QueueSample => {
                let step = self.scenario.queue_sample_step.expect("sampling on");
                self.events.schedule(self.now + step, Event::QueueSample);
                let depth = self.ap_depth();
                self.metrics.ap_queue.push(depth);
            }
            Event::Sample => {
                let step = self.scenario.sample_step.expect("sampling on");
                self.events.schedule(self.now + step, Event::Sample);
                let ap = self.ap_depth();
                let m = &mut self.metrics;
                m.series.push(Sample {
                    at: self.now - Instant::ZERO,
                    rx_bytes: m
                        .stations
                        .iter()
                        .map(|s| s.rx_bytes_down + s.rx_bytes_up)
                        .collect(),
                    airtime: m.stations.iter().map(StationMetrics::airtime).collect(),
                    airtime_up: m.stations.iter().map(|s| s.airtime_up).collect(),
                    flow_rx_bytes: m.flows.iter().map(|f| f.rx_bytes).collect(),
                    flow_tcp: self.hosts.tcp_senders(),
                    ap,
                });
                self.watch_starvation();
            }
        }
    }

    /// Samples the stations for starvation, in the measured time.
    fn watch_starvation(&mut self) {
        let at = self.now - Instant::ZERO;
        if at < self.scenario.measure_from {
            return;
        }
        let (ap, now) = (&self.nodes.ap, self.now);
        let stations = self.metrics.stations.iter().enumerate().map(|(i, s)| {
            let station = StationId(i as u32);
            let backlog = ap.station_backlog(station).unwrap_or_default();
            let (held, held_below_qdisc) = if ap.limit_holds_back(station, now) {
                (0, 0)
            } else {
                (backlog.packets(), backlog.packets() - backlog.qdisc_packets)
            };
            StationSample {
                held,
                held_below_qdisc,
                behind_higher_ac: held > 0 && ap.behind_higher_ac(station),
                rx_bytes_down: s.rx_bytes_down,
                airtime_down: s.airtime_down,
            }
        });
        self.starvation
            .sample(at, stations, &mut self.metrics.starvation);
    }

    fn ap_depth(&self) -> QueueDepth {
        let total = self.nodes.ap.backlog().total();
        QueueDepth {
            queued_packets: total.qdisc_packets + total.mac_packets,
            driver_frames: total.driver_frames,
            driver_airtime: Duration::from_micros(total.driver_airtime_us),
        }
    }
}

/// The TID of a flow's packets: by its DSCP as Linux maps it, but TID 0 (best effort)
/// when the station at either wireless end is not a QoS station (see
/// `StationLink::qos`).
fn flow_tid(spec: &FlowSpec, stations: &[StationLink]) -> Tid {
    let non_qos = |s: StationId| stations.get(s.index()).is_some_and(|l| !l.qos);
    if non_qos(spec.station) || spec.peer().is_some_and(non_qos) {
        Tid::new(0).expect("TID 0 exists")
    } else {
        tid_for_dscp(spec.dscp)
    }
}
