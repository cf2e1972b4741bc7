//! The hosts: the flows' applications making packets at the server and the stations,
//! the wired link between the server and the AP, the AP's relaying of packets from one
//! station to another, and what arrives at a packet's destination. The hosts take the
//! time, the timers and the counters from the event loop ([`Cx`]) and hand the packets
//! they send into the BSS back to it as values ([`Hosts::next_transmit`]); they never
//! call a transmit path or the medium.

use super::external::Delivered;
use super::http::HttpState;
use super::tcp_flows::{tcp_sender_side, Connection, Side};
use super::Event;
use crate::apps::traffic::{App, Direction, FlowSpec, UDP_IP_HEADER_BYTES};
use crate::apps::voip_stats::VoipStats;
use crate::engine::event::EventQueue;
use crate::mac::txpath::DropCause;
use crate::metrics::{Metrics, RttSample};
use crate::net::flow_hash::{flow_hash, FiveTuple, PROTO_ICMP, PROTO_TCP, PROTO_UDP};
use crate::net::packet::{FlowIndex, NodeId, Payload, SimPacket};
use crate::net::wired::{WireDirection, WiredLink, TOWARDS_AP, TOWARDS_SERVER};
use crate::transport::tcp::{Outgoing, Segment};
use airq::{Ecn, Instant, StationId, Tid};
use std::collections::VecDeque;

/// The server's IPv4 address (10.0.0.1); station `i` is 10.0.1.(i + 1) and so on.
const SERVER_ADDRESS: u32 = 0x0a00_0001;
const STATION_ADDRESS_BASE: u32 = 0x0a00_0101;

/// The address of station `station`.
fn station_address(station: StationId) -> u32 {
    STATION_ADDRESS_BASE + station.0
}

/// The 5-tuple of a packet of connection `conn` of `flow`: the station's end has an
/// ephemeral port per flow and connection, the server's a well-known one per
/// application (ICMP echo: the echo identifier, which Linux's flow dissector uses as
/// ports). The peer of a station-to-station ping stands where the server would, so its
/// requests go from the flow's station to the peer's address.
pub(super) fn five_tuple(spec: &FlowSpec, flow: u32, conn: u32, uplink: bool) -> FiveTuple {
    let (protocol, server_port) = match spec.app {
        App::Udp { .. } => (PROTO_UDP, 5001),
        App::Ping { .. } => (PROTO_ICMP, 0),
        App::Voip { .. } => (PROTO_UDP, 5004),
        App::Tcp { .. } => (PROTO_TCP, 5001),
        App::Http { .. } => (PROTO_TCP, 80),
    };
    let station_port = 32768 + ((flow * 64 + conn) % 28232) as u16;
    let far_end = spec.peer().map_or(SERVER_ADDRESS, station_address);
    let down = FiveTuple {
        src: far_end,
        dst: station_address(spec.station),
        src_port: server_port,
        dst_port: station_port,
        protocol,
    };
    if uplink {
        down.reversed()
    } else {
        down
    }
}

/// The first wireless hop of a packet of `spec` that goes `uplink` (from the flow's
/// station) or not: the station it leaves or reaches, whether it goes up, and the
/// station the AP relays it to. Between two stations both ways start with an uplink
/// hop, from whichever end sends.
fn first_hop(spec: &FlowSpec, uplink: bool) -> (StationId, bool, Option<StationId>) {
    match spec.peer() {
        Some(peer) if uplink => (spec.station, true, Some(peer)),
        Some(peer) => (peer, true, Some(spec.station)),
        None => (spec.station, uplink, None),
    }
}

/// State of one flow.
pub(super) struct FlowState {
    pub spec: FlowSpec,
    pub tid: Tid,
    /// Packets of a saturated flow held at its sender.
    pub queued: u32,
    /// Next sequence number of a ping or VoIP packet.
    pub next_seq: u32,
    /// The receiver's statistics of a VoIP flow.
    pub voip: Option<VoipStats>,
    /// TCP connections, by index; closed ones stay, for their counters.
    pub conns: Vec<Connection>,
    /// The web client of an HTTP flow.
    pub http: HttpState,
    /// Flow hashes of the packets of the connections after the first (whose are in the
    /// flow's [`PacketHead`]), by connection from the second and direction (downlink,
    /// uplink), as computed the first time.
    pub hashes: Vec<[Option<u32>; 2]>,
}

