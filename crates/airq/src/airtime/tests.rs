//! Tests of the airtime scheduler: list discipline (sparse stations first, rounds,
//! refills), charging rules, round robin, push-pull, AQL gating, and convergence of
//! airtime shares with a synthetic driver.

use super::*;
use crate::ids::{Ac, StationId, Tid};
use crate::time::{Duration, Instant};
use alloc::vec::Vec;

const BE: Tid = match Tid::new(0) {
    Some(t) => t,
    None => unreachable!(),
};

fn sta(i: u32) -> StationId {
    StationId(i)
}

/// A scheduler with `n` stations, one BE TXQ each.
fn fixture(n: u32, params: AirtimeParams) -> (AirtimeScheduler, Vec<TxqId>) {
    let mut s = AirtimeScheduler::new(params).unwrap();
    let txqs = (0..n)
        .map(|i| {
            s.add_station(sta(i)).unwrap();
            s.add_txq(Some(sta(i)), BE).unwrap()
        })
        .collect();
    (s, txqs)
}

fn list(s: &AirtimeScheduler) -> Vec<usize> {
    s.active_txqs(Ac::Be).map(|t| t.index()).collect()
}

#[test]
fn newly_backlogged_station_goes_to_the_head() {
    let (mut s, q) = fixture(3, AirtimeParams::default());
    let now = Instant::ZERO;
    s.return_txq(q[0], true, now).unwrap();
    s.return_txq(q[1], true, now).unwrap();
    assert_eq!(list(&s), [1, 0], "head insertion");
    s.return_txq(q[2], true, now).unwrap();
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[2]));
}

#[test]
fn without_the_sparse_station_optimisation_a_newly_backlogged_station_waits_its_turn() {
    let params = AirtimeParams {
        sparse_first: false,
        ..AirtimeParams::default()
    };
    let (mut s, q) = fixture(3, params);
    let now = Instant::ZERO;
    for t in &q {
        s.return_txq(*t, true, now).unwrap();
    }
    assert_eq!(list(&s), [0, 1, 2], "tail insertion");
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[0]));
}

#[test]
fn round_robin_appends_at_the_tail_and_ignores_airtime() {
    let (mut s, q) = fixture(3, AirtimeParams::round_robin());
    let now = Instant::ZERO;
    for &t in &q {
        s.return_txq(t, true, now).unwrap();
    }
    assert_eq!(list(&s), [0, 1, 2]);
    s.register_airtime(sta(0), BE, 100_000, 0, now).unwrap();
    let mut order = Vec::new();
    for _ in 0..6 {
        s.schedule_start(Ac::Be, &mut NoAql);
        let t = s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO).unwrap();
        order.push(t.index());
        s.return_txq(t, true, now).unwrap();
    }
    assert_eq!(order, [0, 1, 2, 0, 1, 2]);
    assert_eq!(
        s.station_stats(sta(0)).unwrap().deficit_us[Ac::Be.index()],
        256
    );
    assert_eq!(
        s.station_stats(sta(0)).unwrap().tx_airtime_us[Ac::Be.index()],
        100_000
    );
}

#[test]
fn station_in_debt_is_refilled_and_moved_back() {
    let (mut s, q) = fixture(2, AirtimeParams::default());
    let now = Instant::ZERO;
    s.return_txq(q[1], true, now).unwrap();
    s.return_txq(q[0], true, now).unwrap();
    // Station 0 used 600 µs: deficit 256 − 600 = −344, two refills from positive.
    s.register_airtime(sta(0), BE, 600, 0, now).unwrap();
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[1]));
    assert_eq!(
        s.station_stats(sta(0)).unwrap().deficit_us[Ac::Be.index()],
        -344 + 256
    );
    assert_eq!(list(&s), [0]);
}

#[test]
fn a_txq_is_handed_out_once_per_round() {
    let (mut s, q) = fixture(1, AirtimeParams::default());
    let now = Instant::ZERO;
    s.return_txq(q[0], true, now).unwrap();
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[0]));
    s.return_txq(q[0], true, now).unwrap();
    assert_eq!(
        s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO),
        None,
        "same round"
    );
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[0]));
}

