//! The time-based retry limit at the AP (`ApConfig::retry_time`,
//! [`crate::mac::retry_time`]): an MPDU failing every try is given up by the limit
//! rather than the retry count, and with `include_queue_time` its age counts from its
//! arrival at the AP when no CoDel queue stamps it (pfifo_fast and the legacy MAC of
//! `fifo`) or from its FQ-MAC entry — never from the start of the run.

use super::*;
use crate::mac::retry_time::RetryTimeParams;

/// A packet arriving at 100 ms and failing every try: the time of the try (after the
/// arrival) at which it is dropped, and by which cause.
fn given_up(preset_name: &str, include_queue_time: bool) -> (Duration, DropCause) {
    let mut config = preset(preset_name);
    config.retry_time = Some(RetryTimeParams {
        time_limit: Duration::from_millis(10),
        min_tries: 2,
        include_queue_time,
    });
    let mut ap = ap(&config, &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    let arrival = Instant::from_millis(100);
    let mut now = arrival;
    ap.enqueue_into(src.packet(StationId(0), 0, 1, 1500), now, &mut out)
        .unwrap();
    while transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| true).is_some() {
        if let Some((_, cause)) = out.dropped.first() {
            return (now - arrival, *cause);
        }
        now += Duration::from_millis(1); // the other stations' turns
    }
    panic!("{preset_name}: never dropped");
}

#[test]
fn the_time_limit_gives_up_before_the_retry_count() {
    for name in ["fifo", "fq_mac", "airtime"] {
        for include_queue_time in [false, true] {
            let (after, cause) = given_up(name, include_queue_time);
            assert_eq!(cause, DropCause::RetryTimeLimit, "{name}");
            // Tries of about 1.3 ms and a 1 ms gap: past 10 ms at the 5th failure, well
            // before the 10th (the [bss] retry count).
            assert!(
                after > Duration::from_millis(10) && after < Duration::from_millis(15),
                "{name} {include_queue_time}: {after:?}"
            );
        }
    }
}
