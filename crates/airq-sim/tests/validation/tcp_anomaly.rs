//! Issue 5's scenario checks: the seeds' 3-station testbed (2 x HT MCS15 + 1 x HT MCS0)
//! with a TCP download and a ping to each station, 30 s, under each AP design. The
//! orderings and ratios of "Ending the anomaly" (Figures 2-4) are asserted, not values.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::{ApConfig, DriverConfig};
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::Simulation;
use airq_sim::metrics::distribution::Distribution;
use airq_sim::metrics::{jain, Metrics};
use airq_sim::testbed::three_stations;

struct Run {
    metrics: Metrics,
    /// Median ping RTT per station, ms.
    ping_p50: Vec<f64>,
}

impl Run {
    fn goodput(&self, station: u32) -> f64 {
        self.metrics.goodput_mbps(StationId(station))
    }

    fn total(&self) -> f64 {
        (0..3).map(|s| self.goodput(s)).sum()
    }

    fn shares(&self) -> Vec<f64> {
        self.metrics.airtime_shares()
    }
}

fn run(preset: &str) -> Run {
    run_config(ApConfig::preset(preset).unwrap())
}

fn run_config(config: ApConfig) -> Run {
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink))
        .collect();
    flows.extend((0..3).map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(200))));
    let mut sim = Simulation::new(three_stations(flows), &config).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(30));
    let metrics = sim.metrics().clone();
    let ping_p50 = (3..6)
        .map(|f| {
            let rtts = metrics.flows[f].rtt.iter();
            let ms = rtts.map(|s| s.rtt.as_secs_f64() * 1e3).collect();
            Distribution::new(ms).unwrap().percentile(50.0).unwrap()
        })
        .collect();
    Run { metrics, ping_p50 }
}

#[test]
fn the_designs_order_as_in_ending_the_anomaly() {
    let [fifo, fq_codel, fq_mac, airtime] = ["fifo", "fq_codel", "fq_mac", "airtime"].map(run);
    let text = format!(
        "p50 ping fifo {:?} fq_codel {:?} fq_mac {:?} airtime {:?}; shares fifo {:?} \
         fq_codel {:?} airtime {:?}; totals {:.1} {:.1} {:.1} {:.1}",
        fifo.ping_p50,
        fq_codel.ping_p50,
        fq_mac.ping_p50,
        airtime.ping_p50,
        fifo.shares(),
        fq_codel.shares(),
        airtime.shares(),
        fifo.total(),
        fq_codel.total(),
        fq_mac.total(),
        airtime.total()
    );
    for s in 0..3 {
        // FIFO: hundreds of milliseconds under load.
        assert!(fifo.ping_p50[s] > 100.0, "{text}");
        // FQ-MAC: several times below FIFO for every station (measured: 9 to 16x).
        assert!(fq_mac.ping_p50[s] * 5.0 < fifo.ping_p50[s], "{text}");
        // Airtime fairness keeps FQ-MAC's latency.
        assert!(airtime.ping_p50[s] < 2.0 * fq_mac.ping_p50[s], "{text}");
    }
    // FIFO and FQ-CoDel: the slow station takes the most airtime (measured: 46% and
    // 55%), more than either fast station.
    for r in [&fifo, &fq_codel] {
        let shares = r.shares();
        assert!(shares[2] > 0.4, "{text}");
        assert!(shares[2] > shares[0] && shares[2] > shares[1], "{text}");
    }
    // FQ-CoDel: the fast stations' latency falls, the slow one's stays high.
    for s in 0..2 {
        assert!(fq_codel.ping_p50[s] * 5.0 < fifo.ping_p50[s], "{text}");
    }
    assert!(fq_codel.ping_p50[2] > 100.0, "{text}");
    // Airtime: equal shares, more total goodput than FIFO and FQ-MAC, the fast
    // stations gaining and the slow one losing against FQ-MAC.
    assert!(jain(&airtime.shares()) >= 0.95, "{text}");
    assert!(airtime.total() > fifo.total(), "{text}");
    assert!(airtime.total() > fq_mac.total(), "{text}");
    assert!(airtime.goodput(0) > fq_mac.goodput(0), "{text}");
    assert!(airtime.goodput(1) > fq_mac.goodput(1), "{text}");
    assert!(airtime.goodput(2) < fq_mac.goodput(2), "{text}");
}

/// The last step of the ladder, AQL, on each driver. On the softmac driver (ath9k keeps
/// two aggregates in hardware) it keeps what `airtime` gives. On the push-mode firmware
/// driver, whose queue holds up to 1424 frames, AQL is what brings the latency down (Kan
/// Yan's ath10k case: over 1000 frames in firmware without it). On the pull-mode
/// firmware, which fetches about one aggregate per TXQ, airtime fairness holds.
#[test]
fn aql_keeps_the_softmac_orderings_and_cuts_firmware_latency() {
    let [fq_mac, airtime_aql] = ["fq_mac", "airtime_aql"].map(run);
    let on = |name: &str, driver: DriverConfig| {
        run_config(ApConfig::preset(name).unwrap().with_driver(driver))
    };
    let push = on("airtime", DriverConfig::firmware_push());
    let push_aql = on("airtime_aql", DriverConfig::firmware_push());
    let pull_aql = on("airtime_aql", DriverConfig::firmware());
    let text = format!(
        "p50 ping airtime_aql {:?} push airtime {:?} push airtime_aql {:?} pull airtime_aql \
         {:?}; shares airtime_aql {:?} pull airtime_aql {:?}; totals {:.1} {:.1} {:.1} {:.1}",
        airtime_aql.ping_p50,
        push.ping_p50,
        push_aql.ping_p50,
        pull_aql.ping_p50,
        airtime_aql.shares(),
        pull_aql.shares(),
        airtime_aql.total(),
        push.total(),
        push_aql.total(),
        pull_aql.total()
    );
    assert!(jain(&airtime_aql.shares()) >= 0.95, "{text}");
    assert!(jain(&pull_aql.shares()) >= 0.95, "{text}");
    assert!(airtime_aql.total() > fq_mac.total(), "{text}");
    for s in 0..3 {
        assert!(airtime_aql.ping_p50[s] < 2.0 * fq_mac.ping_p50[s], "{text}");
        assert!(pull_aql.ping_p50[s] < 2.0 * fq_mac.ping_p50[s], "{text}");
        assert!(push_aql.ping_p50[s] < push.ping_p50[s], "{text}");
    }
    // AQL on the push firmware: several times lower latency than without, for the slow
    // station and for the fast ones together. (A fast station's median without AQL
    // varies several-fold between seeds with how the firmware queue's 1424 frames are
    // shared: 76.6 ± 71.5 ms over seeds 1-5 for the second, `airq compare
    // scenarios/ending-the-anomaly.toml --configs airtime,airtime_aql --driver
    // firmware_push --duration 30 --omit 5 --seeds 5`, so one seed's ratio for one fast
    // station is no test of AQL.)
    assert!(push_aql.ping_p50[2] * 2.0 < push.ping_p50[2], "{text}");
    let fast = |r: &Run| r.ping_p50[0] + r.ping_p50[1];
    assert!(fast(&push_aql) * 2.0 < fast(&push), "{text}");
}
