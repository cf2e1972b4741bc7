//! The softmac driver under round robin (airtime fairness off) with one station that
//! cannot aggregate: no station with data is left unserved. ath9k's round robin of
//! Linux 4.11–4.20 (`ath_txq_schedule`, `drivers/net/wireless/ath/ath9k/xmit.c`) ends
//! its round at the first TID it has no room for and leaves that TID first; a round
//! that instead handed such TXQs out and back to the tail (`-EBUSY`) put the list back
//! in its old order each time the walk passed them all — which it does while an
//! 802.11b station's frame still fits — and the head took every aggregate slot.

use super::*;
use airq::phy::{DsssDataRate, DsssPreamble};

/// One 802.11b station at 1 Mbit/s and five HT20 MCS 7 stations, every one kept
/// backlogged; the PPDUs each got over `ppdus` transmissions.
fn ppdus_per_station(preset_name: &str, ppdus: usize) -> Vec<u64> {
    let dsss = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
    let mut links = vec![StationLink::new(dsss)];
    links.extend((0..5).map(|_| ht_link()));
    let bss = BssConfig::ofdm(Band::Ghz2_4);
    let mut ap = ApTx::new(&preset(preset_name), &bss, &links).unwrap();
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    let mut sent = vec![0u64; links.len()];
    for _ in 0..ppdus {
        for s in (0..links.len() as u32).map(StationId) {
            while ap.station_backlog(s).map_or(0, |b| b.packets()) < 64 {
                ap.enqueue_into(src.packet(s, 0, s.0, 1500), now, &mut out)
                    .unwrap();
            }
        }
        let (station, _) = transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false)
            .expect("backlogged stations: the AP has a PPDU");
        sent[station.index()] += 1;
    }
    sent
}

#[test]
fn round_robin_serves_every_aggregating_station_beside_an_11b_one() {
    let sent = ppdus_per_station("fq_mac", 3000);
    let fast = &sent[1..];
    let mean = fast.iter().sum::<u64>() / fast.len() as u64;
    for (i, &n) in fast.iter().enumerate() {
        assert!(
            n * 4 >= mean,
            "HT station {} got {n} PPDUs of a mean {mean}: starved ({sent:?})",
            i + 1
        );
    }
    assert!(sent[0] > 0, "the 802.11b station is served too ({sent:?})");
}

#[test]
fn airtime_fairness_serves_every_station_beside_an_11b_one() {
    let sent = ppdus_per_station("airtime", 3000);
    assert!(sent.iter().all(|&n| n > 0), "{sent:?}");
}
