//! Rate control: which PHY rate each PPDU of a transmitter goes at. Either the
//! station's fixed rate (the seeds' testbeds fix it; the default), or Minstrel-HT as
//! Linux runs it ([`minstrel_ht`], [`sample`], over the rates of [`groups`]).
//!
//! The retry chain (MRR): the hardware sends a frame at the chain's first rate, and
//! after each failed try either again or at the next stage's rate, each stage `tries`
//! times, until the frame gets through or the retry limit drops it. Here one PPDU is
//! one try: a PPDU goes at the stage its first MPDU has reached by its failed
//! transmissions ([`RateControl::tx_rate`]), so the subframes of a failed A-MPDU go
//! again at the chain's lower rates, each attempt a PPDU of its own with its real
//! airtime; past the chain's last stage they stay on it until the retry limit. A frame
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
use minstrel_ht::{MinstrelHt, MinstrelHtParams, MinstrelHtStats};

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

    /// The rate of the next PPDU, whose first MPDU has failed `retries` times (the
    /// first of them a probe if `probed`), at `now`.
    pub fn tx_rate(&mut self, retries: u8, probed: bool, now: Instant) -> TxRate {
        match self {
            RateControl::Fixed(rate) => TxRate::fixed(*rate),
            RateControl::MinstrelHt(s) => {
                if retries == 0 {
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
                // After a failed probe, the chain's later stages (the probe had the
                // first slot).
                let chain = s.minstrel.chain();
                let after_probe = probed && retries > 0;
                let (chain, retries) = match after_probe {
                    true if chain.len() > 1 => (&chain[1..], retries - 1),
                    _ => (chain, retries),
                };
                let mut tried = 0u32;
                let mut stage = chain[chain.len() - 1];
                for st in chain {
                    tried += u32::from(st.tries);
                    if u32::from(retries) < tried {
                        stage = *st;
                        break;
                    }
                }
                TxRate {
                    rate: s.minstrel.table().rate(stage.rate),
                    probe: false,
                    alone: after_probe,
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

    /// Minstrel-HT's counters, if it runs.
    pub fn minstrel_stats(&self) -> Option<&MinstrelHtStats> {
        match self {
            RateControl::Fixed(_) => None,
            RateControl::MinstrelHt(s) => Some(s.minstrel.stats()),
        }
    }
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
        // The first try (no retries yet) is the first stage's, without RTS/CTS; the
        // fallback stages' go behind it.
        assert!(!rc.tx_rate(0, false, late).rts);
        for (r, (rate, rts)) in expected.iter().enumerate().skip(1) {
            let tx = rc.tx_rate(r as u8, false, late);
            assert_eq!((tx.rate, tx.rts), (*rate, *rts), "retry {r}");
        }
        let past = expected.len() as u8 + 3;
        let tx = rc.tx_rate(past, false, late);
        assert_eq!((tx.rate, tx.rts), (table.rate(chain[3].rate), true));
        // After a failed probe the first stage is skipped: the retries start on the
        // second stage, behind RTS/CTS, and walk on from there.
        let after_probe: Vec<_> = expected[usize::from(chain[0].tries)..].to_vec();
        for (r, (rate, rts)) in after_probe.iter().enumerate() {
            let tx = rc.tx_rate(r as u8 + 1, true, late);
            assert_eq!(
                (tx.rate, tx.rts),
                (*rate, *rts),
                "retry {} after a probe",
                r + 1
            );
            assert!(tx.alone && !tx.probe);
        }
    }

    #[test]
    fn he_is_refused() {
        let he = Rate::he(7, 1, ChannelWidth::Mhz20, airq::phy::HeGi::Gi0_8).unwrap();
        let config = RateControlConfig::MinstrelHt(MinstrelHtParams::default());
        let mut rng = RngRoot::new(1).stream("minstrel", 0);
        assert!(RateControl::new(&config, he, &mut rng).is_err());
    }
}
