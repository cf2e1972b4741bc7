//! FQ-MAC's CoDel parameters per station, as mac80211 set them from 2016 (commit
//! 484a54c2e597, "mac80211: Dynamically set CoDel parameters per station") until 2025
//! (reverted by 4876376988081d): whenever rate control updates a station's rates
//! (`rate_control_set_rates` → `ieee80211_sta_set_expected_throughput`),
//! `sta_update_codel_params` gives it target 50 ms, interval 300 ms and no ECN if its
//! expected throughput is known (above 0) and below `STA_SLOW_THRESHOLD` (6000 kbit/s)
//! times the number of associated stations, and 20 ms / 100 ms with ECN otherwise;
//! `fq_tin_dequeue_func` then runs CoDel on the station's TXQs with them. Every
//! station of a scenario is associated from the start, so the count is the scenario's.
//! A station not judged slow keeps the FQ-MAC's own parameters (mac80211's 20 ms /
//! 100 ms / ECN unless the scenario changed them: the kernels with this code ignored
//! such a change for stations).

use super::fq_mac::FqMac;
use crate::mac::rate_control::RateControl;
use airq::codel::CodelParams;
use airq::{Duration, StationId};

/// `STA_SLOW_THRESHOLD` (net/mac80211/sta_info.h), kbit/s per associated station.
pub const STA_SLOW_THRESHOLD_KBPS: u64 = 6000;

/// What `sta_update_codel_params` gave a slow station.
pub fn slow_station_params() -> CodelParams {
    CodelParams {
        target: Duration::from_millis(50),
        interval: Duration::from_millis(300),
        ecn: false,
        ..CodelParams::mac80211()
    }
}

/// Which stations have the slow parameters now.
pub(super) struct StationCodel {
    slow: Vec<bool>,
}

impl StationCodel {
    pub(super) fn new(stations: usize) -> StationCodel {
        StationCodel {
            slow: vec![false; stations],
        }
    }

    /// `sta_update_codel_params` for `station`, whose rate control is `rate_control`
    /// (its link aggregating if `ampdu`).
    pub(super) fn update(
        &mut self,
        fq: &mut FqMac,
        station: StationId,
        rate_control: &RateControl,
        ampdu: bool,
    ) {
        let thr = u64::from(rate_control.expected_throughput_kbps(ampdu));
        let associated = self.slow.len() as u64;
        let slow = thr != 0 && thr < STA_SLOW_THRESHOLD_KBPS * associated;
        if std::mem::replace(&mut self.slow[station.index()], slow) != slow {
            fq.set_station_codel(station, slow.then(slow_station_params));
        }
    }
}
