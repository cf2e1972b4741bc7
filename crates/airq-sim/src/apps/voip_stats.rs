//! The quality of a one-way VoIP stream as its receiver experiences it: one-way delay,
//! RFC 3550 interarrival jitter, loss (late packets included when the playout buffer
//! is fixed), and the E-model's R and MOS ([`crate::apps::emodel`]).
//!
//! The caller records every packet sent and every packet received, in arrival order.
//! Two jitter buffers are modelled ([`JitterBuffer`]):
//!
//! - `Adaptive`: the buffer follows the jitter, holding packets 2·J (J the RFC 3550
//!   jitter at the end of the stream) beyond their network delay, and loses none to
//!   lateness. Mouth-to-ear delay Ta = packetisation + mean one-way delay + 2·J.
//! - `Fixed { playout_delay }`: each packet is played `playout_delay` after it was
//!   sent (the simulator's clocks are one clock, so the receiver can anchor playout to
//!   the send time); a packet arriving later counts as lost. Every packet played has
//!   the same Ta = packetisation + playout_delay.
//!
//! Packets sent but not (yet) received when the statistics are read count as lost, so
//! read them after the last packets have had time to arrive.

#![warn(missing_docs)]

use crate::apps::emodel::{self, Codec, Connection, EModelError, Rating};
use crate::metrics::distribution::Distribution;
use airq::{Duration, Instant};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How the receiver turns arrivals into playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JitterBuffer {
    /// Sized to twice the measured jitter; no packet is late.
    Adaptive,
    /// Playout at send time + `playout_delay`; later arrivals are lost.
    Fixed {
        /// Delay from sending to playout.
        playout_delay: Duration,
    },
}

/// A VoIP stream's codec and receiver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VoipConfig {
    /// Delay the codec and packetisation add before the first packet is sent: the
    /// speech of one packet must be recorded first (20 ms for G.711 at 50 packets/s).
    pub packetisation_delay: Duration,
    /// The codec as the E-model sees it.
    pub codec: Codec,
    /// The receiver's playout buffer.
    pub jitter_buffer: JitterBuffer,
}

impl Default for VoipConfig {
    /// G.711 in 20 ms packets with packet loss concealment, as VoIP phones send it,
    /// and an adaptive jitter buffer.
    fn default() -> Self {
        VoipConfig {
            packetisation_delay: Duration::from_millis(20),
            codec: Codec::G711_PLC,
            jitter_buffer: JitterBuffer::Adaptive,
        }
    }
}

/// A record the statistics cannot take, or statistics that cannot be computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VoipError {
    /// This sequence number was already recorded as sent.
    DuplicateSent(u64),
    /// A packet was received that was never recorded as sent.
    UnknownSequence(u64),
    /// A packet's receive time is before its send time.
    ReceivedBeforeSent(u64),
    /// Arrivals must be recorded in arrival order; this one is earlier than the last.
    ArrivalOutOfOrder(u64),
    /// No packet was sent, so there is nothing to rate.
    NothingSent,
    /// The E-model refused the stream's figures.
    EModel(EModelError),
}

impl fmt::Display for VoipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VoipError::DuplicateSent(s) => write!(f, "VoIP packet {s} recorded as sent twice"),
            VoipError::UnknownSequence(s) => {
                write!(f, "VoIP packet {s} received but never recorded as sent")
            }
            VoipError::ReceivedBeforeSent(s) => {
                write!(f, "VoIP packet {s} received before it was sent")
            }
            VoipError::ArrivalOutOfOrder(s) => write!(
                f,
                "VoIP packet {s} recorded out of arrival order (earlier than the last arrival)"
            ),
            VoipError::NothingSent => f.write_str("no VoIP packet was sent"),
            VoipError::EModel(e) => write!(f, "VoIP rating: {e}"),
        }
    }
}

impl std::error::Error for VoipError {}

