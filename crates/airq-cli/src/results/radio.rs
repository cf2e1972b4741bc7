//! What a station's link did on the radio, per direction, as the results file keeps it:
//! the mean SNR of its PPDUs (with a channel model, `airq_sim::phy::channel`) and the
//! share of its MPDUs sent at each PHY rate (with rate control, the distribution
//! Minstrel-HT chose, `airq_sim::mac::rate_control`; retries and probes counted each
//! time they went). Measured by `airq_sim::metrics::radio` over the summaries' window
//! (the warm-up left out).

use serde::{Deserialize, Serialize};

/// One direction of one station's link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadioSummary {
    /// Mean SNR of its PPDUs, dB (the mean of the dB values, as Minstrel's and the
    /// kernel's `avg_signal` are); `None` without a channel model.
    pub mean_snr_db: Option<f64>,
    /// MPDUs transmitted, retries included.
    pub mpdus: u64,
    /// Per rate used, the most MPDUs first (ties in order of first use); the shares sum
    /// to 1.
    pub rates: Vec<RateShare>,
    /// Of [`mpdus`](Self::mpdus), those sent behind an RTS/CTS exchange (Minstrel-HT's
    /// fallback stages, the RTS threshold, RTS/CTS protection); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rts_mpdus: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The MPDUs one rate carried.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateShare {
    /// The rate, as `airq::phy` names it.
    pub rate: String,
    /// Its data rate, Mbit/s.
    pub phy_rate_mbps: f64,
    /// MPDUs sent at it.
    pub mpdus: u64,
    /// Their fraction of [`RadioSummary::mpdus`].
    pub share: f64,
}

impl RadioSummary {
    /// A summary of `(rate, data rate Mbit/s, MPDUs)` in order of first use, of the SNR
    /// and of the MPDUs sent behind RTS/CTS.
    pub fn new(
        mean_snr_db: Option<f64>,
        by_rate: Vec<(String, f64, u64)>,
        rts_mpdus: u64,
    ) -> RadioSummary {
        let mpdus: u64 = by_rate.iter().map(|r| r.2).sum();
        let mut rates: Vec<RateShare> = by_rate
            .into_iter()
            .map(|(rate, phy_rate_mbps, n)| RateShare {
                rate,
                phy_rate_mbps,
                mpdus: n,
                share: n as f64 / mpdus as f64,
            })
            .collect();
        rates.sort_by_key(|r| std::cmp::Reverse(r.mpdus)); // stable: ties keep first use
        RadioSummary {
            mean_snr_db,
            mpdus,
            rates,
            rts_mpdus,
        }
    }

    /// The rates' names shortened to what tells them apart: `MCS 7` when all are HT
    /// MCS at 20 MHz long GI, `MCS 7 SGI` when the guard interval varies. Words after
    /// the first (the PHY) that every rate has are left out, `MCS` kept.
    pub fn short_rate_names(&self) -> Vec<String> {
        let words: Vec<Vec<&str>> = self
            .rates
            .iter()
            .map(|r| r.rate.split_whitespace().collect())
            .collect();
        let is_mcs = |ws: &[&str]| ws.len() >= 3 && ws[1] == "MCS";
        let common = |w: &str| {
            w != "MCS"
                && words
                    .iter()
                    .filter(|ws| is_mcs(ws))
                    .all(|ws| ws[2..].contains(&w))
        };
        words
            .iter()
            .zip(&self.rates)
            .map(|(ws, r)| {
                if !is_mcs(ws) {
                    return r.rate.clone(); // a legacy rate: its name is short
                }
                let kept: Vec<&str> = ws[1..]
                    .iter()
                    .enumerate()
                    .filter(|&(i, w)| i < 2 || !common(w))
                    .map(|(_, w)| *w)
                    .collect();
                kept.join(" ")
            })
            .collect()
    }

    /// The `n` most used rates with their shares: `MCS 7 62%, MCS 6 30%`.
    pub fn top_rates(&self, n: usize) -> String {
        self.short_rate_names()
            .iter()
            .zip(&self.rates)
            .take(n)
            .map(|(name, r)| format!("{name} {:.0}%", r.share * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> RadioSummary {
        RadioSummary::new(
            Some(21.5),
            vec![
                ("HT MCS 6 20 MHz LGI".into(), 58.5, 30),
                ("HT MCS 7 20 MHz LGI".into(), 65.0, 62),
                ("HT MCS 5 20 MHz LGI".into(), 52.0, 8),
            ],
            6,
        )
    }

    #[test]
    fn shares_sum_to_one_most_used_first() {
        let s = summary();
        assert_eq!(s.mpdus, 100);
        let shares: Vec<f64> = s.rates.iter().map(|r| r.share).collect();
        assert_eq!(shares, [0.62, 0.30, 0.08]);
        assert_eq!(s.top_rates(2), "MCS 7 62%, MCS 6 30%");
    }

    #[test]
    fn short_names_keep_what_differs() {
        let s = RadioSummary::new(
            None,
            vec![
                ("HT MCS 7 20 MHz SGI".into(), 72.2, 3),
                ("HT MCS 7 20 MHz LGI".into(), 65.0, 1),
                ("OFDM 6 Mbit/s".into(), 6.0, 1),
            ],
            0,
        );
        assert_eq!(
            s.short_rate_names(),
            ["MCS 7 SGI", "MCS 7 LGI", "OFDM 6 Mbit/s"]
        );
    }
}
