//! Which flent test a run poses as, and the flent name of each of its series. flent
//! names a series after its test's `DATA_SETS` (`flent/tests/*.conf`), which it re-reads
//! on load: a series under another name still shows in `-f summary` and `-f csv`, but in
//! none of the test's plots. The rule, from the run's flows (each station is a flent host):
//!
//! - **All flows on one station** — the single-host test of what it runs:
//!   `rrul` when it runs rrul (`TCP download|upload BE|BK|CS5|EF`, `Ping (ms) ICMP`);
//!   else `tcp_download`, `tcp_upload` or `tcp_bidirectional` by the directions of its
//!   bulk TCP (`TCP download`, `TCP upload`, `Ping (ms) ICMP`); else `udp_flood` for UDP
//!   (`UDP upload`); else `ping`, else `http` (`HTTP latency`), else `voip`
//!   (`VoIP::bitrate`).
//! - **Several stations** — flent's "one host per stream" tests: `udp_flood_var_up` when
//!   the only load is UDP uploads (`UDP upload <host>`); else the `rtt_fair_var` family
//!   with one stream per station and DiffServ class of its bulk TCP (rrul on a station
//!   gives its four classes as four streams, labelled and marked as flent's rrul marks
//!   them: `TCP download CS5 <host>`), and a stream without data for a station that only
//!   pings. `rtt_fair_var_down` when no stream uploads, `rtt_fair_var_up` when none
//!   downloads, `rtt_fair_var` when every stream goes both ways, else
//!   `rtt_fair_var_mixed` with its `data_directions` parameter. Pings are
//!   `Ping (ms) ICMP <host>`.
//! - **Mixins** (flent's `common.inc`, so every test above but `voip`): a VoIP call is
//!   flent's voip mixin (`voip_host`; `VoIP::bitrate` of the call's downlink leg), web
//!   page loads its http mixin (`include_http`; `HTTP latency`, `HTTP latency::<n>` for
//!   several stations in the order of `HTTP_GETTER_URLLIST`).
//!
//! Flows of one station, kind, direction and class are one series (their goodput summed,
//! their samples merged); pings between one station and the server are one series, and
//! each ping from a station to another its own (`Ping (ms) ICMP <host> to <peer>`). Names flent has no test
//! for — UDP downloads (`UDP download [<host>]`), a second VoIP call
//! (`VoIP::bitrate <host>`) — are kept so that no measured flow is lost.

use serde_json::{json, Map, Value};

use crate::model::{FlowDirection, FlowKind, RunView};

/// Where one exported series comes from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Source {
    /// The flows' goodput summed per step, Mbit/s.
    Goodput(Vec<usize>),
    /// The flow's goodput per step in Kbit/s, a VoIP leg (flent's `VoIP::bitrate`).
    VoipBitrate(usize),
    /// The flows' ping replies, merged in time order, ms.
    Rtt(Vec<usize>),
    /// The flows' page load times at their completion, ms.
    PageLoads(Vec<usize>),
}

/// One series of the file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Planned {
    pub(crate) name: String,
    pub(crate) source: Source,
}

/// The flent test a run poses as and its series.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mapping {
    /// flent's test name (`NAME`).
    pub(crate) test: &'static str,
    /// `HOSTS`: one per stream in the `rtt_fair_var` family, else the one host.
    pub(crate) hosts: Vec<String>,
    /// `TEST_PARAMETERS` the test and its mixins read (the wifi_stats ones aside).
    pub(crate) test_parameters: Map<String, Value>,
    /// `HTTP_GETTER_URLLIST`: one entry per station loading pages when several do.
    pub(crate) http_urllist: Value,
    /// Every series, in the order written.
    pub(crate) series: Vec<Planned>,
}

/// A station's name as a flent host: flent splits test parameters at `,` and its `*`
/// globs stop at `:`, so both become `_`.
pub(crate) fn flent_host(name: &str) -> String {
    name.replace([',', ':'], "_")
}