#[test]
fn airtime_is_charged_only_to_recently_active_stations() {
    let (mut s, q) = fixture(1, AirtimeParams::default());
    // Never scheduled: stats count, the deficit does not.
    s.register_airtime(sta(0), BE, 500, 300, Instant::ZERO)
        .unwrap();
    let st = s.station_stats(sta(0)).unwrap();
    assert_eq!(
        (st.tx_airtime_us[2], st.rx_airtime_us[2], st.deficit_us[2]),
        (500, 300, 256)
    );
    s.return_txq(q[0], true, Instant::from_millis(1000))
        .unwrap();
    // Within 100 ms of activity: TX + RX charged.
    s.register_airtime(sta(0), BE, 500, 300, Instant::from_millis(1100))
        .unwrap();
    assert_eq!(s.station_stats(sta(0)).unwrap().deficit_us[2], 256 - 800);
    // Later than that: not charged.
    s.register_airtime(sta(0), BE, 500, 300, Instant::from_millis(1101))
        .unwrap();
    assert_eq!(s.station_stats(sta(0)).unwrap().deficit_us[2], 256 - 800);
}

#[test]
fn airtime_flags_select_tx_rx() {
    let params = AirtimeParams {
        use_rx: false,
        ..AirtimeParams::default()
    };
    let (mut s, q) = fixture(1, params);
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    s.register_airtime(sta(0), BE, 500, 300, Instant::ZERO)
        .unwrap();
    assert_eq!(s.station_stats(sta(0)).unwrap().deficit_us[2], 256 - 500);
}

#[test]
fn empty_txq_of_an_active_station_stays_listed_within_the_window() {
    let (mut s, q) = fixture(1, AirtimeParams::default());
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    s.schedule_start(Ac::Be, &mut NoAql);
    let t = s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO).unwrap();
    s.return_txq(t, false, Instant::from_millis(50)).unwrap();
    assert_eq!(list(&s), [0], "kept to repay its deficit");
    s.schedule_start(Ac::Be, &mut NoAql);
    let t = s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO).unwrap();
    s.return_txq(t, false, Instant::from_millis(150)).unwrap();
    assert!(list(&s).is_empty());
}

/// A gate that refuses one station and, optionally, whole rounds.
struct TestGate {
    blocked: Option<StationId>,
    phy_ok: bool,
    pending_us: u32,
}

impl AirtimeGate for TestGate {
    fn pending_us(&self, _station: StationId, _ac: Ac) -> u32 {
        self.pending_us
    }
    fn station_may_dequeue(&mut self, station: StationId, _ac: Ac, _now: Instant) -> bool {
        Some(station) != self.blocked
    }
    fn phy_may_schedule(&mut self, _ac: Ac, _active_txqs: u32) -> bool {
        self.phy_ok
    }
}

#[test]
fn aql_gates_stations_and_rounds() {
    let (mut s, q) = fixture(2, AirtimeParams::default());
    s.return_txq(q[1], true, Instant::ZERO).unwrap();
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    let mut gate = TestGate {
        blocked: Some(sta(0)),
        phy_ok: true,
        pending_us: 0,
    };
    s.schedule_start(Ac::Be, &mut gate);
    assert_eq!(
        s.next_txq(Ac::Be, &mut gate, Instant::ZERO),
        Some(q[1]),
        "station 0 is over its AQL limit"
    );
    let mut everyone_blocked = TestGate {
        blocked: Some(sta(0)),
        ..gate
    };
    s.schedule_start(Ac::Be, &mut everyone_blocked);
    assert_eq!(
        s.next_txq(Ac::Be, &mut everyone_blocked, Instant::ZERO),
        None,
        "only station 0 listed"
    );
    let mut phy_full = TestGate {
        blocked: None,
        phy_ok: false,
        pending_us: 0,
    };
    s.schedule_start(Ac::Be, &mut phy_full);
    assert_eq!(s.next_txq(Ac::Be, &mut phy_full, Instant::ZERO), None);
}