/// How long after it was sent a packet is due at its receiver: one still on its way
/// when a run ends, sent less than this before, is neither received nor lost (the
/// ping's reply-due time; far above any one-way delay of a working network).
pub const DELIVERY_DUE: Duration = Duration::from_secs(1);

/// Statistics of one stream.
#[derive(Clone, Debug)]
pub struct VoipStats {
    config: VoipConfig,
    /// When each packet was sent, by sequence number.
    sent: BTreeMap<u64, Instant>,
    received: BTreeSet<u64>,
    late: u64,
    duplicates: u64,
    /// One-way delay of every first copy received, in arrival order.
    delays: Vec<Duration>,
    last_arrival: Option<Instant>,
    /// RFC 3550 A.8 jitter estimate, in nanoseconds scaled by 16.
    jitter_x16_ns: u64,
    /// Packets of lower sequence numbers were sent before the measurements started:
    /// their arrivals are not counted.
    first_counted: u64,
}

impl VoipStats {
    /// Empty statistics for a stream with `config`.
    pub fn new(config: VoipConfig) -> VoipStats {
        VoipStats {
            config,
            sent: BTreeMap::new(),
            received: BTreeSet::new(),
            late: 0,
            duplicates: 0,
            delays: Vec::new(),
            last_arrival: None,
            jitter_x16_ns: 0,
            first_counted: 0,
        }
    }

    /// The measurements start now (after a warm-up): everything counted so far is
    /// forgotten, and packets sent so far are not counted when they arrive.
    pub fn restart_counting(&mut self) {
        self.first_counted = self
            .sent
            .last_key_value()
            .map_or(self.first_counted, |(s, _)| s + 1);
        self.sent.clear();
        self.received.clear();
        self.late = 0;
        self.duplicates = 0;
        self.delays.clear();
        self.last_arrival = None;
        self.jitter_x16_ns = 0;
    }

    /// The configuration.
    pub fn config(&self) -> &VoipConfig {
        &self.config
    }

    /// Packet `seq` was sent at `at`.
    pub fn record_sent(&mut self, seq: u64, at: Instant) -> Result<(), VoipError> {
        if self.sent.insert(seq, at).is_some() {
            return Err(VoipError::DuplicateSent(seq));
        }
        Ok(())
    }

    /// The statistics as they stand at `end`, leaving out the packets sent less than
    /// `due` before it and not received yet: they may still be on their way, so they are
    /// neither lost nor received (as for pings, whose reply is due 1 s after the
    /// request). Without this, every run's last packet in flight counted as lost.
    pub fn as_of(&self, end: Instant, due: Duration) -> VoipStats {
        let mut settled = self.clone();
        settled
            .sent
            .retain(|seq, at| *at + due <= end || self.received.contains(seq));
        settled
    }

    /// Packet `seq`, sent at `sent`, arrived at `received`. Arrivals are recorded in
    /// the order they happen; a second copy of a packet is counted and ignored.
    pub fn record_received(
        &mut self,
        seq: u64,
        sent: Instant,
        received: Instant,
    ) -> Result<(), VoipError> {
        if seq < self.first_counted {
            return Ok(());
        }
        if !self.sent.contains_key(&seq) {
            return Err(VoipError::UnknownSequence(seq));
        }
        let delay = received
            .checked_duration_since(sent)
            .ok_or(VoipError::ReceivedBeforeSent(seq))?;
        if self.last_arrival.is_some_and(|last| received < last) {
            return Err(VoipError::ArrivalOutOfOrder(seq));
        }
        if !self.received.insert(seq) {
            self.duplicates += 1;
            return Ok(());
        }
        self.last_arrival = Some(received);
        // RFC 3550 §6.4.1 / A.8: D is the change of transit time from the previous
        // arrival; J += (|D| − J)/16, kept ×16 in integers as A.8 does.
        if let Some(&previous) = self.delays.last() {
            let d = delay.as_nanos().abs_diff(previous.as_nanos());
            self.jitter_x16_ns = self.jitter_x16_ns - ((self.jitter_x16_ns + 8) >> 4) + d;
        }
        self.delays.push(delay);
        if let JitterBuffer::Fixed { playout_delay } = self.config.jitter_buffer {
            if delay > playout_delay {
                self.late += 1;
            }
        }
        Ok(())
    }

