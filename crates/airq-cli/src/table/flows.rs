//! The per-flow part of the tables: every flow of a run, grouped by kind (TCP, UDP,
//! ping, VoIP, web), each group with only the figures its kind has, so that a plain TCP
//! and ping scenario gets two narrow tables rather than one wide one of blanks; side by
//! side for a comparison, one row per flow and one column per run of the figure that
//! matters for its kind.

use super::lineup::Lineup;
use super::{loss_cell, percentile_cell, Row};
use crate::results::{FlowSummary, ResultsFile};
use airq_sim::metrics::distribution::Distribution;
use std::collections::HashMap;
use std::fmt::Write as _;

/// What kind of traffic a flow is, which decides the figures shown for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    Tcp,
    Udp,
    Ping,
    Voip,
    Web,
}

/// The tests whose flows (other than pings) are TCP.
const TCP_TESTS: [&str; 4] = ["tcp_download", "tcp_upload", "tcp_bidirectional", "rrul"];

impl Kind {
    pub(super) const ALL: [Kind; 5] = [Kind::Tcp, Kind::Udp, Kind::Ping, Kind::Voip, Kind::Web];

    pub(super) fn of(f: &FlowSummary) -> Kind {
        if f.pings_sent.is_some() || !f.rtt_ms.is_empty() {
            Kind::Ping
        } else if f.voip.is_some() || f.test == "voip" {
            Kind::Voip
        } else if f.test == "http" || !f.page_load_s.is_empty() {
            Kind::Web
        } else if f.tcp.is_some() || TCP_TESTS.contains(&f.test.as_str()) {
            // An emulated run's TCP flows have no counters of the model's TCP.
            Kind::Tcp
        } else {
            Kind::Udp
        }
    }

    fn title(self) -> &'static str {
        match self {
            Kind::Tcp => "TCP flows",
            Kind::Udp => "UDP flows",
            Kind::Ping => "ping flows",
            Kind::Voip => "VoIP flows",
            Kind::Web => "web flows",
        }
    }
}

/// A DiffServ codepoint by its name (RFC 4594's classes; CS0 as BE), else its number.
pub(super) fn dscp_class(dscp: u8) -> String {
    match dscp {
        0 => "BE".into(),
        46 => "EF".into(),
        44 => "VA".into(),
        d if d % 8 == 0 && d <= 56 => format!("CS{}", d / 8),
        d if (10..=38).contains(&d) && d % 2 == 0 && (d / 2) % 4 != 0 => {
            format!("AF{}{}", d / 8, (d % 8) / 2)
        }
        d => d.to_string(),
    }
}

/// Each flow's name in a table: station, test, direction and class (`ping` after the
/// test for the ping of a test that is not one, as rrul's beside its TCP flows of the
/// same direction and class), with `#k` after flows that would otherwise share one
/// (several flows of one test). Names are unique: a comparison lines its rows up by
/// them. Counted in a map, so that 65,535 stations' flows take milliseconds, not
/// minutes (issue 20).
pub(super) fn flow_labels(flows: &[FlowSummary]) -> Vec<String> {
    let base: Vec<String> = flows
        .iter()
        .map(|f| {
            let class = dscp_class(f.dscp);
            let ping = match Kind::of(f) == Kind::Ping && f.test != "ping" {
                true => " ping",
                false => "",
            };
            match &f.to {
                Some(to) => format!("{} {} to {to} {class}", f.station, f.test),
                None => format!("{} {}{ping} {} {class}", f.station, f.test, f.direction),
            }
        })
        .collect();
    let mut total: HashMap<&str, usize> = HashMap::with_capacity(base.len());
    for b in &base {
        *total.entry(b).or_default() += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(base.len());
    base.iter()
        .map(|b| {
            if total[b.as_str()] == 1 {
                return b.clone();
            }
            let k = seen.entry(b).or_default();
            *k += 1;
            format!("{b} #{k}")
        })
        .collect()
}

/// The figures of one kind of flow: column headers and each flow's cells.
fn columns(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Tcp => &["Mbit/s", "retransmits", "RTOs"],
        Kind::Udp => &["Mbit/s"],
        Kind::Ping => &["sent", "lost", "p50 ms", "p90 ms", "p99 ms"],
        Kind::Voip => &["delay ms", "jitter ms", "lost", "MOS"],
        Kind::Web => &["pages", "load p50 s", "p90 s"],
    }
}

