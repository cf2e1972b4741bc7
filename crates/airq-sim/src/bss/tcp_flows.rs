//! TCP over the BSS. Each connection joins two endpoints of the same model
//! ([`crate::transport::tcp`]): the server's, behind the wired link, and the station's. The station
//! opens the connection, as a netperf or browser client behind the AP would; data flows
//! in the flow's direction (bulk) or as request and response (web). Timers are events:
//! an endpoint's earliest deadline is armed after every interaction, and a timer that
//! fires early (the deadline moved) just re-arms.

use super::hosts::FlowState;
use super::hosts::{Cx, Hosts};
use super::Event;
use crate::apps::traffic::{App, Direction, FlowSpec};
use crate::metrics::TcpSenderSample;
use crate::net::packet::{Payload, SimPacket};
use crate::transport::tcp::{Outgoing, Segment, TcpEndpoint, TcpState};
use airq::{Ecn, Instant};

/// Which end of a connection: the server's or the station's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Server = 0,
    Station = 1,
}

/// One TCP connection of a flow.
pub(super) struct Connection {
    /// Indexed by [`Side`].
    pub ends: [TcpEndpoint; 2],
    /// The time each end's timer event is scheduled for.
    armed: [Option<Instant>; 2],
    /// Payload bytes each end has delivered to its application, as last accounted.
    delivered: [u64; 2],
    /// A bulk sender has been given its unending write.
    bulk_started: bool,
}

impl Connection {
    /// A connection the station opens now.
    pub fn open(
        config: &crate::transport::tcp::TcpConfig,
        now: Instant,
        out: &mut Vec<Outgoing>,
    ) -> Self {
        let mut station = TcpEndpoint::client(config);
        station.connect(now, out);
        Connection {
            ends: [TcpEndpoint::server(config), station],
            armed: [None; 2],
            delivered: [0; 2],
            bulk_started: false,
        }
    }

    /// Payload bytes `side` has delivered to its application, as last accounted.
    pub fn delivered_bytes(&self, side: Side) -> u64 {
        self.delivered[side as usize]
    }

    /// Payload bytes `side` has received in order since the last call.
    fn newly_delivered(&mut self, side: Side) -> u64 {
        let now = self.ends[side as usize].delivered();
        let new = now - self.delivered[side as usize];
        self.delivered[side as usize] = now;
        new
    }
}

/// Which end of `spec`'s TCP connections sends its data: the server's of a download or
/// of web responses, the station's of an upload; `None` for a flow without TCP.
pub(super) fn tcp_sender_side(spec: &FlowSpec) -> Option<Side> {
    match spec.app {
        App::Tcp { .. } => Some(match spec.direction {
            Direction::Downlink => Side::Server,
            Direction::Uplink => Side::Station,
        }),
        App::Http { .. } => Some(Side::Server),
        _ => None,
    }
}

/// The state of `flow`'s TCP sender, its end `sender` ([`tcp_sender_side`]), for the
/// time series ([`TcpSenderSample`]): that of its most recently opened connection among
/// those that are open; `None` before its sender is established and after its
/// connections closed.
fn tcp_sender_sample(flow: &FlowState, sender: Side) -> Option<TcpSenderSample> {
    let open = |state| {
        matches!(
            state,
            TcpState::Established
                | TcpState::FinWait
                | TcpState::CloseWait
                | TcpState::Closing
                | TcpState::LastAck
        )
    };
    let end = flow
        .conns
        .iter()
        .rev()
        .map(|c| &c.ends[sender as usize])
        .find(|end| open(end.state()))?;
    Some(TcpSenderSample {
        cwnd_segments: end.cwnd(),
        srtt: end.srtt(),
    })
}

impl Hosts {
    /// The TCP senders with an open connection, for the time series
    /// ([`crate::metrics::Sample::flow_tcp`]): by flow, in flow order.
    pub(super) fn tcp_senders(&self) -> Vec<(u32, TcpSenderSample)> {
        self.tcp_flows
            .iter()
            .filter_map(|&(flow, side)| {
                tcp_sender_sample(&self.flows[flow as usize], side).map(|t| (flow, t))
            })
            .collect()
    }

    /// Opens a new connection of `flow` from its station; returns its index.
    pub(super) fn tcp_open(&mut self, flow: u32, cx: &mut Cx) -> u32 {
        let mut out = std::mem::take(&mut self.tcp_out);
        let config = match &self.flows[flow as usize].spec.app {
            App::Tcp { config } => *config,
            App::Http { config, .. } => *config,
            _ => unreachable!("only TCP applications open connections"),
        };
        let connection = Connection::open(&config, cx.now, &mut out);
        let conns = &mut self.flows[flow as usize].conns;
        conns.push(connection);
        let conn = (conns.len() - 1) as u32;
        self.tcp_emit(flow, conn, Side::Station, &mut out, cx);
        self.tcp_out = out;
        conn
    }

