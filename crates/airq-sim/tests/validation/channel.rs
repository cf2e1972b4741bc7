//! The channel model in the loop: one HT MCS 7 (20 MHz) station with a saturating UDP
//! download behind a growing attenuation. Each MPDU fails with the probability the SNR
//! model gives for its length (crates/airq-sim/src/phy), so the measured MPDU failure
//! ratio is the model's PER and goodput falls as (1 − PER) from full to nothing; an
//! attenuation schedule changes the rate mid-run.

use airq::phy::Band;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::BssConfig;
use airq_sim::metrics::Metrics;
use airq_sim::phy::attenuation::{Attenuation, AttenuationChange};
use airq_sim::phy::channel::{RadioParams, StationChannel};
use airq_sim::testbed::ht20;

/// A 1472-byte UDP payload: a 1500-byte IP packet in a 1538-byte MPDU.
const MPDU_BYTES: u32 = 1538;

fn run(channel: Option<StationChannel>, secs: u64) -> Metrics {
    let mut link = ht20(7);
    link.channel = channel;
    let flows = vec![FlowSpec::saturated(StationId(0), Direction::Downlink)];
    let mut scenario = BssScenario::new(BssConfig::ofdm(Band::Ghz5), vec![link], flows);
    scenario.seed = 3;
    let mut sim = Simulation::new(scenario, &ApConfig::preset("airtime").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(secs));
    sim.metrics().clone()
}

/// The model's error probability of a downlink MPDU behind `loss_db`.
fn model_per(loss_db: f64) -> f64 {
    let rate = ht20(7).rate;
    StationChannel::attenuated(loss_db)
        .chunk_errors(
            &RadioParams::default(),
            Band::Ghz5,
            &rate,
            false,
            Instant::ZERO,
        )
        .mpdu_error(MPDU_BYTES)
}

/// The loss at which the model's PER is `per`, by bisection (PER rises with loss).
fn loss_for_per(per: f64) -> f64 {
    let (mut lo, mut hi) = (60.0, 120.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if model_per(mid) < per {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn failure_ratio(m: &Metrics) -> f64 {
    let s = &m.stations[0];
    let sent: u64 = s
        .ampdu_mpdus_down
        .iter()
        .enumerate()
        .map(|(n, &ppdus)| n as u64 * ppdus)
        .sum();
    s.mpdu_failures_down as f64 / sent as f64
}

#[test]
fn goodput_follows_one_minus_the_models_per() {
    let clean = run(None, 5);
    let full = clean.goodput_mbps(StationId(0));
    let near = run(Some(StationChannel::attenuated(60.0)), 5);
    let mut table = format!(
        "no channel: {full:.2} Mbit/s\n60 dB: {:.2} Mbit/s, PER {:.2e}\n",
        near.goodput_mbps(StationId(0)),
        model_per(60.0)
    );
    // Close in, the channel changes nothing: the SNR is 54 dB.
    assert_eq!(near.stations[0].mpdu_failures_down, 0, "{table}");
    assert!(
        (near.goodput_mbps(StationId(0)) - full).abs() < 1e-9,
        "{table}"
    );
    for per in [0.1, 0.3, 0.6] {
        let loss = loss_for_per(per);
        let m = run(Some(StationChannel::attenuated(loss)), 10);
        let goodput = m.goodput_mbps(StationId(0));
        let measured = failure_ratio(&m);
        table += &format!(
            "{loss:.2} dB: model PER {per:.2}, measured {measured:.3}, goodput {goodput:.2} \
             Mbit/s = {:.3} of full\n",
            goodput / full
        );
        assert!((measured - per).abs() < 0.01, "{table}");
        assert!(
            (goodput / full - (1.0 - per)).abs() < 0.03,
            "goodput is not (1 - PER) of full:\n{table}"
        );
    }
    // 3 dB further than PER 0.6, nothing gets through.
    let far = run(Some(StationChannel::attenuated(loss_for_per(0.6) + 3.0)), 5);
    table += &format!("far: {:.3} Mbit/s\n", far.goodput_mbps(StationId(0)));
    println!("{table}");
    assert!(far.goodput_mbps(StationId(0)) < 0.01 * full, "{table}");
}

#[test]
fn an_attenuation_step_cuts_goodput_when_it_comes() {
    // 60 dB for 3 s, then 10 dB beyond PER 0.99 for 3 s.
    let dead = loss_for_per(0.99) + 10.0;
    let attenuation = Attenuation::schedule(
        vec![(Instant::ZERO, 60.0), (Instant::from_secs(3), dead)],
        AttenuationChange::Step,
    )
    .unwrap();
    let channel = StationChannel {
        attenuation,
        ..StationChannel::attenuated(0.0)
    };
    let stepped = run(Some(channel), 6);
    let clean = run(None, 3);
    let (a, b) = (
        stepped.goodput_mbps(StationId(0)),
        clean.goodput_mbps(StationId(0)),
    );
    // Everything the stepped run delivered, it delivered in its first 3 s: half the
    // clean 3 s run's rate over 6 s.
    println!("stepped {a:.2} Mbit/s over 6 s, clean {b:.2} over 3 s");
    assert!((a - b / 2.0).abs() < 0.02 * b, "stepped {a}, clean {b}");
}
