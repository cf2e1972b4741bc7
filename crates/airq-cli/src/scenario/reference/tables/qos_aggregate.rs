//! `[ap.qos_aggregate]`: combined QoS aggregates.

use super::*;
use airq::aggregate::QosAggregateParams;

pub(super) fn qos_aggregate() -> TableDoc {
    let d = QosAggregateParams::default();
    TableDoc {
        path: "ap.qos_aggregate",
        about: "Combined QoS aggregates (netdev 2.2 paper §4.3, \"Improved network \
                efficiency\"; not in Linux): a station's queued VO frames wait for its next \
                BE or VI A-MPDU and ride at its head, sent with that AC's EDCA parameters, \
                instead of a VO TXOP of their own — when the station has BE/VI frames \
                queued, its VO queue holds at most max_vo_frames, at most max_contenders \
                stations were heard transmitting in the last contention_window_ms, and for \
                at most max_wait_us. A multi-TID A-MPDU is 802.11ax's (IEEE 802.11ax-2021 \
                26.6.3): per-TID BlockAck state, retries and reordering. Softmac driver \
                over FQ-MAC only. Off by default; results count the VO frames carried and \
                the VO TXOPs saved.",
        keys: vec![
            key(
                "enabled",
                Kind::Boolean,
                "",
                "false",
                "true, false; required when a parameter is given",
                "true",
                "Turns combined QoS aggregates on (refused with a firmware driver or the \
                 legacy MAC).",
            ),
            key(
                "max_vo_frames",
                Kind::Integer,
                "frames",
                d.max_vo_frames.to_string(),
                format!("1 to {}", QosAggregateParams::MAX_VO_FRAMES),
                "4",
                "A station's VO frames ride only while its VO queue holds at most this many; \
                 also the most one A-MPDU carries (our choice: a 20 ms call holds one or two).",
            ),
            key(
                "max_contenders",
                Kind::Integer,
                "stations",
                d.max_contenders.to_string(),
                "0 or more",
                "8",
                "Combine only while at most this many stations were heard transmitting \
                 within contention_window_ms (our choice: the seed's experiments had 3-4).",
            ),
            key(
                "contention_window_ms",
                Kind::Integer,
                "ms",
                d.contention_window.as_millis().to_string(),
                format!(
                    "1 to {}",
                    QosAggregateParams::MAX_CONTENTION_WINDOW.as_millis()
                ),
                "200",
                "How far back a station heard counts as contending.",
            ),
            key(
                "max_wait_us",
                Kind::Integer,
                "µs",
                d.max_wait.as_micros().to_string(),
                format!("1 to {}", QosAggregateParams::MAX_WAIT.as_micros()),
                "5000",
                "The longest a VO frame waits for a carrier before it goes in its own VO \
                 TXOP (our choice: half a 20 ms voice packet interval).",
            ),
        ],
    }
}
