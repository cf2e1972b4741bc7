//! FQ-MAC's CoDel parameters per station (mac80211, 2016 to 2025).

use super::super::station_codel::slow_station_params;
use super::*;
use crate::engine::rng::RngRoot;
use crate::mac::rate_control::minstrel_ht::MinstrelHtParams;
use crate::mac::rate_control::{RateControl, RateControlConfig};
use airq::codel::CodelParams;

fn with_station_codel(name: &str) -> ApConfig {
    ApConfig {
        slow_station_codel: true,
        ..preset(name)
    }
}

fn codel_of(ap: &ApTx, stations: usize) -> Vec<CodelParams> {
    (0..stations as u32)
        .map(|s| ap.station_codel(StationId(s)).unwrap())
        .collect()
}

/// HT20 MCS 0 expects 5437 kbit/s and MCS 7 54,562: below 6000 × 3 only MCS 0, below
/// 6000 × 10 both. Off, every station has mac80211's 20 ms / 100 ms / ECN.
#[test]
fn a_station_below_6_mbits_per_station_gets_50_ms_and_300_ms() {
    let (lax, strict) = (slow_station_params(), CodelParams::mac80211());
    assert_eq!(
        (lax.target, lax.interval, lax.ecn),
        (Duration::from_millis(50), Duration::from_millis(300), false)
    );
    let three = [slow_link(), ht_link(), ht_link()];
    let on = ap(&with_station_codel("airtime"), &three);
    assert_eq!(codel_of(&on, 3), [lax, strict, strict]);
    let off = ap(&preset("airtime"), &three);
    assert_eq!(codel_of(&off, 3), [strict; 3]);
    let mut ten = vec![slow_link()];
    ten.extend(std::iter::repeat_n(ht_link(), 9));
    let on = ap(&with_station_codel("fq_mac"), &ten);
    assert_eq!(codel_of(&on, 10), [lax; 10]);
    // VHT80 MCS 9 expects far above 60 Mbit/s.
    let mut ten = vec![fast_link()];
    ten.extend(std::iter::repeat_n(ht_link(), 9));
    let on = ap(&with_station_codel("fq_mac"), &ten);
    assert_eq!(codel_of(&on, 2), [strict, lax]);
    // No FQ-MAC, no such parameters.
    let e = ApTx::new(&with_station_codel("fifo"), &bss(), &three).err();
    assert_eq!(e, Some(ApConfigError::SlowStationCodelWithoutFqMac));
    assert_eq!(
        ap(&preset("fifo"), &three).station_codel(StationId(0)),
        None
    );
}

/// Under Minstrel-HT the judgment follows its statistics: none before the first (an
/// expected throughput of 0 leaves the parameters alone), then the MCS 0 station's.
#[test]
fn under_minstrel_the_parameters_follow_its_statistics() {
    let links = [slow_link(), ht_link(), ht_link()];
    let mut ap = ap(&with_station_codel("airtime"), &links);
    let config = RateControlConfig::MinstrelHt(MinstrelHtParams::default());
    let mut rng = RngRoot::new(1).stream("minstrel", 0);
    let rc = RateControl::new(&config, links[0].rate, &mut rng).unwrap();
    assert!(ap.set_rate_control(StationId(0), rc));
    assert_eq!(
        ap.station_codel(StationId(0)),
        Some(CodelParams::mac80211())
    );
    // Frames to the station, each delivered, for longer than Minstrel's update interval.
    let mut src = Source::default();
    let mut out = TxOutput::default();
    let mut now = Instant::ZERO;
    for _ in 0..200 {
        for _ in 0..4 {
            let p = src.packet(StationId(0), 0, 1, 1500);
            ap.enqueue_into(p, now, &mut out).unwrap();
        }
        drain(&mut ap, &mut now, &mut out);
        now += Duration::from_millis(1);
    }
    assert_eq!(ap.station_codel(StationId(0)), Some(slow_station_params()));
}
