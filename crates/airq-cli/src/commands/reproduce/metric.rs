//! Our figures as the experiment files name them: `VARIANT.STATION.METRIC` (or
//! `PART:VARIANT.STATION.METRIC` in an experiment of several parts), the variant by the
//! name it runs under, the station by its name (or `total`), and one of [`METRICS`]. Each is the mean over the experiment's seeds with its 95% confidence
//! interval; a ping percentile that falls among lost pings counts as infinite (flent's
//! convention), and the figure says in how many seeds that happened.

use crate::error::CliError;
use crate::repeat::MeanCi;
use crate::results::ResultsFile;
use airq_sim::metrics::distribution::LossyPercentile;

/// The metrics a path may end in, with what they mean.
pub const METRICS: [(&str, &str); 20] = [
    ("goodput_mbps", "goodput, Mbit/s (of a station, or `total`)"),
    (
        "goodput_down_mbps",
        "application goodput of the station's downlink flows, Mbit/s",
    ),
    (
        "goodput_up_mbps",
        "application goodput of the station's uplink flows, Mbit/s",
    ),
    ("airtime_percent", "share of the stations' airtime, %"),
    (
        "airtime_wall_percent",
        "airtime used with the station, % of the measured time (both directions)",
    ),
    (
        "airtime_jain",
        "Jain's index of the airtime shares (`total` only)",
    ),
    (
        "mpdus_per_ampdu_down",
        "mean MPDUs per PPDU sent to the station (aggregation)",
    ),
    ("ping_p50_ms", "ping RTT median, ms"),
    ("ping_p90_ms", "ping RTT 90th percentile, ms"),
    ("ping_p99_ms", "ping RTT 99th percentile, ms"),
    ("ping_loss_percent", "pings lost, %"),
    (
        "tcp_srtt_mean_ms",
        "smoothed RTT of the station's TCP senders, ms, mean of the samples after the warm-up",
    ),
    (
        "tcp_cwnd_mean_segments",
        "congestion window of the station's TCP senders, segments, mean of the samples after \
         the warm-up",
    ),
    (
        "voip_mos_down",
        "MOS of the station's downlink VoIP leg (the call's packets through the AP)",
    ),
    (
        "voip_delay_down_ms",
        "mean one-way delay of the station's downlink VoIP leg, ms",
    ),
    ("voip_mos", "mean MOS of the station's VoIP legs (G.107)"),
    (
        "voip_delay_ms",
        "mean one-way delay of the station's VoIP legs, ms",
    ),
    ("page_load_p50_s", "median web page load time, s"),
    (
        "driver_frames_mean",
        "frames in the driver/firmware, mean of the 10 ms samples after the warm-up (`total` only)",
    ),
    (
        "driver_airtime_mean_ms",
        "their expected airtime, ms, mean of the samples after the warm-up (`total` only)",
    ),
];

/// The metrics only `total` has.
const TOTAL_ONLY: [&str; 3] = [
    "airtime_jain",
    "driver_frames_mean",
    "driver_airtime_mean_ms",
];

/// A parsed metric path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    /// The part's name; empty when the path names none.
    pub part: String,
    /// The variant's name.
    pub variant: String,
    /// A station's name, or `total`.
    pub station: String,
    /// One of [`METRICS`].
    pub metric: String,
}

impl Metric {
    /// `VARIANT.STATION.METRIC` (the variant's name may hold dots).
    pub fn parse(path: &str) -> Result<Metric, String> {
        let (part, rest) = match path.split_once(':') {
            Some((part, rest)) => (part, rest),
            None => ("", path),
        };
        let mut parts = rest.rsplitn(3, '.');
        let (metric, station, variant) = match (parts.next(), parts.next(), parts.next()) {
            (Some(m), Some(s), Some(v)) if !v.is_empty() && !s.is_empty() => (m, s, v),
            _ => return Err(format!("`{path}`: a metric is VARIANT.STATION.METRIC")),
        };
        if !METRICS.iter().any(|(m, _)| *m == metric) {
            let known: Vec<&str> = METRICS.iter().map(|(m, _)| *m).collect();
            return Err(format!(
                "`{path}`: no metric `{metric}` (one of {})",
                known.join(", ")
            ));
        }
        if TOTAL_ONLY.contains(&metric) && station != "total" {
            return Err(format!("`{path}`: {metric} is of `total`"));
        }
        Ok(Metric {
            part: part.to_string(),
            variant: variant.to_string(),
            station: station.to_string(),
            metric: metric.to_string(),
        })
    }
}

