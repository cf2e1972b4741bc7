//! `[[traffic]]` tables → tests, named as flent names them (`tcp_download`, `rrul`,
//! `ping`, ...) plus the UDP loads the simulator has always had. Each test accepts only
//! its own keys; stations are named, or a `count` group by its base name, or all by
//! default. DSCP marks become TIDs as Linux maps them.

use super::file::TrafficSection;
use super::location::{KeyPath, SourceMap};
use super::station::Station;
use super::units;
use crate::error::CliError;
use airq::{Duration, StationId};
use airq_sim::apps::traffic::{Direction, WebPage, UDP_IP_HEADER_BYTES};
use airq_sim::net::dscp::{Dscp, BE, EF};
use airq_sim::net::wired::WiredLink;
use airq_sim::transport::tcp::{CongestionControl, TcpConfig};

/// What a test name is and which keys it takes (besides `test`, `stations`, `start`,
/// `stop`, which every test takes).
#[derive(Clone, Copy, Debug)]
pub struct TestInfo {
    /// The flent test name.
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// Its own keys.
    pub keys: &'static [&'static str],
}

/// Every test a scenario may name.
pub const TESTS: [TestInfo; 10] = [
    TestInfo {
        name: "udp_flood",
        about: "saturated UDP download to each station (the sender never runs dry)",
        keys: &["flows", "payload_bytes", "dscp"],
    },
    TestInfo {
        name: "udp_flood_up",
        about: "saturated UDP upload from each station",
        keys: &["flows", "payload_bytes", "dscp"],
    },
    TestInfo {
        name: "udp_cbr",
        about: "constant-bit-rate UDP (rate_mbps per flow; direction down or up)",
        keys: &["flows", "payload_bytes", "dscp", "rate_mbps", "direction"],
    },
    TestInfo {
        name: "tcp_download",
        about: "bulk TCP download to each station (flent tcp_download)",
        keys: &["flows", "dscp", "cc", "ecn"],
    },
    TestInfo {
        name: "tcp_upload",
        about: "bulk TCP upload from each station (flent tcp_upload)",
        keys: &["flows", "dscp", "cc", "ecn"],
    },
    TestInfo {
        name: "tcp_bidirectional",
        about: "bulk TCP both ways at once (flent tcp_bidirectional)",
        keys: &["flows", "dscp", "cc", "ecn"],
    },
    TestInfo {
        name: "rrul",
        about: "four TCP flows each way, marked BE/BK/CS5/EF, plus ping (flent rrul)",
        keys: &["interval_ms", "cc", "ecn"],
    },
    TestInfo {
        name: "ping",
        about: "ICMP echo from the server to each station every interval_ms (default 200); \
                with direction up, from each station to the server; with `to`, from each \
                station to the station named, through the AP",
        keys: &["interval_ms", "dscp", "to", "direction"],
    },
    TestInfo {
        name: "voip",
        about: "a G.711 call each way, 20 ms packets, EF by default (flent voip)",
        keys: &["dscp"],
    },
    TestInfo {
        name: "http",
        about: "web page loads from the server, one after another: a 14.4 kB document, then \
                12 objects (300 kB in all) over 6 connections (flent http)",
        keys: &["pages", "cc", "ecn", "keep_alive", "think_ms", "dscp"],
    },
];

/// A validated test and its own parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// Saturated UDP.
    UdpFlood {
        /// Who sends.
        direction: Direction,
        /// UDP payload per packet.
        payload_bytes: u32,
    },
    /// Constant-bit-rate UDP.
    UdpCbr {
        /// Who sends.
        direction: Direction,
        /// Rate per flow, bit/s.
        rate_bps: u64,
        /// UDP payload per packet.
        payload_bytes: u32,
    },
    /// Bulk TCP to the stations.
    TcpDownload,
    /// Bulk TCP from the stations.
    TcpUpload,
    /// Bulk TCP both ways.
    TcpBidirectional,
    /// Realtime Response Under Load.
    Rrul {
        /// Interval of its pings.
        ping_interval: Duration,
    },
    /// ICMP echo.
    Ping {
        /// Between two pings.
        interval: Duration,
        /// The station pinged instead of the server.
        to: Option<StationId>,
        /// Who sends the requests to the server: the server (down) or each station (up).
        direction: Direction,
    },
    /// A voice call each way.
    Voip,
    /// Web page loads.
    Http {
        /// The page, its connections and pauses.
        page: WebPage,
    },
}