fn cells(kind: Kind, f: &FlowSummary) -> Vec<String> {
    match kind {
        Kind::Tcp => match f.tcp {
            Some(tcp) => vec![
                format!("{:.2}", f.goodput_mbps),
                tcp.retransmits.to_string(),
                tcp.rto_timeouts.to_string(),
            ],
            // Not counted: an emulated run's TCP is the hosts' own.
            None => vec![format!("{:.2}", f.goodput_mbps), "?".into(), "?".into()],
        },
        Kind::Udp => vec![format!("{:.2}", f.goodput_mbps)],
        Kind::Ping => match f.ping() {
            Some(p) => vec![
                p.sent.map_or("?".into(), |s| s.to_string()),
                loss_cell(p.loss()),
                percentile_cell(p.p50),
                percentile_cell(p.p90),
                percentile_cell(p.p99),
            ],
            None => vec![String::new(); 5],
        },
        Kind::Voip => match f.voip {
            Some(v) => vec![
                format!("{:.1}", v.mean_delay_ms),
                format!("{:.1}", v.jitter_ms),
                loss_cell(Some(v.loss_fraction)),
                format!("{:.2}", v.mos),
            ],
            None => vec![String::new(); 4],
        },
        Kind::Web => {
            let [p50, p90] = page_load_cells(&f.page_load_s);
            vec![f.page_load_s.len().to_string(), p50, p90]
        }
    }
}

/// Median and 90th percentile of page load times, s, or blanks without a page.
fn page_load_cells(loads_s: &[f64]) -> [String; 2] {
    let p = |q| {
        Distribution::new(loads_s.to_vec())
            .ok()
            .and_then(|d| d.percentile(q))
            .map_or(String::new(), |v| format!("{v:.2}"))
    };
    [p(50.0), p(90.0)]
}

