//! The simulator: one event loop over the BSS — traffic sources, the wired link to the
//! server, the AP's transmit path, the stations' FIFOs, and the medium their EDCA
//! functions contend for. Integer nanoseconds throughout; one root seed.

use crate::ap::{ApConfig, ApConfigError, ApTx};
use crate::edca::EdcaAcParams;
use crate::event::EventQueue;
use crate::frame::Ppdu;
use crate::link::{BssConfig, StationLink};
use crate::medium::{Access, EdcafId, Medium};
use crate::metrics::{Metrics, QueueDepth, Sample, StationMetrics};
use crate::packet::{FlowIndex, NodeId, SimPacket};
use crate::rng::{RngRoot, RngStream};
use crate::station::{StationTx, STATION_QUEUE_PACKETS};
use crate::traffic::{Direction, FlowSpec, Load};
use crate::txpath::{DropCause, TxOutput, TxPath};
use airq::phy::{ack_duration, block_ack_duration, control_frame_duration, mac_frame};
use airq::{Ac, Duration, Ecn, Instant};

/// The wired link between the server and the AP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WiredLink {
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: Duration,
}

impl Default for WiredLink {
    /// 1 Gbit/s, 1 ms: a LAN testbed.
    fn default() -> Self {
        WiredLink {
            rate_bps: 1_000_000_000,
            delay: Duration::from_millis(1),
        }
    }
}

impl WiredLink {
    fn serialization(&self, bytes: u32) -> Duration {
        Duration::from_nanos(u64::from(bytes) * 8 * 1_000_000_000 / self.rate_bps.max(1))
    }
}

/// Everything about a BSS the simulator needs, apart from the AP's queueing.
#[derive(Clone, Debug, PartialEq)]
pub struct BssScenario {
    pub bss: BssConfig,
    pub stations: Vec<StationLink>,
    pub flows: Vec<FlowSpec>,
    pub wired: WiredLink,
    /// Packets a station's own queues hold.
    pub station_queue_packets: usize,
    /// Step of the time series (flent's default 200 ms); `None` takes no samples.
    pub sample_step: Option<Duration>,
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
            sample_step: Some(Duration::from_millis(200)),
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
    /// Next packet of a CBR flow.
    Cbr(u32),
    /// A saturated flow starts.
    Start(u32),
    /// A downlink packet reaches the AP from the wired link.
    ArriveAtAp(SimPacket),
    /// Take a time-series sample.
    Sample,
}

/// What is on the air during an exchange.
struct OnAir {
    edcaf: EdcafId,
    /// `None` for a beacon.
    ppdu: Option<Ppdu>,
    /// The exchange's airtime for this transmitter.
    airtime: Duration,
}

/// State of one flow.
struct FlowState {
    spec: FlowSpec,
    hash: u32,
    /// Packets of a saturated flow held at its sender.
    queued: u32,
}

/// A scenario the simulator cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    Ap(ApConfigError),
    /// A flow names a station the BSS does not have.
    UnknownStation {
        flow: usize,
        station: u16,
        stations: usize,
    },
    /// A CBR flow with a zero rate.
    ZeroRate {
        flow: usize,
    },
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Ap(e) => write!(f, "AP configuration: {e}"),
            SimError::UnknownStation {
                flow,
                station,
                stations,
            } => write!(
                f,
                "flow {flow} is for station {station}, but the BSS has {stations} stations"
            ),
            SimError::ZeroRate { flow } => write!(f, "flow {flow}: a CBR rate must be above 0"),
        }
    }
}

impl std::error::Error for SimError {}

/// A simulation of one BSS.
pub struct Sim {
    now: Instant,
    events: EventQueue<Event>,
    scenario: BssScenario,
    ap: ApTx,
    stations: Vec<StationTx>,
    medium: Medium,
    error_rngs: Vec<RngStream>,
    flows: Vec<FlowState>,
    /// Saturated flows by sending node.
    saturated_by_node: Vec<Vec<u32>>,
    /// Per node, the flow its next top-up starts with.
    refill_cursor: Vec<usize>,
    on_air: Vec<OnAir>,
    collision: bool,
    contend_gen: u64,
    contend_at: Option<Instant>,
    wire_free: Instant,
    next_packet_id: u64,
    out: TxOutput,
    winners: Vec<EdcafId>,
    internal: Vec<EdcafId>,
    metrics: Metrics,
}

