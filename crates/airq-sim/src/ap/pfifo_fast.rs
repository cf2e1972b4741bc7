//! pfifo_fast, Linux's default qdisc before fq_codel (`net/sched/sch_generic.c`): three
//! FIFO bands served in strict priority, a packet's band chosen from `skb->priority` by
//! the `prio2band` table, and one tail-drop limit (`tx_queue_len`) over all three bands
//! (the `sk_buff_head` version of the 4.x era; the lockless version of 4.16 on limits
//! each band on its own).
//!
//! On a mac80211 interface `skb->priority` is set before the qdisc runs, by
//! `ieee80211_select_queue`, to the 802.1D user priority derived from the DSCP
//! (`cfg80211_classify8021d`) — the packet's TID.

use crate::net::packet::SimPacket;
use airq::Tid;
use std::collections::VecDeque;

const BANDS: usize = 3;

/// `prio2band[TC_PRIO_MAX + 1]`, indexed by `skb->priority & TC_PRIO_MAX`: user priorities
/// 6 and 7 (VO) go first, 0 and 4 next, the rest (1, 2, 3, 5) last.
const PRIO2BAND: [u8; 16] = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];

/// The band pfifo_fast puts a packet of `tid` in (0 is served first).
pub fn band(tid: Tid) -> usize {
    usize::from(PRIO2BAND[usize::from(tid.get() & 15)])
}

/// One pfifo_fast instance.
#[derive(Debug)]
pub(super) struct PfifoFast {
    bands: [VecDeque<SimPacket>; BANDS],
    len: u32,
    limit_packets: u32,
}

impl PfifoFast {
    pub(super) fn new(limit_packets: u32) -> PfifoFast {
        PfifoFast {
            bands: Default::default(),
            len: 0,
            limit_packets,
        }
    }

    /// Queues the packet, or hands it back if the qdisc is full (tail drop).
    pub(super) fn enqueue(&mut self, packet: SimPacket) -> Result<(), SimPacket> {
        if self.len >= self.limit_packets {
            return Err(packet);
        }
        self.bands[band(packet.tid)].push_back(packet);
        self.len += 1;
        Ok(())
    }

    /// The head of the first non-empty band.
    pub(super) fn dequeue(&mut self) -> Option<SimPacket> {
        let packet = self.bands.iter_mut().find_map(VecDeque::pop_front)?;
        self.len -= 1;
        Some(packet)
    }

    pub(super) fn len(&self) -> u32 {
        debug_assert_eq!(
            self.len as usize,
            self.bands.iter().map(VecDeque::len).sum::<usize>()
        );
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::udp_packet;

    fn packet(id: u32, tid: u8) -> SimPacket {
        SimPacket {
            tid: Tid::new(tid).unwrap(),
            ..udp_packet(id)
        }
    }

    #[test]
    fn voice_first_then_best_effort_then_background() {
        let mut q = PfifoFast::new(10);
        for (id, tid) in [(0, 1), (1, 0), (2, 6), (3, 3), (4, 7)] {
            q.enqueue(packet(id, tid)).unwrap();
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue()).map(|p| p.id).collect();
        assert_eq!(order, [2, 4, 1, 0, 3]);
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn tail_drops_at_the_limit_over_all_bands() {
        let mut q = PfifoFast::new(3);
        q.enqueue(packet(0, 6)).unwrap();
        q.enqueue(packet(1, 0)).unwrap();
        q.enqueue(packet(2, 1)).unwrap();
        assert_eq!(q.enqueue(packet(3, 7)).unwrap_err().id, 3);
        assert_eq!(q.len(), 3);
    }
}
