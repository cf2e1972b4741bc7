//! What a station's link did on the radio, each direction: the mean SNR of its PPDUs
//! (when it has a channel model, [`crate::phy::channel`]) and how many MPDUs went at each
//! PHY rate — with rate control ([`crate::mac::rate_control`]) the distribution Minstrel-HT
//! chose, retries and probes included; with a fixed rate, one entry — and how many of
//! them went behind an RTS/CTS exchange.

use airq::phy::Rate;

/// One direction of one station's link.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RadioMetrics {
    /// Sum of the SNR of PPDUs with a channel, dB, and their count.
    pub snr_db_sum: f64,
    pub snr_ppdus: u64,
    /// MPDUs transmitted at each rate (retries counted each time), in order of first
    /// use.
    pub mpdus_by_rate: Vec<(Rate, u64)>,
    /// MPDUs in PPDUs sent behind an RTS/CTS exchange (Minstrel-HT's fallback stages,
    /// the RTS threshold, RTS/CTS protection), retries counted each time.
    pub rts_mpdus: u64,
}

impl RadioMetrics {
    /// A PPDU of `mpdus` MPDUs at `rate`, behind RTS/CTS if `rts`, received at `snr_db`
    /// if there is a channel.
    pub fn record(&mut self, rate: &Rate, mpdus: usize, rts: bool, snr_db: Option<f64>) {
        if rts {
            self.rts_mpdus += mpdus as u64;
        }
        if let Some(snr) = snr_db {
            self.snr_db_sum += snr;
            self.snr_ppdus += 1;
        }
        match self.mpdus_by_rate.iter_mut().find(|(r, _)| r == rate) {
            Some((_, n)) => *n += mpdus as u64,
            None => self.mpdus_by_rate.push((*rate, mpdus as u64)),
        }
    }

    /// What was recorded after `then` (a measurement window after a warm-up).
    pub fn since(&self, then: &RadioMetrics) -> RadioMetrics {
        let before = |rate: &Rate| {
            then.mpdus_by_rate
                .iter()
                .find(|(r, _)| r == rate)
                .map_or(0, |(_, n)| *n)
        };
        RadioMetrics {
            snr_db_sum: self.snr_db_sum - then.snr_db_sum,
            snr_ppdus: self.snr_ppdus - then.snr_ppdus,
            mpdus_by_rate: self
                .mpdus_by_rate
                .iter()
                .map(|(r, n)| (*r, n - before(r)))
                .filter(|&(_, n)| n > 0)
                .collect(),
            rts_mpdus: self.rts_mpdus - then.rts_mpdus,
        }
    }

    /// The mean SNR of the PPDUs, dB (the mean of dB values); `None` without a channel.
    pub fn mean_snr_db(&self) -> Option<f64> {
        (self.snr_ppdus > 0).then(|| self.snr_db_sum / self.snr_ppdus as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval};

    #[test]
    fn counts_mpdus_per_rate_and_averages_snr() {
        let r = |m| Rate::ht(m, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let mut m = RadioMetrics::default();
        m.record(&r(7), 10, false, Some(30.0));
        m.record(&r(5), 2, true, Some(20.0));
        m.record(&r(7), 4, false, None);
        assert_eq!(m.mpdus_by_rate, vec![(r(7), 14), (r(5), 2)]);
        assert_eq!(m.rts_mpdus, 2);
        assert_eq!(m.mean_snr_db(), Some(25.0));
        assert_eq!(RadioMetrics::default().mean_snr_db(), None);
    }
}