    /// Packets recorded as sent.
    pub fn sent(&self) -> u64 {
        self.sent.len() as u64
    }

    /// Distinct packets received (late ones included).
    pub fn received(&self) -> u64 {
        self.received.len() as u64
    }

    /// Packets received after their playout time (only with a fixed jitter buffer).
    pub fn late(&self) -> u64 {
        self.late
    }

    /// Second and later copies of packets already received.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    /// Fraction of the packets sent that the network lost (not received at all).
    pub fn network_loss_fraction(&self) -> Option<f64> {
        self.fraction_of_sent(self.sent() - self.received())
    }

    /// Fraction of the packets sent that were not played: lost by the network or,
    /// with a fixed jitter buffer, late.
    pub fn loss_fraction(&self) -> Option<f64> {
        self.fraction_of_sent(self.sent() - self.received() + self.late)
    }

    fn fraction_of_sent(&self, packets: u64) -> Option<f64> {
        (!self.sent.is_empty()).then(|| packets as f64 / self.sent() as f64)
    }

    /// The RFC 3550 interarrival jitter J after the last arrival.
    pub fn jitter(&self) -> Duration {
        Duration::from_nanos(self.jitter_x16_ns >> 4)
    }

    /// One-way delays of the packets received (late ones included), in milliseconds.
    pub fn delay_distribution_ms(&self) -> Distribution {
        let ms = self.delays.iter().map(|d| ms(*d)).collect();
        Distribution::new(ms).expect("delays are whole nanoseconds, always finite")
    }

    /// The mouth-to-ear delay Ta the E-model is given, in ms: see the module notes.
    /// With an adaptive buffer and nothing received, packetisation alone.
    pub fn mouth_to_ear_ms(&self) -> f64 {
        let packetisation = ms(self.config.packetisation_delay);
        match self.config.jitter_buffer {
            JitterBuffer::Fixed { playout_delay } => packetisation + ms(playout_delay),
            JitterBuffer::Adaptive => {
                let mean = self.delay_distribution_ms().mean().unwrap_or(0.0);
                packetisation + mean + 2.0 * ms(self.jitter())
            }
        }
    }

