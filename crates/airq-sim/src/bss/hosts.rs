//! The hosts' side of the loop: the flows' applications making packets at the server and
//! the stations, the wired link, the AP relaying packets from one station to another,
//! and what arrives at a packet's destination.

use super::http::HttpState;
use super::tcp_flows::Connection;
use super::{Event, Simulation};
use crate::apps::traffic::{App, Direction, FlowSpec, UDP_IP_HEADER_BYTES};
use crate::apps::voip_stats::VoipStats;
use crate::mac::txpath::DropCause;
use crate::metrics::RttSample;
use crate::net::flow_hash::{flow_hash, FiveTuple, PROTO_ICMP, PROTO_TCP, PROTO_UDP};
use crate::net::packet::{FlowIndex, NodeId, Payload, SimPacket};
use crate::net::wired::{TOWARDS_AP, TOWARDS_SERVER};
use airq::{Ecn, Instant, StationId, Tid};

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
    /// Flow hashes of the packets, by connection and direction (downlink, uplink), as
    /// computed the first time.
    pub hashes: Vec<[Option<u32>; 2]>,
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

impl Simulation {
    /// Hands a packet to the transmit path of its sender, `node`; drops go to
    /// `self.out`.
    pub(super) fn enqueue_at(&mut self, node: NodeId, packet: SimPacket) {
        match node {
            NodeId::Ap => {
                let result = self.ap.enqueue(packet, self.now, &mut self.out);
                debug_assert!(result.is_ok(), "flows are checked against the stations");
            }
            NodeId::Sta(s) => self.stations[s.index()].enqueue(packet, self.now, &mut self.out),
        }
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
    ) -> SimPacket {
        let f = &mut self.flows[flow as usize];
        let id = self.next_packet_id;
        self.next_packet_id += 1;
        let uplink = (f.spec.direction == Direction::Uplink) != reverse;
        let c = conn as usize;
        if f.hashes.len() <= c {
            f.hashes.resize(c + 1, [None; 2]);
        }
        let perturbation = self.hash_perturbation;
        let hash = *f.hashes[c][usize::from(uplink)].get_or_insert_with(|| {
            flow_hash(&five_tuple(&f.spec, flow, conn, uplink), perturbation)
        });
        let (station, uplink, relay_to) = first_hop(&f.spec, uplink);
        SimPacket {
            id,
            flow: FlowIndex(flow),
            station,
            uplink,
            relay_to,
            len_bytes,
            tid: f.tid,
            flow_hash: hash,
            ecn: Ecn::NotEct,
            created: self.now,
            enqueue_time: self.now,
            payload,
            airtime_est_us: 0,
        }
    }

    /// Sends a packet from the host at its source: a station queues an uplink packet,
    /// the server serialises a downlink one onto the wired link towards the AP.
    pub(super) fn send(&mut self, packet: SimPacket) {
        if packet.uplink {
            self.transmit_from(NodeId::Sta(packet.station), packet);
        } else {
            self.wire_send(TOWARDS_AP, packet);
        }
    }

    /// Hands a packet to `node`'s transmit path, accounts its drops and lets `node`
    /// contend for the medium.
    pub(super) fn transmit_from(&mut self, node: NodeId, packet: SimPacket) {
        self.enqueue_at(node, packet);
        self.drain_out();
        self.update_access(node);
    }

    fn wire_send(&mut self, dir: usize, packet: SimPacket) {
        let link = self.scenario.wired;
        match self.wire[dir].send(&link, self.now, packet) {
            Ok(Some(t)) => self
                .events
                .schedule_in_lane(dir, t, Event::WireArrival(dir)),
            Ok(None) => {}
            Err(dropped) => {
                self.metrics.stations[dropped.station.index()].drops
                    [DropCause::WireQueue as usize] += 1;
            }
        }
    }