/// A refused round must not restart the round count: a TXQ served in round 1 before
/// the refusal is due again in the next allowed round (mac80211's round number 0
/// would make that round 1 again and end it at once).
#[test]
fn a_refused_round_does_not_replay_old_round_numbers() {
    let (mut s, q) = fixture(1, AirtimeParams::round_robin());
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    let mut open = TestGate {
        blocked: None,
        phy_ok: true,
        pending_us: 0,
    };
    s.schedule_start(Ac::Be, &mut open);
    let t = s.next_txq(Ac::Be, &mut open, Instant::ZERO).unwrap();
    s.return_txq(t, true, Instant::ZERO).unwrap();
    let mut full = TestGate {
        phy_ok: false,
        ..open
    };
    s.schedule_start(Ac::Be, &mut full);
    assert!(!s.round_allowed(Ac::Be));
    assert_eq!(s.next_txq(Ac::Be, &mut full, Instant::ZERO), None);
    s.schedule_start(Ac::Be, &mut open);
    assert!(s.round_allowed(Ac::Be));
    assert_eq!(s.next_txq(Ac::Be, &mut open, Instant::ZERO), Some(q[0]));
}

#[test]
fn pending_airtime_counts_against_the_deficit() {
    let (mut s, q) = fixture(2, AirtimeParams::default());
    s.return_txq(q[1], true, Instant::ZERO).unwrap();
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    // Deficit 256 but 300 µs already pending below the MAC: effective −44.
    let mut gate = TestGate {
        blocked: None,
        phy_ok: true,
        pending_us: 300,
    };
    s.schedule_start(Ac::Be, &mut gate);
    // Both are in effective debt; each pass refills 256 until 256·k − 300 ≥ 0.
    assert_eq!(s.next_txq(Ac::Be, &mut gate, Instant::ZERO), Some(q[0]));
    assert_eq!(s.station_stats(sta(0)).unwrap().deficit_us[2], 512);
}

#[test]
fn may_transmit_rotates_those_ahead_and_refuses_a_station_in_debt() {
    let (mut s, q) = fixture(3, AirtimeParams::default());
    for i in [2, 1, 0] {
        s.return_txq(q[i], true, Instant::ZERO).unwrap();
    }
    assert_eq!(list(&s), [0, 1, 2]);
    assert!(s.may_transmit(q[2], &mut NoAql).unwrap());
    assert_eq!(list(&s), [0, 1], "allowed: unlisted, the others rotated");
    s.return_txq(q[2], true, Instant::ZERO).unwrap();
    s.register_airtime(sta(1), BE, 1000, 0, Instant::ZERO)
        .unwrap();
    assert!(!s.may_transmit(q[1], &mut NoAql).unwrap());
    assert_eq!(
        s.station_stats(sta(1)).unwrap().deficit_us[2],
        256 - 1000 + 256
    );
    assert_eq!(*list(&s).last().unwrap(), 1, "refused: moved to the back");
}

/// A synthetic driver: every station always has data; each time the scheduler hands
/// out its TXQ, it sends one aggregate of its own fixed airtime, reported at once.
/// Returns the airtime each station got over `rounds` scheduling rounds.
fn run_synthetic(
    s: &mut AirtimeScheduler,
    q: &[TxqId],
    aggregate_us: &[u32],
    rounds: usize,
) -> Vec<u64> {
    let mut now = Instant::ZERO;
    for &t in q {
        s.return_txq(t, true, now).unwrap();
    }
    let mut got = alloc::vec![0u64; q.len()];
    for _ in 0..rounds {
        s.schedule_start(Ac::Be, &mut NoAql);
        while let Some(t) = s.next_txq(Ac::Be, &mut NoAql, now) {
            let i = t.index();
            got[i] += u64::from(aggregate_us[i]);
            now += Duration::from_micros(u64::from(aggregate_us[i]));
            s.register_airtime(sta(i as u32), BE, aggregate_us[i], 0, now)
                .unwrap();
            s.return_txq(t, true, now).unwrap();
        }
    }
    got
}