/// What every packet of a flow's first connection takes from the flow, by direction
/// (downlink, uplink), kept in a table of its own: a few cache lines for a thousand
/// flows, where the flows' states are hundreds of bytes each.
#[derive(Clone, Copy)]
struct PacketHead {
    tid: Tid,
    /// The flow's data goes uplink (from its station).
    data_uplink: bool,
    /// [`first_hop`] by direction.
    hops: [(StationId, bool, Option<StationId>); 2],
    /// The 5-tuple's hash by direction.
    hashes: [u32; 2],
}

impl PacketHead {
    fn new(f: &FlowState, flow: u32, perturbation: u32) -> PacketHead {
        let hash = |uplink| flow_hash(&five_tuple(&f.spec, flow, 0, uplink), perturbation);
        PacketHead {
            tid: f.tid,
            data_uplink: f.spec.direction == Direction::Uplink,
            hops: [first_hop(&f.spec, false), first_hop(&f.spec, true)],
            hashes: [hash(false), hash(true)],
        }
    }
}

impl FlowState {
    /// The node that sends the flow's data (or echo requests) into the BSS.
    pub fn sender(&self) -> NodeId {
        match self.spec.direction {
            Direction::Downlink => NodeId::Ap,
            Direction::Uplink => NodeId::Sta(self.spec.station),
        }
    }
}

/// What a host handler gets from the event loop: the time, the timers, the counters.
pub(super) struct Cx<'a> {
    pub now: Instant,
    pub events: &'a mut EventQueue<Event, 2>,
    pub metrics: &'a mut Metrics,
}

/// The server, the stations' hosts and the wired link.
pub(super) struct Hosts {
    pub flows: Vec<FlowState>,
    /// By flow.
    heads: Vec<PacketHead>,
    /// The flows that run TCP, in order, with the end of their connections that sends
    /// the data.
    pub(super) tcp_flows: Vec<(u32, Side)>,
    /// Saturated flows by sending node.
    saturated_by_node: Vec<Vec<u32>>,
    /// Per node, the flow its next top-up starts with.
    refill_cursor: Vec<usize>,
    /// The wired link: towards the AP, towards the server.
    wire: [WireDirection; 2],
    wired: WiredLink,
    next_packet_id: u32,
    /// Seed of the 5-tuple hashes, as Linux draws one at boot.
    pub(super) hash_perturbation: u32,
    /// Scratch buffer of TCP segments an endpoint sends.
    pub(super) tcp_out: Vec<Outgoing>,
    /// Boxes of TCP segments that have arrived, for the next segments sent (a run sends
    /// millions; this spares the allocator). The boxes themselves are what is kept.
    #[allow(clippy::vec_box)]
    pub(super) spare_segments: Vec<Box<Segment>>,
    /// Real packets delivered to their host, for the emulator to take.
    pub(super) real_out: Vec<Delivered>,
    /// Packets sent into the BSS, each with the node whose transmit path takes it, in
    /// the order they were sent.
    transmits: VecDeque<(NodeId, SimPacket)>,
}

impl Hosts {
    pub fn new(
        flows: Vec<FlowState>,
        nodes: usize,
        wired: WiredLink,
        hash_perturbation: u32,
    ) -> Hosts {
        let mut saturated_by_node = vec![Vec::new(); nodes];
        for (i, f) in flows.iter().enumerate() {
            if f.spec.saturated_backlog().is_some() {
                saturated_by_node[f.sender().index()].push(i as u32);
            }
        }
        let tcp_flows = (0..flows.len() as u32)
            .filter_map(|i| tcp_sender_side(&flows[i as usize].spec).map(|side| (i, side)))
            .collect();
        let heads = (0..flows.len())
            .map(|i| PacketHead::new(&flows[i], i as u32, hash_perturbation))
            .collect();
        Hosts {
            tcp_flows,
            heads,
            flows,
            refill_cursor: vec![0; saturated_by_node.len()],
            saturated_by_node,
            wire: Default::default(),
            wired,
            next_packet_id: 0,
            hash_perturbation,
            tcp_out: Vec::new(),
            spare_segments: Vec::new(),
            real_out: Vec::new(),
            transmits: VecDeque::new(),
        }
    }

