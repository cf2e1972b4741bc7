//! A per-packet airtime estimate from the exact TXTIME model: the duration of an A-MPDU
//! of identical MPDUs, divided by their number.
//!
//! Where mac80211 ([`crate::phy::mac80211_estimate`]) scales a table and guesses an
//! aggregation length from the rate, this asks the caller for the aggregation length and
//! amortises the true preamble, training fields, delimiters, padding, SERVICE and tail
//! bits and symbol rounding of IEEE 802.11-2020 19.4.3 (HT), 21.4.3 (VHT) and IEEE
//! 802.11ax-2021 27.4.3 (HE) over it. Legacy rates cannot aggregate, so they get the
//! TXTIME of one PPDU (Clauses 16.3.4 and 17.4.3). The estimate covers the PPDU only:
//! no SIFS, no (Block)Ack, no contention, which a simulator charges separately (airq-sim's
//! `mac::timing`).

use super::ampdu::ampdu_ppdu_duration_uniform;
use super::band::Band;
use super::rate::Rate;
use crate::time::Duration;

/// The airtime one MPDU of `mpdu_bytes` takes when sent in an A-MPDU of
/// `mpdus_per_ampdu` identical MPDUs at `rate` in `band`: the A-MPDU's TXTIME divided by
/// the number of MPDUs, rounded up to a nanosecond.
///
/// With `mpdus_per_ampdu` 0 or 1, or a DSSS/OFDM rate, the MPDU is sent alone, without
/// an A-MPDU delimiter, and the result is its PPDU's TXTIME. (HT may send a single MPDU
/// outside an A-MPDU; VHT and HE always aggregate, so a lone MPDU there pays the 4-byte
/// delimiter: pass 1 and this returns the un-delimited TXTIME, a few bits shorter.)
pub fn exact_expected_airtime(
    rate: &Rate,
    mpdu_bytes: u32,
    mpdus_per_ampdu: u32,
    band: Band,
) -> Duration {
    if mpdus_per_ampdu <= 1 || !rate.supports_ampdu() {
        return rate.ppdu_duration(mpdu_bytes, band);
    }
    match ampdu_ppdu_duration_uniform(rate, mpdu_bytes, mpdus_per_ampdu, band) {
        Ok(ampdu) => Duration::from_nanos(ampdu.as_nanos().div_ceil(mpdus_per_ampdu as u64)),
        // Unreachable: the rate aggregates and the count is at least 2.
        Err(_) => rate.ppdu_duration(mpdu_bytes, band),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{ChannelWidth, GuardInterval, HeGi, OfdmRate};

    #[test]
    fn ht_aggregate_amortises_the_preamble() {
        // 16 × 1538 B at HT MCS 7, 20 MHz, long GI takes 3080 µs (see ampdu.rs):
        // 3080 / 16 = 192.5 µs per MPDU. (mac80211 expects 191 µs for the same packet.)
        let rate = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let per_mpdu = exact_expected_airtime(&rate, 1538, 16, Band::Ghz5);
        assert_eq!(per_mpdu, Duration::from_nanos(192_500));
        // Alone: 36 + 4 · ⌈(16 + 12304 + 6) / 260⌉ = 36 + 4 · 48 = 228 µs.
        let alone = exact_expected_airtime(&rate, 1538, 1, Band::Ghz5);
        assert_eq!(alone, Duration::from_micros(228));
        assert_eq!(exact_expected_airtime(&rate, 1538, 0, Band::Ghz5), alone);
    }

    #[test]
    fn he_aggregate_rounds_up_to_a_nanosecond() {
        // HE80 MCS 11 2 SS GI 0.8 (N_DBPS 16333), 64 × 1538 B: PSDU 63 · 1544 + 1542
        // = 98814 B, padded to 98816. N_SYM = ⌈(790528 + 16) / 16333⌉ = ⌈48.4⌉ = 49.
        // 50.4 + 49 · 13.6 = 716.8 µs; / 64 = 11.2 µs.
        let rate = Rate::he(11, 2, ChannelWidth::Mhz80, HeGi::Gi0_8).unwrap();
        let per_mpdu = exact_expected_airtime(&rate, 1538, 64, Band::Ghz5);
        assert_eq!(per_mpdu, Duration::from_nanos(11_200));
        // 3 MPDUs: 2 · 1544 + 1542 = 4630 → 4632 B; ⌈(37056 + 16) / 16333⌉ = 3 symbols;
        // 50.4 + 40.8 = 91.2 µs; / 3 = 30.4 µs.
        let per_mpdu = exact_expected_airtime(&rate, 1538, 3, Band::Ghz5);
        assert_eq!(per_mpdu, Duration::from_nanos(30_400));
    }

    #[test]
    fn legacy_rates_do_not_aggregate() {
        let rate = Rate::ofdm(OfdmRate::Mbps54);
        assert_eq!(
            exact_expected_airtime(&rate, 1500, 32, Band::Ghz5),
            Duration::from_micros(244)
        );
    }
}
