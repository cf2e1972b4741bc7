//! Combined QoS aggregates at the AP (seed 000 §4.3, "Improved network efficiency"; the
//! rule is [`airq::aggregate::qos_aggregate`]): what the AP knows that the rule needs,
//! and where the softmac driver applies it.
//!
//! - **Contention**: the stations the AP heard transmitting (any PPDU it received from
//!   them, collided or not) within the rule's `contention_window`, each station's last
//!   reception kept here (the simulator has one BSS: no other transmitters).
//! - **Holding**: when a scheduling round hands out a station's VO TXQ while a carrier
//!   (its BE or VI frames) is queued and the rule allows, the TXQ is handed back
//!   unserved, as a driver without room would (`-EBUSY`): its frames wait in the MAC
//!   layer, the wait counted from the first time they were held. When the wait reaches
//!   `max_wait`, a VO round runs ([`QosCombine::poll_at`]) and serves them as usual.
//!   In station-first mode, where the scheduler picks a station and then its
//!   highest-priority TXQ with data, a held VO TXQ is handed back as empty instead (else
//!   the station's carrier would never be picked while VO waits) and marked as having
//!   data again when its wait ends or frames are left after a carrier.
//! - **Carrying**: building a BE/VI A-MPDU for the station, the driver first pulls the
//!   VO frames the rule gives ([`airq::aggregate::QosAggregate::to_carry`]) through the
//!   AQL gate (charged to VO), numbers them in the VO TID's BlockAck state and puts
//!   them at the head of the A-MPDU; the rest of the A-MPDU is filled as usual. Their
//!   completion, retries and reordering stay per TID ([`super::mac_tx`]).

use super::txq_key::TxqKey;
use airq::aggregate::{QosAggregate, QosAggregateParams};
use airq::{Ac, Duration, Instant, StationId, Tid};

pub(super) struct QosCombine {
    pub(super) rule: QosAggregate,
    /// Per station: when the AP last received a PPDU from it.
    last_rx: Vec<Option<Instant>>,
    /// Per station: since when its VO frames wait for a carrier (`None`: not held).
    held_since: Vec<Option<Instant>>,
    /// Per station: its VO frames waited `max_wait` and are not held again until its
    /// VO queue has emptied.
    expired: Vec<bool>,
}

impl QosCombine {
    pub(super) fn new(params: QosAggregateParams, stations: usize) -> QosCombine {
        QosCombine {
            rule: QosAggregate::new(params),
            last_rx: vec![None; stations],
            held_since: vec![None; stations],
            expired: vec![false; stations],
        }
    }

    /// The AP received a PPDU from `station` at `now`.
    pub(super) fn heard(&mut self, station: StationId, now: Instant) {
        if let Some(t) = self.last_rx.get_mut(station.index()) {
            *t = Some(now);
        }
    }

    /// Stations heard within the contention window before `now`.
    pub(super) fn contenders(&self, now: Instant) -> u32 {
        let window = self.rule.params().contention_window;
        let heard = self
            .last_rx
            .iter()
            .flatten()
            .filter(|&&t| now.saturating_duration_since(t) <= window)
            .count();
        u32::try_from(heard).unwrap_or(u32::MAX)
    }

    /// Whether the station's VO frames (`vo_queued`, a carrier coming) keep waiting;
    /// starts the wait the first time they are held, ends it when they are not.
    pub(super) fn hold(&mut self, station: StationId, vo_queued: u32, now: Instant) -> bool {
        let i = station.index();
        if self.expired[i] {
            return false;
        }
        let contenders = self.contenders(now);
        let since = *self.held_since[i].get_or_insert(now);
        let waited = now - since;
        let held = self.rule.hold(vo_queued, contenders, waited);
        if !held {
            self.held_since[i] = None;
            self.expired[i] = waited >= self.max_wait();
        }
        held
    }