impl Sim {
    /// A simulation of `scenario` with an AP configured as `ap`.
    pub fn new(scenario: BssScenario, ap: &ApConfig) -> Result<Sim, SimError> {
        let stations_count = scenario.stations.len();
        for (flow, spec) in scenario.flows.iter().enumerate() {
            if usize::from(spec.station) >= stations_count {
                return Err(SimError::UnknownStation {
                    flow,
                    station: spec.station,
                    stations: stations_count,
                });
            }
            if spec.load == (Load::Cbr { rate_bps: 0 }) {
                return Err(SimError::ZeroRate { flow });
            }
        }
        let ap = ApTx::new(ap, &scenario.bss, &scenario.stations).map_err(SimError::Ap)?;
        let root = RngRoot::new(scenario.seed);
        let n = scenario.stations.len();
        let bss = &scenario.bss;
        let stations = scenario
            .stations
            .iter()
            .enumerate()
            .map(|(i, link)| StationTx::new(i as u16, bss, link, scenario.station_queue_packets))
            .collect();
        let lowest_ack = ack_duration(&bss.beacon_rate, bss.band);
        let edca = bss.edca;
        let medium = Medium::new(
            bss.timing,
            bss.timing.eifs(lowest_ack),
            n + 1,
            |_, access| match access {
                Access::Data(ac) => *edca.get(ac),
                // Beacons go out at PIFS with no backoff (the beacon queue of ath9k:
                // AIFS 1, CW 0).
                Access::Beacon => EdcaAcParams {
                    aifsn: 1,
                    cw_min: 0,
                    cw_max: 0,
                    txop_limit: Duration::ZERO,
                },
            },
            (0..=n as u64).map(|i| root.stream("backoff", i)).collect(),
        );
        let error_rngs = (0..n as u64).map(|i| root.stream("errors", i)).collect();
        let mut hash_rng = root.stream("flow-hash", 0);
        let flows: Vec<FlowState> = scenario
            .flows
            .iter()
            .map(|spec| FlowState {
                spec: spec.clone(),
                hash: hash_rng.next_u64() as u32,
                queued: 0,
            })
            .collect();
        let mut saturated_by_node = vec![Vec::new(); n + 1];
        let mut events = EventQueue::default();
        for (i, f) in flows.iter().enumerate() {
            match f.spec.load {
                Load::Saturated { .. } => {
                    let node = match f.spec.direction {
                        Direction::Downlink => NodeId::Ap,
                        Direction::Uplink => NodeId::Sta(f.spec.station),
                    };
                    saturated_by_node[node.index()].push(i as u32);
                    events.schedule(f.spec.start, Event::Start(i as u32));
                }
                Load::Cbr { .. } => events.schedule(f.spec.start, Event::Cbr(i as u32)),
            }
        }
        if bss.beacon_interval.is_some() {
            events.schedule(Instant::ZERO, Event::Beacon);
        }
        if let Some(step) = scenario.sample_step {
            events.schedule(Instant::ZERO + step, Event::Sample);
        }
        let metrics = Metrics {
            stations: vec![StationMetrics::default(); n],
            ..Metrics::default()
        };
        Ok(Sim {
            now: Instant::ZERO,
            events,
            scenario,
            ap,
            stations,
            medium,
            error_rngs,
            flows,
            refill_cursor: vec![0; saturated_by_node.len()],
            saturated_by_node,
            on_air: Vec::new(),
            collision: false,
            contend_gen: 0,
            contend_at: None,
            wire_free: Instant::ZERO,
            next_packet_id: 0,
            out: TxOutput::default(),
            winners: Vec::new(),
            internal: Vec::new(),
            metrics,
        })
    }

    pub fn now(&self) -> Instant {
        self.now
    }

