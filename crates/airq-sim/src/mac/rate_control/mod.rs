//! Rate control: which PHY rate each PPDU of a transmitter goes at. Either the
//! station's fixed rate (the seeds' testbeds fix it; the default), or Minstrel-HT as
//! Linux runs it ([`minstrel_ht`], [`sample`], over the rates of [`groups`]).
//!
//! The retry chain (MRR): the hardware sends a frame at the chain's first rate, and
//! after each failed try either again or at the next stage's rate, each stage `tries`
//! times, while no Ack or BlockAck comes back; once one does, or the series ends, the
//! driver takes the frames back and sends the failed ones again in its next aggregate,
//! which starts with fresh rates, at the chain's first stage (ath9k's `ath_set_rates`
//! for each aggregate's first frame, `ath_tx_sched_aggr`). Here one PPDU is one try:
//! a PPDU goes at the stage that its TID's unanswered tries in a row have reached
//! ([`RateControl::tx_rate`]), each try a PPDU of its own with its real airtime, so an
//! A-MPDU that got no BlockAck goes again at the chain's lower rates, and the subframes
//! that one with a BlockAck lost go again from the first stage. A frame
//! that starts a probe goes alone (ath9k's `ath_lookup_rate`: "if rate selected is a
//! probe rate then avoid aggregation of this packet") for one try at the probed rate,
//! in the chain's first slot, then follows the chain from its second stage (mac80211
//! fills a probe's other slots from the rate table's, `rate_control_fill_sta_table`),
//! still alone: the hardware retries the probe frame by itself.
//! Every stage after the first goes behind RTS/CTS, as Linux's Minstrel-HT asks
//! ([`minstrel_ht`]); a probe does not.

pub mod groups;
pub mod minstrel_ht;
pub mod sample;

use crate::engine::rng::RngStream;
use airq::phy::Rate;
use airq::Instant;
use groups::{RateIdx, RateTable, UnsupportedRate};
use minstrel_ht::{MinstrelHt, MinstrelHtParams, MinstrelHtStats, MrrStage};

/// How a link's rate is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RateControlConfig {
    /// Always the link's configured rate.
    #[default]
    Fixed,
    /// Minstrel-HT over the rates the configured one implies ([`groups::RateTable`]).
    MinstrelHt(MinstrelHtParams),
}

/// The rate of one PPDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxRate {
    pub rate: Rate,
    /// A probe: one MPDU, one try at a rate being sampled.
    pub probe: bool,
    /// One MPDU alone: a probe, or the MPDU of a failed probe on the rest of its chain
    /// (the hardware retries a probe frame by itself, through its later rate slots).
    pub alone: bool,
    /// Behind an RTS/CTS exchange: a fallback stage of the retry chain.
    pub rts: bool,
}

impl TxRate {
    /// A rate chosen by no rate control: no probe, no RTS of its own.
    pub fn fixed(rate: Rate) -> TxRate {
        TxRate {
            rate,
            probe: false,
            alone: false,
            rts: false,
        }
    }
}

/// One transmitter's rate control towards one receiver (an `AnyController`-style enum:
/// no `dyn` in the per-PPDU path).
#[derive(Clone, Debug)]
pub enum RateControl {
    Fixed(Rate),
    MinstrelHt(Box<MinstrelState>),
}

/// Minstrel-HT with what the transmit path asked of it.
#[derive(Clone, Debug)]
pub struct MinstrelState {
    pub minstrel: MinstrelHt,
    /// The rate of the last probe handed out, until a one-MPDU PPDU at that rate
    /// completes (a driver may queue more PPDUs behind a probe before it completes).
    probe: Option<RateIdx>,
    /// The rate of the last completed PPDU (mac80211's `tx_stats.last_rate`).
    last: RateIdx,
}

