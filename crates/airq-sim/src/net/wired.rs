//! The wired link between the server and the AP: in each direction packets are
//! serialised one after another at the link rate, then travel the one-way delay, so they
//! arrive in the order sent. Each direction holds its packets in flight in a FIFO and
//! the event loop needs one event per arrival, scheduled for the head. Like a real
//! NIC's transmit queue, a direction holds at most `tx_queue_packets` packets waiting
//! to be serialised; a packet beyond that is dropped (a sender faster than its link
//! cannot grow the simulator's memory without limit).

use crate::net::packet::SimPacket;
use airq::{Duration, Instant};
use std::collections::VecDeque;

/// Index of the direction from the server to the AP.
pub const TOWARDS_AP: usize = 0;
/// Index of the direction from the AP to the server.
pub const TOWARDS_SERVER: usize = 1;

/// Linux's transmit queue length of an Ethernet device (`DEFAULT_TX_QUEUE_LEN`,
/// include/linux/netdevice.h, set by `ether_setup`), packets.
pub const DEFAULT_TX_QUEUE_PACKETS: usize = 1000;

/// The wired link between the server and the AP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WiredLink {
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: Duration,
    /// Packets a direction holds waiting to be serialised, at most.
    pub tx_queue_packets: usize,
}

impl Default for WiredLink {
    /// 1 Gbit/s, 1 ms: a LAN testbed; Linux's transmit queue.
    fn default() -> Self {
        WiredLink {
            rate_bps: 1_000_000_000,
            delay: Duration::from_millis(1),
            tx_queue_packets: DEFAULT_TX_QUEUE_PACKETS,
        }
    }
}

impl WiredLink {
    pub fn serialization(&self, bytes: u32) -> Duration {
        Duration::from_nanos(u64::from(bytes) * 8 * 1_000_000_000 / self.rate_bps.max(1))
    }
}

/// One direction of the wired link.
#[derive(Debug, Default)]
pub struct WireDirection {
    /// When the last packet sent has left the sender.
    free_at: Instant,
    /// Packets on the wire with their arrival times, in order.
    in_flight: VecDeque<(Instant, SimPacket)>,
}

impl WireDirection {
    /// Puts `packet` on the wire at `now`; returns its arrival time if it is the only
    /// packet in flight (the caller schedules the arrival), `None` if an earlier
    /// arrival is already scheduled; the packet back if the transmit queue is full.
    pub fn send(
        &mut self,
        link: &WiredLink,
        now: Instant,
        packet: SimPacket,
    ) -> Result<Option<Instant>, SimPacket> {
        // Packets not yet serialised: those whose arrival is more than a delay away.
        let serialised = self
            .in_flight
            .partition_point(|(arrival, _)| *arrival <= now + link.delay);
        if self.in_flight.len() - serialised >= link.tx_queue_packets {
            return Err(packet);
        }
        self.free_at = self.free_at.max(now) + link.serialization(packet.len_bytes);
        let arrival = self.free_at + link.delay;
        self.in_flight.push_back((arrival, packet));
        Ok((self.in_flight.len() == 1).then_some(arrival))
    }

    /// Takes the packet at the head (the one arriving now) and the arrival time of
    /// the next one.
    pub fn arrive(&mut self) -> (SimPacket, Option<Instant>) {
        let (_, packet) = self
            .in_flight
            .pop_front()
            .expect("an arrival was scheduled");
        (packet, self.in_flight.front().map(|(t, _)| *t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::udp_packet as packet;

    /// A burst faster than the link fills the transmit queue and no more; the queue
    /// takes packets again as it drains (12 µs per 1500 bytes at 1 Gbit/s).
    #[test]
    fn the_transmit_queue_holds_its_limit_and_drains_at_the_link_rate() {
        let link = WiredLink::default();
        let mut wire = WireDirection::default();
        let at = Instant::ZERO;
        let sent = (0..3000)
            .filter(|&i| wire.send(&link, at, packet(i)).is_ok())
            .count();
        assert_eq!(sent, DEFAULT_TX_QUEUE_PACKETS);
        // 120 µs later ten packets have been serialised: ten more fit, not eleven.
        let later = at + Duration::from_micros(120);
        let more = (0..11)
            .filter(|&i| wire.send(&link, later, packet(5000 + i)).is_ok())
            .count();
        assert_eq!(more, 10);
    }
}
