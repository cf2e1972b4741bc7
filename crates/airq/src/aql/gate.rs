//! [`Aql`] as the airtime scheduler's [`AirtimeGate`]: the scheduler asks it for the
//! airtime pending below the MAC (subtracted from deficits), the per-station check in
//! `next_txq` and the per-AC check at the start of a round, as mac80211's scheduler
//! calls `ieee80211_txq_airtime_check` and `ieee80211_txq_schedule_airtime_check`.

use super::Aql;
use crate::airtime::AirtimeGate;
use crate::ids::{Ac, StationId};
use crate::time::Instant;

impl AirtimeGate for Aql {
    fn pending_us(&self, station: StationId, ac: Ac) -> u32 {
        self.station_pending_us(station, ac)
            .map_or(0, |us| u32::try_from(us).unwrap_or(u32::MAX))
    }

    /// A station AQL does not track is not limited, as mac80211 does not limit TXQs
    /// without a station.
    fn station_may_dequeue(&mut self, station: StationId, ac: Ac, now: Instant) -> bool {
        self.may_dequeue(station, ac, now).unwrap_or(true)
    }

    fn phy_may_schedule(&mut self, ac: Ac, active_txqs: u32) -> bool {
        self.schedule_allowed(ac, active_txqs)
    }
}

#[cfg(test)]
mod tests {
    use crate::airtime::{AirtimeParams, AirtimeScheduler};
    use crate::aql::{Aql, AqlParams};
    use crate::ids::{Ac, StationId, Tid};
    use crate::time::Instant;

    #[test]
    fn scheduler_skips_a_station_over_its_aql_limit() {
        let mut aql = Aql::new(AqlParams::default()).unwrap();
        let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
        let tid = Tid::new(0).unwrap();
        let txqs: [_; 2] = core::array::from_fn(|i| {
            let id = StationId(i as u32);
            aql.register_station(id).unwrap();
            s.add_station(id).unwrap();
            s.add_txq(Some(id), tid).unwrap()
        });
        let now = Instant::ZERO;
        s.return_txq(txqs[1], true, now).unwrap();
        s.return_txq(txqs[0], true, now).unwrap();
        // Station 0 has 13 ms in flight: above the 12 ms high limit.
        aql.charge(StationId(0), Ac::Be, 13_000).unwrap();
        s.schedule_start(Ac::Be, &mut aql);
        assert_eq!(s.next_txq(Ac::Be, &mut aql, now), Some(txqs[1]));
        // Its completion frees it again; the pending airtime also counted in its deficit.
        aql.release(StationId(0), Ac::Be, 13_000).unwrap();
        s.return_txq(txqs[1], true, now).unwrap();
        s.schedule_start(Ac::Be, &mut aql);
        assert_eq!(
            s.next_txq(Ac::Be, &mut aql, now),
            Some(txqs[1]),
            "head insertion"
        );
        s.return_txq(txqs[1], false, Instant::from_secs(1)).unwrap();
        assert_eq!(s.next_txq(Ac::Be, &mut aql, now), Some(txqs[0]));
    }
}
