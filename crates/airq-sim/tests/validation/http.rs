//! Web page loads over TCP: on an idle channel a page loads in a few round trips; behind
//! a FIFO filled by a download to the same station it takes far longer than with FQ-MAC,
//! where the page's new connections get their own queues.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, WebPage};
use airq_sim::bss::Simulation;
use airq_sim::metrics::Metrics;
use airq_sim::testbed::three_stations;
use airq_sim::transport::tcp::TcpConfig;

fn run(preset: &str, loaded: bool, keep_alive: bool) -> Metrics {
    let page = WebPage {
        keep_alive,
        ..WebPage::default()
    };
    let web = App::Http {
        config: TcpConfig::default(),
        page,
    };
    let mut flows = vec![FlowSpec::new(StationId(0), Direction::Downlink, web)];
    if loaded {
        flows.extend((0..3).map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink)));
    }
    let mut sim =
        Simulation::new(three_stations(flows), &ApConfig::preset(preset).unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(20));
    sim.metrics().clone()
}

fn median_ms(m: &Metrics) -> f64 {
    let mut t: Vec<f64> = m.flows[0]
        .page_loads
        .iter()
        .map(|d| d.as_secs_f64() * 1e3)
        .collect();
    assert!(!t.is_empty(), "no page loaded");
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

#[test]
fn idle_pages_load_in_a_few_round_trips() {
    let m = run("fq_mac", false, false);
    let pages = m.flows[0].page_loads.len();
    // Load, then 1 s of thought: about one page a second.
    assert!((15..=20).contains(&pages), "{pages} pages");
    // Handshake and document (~2 RTTs of ~2.5 ms), then 12 objects over 6 connections
    // (another handshake and two rounds of 4-48 kB at 130 Mbit/s).
    let median = median_ms(&m);
    assert!((8.0..100.0).contains(&median), "median load {median} ms");
    let tcp = m.flows[0].tcp.unwrap();
    println!("{pages} pages, median {median} ms, {tcp:?}");
    assert!(tcp.connections as usize >= 6 * pages, "{tcp:?}");
    // Nothing is lost on an idle channel: no timeouts, and every retransmission is a
    // tail loss probe. A few probes fire, spuriously, as they would from Linux: the
    // probe timeout of a flight of several segments is 2·SRTT + 2 ms, and when six
    // responses share the AP's queue and their ACKs contend for the air, some flights
    // take longer than that. None waits on a delayed ACK: with one segment out the probe
    // timeout covers it (RFC 8985 §7.2; `tcp::tests::loss`).
    assert_eq!(tcp.rto_timeouts, 0, "{tcp:?}");
    assert!(tcp.retransmits <= tcp.tlp_probes, "{tcp:?}");
    assert!(tcp.retransmits < pages as u64, "{tcp:?}");
    // Kept-alive connections skip the handshakes after the first page.
    let kept = run("fq_mac", false, true);
    let kept_tcp = kept.flows[0].tcp.unwrap();
    println!("kept alive: {kept_tcp:?}");
    assert_eq!(kept_tcp.rto_timeouts, 0, "{kept_tcp:?}");
    assert!(kept_tcp.retransmits <= kept_tcp.tlp_probes, "{kept_tcp:?}");
    assert!(kept_tcp.connections <= 6);
    assert!(
        median_ms(&kept) < median,
        "{} vs {median}",
        median_ms(&kept)
    );
}

#[test]
fn a_full_fifo_slows_page_loads_more_than_fq_mac() {
    let fifo = median_ms(&run("fifo", true, false));
    let fq_mac = median_ms(&run("fq_mac", true, false));
    assert!(
        fq_mac * 3.0 < fifo,
        "page load median: fq_mac {fq_mac} ms, fifo {fifo} ms"
    );
}
