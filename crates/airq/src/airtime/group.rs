//! Groups of stations (seeds: netdev 2.2 §4.2 and slides 17–19, "airtime policies"):
//! their state, and the calls that create, nest, weight and remove them and put
//! stations in them. How the scheduler serves them is in `drr.rs`; the module
//! documentation of [`airtime`](super) describes the algorithm.

use super::deficit::Deficit;
use super::limit::LimitBucket;
use super::node::Node;
use super::scheduler::AirtimeScheduler;
use super::txq_list::{Links, TxqList};
use super::{check_weight, SchedError, SchedulingMode};
use crate::ids::{Ac, StationId};
use crate::time::Instant;
use alloc::vec::Vec;
use core::fmt;

/// The deepest nesting of groups: a group inside [`MAX_GROUP_DEPTH`] − 1 others. Each
/// level is one step of recursion in `next_txq`, so it is bounded.
pub const MAX_GROUP_DEPTH: u32 = 8;

/// A group of stations, as [`AirtimeScheduler::add_group`] numbers them. As a
/// [`TxqId`](super::TxqId), it carries its slot's generation: the slot of a removed
/// group is reused (so the group table is as long as the most groups that existed at
/// once), and an identifier kept after the removal is refused
/// ([`SchedError::UnknownGroup`]) rather than reaching the slot's next group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl GroupId {
    /// Dense index from 0, usable for the caller's own per-group tables: below the
    /// most groups that existed at once (a removed group's index is reused).
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Display for GroupId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "group {} (generation {})", self.index, self.generation)
    }
}

/// What a group does with the airtime its siblings leave unused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GroupMode {
    /// Work-conserving: when the other groups are idle, this one may use all the
    /// airtime (hostapd `airtime_mode=2`, "dynamic": weights between BSSes).
    #[default]
    Share,
    /// Capped at its nominal share of wall time even when everything else is idle: the
    /// seeds' limited guest network (netdev 2.2 slide 19).
    Limit,
}

/// A group's state per lane — per AC, or one lane for all ACs in station-first mode.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GroupLane {
    /// DRR credit, refilled by the group's weight; starts at the weight.
    pub(super) deficit: Deficit,
    /// Whether, at its last visit by `next_txq`'s loop, it was in deficit with its cap
    /// open (what the visit added to mac80211's `found_eligible`).
    pub(super) eligible: bool,
    /// Its members that have something scheduled: TXQs (stations, in station-first
    /// mode) and subgroups.
    pub(super) list: TxqList,
    /// Its place on its parent's list.
    pub(super) links: Links,
}

pub(super) struct Group {
    pub(super) parent: Option<u32>,
    pub(super) weight_us: u32,
    pub(super) mode: GroupMode,
    pub(super) live: bool,
    /// Bumped each time the slot is freed, so stale [`GroupId`]s are refused.
    pub(super) generation: u32,
    /// Stations and groups directly in it.
    pub(super) members: u32,
    /// Their summed weights: the denominator of each member's nominal share.
    pub(super) member_weight_us: u64,
    pub(super) lanes: [GroupLane; Ac::COUNT],
    /// Per AC of the airtime: what its deficits were charged, µs.
    pub(super) airtime_us: [u64; Ac::COUNT],
    /// The wall-time cap; kept (full, share updated) only while the mode is `Limit`.
    pub(super) limit: LimitBucket,
}

impl Group {
    /// Its deficit in `lane` and its quantum, the weight.
    #[inline(always)]
    pub(super) fn drr(&mut self, lane: Ac) -> (&mut Deficit, u32) {
        (&mut self.lanes[lane.index()].deficit, self.weight_us)
    }

    /// Whether it is in deficit in `lane` (a group's target is 0: nothing is pending).
    #[inline]
    pub(super) fn owes(&self, lane: Ac) -> bool {
        self.lanes[lane.index()].deficit.owes(0)
    }