/// One `[[traffic]]` entry, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// The flent test name.
    pub name: &'static str,
    /// The test and its parameters.
    pub test: Test,
    /// Indices into the scenario's stations.
    pub stations: Vec<StationId>,
    /// Flows per station.
    pub flows: u32,
    /// From the `dscp` key, or the test's own marking; the simulator maps it to a TID
    /// as Linux does.
    pub dscp: Dscp,
    /// The TCP of its connections (Linux defaults, `cc` and `ecn` keys applied).
    pub tcp: TcpConfig,
    /// With `cc = "bbr"`: the simulator's refusal, naming the key's file and line. The
    /// simulator has no BBR model (`airq_sim::transport::tcp` has CUBIC and NewReno),
    /// so only `airq emulate` runs such a test (the hosts' own BBR, iperf3's `-C bbr`);
    /// `tcp.cc` then holds CUBIC, unused.
    pub bbr: Option<String>,
    /// When it starts.
    pub start: Duration,
    /// When it stops (`None`: at the end).
    pub stop: Option<Duration>,
    /// `file:line` of the entry, for errors found later.
    pub origin: String,
}

impl Traffic {
    /// The simulator flows it makes: per station and per `flows`, one for most tests,
    /// two for a VoIP call and a bidirectional TCP test, nine for rrul (four classes
    /// each way and a ping).
    pub fn flow_count(&self) -> u64 {
        let per = match self.test {
            Test::Rrul { .. } => 9,
            Test::Voip | Test::TcpBidirectional => 2,
            _ => 1,
        };
        self.stations.len() as u64 * u64::from(self.flows) * per
    }
}

/// Longest interval or pause a test may have, ms: the longest run (1e7 s).
const MAX_TIME_MS: f64 = 1e10;

