//! External hosts: the BSS driven by real packets instead of the scenario's traffic
//! models, for `airq emulate` (issue 17). The server and the stations are real hosts
//! elsewhere; the caller injects each packet they send at the time it was sent, runs
//! the events up to the present ([`Simulation::run_until`], [`Simulation::step`]), and
//! takes the packets the model delivers with the time it delivers them
//! ([`Simulation::take_delivered`]), asking [`Simulation::next_event_at`] when to come
//! back — quinn-proto's `poll_timeout` / `handle_timeout` shape (STYLE.md).
//!
//! Nothing else changes: a downlink packet crosses the modelled wired link, the AP's
//! qdisc, FQ-MAC, scheduler, AQL and driver, then contends for the medium against the
//! stations' own queues; an uplink packet queues at its station and goes on over the
//! wired link to the server; a packet between two stations is relayed by the AP. The
//! real bytes ride in [`Payload::Real`], so a packet the model drops is freed with it.

use super::air::AiredPpdu;
use super::hosts::{FlowState, Hosts};
use super::Simulation;
use crate::ap::ApConfig;
use crate::apps::traffic::Direction;
use crate::bss::{BssScenario, SimError};
use crate::net::dscp::tid_for_dscp;
use crate::net::flow_hash::flow_hash;
use crate::net::header_bytes::{ipv4_header_bytes, tcp_header_bytes};
use crate::net::packet::{FlowIndex, Payload, SimPacket};
use crate::net::real_packet::{mark_ce, Ipv4Fields, RealPacket};
use airq::phy::Rate;
use airq::{Ecn, Instant, StationId, Tid};

/// A host of the BSS: the wired server or a station.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Host {
    Server,
    Station(StationId),
}

/// A real packet the model delivered to its host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// When it reached the host (the end of the wireless exchange for a station, the
    /// end of the wired link for the server).
    pub at: Instant,
    /// When it was injected.
    pub sent: Instant,
    pub to: Host,
    /// The flow it was counted in.
    pub flow: FlowIndex,
    /// Its bytes, marked CE if the AP marked it.
    pub packet: RealPacket,
}

/// A real packet received over the air: one MPDU of one wireless hop (a packet relayed
/// between two stations makes two), for a capture of the air (`airq emulate --pcap`),
/// with what a monitor interface's radiotap header says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AirFrame {
    /// The end of the exchange (PPDU, SIFS and its Ack or BlockAck) in which its
    /// recipient received it without error.
    pub at: Instant,
    /// The start of that exchange (its RTS/CTS when used).
    pub started: Instant,
    /// The station at the other end of the hop from the AP.
    pub station: StationId,
    /// From the station to the AP.
    pub uplink: bool,
    /// The PPDU's rate.
    pub rate: Rate,
    /// The TID its QoS Data header carries.
    pub tid: Tid,
    /// Its sequence number (unwrapped: modulo 4096 on the air).
    pub seq: u64,
    /// Sent before and not received (a retransmission: the Retry bit).
    pub retry: bool,
    /// The A-MPDU that carried it, numbered from 0 over the run, as radiotap's A-MPDU
    /// reference number; `None` for a single MPDU with a normal Ack.
    pub ampdu: Option<u32>,
    /// The SNR its PPDU started with, dB (rounded), if the link has a channel model.
    pub snr_db: Option<i16>,
    /// Its bytes as sent (before any CE mark at delivery); for a simulated packet, the
    /// IPv4 and transport headers it would have had ([`ipv4_header_bytes`]).
    pub bytes: Box<[u8]>,
    /// Its IP length: `bytes`' for a real packet, more for a simulated one.
    pub len_bytes: u32,
}

/// The air recorded so far ([`Simulation::record_air`]).
#[derive(Clone, Debug, Default)]
pub(super) struct AirLog {
    frames: Vec<AirFrame>,
    /// A-MPDUs that carried a real packet so far.
    ampdus: u32,
}

