//! `[[station]] queue`: a station's own queues. With FIFOs (an unmodified client) its
//! upload holds its ping replies and its download's ACKs; with FQ-MAC (a Linux client
//! of today) they go in flow queues of their own.

use super::{run_json, write};

const BIDI: &str = "name = \"bidi\"\nduration = 6.0\nomit = 2.0\nseed = 1\n\n\
[bss]\nband = \"5GHz\"\n\n\
[[station]]\nname = \"sta\"\nstandard = \"ht\"\nmcs = 7\nwidth = 20\ngi = \"long\"\n\n\
[[traffic]]\ntest = \"tcp_bidirectional\"\n\n\
[[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n";

#[test]
fn a_station_with_fq_mac_keeps_its_ping_replies_out_of_its_uploads_queue() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bidi.toml", BIDI);
    let figures = |queue: &str| {
        let s = run_json(
            dir.path(),
            &format!("{queue}.json"),
            &path,
            &[
                "--config",
                "airtime",
                "--set",
                &format!("station.0.queue={queue}"),
            ],
        );
        let run = &s["runs"][0];
        let p50 = run["stations"][0]["ping_rtt_ms"]["p50"].as_f64().unwrap();
        let flows = run["flows"].as_array().unwrap();
        let mbps = |direction: &str| {
            flows
                .iter()
                .find(|f| f["test"] == "tcp_bidirectional" && f["direction"] == direction)
                .unwrap()["goodput_mbps"]
                .as_f64()
                .unwrap()
        };
        (p50, mbps("down"), mbps("up"))
    };
    let (fifo_ping, fifo_down, fifo_up) = figures("fifo");
    let (fq_ping, fq_down, fq_up) = figures("fq_mac");
    eprintln!(
        "fifo: ping p50 {fifo_ping:.1} ms, {fifo_down:.1} down / {fifo_up:.1} up; fq_mac: \
         {fq_ping:.1} ms, {fq_down:.1} / {fq_up:.1}"
    );
    // Behind a 1000-packet FIFO a reply waits for the upload's backlog: 100s of ms.
    assert!(fifo_ping > 100.0, "{fifo_ping}");
    // In its own flow queue, with CoDel (20 ms) on the upload's: tens of ms at most.
    assert!(fq_ping < fifo_ping / 3.0, "{fq_ping} against {fifo_ping}");
    // The download's ACKs no longer wait behind the upload: it gets more of the air.
    assert!(fq_down > 1.5 * fifo_down, "{fq_down} against {fifo_down}");
    assert!(fq_down + fq_up > 0.9 * (fifo_down + fifo_up));
}

#[test]
fn an_unknown_queue_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "bad.toml",
        &BIDI.replace("gi = \"long\"\n", "gi = \"long\"\nqueue = \"codel\"\n"),
    );
    let a = super::airq().arg("check").arg(&path).assert().failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "bad.toml:15:9: station.0.queue: unknown value `codel`, expected `fifo` or `fq_mac`"
        ),
        "{err}"
    );
}
