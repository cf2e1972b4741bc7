//! Tests of groups: the seeds' guest network (limited, with the others busy and idle),
//! weighted and nested groups converging to their shares, list discipline in the
//! hierarchy, push-pull, and every contract error.

use super::synthetic::{assert_near, Calls, Synthetic, BE};
use super::*;
use crate::ids::{Ac, StationId};
use crate::time::{Duration, Instant};
use alloc::format;
use alloc::vec::Vec;

const RUN: Calls = Calls::Ac(Ac::Be);

/// The seeds' guest network (netdev 2.2 slide 19): a guest group of two stations and a
/// home group of one, of equal weight, at very different rates (aggregates of 0.1 to
/// 4 ms). Returns the driver, the guest stations and the home station; the home
/// station is backlogged only if `home_busy`.
fn guest_network(guest_mode: GroupMode, home_busy: bool) -> (Synthetic, [StationId; 2], StationId) {
    let mut d = Synthetic::new(AirtimeParams::default());
    let guest = d.s.add_group(None, 256, guest_mode).unwrap();
    let home = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let g0 = d.be_station(100, Some(guest));
    let g1 = d.be_station(4000, Some(guest));
    let h = d.station();
    d.s.set_station_group(h, Some(home)).unwrap();
    d.txq(h, BE, 650, home_busy);
    (d, [g0, g1], h)
}

#[test]
fn limited_guest_group_gets_half_split_equally_when_all_are_busy() {
    let (mut d, [g0, g1], h) = guest_network(GroupMode::Limit, true);
    d.run(10_000, RUN);
    assert_near("guest group", d.share_of_airtime(&[g0, g1]), 0.5, 0.02);
    assert_near("guest station 0", d.share_of_airtime(&[g0]), 0.25, 0.02);
    assert_near("guest station 1", d.share_of_airtime(&[g1]), 0.25, 0.02);
    assert_near("home station", d.share_of_airtime(&[h]), 0.5, 0.02);
}

#[test]
fn limited_guest_group_keeps_to_half_of_wall_time_when_alone() {
    let (mut d, guests, h) = guest_network(GroupMode::Limit, false);
    d.run(10_000, RUN);
    assert_eq!(d.airtime_us[h.0 as usize], 0);
    assert_near("guest group", d.share_of_time(&guests), 0.5, 0.02);
    assert_near("guest station 0", d.share_of_time(&guests[..1]), 0.25, 0.02);
}

#[test]
fn sharing_guest_group_takes_the_idle_airtime() {
    let (mut d, guests, _) = guest_network(GroupMode::Share, false);
    d.run(10_000, RUN);
    assert_near("guest group", d.share_of_time(&guests), 1.0, 0.02);
    // And with everyone busy, Share and Limit give the same split.
    let (mut d, guests, h) = guest_network(GroupMode::Share, true);
    d.run(10_000, RUN);
    assert_near("guest group", d.share_of_airtime(&guests), 0.5, 0.02);
    assert_near("home station", d.share_of_airtime(&[h]), 0.5, 0.02);
}

#[test]
fn weighted_groups_converge_to_their_ratio() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(None, 768, GroupMode::Share).unwrap();
    let sa = [d.be_station(4000, Some(a)), d.be_station(300, Some(a))];
    let sb = [d.be_station(100, Some(b)), d.be_station(2000, Some(b))];
    d.run(10_000, RUN);
    assert_near("group a", d.share_of_airtime(&sa), 0.25, 0.02);
    assert_near("group b", d.share_of_airtime(&sb), 0.75, 0.02);
    for (i, &s) in sb.iter().enumerate() {
        assert_near(
            &format!("b's station {i}"),
            d.share_of_airtime(&[s]),
            0.375,
            0.02,
        );
    }
}