/// flent's label of a DiffServ class: rrul's `BE`, `BK`, `CS5`, `EF`, else `CSn`,
/// `AFxy` (RFC 2474, RFC 2597) or the codepoint's number.
fn class_label(dscp: u8) -> String {
    match dscp {
        0 => "BE".into(),
        8 => "BK".into(),
        46 => "EF".into(),
        d if d % 8 == 0 => format!("CS{}", d / 8),
        d if (1..=4).contains(&(d / 8)) && matches!(d % 8, 2 | 4 | 6) => {
            format!("AF{}{}", d / 8, d % 8 / 2)
        }
        d => d.to_string(),
    }
}

/// flent's marking (netperf `-Y`) of a class: rrul's `CS0,CS0` for BE, `CS1` for BK.
fn class_marking(dscp: u8) -> String {
    match dscp {
        0 => "CS0".into(),
        8 => "CS1".into(),
        d => class_label(d),
    }
}

/// rrul's class order (BE, BK, CS5, EF), then the other codepoints by number.
fn class_rank(dscp: u8) -> (usize, u8) {
    let rank = [0, 8, 40, 46].iter().position(|&d| d == dscp).unwrap_or(4);
    (rank, dscp)
}

fn direction_word(d: FlowDirection) -> &'static str {
    match d {
        FlowDirection::Down => "download",
        FlowDirection::Up => "upload",
    }
}

/// One station's flows by kind.
struct StationFlows {
    host: String,
    flows: Vec<usize>,
}

impl StationFlows {
    fn of_kind(&self, run: &RunView, kind: FlowKind) -> Vec<usize> {
        self.flows
            .iter()
            .copied()
            .filter(|&f| run.flows[f].kind == kind)
            .collect()
    }

    /// Its pings: those with the server as one series, and each station-to-station ping
    /// as a series of its own, `(peer's host, flow)`.
    fn pings(&self, run: &RunView) -> (Vec<usize>, Vec<(String, usize)>) {
        let mut server = Vec::new();
        let mut peers = Vec::new();
        for f in self.of_kind(run, FlowKind::Ping) {
            match &run.flows[f].to {
                Some(peer) => peers.push((flent_host(peer), f)),
                None => server.push(f),
            }
        }
        (server, peers)
    }

    fn has(&self, run: &RunView, kind: FlowKind) -> bool {
        !self.of_kind(run, kind).is_empty()
    }

    /// Its flows of `kind` grouped by (direction, class), in rrul's class order.
    fn by_class(&self, run: &RunView, kind: FlowKind) -> Vec<((FlowDirection, u8), Vec<usize>)> {
        let mut groups: Vec<((FlowDirection, u8), Vec<usize>)> = Vec::new();
        for f in self.of_kind(run, kind) {
            let key = (run.flows[f].direction, run.flows[f].dscp);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(f),
                None => groups.push((key, vec![f])),
            }
        }
        groups.sort_by_key(|&((d, dscp), _)| (class_rank(dscp), d == FlowDirection::Up));
        groups
    }

    /// Its flows of `kind` grouped by direction (downloads first).
    fn by_direction(&self, run: &RunView, kind: FlowKind) -> Vec<(FlowDirection, Vec<usize>)> {
        [FlowDirection::Down, FlowDirection::Up]
            .into_iter()
            .map(|d| {
                let members = self
                    .of_kind(run, kind)
                    .into_iter()
                    .filter(|&f| run.flows[f].direction == d)
                    .collect::<Vec<_>>();
                (d, members)
            })
            .filter(|(_, m)| !m.is_empty())
            .collect()
    }
}

/// The mapping of `run` (see the module doc for the rule).
pub(crate) fn map(run: &RunView) -> Mapping {
    let stations: Vec<StationFlows> = run
        .stations
        .iter()
        .map(|s| StationFlows {
            host: flent_host(&s.name),
            flows: (0..run.flows.len())
                .filter(|&f| run.flows[f].station == s.name)
                .collect(),
        })
        .filter(|s| !s.flows.is_empty())
        .collect();
    let mut mapping = match stations.as_slice() {
        [one] => single_host(run, one),
        _ => several_hosts(run, &stations),
    };
    mixins(run, &stations, &mut mapping);
    mapping
}