    /// Ends every wait that has reached `max_wait` by `now` (counted as such): those
    /// stations' VO frames go in VO TXOPs of their own. Returns those stations.
    pub(super) fn expire(&mut self, now: Instant) -> Vec<StationId> {
        let max_wait = self.max_wait();
        let mut ended = Vec::new();
        for (i, (since, expired)) in self
            .held_since
            .iter_mut()
            .zip(&mut self.expired)
            .enumerate()
        {
            if since.is_some_and(|t| t + max_wait <= now) {
                *since = None;
                *expired = true;
                self.rule.waited();
                ended.push(StationId(i as u32));
            }
        }
        ended
    }

    /// The station's VO queue emptied (carried, or sent on its own) or its frames go
    /// on their own anyway: the next VO frames may be held again.
    pub(super) fn released(&mut self, station: StationId) {
        self.held_since[station.index()] = None;
        self.expired[station.index()] = false;
    }

    /// Whether the station's VO frames wait for a carrier.
    pub(super) fn is_held(&self, station: StationId) -> bool {
        self.held_since[station.index()].is_some()
    }

    /// When the first held wait reaches `max_wait`.
    pub(super) fn poll_at(&self) -> Option<Instant> {
        let max_wait = self.rule.params().max_wait;
        self.held_since
            .iter()
            .flatten()
            .min()
            .map(|&t| t + max_wait)
    }

    /// The longest a VO frame may wait for a carrier.
    pub(super) fn max_wait(&self) -> Duration {
        self.rule.params().max_wait
    }
}

/// The station's TXQs whose frames a carrier takes (VO).
pub(super) fn vo_keys(station: StationId) -> impl Iterator<Item = TxqKey> {
    keys_of(station, |ac| ac == Ac::Vo)
}

/// The station's TXQs whose A-MPDUs carry VO frames (BE and VI).
pub(super) fn carrier_keys(station: StationId) -> impl Iterator<Item = TxqKey> {
    keys_of(station, |ac| matches!(ac, Ac::Be | Ac::Vi))
}

fn keys_of(station: StationId, want: fn(Ac) -> bool) -> impl Iterator<Item = TxqKey> {
    (0..Tid::COUNT as u8)
        .filter_map(Tid::new)
        .filter(move |t| want(t.ac()))
        .map(move |t| TxqKey::new(station, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_are_the_stations_heard_within_the_window() {
        let mut q = QosCombine::new(QosAggregateParams::default(), 4);
        let ms = Instant::from_millis;
        assert_eq!(q.contenders(ms(0)), 0);
        q.heard(StationId(0), ms(10));
        q.heard(StationId(2), ms(50));
        assert_eq!(q.contenders(ms(100)), 2);
        assert_eq!(q.contenders(ms(110)), 2, "the window's edge counts");
        assert_eq!(q.contenders(ms(111)), 1);
    }

    #[test]
    fn a_hold_lasts_until_max_wait() {
        let mut q = QosCombine::new(QosAggregateParams::default(), 2);
        let ms = Instant::from_millis;
        let s = StationId(1);
        assert!(q.hold(s, 1, ms(5)));
        assert_eq!(q.poll_at(), Some(ms(15)));
        assert!(q.hold(s, 1, ms(14)), "the wait counts from the first hold");
        assert!(!q.hold(s, 1, ms(15)));
        assert!(!q.is_held(s));
        assert_eq!(q.poll_at(), None);
        assert!(
            !q.hold(s, 1, ms(16)),
            "not held again before its queue empties"
        );
        q.released(s);
        assert!(q.hold(s, 1, ms(20)));
        q.expire(ms(29));
        assert!(q.is_held(s));
        q.expire(ms(30));
        assert!(!q.is_held(s) && q.poll_at().is_none());
        assert!(!q.hold(s, 1, ms(30)));
        assert_eq!(q.rule.stats().own_txop_waited, 2);
    }

    #[test]
    fn keys_by_access_category() {
        let s = StationId(3);
        assert!(vo_keys(s).all(|k| k.ac() == Ac::Vo && k.station() == s));
        assert!(vo_keys(s).any(|k| k.tid().get() == 6));
        assert!(carrier_keys(s).any(|k| k.tid().get() == 0));
        assert!(carrier_keys(s).any(|k| k.tid().get() == 5));
        assert!(carrier_keys(s).all(|k| matches!(k.ac(), Ac::Be | Ac::Vi)));
    }
}