#[test]
fn nested_groups_get_the_product_of_their_shares() {
    // Root: an ungrouped station and group a, equal weights (½ each). In a: a station
    // (weight 1) and group b (weight 3): ⅛ and ⅜. In b: two stations, 3/16 each.
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(Some(a), 768, GroupMode::Share).unwrap();
    let s0 = d.be_station(2000, None);
    let s1 = d.be_station(300, Some(a));
    let s2 = d.be_station(4000, Some(b));
    let s3 = d.be_station(100, Some(b));
    d.run(20_000, RUN);
    assert_near("ungrouped station", d.share_of_airtime(&[s0]), 0.5, 0.02);
    assert_near("a's station", d.share_of_airtime(&[s1]), 0.125, 0.02);
    assert_near("group b", d.share_of_airtime(&[s2, s3]), 0.375, 0.02);
    assert_near("b's station 0", d.share_of_airtime(&[s2]), 0.1875, 0.02);
    assert_near("b's station 1", d.share_of_airtime(&[s3]), 0.1875, 0.02);
    assert_eq!(d.s.group_stats(b).unwrap().nominal_share_ppm, 375_000);
}

#[test]
fn nested_limit_is_its_share_of_its_parents_share() {
    // A limited group at ½ of a group at ½ of the root: a quarter of wall time, while
    // the other members (one station at the root, one in the outer group) are idle.
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(Some(a), 256, GroupMode::Limit).unwrap();
    d.station();
    let idle_in_a = d.station();
    d.s.set_station_group(idle_in_a, Some(a)).unwrap();
    let s = [d.be_station(300, Some(b)), d.be_station(3000, Some(b))];
    d.run(10_000, RUN);
    assert_eq!(d.s.group_stats(b).unwrap().nominal_share_ppm, 250_000);
    assert_near("limited subgroup", d.share_of_time(&s), 0.25, 0.02);
}

#[test]
fn limits_nest() {
    // Root: limited group a and an idle station, ½ each. In a: limited group b (weight
    // 1), an idle station (2) and a busy one (1): b is capped at ⅛, and the busy
    // station gets the rest of a's ½.
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Limit).unwrap();
    let b = d.s.add_group(Some(a), 256, GroupMode::Limit).unwrap();
    d.station();
    let idle_in_a = d.station();
    d.s.set_station_group(idle_in_a, Some(a)).unwrap();
    d.s.set_weight(idle_in_a, 512).unwrap();
    let busy_in_a = d.be_station(2000, Some(a));
    let in_b = [d.be_station(300, Some(b)), d.be_station(3000, Some(b))];
    d.run(10_000, RUN);
    assert_eq!(d.s.group_stats(b).unwrap().nominal_share_ppm, 125_000);
    assert_near("limited subgroup", d.share_of_time(&in_b), 0.125, 0.02);
    assert_near(
        "a's busy station",
        d.share_of_time(&[busy_in_a]),
        0.375,
        0.02,
    );
}

#[test]
fn group_airtime_and_deficit_follow_its_stations() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(Some(a), 512, GroupMode::Share).unwrap();
    let s0 = d.be_station(1000, Some(b));
    d.run(10, RUN);
    let sta = d.s.station_stats(s0).unwrap();
    let got = d.airtime_us[s0.0 as usize];
    for (g, weight) in [(a, 256), (b, 512)] {
        let st = d.s.group_stats(g).unwrap();
        let be = Ac::Be.index();
        assert_eq!(st.airtime_us[be], got);
        assert_eq!(
            st.deficit_us[be],
            weight * (1 + st.refills[be] as i64) - got as i64
        );
    }
    assert_eq!(sta.tx_airtime_us[Ac::Be.index()], got);
}

#[test]
fn a_newly_backlogged_group_goes_to_the_head() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let g = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let s0 = d.be_station(1000, None);
    let s1 = d.station();
    d.s.set_station_group(s1, Some(g)).unwrap();
    let t1 = d.txq(s1, BE, 1000, false);
    let q0 = d.s.active_txqs(Ac::Be).collect::<Vec<_>>();
    assert_eq!(q0.len(), 1);
    d.s.return_txq(t1, true, Instant::ZERO).unwrap();
    assert_eq!(
        d.s.active_txqs(Ac::Be).collect::<Vec<_>>(),
        [t1, q0[0]],
        "the group, with its TXQ, ahead of station {s0}"
    );
    d.s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(d.s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(t1));
}