    /// Whether its `Limit` cap, if it has one, lets it be served (as of the last
    /// time it earned credit).
    pub(super) fn is_open(&self) -> bool {
        self.mode == GroupMode::Share || self.limit.is_open()
    }
}

/// A snapshot of one group's accounting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupStats {
    pub group: GroupId,
    pub parent: Option<GroupId>,
    pub weight_us: u32,
    pub mode: GroupMode,
    /// Stations and groups directly in it.
    pub members: u32,
    /// Per AC: airtime charged to the group's deficit (its stations', and its
    /// subgroups'), µs.
    pub airtime_us: [u64; Ac::COUNT],
    /// Per AC: the DRR deficit, µs. In station-first mode a group has one deficit for
    /// all ACs; every entry shows it (and `refills` likewise).
    pub deficit_us: [i64; Ac::COUNT],
    /// Per AC: refills of the deficit by the weight, so far.
    pub refills: [u64; Ac::COUNT],
    /// The group's share of the airtime when every station is busy, parts per million:
    /// from the root down, the product of each level's weight over the summed weights
    /// of that level's members. A `Limit` group is capped at it.
    pub nominal_share_ppm: u32,
    /// `Limit` groups: the wall-time credit, µs (negative while over the limit), as of
    /// the last time it was used.
    pub limit_credit_us: Option<i64>,
}

impl AirtimeScheduler {
    /// Most groups that can exist at once: a group's index is a list entry, whose top
    /// two bits are the tag (`node.rs`).
    pub const MAX_GROUPS: u32 = super::node::MAX_ENTRY_INDEX + 1;

    /// Creates a group inside `parent` (`None`: at the root, beside the ungrouped
    /// stations) with a DRR weight in µs per refill, as a station's. Its deficit
    /// starts at its weight.
    ///
    /// Contract: a weight of 1 to
    /// [`MAX_WEIGHT_US`](super::AirtimeParams::MAX_WEIGHT_US) µs (rule 6); a live parent
    /// (rule 7) less than [`MAX_GROUP_DEPTH`] deep (rule 9); fewer than
    /// [`MAX_GROUPS`](Self::MAX_GROUPS) groups (rule 5).
    pub fn add_group(
        &mut self,
        parent: Option<GroupId>,
        weight_us: u32,
        mode: GroupMode,
    ) -> Result<GroupId, SchedError> {
        check_weight(weight_us)?;
        let parent_index = parent.map(|p| self.group_index(p)).transpose()?;
        if let Some(p) = parent {
            if self.group_depth(parent_index) >= MAX_GROUP_DEPTH {
                return Err(SchedError::GroupTooDeep(p.index));
            }
        }
        let index = match self.free_groups.last() {
            Some(&index) => index,
            None if self.groups.len() >= self.capacity(AirtimeScheduler::MAX_GROUPS) => {
                return Err(SchedError::TooManyGroups)
            }
            None => self.groups.len() as u32,
        };
        let lane = GroupLane {
            deficit: Deficit::new(weight_us),
            ..GroupLane::default()
        };
        let group = Group {
            parent: parent_index,
            weight_us,
            mode,
            live: true,
            generation: 0,
            members: 0,
            member_weight_us: 0,
            lanes: [lane; Ac::COUNT],
            airtime_us: [0; Ac::COUNT],
            limit: LimitBucket::new(0, self.params.limit_burst),
        };
        if let Some(old) = self.groups.get_mut(index as usize) {
            self.free_groups.pop();
            *old = Group {
                generation: old.generation,
                ..group
            };
        } else {
            self.groups.push(group);
        }
        self.add_member(parent_index, weight_us);
        self.live_groups += 1;
        self.enter_tree();
        self.refresh_limits();
        Ok(self.group_id(index))
    }

