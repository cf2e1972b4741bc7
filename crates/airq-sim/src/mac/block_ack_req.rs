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
use std::collections::{BTreeMap, BTreeSet};

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
///
/// A node sends the first it owes on the access category in `owed`'s order: requests
/// are appended, and one done takes the last one's place. Indices keep every operation
/// from scanning the list, which at 10,000 stations in a collapsed channel held
/// thousands (the scans were half of the run's time: issue 19).
#[derive(Debug)]
pub struct PendingBars {
    owed: Vec<Owed>,
    /// Where each agreement's owed BlockAckReq is in `owed` (at most one each).
    at: BTreeMap<(NodeId, NodeId, Tid), usize>,
    /// (node index, access category, position in `owed`) of those not on the air, so
    /// that a node's first on an AC is the first of its range.
    ready: BTreeSet<(usize, usize, usize)>,
    /// Per node (its [`NodeId::index`]) and access category, how many it owes.
    count: Vec<[u32; Ac::COUNT]>,
}

impl PendingBars {
    /// For `nodes` nodes (the AP and the stations).
    pub fn new(nodes: usize) -> PendingBars {
        PendingBars {
            owed: Vec::new(),
            at: BTreeMap::new(),
            ready: BTreeSet::new(),
            count: vec![[0; Ac::COUNT]; nodes],
        }
    }

    /// Whether `node` owes a BlockAckReq on `ac`.
    pub fn owes(&self, node: NodeId, ac: Ac) -> bool {
        self.count[node.index()][ac.index()] > 0
    }

    /// `src` gave up MPDUs of its agreement with `dst` for `tid`: it owes a BlockAckReq
    /// moving the window to `ssn` (or beyond, if it owes one already).
    pub fn request(&mut self, src: NodeId, dst: NodeId, tid: Tid, ssn: u64) {
        if let Some(&i) = self.at.get(&(src, dst, tid)) {
            let bar = &mut self.owed[i].bar;
            bar.ssn = bar.ssn.max(ssn);
            return;
        }
        let i = self.owed.len();
        self.owed.push(Owed {
            bar: BlockAckReq { src, dst, tid, ssn },
            sending: false,
        });
        self.at.insert((src, dst, tid), i);
        let ac = tid.ac().index();
        self.ready.insert((src.index(), ac, i));
        self.count[src.index()][ac] += 1;
    }

    /// `node`'s EDCA function of `ac` won the medium: the BlockAckReq it sends, if it
    /// owes one (the first in `owed`'s order).
    pub fn send(&mut self, node: NodeId, ac: Ac) -> Option<BlockAckReq> {
        if !self.owes(node, ac) {
            return None;
        }
        let (n, ac) = (node.index(), ac.index());
        let first = *self.ready.range((n, ac, 0)..=(n, ac, usize::MAX)).next()?;
        self.ready.remove(&first);
        let o = &mut self.owed[first.2];
        o.sending = true;
        Some(o.bar)
    }

    /// `bar`'s exchange ended; `ok` if the recipient received it and its BlockAck came
    /// back. Done unless it failed or a newer one is owed.
    pub fn done(&mut self, bar: BlockAckReq, ok: bool) {
        let Some(&i) = self.at.get(&(bar.src, bar.dst, bar.tid)) else {
            return;
        };
        let o = &mut self.owed[i];
        if !o.sending {
            return;
        }
        o.sending = false;
        let ac = bar.tid.ac().index();
        if !(ok && o.bar.ssn <= bar.ssn) {
            self.ready.insert((bar.src.index(), ac, i));
            return;
        }
        self.at.remove(&(bar.src, bar.dst, bar.tid));
        self.count[bar.src.index()][ac] -= 1;
        let last = self.owed.len() - 1;
        self.owed.swap_remove(i);
        if i < last {
            // The last one takes its place.
            let moved = self.owed[i];
            let b = moved.bar;
            self.at.insert((b.src, b.dst, b.tid), i);
            if !moved.sending {
                let (n, ac) = (b.src.index(), b.tid.ac().index());
                self.ready.remove(&(n, ac, last));
                self.ready.insert((n, ac, i));
            }
        }
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

    /// The list scan this replaced, kept as the oracle of the indexed one.
    struct Scan {
        owed: Vec<Owed>,
    }

    impl Scan {
        fn owes(&self, node: NodeId, ac: Ac) -> bool {
            self.owed
                .iter()
                .any(|o| o.bar.src == node && o.bar.tid.ac() == ac)
        }

        fn request(&mut self, src: NodeId, dst: NodeId, tid: Tid, ssn: u64) {
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
        }

        fn send(&mut self, node: NodeId, ac: Ac) -> Option<BlockAckReq> {
            let o = self
                .owed
                .iter_mut()
                .find(|o| o.bar.src == node && o.bar.tid.ac() == ac && !o.sending)?;
            o.sending = true;
            Some(o.bar)
        }

        fn done(&mut self, bar: BlockAckReq, ok: bool) {
            if let Some(i) = self.owed.iter().position(|o| {
                o.bar.src == bar.src && o.bar.dst == bar.dst && o.bar.tid == bar.tid && o.sending
            }) {
                let o = &mut self.owed[i];
                o.sending = false;
                if ok && o.bar.ssn <= bar.ssn {
                    self.owed.swap_remove(i);
                }
            }
        }
    }

    proptest::proptest! {
        /// Random requests, sends and ends (some failed, some overtaken by a newer
        /// request) among a few nodes: the indexed list answers as the scan did.
        #[test]
        fn the_indexed_list_answers_as_the_scan(
            ops in proptest::collection::vec((0u8..3, 0u32..4, 0u32..4, 0u8..8, 0u64..20, proptest::bool::ANY), 1..300),
        ) {
            let node = |i: u32| if i == 0 { NodeId::Ap } else { NodeId::Sta(StationId(i - 1)) };
            let mut bars = PendingBars::new(5);
            let mut scan = Scan { owed: Vec::new() };
            let mut on_air: Vec<BlockAckReq> = Vec::new();
            for (op, a, b, tid, ssn, ok) in ops {
                let tid = Tid::new(tid).unwrap();
                match op {
                    0 if a != b => {
                        bars.request(node(a), node(b), tid, ssn);
                        scan.request(node(a), node(b), tid, ssn);
                    }
                    1 => {
                        let sent = bars.send(node(a), tid.ac());
                        proptest::prop_assert_eq!(sent, scan.send(node(a), tid.ac()));
                        on_air.extend(sent);
                    }
                    _ if !on_air.is_empty() => {
                        let bar = on_air.remove(b as usize % on_air.len());
                        bars.done(bar, ok);
                        scan.done(bar, ok);
                    }
                    _ => {}
                }
                for n in 0..5 {
                    for ac in Ac::ALL {
                        proptest::prop_assert_eq!(bars.owes(node(n), ac), scan.owes(node(n), ac));
                    }
                }
            }
        }
    }
}
