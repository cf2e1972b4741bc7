//! HyStart: leaving slow start before the first loss (Ha & Rhee, "Taming the elephants",
//! 2011; Linux `tcp_cubic.c` `hystart_update`, both detectors on as by default).
//!
//! Per round (one window of data, ended when `snd_una` passes the `snd_nxt` of the
//! round's start), two signals end slow start by setting ssthresh to cwnd:
//! - *ACK train*: ACKs keep arriving at most 2 ms apart for longer than half the minimum
//!   delay (plus Linux's `hystart_ack_delay`, at most 1 ms, taken as 1 ms): the pipe is
//!   full;
//! - *delay increase*: the smallest of the round's first 8 RTT samples exceeds the
//!   minimum delay by `clamp(delay_min/8, 4 ms, 16 ms)`: a queue is building.
//!
//! Only once cwnd ≥ 16 segments (`hystart_low_window`).

use super::cc::AckSample;
use airq::{Duration, Instant};

/// Linux `hystart_low_window`.
const LOW_WINDOW: u32 = 16;
/// Linux `hystart_ack_delta_us`.
const ACK_DELTA: Duration = Duration::from_millis(2);
/// Linux `hystart_ack_delay()` without pacing-rate information: its 1 ms cap.
const ACK_DELAY: Duration = Duration::from_millis(1);
/// Linux `HYSTART_MIN_SAMPLES`.
const MIN_SAMPLES: u32 = 8;
/// Linux `HYSTART_DELAY_MIN`, `HYSTART_DELAY_MAX`.
const DELAY_MIN: Duration = Duration::from_millis(4);
const DELAY_MAX: Duration = Duration::from_millis(16);

/// HyStart state (the `hystart_*` fields of Linux `struct bictcp`).
#[derive(Clone, Debug)]
pub(super) struct Hystart {
    enabled: bool,
    found: bool,
    round_start: Instant,
    last_ack: Instant,
    /// `snd_nxt` when the round began.
    end_seq: u64,
    /// Smallest RTT sample of the round.
    curr_rtt: Option<Duration>,
    sample_cnt: u32,
}

impl Hystart {
    pub(super) fn new(enabled: bool) -> Self {
        Hystart {
            enabled,
            found: false,
            round_start: Instant::ZERO,
            last_ack: Instant::ZERO,
            end_seq: 0,
            curr_rtt: None,
            sample_cnt: 0,
        }
    }

    pub(super) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Linux `bictcp_hystart_reset`: a new round starts.
    pub(super) fn reset_round(&mut self, now: Instant, snd_nxt: u64) {
        self.round_start = now;
        self.last_ack = now;
        self.end_seq = snd_nxt;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    /// One RTT sample `delay` in slow start; true when slow start should end.
    pub(super) fn update(
        &mut self,
        sample: &AckSample,
        delay: Duration,
        delay_min: Duration,
        cwnd: u32,
    ) -> bool {
        if !self.enabled || self.found || cwnd < LOW_WINDOW {
            return false;
        }
        if sample.snd_una > self.end_seq {
            self.reset_round(sample.now, sample.snd_nxt);
        }
        let now = sample.now;
        if now - self.last_ack <= ACK_DELTA {
            self.last_ack = now;
            // Without pacing, ACKs of a burst may come back within half the RTT.
            let threshold = (delay_min + ACK_DELAY) / 2;
            if now - self.round_start > threshold {
                self.found = true;
            }
        }
        self.curr_rtt = Some(self.curr_rtt.map_or(delay, |c| c.min(delay)));
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else {
            let thresh = (delay_min / 8).clamp(DELAY_MIN, DELAY_MAX);
            if self.curr_rtt.is_some_and(|c| c > delay_min + thresh) {
                self.found = true;
            }
        }
        self.found
    }
}