#[test]
fn a_station_is_held_back_by_its_groups_deficit() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let g = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let s0 = d.be_station(1000, None);
    let s1 = d.be_station(1000, Some(g));
    let s2 = d.be_station(1000, Some(g));
    // Station 1 used 1000 µs: it and its group are 744 µs in debt. Station 2, in the
    // same group, has credit, but the group goes to the back after one refill.
    d.s.register_airtime(s1, BE, 1000, 0, Instant::ZERO)
        .unwrap();
    d.s.schedule_start(Ac::Be, &mut NoAql);
    let t = d.s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO).unwrap();
    assert_eq!(d.s.txq_owner(t).unwrap().0, Some(s0));
    let be = Ac::Be.index();
    assert_eq!(d.s.group_stats(g).unwrap().deficit_us[be], 256 - 1000 + 256);
    assert_eq!(d.s.station_stats(s2).unwrap().deficit_us[be], 256);
    assert_eq!(d.s.station_stats(s2).unwrap().refills[be], 0, "not reached");
}

#[test]
fn moving_stations_and_groups_keeps_their_txqs_scheduled() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(None, 256, GroupMode::Limit).unwrap();
    let s0 = d.be_station(1000, Some(a));
    let s1 = d.be_station(1000, None);
    let listed = |d: &Synthetic| {
        let mut l: Vec<usize> = d.s.active_txqs(Ac::Be).map(|t| t.index()).collect();
        l.sort();
        l
    };
    assert_eq!(listed(&d), [0, 1]);
    d.s.set_station_group(s1, Some(b)).unwrap();
    d.s.set_group_parent(a, Some(b)).unwrap();
    assert_eq!(listed(&d), [0, 1]);
    assert_eq!(d.s.group_stats(b).unwrap().members, 2);
    assert_eq!(d.s.station_group(s0).unwrap(), Some(a));
    d.s.set_station_group(s0, None).unwrap();
    d.s.set_group_parent(a, None).unwrap();
    assert_eq!(listed(&d), [0, 1]);
    d.s.remove_group(a).unwrap();
    d.s.set_station_group(s1, None).unwrap();
    d.s.remove_group(b).unwrap();
    assert_eq!(listed(&d), [0, 1], "back to the flat lists");
    d.run(1000, RUN);
    assert_near("station 0", d.share_of_airtime(&[s0]), 0.5, 0.02);
}

#[test]
fn limit_groups_say_when_they_may_send_again() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let g = d.s.add_group(None, 256, GroupMode::Limit).unwrap();
    let other = d.be_station(0, None); // half the root's weight: a 50% cap
    let s = d.be_station(0, Some(g));
    assert_eq!(d.s.next_timeout(Instant::ZERO), None, "full bucket");
    // 10 ms burst, 16 ms used at t = 0: 6 ms in debt, repaid at half speed.
    d.s.register_airtime(s, BE, 16_000, 0, Instant::ZERO)
        .unwrap();
    assert_eq!(
        d.s.next_timeout(Instant::ZERO),
        Some(Instant::from_millis(12))
    );
    assert_eq!(d.s.group_stats(g).unwrap().limit_credit_us, Some(-6_000));
    d.s.schedule_start(Ac::Be, &mut NoAql);
    let t =
        d.s.next_txq(Ac::Be, &mut NoAql, Instant::from_millis(11))
            .unwrap();
    assert_eq!(
        d.s.txq_owner(t).unwrap().0,
        Some(other),
        "the group, at the head, skipped"
    );
    d.s.schedule_start(Ac::Be, &mut NoAql);
    let t =
        d.s.next_txq(Ac::Be, &mut NoAql, Instant::from_millis(12))
            .unwrap();
    assert_eq!(d.s.txq_owner(t).unwrap().0, Some(s), "credit repaid");
    assert_eq!(
        d.s.next_timeout(Instant::ZERO),
        None,
        "nothing scheduled in the group"
    );
}

