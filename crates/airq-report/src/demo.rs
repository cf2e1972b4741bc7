//! Deterministic synthetic results in the shape of the seeds' three-station testbed (two
//! fast stations and one slow one, a TCP download to each) under the five AP designs, for
//! examples, tests and a `--demo` report. The numbers are made up to resemble the trends
//! of "Ending the Anomaly" (Høiland-Jørgensen et al., USENIX ATC 2017, Figures 2–4) and the
//! AQL paper's queue-depth histograms; they are not simulation results.

use crate::model::{Comparison, FlowKind, FlowView, QueueSamples, RunView, StationView};

/// Per-design shape of the synthetic run: (config, goodput of fast/slow stations in Mbit/s,
/// airtime shares fast/slow, median ping RTT in ms, driver queue frames and airtime µs).
struct DesignShape {
    config: &'static str,
    goodput_fast_mbps: f64,
    goodput_slow_mbps: f64,
    share_slow: f64,
    rtt_median_ms: f64,
    queue_frames: f64,
    queue_airtime_us: f64,
}

const SHAPES: [DesignShape; 5] = [
    DesignShape {
        config: "fifo",
        goodput_fast_mbps: 9.0,
        goodput_slow_mbps: 3.5,
        share_slow: 0.72,
        rtt_median_ms: 420.0,
        queue_frames: 480.0,
        queue_airtime_us: 38_000.0,
    },
    DesignShape {
        config: "fq_codel",
        goodput_fast_mbps: 10.0,
        goodput_slow_mbps: 3.6,
        share_slow: 0.70,
        rtt_median_ms: 95.0,
        queue_frames: 420.0,
        queue_airtime_us: 34_000.0,
    },
    DesignShape {
        config: "fq_mac",
        goodput_fast_mbps: 11.0,
        goodput_slow_mbps: 3.8,
        share_slow: 0.68,
        rtt_median_ms: 28.0,
        queue_frames: 300.0,
        queue_airtime_us: 22_000.0,
    },
    DesignShape {
        config: "airtime",
        goodput_fast_mbps: 38.0,
        goodput_slow_mbps: 2.4,
        share_slow: 0.34,
        rtt_median_ms: 19.0,
        queue_frames: 260.0,
        queue_airtime_us: 18_000.0,
    },
    DesignShape {
        config: "airtime_aql",
        goodput_fast_mbps: 37.0,
        goodput_slow_mbps: 2.4,
        share_slow: 0.34,
        rtt_median_ms: 8.0,
        queue_frames: 45.0,
        queue_airtime_us: 5_500.0,
    },
];

/// Station names and MACs of the synthetic testbed.
const STATIONS: [(&str, &str, bool); 3] = [
    ("fast1", "02:00:00:00:00:01", false),
    ("fast2", "02:00:00:00:00:02", false),
    ("slow", "02:00:00:00:00:03", true),
];

/// Run length and sampling step of the synthetic runs, seconds.
const DURATION_S: f64 = 30.0;
const STEP_S: f64 = 0.2;
/// 2026-01-01T00:00:00Z, the synthetic runs' wall-clock start.
const START_TIME_UNIX_S: f64 = 1_767_225_600.0;

/// One synthetic station: its name, MAC, whether it is slow, and a factor on its share
/// of its class's goodput.
struct DemoStation {
    name: String,
    mac: String,
    slow: bool,
    scale: f64,
}

/// A synthetic comparison of the five designs over 30 s sampled every 0.2 s. The same
/// `seed` always gives the same data.
pub fn demo_comparison(seed: u64) -> Comparison {
    let mut rng = SplitMix64(seed);
    let stations: Vec<DemoStation> = STATIONS
        .iter()
        .map(|&(name, mac, slow)| DemoStation {
            name: name.to_string(),
            mac: mac.to_string(),
            slow,
            scale: 1.0,
        })
        .collect();
    Comparison {
        scenario: "demo: 2 fast + 1 slow station".to_string(),
        caption: format!("synthetic demo data, seed {seed} · {DURATION_S:.1} s"),
        runs: SHAPES
            .iter()
            .map(|shape| demo_run(shape, &stations, DURATION_S, STEP_S, &mut rng))
            .collect(),
    }
}