    pub fn ap(&self) -> &ApTx {
        &self.ap
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    pub fn scenario(&self) -> &BssScenario {
        &self.scenario
    }

    /// Runs every event up to and including `until`.
    pub fn run_until(&mut self, until: Instant) {
        while self.step(until) {}
        self.now = self.now.max(until);
        self.metrics.duration = self.now - Instant::ZERO;
    }

    /// Runs the next event if it is due by `until`; false when there is none.
    pub fn step(&mut self, until: Instant) -> bool {
        match self.events.peek_time() {
            Some(t) if t <= until => {}
            _ => return false,
        }
        let (at, event) = self.events.pop().expect("peeked");
        self.now = at;
        self.metrics.events += 1;
        self.handle(event);
        self.schedule_contention();
        true
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Contend(gen) if gen == self.contend_gen => {
                self.contend_at = None;
                self.start_exchange();
            }
            Event::Contend(_) => {}
            Event::ExchangeEnd => self.end_exchange(),
            Event::Beacon => {
                let interval = self.scenario.bss.beacon_interval.expect("beacons on");
                self.events.schedule(self.now + interval, Event::Beacon);
                self.medium
                    .activate(EdcafId::new(NodeId::Ap, Access::Beacon), self.now);
            }
            Event::Cbr(f) => self.cbr_packet(f),
            Event::Start(f) => {
                let node = self.sender(f);
                self.refill(node);
                self.update_access(node);
            }
            Event::ArriveAtAp(packet) => {
                self.enqueue_at(NodeId::Ap, packet);
                self.drain_out();
                self.update_access(NodeId::Ap);
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
                    ap,
                });
            }
        }
    }

    fn ap_depth(&self) -> QueueDepth {
        let total = self.ap.backlog().total();
        QueueDepth {
            queued_packets: total.qdisc_packets + total.mac_packets,
            driver_frames: total.driver_frames,
            driver_airtime: Duration::from_micros(total.driver_airtime_us),
        }
    }

    /// Hands a packet to the transmit path of its sender, `node`; drops go to
    /// `self.out`.
    fn enqueue_at(&mut self, node: NodeId, packet: SimPacket) {
        match node {
            NodeId::Ap => {
                let result = self.ap.enqueue(packet, self.now, &mut self.out);
                debug_assert!(result.is_ok(), "flows are checked against the stations");
            }
            NodeId::Sta(s) => self.stations[s as usize].enqueue(packet, self.now, &mut self.out),
        }
    }

    fn sender(&self, flow: u32) -> NodeId {
        let spec = &self.flows[flow as usize].spec;
        match spec.direction {
            Direction::Downlink => NodeId::Ap,
            Direction::Uplink => NodeId::Sta(spec.station),
        }
    }

    fn make_packet(&mut self, flow: u32) -> SimPacket {
        let f = &self.flows[flow as usize];
        let id = self.next_packet_id;
        self.next_packet_id += 1;
        SimPacket {
            id,
            flow: FlowIndex(flow),
            station: f.spec.station,
            uplink: f.spec.direction == Direction::Uplink,
            len_bytes: f.spec.packet_bytes(),
            tid: f.spec.tid,
            flow_hash: f.hash,
            ecn: Ecn::NotEct,
            created: self.now,
            enqueue_time: self.now,
        }
    }

    fn cbr_packet(&mut self, flow: u32) {
        let spec = &self.flows[flow as usize].spec;
        if !spec.active_at(self.now) {
            return;
        }
        let interval = spec.cbr_interval().expect("a CBR flow has a rate");
        self.events.schedule(self.now + interval, Event::Cbr(flow));
        let packet = self.make_packet(flow);
        match self.sender(flow) {
            NodeId::Ap => {
                // Serialised on the wired link, then its propagation delay.
                let wired = self.scenario.wired;
                let start = self.now.max(self.wire_free);
                self.wire_free = start + wired.serialization(packet.len_bytes);
                self.events
                    .schedule(self.wire_free + wired.delay, Event::ArriveAtAp(packet));
            }
            node @ NodeId::Sta(_) => {
                self.enqueue_at(node, packet);
                self.drain_out();
                self.update_access(node);
            }
        }
    }

    /// Tops up the saturated flows sent by `node`, one packet per flow in turn (from a
    /// rotating first flow), as senders offering the same rate would fill a shared
    /// queue. The first drop ends the top-up: the queue is full, and the next departure
    /// will make room again — so a full queue costs one drop per departure, not a churn.
    fn refill(&mut self, node: NodeId) {
        let n = self.saturated_by_node[node.index()].len();
        if n == 0 {
            return;
        }
        let start = self.refill_cursor[node.index()] % n;
        self.refill_cursor[node.index()] = start + 1;
        loop {
            let mut added = false;
            for k in 0..n {
                let f = self.saturated_by_node[node.index()][(start + k) % n];
                let state = &self.flows[f as usize];
                let Load::Saturated { backlog_packets } = state.spec.load else {
                    continue;
                };
                if state.queued >= backlog_packets || !state.spec.active_at(self.now) {
                    continue;
                }
                let packet = self.make_packet(f);
                self.flows[f as usize].queued += 1;
                added = true;
                self.enqueue_at(node, packet);
                if !self.out.dropped.is_empty() {
                    self.drain_out();
                    return;
                }
            }
            if !added {
                return;
            }
        }
    }

    /// Accounts the packets a transmit path handed out in `self.out`.
    fn drain_out(&mut self) {
        let mut out = std::mem::take(&mut self.out);
        for packet in out.delivered.drain(..) {
            self.delivered(packet);
        }
        for (packet, cause) in out.dropped.drain(..) {
            self.left_sender(&packet);
            self.metrics.stations[packet.station as usize].drops[cause as usize] += 1;
        }
        self.out = out;
    }

    fn left_sender(&mut self, packet: &SimPacket) {
        let f = &mut self.flows[packet.flow.0 as usize];
        if matches!(f.spec.load, Load::Saturated { .. }) {
            f.queued -= 1;
        }
    }

    fn delivered(&mut self, packet: SimPacket) {
        self.left_sender(&packet);
        let m = &mut self.metrics.stations[packet.station as usize];
        let mut arrival = self.now;
        if packet.uplink {
            let wired = self.scenario.wired;
            arrival = arrival + wired.serialization(packet.len_bytes) + wired.delay;
            m.rx_bytes_up += u64::from(packet.len_bytes);
            m.rx_packets_up += 1;
        } else {
            m.rx_bytes_down += u64::from(packet.len_bytes);
            m.rx_packets_down += 1;
        }
        let delay = arrival - packet.created;
        m.delay_sum += delay;
        m.delay_max = m.delay_max.max(delay);
    }

    fn tx_path(&mut self, node: NodeId) -> &mut dyn TxPath {
        tx_path(&mut self.ap, &mut self.stations, node)
    }

    /// Activates or deactivates `node`'s data EDCAFs by whether it has frames.
    fn update_access(&mut self, node: NodeId) {
        for ac in Ac::ALL {
            let has = self.tx_path(node).has_frames(ac);
            let id = EdcafId::new(node, Access::Data(ac));
            if has {
                self.medium.activate(id, self.now);
            } else {
                self.medium.deactivate(id);
            }
        }
    }

    /// (Re)schedules the medium's next access after a change.
    fn schedule_contention(&mut self) {
        let next = self.medium.next_access().map(|t| t.max(self.now));
        if next != self.contend_at {
            self.contend_gen += 1;
            self.contend_at = next;
            if let Some(t) = next {
                self.events.schedule(t, Event::Contend(self.contend_gen));
            }
        }
    }

    fn start_exchange(&mut self) {
        let now = self.now;
        let mut winners = std::mem::take(&mut self.winners);
        let mut internal = std::mem::take(&mut self.internal);
        self.medium.start(now, &mut winners, &mut internal);
        for &id in &winners {
            match id.access() {
                Access::Beacon => {
                    self.medium.deactivate(id);
                    let bss = &self.scenario.bss;
                    let airtime = bss.beacon_rate.ppdu_duration(bss.beacon_bytes, bss.band);
                    self.on_air.push(OnAir {
                        edcaf: id,
                        ppdu: None,
                        airtime,
                    });
                }
                Access::Data(ac) => {
                    let node = id.node();
                    let ppdu = tx_path(&mut self.ap, &mut self.stations, node).next_ppdu(
                        ac,
                        now,
                        &mut self.out,
                    );
                    self.drain_out();
                    match ppdu {
                        Some(ppdu) => {
                            let airtime = self.exchange_airtime(&ppdu);
                            self.on_air.push(OnAir {
                                edcaf: id,
                                ppdu: Some(ppdu),
                                airtime,
                            });
                        }
                        None => self.medium.deactivate(id),
                    }
                }
            }
        }
        for &id in &internal {
            self.update_access(id.node());
        }
        self.winners = winners;
        self.internal = internal;
        if self.on_air.is_empty() {
            self.medium.end(now, false);
            return;
        }
        self.collision = self.on_air.len() > 1;
        let bss = &self.scenario.bss;
        let rts_cts = bss.rts_cts;
        let control_rate = bss.control_rate;
        let band = bss.band;
        let busy = if self.collision {
            // Everyone transmits what it started with: its RTS, or the whole PPDU.
            let rts = control_frame_duration(&control_rate, mac_frame::RTS_BYTES, band);
            self.on_air
                .iter_mut()
                .map(|a| {
                    let on_air = match &a.ppdu {
                        Some(_) if rts_cts => rts,
                        Some(p) => p.duration,
                        None => a.airtime,
                    };
                    a.airtime = on_air;
                    on_air
                })
                .max()
                .expect("someone transmits")
        } else {
            self.on_air[0].airtime
        };
        self.events.schedule(now + busy, Event::ExchangeEnd);
    }

    /// Airtime of the exchange carrying `ppdu` alone on the medium: [RTS, SIFS, CTS,
    /// SIFS,] PPDU, SIFS, Ack or BlockAck (10.3.2.8, 10.24.7).
    fn exchange_airtime(&self, ppdu: &Ppdu) -> Duration {
        let bss = &self.scenario.bss;
        let sifs = bss.timing.sifs_time;
        let response = if ppdu.aggregate {
            block_ack_duration(&bss.control_rate, bss.band)
        } else {
            ack_duration(&bss.control_rate, bss.band)
        };
        let mut airtime = ppdu.duration + sifs + response;
        if bss.rts_cts {
            airtime = airtime
                + control_frame_duration(&bss.control_rate, mac_frame::RTS_BYTES, bss.band)
                + control_frame_duration(&bss.control_rate, mac_frame::CTS_BYTES, bss.band)
                + sifs * 2;
        }
        airtime
    }

    fn end_exchange(&mut self) {
        let now = self.now;
        let collision = self.collision;
        let mut on_air = std::mem::take(&mut self.on_air);
        let span = on_air.iter().map(|a| a.airtime).max().unwrap_or_default();
        let channel = &mut self.metrics.channel;
        channel.exchanges += 1;
        if collision {
            channel.collisions += 1;
            channel.collision += span;
        } else {
            channel.busy += span;
        }
        for a in on_air.drain(..) {
            let Some(mut ppdu) = a.ppdu else {
                self.metrics.channel.beacon += a.airtime;
                continue;
            };
            let station = match (ppdu.src, ppdu.dst) {
                (NodeId::Sta(s), _) | (_, NodeId::Sta(s)) => s,
                (NodeId::Ap, NodeId::Ap) => unreachable!("the AP does not send to itself"),
            };
            let uplink = ppdu.src != NodeId::Ap;
            let error = self.scenario.stations[station as usize].mpdu_error;
            let mut received = 0;
            for mpdu in &mut ppdu.mpdus {
                mpdu.ok = !collision && !self.error_rngs[station as usize].chance(error);
                received += usize::from(mpdu.ok);
            }
            let m = &mut self.metrics.stations[station as usize];
            let failures = (ppdu.mpdus.len() - received) as u64;
            let mpdus = ppdu.mpdus.len();
            if uplink {
                m.airtime_up += a.airtime;
                m.mpdu_failures_up += failures;
                StationMetrics::count_ppdu(&mut m.ampdu_mpdus_up, mpdus);
            } else {
                m.airtime_down += a.airtime;
                m.mpdu_failures_down += failures;
                StationMetrics::count_ppdu(&mut m.ampdu_mpdus_down, mpdus);
            }
            if collision {
                m.collisions += 1;
            }
            let node = ppdu.src;
            let tid = ppdu.tid;
            tx_path(&mut self.ap, &mut self.stations, node).tx_done(
                ppdu,
                a.airtime,
                now,
                &mut self.out,
            );
            let retry_drops = self
                .out
                .dropped
                .iter()
                .filter(|(_, c)| *c == DropCause::RetryLimit)
                .count();
            if received > 0 || retry_drops == mpdus {
                self.medium.succeeded(a.edcaf);
            } else {
                self.medium.failed(a.edcaf);
            }
            self.drain_out();
            if uplink {
                let result = self.ap.register_rx_airtime(station, tid, a.airtime, now);
                debug_assert!(result.is_ok(), "stations are the AP's");
            }
            self.refill(node);
            self.update_access(node);
        }
        self.on_air = on_air;
        self.medium.end(now, collision);
    }
}

/// The transmit path of `node`.
fn tx_path<'a>(
    ap: &'a mut ApTx,
    stations: &'a mut [StationTx],
    node: NodeId,
) -> &'a mut dyn TxPath {
    match node {
        NodeId::Ap => ap,
        NodeId::Sta(s) => &mut stations[s as usize],
    }
}
