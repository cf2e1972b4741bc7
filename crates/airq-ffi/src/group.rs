//! Groups of stations in `airq_sched` (airq's `AirtimeScheduler` groups, after the
//! seeds' "airtime policies": netdev 2.2 §4.2 and slides 17-19, hostapd's per-BSS
//! `airtime_mode`): a group is a DRR member of its parent with a weight in µs, as a
//! station is, and its stations and subgroups share what it gets. A `Share` group is
//! work-conserving; a `Limit` group is capped at its nominal share of wall time even when
//! everything else is idle (the limited guest network), and `airq_sched_next_timeout`
//! says when a capped group may be served again.
//!
//! Groups are numbered by the scheduler (`GroupId::index`, never reused after removal);
//! `AIRQ_NO_GROUP` is the root, where stations start.

use crate::handle;
use crate::sched::{handle as sched_handle, sched_error, AirqSched, SchedState};
use crate::status::{entry, write_out, AirqStatus, Error, Result, AIRQ_EMPTY, AIRQ_OK};
use crate::status::{AIRQ_ERR_INVALID_ARGUMENT, AIRQ_ERR_UNKNOWN_GROUP};
use airq::airtime::{GroupId, GroupMode};
use airq::{Instant, StationId};

/// The root of the group tree: the `parent` of a top-level group, the `group` of a
/// station in none.
pub const AIRQ_NO_GROUP: u32 = u32::MAX;

/// Group mode: work-conserving, its unused share goes to its siblings and it may use
/// theirs (hostapd `airtime_mode=2`).
pub const AIRQ_GROUP_SHARE: u8 = 0;
/// Group mode: capped at its nominal share of wall time even when the others are idle.
pub const AIRQ_GROUP_LIMIT: u8 = 1;

/// The deepest nesting of groups: a group inside at most 7 others (airq's
/// `MAX_GROUP_DEPTH`; a literal so that cbindgen writes it, a test holds it to airq's).
pub const AIRQ_MAX_GROUP_DEPTH: u32 = 8;

/// A group's accounting. Arrays are indexed by AC (`AIRQ_AC_*`); in station-first mode a
/// group has one deficit for all ACs, shown in every entry.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AirqGroupStats {
    /// The group it is in, or `AIRQ_NO_GROUP`.
    pub parent: u32,
    pub weight_us: u32,
    /// `AIRQ_GROUP_SHARE` or `AIRQ_GROUP_LIMIT`.
    pub mode: u8,
    /// Stations and groups directly in it.
    pub members: u32,
    /// Airtime charged to its deficit (its stations' and subgroups'), µs.
    pub airtime_us: [u64; 4],
    /// The DRR deficit, µs.
    pub deficit_us: [i64; 4],
    /// Refills of the deficit by the weight so far.
    pub refills: [u64; 4],
    /// Its share of the airtime when every station is busy, parts per million (the
    /// product, from the root down, of each level's weight over its members' summed
    /// weights). A `Limit` group is capped at it.
    pub nominal_share_ppm: u32,
    /// Whether `limit_credit_us` holds: the group is `Limit`.
    pub has_limit_credit: bool,
    /// `Limit` groups: the wall-time credit, µs, negative while over the limit.
    pub limit_credit_us: i64,
}

impl SchedState {
    /// The live group numbered `group`.
    fn group(&self, group: u32) -> Result<GroupId> {
        self.groups
            .get(group as usize)
            .copied()
            .flatten()
            .ok_or_else(|| {
                Error::new(
                    AIRQ_ERR_UNKNOWN_GROUP,
                    format_args!("group {group} does not exist"),
                )
            })
    }

    /// `AIRQ_NO_GROUP` as `None`, else the live group.
    fn parent(&self, group: u32) -> Result<Option<GroupId>> {
        (group != AIRQ_NO_GROUP)
            .then(|| self.group(group))
            .transpose()
    }
}

fn mode(mode: u8) -> Result<GroupMode> {
    match mode {
        AIRQ_GROUP_SHARE => Ok(GroupMode::Share),
        AIRQ_GROUP_LIMIT => Ok(GroupMode::Limit),
        _ => Err(Error::new(
            AIRQ_ERR_INVALID_ARGUMENT,
            format_args!("mode must be AIRQ_GROUP_SHARE (0) or AIRQ_GROUP_LIMIT (1), got {mode}"),
        )),
    }
}

/// Creates a group in `parent` (`AIRQ_NO_GROUP`: at the root, beside the stations in no
/// group) with a weight of 1-65535 µs per refill and a mode (`AIRQ_GROUP_*`); stores its
/// number in `*group`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_add_group(
    sched: *mut AirqSched,
    parent: u32,
    weight_us: u32,
    mode: u8,
    group: *mut u32,
) -> AirqStatus {
    entry(|| {
        let mode = self::mode(mode)?;
        if group.is_null() {
            return Err(Error::null("group"));
        }
        let mut s = handle::acquire(sched_handle(sched))?;
        let parent = s.parent(parent)?;
        let id = s
            .sched
            .add_group(parent, weight_us, mode)
            .map_err(sched_error)?;
        let index = id.index();
        if s.groups.len() <= index {
            s.groups.resize(index + 1, None);
        }
        s.groups[index] = Some(id);
        write_out(group, "group", index as u32)?;
        Ok(AIRQ_OK)
    })
}