    /// Removes an empty group. Its identifier is refused from now on; its slot is
    /// reused.
    ///
    /// Contract: a live group (rule 7) with no member (rule 10).
    pub fn remove_group(&mut self, group: GroupId) -> Result<(), SchedError> {
        let g = self.group_index(group)?;
        if self.groups[g as usize].members > 0 {
            return Err(SchedError::GroupNotEmpty(group.index));
        }
        // Empty, so it is on no list.
        let grp = &mut self.groups[g as usize];
        debug_assert!(grp
            .lanes
            .iter()
            .all(|l| l.list.is_empty() && !l.links.listed));
        grp.live = false;
        grp.generation = grp.generation.wrapping_add(1);
        self.free_groups.push(g);
        let (parent, weight_us) = (grp.parent, grp.weight_us);
        self.remove_member(parent, weight_us);
        self.live_groups -= 1;
        self.leave_tree_if_flat();
        self.refresh_limits();
        Ok(())
    }

    /// Sets a group's weight: its share among its parent's members is proportional to
    /// it.
    ///
    /// Contract: a live group (rule 7); a weight of 1 to
    /// [`MAX_WEIGHT_US`](super::AirtimeParams::MAX_WEIGHT_US) µs (rule 6).
    pub fn set_group_weight(&mut self, group: GroupId, weight_us: u32) -> Result<(), SchedError> {
        check_weight(weight_us)?;
        let g = self.group_index(group)?;
        let grp = &mut self.groups[g as usize];
        let (parent, old) = (grp.parent, grp.weight_us);
        grp.weight_us = weight_us;
        self.remove_member(parent, old);
        self.add_member(parent, weight_us);
        self.refresh_limits();
        Ok(())
    }

    /// Sets a group's mode. A group made `Limit` starts with a full bucket.
    ///
    /// Contract: a live group (rule 7).
    pub fn set_group_mode(&mut self, group: GroupId, mode: GroupMode) -> Result<(), SchedError> {
        let g = self.group_index(group)?;
        let burst = self.params.limit_burst;
        let grp = &mut self.groups[g as usize];
        if grp.mode != mode {
            grp.mode = mode;
            grp.limit = LimitBucket::new(0, burst);
            self.refresh_limits();
        }
        Ok(())
    }

    /// Moves a group, with everything in it, into `parent` (`None`: the root). What it
    /// has scheduled goes to the back of its new parent's lists.
    ///
    /// Contract: live groups (rule 7); no cycle (rule 8); at most [`MAX_GROUP_DEPTH`]
    /// levels (rule 9).
    pub fn set_group_parent(
        &mut self,
        group: GroupId,
        parent: Option<GroupId>,
    ) -> Result<(), SchedError> {
        let g = self.group_index(group)?;
        let new_parent = parent.map(|p| self.group_index(p)).transpose()?;
        if let (Some(p), Some(parent)) = (new_parent, parent) {
            if self.is_within(p, g) {
                return Err(SchedError::GroupCycle(group.index));
            }
            if self.group_depth(Some(p)) + self.group_height(g) > MAX_GROUP_DEPTH {
                return Err(SchedError::GroupTooDeep(parent.index));
            }
        }
        let old_parent = self.groups[g as usize].parent;
        if old_parent == new_parent {
            return Ok(());
        }
        let listed = self.unlink_lanes(Node::Group(g));
        let weight_us = self.groups[g as usize].weight_us;
        self.remove_member(old_parent, weight_us);
        self.groups[g as usize].parent = new_parent;
        self.add_member(new_parent, weight_us);
        self.relink_lanes(Node::Group(g), listed);
        self.refresh_limits();
        Ok(())
    }