/// One metric over the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// Mean and confidence interval over the seeds where it is finite.
    pub finite: Option<MeanCi>,
    /// Seeds where it is infinite (a percentile among lost pings).
    pub lost: usize,
    /// Seeds.
    pub n: usize,
}

impl Value {
    /// The value a check compares: the mean, or infinity when any seed lost it (a
    /// percentile that lies among lost pings is larger than any measured one).
    pub fn point(&self) -> f64 {
        match self.finite {
            _ if self.lost > 0 => f64::INFINITY,
            Some(m) => m.mean,
            None => f64::NAN,
        }
    }

    /// Half-width of the 95% confidence interval (0 with one seed, or when every seed
    /// lost the value; infinite when some did, since then nothing bounds it).
    pub fn half_width(&self) -> f64 {
        if self.lost == self.n && self.n > 0 {
            return 0.0;
        }
        if self.lost > 0 {
            return f64::INFINITY;
        }
        self.finite.and_then(|m| m.ci95).unwrap_or(0.0)
    }

    /// `12.3 ± 0.4`, `lost` or `lost in 2 of 5 seeds (others 12.3 ± 0.4)`.
    pub fn shown(&self) -> String {
        let decimals = match self.finite.map(|m| m.mean.abs()) {
            Some(x) if x >= 100.0 => 0,
            Some(x) if x >= 10.0 => 1,
            Some(x) if x >= 1.0 => 2,
            _ => 3,
        };
        match (self.finite, self.lost) {
            (Some(m), 0) => m.show(decimals),
            (None, 0) => "—".to_string(),
            (None, _) => "lost".to_string(),
            (Some(m), lost) => format!(
                "lost in {lost} of {} seeds (others {})",
                self.n,
                m.show(decimals)
            ),
        }
    }
}

/// The runs of one part of an experiment: `runs[seed * variants + v]` is variant `v`'s
/// run.
pub struct PartRuns<'a> {
    /// The part's name (empty for an experiment of one part).
    pub name: &'a str,
    /// Every run, seed-major.
    pub runs: &'a [ResultsFile],
    /// The variants' names, in their order.
    pub variants: &'a [String],
}

/// The runs of every part of one experiment.
pub struct Runs<'a> {
    /// The parts, in the experiment file's order.
    pub parts: Vec<PartRuns<'a>>,
}

impl Runs<'_> {
    /// The metric at `path` over the seeds; an error names what the path asks for that
    /// the runs do not have (a part, a variant, a station, a VoIP or web flow).
    pub fn value(&self, path: &str) -> Result<Value, String> {
        let m = Metric::parse(path)?;
        let names = || {
            self.parts
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let part = match (m.part.as_str(), self.parts.as_slice()) {
            ("", [only]) => only,
            ("", _) => {
                return Err(format!(
                    "`{path}`: name the part, PART:... (parts: {})",
                    names()
                ))
            }
            (name, parts) => parts
                .iter()
                .find(|p| p.name == name)
                .ok_or_else(|| format!("`{path}`: no part `{name}` (parts: {})", names()))?,
        };
        let v = part
            .variants
            .iter()
            .position(|name| *name == m.variant)
            .ok_or_else(|| {
                format!(
                    "`{path}`: no variant `{}` (the experiment runs {})",
                    m.variant,
                    part.variants.join(", ")
                )
            })?;
        let per_seed: Vec<f64> = part
            .runs
            .iter()
            .skip(v)
            .step_by(part.variants.len())
            .map(|r| of_run(r, &m).map_err(|why| format!("`{path}`: {why}")))
            .collect::<Result<_, _>>()?;
        let finite: Vec<f64> = per_seed.iter().copied().filter(|x| x.is_finite()).collect();
        Ok(Value {
            finite: MeanCi::of(&finite),
            lost: per_seed.len() - finite.len(),
            n: per_seed.len(),
        })
    }
}