/// Every flow of `r`, one table per kind of flow it has.
pub(super) fn run_flows(out: &mut String, r: &ResultsFile) {
    let labels = flow_labels(&r.flows);
    let label_width = labels.iter().map(|l| l.len() + 2).max().unwrap_or(0);
    for kind in Kind::ALL {
        let flows: Vec<usize> = (0..r.flows.len())
            .filter(|&i| Kind::of(&r.flows[i]) == kind)
            .collect();
        if flows.is_empty() {
            continue;
        }
        let headers = columns(kind);
        let rows: Vec<Vec<String>> = flows.iter().map(|&i| cells(kind, &r.flows[i])).collect();
        let widths: Vec<usize> = headers
            .iter()
            .enumerate()
            .map(|(c, h)| {
                rows.iter()
                    .map(|row| row[c].len())
                    .fold(h.len(), usize::max)
            })
            .collect();
        let line = |out: &mut String, label: &str, cells: &[String]| {
            let _ = write!(out, "{label:<label_width$}");
            for (cell, w) in cells.iter().zip(&widths) {
                let _ = write!(out, "  {cell:>w$}");
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        };
        out.push('\n');
        let headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
        line(out, kind.title(), &headers);
        for (&i, row) in flows.iter().zip(&rows) {
            line(out, &format!("  {}", labels[i]), row);
        }
    }
}

/// The figure a comparison shows for each flow of a kind, and its block's title; ping
/// flows only when a station has several (else the stations' ping rows say it all).
pub(super) fn compare_blocks(runs: &[ResultsFile]) -> Vec<(String, Vec<Row>)> {
    let lineup = Lineup::flows(runs);
    // Each row's flow, from the first run that has it (its kind and station).
    let flow_of = |label: &str| {
        (runs.iter().enumerate())
            .find_map(|(k, r)| lineup.position(k, label).map(|i| &r.flows[i]))
            .expect("every label comes from a run")
    };
    let several_pings = runs.iter().any(|r| {
        r.stations.iter().any(|s| {
            let pings = r.station_flows(&s.name);
            pings.filter(|f| Kind::of(f) == Kind::Ping).count() > 1
        })
    });
    type Cell = fn(&FlowSummary) -> String;
    let figures: [(Kind, &str, Cell); 7] = [
        (Kind::Tcp, "TCP flow goodput, Mbit/s", |f| {
            format!("{:.2}", f.goodput_mbps)
        }),
        (Kind::Udp, "UDP flow goodput, Mbit/s", |f| {
            format!("{:.2}", f.goodput_mbps)
        }),
        (Kind::Ping, "ping flow lost / p99 ms", |f| {
            f.ping().map_or(String::new(), |p| {
                let loss = loss_cell(p.loss());
                format!("{loss}/{}", percentile_cell(p.p99))
            })
        }),
        (Kind::Voip, "VoIP MOS", |f| {
            f.voip.map_or(String::new(), |v| format!("{:.2}", v.mos))
        }),
        (Kind::Voip, "VoIP delay/jitter, ms", |f| {
            f.voip.map_or(String::new(), |v| {
                format!("{:.1}/{:.1}", v.mean_delay_ms, v.jitter_ms)
            })
        }),
        (Kind::Voip, "VoIP lost", |f| {
            f.voip
                .map_or(String::new(), |v| loss_cell(Some(v.loss_fraction)))
        }),
        (Kind::Web, "page load p50/p90, s", |f| {
            let [p50, p90] = page_load_cells(&f.page_load_s);
            if p50.is_empty() {
                "no page".into()
            } else {
                format!("{p50}/{p90}")
            }
        }),
    ];
    let mut blocks = Vec::new();
    for (kind, title, cell) in figures {
        if kind == Kind::Ping && !several_pings {
            continue;
        }
        let rows: Vec<(String, Vec<String>)> = (lineup.names.iter())
            .filter(|label| Kind::of(flow_of(label)) == kind)
            .map(|label| {
                let cells = (runs.iter().enumerate())
                    .map(|(k, r)| {
                        lineup
                            .position(k, label)
                            .map_or(String::new(), |i| cell(&r.flows[i]))
                    })
                    .collect();
                (format!("  {label}"), cells)
            })
            .collect();
        if !rows.is_empty() {
            blocks.push((title.to_string(), rows));
        }
    }
    blocks
}

/// A figure of one kind of flow as a number, for the table of repetitions: its kind,
/// its block's title, the value and its decimals.
pub(super) type NumericFigure = (Kind, &'static str, fn(&FlowSummary) -> Option<f64>, usize);

/// The figures [`compare_blocks`] shows, as numbers a mean over seeds can be taken of
/// (pings aside: their percentiles may be lost, and the stations' ping rows say them).
pub(super) fn numeric_figures() -> [NumericFigure; 8] {
    [
        (
            Kind::Tcp,
            "TCP flow goodput, Mbit/s",
            |f| Some(f.goodput_mbps),
            2,
        ),
        (
            Kind::Udp,
            "UDP flow goodput, Mbit/s",
            |f| Some(f.goodput_mbps),
            2,
        ),
        (Kind::Voip, "VoIP MOS", |f| f.voip.map(|v| v.mos), 2),
        (
            Kind::Voip,
            "VoIP delay, ms",
            |f| f.voip.map(|v| v.mean_delay_ms),
            1,
        ),
        (
            Kind::Voip,
            "VoIP jitter, ms",
            |f| f.voip.map(|v| v.jitter_ms),
            1,
        ),
        (
            Kind::Voip,
            "VoIP lost, %",
            |f| f.voip.map(|v| v.loss_fraction * 100.0),
            1,
        ),
        (Kind::Web, "page load p50, s", |f| page_load(f, 50.0), 2),
        (Kind::Web, "page load p90, s", |f| page_load(f, 90.0), 2),
    ]
}

/// A percentile of a web flow's page load times, s; `None` without a page.
fn page_load(f: &FlowSummary, q: f64) -> Option<f64> {
    Distribution::new(f.page_load_s.clone())
        .ok()
        .and_then(|d| d.percentile(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dscp_classes_are_named_as_rfc_4594_names_them() {
        let named: Vec<String> = [0, 8, 10, 18, 26, 34, 36, 40, 44, 46, 48, 13]
            .iter()
            .map(|&d| dscp_class(d))
            .collect();
        assert_eq!(
            named,
            ["BE", "CS1", "AF11", "AF21", "AF31", "AF41", "AF42", "CS5", "VA", "EF", "CS6", "13"]
        );
    }

    fn flow(station: &str, test: &str) -> FlowSummary {
        FlowSummary {
            station: station.into(),
            test: test.into(),
            direction: "down".into(),
            to: None,
            dscp: 0,
            goodput_mbps: 0.0,
            rtt_ms: Vec::new(),
            pings_sent: None,
            pings_lost: None,
            voip: None,
            tcp: None,
            page_load_s: Vec::new(),
        }
    }

    #[test]
    fn flows_sharing_a_name_are_numbered_in_order_and_others_are_not() {
        let flows = [
            flow("a", "tcp_download"),
            flow("b", "tcp_download"),
            flow("a", "tcp_download"),
            flow("a", "udp_flood"),
            flow("a", "tcp_download"),
        ];
        assert_eq!(
            flow_labels(&flows),
            [
                "a tcp_download down BE #1",
                "b tcp_download down BE",
                "a tcp_download down BE #2",
                "a udp_flood down BE",
                "a tcp_download down BE #3",
            ]
        );
    }

    /// rrul's ping has its test, direction and class of its TCP download beside it: its
    /// name says it is the ping, so that a comparison's TCP row is not taken by it.
    #[test]
    fn a_tests_own_ping_is_named_apart_from_its_tcp_flows() {
        let mut ping = flow("a", "rrul");
        ping.pings_sent = Some(50);
        let mut plain = flow("b", "ping");
        plain.pings_sent = Some(50);
        let flows = [flow("a", "rrul"), ping, plain];
        assert_eq!(
            flow_labels(&flows),
            ["a rrul down BE", "a rrul ping down BE", "b ping down BE"]
        );
    }
}