/// Checks `[[traffic]]` entry `index`.
pub fn validate(
    t: &TrafficSection,
    index: usize,
    stations: &[Station],
    duration: Duration,
    wired: &WiredLink,
    map: &SourceMap,
) -> Result<Traffic, CliError> {
    let path = KeyPath::entry("traffic", index);
    let at = |key: &str, why: String| map.error_at(&path.join(key), why);
    let info = TESTS.iter().find(|i| i.name == t.test).ok_or_else(|| {
        let names: Vec<&str> = TESTS.iter().map(|i| i.name).collect();
        at(
            "test",
            format!("unknown test `{}`; tests: {}", t.test, names.join(", ")),
        )
    })?;
    for key in t.given_keys() {
        if !matches!(key, "stations" | "start" | "stop") && !info.keys.contains(&key) {
            return Err(at(
                key,
                format!(
                    "`{key}` does not apply to test `{}` (it takes: stations, start, stop, {})",
                    info.name,
                    info.keys.join(", ")
                ),
            ));
        }
    }
    // A station-to-station ping goes from the stations picked (by default every other
    // one) to the station `to` names.
    let to = match t.to.as_deref() {
        Some(name) => {
            let i = stations.iter().position(|s| s.name == name);
            Some(StationId(
                i.ok_or_else(|| at("to", no_station(name, stations)))? as u32,
            ))
        }
        None => None,
    };
    let mut picked =
        pick_stations(t.stations.as_deref(), stations).map_err(|why| at("stations", why))?;
    if let Some(to) = to {
        let name = &stations[to.index()].name;
        if t.stations.is_some() && picked.contains(&to) {
            return Err(at(
                "to",
                format!("`{name}` is also in `stations`: a station cannot ping itself"),
            ));
        }
        picked.retain(|&s| s != to);
        if picked.is_empty() {
            return Err(at(
                "to",
                format!("`{name}` is the only station: no other station can ping it"),
            ));
        }
    }
    let stations = picked;
    let flows = t.flows.unwrap_or(1);
    if flows == 0 {
        return Err(at("flows", "must be at least 1".into()));
    }
    let seconds = |key: &str, s: f64| -> Result<Duration, CliError> {
        if !(s >= 0.0 && s.is_finite()) {
            return Err(at(key, format!("must be 0 or more seconds, got {s}")));
        }
        Ok(units::from_secs(s))
    };
    let start = seconds("start", t.start.unwrap_or(0.0))?;
    let stop = t.stop.map(|s| seconds("stop", s)).transpose()?;
    if start >= duration {
        return Err(at(
            "start",
            "the test would start after the run ends".into(),
        ));
    }
    if stop.is_some_and(|s| s <= start) {
        return Err(at("stop", "must be after start".into()));
    }
    let payload_bytes = t.payload_bytes.unwrap_or(1472);
    if !(1..=65_507).contains(&payload_bytes) {
        return Err(at(
            "payload_bytes",
            format!("must be 1 to 65507, got {payload_bytes}"),
        ));
    }
    let interval = |default_ms: f64| -> Result<Duration, CliError> {
        let ms = t.interval_ms.unwrap_or(default_ms);
        // Below a microsecond the simulation would never end (and rounds to 0 ns);
        // above the longest run it is no interval at all.
        if !(0.001..=MAX_TIME_MS).contains(&ms) {
            return Err(at(
                "interval_ms",
                format!("must be 0.001 ms (1 us) to {MAX_TIME_MS} ms (the longest run), got {ms}"),
            ));
        }
        Ok(units::from_ms(ms))
    };
    let dscp = match t.dscp {
        Some(value) => {
            Dscp::new(value).map_err(|_| at("dscp", format!("a DSCP is 0 to 63, got {value}")))?
        }
        None if info.name == "voip" => EF,
        None => BE,
    };
    let direction = match t.direction.as_deref() {
        None | Some("down") => Direction::Downlink,
        Some("up") => Direction::Uplink,
        Some(d) => return Err(at("direction", format!("`{d}`: expected `down` or `up`"))),
    };
    let test = match info.name {
        "udp_flood" => Test::UdpFlood {
            direction: Direction::Downlink,
            payload_bytes,
        },
        "udp_flood_up" => Test::UdpFlood {
            direction: Direction::Uplink,
            payload_bytes,
        },
        "udp_cbr" => {
            let mbps = t
                .rate_mbps
                .ok_or_else(|| at("test", "udp_cbr needs rate_mbps".into()))?;
            if !(mbps > 0.0 && mbps.is_finite()) {
                return Err(at("rate_mbps", format!("must be above 0, got {mbps}")));
            }
            // The server sends down through the wired link: no faster than it (the
            // excess would wait on the wire without bound). A station's own queue
            // bounds an upload, but not a packet interval below a microsecond.
            let wired_mbps = wired.rate_bps as f64 / 1e6;
            let total = mbps * f64::from(flows);
            if direction == Direction::Downlink && total > wired_mbps {
                return Err(at(
                    "rate_mbps",
                    format!(
                        "{flows} flow(s) at {mbps} Mbit/s send {total} Mbit/s down, more than \
                         the wired link's {wired_mbps} Mbit/s"
                    ),
                ));
            }
            let interval_us = f64::from(payload_bytes + UDP_IP_HEADER_BYTES) * 8.0 / mbps;
            if interval_us < 1.0 {
                return Err(at(
                    "rate_mbps",
                    format!(
                        "{mbps} Mbit/s sends a packet every {interval_us:.3} us; at most one \
                         a microsecond"
                    ),
                ));
            }
            Test::UdpCbr {
                direction,
                rate_bps: units::bps_from_mbps(mbps),
                payload_bytes,
            }
        }
        "tcp_download" => Test::TcpDownload,
        "tcp_upload" => Test::TcpUpload,
        "tcp_bidirectional" => Test::TcpBidirectional,
        "rrul" => Test::Rrul {
            ping_interval: interval(200.0)?,
        },
        "ping" => {
            if to.is_some() && t.direction.as_deref() == Some("down") {
                return Err(at(
                    "direction",
                    "a ping `to` a station goes up from each station: `down` does not apply".into(),
                ));
            }
            Test::Ping {
                interval: interval(200.0)?,
                to,
                direction,
            }
        }
        "voip" => Test::Voip,
        "http" => {
            if t.pages == Some(0) {
                return Err(at("pages", "must be at least 1".into()));
            }
            let mut page = WebPage {
                pages: t.pages,
                ..WebPage::default()
            };
            if let Some(keep_alive) = t.keep_alive {
                page.keep_alive = keep_alive;
            }
            if let Some(ms) = t.think_ms {
                if !(0.0..=MAX_TIME_MS).contains(&ms) {
                    return Err(at(
                        "think_ms",
                        format!("must be 0 to {MAX_TIME_MS} ms (the longest run), got {ms}"),
                    ));
                }
                page.think_time = units::from_ms(ms);
            }
            Test::Http { page }
        }
        other => unreachable!("{other} is in TESTS"),
    };
    let mut tcp = TcpConfig::default();
    let mut bbr = None;
    match t.cc.as_deref() {
        None | Some("cubic") => tcp.cc = CongestionControl::Cubic,
        Some("newreno") => tcp.cc = CongestionControl::NewReno,
        Some("bbr") => {
            let why = "`bbr`: the simulator has no BBR model (its TCP has `cubic` and \
                       `newreno`); only `airq emulate` runs it, with the hosts' own BBR";
            bbr = Some(at("cc", why.to_string()).to_string());
        }
        Some(other) => {
            return Err(at(
                "cc",
                format!("`{other}`: expected `cubic`, `newreno` or `bbr` (emulation only)"),
            ))
        }
    }
    if let Some(ecn) = t.ecn {
        tcp.ecn = ecn;
    }
    let origin = map.origin(&path);
    Ok(Traffic {
        name: info.name,
        test,
        stations,
        flows,
        dscp,
        tcp,
        bbr,
        start,
        stop,
        origin,
    })
}

/// The stations `names` select: a station's name, or the base name of a `count` group
/// for all its stations; `None` selects every station.
fn pick_stations(names: Option<&[String]>, stations: &[Station]) -> Result<Vec<StationId>, String> {
    let Some(names) = names else {
        return Ok((0..stations.len() as u32).map(StationId).collect());
    };
    if names.is_empty() {
        return Err("lists no station (leave it out for all stations)".into());
    }
    let mut picked = Vec::new();
    for name in names {
        let exact = stations.iter().position(|s| &s.name == name);
        let matching: Vec<StationId> = match exact {
            Some(i) => vec![StationId(i as u32)],
            None => stations
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.name
                        .strip_prefix(name.as_str())
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                })
                .map(|(i, _)| StationId(i as u32))
                .collect(),
        };
        if matching.is_empty() {
            return Err(no_station(name, stations));
        }
        for i in matching {
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
    }
    Ok(picked)
}

/// Why `name` selects no station: the stations there are.
fn no_station(name: &str, stations: &[Station]) -> String {
    let all: Vec<&str> = stations.iter().map(|s| s.name.as_str()).collect();
    format!("no station named `{name}`; stations: {}", all.join(", "))
}
