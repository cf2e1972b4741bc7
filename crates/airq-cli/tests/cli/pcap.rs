//! `airq run --pcap`: the simulator's air as pcapng with radiotap and 802.11 headers,
//! read back with tshark and held to the results file.

use super::{airq, has_tool, scenarios_dir, tshark_fields, write, PING};
use airq_cli::results;
use predicates::str::contains;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `airq run scenario -o out --pcap pcap`, which says where the air went; the run's
/// results.
fn run_with_pcap(scenario: &Path, out: &Path, pcap: &Path) -> results::ResultsFile {
    airq()
        .arg("run")
        .arg(scenario)
        .arg("-o")
        .arg(out)
        .arg("--pcap")
        .arg(pcap)
        .assert()
        .success()
        .stdout(contains("air: "));
    let file = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_str().unwrap().contains(".json"))
        .unwrap();
    results::load(&file).unwrap()
}

/// Two HT stations (MCS 7 and 0) with UDP floods and pings, 2 s, no warm-up: per
/// station and direction, as many frames on the capture within the run as the results
/// count packets received; each at its station's MCS with TID 0; each A-MPDU reference
/// one exchange; frames per A-MPDU within the results' MPDUs per A-MPDU (which also
/// count the MPDUs that failed).
#[test]
fn the_simulators_air_is_the_results_frames() {
    if !has_tool("the_simulators_air_is_the_results_frames", "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "ping.toml", PING);
    let pcap = dir.path().join("air.pcapng");
    let r = run_with_pcap(&scenario, dir.path(), &pcap);
    let text = tshark_fields(
        &pcap,
        &[
            "frame.time_epoch",
            "radiotap.mcs.index",
            "wlan.qos.tid",
            "radiotap.ampdu.reference",
            "wlan.fc.ds",
            "wlan.ra",
            "wlan.ta",
            "ip.len",
            "frame.len",
        ],
    );
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert!(!rows.is_empty());
    for (s, station) in r.stations.iter().enumerate() {
        let mac = format!("02:00:0a:00:01:{:02x}", s + 1);
        let mcs = if s == 0 { "7" } else { "0" };
        let of = |ds: &str, addr: usize| -> Vec<&Vec<&str>> {
            rows.iter()
                .filter(|f| f[4] == ds && f[addr] == mac)
                .filter(|f| f[0].parse::<f64>().unwrap() <= 2.0)
                .collect()
        };
        let (down, up) = (of("0x02", 5), of("0x01", 6));
        for f in down.iter().chain(&up) {
            assert_eq!((f[1], f[2]), (mcs, "0"), "{f:?}");
        }
        eprintln!(
            "{}: down {} frames, {} received; up {} frames, {} received",
            station.name,
            down.len(),
            station.rx_packets_down,
            up.len(),
            station.rx_packets_up
        );
        let near = |a: u64, b: u64| a.abs_diff(b) <= b / 100 + 2;
        assert!(near(down.len() as u64, station.rx_packets_down));
        assert!(near(up.len() as u64, station.rx_packets_up));
        let refs = down.iter().map(|f| f[3]).collect::<BTreeSet<_>>().len();
        let per_ampdu = down.len() as f64 / refs as f64;
        eprintln!(
            "{}: {per_ampdu:.2} frames per A-MPDU down, results {:.2} MPDUs",
            station.name, station.mpdus_per_ampdu_down
        );
        assert!(per_ampdu <= station.mpdus_per_ampdu_down * 1.01 + 0.05);
        assert!(per_ampdu >= station.mpdus_per_ampdu_down * 0.9);
    }
    let mut ampdus: BTreeMap<&str, Vec<&Vec<&str>>> = BTreeMap::new();
    for f in &rows {
        ampdus.entry(f[3]).or_default().push(f);
        // The original length is the IP packet's with the headers in front.
        let ip_len: usize = f[7].parse().unwrap();
        assert!(f[8].parse::<usize>().unwrap() > ip_len);
    }
    for group in ampdus.values() {
        let first = group[0];
        assert!(
            group
                .iter()
                .all(|f| (f[0], f[4], f[5]) == (first[0], first[4], first[5])),
            "{group:?}"
        );
    }
}

/// The radiotap Channel field: the band's default channel (36, 5180 MHz) with
/// mac80211's OFDM + 5 GHz flags, and `[bss] frequency_mhz` (2462 MHz in 2.4 GHz) with
/// 2 GHz + dynamic CCK-OFDM for HT frames, on every frame.
#[test]
fn the_capture_carries_the_bss_channel() {
    if !has_tool("the_capture_carries_the_bss_channel", "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let channel_24 = PING.replace(
        "seed = 3\n",
        "seed = 3\n[bss]\nband = \"2.4GHz\"\nfrequency_mhz = 2462\n",
    );
    for (name, text, expected) in [
        ("default.toml", PING.to_string(), "5180\t0x0140"),
        ("ch11.toml", channel_24, "2462\t0x0480"),
    ] {
        let scenario = write(dir.path(), name, &text);
        let pcap = dir.path().join(format!("{name}.pcapng"));
        let out = dir.path().join(name.replace(".toml", ""));
        run_with_pcap(&scenario, &out, &pcap);
        let text = tshark_fields(&pcap, &["radiotap.channel.freq", "radiotap.channel.flags"]);
        let values: BTreeSet<&str> = text.lines().collect();
        assert!(text.lines().count() > 100, "{name}");
        assert_eq!(values, BTreeSet::from([expected]), "{name}");
    }
}

/// A simulated TCP download's segments carry the model's sequence and acknowledgment
/// numbers, so tshark's TCP analysis follows the flow: it opens with a SYN at relative
/// sequence 0; along the data, the sequence numbers increase except where tshark itself
/// flags a retransmission or an out-of-order segment (an MPDU the MAC sent again after
/// later ones); the highest one is the bytes the results count delivered; the ACK
/// numbers never decrease and tshark measures the ACKs' RTTs.
#[test]
fn simulated_tcp_segments_have_sequence_numbers_tshark_follows() {
    let test = "simulated_tcp_segments_have_sequence_numbers_tshark_follows";
    if !has_tool(test, "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"tcp-small\"\nduration = 2.0\nseed = 3\n[[station]]\nname = \"a\"\n\
                standard = \"ht\"\nmcs = 7\n[[station]]\nname = \"b\"\nstandard = \"ht\"\n\
                mcs = 0\n[[traffic]]\ntest = \"tcp_download\"\n";
    let scenario = write(dir.path(), "tcp.toml", text);
    let pcap = dir.path().join("air.pcapng");
    let r = run_with_pcap(&scenario, dir.path(), &pcap);
    let fields = [
        "tcp.stream",
        "tcp.srcport",
        "tcp.seq",
        "tcp.len",
        "tcp.ack",
        "tcp.flags.syn",
        "tcp.analysis.retransmission",
        "tcp.analysis.out_of_order",
        "tcp.analysis.ack_rtt",
        "ip.dst",
    ];
    let text = tshark_fields(&pcap, &fields);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    // Station a's download (10.0.1.1): its data from port 5001 and its ACKs.
    let stream = rows.iter().find(|f| f[9] == "10.0.1.1").unwrap()[0];
    let flow: Vec<&Vec<&str>> = rows.iter().filter(|f| f[0] == stream).collect();
    assert_eq!(
        (flow[0][2], flow[0][5]),
        ("0", "1"),
        "a SYN first: {:?}",
        flow[0]
    );
    let number = |s: &str| s.parse::<u64>().unwrap();
    let data: Vec<_> = flow
        .iter()
        .filter(|f| f[1] == "5001" && number(f[3]) > 0)
        .collect();
    let (mut highest, mut back) = (0, 0);
    for f in &data {
        let seq = number(f[2]);
        if seq < highest {
            back += 1;
            assert!(!f[6].is_empty() || !f[7].is_empty(), "unflagged: {f:?}");
        }
        highest = highest.max(seq + number(f[3]));
    }
    let delivered = r.flows[0].goodput_mbps * 1e6 / 8.0 * 2.0;
    eprintln!(
        "{} data segments, {back} behind the highest, highest {highest}, delivered {delivered:.0}",
        data.len()
    );
    assert!(back * 20 < data.len(), "{back} of {}", data.len());
    assert!((highest as f64 - 1.0 - delivered).abs() < 0.02 * delivered);
    let acks: Vec<_> = flow.iter().filter(|f| f[1] != "5001").collect();
    let acked: Vec<u64> = acks.iter().map(|f| number(f[4])).collect();
    assert!(
        acked.windows(2).all(|w| w[0] <= w[1]),
        "ACK numbers go back"
    );
    let timed = acks.iter().filter(|f| !f[8].is_empty()).count();
    assert!(
        timed * 2 > acks.len(),
        "{timed} of {} ACKs timed",
        acks.len()
    );
}

/// One capture is one run: several seeds are refused before anything runs.
#[test]
fn pcap_with_several_seeds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "ping.toml", PING);
    let pcap = dir.path().join("air.pcapng");
    airq()
        .arg("run")
        .arg(&scenario)
        .args(["--seeds", "2", "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .failure()
        .stderr(contains("--pcap: one run only, and this is 2"));
    assert!(!pcap.exists());
}

/// Web page loads without keep-alive close every connection when the page is in: each
/// client's FIN follows the ACK it already owed for the page's last bytes, so no
/// segment after a FIN carries the FIN's own sequence number (tshark would call it a
/// keep-alive: the last connection's ACK used to go out after its FIN).
#[test]
fn a_closing_web_client_acks_before_its_fin() {
    if !has_tool("a_closing_web_client_acks_before_its_fin", "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pcap = dir.path().join("web.pcapng");
    airq()
        .arg("run")
        .arg(scenarios_dir().join("web-page-load.toml"))
        .args(["--seeds", "1", "--duration", "3", "--omit", "0", "-q", "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .success();
    let fins = tshark_fields(&pcap, &["tcp.flags.fin"]);
    assert!(fins.lines().filter(|l| *l == "1" || *l == "True").count() > 10);
    let keep_alives = tshark_fields(&pcap, &["tcp.analysis.keep_alive"]);
    assert_eq!(keep_alives.lines().filter(|l| !l.is_empty()).count(), 0);
}