    /// The next packet's [`SimPacket::id`].
    pub(super) fn new_packet_id(&mut self) -> u32 {
        let id = self.next_packet_id;
        self.next_packet_id = id.wrapping_add(1);
        id
    }

    /// The oldest packet sent into the BSS and not yet handed to its node.
    pub fn next_transmit(&mut self) -> Option<(NodeId, SimPacket)> {
        self.transmits.pop_front()
    }

    /// A packet of connection `conn` of `flow` (0 but for web flows), `reverse` if it
    /// goes against the flow's direction.
    pub(super) fn make_packet(
        &mut self,
        flow: u32,
        conn: u32,
        reverse: bool,
        len_bytes: u32,
        payload: Payload,
        now: Instant,
    ) -> SimPacket {
        let id = self.new_packet_id();
        let head = &self.heads[flow as usize];
        let uplink = head.data_uplink != reverse;
        let (station, first_uplink, relay_to) = head.hops[usize::from(uplink)];
        let hash = match conn.checked_sub(1) {
            None => head.hashes[usize::from(uplink)],
            Some(c) => {
                let c = c as usize;
                let f = &mut self.flows[flow as usize];
                if f.hashes.len() <= c {
                    f.hashes.resize(c + 1, [None; 2]);
                }
                let perturbation = self.hash_perturbation;
                *f.hashes[c][usize::from(uplink)].get_or_insert_with(|| {
                    flow_hash(&five_tuple(&f.spec, flow, conn, uplink), perturbation)
                })
            }
        };
        SimPacket {
            id,
            flow: FlowIndex(flow),
            station,
            uplink: first_uplink,
            relay_to: relay_to.into(),
            len_bytes,
            tid: head.tid,
            flow_hash: hash,
            ecn: Ecn::NotEct,
            created: now,
            enqueue_time: now,
            payload,
            airtime_est_us: 0,
        }
    }

    /// Sends a packet from the host at its source: a station queues an uplink packet,
    /// the server serialises a downlink one onto the wired link towards the AP.
    pub(super) fn send(&mut self, packet: SimPacket, cx: &mut Cx) {
        if packet.uplink {
            self.transmits
                .push_back((NodeId::Sta(packet.station), packet));
        } else {
            self.wire_send(TOWARDS_AP, packet, cx);
        }
    }

    fn wire_send(&mut self, dir: usize, packet: SimPacket, cx: &mut Cx) {
        match self.wire[dir].send(&self.wired, cx.now, packet) {
            Ok(Some(t)) => cx.events.schedule_in_lane(dir, t, Event::WireArrival(dir)),
            Ok(None) => {}
            Err(dropped) => {
                cx.metrics.stations[dropped.station.index()].drops
                    [DropCause::WireQueue as usize] += 1;
            }
        }
    }

    /// The packet at the head of the wired link's direction `dir` arrives: at the
    /// server, or at the AP, which transmits it.
    pub(super) fn wire_arrival(&mut self, dir: usize, cx: &mut Cx) {
        let (packet, next) = self.wire[dir].arrive();
        if let Some(t) = next {
            cx.events.schedule_in_lane(dir, t, Event::WireArrival(dir));
        }
        if dir == TOWARDS_SERVER {
            self.receive(packet, cx);
        } else {
            self.transmits.push_back((NodeId::Ap, packet));
        }
    }