impl RateControl {
    /// The rate control of a link configured at `rate`; `rng` draws Minstrel-HT's
    /// sample table.
    pub fn new(
        config: &RateControlConfig,
        rate: Rate,
        rng: &mut RngStream,
    ) -> Result<RateControl, UnsupportedRate> {
        Ok(match config {
            RateControlConfig::Fixed => RateControl::Fixed(rate),
            RateControlConfig::MinstrelHt(params) => {
                let minstrel = MinstrelHt::new(*params, RateTable::new(&rate)?, rng);
                let last = minstrel.chain()[0].rate;
                RateControl::MinstrelHt(Box::new(MinstrelState {
                    minstrel,
                    probe: None,
                    last,
                }))
            }
        })
    }

    /// Whether the rate can change from PPDU to PPDU.
    pub fn is_adaptive(&self) -> bool {
        matches!(self, RateControl::MinstrelHt(_))
    }

    /// The rate of the next PPDU of a TID whose last `unanswered` tries in a row got
    /// no Ack or BlockAck (how far the hardware has walked the retry chain), starting
    /// with a failed probe's MPDU if `probed`, at `now`.
    pub fn tx_rate(&mut self, unanswered: u8, probed: bool, now: Instant) -> TxRate {
        match self {
            RateControl::Fixed(rate) => TxRate::fixed(*rate),
            RateControl::MinstrelHt(s) => {
                if unanswered == 0 {
                    if let Some(idx) = s.minstrel.probe_rate(now) {
                        s.probe = Some(idx);
                        return TxRate {
                            rate: s.minstrel.table().rate(idx),
                            probe: true,
                            alone: true,
                            rts: false,
                        };
                    }
                }
                let chain = s.minstrel.chain();
                let mut position = u32::from(unanswered);
                // A failed probe's frame goes on by itself through the chain's later
                // stages (its series: the probe, then those); once they end unanswered
                // too, the driver retries it in a new series like any frame.
                if probed && position > 0 && chain.len() > 1 {
                    let rest = total_tries(&chain[1..]);
                    if position <= rest {
                        let stage = stage_at(&chain[1..], position - 1);
                        return TxRate {
                            rate: s.minstrel.table().rate(stage.rate),
                            probe: false,
                            alone: true,
                            rts: stage.rts,
                        };
                    }
                    position -= 1 + rest;
                }
                // Past the chain's last try the series has ended unanswered: the driver
                // retries in a new one, from the first stage.
                let stage = stage_at(chain, position % total_tries(chain));
                TxRate {
                    rate: s.minstrel.table().rate(stage.rate),
                    probe: false,
                    alone: false,
                    rts: stage.rts,
                }
            }
        }
    }

    /// The outcome of a PPDU at `rate`: `mpdus` sent, `acked` received.
    pub fn tx_status(&mut self, rate: &Rate, mpdus: u32, acked: u32, now: Instant) {
        if let RateControl::MinstrelHt(s) = self {
            let Some(idx) = s.minstrel.table().index_of(rate) else {
                debug_assert!(false, "a rate the table does not hold: {rate}");
                return;
            };
            let probe = mpdus == 1 && s.probe == Some(idx);
            if probe {
                s.probe = None;
            }
            s.minstrel.tx_status(idx, mpdus, acked, probe, now);
            s.last = idx;
        }
    }

    /// The rate AQL's estimate uses: the last one a PPDU went at (mac80211's
    /// `ieee80211_calc_expected_tx_airtime` takes `sta->deflink.tx_stats.last_rate`);
    /// before any, the chain's first.
    pub fn last_rate(&self) -> Rate {
        match self {
            RateControl::Fixed(rate) => *rate,
            RateControl::MinstrelHt(s) => s.minstrel.table().rate(s.last),
        }
    }