fn assert_shares(got: &[u64], weights: &[u64], tolerance: f64) {
    let total: u64 = got.iter().sum();
    let weight_sum: u64 = weights.iter().sum();
    for (i, (&g, &w)) in got.iter().zip(weights).enumerate() {
        let share = g as f64 / total as f64;
        let expected = w as f64 / weight_sum as f64;
        assert!(
            (share - expected).abs() / expected <= tolerance,
            "station {i}: share {share:.4}, expected {expected:.4} ({got:?})"
        );
    }
}

#[test]
fn equal_weights_converge_to_equal_airtime() {
    // Very different rates: aggregates of 100 µs (fast) to 4 ms (slow).
    let aggregates = [100, 650, 2000, 4000];
    let (mut s, q) = fixture(4, AirtimeParams::default());
    let got = run_synthetic(&mut s, &q, &aggregates, 10_000);
    assert_shares(&got, &[1, 1, 1, 1], 0.02);
}

#[test]
fn round_robin_gives_the_anomaly() {
    // The same stations under round robin: airtime proportional to aggregate length.
    let aggregates = [100, 650, 2000, 4000];
    let (mut s, q) = fixture(4, AirtimeParams::round_robin());
    let got = run_synthetic(&mut s, &q, &aggregates, 10_000);
    assert_shares(&got, &[100, 650, 2000, 4000], 0.02);
}

#[test]
fn weights_converge_to_their_ratios() {
    // Seed (netdev 2.2 slides, airtime policies): a slow station with weight 2 gets
    // twice the airtime of each of three others.
    let aggregates = [4000, 300, 300, 1200];
    let (mut s, q) = fixture(4, AirtimeParams::default());
    s.set_weight(sta(0), 512).unwrap();
    let got = run_synthetic(&mut s, &q, &aggregates, 10_000);
    assert_shares(&got, &[2, 1, 1, 1], 0.02);
}

/// mac80211's list discipline without airtime charges (`ieee80211_next_txq` /
/// `ieee80211_return_txq`, `net/mac80211/tx.c`): a round that hands every TXQ out and
/// back to the tail ends at the first one served, and leaves the list in the order it
/// had — the head is first again next round. A driver that hands out TXQs it has no
/// room for (ath9k's `-EBUSY`) thus serves the same head every round; `head_txq` lets a
/// driver look first, as ath9k's round robin of Linux 4.11–4.20 did.
#[test]
fn round_robin_round_that_hands_back_every_txq_keeps_the_order() {
    let (mut s, q) = fixture(3, AirtimeParams::round_robin());
    let now = Instant::ZERO;
    for &t in &q {
        s.return_txq(t, true, now).unwrap();
    }
    for _ in 0..3 {
        s.schedule_start(Ac::Be, &mut NoAql);
        assert_eq!(s.head_txq(Ac::Be), Some(q[0]));
        let mut handed = Vec::new();
        while let Some(t) = s.next_txq(Ac::Be, &mut NoAql, now) {
            handed.push(t.index());
            s.return_txq(t, true, now).unwrap();
        }
        assert_eq!(handed, [0, 1, 2]);
        assert_eq!(list(&s), [0, 1, 2], "the round put the list back as it was");
    }
    // A driver that stops after the head: the next TXQ is first.
    s.schedule_start(Ac::Be, &mut NoAql);
    let t = s.next_txq(Ac::Be, &mut NoAql, now).unwrap();
    s.return_txq(t, true, now).unwrap();
    assert_eq!(s.head_txq(Ac::Be), Some(q[1]));
}

#[test]
fn head_txq_of_an_empty_list_is_none() {
    let (s, _) = fixture(2, AirtimeParams::round_robin());
    assert_eq!(s.head_txq(Ac::Be), None);
}