    /// The next packet of a periodic flow (CBR UDP, ping), and the timer for the one
    /// after.
    pub(super) fn periodic(&mut self, flow: u32, cx: &mut Cx) {
        let now = cx.now;
        let spec = &self.flows[flow as usize].spec;
        if !spec.active_at(now) {
            return;
        }
        let interval = spec.interval().expect("a periodic flow has an interval");
        let len = spec
            .packet_bytes()
            .expect("a periodic flow's packets have a size");
        cx.events.schedule(now + interval, Event::Periodic(flow));
        let f = &mut self.flows[flow as usize];
        let seq = f.next_seq;
        f.next_seq += 1;
        let payload = match f.spec.app {
            App::Udp { .. } => Payload::Udp,
            App::Ping { .. } => {
                cx.metrics.flows[flow as usize]
                    .echo_requests
                    .push(now - Instant::ZERO);
                Payload::Echo {
                    seq,
                    reply: false,
                    sent: now,
                }
            }
            App::Tcp { .. } | App::Http { .. } => unreachable!("TCP flows are not periodic"),
            App::Voip { .. } => {
                let stats = f.voip.as_mut().expect("a VoIP flow has statistics");
                let recorded = stats.record_sent(u64::from(seq), now);
                debug_assert!(recorded.is_ok(), "sequence numbers are new");
                Payload::Voip {
                    seq: u64::from(seq),
                }
            }
        };
        let packet = self.make_packet(flow, 0, false, len, payload, now);
        self.send(packet, cx);
    }

    /// Where the next top-up of `node`'s saturated flows starts, and how many there
    /// are: the caller asks [`Hosts::saturated_packet`] of each in turn from there
    /// (see `Simulation::refill`). `None` if `node` sends none.
    pub(super) fn refill_start(&mut self, node: NodeId) -> Option<(usize, usize)> {
        let n = self.saturated_by_node[node.index()].len();
        if n == 0 {
            return None;
        }
        let start = self.refill_cursor[node.index()] % n;
        self.refill_cursor[node.index()] = start + 1;
        Some((start, n))
    }

    /// The AC of `node`'s `k`th saturated flow.
    pub(super) fn saturated_ac(&self, node: NodeId, k: usize) -> airq::Ac {
        let f = self.saturated_by_node[node.index()][k];
        self.flows[f as usize].tid.ac()
    }

    /// The next packet of `node`'s `k`th saturated flow, if it is active and its
    /// backlog at the sender is not full.
    pub(super) fn saturated_packet(
        &mut self,
        node: NodeId,
        k: usize,
        now: Instant,
    ) -> Option<SimPacket> {
        let f = self.saturated_by_node[node.index()][k];
        let state = &self.flows[f as usize];
        let backlog_packets = state.spec.saturated_backlog()?;
        if state.queued >= backlog_packets || !state.spec.active_at(now) {
            return None;
        }
        let len = state.spec.packet_bytes().expect("a UDP flow");
        let packet = self.make_packet(f, 0, false, len, Payload::Udp, now);
        self.flows[f as usize].queued += 1;
        Some(packet)
    }

    /// A transmit path dropped `packet` for `cause`.
    pub(super) fn dropped(&mut self, packet: &SimPacket, cause: DropCause, metrics: &mut Metrics) {
        self.left_sender(packet);
        metrics.stations[packet.station.index()].drops[cause as usize] += 1;
    }

    fn left_sender(&mut self, packet: &SimPacket) {
        let f = &mut self.flows[packet.flow.0 as usize];
        if f.spec.saturated_backlog().is_some() {
            f.queued -= 1;
        }
    }

    /// A packet received by the radio at the end of its wireless hop: a station's packet
    /// has arrived; an uplink one goes on over the wired link to the server, or back
    /// down to the station it is relayed to.
    pub(super) fn delivered(&mut self, mut packet: SimPacket, cx: &mut Cx) {
        self.left_sender(&packet);
        let m = &mut cx.metrics.stations[packet.station.index()];
        if packet.uplink {
            m.rx_bytes_up += u64::from(packet.len_bytes);
            m.rx_packets_up += 1;
            match packet.relay_to.take() {
                Some(peer) => self.relay(packet, peer, cx),
                None => self.wire_send(TOWARDS_SERVER, packet, cx),
            }
        } else {
            m.rx_bytes_down += u64::from(packet.len_bytes);
            m.rx_packets_down += 1;
            self.receive(packet, cx);
        }
    }

