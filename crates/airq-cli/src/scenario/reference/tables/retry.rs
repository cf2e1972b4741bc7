//! `[ap.retry]`: the time-based retry limit.

use super::*;

pub(super) fn retry() -> TableDoc {
    TableDoc {
        path: "ap.retry",
        about: "A time-based retry limit on the AP's MPDUs (netdev 2.2 paper §4.1, after \
                Nomoto et al., ICN 2017; not in Linux, which counts tries only): after a \
                failed transmission, an MPDU with at least min_tries transmissions is \
                dropped (drop cause retry_time_limit) once its age exceeds time_limit_ms, \
                its age counted from the start of its first transmission, or with \
                include_queue_time from its entry into the AP's last CoDel queue (CoDel's \
                timestamp; without one, pfifo_fast and the legacy MAC, its arrival at the \
                AP). \
                Fewer retries fit the limit at low rates: a retry limit that follows the \
                data rate. The [bss] retry limit still applies. Every driver and MAC. Off \
                by default.",
        keys: vec![
            key(
                "time_limit_ms",
                Kind::Number,
                "ms",
                "none (off)",
                "0.001 to 1e6; turns the limit on",
                "10.0",
                "The longest a failed MPDU is retried.",
            ),
            key(
                "min_tries",
                Kind::Integer,
                "",
                "2",
                "1 to 255; needs time_limit_ms",
                "3",
                "Transmissions an MPDU always gets, however old (the first included).",
            ),
            key(
                "include_queue_time",
                Kind::Boolean,
                "",
                "false",
                "true, false; needs time_limit_ms",
                "true",
                "Count the age from the CoDel queue's timestamp (the queue time CoDel \
                 measures, plus any wait in the driver), or without CoDel from the \
                 arrival at the AP, rather than from the first transmission.",
            ),
        ],
    }
}
