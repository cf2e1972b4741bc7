//! Stations and interfaces that come and go (issue 20, item 9): TXQ slots are reused,
//! ids carry generations so a stale one is refused, and every table stays as long as
//! the most objects alive at once — so `remove_station`, which touches only the
//! station's TXQs, costs the same on the millionth cycle as on the first.

use super::*;
use crate::ids::{Ac, StationId, Tid};
use crate::time::Instant;
use alloc::vec::Vec;

fn tid(n: u8) -> Tid {
    Tid::new(n).unwrap()
}

/// One cycle: a station joins, gets four TXQs (one per AC), has data in two, leaves.
fn cycle(s: &mut AirtimeScheduler, id: StationId, group: Option<GroupId>) -> Vec<TxqId> {
    s.add_station(id).unwrap();
    if group.is_some() {
        s.set_station_group(id, group).unwrap();
    }
    let txqs: Vec<TxqId> = [0, 1, 4, 6]
        .iter()
        .map(|&t| s.add_txq(Some(id), tid(t)).unwrap())
        .collect();
    s.return_txq(txqs[0], true, Instant::ZERO).unwrap();
    s.return_txq(txqs[2], true, Instant::ZERO).unwrap();
    s.remove_station(id).unwrap();
    txqs
}

#[test]
fn station_churn_keeps_the_txq_table_flat() {
    for (params, grouped) in [
        (AirtimeParams::default(), false),
        (AirtimeParams::default(), true),
        (
            AirtimeParams {
                mode: SchedulingMode::StationFirst,
                ..AirtimeParams::default()
            },
            true,
        ),
    ] {
        let mut s = AirtimeScheduler::new(params).unwrap();
        // Ten stations stay throughout, with an interface TXQ.
        for i in 0..10 {
            s.add_station(StationId(i)).unwrap();
            let t = s.add_txq(Some(StationId(i)), tid(0)).unwrap();
            s.return_txq(t, true, Instant::ZERO).unwrap();
        }
        s.add_txq(None, tid(0)).unwrap();
        let group = grouped.then(|| s.add_group(None, 256, GroupMode::Share).unwrap());
        let first = cycle(&mut s, StationId(100), group);
        let slots = s.txqs.len();
        for c in 0..200_000u32 {
            cycle(&mut s, StationId(100 + c % 1000), group);
        }
        // Table sizes: what remove_station and the walks are proportional to.
        assert_eq!(s.txqs.len(), slots, "TXQ table grew");
        assert_eq!(s.txq_slots(), 15);
        assert_eq!(s.txq_count(), 11);
        assert!(s.free_txqs.len() <= 4);
        assert_eq!(s.stations.len(), 10);
        // The first cycle's ids are stale: their slots hold other TXQs now.
        for t in first {
            assert_eq!(
                s.return_txq(t, true, Instant::ZERO),
                Err(SchedError::UnknownTxq(t.index() as u32))
            );
            assert_eq!(
                s.txq_owner(t),
                Err(SchedError::UnknownTxq(t.index() as u32))
            );
        }
        assert_eq!(s.active_txqs(Ac::Be).count(), 10);
    }
}

#[test]
fn a_stale_txq_id_does_not_reach_the_slots_next_txq() {
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    s.add_station(StationId(1)).unwrap();
    s.add_station(StationId(2)).unwrap();
    let old = s.add_txq(Some(StationId(1)), tid(0)).unwrap();
    s.remove_station(StationId(1)).unwrap();
    let new = s.add_txq(Some(StationId(2)), tid(0)).unwrap();
    assert_eq!(new.index(), old.index(), "slot reused");
    assert_ne!(new, old);
    assert_eq!(
        s.return_txq(old, true, Instant::ZERO),
        Err(SchedError::UnknownTxq(old.index() as u32))
    );
    assert_eq!(
        s.unschedule(old),
        Err(SchedError::UnknownTxq(old.index() as u32))
    );
    assert_eq!(
        s.may_transmit(old, &mut NoAql),
        Err(SchedError::UnknownTxq(old.index() as u32))
    );
    assert_eq!(
        s.remove_txq(old),
        Err(SchedError::UnknownTxq(old.index() as u32))
    );
    assert_eq!(
        s.active_txqs(Ac::Be).count(),
        0,
        "the new TXQ was not scheduled"
    );
    assert!(alloc::format!("{}", SchedError::UnknownTxq(0)).contains("TXQ 0 does not exist"));
    s.return_txq(new, true, Instant::ZERO).unwrap();
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(new));
}