/// A synthetic crowd of `stations` stations (every tenth slow, at least one) under FIFO,
/// airtime fairness and AQL, `duration_s` long sampled every `step_s`, with a ping per
/// step: the demo testbed's trends spread over many stations whose goodput varies by about
/// 30%, for drawing crowded and long figures. The same arguments give the same data.
pub fn crowd_comparison(stations: usize, duration_s: f64, step_s: f64, seed: u64) -> Comparison {
    let mut rng = SplitMix64(seed);
    let slow_every = 10.min(stations.max(1));
    let crowd: Vec<DemoStation> = (0..stations)
        .map(|i| {
            let slow = (i + 1) % slow_every == 0;
            let class = if slow { "slow" } else { "fast" };
            DemoStation {
                name: format!("{class}{}", i + 1),
                mac: format!("02:00:00:00:{:02x}:{:02x}", (i + 1) >> 8, (i + 1) & 0xff),
                slow,
                scale: (1.0 + 0.3 * rng.gauss()).clamp(0.2, 2.0),
            }
        })
        .collect();
    let designs = [&SHAPES[0], &SHAPES[3], &SHAPES[4]];
    Comparison {
        scenario: format!("crowd: {stations} stations"),
        caption: format!("synthetic crowd data, seed {seed} · {duration_s:.1} s"),
        runs: designs
            .iter()
            .map(|shape| demo_run(shape, &crowd, duration_s, step_s, &mut rng))
            .collect(),
    }
}