impl AirLog {
    /// Records what of `aired`, whose exchange has just ended at `now`, its recipient
    /// received without error: a real packet with its bytes, a simulated one with the
    /// headers it would have had.
    pub(super) fn record(&mut self, aired: &AiredPpdu, flows: &[FlowState], now: Instant) {
        let mut ampdu = None;
        for mpdu in &aired.mpdus {
            let p = &mpdu.packet;
            let bytes = match &p.payload {
                Payload::Real(real) => real.bytes.clone(),
                _ => {
                    let spec = &flows[p.flow.0 as usize].spec;
                    // Whether it comes from the flow's station (to the server or,
                    // relayed, to the peer) rather than towards it.
                    let from_station = match spec.peer() {
                        Some(peer) => {
                            (p.uplink && p.station == spec.station)
                                || (!p.uplink && p.station == peer)
                        }
                        None => p.uplink,
                    };
                    let conn = match &p.payload {
                        Payload::Tcp { conn, .. } => *conn,
                        _ => 0,
                    };
                    let tuple = super::hosts::five_tuple(spec, p.flow.0, conn, from_station);
                    let ds_field = spec.dscp.to_ds_field(ecn_bits(p.ecn));
                    // An echo request leaves the pinging end: the server for a downlink
                    // ping, else the flow's station.
                    let pinged_by_server =
                        spec.direction == Direction::Downlink && spec.peer().is_none();
                    let icmp_request = from_station != pinged_by_server;
                    match &p.payload {
                        Payload::Tcp { segment, .. } => {
                            tcp_header_bytes(&tuple, p.len_bytes, ds_field, segment)
                        }
                        _ => ipv4_header_bytes(&tuple, p.len_bytes, ds_field, icmp_request),
                    }
                }
            };
            if aired.aggregate && ampdu.is_none() {
                ampdu = Some(self.ampdus);
                self.ampdus += 1;
            }
            self.frames.push(AirFrame {
                at: now,
                started: aired.started,
                station: p.station,
                uplink: p.uplink,
                rate: aired.rate,
                tid: aired.tid,
                seq: mpdu.seq,
                retry: mpdu.retries > 0,
                ampdu,
                snr_db: aired.snr_db.map(|s| s.round() as i16),
                bytes,
                len_bytes: p.len_bytes,
            });
        }
    }
}

/// The two ECN bits of the IP header (RFC 3168 §5).
fn ecn_bits(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect1 => 0b01,
        Ecn::Ect0 => 0b10,
        Ecn::Ce => 0b11,
    }
}

/// A packet the model cannot carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InjectError {
    /// Injected before the simulation's present.
    InThePast { at: Instant, now: Instant },
    /// A station the BSS does not have.
    UnknownStation(StationId),
    /// From the server to the server, or from a station to itself: not through the BSS.
    NotThroughTheBss { from: Host, to: Host },
    /// A flow the scenario does not have, or one the simulator saturates itself.
    BadFlow(FlowIndex),
}

impl std::fmt::Display for InjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InjectError::InThePast { at, now } => write!(
                f,
                "packet injected at {} ns, before the simulation's present {} ns",
                at.as_nanos(),
                now.as_nanos()
            ),
            InjectError::UnknownStation(s) => write!(f, "no station {s} in the BSS"),
            InjectError::NotThroughTheBss { from, to } => {
                write!(f, "a packet from {from:?} to {to:?} does not cross the BSS")
            }
            InjectError::BadFlow(flow) => write!(
                f,
                "flow {} is not a flow real packets can be counted in",
                flow.0
            ),
        }
    }
}

impl std::error::Error for InjectError {}

impl Simulation {
    /// A simulation of `scenario` whose hosts are external: its flows generate nothing
    /// (they never start) and only count the real packets injected in them.
    pub fn external(mut scenario: BssScenario, ap: &ApConfig) -> Result<Simulation, SimError> {
        for flow in &mut scenario.flows {
            flow.start = Instant::from_nanos(u64::MAX);
        }
        Simulation::new(scenario, ap)
    }

    /// When the next event is due; `None` with nothing scheduled.
    pub fn next_event_at(&self) -> Option<Instant> {
        self.events.peek_time()
    }