    /// Puts a station in a group, or (`None`) back at the root. Its scheduled TXQs go
    /// to the back of the new group's lists; its deficits go with it.
    ///
    /// Contract: a registered station (rule 3); a live group (rule 7).
    pub fn set_station_group(
        &mut self,
        station: StationId,
        group: Option<GroupId>,
    ) -> Result<(), SchedError> {
        let slot = self.slot(station)?;
        let new_group = group.map(|g| self.group_index(g)).transpose()?;
        let sta = self.station(slot);
        let (old_group, weight_us) = (sta.group, sta.weight_us);
        if old_group == new_group {
            return Ok(());
        }
        // A station in a group, or going into one, means groups exist: tree mode.
        let listed = match self.params.mode {
            SchedulingMode::StationFirst => self.unlink_lanes(Node::Station(slot)),
            SchedulingMode::PerAc => 0,
        };
        let txqs = self.unlink_station_txqs(slot);
        self.remove_member(old_group, weight_us);
        self.station_mut(slot).group = new_group;
        self.add_member(new_group, weight_us);
        self.relink_lanes(Node::Station(slot), listed);
        for txq in txqs {
            let lane = self.lane(self.txqs[txq as usize].ac);
            self.node_link_tree(Node::Txq(txq), lane, false);
        }
        self.refresh_limits();
        Ok(())
    }

    /// The group a station is in.
    ///
    /// Contract: a registered station (rule 3).
    pub fn station_group(&self, station: StationId) -> Result<Option<GroupId>, SchedError> {
        Ok(self
            .station(self.slot(station)?)
            .group
            .map(|g| self.group_id(g)))
    }

    /// Accounting of a group.
    ///
    /// Contract: a live group (rule 7).
    pub fn group_stats(&self, group: GroupId) -> Result<GroupStats, SchedError> {
        let g = self.group_index(group)?;
        let grp = &self.groups[g as usize];
        let lane = |ac: Ac| &grp.lanes[self.lane(ac).index()];
        let share_ppm = (u128::from(self.nominal_share_q32(g)) * 1_000_000) >> 32;
        Ok(GroupStats {
            group,
            parent: grp.parent.map(|p| self.group_id(p)),
            weight_us: grp.weight_us,
            mode: grp.mode,
            members: grp.members,
            airtime_us: grp.airtime_us,
            deficit_us: Ac::ALL.map(|ac| lane(ac).deficit.us),
            refills: Ac::ALL.map(|ac| lane(ac).deficit.refills),
            nominal_share_ppm: share_ppm as u32,
            limit_credit_us: (grp.mode == GroupMode::Limit).then_some(grp.limit.credit_ns / 1000),
        })
    }

    /// When the scheduler next needs attention although nothing was returned to it:
    /// the earliest instant after `now` at which a `Limit` group with something
    /// scheduled, over its limit, may be served again. A driver whose `next_txq` found
    /// nothing may leave the channel idle until then. (A group's credit grows linearly,
    /// so the instant is exact even for a group not looked at lately, e.g. one inside
    /// another limited group.) O(groups).
    ///
    /// Contract: any `now` (rule 12).
    pub fn next_timeout(&self, now: Instant) -> Option<Instant> {
        self.groups
            .iter()
            .filter(|g| g.live && g.mode == GroupMode::Limit)
            .filter(|g| g.lanes.iter().any(|l| !l.list.is_empty()))
            .filter_map(|g| g.limit.reopens_at())
            .filter(|&t| t > now)
            .min()
    }

    pub(super) fn group_index(&self, group: GroupId) -> Result<u32, SchedError> {
        match self.groups.get(group.index()) {
            Some(g) if g.live && g.generation == group.generation => Ok(group.index),
            _ => Err(SchedError::UnknownGroup(group.index)),
        }
    }

    /// The id of the group in slot `index`.
    fn group_id(&self, index: u32) -> GroupId {
        GroupId {
            index,
            generation: self.groups[index as usize].generation,
        }
    }

    /// Groups that exist (created and not removed).
    pub fn group_count(&self) -> usize {
        self.live_groups as usize
    }

    /// Slots of the group table: the most groups that have existed at once. Stays flat
    /// while groups come and go (the slots of removed groups are reused).
    pub fn group_slots(&self) -> usize {
        self.groups.len()
    }

    /// Levels of groups from `group` up to the root: 0 for the root itself.
    fn group_depth(&self, mut group: Option<u32>) -> u32 {
        let mut depth = 0;
        while let Some(g) = group {
            depth += 1;
            group = self.groups[g as usize].parent;
        }
        depth
    }

