//! The loop's hand-offs between its layers: the packets the hosts send go to the
//! nodes' transmit paths, what those drop goes back to the hosts' counters, a node
//! with frames contends on the air, and what an exchange delivered goes to the hosts,
//! whose reactions (a relay, a TCP ACK, a reply) are new frames for a medium that is
//! idle again.

use super::hosts::{Cx, Hosts};
use super::{Event, Simulation};
use crate::mac::txpath::Dropped;
use crate::net::packet::{NodeId, SimPacket};

impl Simulation {
    /// Runs `f` on the hosts with the loop's time, timers and counters, then hands the
    /// packets they sent to their nodes.
    pub(super) fn with_hosts(&mut self, f: impl FnOnce(&mut Hosts, &mut Cx)) {
        let mut cx = Cx {
            now: self.now,
            events: &mut self.events,
            metrics: &mut self.metrics,
        };
        f(&mut self.hosts, &mut cx);
        self.flush_transmits();
    }

    /// Sends `packet` from the host at its source.
    pub(super) fn host_send(&mut self, packet: SimPacket) {
        self.with_hosts(|h, cx| h.send(packet, cx));
    }

    /// Hands every packet the hosts sent to its node, in order.
    fn flush_transmits(&mut self) {
        while let Some((node, packet)) = self.hosts.next_transmit() {
            let dropped = self.nodes.enqueue(node, packet, self.now);
            self.account_drops(dropped);
            self.update_access(node);
        }
    }

    /// Accounts what a transmit path dropped.
    pub(super) fn account_drops(&mut self, dropped: Dropped) {
        for (packet, cause) in dropped {
            self.hosts.dropped(&packet, cause, &mut self.metrics);
        }
    }

    /// Activates or deactivates `node`'s EDCA functions by whether it has frames.
    pub(super) fn update_access(&mut self, node: NodeId) {
        self.air.update_access(&self.nodes, node, self.now);
    }

    /// Tops up the saturated flows sent by `node`, one packet per flow in turn (from a
    /// rotating first flow), as senders offering the same rate would fill a shared
    /// queue. A drop ends the top-up of the flows of the dropped packet's AC: their
    /// queue is full, and the next departure will make room again — so a full queue
    /// costs one drop per departure, not a churn. Flows of the other ACs go on: a
    /// station's ACs have queues of their own (`station`), and a VO flood must not
    /// starve because the BE queue beside it is full.
    pub(super) fn refill(&mut self, node: NodeId) {
        let Some((start, n)) = self.hosts.refill_start(node) else {
            return;
        };
        let mut full = [false; airq::Ac::COUNT];
        loop {
            let mut added = false;
            for k in 0..n {
                let ac = self.hosts.saturated_ac(node, (start + k) % n);
                if full[ac.index()] {
                    continue;
                }
                let Some(packet) = self.hosts.saturated_packet(node, (start + k) % n, self.now)
                else {
                    continue;
                };
                added = true;
                let dropped = self.nodes.enqueue(node, packet, self.now);
                if !dropped.is_empty() {
                    self.account_drops(dropped);
                    full[ac.index()] = true;
                }
            }
            if !added {
                return;
            }
        }
    }

    /// The medium's next access is due: the exchange starts, and its end is scheduled.
    pub(super) fn start_exchange(&mut self) {
        let ends = self
            .air
            .start_exchange(self.now, &self.scenario.bss, &mut self.nodes);
        let dropped = self.air.take_dropped();
        if !dropped.is_empty() {
            self.account_drops(dropped);
        }
        if let Some(at) = ends {
            self.events.schedule(at, Event::ExchangeEnd);
        }
    }

    /// The exchange on the air ends: its drops are accounted, the air capture records
    /// it, the hosts receive what it delivered, and the senders top up their saturated
    /// sources (whose packets just left) and contend again for what they hold.
    pub(super) fn end_exchange(&mut self) {
        let mut report = self.air.end_exchange(
            self.now,
            &self.scenario,
            &mut self.nodes,
            &mut self.metrics,
            self.air_log.is_some(),
        );
        let dropped = std::mem::take(&mut report.dropped);
        self.account_drops(dropped);
        if let Some(log) = &mut self.air_log {
            for aired in &report.aired {
                log.record(aired, &self.hosts.flows, self.now);
            }
        }
        for packet in report.delivered.drain(..) {
            self.with_hosts(|h, cx| h.delivered(packet, cx));
        }
        for &node in &report.senders {
            self.refill(node);
            self.update_access(node);
        }
        self.air.recycle(report);
    }
}
