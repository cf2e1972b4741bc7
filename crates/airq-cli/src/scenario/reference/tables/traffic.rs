//! `[[traffic]]`.

use super::*;

pub(super) fn traffic() -> TableDoc {
    let tcp = TcpConfig::default();
    let page = airq_sim::apps::traffic::WebPage::default();
    let tests: Vec<&str> = TESTS.iter().map(|t| t.name).collect();
    TableDoc {
        path: "traffic[]",
        about: "One test, as flent names it, to some or all stations (`airq list tests`). \
                Every test takes `test`, `stations`, `start` and `stop`; the other keys \
                belong to the tests named beside them.",
        keys: vec![
            key(
                "test",
                Kind::String,
                "",
                "required",
                tests.join(", "),
                "\"tcp_download\"",
                "The test.",
            ),
            key(
                "stations",
                Kind::Strings,
                "",
                "every station",
                "station names, or the base name of a `count` group",
                "[\"fast\"]",
                "The stations the test runs to or from.",
            ),
            key(
                "flows",
                Kind::Integer,
                "",
                "1",
                "1 or more; at most 1e6 flows in the whole scenario",
                "2",
                format!("Flows per station. {}", tests_taking("flows")),
            ),
            key(
                "direction",
                Kind::String,
                "",
                "down",
                "down, up",
                "\"up\"",
                format!(
                    "down (to the stations) or up. {}",
                    tests_taking("direction")
                ),
            ),
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                "required (udp_cbr)",
                "above 0; down: flows × rate at most the wired rate; a packet a µs at most",
                "10.0",
                format!("Rate per flow. {}", tests_taking("rate_mbps")),
            ),
            key(
                "payload_bytes",
                Kind::Integer,
                "bytes",
                "1472",
                "1 to 65507",
                "1000",
                format!("UDP payload per packet. {}", tests_taking("payload_bytes")),
            ),
            key(
                "dscp",
                Kind::Integer,
                "",
                "0 (BE); voip 46 (EF)",
                "0 to 63",
                "46",
                format!(
                    "DiffServ code point; sets the TID as Linux maps it (RFC 8325 §4.3). {}",
                    tests_taking("dscp")
                ),
            ),
            key(
                "interval_ms",
                Kind::Number,
                "ms",
                "200",
                "0.001 to 1e10 (the longest run)",
                "100.0",
                format!("Between two pings. {}", tests_taking("interval_ms")),
            ),
            key(
                "to",
                Kind::String,
                "",
                "none (the server)",
                "a station's name",
                "\"slow\"",
                format!(
                    "Ping this station from the others, through the AP. {}",
                    tests_taking("to")
                ),
            ),
            key(
                "pages",
                Kind::Integer,
                "",
                "no limit (until stop)",
                "1 or more",
                "10",
                format!("Pages to fetch. {}", tests_taking("pages")),
            ),
            key(
                "cc",
                Kind::String,
                "",
                "cubic",
                "cubic, newreno, bbr",
                "\"newreno\"",
                format!(
                    "TCP congestion control. `bbr` is for `airq emulate` only (the hosts' \
                     Linux BBR, iperf3 `-C bbr`): the simulator has no BBR model and refuses \
                     it. {}",
                    tests_taking("cc")
                ),
            ),
            key(
                "ecn",
                Kind::Boolean,
                "",
                tcp.ecn.to_string(),
                "true, false",
                "true",
                format!(
                    "Negotiate ECN on both ends of the TCP connections (RFC 3168). {}",
                    tests_taking("ecn")
                ),
            ),
            key(
                "keep_alive",
                Kind::Boolean,
                "",
                page.keep_alive.to_string(),
                "true, false",
                "true",
                format!(
                    "Keep web connections open from page to page. {}",
                    tests_taking("keep_alive")
                ),
            ),
            key(
                "think_ms",
                Kind::Number,
                "ms",
                ms(page.think_time),
                "0 to 1e10",
                "500.0",
                format!("Pause between two pages. {}", tests_taking("think_ms")),
            ),
            key(
                "start",
                Kind::Number,
                "s",
                "0",
                "0 to below duration",
                "1.0",
                "When the test starts.",
            ),
            key(
                "stop",
                Kind::Number,
                "s",
                "the end of the run",
                "after start",
                "20.0",
                "When the test stops: no packet, page or connection starts after it; a bulk \
                 TCP sender stops writing where its sending stands (iperf3 or netperf at the \
                 end of its test) and closes, what is in flight still delivered.",
            ),
        ],
    }
}