    /// Sends the real packet `bytes` (whose header reads `fields`) from `from` to `to`
    /// at `at`, counted in `flow`. The events up to `at` run first.
    pub fn inject(
        &mut self,
        at: Instant,
        from: Host,
        to: Host,
        flow: FlowIndex,
        fields: &Ipv4Fields,
        bytes: Box<[u8]>,
    ) -> Result<(), InjectError> {
        if at < self.now {
            return Err(InjectError::InThePast { at, now: self.now });
        }
        for host in [from, to] {
            if let Host::Station(s) = host {
                if s.index() >= self.nodes.stations.len() {
                    return Err(InjectError::UnknownStation(s));
                }
            }
        }
        let (station, uplink, relay_to) = match (from, to) {
            (Host::Server, Host::Station(s)) => (s, false, None),
            (Host::Station(s), Host::Server) => (s, true, None),
            (Host::Station(a), Host::Station(b)) if a != b => (a, true, Some(b)),
            _ => return Err(InjectError::NotThroughTheBss { from, to }),
        };
        match self.hosts.flows.get(flow.0 as usize) {
            Some(f) if f.spec.saturated_backlog().is_none() => {}
            _ => return Err(InjectError::BadFlow(flow)),
        }
        self.run_until(at);
        let id = self.hosts.new_packet_id();
        let packet = SimPacket {
            id,
            flow,
            station,
            uplink,
            relay_to: relay_to.into(),
            len_bytes: fields.len_bytes,
            // A non-QoS station's frames are all best effort (`StationLink::qos`).
            tid: if [Some(station), relay_to]
                .into_iter()
                .flatten()
                .any(|s| !self.scenario.stations[s.index()].qos)
            {
                Tid::new(0).expect("TID 0 exists")
            } else {
                tid_for_dscp(fields.dscp)
            },
            flow_hash: flow_hash(&fields.tuple, self.hosts.hash_perturbation),
            ecn: fields.ecn,
            created: at,
            enqueue_time: at,
            payload: Payload::Real(Box::new(RealPacket {
                bytes,
                payload_bytes: fields.payload_bytes,
            })),
            airtime_est_us: 0,
        };
        self.host_send(packet);
        // What `step` does after each event: the AP, the medium and the stall watch
        // learn of the change.
        self.after_event();
        Ok(())
    }

    /// Keeps a copy of every real packet's wireless hops from now on, for
    /// [`Simulation::take_air`]. Off by default: it changes no timing, only copies.
    pub fn record_air(&mut self) {
        self.air_log.get_or_insert_with(AirLog::default);
    }

    /// Moves the wireless hops recorded so far into `out`, in the order they ended.
    pub fn take_air(&mut self, out: &mut Vec<AirFrame>) {
        if let Some(log) = &mut self.air_log {
            out.append(&mut log.frames);
        }
    }

    /// Moves the real packets delivered so far into `out`, in delivery order.
    pub fn take_delivered(&mut self, out: &mut Vec<Delivered>) {
        out.append(&mut self.hosts.real_out);
    }
}