#[test]
fn may_transmit_checks_the_groups_above_the_txq() {
    let mut d = Synthetic::new(AirtimeParams::default());
    let be = Ac::Be.index();
    let g = d.s.add_group(None, 256, GroupMode::Limit).unwrap();
    d.be_station(0, None);
    let s1 = d.be_station(0, Some(g));
    let s2 = d.be_station(0, Some(g));
    let t2 = d.s.active_txqs(Ac::Be).find(|t| t.index() == 2).unwrap();
    // Station 1 used 1000 µs: it and its group are 744 µs in debt. Station 2 has
    // credit, its group has not: refused, and the group refilled once.
    d.s.register_airtime(s1, BE, 1000, 0, Instant::ZERO)
        .unwrap();
    assert!(!d.s.may_transmit(t2, &mut NoAql).unwrap());
    assert_eq!(d.s.group_stats(g).unwrap().deficit_us[be], 256 - 1000 + 256);
    // A weight that repays the debt in one refill: refused once more, then allowed.
    d.s.set_group_weight(g, 65_535).unwrap();
    assert!(!d.s.may_transmit(t2, &mut NoAql).unwrap());
    assert!(d.s.may_transmit(t2, &mut NoAql).unwrap());
    assert_eq!(d.s.station_stats(s2).unwrap().deficit_us[be], 256);
    d.s.return_txq(t2, true, Instant::ZERO).unwrap();
    // 20 ms more: the deficit copes, the 10 ms burst does not. Only `may_transmit_at`
    // holds the group to its wall-time cap.
    d.s.register_airtime(s1, BE, 20_000, 0, Instant::ZERO)
        .unwrap();
    let reopens = d.s.next_timeout(Instant::ZERO).unwrap();
    assert!(!d.s.may_transmit_at(t2, &mut NoAql, Instant::ZERO).unwrap());
    assert!(d.s.may_transmit_at(t2, &mut NoAql, reopens).unwrap());
}

/// Two groups of equal weight: `guest` with two stations always backlogged, `home`
/// with two stations that are only pinged. Returns the driver, the guest stations and
/// the home stations' TXQs.
fn sparse_home_beside_busy_guests(
    guest_mode: GroupMode,
) -> (Synthetic, [StationId; 2], [TxqId; 2]) {
    let mut d = Synthetic::new(AirtimeParams::default());
    let guest = d.s.add_group(None, 256, guest_mode).unwrap();
    let home = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let guests = [
        d.be_station(100, Some(guest)),
        d.be_station(4000, Some(guest)),
    ];
    let home_txqs = [0, 1].map(|_| {
        let h = d.station();
        d.s.set_station_group(h, Some(home)).unwrap();
        d.txq(h, BE, 0, false)
    });
    (d, guests, home_txqs)
}

/// One round: TXQs handed out in order; those in `empty` are handed back empty (they
/// stay listed while their station is active), the others with data. No airtime.
fn round_handing_back(d: &mut Synthetic, empty: &[TxqId]) -> Vec<TxqId> {
    d.s.schedule_start(Ac::Be, &mut NoAql);
    let mut served = Vec::new();
    while let Some(t) = d.s.next_txq(Ac::Be, &mut NoAql, d.now) {
        assert!(served.len() < 100, "a round that does not end: {served:?}");
        served.push(t);
        d.s.return_txq(t, !empty.contains(&t), d.now).unwrap();
    }
    served
}