/// The metric `m` of one run (infinite: a percentile among lost pings).
fn of_run(r: &ResultsFile, m: &Metric) -> Result<f64, String> {
    if m.station == "total" {
        return match m.metric.as_str() {
            "goodput_mbps" => Ok(r.total_goodput_mbps()),
            "airtime_jain" => r
                .airtime_jain()
                .ok_or_else(|| "no station used any airtime".to_string()),
            "driver_frames_mean" => {
                let frames: Vec<f64> = r.ap_queue.driver_frames.iter().map(|&f| f as f64).collect();
                after_warm_up(r, &frames)
            }
            "driver_airtime_mean_ms" => after_warm_up(r, &r.ap_queue.driver_airtime_ms),
            other => Err(format!("`{other}` is per station, not of `total`")),
        };
    }
    let station = r
        .stations
        .iter()
        .find(|s| s.name == m.station)
        .ok_or_else(|| {
            let names: Vec<&str> = r.stations.iter().map(|s| s.name.as_str()).collect();
            format!(
                "no station `{}` (stations: {})",
                m.station,
                names.join(", ")
            )
        })?;
    let ping = || {
        r.station_ping(&m.station)
            .ok_or_else(|| format!("station `{}` has no ping", m.station))
    };
    let lossy = |p: LossyPercentile| match p {
        LossyPercentile::Value(ms) => ms,
        LossyPercentile::Lost => f64::INFINITY,
    };
    let flows = |test: &'static str| {
        r.flows
            .iter()
            .filter(move |f| f.station == m.station && f.test == test)
    };
    match m.metric.as_str() {
        "goodput_mbps" => Ok(station.goodput_mbps),
        "goodput_down_mbps" | "goodput_up_mbps" => {
            let direction = if m.metric == "goodput_down_mbps" {
                "down"
            } else {
                "up"
            };
            Ok(r.flows
                .iter()
                .filter(|f| f.station == m.station && f.direction == direction)
                .map(|f| f.goodput_mbps)
                .sum())
        }
        "airtime_percent" => Ok(100.0 * station.airtime_share),
        "mpdus_per_ampdu_down" => Ok(station.mpdus_per_ampdu_down),
        "airtime_wall_percent" => {
            let measured = r.metadata.duration_s - r.metadata.omit_s;
            if measured <= 0.0 {
                return Err("no measured time".to_string());
            }
            Ok(100.0 * (station.airtime_down_s + station.airtime_up_s) / measured)
        }
        "ping_p50_ms" => Ok(lossy(ping()?.p50)),
        "ping_p90_ms" => Ok(lossy(ping()?.p90)),
        "ping_p99_ms" => Ok(lossy(ping()?.p99)),
        "ping_loss_percent" => ping()?
            .loss()
            .map(|l| 100.0 * l)
            .ok_or_else(|| "its pings were not counted".to_string()),
        "tcp_srtt_mean_ms" => tcp_sample_mean(r, m, &r.series.flow_tcp_rtt_ms, |x| x, "RTT"),
        "tcp_cwnd_mean_segments" => tcp_sample_mean(
            r,
            m,
            &r.series.flow_tcp_cwnd,
            f64::from,
            "congestion window",
        ),
        "voip_mos" | "voip_delay_ms" | "voip_mos_down" | "voip_delay_down_ms" => {
            let down_only = m.metric.contains("down");
            let legs: Vec<f64> = flows("voip")
                .filter(|f| !down_only || f.direction == "down")
                .filter_map(|f| f.voip)
                .map(|v| {
                    if m.metric.starts_with("voip_mos") {
                        v.mos
                    } else {
                        v.mean_delay_ms
                    }
                })
                .collect();
            if legs.is_empty() {
                return Err(format!("station `{}` has no VoIP call", m.station));
            }
            Ok(legs.iter().sum::<f64>() / legs.len() as f64)
        }
        "page_load_p50_s" => {
            let mut loads: Vec<f64> = flows("http")
                .flat_map(|f| f.page_load_s.iter().copied())
                .collect();
            if loads.is_empty() {
                return Err(format!("station `{}` loaded no web page", m.station));
            }
            loads.sort_by(f64::total_cmp);
            let mid = loads.len() / 2;
            Ok(if loads.len() % 2 == 1 {
                loads[mid]
            } else {
                (loads[mid - 1] + loads[mid]) / 2.0
            })
        }
        other => Err(format!("no metric `{other}`")),
    }
}

/// The mean over the samples after the warm-up of one TCP sender series (`series[t][flow]`)
/// for the station's TCP flows; `what` names it in the error when there is none.
fn tcp_sample_mean<T: Copy>(
    r: &ResultsFile,
    m: &Metric,
    series: &[Vec<Option<T>>],
    value: impl Fn(T) -> f64,
    what: &str,
) -> Result<f64, String> {
    let flows: Vec<usize> = r
        .flows
        .iter()
        .enumerate()
        .filter(|(_, f)| f.station == m.station && f.tcp.is_some())
        .map(|(i, _)| i)
        .collect();
    let samples: Vec<f64> = r
        .series
        .t_s
        .iter()
        .zip(series)
        .filter(|(t, _)| **t > r.metadata.omit_s)
        .flat_map(|(_, per_flow)| {
            flows
                .iter()
                .filter_map(|&i| per_flow.get(i).copied().flatten().map(&value))
        })
        .collect();
    if samples.is_empty() {
        return Err(format!(
            "station `{}` has no TCP {what} sample after the warm-up",
            m.station
        ));
    }
    Ok(samples.iter().sum::<f64>() / samples.len() as f64)
}