    /// The E-model rating of the stream: Ta from [`Self::mouth_to_ear_ms`], Ppl from
    /// [`Self::loss_fraction`] taken as random loss (BurstR = 1), the configured codec
    /// and every other parameter at its G.107 default.
    pub fn rating(&self) -> Result<Rating, VoipError> {
        let loss = self.loss_fraction().ok_or(VoipError::NothingSent)?;
        let conn = Connection::new(self.mouth_to_ear_ms(), 100.0 * loss);
        emodel::rate(self.config.codec, &conn).map_err(VoipError::EModel)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> Instant {
        Instant::from_millis(ms)
    }

    /// A 50 packets/s stream whose packet `seq` takes `delay_ms(seq)` (None: lost).
    fn stream(
        config: VoipConfig,
        packets: u64,
        delay_ms: impl Fn(u64) -> Option<u64>,
    ) -> VoipStats {
        let mut stats = VoipStats::new(config);
        let mut arrivals = Vec::new();
        for seq in 0..packets {
            stats.record_sent(seq, at_ms(20 * seq)).unwrap();
            if let Some(d) = delay_ms(seq) {
                arrivals.push((at_ms(20 * seq + d), seq));
            }
        }
        arrivals.sort();
        for (received, seq) in arrivals {
            stats
                .record_received(seq, at_ms(20 * seq), received)
                .unwrap();
        }
        stats
    }

    fn fixed(playout_ms: u64) -> VoipConfig {
        VoipConfig {
            jitter_buffer: JitterBuffer::Fixed {
                playout_delay: Duration::from_millis(playout_ms),
            },
            ..VoipConfig::default()
        }
    }

    #[test]
    fn network_loss_is_counted_against_packets_sent() {
        let stats = stream(VoipConfig::default(), 100, |s| (s % 10 != 3).then_some(30));
        assert_eq!((stats.sent(), stats.received(), stats.late()), (100, 90, 0));
        assert_eq!(stats.network_loss_fraction(), Some(0.1));
        assert_eq!(stats.loss_fraction(), Some(0.1));
        assert_eq!(stats.jitter(), Duration::ZERO);
        let delays = stats.delay_distribution_ms();
        assert_eq!(
            (delays.len(), delays.min(), delays.max()),
            (90, Some(30.0), Some(30.0))
        );
    }

    #[test]
    fn a_fixed_buffer_loses_the_packets_that_miss_playout() {
        // 5 % lost, 5 % delayed to 60 ms against a 50 ms playout delay.
        let delay = |s: u64| match s % 20 {
            0 => None,
            1 => Some(60),
            _ => Some(30),
        };
        let stats = stream(fixed(50), 200, delay);
        assert_eq!((stats.received(), stats.late()), (190, 10));
        assert_eq!(stats.network_loss_fraction(), Some(0.05));
        assert_eq!(stats.loss_fraction(), Some(0.1));
        // An adaptive buffer plays them all.
        assert_eq!(
            stream(VoipConfig::default(), 200, delay).loss_fraction(),
            Some(0.05)
        );
        // A packet exactly at the playout time is in time.
        assert_eq!(stream(fixed(60), 200, delay).late(), 0);
    }

    #[test]
    fn jitter_follows_rfc_3550() {
        // Delays alternate 10 and 30 ms, so |D| = 20 ms at every arrival after the
        // first and J_n = J_(n−1) + (20 − J_(n−1))/16 = 20·(1 − (15/16)^(n−1)) ms.
        for packets in [2u64, 5, 17, 200] {
            let stats = stream(VoipConfig::default(), packets, |s| Some(10 + 20 * (s % 2)));
            let expected = 20.0 * (1.0 - (15.0f64 / 16.0).powi(packets as i32 - 1));
            let got = ms(stats.jitter());
            assert!(
                (got - expected).abs() < 1e-5,
                "{packets} packets: J {got} ms, RFC {expected} ms"
            );
        }
        // An irregular sequence against the floating-point formula of §6.4.1, taken in
        // arrival order (delays of up to 41 ms reorder packets sent 20 ms apart).
        let delay = |s: u64| Some((s * 7919) % 37 + 5);
        let stats = stream(VoipConfig::default(), 300, delay);
        let mut arrivals: Vec<(u64, u64)> =
            (0..300).map(|s| (20 * s + delay(s).unwrap(), s)).collect();
        arrivals.sort();
        let mut j = 0.0;
        let mut prev: Option<f64> = None;
        for (_, s) in arrivals {
            let d = delay(s).unwrap() as f64;
            if let Some(p) = prev {
                j += ((d - p).abs() - j) / 16.0;
            }
            prev = Some(d);
        }
        assert!(
            (ms(stats.jitter()) - j).abs() < 1e-5,
            "{} vs {j}",
            ms(stats.jitter())
        );
    }

    #[test]
    fn mos_comes_from_the_emodel_with_the_documented_delay_budget() {
        // Adaptive: Ta = 20 ms packetisation + mean delay + 2·J.
        let steady = stream(VoipConfig::default(), 500, |s| (s % 100 != 0).then_some(30));
        let expected = emodel::rate(Codec::G711_PLC, &Connection::new(50.0, 1.0)).unwrap();
        assert_eq!(steady.mouth_to_ear_ms(), 50.0);
        assert_eq!(steady.rating().unwrap(), expected);
        let jittery = stream(VoipConfig::default(), 500, |s| Some(10 + 20 * (s % 2)));
        let j = ms(jittery.jitter());
        assert!((jittery.mouth_to_ear_ms() - (20.0 + 20.0 + 2.0 * j)).abs() < 1e-9);
        // Fixed: Ta = packetisation + playout delay, whatever the network did.
        let stats = stream(fixed(80), 500, |_| Some(30));
        assert_eq!(stats.mouth_to_ear_ms(), 100.0);
        let expected = emodel::rate(Codec::G711_PLC, &Connection::new(100.0, 0.0)).unwrap();
        assert_eq!(stats.rating().unwrap().r, expected.r);
    }

    #[test]
    fn a_bufferbloated_call_rates_worse() {
        let good = stream(VoipConfig::default(), 500, |_| Some(5))
            .rating()
            .unwrap();
        let bloated = stream(VoipConfig::default(), 500, |s| Some(300 + (s * 13) % 200));
        let bloated = bloated.rating().unwrap();
        assert!(good.mos > 4.3, "good MOS {}", good.mos);
        assert!(bloated.mos < good.mos - 0.5, "bloated MOS {}", bloated.mos);
    }

    #[test]
    fn bad_records_are_errors_and_duplicates_are_counted() {
        let mut stats = VoipStats::new(VoipConfig::default());
        assert_eq!(stats.rating().unwrap_err(), VoipError::NothingSent);
        assert_eq!(stats.loss_fraction(), None);
        stats.record_sent(1, at_ms(20)).unwrap();
        stats.record_sent(2, at_ms(40)).unwrap();
        assert_eq!(
            stats.record_sent(1, at_ms(60)),
            Err(VoipError::DuplicateSent(1))
        );
        assert_eq!(
            stats.record_received(9, at_ms(0), at_ms(5)),
            Err(VoipError::UnknownSequence(9))
        );
        assert_eq!(
            stats.record_received(1, at_ms(10), at_ms(5)),
            Err(VoipError::ReceivedBeforeSent(1))
        );
        stats.record_received(2, at_ms(20), at_ms(40)).unwrap();
        assert_eq!(
            stats.record_received(1, at_ms(0), at_ms(30)),
            Err(VoipError::ArrivalOutOfOrder(1))
        );
        stats.record_received(2, at_ms(20), at_ms(45)).unwrap();
        assert_eq!((stats.received(), stats.duplicates()), (1, 1));
        assert_eq!(stats.loss_fraction(), Some(0.5));
        assert_eq!(
            VoipError::UnknownSequence(9).to_string(),
            "VoIP packet 9 received but never recorded as sent"
        );
    }

    #[test]
    fn nothing_received_still_rates_as_total_loss() {
        let stats = stream(VoipConfig::default(), 50, |_| None);
        assert_eq!(stats.loss_fraction(), Some(1.0));
        let rating = stats.rating().unwrap();
        assert!(rating.mos < 1.5, "MOS {}", rating.mos);
    }
}

#[cfg(test)]
mod due_tests {
    use super::*;

    /// A packet still on its way when the run ends is not lost; once its delivery is
    /// due, it is.
    #[test]
    fn packets_in_flight_at_the_end_are_neither_received_nor_lost() {
        let ms = Instant::from_millis;
        let mut stats = VoipStats::new(VoipConfig::default());
        for seq in 0..100 {
            stats.record_sent(seq, ms(20 * seq)).unwrap();
            if seq < 99 {
                stats
                    .record_received(seq, ms(20 * seq), ms(20 * seq + 5))
                    .unwrap();
            }
        }
        assert_eq!(stats.loss_fraction(), Some(0.01), "as recorded");
        let end = stats.as_of(ms(2000), DELIVERY_DUE);
        assert_eq!((end.sent(), end.loss_fraction()), (99, Some(0.0)));
        let later = stats.as_of(ms(2980), DELIVERY_DUE);
        assert_eq!((later.sent(), later.loss_fraction()), (100, Some(0.01)));
    }
}