fn single_host(run: &RunView, sta: &StationFlows) -> Mapping {
    let tcp = sta.by_direction(run, FlowKind::Tcp);
    let rrul = sta
        .of_kind(run, FlowKind::Tcp)
        .iter()
        .any(|&f| run.flows[f].test == "rrul");
    let test = if rrul {
        "rrul"
    } else if !tcp.is_empty() {
        match (tcp.len(), tcp[0].0) {
            (2, _) => "tcp_bidirectional",
            (_, FlowDirection::Down) => "tcp_download",
            (_, FlowDirection::Up) => "tcp_upload",
        }
    } else if sta.has(run, FlowKind::Udp) {
        "udp_flood"
    } else if sta.has(run, FlowKind::Ping) {
        "ping"
    } else if sta.has(run, FlowKind::Http) {
        "http"
    } else {
        "voip"
    };
    let mut series = Vec::new();
    if rrul {
        for ((d, dscp), flows) in sta.by_class(run, FlowKind::Tcp) {
            series.push(Planned {
                name: format!("TCP {} {}", direction_word(d), class_label(dscp)),
                source: Source::Goodput(flows),
            });
        }
    } else {
        for (d, flows) in tcp {
            series.push(Planned {
                name: format!("TCP {}", direction_word(d)),
                source: Source::Goodput(flows),
            });
        }
    }
    for (d, flows) in sta.by_direction(run, FlowKind::Udp) {
        series.push(Planned {
            name: format!("UDP {}", direction_word(d)),
            source: Source::Goodput(flows),
        });
    }
    let (pings, to_peers) = sta.pings(run);
    if !pings.is_empty() {
        series.push(Planned {
            name: "Ping (ms) ICMP".into(),
            source: Source::Rtt(pings),
        });
    }
    for (peer, f) in to_peers {
        series.push(Planned {
            name: format!("Ping (ms) ICMP to {peer}"),
            source: Source::Rtt(vec![f]),
        });
    }
    Mapping {
        test,
        hosts: vec![sta.host.clone()],
        test_parameters: Map::new(),
        http_urllist: Value::Null,
        series,
    }
}

/// One stream of the `rtt_fair_var` family: a host, a class, which ways it carries data.
struct Stream {
    host: String,
    dscp: u8,
    down: bool,
    up: bool,
}