    /// Levels of groups from `group` down to its deepest subgroup: 1 with none.
    fn group_height(&self, group: u32) -> u32 {
        (0..self.groups.len() as u32)
            .filter(|&h| self.groups[h as usize].live)
            .filter_map(|h| {
                let mut cur = Some(h);
                let mut levels = 1;
                while let Some(c) = cur {
                    if c == group {
                        return Some(levels);
                    }
                    levels += 1;
                    cur = self.groups[c as usize].parent;
                }
                None
            })
            .max()
            .unwrap_or(1)
    }

    /// Whether `group` is `ancestor` or inside it.
    fn is_within(&self, group: u32, ancestor: u32) -> bool {
        let mut cur = Some(group);
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            cur = self.groups[c as usize].parent;
        }
        false
    }

    pub(super) fn add_member(&mut self, parent: Option<u32>, weight_us: u32) {
        match parent {
            Some(p) => {
                let grp = &mut self.groups[p as usize];
                grp.members += 1;
                grp.member_weight_us += u64::from(weight_us);
            }
            None => self.root_member_weight_us += u64::from(weight_us),
        }
    }

    pub(super) fn remove_member(&mut self, parent: Option<u32>, weight_us: u32) {
        match parent {
            Some(p) => {
                let grp = &mut self.groups[p as usize];
                grp.members -= 1;
                grp.member_weight_us -= u64::from(weight_us);
            }
            None => self.root_member_weight_us -= u64::from(weight_us),
        }
    }

    /// The nominal share of a group, Q32: the product, from the root down, of each
    /// level's weight over the summed weights of that level's members.
    fn nominal_share_q32(&self, group: u32) -> u64 {
        let mut share: u64 = 1 << 32;
        let mut cur = Some(group);
        while let Some(c) = cur {
            let grp = &self.groups[c as usize];
            let members_us = match grp.parent {
                Some(p) => self.groups[p as usize].member_weight_us,
                None => self.root_member_weight_us,
            };
            share = share * u64::from(grp.weight_us) / members_us.max(1);
            cur = grp.parent;
        }
        share
    }

    /// Recomputes the shares of `Limit` groups after any change of weights or members.
    /// O(groups × depth); groups are few.
    pub(super) fn refresh_limits(&mut self) {
        for g in 0..self.groups.len() as u32 {
            let grp = &self.groups[g as usize];
            if grp.live && grp.mode == GroupMode::Limit {
                let share = self.nominal_share_q32(g);
                self.groups[g as usize].limit.share_q32 = share;
            }
        }
    }

    /// Unlinks a node (a group, or a station in station-first mode) from every lane it
    /// is listed in, keeping what is below it; returns the lanes as a bit set.
    fn unlink_lanes(&mut self, node: Node) -> u8 {
        let mut listed = 0;
        for &lane in self.lanes_in_use() {
            if self.node_listed(node, lane) {
                self.node_unlink_tree(node, lane);
                listed |= 1 << lane.index();
            }
        }
        listed
    }

    /// Links a node back, at the tail, in the lanes `listed` says it was in.
    fn relink_lanes(&mut self, node: Node, listed: u8) {
        for &lane in self.lanes_in_use() {
            if listed & (1 << lane.index()) != 0 {
                self.node_link_tree(node, lane, false);
            }
        }
    }

    /// Per-AC mode: unlinks the scheduled TXQs of a station (O(its TXQs)), returning
    /// them in index order.
    fn unlink_station_txqs(&mut self, slot: u32) -> Vec<u32> {
        if self.params.mode == SchedulingMode::StationFirst {
            return Vec::new();
        }
        let mut txqs: Vec<u32> = self.station(slot).txqs.clone();
        txqs.retain(|&i| self.txqs[i as usize].links.listed);
        txqs.sort_unstable();
        for &i in &txqs {
            let lane = self.lane(self.txqs[i as usize].ac);
            self.node_unlink_tree(Node::Txq(i), lane);
        }
        txqs
    }
}