    /// The station's expected throughput as mac80211 learns it from rate control,
    /// kbit/s (`sta_get_expected_throughput`): Minstrel-HT's
    /// ([`MinstrelHt::expected_throughput_kbps`]; 0 until its statistics hold a rate
    /// delivered 10% of the time or more). For a fixed rate, what Minstrel-HT says of a
    /// rate delivered every time (counted as 90%, its cap), in A-MPDUs of the length it
    /// guesses for the rate when the link aggregates (`ampdu`), one frame each when not;
    /// a DSSS rate's average packet takes its bits over the data rate.
    pub fn expected_throughput_kbps(&self, ampdu: bool) -> u32 {
        match self {
            RateControl::MinstrelHt(s) => s.minstrel.expected_throughput_kbps(),
            RateControl::Fixed(rate) => {
                let duration_ns = match rate {
                    Rate::Dsss(_) => {
                        (groups::AVG_PKT_BYTES * 8 * 1_000_000 / u64::from(rate.data_rate_kbps()))
                            as u32
                    }
                    _ => groups::avg_packet_duration_ns(rate),
                };
                let ampdu_len = if ampdu {
                    minstrel_ht::guessed_ampdu_len(duration_ns)
                } else {
                    1
                };
                minstrel_ht::tp_avg_kbps(minstrel_ht::tp_avg(
                    duration_ns,
                    minstrel_ht::OVERHEAD_US,
                    ampdu_len,
                    minstrel_ht::frac(1, 1),
                ))
            }
        }
    }

    /// Minstrel-HT's counters, if it runs.
    pub fn minstrel_stats(&self) -> Option<&MinstrelHtStats> {
        match self {
            RateControl::Fixed(_) => None,
            RateControl::MinstrelHt(s) => Some(s.minstrel.stats()),
        }
    }
}

/// Tries of the whole chain (at least 1).
fn total_tries(chain: &[MrrStage]) -> u32 {
    chain
        .iter()
        .map(|st| u32::from(st.tries))
        .sum::<u32>()
        .max(1)
}