    /// The next packet of a periodic flow (CBR UDP, ping), and the timer for the one
    /// after.
    pub(super) fn periodic(&mut self, flow: u32) {
        let spec = &self.flows[flow as usize].spec;
        if !spec.active_at(self.now) {
            return;
        }
        let interval = spec.interval().expect("a periodic flow has an interval");
        let len = spec
            .packet_bytes()
            .expect("a periodic flow's packets have a size");
        self.events
            .schedule(self.now + interval, Event::Periodic(flow));
        let f = &mut self.flows[flow as usize];
        let seq = f.next_seq;
        f.next_seq += 1;
        let payload = match f.spec.app {
            App::Udp { .. } => Payload::Udp,
            App::Ping { .. } => {
                self.metrics.flows[flow as usize]
                    .echo_requests
                    .push(self.now - Instant::ZERO);
                Payload::Echo {
                    seq,
                    reply: false,
                    sent: self.now,
                }
            }
            App::Tcp { .. } | App::Http { .. } => unreachable!("TCP flows are not periodic"),
            App::Voip { .. } => {
                let stats = f.voip.as_mut().expect("a VoIP flow has statistics");
                let recorded = stats.record_sent(u64::from(seq), self.now);
                debug_assert!(recorded.is_ok(), "sequence numbers are new");
                Payload::Voip {
                    seq: u64::from(seq),
                }
            }
        };
        let packet = self.make_packet(flow, 0, false, len, payload);
        self.send(packet);
    }

