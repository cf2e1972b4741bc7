//! The wired link between the server and the AP: in each direction packets are
//! serialised one after another at the link rate, then travel the one-way delay, so they
//! arrive in the order sent. Each direction holds its packets in flight in a FIFO and
//! the event loop needs one event per arrival, scheduled for the head.

use crate::net::packet::SimPacket;
use airq::{Duration, Instant};
use std::collections::VecDeque;

/// Index of the direction from the server to the AP.
pub const TOWARDS_AP: usize = 0;
/// Index of the direction from the AP to the server.
pub const TOWARDS_SERVER: usize = 1;

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
    /// arrival is already scheduled.
    pub fn send(&mut self, link: &WiredLink, now: Instant, packet: SimPacket) -> Option<Instant> {
        self.free_at = self.free_at.max(now) + link.serialization(packet.len_bytes);
        let arrival = self.free_at + link.delay;
        self.in_flight.push_back((arrival, packet));
        (self.in_flight.len() == 1).then_some(arrival)
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