    /// A bulk flow's test ends (its `stop`): each connection's sender stops writing
    /// where it stands and closes ([`TcpEndpoint::finish`]); what is in flight is still
    /// delivered. One not yet established never starts its bulk write.
    pub(super) fn tcp_stop(&mut self, flow: u32, cx: &mut Cx) {
        let Some(side) = tcp_sender_side(&self.flows[flow as usize].spec) else {
            return;
        };
        let mut out = std::mem::take(&mut self.tcp_out);
        for conn in 0..self.flows[flow as usize].conns.len() as u32 {
            let c = &mut self.flows[flow as usize].conns[conn as usize];
            c.bulk_started = true;
            c.ends[side as usize].finish(cx.now, &mut out);
            self.tcp_emit(flow, conn, side, &mut out, cx);
        }
        self.tcp_out = out;
    }

    /// A TCP segment reaches the end of connection `conn` at `side`.
    pub(super) fn tcp_receive(
        &mut self,
        packet: &SimPacket,
        conn: u32,
        segment: &Segment,
        cx: &mut Cx,
    ) {
        let flow = packet.flow.0;
        let side = if packet.uplink {
            Side::Server
        } else {
            Side::Station
        };
        let c = &mut self.flows[flow as usize].conns[conn as usize];
        let mut out = std::mem::take(&mut self.tcp_out);
        c.ends[side as usize].on_segment(cx.now, segment, packet.ecn == Ecn::Ce, &mut out);
        self.tcp_after(flow, conn, side, &mut out, cx);
        self.tcp_out = out;
    }

    /// The timer of `side` of connection `conn` fires.
    pub(super) fn tcp_timer(&mut self, flow: u32, conn: u32, side: Side, cx: &mut Cx) {
        let now = cx.now;
        let c = &mut self.flows[flow as usize].conns[conn as usize];
        if c.armed[side as usize] == Some(now) {
            c.armed[side as usize] = None;
        }
        let mut out = std::mem::take(&mut self.tcp_out);
        let end = &mut c.ends[side as usize];
        if end.next_timer().is_some_and(|t| t <= now) {
            end.on_timer(now, &mut out);
        }
        self.tcp_after(flow, conn, side, &mut out, cx);
        self.tcp_out = out;
    }

    /// After `side` of a connection has acted: count what it delivered, let the
    /// application react, send what both ends have to send, and arm their timers.
    fn tcp_after(
        &mut self,
        flow: u32,
        conn: u32,
        side: Side,
        out: &mut Vec<Outgoing>,
        cx: &mut Cx,
    ) {
        let now = cx.now;
        let f = &mut self.flows[flow as usize];
        let c = &mut f.conns[conn as usize];
        let delivered = c.newly_delivered(side);
        cx.metrics.flows[flow as usize].rx_bytes += delivered;
        // Only the end that acted can have become established.
        let end = &mut c.ends[side as usize];
        if matches!(f.spec.app, App::Tcp { .. })
            && tcp_sender_side(&f.spec) == Some(side)
            && !c.bulk_started
            && end.state() == TcpState::Established
        {
            c.bulk_started = true;
            end.write(u64::MAX, now, out);
        }
        if matches!(self.flows[flow as usize].spec.app, App::Http { .. }) {
            self.http_progress(flow, conn, side, out, cx);
        }
        self.tcp_emit(flow, conn, side, out, cx);
    }

    /// Sends `side`'s outgoing segments and arms its timer.
    pub(super) fn tcp_emit(
        &mut self,
        flow: u32,
        conn: u32,
        side: Side,
        out: &mut Vec<Outgoing>,
        cx: &mut Cx,
    ) {
        for o in out.drain(..) {
            let packet = self.tcp_packet(flow, conn, side, o, cx);
            self.send(packet, cx);
        }
        let now = cx.now;
        let c = &mut self.flows[flow as usize].conns[conn as usize];
        if let Some(t) = c.ends[side as usize].next_timer() {
            let t = t.max(now);
            if c.armed[side as usize].is_none_or(|a| t < a) {
                c.armed[side as usize] = Some(t);
                cx.events.schedule(t, Event::TcpTimer { flow, conn, side });
            }
        }
    }

    fn tcp_packet(
        &mut self,
        flow: u32,
        conn: u32,
        side: Side,
        o: Outgoing,
        cx: &mut Cx,
    ) -> SimPacket {
        let uplink = side == Side::Station;
        let flow_uplink = self.flows[flow as usize].spec.direction == Direction::Uplink;
        let segment = match self.spare_segments.pop() {
            Some(mut b) => {
                *b = o.segment;
                b
            }
            None => Box::new(o.segment),
        };
        let mut packet = self.make_packet(
            flow,
            conn,
            uplink != flow_uplink,
            o.segment.ip_len(),
            Payload::Tcp { conn, segment },
            cx.now,
        );
        if o.ect {
            packet.ecn = Ecn::Ect0;
        }
        packet
    }
}
