//! The firmware-offload driver and AQL. In push mode the firmware's queue is bounded by
//! its descriptors and AQL only; in pull mode by what it fetches.

use super::*;

#[test]
fn aql_bounds_each_stations_firmware_airtime() {
    let links = [slow_link(), ht_link(), fast_link()];
    let config = preset("airtime_aql").with_driver(DriverConfig::firmware_push());
    let mut ap = ap(&config, &links);
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    let high = u64::from(AqlParams::default().limits[Ac::Be.index()].aql_limit_high_us);
    let one_packet = |s: StationId| {
        let aql = ap_aql_estimate(&links[s.index()], 1500);
        u64::from(aql)
    };
    let mut peak = [0u64; 3];
    for step in 0..3000u32 {
        for s in (0..3).map(StationId) {
            while ap.station_backlog(s).unwrap().mac_packets < 100 {
                ap.enqueue_into(src.packet(s, 0, step % 2, 1500), now, &mut out)
                    .unwrap();
            }
            let below = ap.station_backlog(s).unwrap().driver_airtime_us;
            assert_eq!(below, ap.aql_station_pending_us(s, Ac::Be));
            assert!(below <= high + one_packet(s), "{s}: {below} us");
            peak[s.index()] = peak[s.index()].max(below);
        }
        transmit(&mut ap, Ac::Be, &mut now, &mut out, |i| i % 7 == 3);
        out.clear();
    }
    let fw = ap.backlog().firmware_frames;
    assert!(
        fw < u64::from(ATH10K_MAX_PENDING_FRAMES),
        "AQL, not the firmware, limits"
    );
    assert!(
        peak.iter().all(|&p| p > 4_000),
        "the limits are reached: {peak:?}"
    );
    ap.assert_invariants(0);
}

fn ap_aql_estimate(link: &StationLink, len: u32) -> u32 {
    AqlParams::default()
        .estimator
        .estimate_us(&link.rate, len, true)
}

#[test]
fn firmware_without_aql_takes_its_full_1424_frames() {
    let config = preset("airtime").with_driver(DriverConfig::firmware_push());
    let mut ap = ap(&config, &[slow_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    for _ in 0..3000 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    let b = ap.backlog();
    assert_eq!(b.firmware_frames, u64::from(ATH10K_MAX_PENDING_FRAMES));
    assert_eq!(b.ac[Ac::Be.index()].driver_frames, 1424);
    // Over 2.6 s of airtime at 6.5 Mbit/s waiting where no AQM sees it.
    assert!(b.ac[Ac::Be.index()].driver_airtime_us > 2_600_000);
    ap.assert_invariants(0);
}

#[test]
fn three_hundred_stations_run_quickly() {
    let links: Vec<_> = (0..300)
        .map(|i| match i % 3 {
            0 => slow_link(),
            1 => ht_link(),
            _ => fast_link(),
        })
        .collect();
    for name in ["fifo", "airtime", "airtime_aql"] {
        let mut ap = ap(&preset(name), &links);
        let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
        for round in 0..20u32 {
            for s in (0..300).map(StationId) {
                ap.enqueue_into(src.packet(s, 0, round % 2, 1500), now, &mut out)
                    .unwrap();
            }
            for _ in 0..50 {
                transmit(&mut ap, Ac::Be, &mut now, &mut out, |i| i % 11 == 5);
            }
        }
        drain(&mut ap, &mut now, &mut out);
        conserved(&ap);
    }
}