#[test]
fn a_round_gets_past_a_group_whose_txqs_are_empty_but_kept_listed() {
    // The home stations just had a frame each: their TXQs, at the head (sparse), are
    // served and come back empty, listed while the stations are active. As in
    // mac80211's flat list, where each goes back to the tail, the round must go on
    // to the guest group (it used to come back to the first home TXQ and end).
    let (mut d, _, home) = sparse_home_beside_busy_guests(GroupMode::Share);
    for t in home {
        d.s.return_txq(t, true, d.now).unwrap();
    }
    for round in 0..3 {
        let served = round_handing_back(&mut d, &home);
        assert!(
            served.iter().any(|t| !home.contains(t)),
            "round {round} served only the home TXQs: {served:?}"
        );
        assert_eq!(d.s.active_txqs(Ac::Be).count(), 4, "all still listed");
    }
}

#[test]
fn round_robin_groups_take_turns() {
    // Without airtime fairness a TXQ goes back to the tail, and so does its group: a
    // round serves each TXQ once, as without groups (the group at the head used to
    // keep it, and the other group was never served).
    let mut d = Synthetic::new(AirtimeParams::round_robin());
    let a = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let b = d.s.add_group(None, 256, GroupMode::Share).unwrap();
    let sa = [d.be_station(1000, Some(a)), d.be_station(1000, Some(a))];
    let sb = [d.be_station(1000, Some(b)), d.be_station(1000, Some(b))];
    let served = round_handing_back(&mut d, &[]);
    let mut owners: Vec<StationId> = served
        .iter()
        .map(|&t| d.s.txq_owner(t).unwrap().0.unwrap())
        .collect();
    owners.sort();
    assert_eq!(owners, [sa[0], sa[1], sb[0], sb[1]]);
    d.run(1000, RUN);
    assert_near("group a", d.share_of_airtime(&sa), 0.5, 0.02);
}

/// Runs `d` for `duration_ms`, the `pinged` TXQs getting a frame of 0 µs every 20 ms:
/// served, they come back empty and stay listed (active within 100 ms). After a round
/// that used no airtime the driver starts another at once, unless the scheduler gave a
/// [`next_timeout`](AirtimeScheduler::next_timeout) (or a thousand such rounds went
/// by): then the clock goes on to it, or to the next ping.
fn run_pinged(d: &mut Synthetic, pinged: &[TxqId], duration_ms: u64) {
    let end = d.now + Duration::from_millis(duration_ms);
    let mut next_ping = d.now;
    let mut idle_rounds = 0;
    while d.now < end {
        if d.now >= next_ping {
            for &t in pinged {
                d.s.return_txq(t, true, d.now).unwrap();
            }
            next_ping = d.now + Duration::from_millis(20);
        }
        let start = d.now;
        d.s.schedule_start(Ac::Be, &mut NoAql);
        while let Some(t) = d.s.next_txq(Ac::Be, &mut NoAql, d.now) {
            if pinged.contains(&t) {
                d.s.return_txq(t, false, d.now).unwrap();
            } else {
                d.send(t);
            }
        }
        if d.now > start {
            idle_rounds = 0;
            continue;
        }
        idle_rounds += 1;
        let timeout = d.s.next_timeout(d.now);
        if timeout.is_some() || idle_rounds == 1000 {
            d.now = timeout.map_or(next_ping, |t| t.min(next_ping));
            idle_rounds = 0;
        }
    }
}

#[test]
fn a_sparse_group_leaves_the_channel_to_a_busy_sharing_one() {
    let (mut d, guests, home) = sparse_home_beside_busy_guests(GroupMode::Share);
    run_pinged(&mut d, &home, 10_000);
    assert_near("guest group", d.share_of_time(&guests), 1.0, 0.02);
}

#[test]
fn a_sparse_group_leaves_a_limited_one_its_half_of_wall_time() {
    let (mut d, guests, home) = sparse_home_beside_busy_guests(GroupMode::Limit);
    run_pinged(&mut d, &home, 10_000);
    assert_near("guest group", d.share_of_time(&guests), 0.5, 0.02);
    assert_near("guest station 0", d.share_of_time(&guests[..1]), 0.25, 0.02);
}
