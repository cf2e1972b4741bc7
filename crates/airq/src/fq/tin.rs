//! A tin (Linux `struct fq_tin`): one logical queue with its own DRR++ lists of new and
//! old flows, its default (overflow) flow and its statistics.

use super::list::FlowList;
use super::params::Quantum;
use super::stats::TinStats;
use crate::codel::CodelParams;

pub(super) struct Tin {
    /// Bumped each time the slot is freed, so stale [`TinId`](super::TinId)s are refused.
    pub(super) generation: u32,
    pub(super) live: bool,
    /// Flows that became active and have not yet used up their first quantum.
    pub(super) new_flows: FlowList,
    pub(super) old_flows: FlowList,
    /// Overrides the structure's quantum for this tin (e.g. frames for one station).
    pub(super) quantum: Option<Quantum>,
    /// Overrides the structure's CoDel parameters for this tin's flows (mac80211 from
    /// 2016 to 2025 gave each station its own, `sta->cparams`).
    pub(super) codel: Option<CodelParams>,
    pub(super) backlog: super::backlog::Backlog,
    /// Counters; the backlog fields are filled in from `backlog` when read.
    pub(super) stats: TinStats,
}

impl Tin {
    pub(super) fn new() -> Self {
        Tin {
            generation: 0,
            live: true,
            new_flows: FlowList::default(),
            old_flows: FlowList::default(),
            quantum: None,
            codel: None,
            backlog: Default::default(),
            stats: TinStats::default(),
        }
    }
}
