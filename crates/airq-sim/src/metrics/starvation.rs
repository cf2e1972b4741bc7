//! Starvation: the AP holds packets for a station, sends it nothing and delivers none
//! of them to it for [`STARVATION_AFTER`] or longer of the measured time. Not a stall
//! ([`super::Stall`]): the medium may stay busy all along with other stations' frames —
//! a scheduler that never hands out a station's TXQ, or a driver that never finds room
//! for it, starves it without ever idling the radio, and the stall detector cannot see
//! it. A correct AP serves every station it holds packets for well within a second
//! (mac80211's round robin and airtime DRR visit every listed TXQ each round).
//!
//! A station the AP transmits to is served even if what it sends is lost: a slow
//! link whose frames collide or fail for a second (two 12.5 ms frames at 1 Mbit/s,
//! both lost) has had its turns, and its figures are those of its link.
//!
//! Watched at the series' sampling step (`Scenario::sample_step`, 200 ms by default):
//! a station is waiting from the first sample at which the AP holds packets for it and,
//! since the sample before, it has received no downlink byte and the AP has spent no
//! airtime on it; starved once it has waited that long; the episode ends at the first
//! sample at which it has received again, the AP has sent to it again, or the AP holds
//! nothing for it. The times are therefore those of the samples (one step of
//! precision), and a wait shorter than the threshold plus a step may go unseen.
//! Packets that an airtime group held to its limit keeps back are not counted as held
//! (as for stalls).
//!
//! An episode in which, at every sample up to the threshold, the station's packets all
//! waited in the qdisc and the MAC layer held none of them is a lock-out (`above_mac`;
//! what follows does not change it: the lock-out made the second): the driver's queue
//! limit, shared by the stations (a legacy driver's per-AC `pending_frames`), was taken
//! by other stations' frames, so the scheduler had nothing of this station to hand
//! out. That is what a driver without per-station queues does under a qdisc (the
//! seeds' driver queue lock-out), not a scheduler passing the station over.
//!
//! An episode in which, at every sample up to the threshold, the AP held another
//! station's packets in an AC of higher priority than any of this station's waited
//! behind a higher-priority AC (`behind_higher_ac`): EDCA's priority between the AP's
//! ACs (or a scheduler serving them in that order) gives a saturated higher AC the
//! medium, which starves the lower ones (the QoS-versus-fairness experiment of seed
//! 000 §4.3), the design's behaviour rather than a station passed over.

use airq::{Duration, StationId};

/// How long a station may wait, with packets held for it at the AP and none delivered,
/// before it counts as starved. TCP's first retransmission timeout is 1 s (RFC 6298
/// §2.1); a flow that waits that long has lost its ACK clock.
pub const STARVATION_AFTER: Duration = Duration::from_secs(1);

/// One episode of starvation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Starvation {
    pub station: StationId,
    /// The sample from which the AP held packets for the station, sent it nothing and it
    /// received none.
    pub since: Duration,
    /// The sample at which it received again, was sent to again or the AP held nothing
    /// for it; `None`: not before the end of the run.
    pub until: Option<Duration>,
    /// At every sample of the wait up to the threshold, all its held packets were in the
    /// qdisc, none in the MAC layer or below (locked out of the driver's shared queue).
    pub above_mac: bool,
    /// At every sample of the wait up to the threshold, the AP held another station's
    /// packets in an AC of higher priority than any of this station's.
    pub behind_higher_ac: bool,
}

/// One station at one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StationSample {
    /// Packets the AP holds for it (none counted that an airtime group's limit keeps
    /// back).
    pub held: u64,
    /// Of them, those in the MAC layer or below it (not in the qdisc).
    pub held_below_qdisc: u64,
    /// The AP held another station's packets in an AC of higher priority than any of
    /// this station's it held.
    pub behind_higher_ac: bool,
    /// Downlink bytes it has received so far.
    pub rx_bytes_down: u64,
    /// Airtime of the AP's exchanges with it so far, lost ones included
    /// ([`super::StationMetrics::airtime_down`]).
    pub airtime_down: Duration,
}

