//! The BlockAckReqs originators owe their recipients (IEEE 802.11-2020 10.25.6.6.4,
//! 9.3.1.7). When an originator gives up MPDUs of a BlockAck agreement (the retry
//! limit), its recipient would wait for them for ever behind the gap: the originator
//! sends a BlockAckReq whose Starting Sequence Number is the one after the last MPDU
//! given up, and the recipient releases everything before it. It goes as ath9k sends
//! it (`ath_send_bar` → mac80211's `ieee80211_send_bar`): a control frame on the TID's
//! access category, contending like a data frame of it and before the next aggregate,
//! at the lowest basic rate (mac80211's `rate_control_send_low` for a frame that is not
//! data), answered by a BlockAck after SIFS; a BlockAckReq that fails (a collision, an
//! error) is sent again. A newer one for the same agreement replaces it.

use crate::net::packet::NodeId;
use airq::{Ac, Tid};

/// A BlockAckReq: from `src` to `dst` for `tid`, moving the window to `ssn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockAckReq {
    pub src: NodeId,
    pub dst: NodeId,
    pub tid: Tid,
    pub ssn: u64,
}

/// One owed BlockAckReq, and whether it is on the air.
#[derive(Clone, Copy, Debug)]
struct Owed {
    bar: BlockAckReq,
    sending: bool,
}

/// Every node's owed BlockAckReqs.
#[derive(Debug)]
pub struct PendingBars {
    owed: Vec<Owed>,
    /// Per node (its [`NodeId::index`]), a bit per access category with one owed.
    acs: Vec<u8>,
}

impl PendingBars {
    /// For `nodes` nodes (the AP and the stations).
    pub fn new(nodes: usize) -> PendingBars {
        PendingBars {
            owed: Vec::new(),
            acs: vec![0; nodes],
        }
    }

    /// Whether `node` owes a BlockAckReq on `ac`.
    pub fn owes(&self, node: NodeId, ac: Ac) -> bool {
        self.acs[node.index()] & (1 << ac.index()) != 0
    }

    /// `src` gave up MPDUs of its agreement with `dst` for `tid`: it owes a BlockAckReq
    /// moving the window to `ssn` (or beyond, if it owes one already).
    pub fn request(&mut self, src: NodeId, dst: NodeId, tid: Tid, ssn: u64) {
        match self
            .owed
            .iter_mut()
            .find(|o| o.bar.src == src && o.bar.dst == dst && o.bar.tid == tid)
        {
            Some(o) => o.bar.ssn = o.bar.ssn.max(ssn),
            None => self.owed.push(Owed {
                bar: BlockAckReq { src, dst, tid, ssn },
                sending: false,
            }),
        }
        self.acs[src.index()] |= 1 << tid.ac().index();
    }

    /// `node`'s EDCA function of `ac` won the medium: the BlockAckReq it sends, if it
    /// owes one (the oldest owed).
    pub fn send(&mut self, node: NodeId, ac: Ac) -> Option<BlockAckReq> {
        if !self.owes(node, ac) {
            return None;
        }
        let o = self
            .owed
            .iter_mut()
            .find(|o| o.bar.src == node && o.bar.tid.ac() == ac && !o.sending)?;
        o.sending = true;
        Some(o.bar)
    }

    /// `bar`'s exchange ended; `ok` if the recipient received it and its BlockAck came
    /// back. Done unless it failed or a newer one is owed.
    pub fn done(&mut self, bar: BlockAckReq, ok: bool) {
        if let Some(i) = self.owed.iter().position(|o| {
            o.bar.src == bar.src && o.bar.dst == bar.dst && o.bar.tid == bar.tid && o.sending
        }) {
            let o = &mut self.owed[i];
            o.sending = false;
            if ok && o.bar.ssn <= bar.ssn {
                self.owed.swap_remove(i);
            }
        }
        let node = bar.src;
        self.acs[node.index()] = self
            .owed
            .iter()
            .filter(|o| o.bar.src == node)
            .fold(0, |bits, o| bits | 1 << o.bar.tid.ac().index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::StationId;

    #[test]
    fn an_owed_block_ack_req_is_sent_until_it_succeeds_and_a_newer_ssn_replaces_it() {
        let (ap, sta) = (NodeId::Ap, NodeId::Sta(StationId(0)));
        let tid = Tid::new(0).unwrap(); // AC_BE
        let mut bars = PendingBars::new(2);
        assert!(!bars.owes(ap, Ac::Be));
        bars.request(ap, sta, tid, 10);
        assert!(bars.owes(ap, Ac::Be) && !bars.owes(ap, Ac::Vo) && !bars.owes(sta, Ac::Be));
        let first = bars.send(ap, Ac::Be).unwrap();
        assert_eq!(first.ssn, 10);
        // On the air: not sent twice.
        assert_eq!(bars.send(ap, Ac::Be), None);
        bars.done(first, false);
        let again = bars.send(ap, Ac::Be).unwrap();
        // A newer give-up while it is on the air: owed again after its success.
        bars.request(ap, sta, tid, 14);
        bars.done(again, true);
        let newer = bars.send(ap, Ac::Be).unwrap();
        assert_eq!(newer.ssn, 14);
        bars.done(newer, true);
        assert!(!bars.owes(ap, Ac::Be));
        assert_eq!(bars.send(ap, Ac::Be), None);
    }
}