fn demo_run(
    shape: &DesignShape,
    demo_stations: &[DemoStation],
    duration_s: f64,
    step_s: f64,
    rng: &mut SplitMix64,
) -> RunView {
    let steps = (duration_s / step_s).round() as usize;
    let busy_us = step_s * 1e6 * 0.97;
    let slow_count = demo_stations.iter().filter(|s| s.slow).count().max(1) as f64;
    let fast_count = demo_stations.iter().filter(|s| !s.slow).count().max(1) as f64;
    let stations: Vec<StationView> = demo_stations
        .iter()
        .map(|sta| {
            let slow = sta.slow;
            // The demo's shapes are for two fast stations and one slow one.
            let (mean_mbps, share) = if slow {
                (
                    shape.goodput_slow_mbps / slow_count * sta.scale,
                    shape.share_slow / slow_count,
                )
            } else {
                (
                    shape.goodput_fast_mbps * 2.0 / fast_count * sta.scale,
                    (1.0 - shape.share_slow) / fast_count,
                )
            };
            // TCP ramps up over the first second, then varies by ~10% around its mean.
            let download_mbps: Vec<f64> = (0..steps)
                .map(|i| {
                    let ramp = ((i + 1) as f64 * step_s).min(1.0);
                    (mean_mbps * ramp * (1.0 + 0.1 * rng.gauss())).max(0.0)
                })
                .collect();
            let airtime_tx_us: Vec<f64> = (0..steps)
                .map(|_| (busy_us * share * (1.0 + 0.05 * rng.gauss())).max(0.0))
                .collect();
            // TCP ACKs from the station: a few percent of the download's airtime.
            let airtime_rx_us = airtime_tx_us.iter().map(|tx| tx * 0.03).collect();
            let rtt_scale = if slow { 1.3 } else { 1.0 };
            let ping_rtt_ms = (0..steps)
                .map(|i| {
                    let t = (i as f64 + 0.5) * step_s;
                    let rtt = shape.rtt_median_ms * rtt_scale * (0.35 * rng.gauss()).exp();
                    (t, rtt.max(0.3))
                })
                .collect();
            let goodput_mbps = download_mbps.iter().sum::<f64>() / steps as f64;
            StationView {
                name: sta.name.clone(),
                mac: sta.mac.clone(),
                goodput_mbps,
                airtime_share: share,
                download_mbps,
                upload_mbps: Vec::new(),
                airtime_tx_us,
                airtime_rx_us,
                avg_aggr_size: if slow { 3.0 } else { 18.0 + 2.0 * rng.gauss() },
                ping_rtt_ms,
                pings_sent: None,
            }
        })
        .collect();
    let samples = 2000;
    let mut frames = Vec::with_capacity(samples);
    let mut airtime_us = Vec::with_capacity(samples);
    for _ in 0..samples {
        let load = (0.25 * rng.gauss()).exp();
        frames.push((shape.queue_frames * load).round());
        airtime_us.push(shape.queue_airtime_us * load * (1.0 + 0.1 * rng.gauss()).max(0.1));
    }
    // The flent testbed's traffic: a TCP download and a ping to each station.
    let flows = stations
        .iter()
        .flat_map(|s| {
            let flow = |test: &str, kind| FlowView {
                station: s.name.clone(),
                test: test.to_string(),
                kind,
                ..FlowView::default()
            };
            [
                FlowView {
                    goodput_mbps: s.download_mbps.clone(),
                    ..flow("tcp_download", FlowKind::Tcp)
                },
                FlowView {
                    rtt_ms: s.ping_rtt_ms.clone(),
                    ..flow("ping", FlowKind::Ping)
                },
            ]
        })
        .collect();
    RunView {
        config: shape.config.to_string(),
        duration_s,
        step_s,
        start_time_unix_s: START_TIME_UNIX_S,
        stations,
        driver_queue: Some(QueueSamples { frames, airtime_us }),
        flows,
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, enough for demo noise.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal by the Box–Muller transform.
    fn gauss(&mut self) -> f64 {
        let (u1, u2) = (self.uniform(), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_data_other_seed_other_data() {
        assert_eq!(demo_comparison(7), demo_comparison(7));
        assert_ne!(demo_comparison(7), demo_comparison(8));
    }

    #[test]
    fn shape_follows_the_designs() {
        let c = demo_comparison(3);
        assert_eq!(c.runs.len(), 5);
        let median_rtt = |r: &RunView| {
            let mut v: Vec<f64> = r.stations[0].ping_rtt_ms.iter().map(|p| p.1).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        // FIFO's latency is the worst, AQL's the best; airtime fairness lifts the fast
        // stations' goodput.
        assert!(median_rtt(&c.runs[0]) > 10.0 * median_rtt(&c.runs[4]));
        assert!(c.runs[3].stations[0].goodput_mbps > 3.0 * c.runs[0].stations[0].goodput_mbps);
        for run in &c.runs {
            let shares: f64 = run.stations.iter().map(|s| s.airtime_share).sum();
            assert!((shares - 1.0).abs() < 1e-9);
            assert_eq!(run.steps(), 150);
            assert_eq!(run.stations[2].download_mbps.len(), 150);
        }
    }

    #[test]
    fn crowds_are_valid_and_shaped_like_the_demo() {
        let c = crowd_comparison(30, 12.0, 0.5, 4);
        c.validate().unwrap();
        assert_eq!(c, crowd_comparison(30, 12.0, 0.5, 4));
        for run in &c.runs {
            assert_eq!((run.stations.len(), run.steps()), (30, 24));
            let shares: f64 = run.stations.iter().map(|s| s.airtime_share).sum();
            assert!((shares - 1.0).abs() < 1e-9);
        }
        let slow = c.runs[0]
            .stations
            .iter()
            .filter(|s| s.name.starts_with("slow"));
        assert_eq!(slow.count(), 3);
        crowd_comparison(1, 1.0, 0.2, 1).validate().unwrap();
    }

    #[test]
    fn gauss_has_unit_variance() {
        let mut rng = SplitMix64(42);
        let n = 20_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.gauss()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "variance {var}");
    }
}