/// The stage of the chain that try `k` (from 0) falls in; the last past its end.
fn stage_at(chain: &[MrrStage], k: u32) -> MrrStage {
    let mut tried = 0u32;
    for st in chain {
        tried += u32::from(st.tries);
        if k < tried {
            return *st;
        }
    }
    chain[chain.len() - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::RngRoot;
    use airq::phy::{ChannelWidth, GuardInterval};
    use airq::Duration;

    fn mcs(m: u8) -> Rate {
        Rate::ht(m, ChannelWidth::Mhz20, GuardInterval::Long).unwrap()
    }

    fn minstrel() -> RateControl {
        let config = RateControlConfig::MinstrelHt(MinstrelHtParams::default());
        let mut rng = RngRoot::new(1).stream("minstrel", 0);
        RateControl::new(&config, mcs(7), &mut rng).unwrap()
    }

    /// `minstrel_ht_get_expected_throughput` by hand. HT20 long GI MCS 0: an average
    /// packet's data takes 1,477,000 ns, guessed 2 to an A-MPDU, so 108,000 / 2 + 1,477,000
    /// ns a packet; at 90% (3686 / 4096) 100 × (3686 × 10^6 / 1,531,000) = 240,700, 58
    /// after the 12-bit shift, × 10 × 1200 × 8 / 1024 = 5437 kbit/s. MCS 15 (two
    /// streams, 74,000 ns, 16 to an A-MPDU): 1114, 104,437 kbit/s. MCS 0 alone (no
    /// aggregation): 108,000 + 1,477,000 ns, 56, 5250.
    #[test]
    fn expected_throughput_is_minstrels() {
        let fixed = |m| RateControl::Fixed(mcs(m));
        assert_eq!(fixed(0).expected_throughput_kbps(true), 5437);
        assert_eq!(fixed(15).expected_throughput_kbps(true), 104_437);
        assert_eq!(fixed(0).expected_throughput_kbps(false), 5250);
        // 802.11b 1 Mbit/s: 9.6 ms of data for 1200 bytes.
        let dsss = Rate::dsss(
            airq::phy::DsssDataRate::Mbps1,
            airq::phy::DsssPreamble::Long,
        )
        .unwrap();
        assert_eq!(
            RateControl::Fixed(dsss).expected_throughput_kbps(false),
            843
        );
        // Minstrel-HT before any statistics: nothing delivered yet, 0 (mac80211 then
        // keeps the station's parameters).
        assert_eq!(minstrel().expected_throughput_kbps(true), 0);
    }

    #[test]
    fn fixed_is_the_configured_rate() {
        let mut rng = RngRoot::new(1).stream("minstrel", 0);
        let mut rc = RateControl::new(&RateControlConfig::Fixed, mcs(5), &mut rng).unwrap();
        assert_eq!(rc.tx_rate(3, false, Instant::ZERO).rate, mcs(5));
        assert_eq!(rc.last_rate(), mcs(5));
        assert!(!rc.is_adaptive());
    }

    /// Retries walk the chain stage by stage and stay on the last.
    #[test]
    fn retries_walk_the_chain() {
        let mut rc = minstrel();
        // MCS 0-5 work and 6-7 fail, over several updates, so that the chain spreads
        // over four rates (5, 4, 3 and the max-probability one).
        let mut now = Instant::ZERO;
        for _ in 0..20 {
            now += Duration::from_millis(10);
            for m in 0..8 {
                rc.tx_status(&mcs(m), 10, if m <= 5 { 10 } else { 0 }, now);
            }
        }
        let RateControl::MinstrelHt(s) = &rc else {
            unreachable!()
        };
        let chain: Vec<_> = s.minstrel.chain().to_vec();
        let rates: Vec<_> = chain.iter().map(|st| st.rate).collect();
        assert_eq!(&rates[..3], &[5, 4, 3], "{chain:?}");
        let table = s.minstrel.table().clone();
        let mut expected = Vec::new();
        for (i, st) in chain.iter().enumerate() {
            for _ in 0..st.tries {
                expected.push((table.rate(st.rate), i > 0));
            }
        }
        let late = now + Duration::from_millis(1);
        // The first try (none unanswered yet) is the first stage's, without RTS/CTS;
        // each unanswered try moves on, the fallback stages behind RTS/CTS.
        assert!(!rc.tx_rate(0, false, late).rts);
        for (r, (rate, rts)) in expected.iter().enumerate().skip(1) {
            let tx = rc.tx_rate(r as u8, false, late);
            assert_eq!((tx.rate, tx.rts, tx.alone), (*rate, *rts, false), "try {r}");
        }
        // Past the last try the series has ended: the driver's next one starts over.
        let past = expected.len() as u8 + 3;
        let tx = rc.tx_rate(past, false, late);
        assert_eq!((tx.rate, tx.rts), expected[3]);
        // After a failed probe the first stage is skipped: the probe's frame goes on
        // alone from the second stage, behind RTS/CTS; when that series ends too, it
        // goes again from the first stage, in an aggregate.
        let after_probe: Vec<_> = expected[usize::from(chain[0].tries)..].to_vec();
        for (r, (rate, rts)) in after_probe.iter().enumerate() {
            let tx = rc.tx_rate(r as u8 + 1, true, late);
            let want = (*rate, *rts, true, false);
            assert_eq!((tx.rate, tx.rts, tx.alone, tx.probe), want, "try {}", r + 1);
        }
        let tx = rc.tx_rate(after_probe.len() as u8 + 1, true, late);
        assert_eq!((tx.rate, tx.rts, tx.alone), (expected[0].0, false, false));
    }

    #[test]
    fn he_is_refused() {
        let he = Rate::he(7, 1, ChannelWidth::Mhz20, airq::phy::HeGi::Gi0_8).unwrap();
        let config = RateControlConfig::MinstrelHt(MinstrelHtParams::default());
        let mut rng = RngRoot::new(1).stream("minstrel", 0);
        assert!(RateControl::new(&config, he, &mut rng).is_err());
    }
}