fn several_hosts(run: &RunView, stations: &[StationFlows]) -> Mapping {
    let mut streams: Vec<Stream> = Vec::new();
    let mut series = Vec::new();
    for sta in stations {
        let before = streams.len();
        for ((d, dscp), flows) in sta.by_class(run, FlowKind::Tcp) {
            let label = class_label(dscp);
            series.push(Planned {
                name: format!("TCP {} {label} {}", direction_word(d), sta.host),
                source: Source::Goodput(flows),
            });
            let i = match streams[before..].iter().position(|s| s.dscp == dscp) {
                Some(i) => before + i,
                None => {
                    streams.push(Stream {
                        host: sta.host.clone(),
                        dscp,
                        down: false,
                        up: false,
                    });
                    streams.len() - 1
                }
            };
            match d {
                FlowDirection::Down => streams[i].down = true,
                FlowDirection::Up => streams[i].up = true,
            }
        }
        let (pings, to_peers) = sta.pings(run);
        if (!pings.is_empty() || !to_peers.is_empty()) && streams.len() == before {
            // A station that only pings is a stream without data (its ping is the
            // stream's in flent).
            streams.push(Stream {
                host: sta.host.clone(),
                dscp: 0,
                down: false,
                up: false,
            });
        }
        if !pings.is_empty() {
            series.push(Planned {
                name: format!("Ping (ms) ICMP {}", sta.host),
                source: Source::Rtt(pings),
            });
        }
        for (peer, f) in to_peers {
            series.push(Planned {
                name: format!("Ping (ms) ICMP {} to {peer}", sta.host),
                source: Source::Rtt(vec![f]),
            });
        }
        for (d, flows) in sta.by_direction(run, FlowKind::Udp) {
            series.push(Planned {
                name: format!("UDP {} {}", direction_word(d), sta.host),
                source: Source::Goodput(flows),
            });
        }
    }
    let any_down = streams.iter().any(|s| s.down);
    let any_up = streams.iter().any(|s| s.up);
    let udp_up_only = run.flows.iter().any(|f| f.kind == FlowKind::Udp)
        && run
            .flows
            .iter()
            .filter(|f| f.kind == FlowKind::Udp)
            .all(|f| f.direction == FlowDirection::Up);
    let mut test_parameters = Map::new();
    let test = if !any_down && !any_up && udp_up_only {
        "udp_flood_var_up"
    } else if !any_up {
        "rtt_fair_var_down"
    } else if !any_down {
        "rtt_fair_var_up"
    } else if streams.iter().all(|s| s.down && s.up) {
        "rtt_fair_var"
    } else {
        let directions: Vec<&str> = streams
            .iter()
            .map(|s| match (s.down, s.up) {
                (true, true) => "du",
                (true, false) => "d",
                (false, true) => "u",
                (false, false) => "",
            })
            .collect();
        test_parameters.insert("data_directions".into(), json!(directions.join(",")));
        "rtt_fair_var_mixed"
    };
    let hosts: Vec<String> = if test == "udp_flood_var_up" || streams.is_empty() {
        stations.iter().map(|s| s.host.clone()).collect()
    } else {
        streams.iter().map(|s| s.host.clone()).collect()
    };
    if test.starts_with("rtt_fair") && streams.iter().any(|s| s.dscp != 0) {
        let labels: Vec<String> = streams.iter().map(|s| class_label(s.dscp)).collect();
        let markings: Vec<String> = streams.iter().map(|s| class_marking(s.dscp)).collect();
        test_parameters.insert("labels".into(), json!(labels.join(",")));
        test_parameters.insert("markings".into(), json!(markings.join(",")));
    }
    Mapping {
        test,
        hosts,
        test_parameters,
        http_urllist: Value::Null,
        series,
    }
}

/// VoIP calls and web page loads: flent's voip and http mixins, or the `voip` and
/// `http` tests' own series.
fn mixins(run: &RunView, stations: &[StationFlows], mapping: &mut Mapping) {
    let calls: Vec<(&StationFlows, usize)> = stations
        .iter()
        .filter_map(|s| {
            let legs = s.of_kind(run, FlowKind::Voip);
            // The leg flent's one-way VoIP stream measures: towards the station.
            let down = legs
                .iter()
                .copied()
                .find(|&f| run.flows[f].direction == FlowDirection::Down);
            down.or(legs.first().copied()).map(|leg| (s, leg))
        })
        .collect();
    for (i, &(sta, leg)) in calls.iter().enumerate() {
        let name = if i == 0 {
            if mapping.test != "voip" {
                mapping
                    .test_parameters
                    .insert("voip_host".into(), json!(sta.host));
            }
            "VoIP::bitrate".to_string()
        } else {
            format!("VoIP::bitrate {}", sta.host)
        };
        mapping.series.push(Planned {
            name,
            source: Source::VoipBitrate(leg),
        });
    }
    let loaders: Vec<(&StationFlows, Vec<usize>)> = stations
        .iter()
        .map(|s| (s, s.of_kind(run, FlowKind::Http)))
        .filter(|(_, flows)| !flows.is_empty())
        .collect();
    if loaders.is_empty() {
        return;
    }
    if mapping.test != "http" {
        mapping
            .test_parameters
            .insert("include_http".into(), json!("1"));
    }
    if loaders.len() > 1 {
        let urls: Vec<&str> = loaders.iter().map(|(s, _)| s.host.as_str()).collect();
        mapping.http_urllist = json!(urls);
    }
    for (i, (_, flows)) in loaders.into_iter().enumerate() {
        let name = if mapping.http_urllist.is_null() {
            "HTTP latency".to_string()
        } else {
            format!("HTTP latency::{}", i + 1)
        };
        mapping.series.push(Planned {
            name,
            source: Source::PageLoads(flows),
        });
    }
}
