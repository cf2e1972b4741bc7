//! `[ap.admission]`: soft admission control of VO/VI.

use super::*;
use airq::admission::AdmissionParams;

pub(super) fn admission() -> TableDoc {
    let d = AdmissionParams::default();
    TableDoc {
        path: "ap.admission",
        about: "Soft admission control (netdev 2.2 paper §4.3 and slide 22, after sch_cake; \
                not in Linux): a flow marked VO or VI whose packets all leave the AP's \
                queues with a sojourn of at least target_ms while more than mtu_bytes of it \
                stay queued, for interval_ms, is demoted: its packets go to the BE (or BK) \
                TXQ of its station until none has left above target for promote_after_ms. \
                With the FQ-MAC layer only (a preset with the legacy MAC runs without it). \
                Off by default; results count demotions per station and flow.",
        keys: vec![
            key(
                "enabled",
                Kind::Boolean,
                "",
                "false",
                "true, false; required when a parameter is given",
                "true",
                "Turns soft admission control on.",
            ),
            key(
                "target_ms",
                Kind::Number,
                "ms",
                ms(d.target),
                "0.001 to 1e6",
                "10.0",
                "Sojourn at or above which a packet leaves above target (CoDel's 5 ms, \
                 RFC 8289 §4.3).",
            ),
            key(
                "interval_ms",
                Kind::Number,
                "ms",
                ms(d.interval),
                "0.001 to 1e6",
                "200.0",
                "How long every packet of a flow must leave above target before the flow \
                 is demoted (CoDel's interval, RFC 8289 §4.4).",
            ),
            key(
                "promote_after_ms",
                Kind::Number,
                "ms",
                ms(d.promote_after),
                "0.001 to 1e6",
                "5000.0",
                "How long a demoted flow goes without a packet above target before it is \
                 promoted back (our choice: ten intervals).",
            ),
            key(
                "mtu_bytes",
                Kind::Integer,
                "bytes",
                d.mtu_bytes.to_string(),
                "0 or more",
                "3000",
                "A flow with at most this much still queued is never above target (CoDel's \
                 one-MTU rule): a sparse flow delayed by the medium has built no queue.",
            ),
            key(
                "demote_to",
                Kind::Choice(&["be", "bk"]),
                "",
                "be",
                "",
                "\"bk\"",
                "Where a demoted flow's packets go: BE (TID 0) or BK (TID 1).",
            ),
            key(
                "flows",
                Kind::Integer,
                "",
                d.flows.to_string(),
                format!("1 to {}", AdmissionParams::MAX_FLOWS),
                "4096",
                "Buckets flows are hashed into (sch_cake's 1024 per tin); colliding flows \
                 share one state.",
            ),
        ],
    }
}