    /// The AP relays a packet from one station to another, as mac80211 forwards a frame
    /// for a station of its own BSS (`ieee80211_deliver_skb`): through `dev_queue_xmit`,
    /// so through the qdisc, the MAC layer's queues, the scheduler and the driver like
    /// any downlink packet, keeping the TID it was received with. The uplink hop's
    /// delay counts as the source station's, as the server's reception does for an
    /// uplink packet.
    fn relay(&mut self, mut packet: SimPacket, peer: StationId, cx: &mut Cx) {
        record_delay(&packet, cx);
        packet.station = peer;
        packet.uplink = false;
        self.transmits.push_back((NodeId::Ap, packet));
    }

    /// A packet reaches the host it was sent to (the server or a station).
    pub(super) fn receive(&mut self, packet: SimPacket, cx: &mut Cx) {
        let now = cx.now;
        record_delay(&packet, cx);
        let flow = packet.flow.0;
        let fm = &mut cx.metrics.flows[flow as usize];
        match &packet.payload {
            Payload::Tcp { conn, segment } => {
                let (conn, segment) = (*conn, **segment);
                self.tcp_receive(&packet, conn, &segment, cx);
                if let Payload::Tcp { segment, .. } = packet.payload {
                    self.spare_segments.push(segment);
                }
            }
            Payload::Udp => {
                fm.rx_bytes += u64::from(packet.len_bytes - UDP_IP_HEADER_BYTES);
                fm.rx_packets += 1;
            }
            &Payload::Echo {
                seq,
                reply: false,
                sent,
            } => {
                // The echo reply carries the request's data back.
                let reply = self.make_packet(
                    flow,
                    0,
                    true,
                    packet.len_bytes,
                    Payload::Echo {
                        seq,
                        reply: true,
                        sent,
                    },
                    now,
                );
                self.send(reply, cx);
            }
            &Payload::Voip { seq } => {
                fm.rx_bytes += u64::from(packet.len_bytes - UDP_IP_HEADER_BYTES);
                fm.rx_packets += 1;
                let stats = self.flows[flow as usize].voip.as_mut();
                let recorded = stats.map(|s| s.record_received(seq, packet.created, now));
                debug_assert!(
                    matches!(recorded, Some(Ok(()))),
                    "a VoIP packet arrives once"
                );
            }
            Payload::Real(real) => {
                fm.rx_bytes += u64::from(real.payload_bytes);
                fm.rx_packets += 1;
                self.real_delivered(packet, now);
            }
            &Payload::Echo {
                reply: true, sent, ..
            } => {
                fm.rx_packets += 1;
                fm.rtt.push(RttSample {
                    at: now - Instant::ZERO,
                    rtt: now - sent,
                });
            }
        }
    }
}

/// Counts the one-way delay of `packet`, from its creation until now, for its station.
fn record_delay(packet: &SimPacket, cx: &mut Cx) {
    let delay = cx.now - packet.created;
    let m = &mut cx.metrics.stations[packet.station.index()];
    m.delay_sum += delay;
    m.delay_max = m.delay_max.max(delay);
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::Duration;

    #[test]
    fn a_station_to_station_ping_goes_from_the_station_to_its_peer() {
        let (s0, s2) = (StationId(0), StationId(2));
        let spec = FlowSpec::station_ping(s0, s2, Duration::from_millis(100));
        let request = five_tuple(&spec, 3, 0, true);
        // ICMP from 10.0.1.1 to 10.0.1.3.
        assert_eq!(
            (request.src, request.dst, request.protocol),
            (0x0a00_0101, 0x0a00_0103, PROTO_ICMP)
        );
        assert_eq!(five_tuple(&spec, 3, 0, false), request.reversed());
        // Both ways start uplink, from the end that sends, relayed to the other.
        assert_eq!(first_hop(&spec, true), (s0, true, Some(s2)));
        assert_eq!(first_hop(&spec, false), (s2, true, Some(s0)));
        let server = FlowSpec::ping(s0, Duration::from_millis(100));
        assert_eq!(five_tuple(&server, 3, 0, false).src, SERVER_ADDRESS);
        assert_eq!(first_hop(&server, false), (s0, false, None));
    }
}
