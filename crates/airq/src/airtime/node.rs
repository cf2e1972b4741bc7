//! The nodes of the scheduling hierarchy and the lists they are on.
//!
//! With groups, or in station-first mode, a scheduling list holds more than TXQs: a
//! group stands on its parent's list for everything scheduled below it, and in
//! station-first mode a station stands for its TXQs. A list entry is a `u32` whose top
//! two bits say which arena the rest indexes; a TXQ's entry is its plain index, so a
//! list of TXQs only — mac80211's per-AC list — reads the same in both forms.

use super::group::Group;
use super::station::StationAirtime;
use super::txq::Txq;
use super::txq_list::{LinkArena, LinkArenaMut, Links};
use crate::ids::Ac;
use crate::station_table::StationTable;

const TAG_SHIFT: u32 = 30;
const INDEX_MASK: u32 = (1 << TAG_SHIFT) - 1;
/// The largest index of a TXQ, station slot or group a list entry can hold.
pub(super) const MAX_ENTRY_INDEX: u32 = INDEX_MASK;
const STATION_TAG: u32 = 1 << TAG_SHIFT;
const GROUP_TAG: u32 = 2 << TAG_SHIFT;

/// An entry of a scheduling list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// A TXQ, by index.
    Txq(u32),
    /// A station, by slot (station-first mode).
    Station(u32),
    /// A group, by index.
    Group(u32),
}

impl Node {
    #[inline]
    pub(super) fn entry(self) -> u32 {
        match self {
            Node::Txq(i) => i,
            Node::Station(s) => STATION_TAG | s,
            Node::Group(g) => GROUP_TAG | g,
        }
    }

    /// The node of an entry of a list of the hierarchy (`H`) or of TXQs only (mac80211's
    /// flat lists, whose entries are all TXQs: no tag to decode).
    #[inline(always)]
    pub(super) fn of<const H: bool>(entry: u32) -> Node {
        if H {
            Node::from_entry(entry)
        } else {
            Node::Txq(entry)
        }
    }

    #[inline]
    pub(super) fn from_entry(entry: u32) -> Node {
        match entry & !INDEX_MASK {
            0 => Node::Txq(entry),
            STATION_TAG => Node::Station(entry & INDEX_MASK),
            _ => Node::Group(entry & INDEX_MASK),
        }
    }
}

/// A list of the hierarchy, named by what owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    /// The scheduler's list of a lane.
    Root(Ac),
    /// A group's list of a lane.
    Group(u32, Ac),
    /// Station-first mode: a station's scheduled TXQs of one AC.
    Station(u32, Ac),
}

impl Owner {
    /// The node that stands for this list on its parent's list.
    pub(super) fn node(self) -> Option<Node> {
        match self {
            Owner::Root(_) => None,
            Owner::Group(g, _) => Some(Node::Group(g)),
            Owner::Station(s, _) => Some(Node::Station(s)),
        }
    }

    /// The lane the list belongs to (station-first mode has one).
    pub(super) fn lane(self) -> Ac {
        match self {
            Owner::Root(lane) | Owner::Group(_, lane) => lane,
            Owner::Station(..) => super::station_first::STATION_FIRST_LANE,
        }
    }
}

/// The links of a node in `lane`.
#[inline(always)]
fn node_links<const H: bool>(
    txqs: &[Txq],
    stations: &StationTable<StationAirtime>,
    groups: &[Group],
    lane: Ac,
    entry: u32,
) -> Links {
    match Node::of::<H>(entry) {
        Node::Txq(i) => txqs[i as usize].links,
        Node::Station(s) => stations.at(s).links,
        Node::Group(g) => groups[g as usize].lanes[lane.index()].links,
    }
}

/// The links of every kind of node, in one lane, to change; `H`: the lists may hold
/// nodes other than TXQs.
pub(super) struct TreeArena<'a, const H: bool> {
    pub(super) txqs: &'a mut [Txq],
    pub(super) stations: &'a mut StationTable<StationAirtime>,
    pub(super) groups: &'a mut [Group],
    pub(super) lane: Ac,
}

impl<const H: bool> LinkArena for TreeArena<'_, H> {
    #[inline(always)]
    fn links(&self, entry: u32) -> Links {
        node_links::<H>(self.txqs, self.stations, self.groups, self.lane, entry)
    }
}

impl<const H: bool> LinkArenaMut for TreeArena<'_, H> {
    #[inline(always)]
    fn links_mut(&mut self, entry: u32) -> &mut Links {
        match Node::of::<H>(entry) {
            Node::Txq(i) => &mut self.txqs[i as usize].links,
            Node::Station(s) => &mut self.stations.at_mut(s).links,
            Node::Group(g) => &mut self.groups[g as usize].lanes[self.lane.index()].links,
        }
    }
}

/// The links of every kind of node, in one lane, to read.
pub(super) struct TreeView<'a> {
    pub(super) txqs: &'a [Txq],
    pub(super) stations: &'a StationTable<StationAirtime>,
    pub(super) groups: &'a [Group],
    pub(super) lane: Ac,
}

impl LinkArena for TreeView<'_> {
    #[inline]
    fn links(&self, entry: u32) -> Links {
        node_links::<true>(self.txqs, self.stations, self.groups, self.lane, entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_txqs_are_plain_indices() {
        for node in [
            Node::Txq(0),
            Node::Txq(INDEX_MASK),
            Node::Station(7),
            Node::Group(0),
            Node::Group(INDEX_MASK),
        ] {
            assert_eq!(Node::from_entry(node.entry()), node);
        }
        assert_eq!(Node::Txq(42).entry(), 42);
        assert_ne!(Node::Group(INDEX_MASK).entry(), super::super::txq_list::NIL);
    }
}