/// Per station: waiting since when, and its figures at the last sample.
#[derive(Clone, Copy, Debug, Default)]
struct Waiting {
    since: Option<Duration>,
    /// Every sample of the wait so far had all the held packets in the qdisc.
    above_mac: bool,
    /// Every sample of the wait so far was behind a higher-priority AC.
    behind_higher_ac: bool,
    last: StationSample,
    /// The open episode, an index into the list of episodes.
    episode: Option<usize>,
}

/// Watches every station for starvation, one sample at a time.
#[derive(Clone, Debug, Default)]
pub struct StarvationWatch {
    stations: Vec<Waiting>,
}

impl StarvationWatch {
    pub fn new(stations: usize) -> StarvationWatch {
        StarvationWatch {
            stations: vec![Waiting::default(); stations],
        }
    }

    /// One sample at `at` of every station, in order. Episodes that reach the
    /// threshold are appended to `episodes`; those that end are closed there.
    pub fn sample(
        &mut self,
        at: Duration,
        stations: impl Iterator<Item = StationSample>,
        episodes: &mut Vec<Starvation>,
    ) {
        for (i, now) in stations.enumerate() {
            let w = &mut self.stations[i];
            let served = now.rx_bytes_down != w.last.rx_bytes_down
                || now.airtime_down != w.last.airtime_down;
            w.last = now;
            let held = now.held;
            let above_mac = now.held_below_qdisc == 0;
            if held == 0 || served {
                if let Some(e) = w.episode.take() {
                    episodes[e].until = Some(at);
                }
                w.since = (held > 0).then_some(at);
                w.above_mac = above_mac;
                w.behind_higher_ac = now.behind_higher_ac;
                continue;
            }
            let since = match w.since {
                Some(since) => {
                    w.above_mac &= above_mac;
                    w.behind_higher_ac &= now.behind_higher_ac;
                    since
                }
                None => {
                    w.above_mac = above_mac;
                    w.behind_higher_ac = now.behind_higher_ac;
                    *w.since.insert(at)
                }
            };
            if w.episode.is_none() && at - since >= STARVATION_AFTER {
                episodes.push(Starvation {
                    station: StationId(i as u32),
                    since,
                    until: None,
                    above_mac: w.above_mac,
                    behind_higher_ac: w.behind_higher_ac,
                });
                w.episode = Some(episodes.len() - 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    /// Samples every 200 ms of one station: (held, cumulative downlink bytes), no
    /// airtime spent on it but where bytes arrive.
    fn watch(samples: &[(u64, u64)]) -> Vec<Starvation> {
        let samples: Vec<StationSample> = samples
            .iter()
            .map(|&(held, rx_bytes_down)| StationSample {
                held,
                held_below_qdisc: held,
                behind_higher_ac: false,
                rx_bytes_down,
                airtime_down: Duration::from_micros(rx_bytes_down),
            })
            .collect();
        watch_samples(&samples)
    }

    fn watch_samples(samples: &[StationSample]) -> Vec<Starvation> {
        let mut w = StarvationWatch::new(1);
        let mut out = Vec::new();
        for (k, &s) in samples.iter().enumerate() {
            w.sample(ms(200 * k as u64), core::iter::once(s), &mut out);
        }
        out
    }

    /// The thirty-stations case (fq_codel_airtime, seed 3): the AP sends the 1 Mbit/s
    /// station a 12.5 ms frame every 0.4 s and each is lost; it has its turns, so it
    /// is not starved, though nothing arrives for more than a second.
    #[test]
    fn a_station_sent_frames_that_are_lost_is_not_starved() {
        let samples: Vec<StationSample> = (0..12)
            .map(|k| StationSample {
                held: 4,
                held_below_qdisc: 4,
                behind_higher_ac: false,
                rx_bytes_down: 1552,
                airtime_down: Duration::from_micros(12_500 * (k / 2)),
            })
            .collect();
        assert!(watch_samples(&samples).is_empty());
        // Without those transmissions it would have been.
        let unserved: Vec<StationSample> = samples
            .iter()
            .map(|s| StationSample {
                airtime_down: Duration::ZERO,
                ..*s
            })
            .collect();
        assert_eq!(watch_samples(&unserved).len(), 1);
    }

    #[test]
    fn served_station_is_not_starved() {
        let samples: Vec<(u64, u64)> = (0..20).map(|k| (5, 1000 * k)).collect();
        assert!(watch(&samples).is_empty());
    }

    #[test]
    fn station_with_nothing_held_is_not_starved() {
        assert!(watch(&[(0, 0); 20]).is_empty());
    }

    #[test]
    fn held_without_delivery_for_the_threshold_is_starved() {
        // Held from 200 ms; nothing delivered until the sample at 1.4 s, which delivers.
        let mut samples = vec![(0, 0)];
        samples.extend([(3, 0); 6]);
        samples.push((3, 1500));
        let out = watch(&samples);
        assert_eq!(
            out,
            vec![Starvation {
                station: StationId(0),
                since: ms(200),
                until: Some(ms(1400)),
                above_mac: false,
                behind_higher_ac: false,
            }]
        );
    }

    #[test]
    fn a_wait_just_short_of_the_threshold_is_not_starvation() {
        let mut samples = vec![(0, 0)];
        samples.extend([(3, 0); 5]);
        samples.push((3, 1500));
        assert!(watch(&samples).is_empty());
    }

    /// A slow station's frames fill the legacy driver's queue limit and a fast
    /// station's 20 packets wait in the qdisc for 1.4 s: a lock-out, if none of them
    /// reached the MAC layer before the threshold (one that gets two into the driver
    /// 200 ms before it is served, 1.2 s into its wait, was still locked out).
    #[test]
    fn a_wait_with_every_packet_in_the_qdisc_is_a_lock_out() {
        let in_qdisc = |held| StationSample {
            held,
            held_below_qdisc: 0,
            behind_higher_ac: false,
            rx_bytes_down: 0,
            airtime_down: Duration::ZERO,
        };
        let mut samples: Vec<StationSample> = (0..8).map(|_| in_qdisc(20)).collect();
        let out = watch_samples(&samples);
        assert_eq!(out.len(), 1);
        assert!(out[0].above_mac);
        // Packets reaching the driver after the threshold (the sample at 1 s) leave it a
        // lock-out; one sample with a packet in the MAC layer before it does not.
        samples[6].held_below_qdisc = 2;
        assert!(watch_samples(&samples)[0].above_mac);
        samples[2].held_below_qdisc = 1;
        assert!(!watch_samples(&samples)[0].above_mac);
    }

    /// station-first under `per_ac`: a saturated VO flow to one station and BE to the
    /// other; the BE station waits behind VO at every sample up to the threshold. A
    /// sample without another station's higher-AC packets before it (the VO flow
    /// between two packets) makes it an ordinary episode; one after it does not.
    #[test]
    fn a_wait_behind_a_higher_ac_at_every_sample_is_flagged() {
        let behind = StationSample {
            held: 50,
            held_below_qdisc: 50,
            behind_higher_ac: true,
            rx_bytes_down: 0,
            airtime_down: Duration::ZERO,
        };
        let mut samples = vec![behind; 8];
        let out = watch_samples(&samples);
        assert_eq!(out.len(), 1);
        assert!(out[0].behind_higher_ac);
        samples[6].behind_higher_ac = false;
        assert!(watch_samples(&samples)[0].behind_higher_ac);
        samples[3].behind_higher_ac = false;
        assert!(!watch_samples(&samples)[0].behind_higher_ac);
    }

    #[test]
    fn an_episode_to_the_end_stays_open() {
        let out = watch(&[(2, 0); 10]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].since, ms(0));
        assert_eq!(out[0].until, None);
    }
}
