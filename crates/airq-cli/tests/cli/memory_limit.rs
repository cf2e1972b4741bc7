//! The FQ-MAC memory limit as mac80211 applies it: packets counted by truesize (a 2 KiB
//! receive buffer with its sk_buff, 2304 bytes), against 4 MiB on an AP without VHT.

use super::{run_results, udp_scenario};

/// The most packets the AP queued at any 10 ms step of a 3 s `udp-flood-anomaly` run
/// under `fq_mac` with `args`, and the memory limit the results record.
fn peak_queue(args: &[&str]) -> (u64, u64) {
    let scenario = udp_scenario();
    let mut all = vec![scenario.to_str().unwrap()];
    all.extend(["--config", "fq_mac", "--duration", "3", "--omit", "0"]);
    all.extend(args);
    let r = run_results(&all);
    let peak = r["ap_queue"]["queued_packets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_u64().unwrap())
        .max()
        .unwrap();
    let limit = r["metadata"]["ap_config"]["fq_mac"]["memory_limit_bytes"]
        .as_u64()
        .unwrap();
    (peak, limit)
}

#[test]
fn an_ht_aps_fq_mac_holds_what_4_mib_of_truesize_holds() {
    // Three saturated floods keep 2048 packets each queued when nothing stops them.
    let (peak, limit) = peak_queue(&[]);
    assert_eq!(limit, 4 << 20, "HT stations only: an AP without VHT");
    let most = (4 << 20) / 2304;
    assert!(peak <= most && peak > most - 100, "{peak} packets queued");
    let (peak, limit) = peak_queue(&["--set", "ap.fq_mac.memory_limit_bytes=16777216"]);
    assert_eq!(limit, 16 << 20);
    assert!(peak > 6000, "16 MiB holds the floods' 3 x 2048: {peak}");
}