    /// Tops up the saturated flows sent by `node`, one packet per flow in turn (from a
    /// rotating first flow), as senders offering the same rate would fill a shared
    /// queue. The first drop ends the top-up: the queue is full, and the next departure
    /// will make room again — so a full queue costs one drop per departure, not a churn.
    pub(super) fn refill(&mut self, node: NodeId) {
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
                let Some(backlog_packets) = state.spec.saturated_backlog() else {
                    continue;
                };
                if state.queued >= backlog_packets || !state.spec.active_at(self.now) {
                    continue;
                }
                let len = state.spec.packet_bytes().expect("a UDP flow");
                let packet = self.make_packet(f, 0, false, len, Payload::Udp);
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
    pub(super) fn drain_out(&mut self) {
        let mut out = std::mem::take(&mut self.out);
        debug_assert!(
            out.acked.is_empty() && out.given_up.is_empty(),
            "recipient first"
        );
        for (packet, cause) in out.dropped.drain(..) {
            self.left_sender(&packet);
            self.metrics.stations[packet.station.index()].drops[cause as usize] += 1;
        }
        self.out = out;
    }

    fn left_sender(&mut self, packet: &SimPacket) {
        let f = &mut self.flows[packet.flow.0 as usize];
        if f.spec.saturated_backlog().is_some() {
            f.queued -= 1;
        }
    }

    /// Hands the recipient of an exchange what its originator reported (MPDUs
    /// acknowledged and given up) and keeps every packet its reordering buffer lets go,
    /// in order, for [`Self::deliver_released`]. A multi-TID A-MPDU (combined QoS
    /// aggregates, [`airq::aggregate::qos_aggregate`]) is reordered per TID, as its Multi-STA
    /// BlockAck acknowledges it (IEEE 802.11ax-2021 26.6.3): the TIDs that rode at its
    /// head first, then the PPDU's own `tid`.
    pub(super) fn receive_at_recipient(&mut self, src: NodeId, dst: NodeId, tid: Tid) {
        let recipient = match (src, dst) {
            (NodeId::Ap, NodeId::Sta(s)) => &mut self.station_rx[s.index()],
            (NodeId::Sta(s), NodeId::Ap) => &mut self.ap_rx[s.index()],
            _ => unreachable!("every exchange is between the AP and a station"),
        };
        let out = &mut self.out;
        let multi_tid = out.acked.iter().any(|(_, p)| p.tid != tid)
            || out.given_up.iter().any(|&(t, _)| t != tid);
        if !multi_tid {
            let buffer = recipient.tid(tid);
            for (seq, packet) in out.acked.drain(..) {
                buffer.receive(seq, packet);
            }
            for (_, seq) in out.given_up.drain(..) {
                buffer.give_up(seq);
            }
            buffer.release(&mut self.released);
            return;
        }
        let mut tids: Vec<Tid> = Vec::new();
        let others =
            (out.acked.iter().map(|(_, p)| p.tid)).chain(out.given_up.iter().map(|&(t, _)| t));
        for t in others {
            if t != tid && !tids.contains(&t) {
                tids.push(t);
            }
        }
        tids.push(tid);
        let mut acked = std::mem::take(&mut out.acked);
        let mut given_up = std::mem::take(&mut out.given_up);
        for t in tids {
            let buffer = recipient.tid(t);
            let (mine, rest): (Vec<_>, Vec<_>) = acked.drain(..).partition(|(_, p)| p.tid == t);
            acked = rest;
            for (seq, packet) in mine {
                buffer.receive(seq, packet);
            }
            for &(_, seq) in given_up.iter().filter(|&&(gt, _)| gt == t) {
                buffer.give_up(seq);
            }
            given_up.retain(|&(gt, _)| gt != t);
            buffer.release(&mut self.released);
        }
        debug_assert!(acked.is_empty() && given_up.is_empty());
        // Keep the (now empty) buffers' capacity.
        out.acked = acked;
        out.given_up = given_up;
    }

    /// Hands the hosts the packets the exchange that just ended delivered, once the MAC
    /// has done with it: their reactions (a relay, a TCP ACK, a reply) are new frames
    /// for a medium that is idle again.
    pub(super) fn deliver_released(&mut self) {
        let mut released = std::mem::take(&mut self.released);
        for packet in released.drain(..) {
            self.delivered(packet);
        }
        self.released = released;
    }

    /// A packet received by the radio at the end of its wireless hop: a station's packet
    /// has arrived; an uplink one goes on over the wired link to the server, or back
    /// down to the station it is relayed to.
    fn delivered(&mut self, mut packet: SimPacket) {
        self.left_sender(&packet);
        let m = &mut self.metrics.stations[packet.station.index()];
        if packet.uplink {
            m.rx_bytes_up += u64::from(packet.len_bytes);
            m.rx_packets_up += 1;
            match packet.relay_to.take() {
                Some(peer) => self.relay(packet, peer),
                None => self.wire_send(TOWARDS_SERVER, packet),
            }
        } else {
            m.rx_bytes_down += u64::from(packet.len_bytes);
            m.rx_packets_down += 1;
            self.receive(packet);
        }
    }

    /// The AP relays a packet from one station to another, as mac80211 forwards a frame
    /// for a station of its own BSS (`ieee80211_deliver_skb`): through `dev_queue_xmit`,
    /// so through the qdisc, the MAC layer's queues, the scheduler and the driver like
    /// any downlink packet, keeping the TID it was received with. The uplink hop's
    /// delay counts as the source station's, as the server's reception does for an
    /// uplink packet.
    fn relay(&mut self, mut packet: SimPacket, peer: StationId) {
        self.record_delay(&packet);
        packet.station = peer;
        packet.uplink = false;
        self.transmit_from(NodeId::Ap, packet);
    }

    /// Counts the one-way delay of `packet`, from its creation until now, for its
    /// station.
    fn record_delay(&mut self, packet: &SimPacket) {
        let delay = self.now - packet.created;
        let m = &mut self.metrics.stations[packet.station.index()];
        m.delay_sum += delay;
        m.delay_max = m.delay_max.max(delay);
    }

    /// A packet reaches the host it was sent to (the server or a station).
    pub(super) fn receive(&mut self, packet: SimPacket) {
        let now = self.now;
        self.record_delay(&packet);
        let flow = packet.flow.0;
        let fm = &mut self.metrics.flows[flow as usize];
        match &packet.payload {
            Payload::Tcp { conn, segment } => {
                let (conn, segment) = (*conn, **segment);
                self.tcp_receive(&packet, conn, &segment);
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
                );
                self.send(reply);
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
                self.real_delivered(packet);
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