impl Hosts {
    /// A real packet reached its host: keep it for [`Simulation::take_delivered`].
    pub(super) fn real_delivered(&mut self, packet: SimPacket, now: Instant) {
        let to = if packet.uplink {
            Host::Server
        } else {
            Host::Station(packet.station)
        };
        let Payload::Real(mut real) = packet.payload else {
            unreachable!("only real packets are handed out")
        };
        if packet.ecn == Ecn::Ce {
            mark_ce(&mut real.bytes);
        }
        self.real_out.push(Delivered {
            at: now,
            sent: packet.created,
            to,
            flow: packet.flow,
            packet: *real,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::traffic::FlowSpec;
    use crate::mac::link::{BssConfig, StationLink};
    use crate::net::flow_hash::{PROTO_ICMP, PROTO_TCP};
    use crate::net::real_packet::parse_ipv4;
    use crate::net::real_packet::tests::ipv4;
    use airq::phy::{Band, ChannelWidth, GuardInterval, Rate};
    use airq::Duration;

    /// `stations` HT20 MCS7 stations on 5 GHz, each with a ping flow to count in.
    fn scenario(stations: usize) -> BssScenario {
        let bss = BssConfig::ofdm(Band::Ghz5);
        let rate = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let links = (0..stations).map(|_| StationLink::new(rate)).collect();
        let flows = (0..stations as u32)
            .map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(100)))
            .collect();
        BssScenario::new(bss, links, flows)
    }

    fn emulated(stations: usize) -> Simulation {
        Simulation::external(scenario(stations), &ApConfig::preset("airtime").unwrap()).unwrap()
    }

    fn inject(sim: &mut Simulation, at: Instant, from: Host, to: Host, b: Vec<u8>) {
        let fields = parse_ipv4(&b).unwrap();
        let flow = match (from, to) {
            (Host::Station(s), _) | (_, Host::Station(s)) => FlowIndex(s.0),
            _ => FlowIndex(0),
        };
        sim.inject(at, from, to, flow, &fields, b.into_boxed_slice())
            .unwrap();
    }

    /// Runs until nothing is left but the periodic housekeeping, or `until`.
    fn deliver_by(sim: &mut Simulation, until: Instant) -> Vec<Delivered> {
        sim.run_until(until);
        let mut out = Vec::new();
        sim.take_delivered(&mut out);
        out
    }

    /// Runs event by event until a packet is delivered; the simulation's present is
    /// then its delivery time.
    fn next_delivery(sim: &mut Simulation) -> Delivered {
        let mut out = Vec::new();
        while out.is_empty() {
            assert!(sim.step(Instant::from_nanos(u64::MAX)), "nothing delivered");
            sim.take_delivered(&mut out);
        }
        assert_eq!(out.len(), 1);
        out.remove(0)
    }

    /// A packet from the server reaches its station, bytes unchanged, after the wired
    /// link's delay and at least one exchange's airtime; the reply made on the spot
    /// returns to the server over the air and the wire.
    #[test]
    fn an_echo_goes_down_and_its_reply_comes_back_unchanged() {
        let mut sim = emulated(2);
        let t0 = Instant::ZERO + Duration::from_millis(10);
        let request = ipv4(PROTO_ICMP, 0, 56);
        let s1 = Host::Station(StationId(1));
        inject(&mut sim, t0, Host::Server, s1, request.clone());
        let d = next_delivery(&mut sim);
        assert_eq!(d.to, s1);
        assert_eq!(&*d.packet.bytes, &request[..]);
        assert_eq!((d.sent, d.flow), (t0, FlowIndex(1)));
        // The wired link's 1 ms and its serialisation, then the air: above 1 ms, well
        // below 2 ms on an idle BSS at MCS7.
        let one_way = d.at - t0;
        assert!(
            one_way > Duration::from_millis(1) && one_way < Duration::from_millis(2),
            "{one_way:?}"
        );
        inject(&mut sim, d.at, s1, Host::Server, request.clone());
        let up = next_delivery(&mut sim);
        assert_eq!(up.to, Host::Server);
        let back = up.at - d.at;
        assert!(
            back > Duration::from_millis(1) && back < Duration::from_millis(2),
            "{back:?}"
        );
        // Counted in the flow, by payload.
        assert_eq!(sim.metrics().flows[1].rx_packets, 2);
        assert_eq!(sim.metrics().flows[1].rx_bytes, 2 * 56);
    }

    /// Nothing is delivered before its time: the next event says when to come back,
    /// and running to just before a delivery delivers nothing.
    #[test]
    fn deliveries_come_at_their_time_and_the_next_event_says_when() {
        let mut sim = emulated(1);
        let t0 = Instant::ZERO + Duration::from_millis(5);
        inject(
            &mut sim,
            t0,
            Host::Server,
            Host::Station(StationId(0)),
            ipv4(PROTO_TCP, 0, 1448),
        );
        let mut reference = emulated(1);
        let b = ipv4(PROTO_TCP, 0, 1448);
        let f = parse_ipv4(&b).unwrap();
        reference
            .inject(
                t0,
                Host::Server,
                Host::Station(StationId(0)),
                FlowIndex(0),
                &f,
                b.into(),
            )
            .unwrap();
        let at = deliver_by(&mut reference, t0 + Duration::from_millis(50))[0].at;
        assert!(deliver_by(&mut sim, at - Duration::from_nanos(1)).is_empty());
        assert!(sim.next_event_at().unwrap() <= at);
        let got = deliver_by(&mut sim, at);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].at, at, "the same seed gives the same timing");
    }

    /// A burst of TCP-sized packets is delivered in order, all of it, and the flow
    /// hash the AP queued them under is the real 5-tuple's.
    #[test]
    fn a_burst_is_delivered_whole_and_in_order() {
        let mut sim = emulated(1);
        let t0 = Instant::ZERO + Duration::from_millis(1);
        for i in 0..50u8 {
            let mut b = ipv4(PROTO_TCP, 0, 1448);
            b[40] = i;
            inject(&mut sim, t0, Host::Server, Host::Station(StationId(0)), b);
        }
        let got = deliver_by(&mut sim, t0 + Duration::from_millis(200));
        let order: Vec<u8> = got.iter().map(|d| d.packet.bytes[40]).collect();
        assert_eq!(order, (0..50).collect::<Vec<u8>>());
        assert!(got.windows(2).all(|w| w[0].at <= w[1].at));
    }

    #[test]
    fn packets_that_do_not_cross_the_bss_are_refused() {
        let mut sim = emulated(2);
        let b = ipv4(PROTO_TCP, 0, 10);
        let f = parse_ipv4(&b).unwrap();
        let t = Instant::ZERO + Duration::from_millis(1);
        let s0 = Host::Station(StationId(0));
        let cases = [
            (Host::Server, Host::Server, FlowIndex(0)),
            (s0, s0, FlowIndex(0)),
            (Host::Server, Host::Station(StationId(9)), FlowIndex(0)),
            (Host::Server, s0, FlowIndex(7)),
        ];
        for (from, to, flow) in cases {
            assert!(sim.inject(t, from, to, flow, &f, b.clone().into()).is_err());
        }
        sim.run_until(t + Duration::from_millis(1));
        assert_eq!(
            sim.inject(t, Host::Server, s0, FlowIndex(0), &f, b.into()),
            Err(InjectError::InThePast {
                at: t,
                now: t + Duration::from_millis(1)
            })
        );
    }

    /// The air log, when asked for, has every wireless hop of every real packet at the
    /// time its recipient got it: an echo and its reply once each, a relayed packet
    /// twice (up, then down); without it, nothing is kept.
    #[test]
    fn the_air_log_has_each_hop_at_its_time() {
        let mut plain = emulated(2);
        let mut sim = emulated(2);
        sim.record_air();
        let t0 = Instant::ZERO + Duration::from_millis(1);
        let (s0, s1) = (Host::Station(StationId(0)), Host::Station(StationId(1)));
        let request = ipv4(PROTO_ICMP, 0, 56);
        for sim in [&mut plain, &mut sim] {
            inject(sim, t0, Host::Server, s0, request.clone());
            inject(sim, t0, s0, s1, request.clone());
        }
        let got = deliver_by(&mut sim, t0 + Duration::from_millis(50));
        assert_eq!(got, deliver_by(&mut plain, t0 + Duration::from_millis(50)));
        let mut air = Vec::new();
        sim.take_air(&mut air);
        let hops: Vec<(StationId, bool)> = air.iter().map(|a| (a.station, a.uplink)).collect();
        assert_eq!(hops.len(), 3, "{hops:?}");
        assert!(hops.contains(&(StationId(0), false)));
        assert!(hops.contains(&(StationId(0), true)));
        assert!(hops.contains(&(StationId(1), false)));
        assert!(air.windows(2).all(|w| w[0].at <= w[1].at));
        assert!(air.iter().all(|a| *a.bytes == request[..]));
        // A station's delivery is its air hop's end.
        for d in &got {
            assert!(air
                .iter()
                .any(|a| a.at == d.at && Host::Station(a.station) == d.to));
        }
        let mut none = Vec::new();
        plain.take_air(&mut none);
        assert!(none.is_empty());
    }

    /// Between two stations the AP relays: up from one, down to the other.
    #[test]
    fn a_packet_between_stations_is_relayed_by_the_ap() {
        let mut sim = emulated(2);
        let t0 = Instant::ZERO + Duration::from_millis(1);
        let to = Host::Station(StationId(1));
        inject(
            &mut sim,
            t0,
            Host::Station(StationId(0)),
            to,
            ipv4(PROTO_ICMP, 0, 56),
        );
        let got = deliver_by(&mut sim, t0 + Duration::from_millis(50));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].to, to);
    }
}