/// The mean of queue `samples` taken after the run's warm-up.
fn after_warm_up(r: &ResultsFile, samples: &[f64]) -> Result<f64, String> {
    let step = r.ap_queue.step_s;
    let skip = if step > 0.0 {
        (r.metadata.omit_s / step).ceil() as usize
    } else {
        0
    };
    let kept = samples.get(skip..).unwrap_or(&[]);
    if kept.is_empty() {
        return Err("no queue sample after the warm-up".to_string());
    }
    Ok(kept.iter().sum::<f64>() / kept.len() as f64)
}

/// Checks that every metric path of an experiment parses (before anything runs).
pub fn check_paths<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<(), CliError> {
    for p in paths {
        Metric::parse(p).map_err(CliError::new)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_splits_from_the_right_so_a_variant_may_hold_dots() {
        let m = Metric::parse("fq_mac+fq_mac.target_ms=5.slow.ping_p50_ms").unwrap();
        assert_eq!(m.variant, "fq_mac+fq_mac.target_ms=5");
        assert_eq!(
            (m.station.as_str(), m.metric.as_str()),
            ("slow", "ping_p50_ms")
        );
    }

    #[test]
    fn a_path_may_name_its_part() {
        let m = Metric::parse("busy:limit.guest1.airtime_percent").unwrap();
        assert_eq!((m.part.as_str(), m.variant.as_str()), ("busy", "limit"));
        assert_eq!(Metric::parse("limit.guest1.goodput_mbps").unwrap().part, "");
    }

    #[test]
    fn bad_paths_say_what_is_wrong() {
        assert!(Metric::parse("fifo.slow")
            .unwrap_err()
            .contains("VARIANT.STATION.METRIC"));
        assert!(Metric::parse("fifo.slow.speed")
            .unwrap_err()
            .contains("no metric `speed`"));
        assert!(Metric::parse("fifo.slow.airtime_jain")
            .unwrap_err()
            .contains("total"));
    }

    #[test]
    fn a_seed_that_lost_the_percentile_makes_the_point_infinite() {
        let v = Value {
            finite: MeanCi::of(&[10.0, 12.0]),
            lost: 1,
            n: 3,
        };
        assert_eq!(v.point(), f64::INFINITY);
        assert_eq!(v.shown(), "lost in 1 of 3 seeds (others 11.0 ± 12.7)");
        let w = Value {
            finite: MeanCi::of(&[10.0, 12.0]),
            lost: 0,
            n: 2,
        };
        assert_eq!(w.point(), 11.0);
    }

    #[test]
    fn tcp_sender_means_take_the_stations_tcp_flows_after_the_warm_up() {
        use crate::results::TcpResult;
        // Samples at 0.5 s and 1.0 s; the warm-up ends at 0.5 s, so only the second
        // counts. Station b's TCP flow is flow 2; flow 1 (also b's) is not TCP.
        let mut r = crate::report_view::tests::results("fq_mac");
        r.metadata.omit_s = 0.5;
        r.flows[2].tcp = Some(TcpResult::default());
        r.series.flow_tcp_cwnd = vec![vec![None, None, Some(10), None, None]; 2];
        r.series.flow_tcp_cwnd[1][2] = Some(4);
        r.series.flow_tcp_cwnd[1][1] = Some(99);
        r.series.flow_tcp_rtt_ms = vec![vec![None, None, Some(80.0), None, None]; 2];
        r.series.flow_tcp_rtt_ms[1][2] = Some(20.0);
        let of = |path: &str| of_run(&r, &Metric::parse(path).unwrap());
        assert_eq!(of("fq_mac.b.tcp_cwnd_mean_segments"), Ok(4.0));
        assert_eq!(of("fq_mac.b.tcp_srtt_mean_ms"), Ok(20.0));
        assert_eq!(
            of("fq_mac.a.tcp_cwnd_mean_segments").unwrap_err(),
            "station `a` has no TCP congestion window sample after the warm-up"
        );
    }
}