/// Removes an empty group (`AIRQ_ERR_GROUP_NOT_EMPTY` while stations or groups are in
/// it). Its number is not reused.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_remove_group(sched: *mut AirqSched, group: u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(sched_handle(sched))?;
        let id = s.group(group)?;
        s.sched.remove_group(id).map_err(sched_error)?;
        s.groups[group as usize] = None;
        Ok(AIRQ_OK)
    })
}

/// Sets a group's weight, 1-65535 µs: its share among its parent's members is
/// proportional to it.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_set_group_weight(
    sched: *mut AirqSched,
    group: u32,
    weight_us: u32,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(sched_handle(sched))?;
        let id = s.group(group)?;
        s.sched
            .set_group_weight(id, weight_us)
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Sets a group's mode (`AIRQ_GROUP_*`); a group made `Limit` starts with a full bucket.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_set_group_mode(
    sched: *mut AirqSched,
    group: u32,
    mode: u8,
) -> AirqStatus {
    entry(|| {
        let mode = self::mode(mode)?;
        let mut s = handle::acquire(sched_handle(sched))?;
        let id = s.group(group)?;
        s.sched.set_group_mode(id, mode).map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Moves a group, with everything in it, into `parent` (`AIRQ_NO_GROUP`: the root):
/// `AIRQ_ERR_GROUP_NESTING` if `parent` is the group or inside it, or the tree would be
/// deeper than `AIRQ_MAX_GROUP_DEPTH`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_set_group_parent(
    sched: *mut AirqSched,
    group: u32,
    parent: u32,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(sched_handle(sched))?;
        let id = s.group(group)?;
        let parent = s.parent(parent)?;
        s.sched.set_group_parent(id, parent).map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Puts a station in a group, or (`AIRQ_NO_GROUP`) back at the root; its deficits and
/// scheduled TXQs go with it.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_set_station_group(
    sched: *mut AirqSched,
    station: u32,
    group: u32,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(sched_handle(sched))?;
        let group = s.parent(group)?;
        s.sched
            .set_station_group(StationId(station), group)
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Stores in `*group` the group a station is in (`AIRQ_NO_GROUP`: none).
#[no_mangle]
pub unsafe extern "C" fn airq_sched_station_group(
    sched: *const AirqSched,
    station: u32,
    group: *mut u32,
) -> AirqStatus {
    entry(|| {
        if group.is_null() {
            return Err(Error::null("group"));
        }
        let s = handle::acquire(sched_handle(sched))?;
        let g = s
            .sched
            .station_group(StationId(station))
            .map_err(sched_error)?;
        write_out(
            group,
            "group",
            g.map_or(AIRQ_NO_GROUP, |g| g.index() as u32),
        )?;
        Ok(AIRQ_OK)
    })
}

/// Stores a group's accounting in `*stats`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_get_group_stats(
    sched: *const AirqSched,
    group: u32,
    stats: *mut AirqGroupStats,
) -> AirqStatus {
    entry(|| {
        if stats.is_null() {
            return Err(Error::null("stats"));
        }
        let s = handle::acquire(sched_handle(sched))?;
        let g = s.sched.group_stats(s.group(group)?).map_err(sched_error)?;
        let out = AirqGroupStats {
            parent: g.parent.map_or(AIRQ_NO_GROUP, |p| p.index() as u32),
            weight_us: g.weight_us,
            mode: match g.mode {
                GroupMode::Share => AIRQ_GROUP_SHARE,
                GroupMode::Limit => AIRQ_GROUP_LIMIT,
            },
            members: g.members,
            airtime_us: g.airtime_us.map(u64::from),
            deficit_us: g.deficit_us.map(i64::from),
            refills: g.refills.map(u64::from),
            nominal_share_ppm: g.nominal_share_ppm,
            has_limit_credit: g.limit_credit_us.is_some(),
            limit_credit_us: g.limit_credit_us.unwrap_or(0),
        };
        write_out(stats, "stats", out)?;
        Ok(AIRQ_OK)
    })
}

/// When the scheduler next needs attention although nothing was returned to it: stores
/// in `*at_ns` the earliest time after `now_ns` at which a `Limit` group with something
/// scheduled, over its limit, may be served again, and returns `AIRQ_OK`; `AIRQ_EMPTY`
/// if there is no such time. A driver whose `airq_sched_next_txq` found nothing may
/// leave the channel idle until then.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_next_timeout(
    sched: *const AirqSched,
    now_ns: u64,
    at_ns: *mut u64,
) -> AirqStatus {
    entry(|| {
        if at_ns.is_null() {
            return Err(Error::null("at_ns"));
        }
        let s = handle::acquire(sched_handle(sched))?;
        match s.sched.next_timeout(Instant::from_nanos(now_ns)) {
            Some(at) => {
                write_out(at_ns, "at_ns", at.as_nanos())?;
                Ok(AIRQ_OK)
            }
            None => Ok(AIRQ_EMPTY),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_is_airqs() {
        assert_eq!(AIRQ_MAX_GROUP_DEPTH, airq::airtime::MAX_GROUP_DEPTH);
    }
}