#[test]
fn interface_txqs_are_removed_and_their_slots_reused() {
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    s.add_station(StationId(0)).unwrap();
    let sta_txq = s.add_txq(Some(StationId(0)), tid(0)).unwrap();
    for _ in 0..1000 {
        let vif = s.add_txq(None, tid(0)).unwrap();
        s.return_txq(vif, true, Instant::ZERO).unwrap();
        s.remove_txq(vif).unwrap();
        assert_eq!(s.active_txqs(Ac::Be).count(), 0);
    }
    assert_eq!(s.txq_slots(), 2);
    // A station's TXQ removed on its own is gone from its station too.
    s.remove_txq(sta_txq).unwrap();
    s.remove_station(StationId(0)).unwrap();
    assert_eq!((s.txq_count(), s.txq_slots()), (0, 2));
}

/// One cycle of a group: created (nested in `parent` if given), a station put in it
/// with data, the station moved out, the group removed.
fn group_cycle(s: &mut AirtimeScheduler, parent: Option<GroupId>, station: StationId) -> GroupId {
    let g = s.add_group(parent, 512, GroupMode::Limit).unwrap();
    s.set_station_group(station, Some(g)).unwrap();
    s.set_station_group(station, parent).unwrap();
    s.remove_group(g).unwrap();
    g
}

#[test]
fn group_churn_keeps_the_group_table_flat_and_refuses_stale_ids() {
    for mode in [SchedulingMode::PerAc, SchedulingMode::StationFirst] {
        let params = AirtimeParams {
            mode,
            ..AirtimeParams::default()
        };
        let mut s = AirtimeScheduler::new(params).unwrap();
        // Two groups stay throughout, one inside the other; a station with data.
        let outer = s.add_group(None, 256, GroupMode::Share).unwrap();
        let inner = s.add_group(Some(outer), 256, GroupMode::Share).unwrap();
        s.add_station(StationId(0)).unwrap();
        let t = s.add_txq(Some(StationId(0)), tid(0)).unwrap();
        s.return_txq(t, true, Instant::ZERO).unwrap();
        let first = group_cycle(&mut s, Some(inner), StationId(0));
        for c in 0..30_000u32 {
            let parent = [None, Some(outer), Some(inner)][c as usize % 3];
            group_cycle(&mut s, parent, StationId(0));
        }
        s.set_station_group(StationId(0), Some(inner)).unwrap();
        assert_eq!(s.group_slots(), 3, "group table grew");
        assert_eq!(s.group_count(), 2);
        // The slot of the first cycle's group holds another group's generation now.
        let again = s.add_group(None, 256, GroupMode::Share).unwrap();
        assert_eq!(again.index(), first.index());
        assert_ne!(again, first);
        let unknown = Err(SchedError::UnknownGroup(first.index));
        assert_eq!(s.remove_group(first), unknown);
        assert_eq!(s.set_group_weight(first, 1), unknown);
        assert_eq!(s.set_group_mode(first, GroupMode::Share), unknown);
        assert_eq!(s.set_group_parent(first, None), unknown);
        assert_eq!(s.set_group_parent(again, Some(first)), unknown);
        assert_eq!(
            s.add_group(Some(first), 256, GroupMode::Share),
            unknown.map(|()| again)
        );
        assert_eq!(s.set_station_group(StationId(0), Some(first)), unknown);
        assert!(s.group_stats(first).is_err());
        // The live ones are untouched, and the station is still scheduled.
        assert_eq!(s.group_stats(inner).unwrap().parent, Some(outer));
        assert_eq!(s.group_stats(again).unwrap().members, 0);
        assert_eq!(s.station_group(StationId(0)), Ok(Some(inner)));
        s.schedule_start_any(&mut NoAql);
        assert_eq!(s.next_txq_any(&mut NoAql, Instant::ZERO), Some(t));
    }
}
