//! The airtime estimate of Linux mac80211 (`net/mac80211/airtime.c`), reproduced from its
//! behaviour so that a simulator can charge airtime and size AQL the way the kernel does.
//!
//! The kernel does not evaluate TXTIME. For HT, VHT and HE it keeps, per group of rates
//! (encoding, width, streams, GI), the airtime of an average 1024-byte packet, computed
//! from a bits-per-symbol table, and scales it by the frame length; a fixed overhead of
//! 36 + 4 · streams µs stands in for the preamble. For legacy rates it adds a fixed
//! overhead to 8 · len / rate:
//!
//! - CCK/DSSS: 192 µs preamble + PLCP header (halved with the short preamble) + 10 µs SIFS;
//! - OFDM: 20 µs preamble + 16 µs SIFS (no 2.4 GHz signal extension).
//!
//! The table works in k-symbols (symbols · 1024) and "µs · 1024" for a 1024-byte packet:
//! ksyms = ⌈8192 · 1024 / (streams · bits_per_symbol)⌉, then · 4 µs (LGI) or
//! · 4 · 18 / 20 (SGI, 3.6 µs) for HT/VHT, · 16 · 17 / 20, · 16 · 18 / 20 or · 16 for HE
//! (13.6, 14.4, 16.0 µs), each division rounding down. The kernel stores each duration in
//! a `u16` shifted right by a per-group shift (the one that makes the group's MCS 0 fit
//! in 16 bits), losing up to 2^shift − 1 of precision. **This module reproduces that
//! rounding**, so its results equal the kernel's; the tests show a case where it changes
//! the result. Its bits-per-symbol tables are the kernel's too, which are not always
//! the standard's N_DBPS (VHT20 MCS 9 is 346 per stream; the HE values are rounded and
//! some differ from 27.5); for the standard's values use [`crate::phy::Rate`] and
//! [`crate::phy::exact_expected_airtime`]. The VHT 160 MHz group shift is computed, as in
//! the kernel, from 243 bits per symbol (not 234); a test checks that this gives the same
//! shift. The kernel's tables cover HT and VHT up to 4 streams and HE up to 8; beyond
//! that these functions return `None`, where the kernel returns 0.
//!
//! One deliberate difference: the kernel multiplies duration by length in a `u32`, which
//! wraps for the slowest rates and lengths above about 3300 bytes; here the product is
//! computed in 64 bits.

use super::dsss::DsssPreamble;
use super::error::PhyKind;
use super::he::HeGi;
use super::ht::GuardInterval;
use super::rate::Rate;

/// The average packet the table is built for.
pub const AVG_PKT_BYTES: u32 = 1024;

/// What `ieee80211_calc_expected_tx_airtime` adds to the length it is given (the kernel's
/// comment calls it the Ethernet header length).
pub const EXPECTED_TX_EXTRA_BYTES: u32 = 38;

/// The floor of an aggregated expected airtime, µs.
pub const MIN_EXPECTED_TX_AIRTIME_US: u32 = 4;

/// The kernel's table entry for one HT/VHT/HE rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mac80211RateDuration {
    /// Airtime of a 1024-byte packet's data, in µs · 1024, after the `u16` table rounding.
    pub avg_pkt_airtime_us_x1024: u32,
    /// The per-PPDU overhead: 36 + 4 · streams µs.
    pub overhead_us: u32,
}

/// Bits per symbol per stream, HT MCS 0–7 (kernel: MCS_GROUP): [20 MHz, 40 MHz].
const HT_BITS_PER_SYMBOL: [[u32; 8]; 2] = [
    [26, 52, 78, 104, 156, 208, 234, 260],
    [54, 108, 162, 216, 324, 432, 486, 540],
];

/// Bits per symbol per stream, VHT MCS 0–9 (kernel: VHT_GROUP): [20, 40, 80, 160 MHz].
const VHT_BITS_PER_SYMBOL: [[u32; 10]; 4] = [
    [26, 52, 78, 104, 156, 208, 234, 260, 312, 346],
    [54, 108, 162, 216, 324, 432, 486, 540, 648, 720],
    [117, 234, 351, 468, 702, 936, 1053, 1170, 1404, 1560],
    [234, 468, 702, 936, 1404, 1872, 2106, 2340, 2808, 3120],
];

/// The bits per symbol the kernel's VHT group shift is computed from (VHT_GROUP_SHIFT):
/// MCS 0's, except 243 at 160 MHz.
const VHT_SHIFT_BITS_PER_SYMBOL: [u32; 4] = [26, 54, 117, 243];

/// Bits per symbol per stream, HE MCS 0–11 (kernel: HE_GROUP): [20, 40, 80, 160 MHz].
const HE_BITS_PER_SYMBOL: [[u32; 12]; 4] = [
    [
        115, 230, 345, 475, 705, 936, 1051, 1166, 1411, 1555, 1756, 1944,
    ],
    [
        230, 475, 705, 936, 1411, 1872, 2102, 2347, 2808, 3124, 3513, 3902,
    ],
    [
        489, 979, 1468, 1958, 2937, 3916, 4406, 4896, 5875, 6523, 7344, 8164,
    ],
    [
        979, 1958, 2937, 3916, 5875, 7833, 8827, 9806, 11764, 13060, 14702, 16329,
    ],
];

/// The symbol time the table multiplies k-symbols by.
#[derive(Clone, Copy)]
enum SymbolTime {
    /// HT/VHT long GI, 4.0 µs.
    Long,
    /// HT/VHT short GI, 3.6 µs.
    Short,
    /// HE, 13.6, 14.4 or 16.0 µs.
    He(HeGi),
}

impl SymbolTime {
    /// Airtime in µs · 1024 of `ksyms` k-symbols (MCS_SYMBOL_TIME, HE_SYMBOL_TIME).
    const fn of_ksyms(self, ksyms: u32) -> u32 {
        match self {
            SymbolTime::Long => ksyms * 4,
            SymbolTime::Short => ksyms * 4 * 18 / 20,
            SymbolTime::He(HeGi::Gi0_8) => ksyms * 16 * 17 / 20,
            SymbolTime::He(HeGi::Gi1_6) => ksyms * 16 * 18 / 20,
            SymbolTime::He(HeGi::Gi3_2) => ksyms * 16,
        }
    }
}

/// k-symbols of a 1024-byte packet at `bits_per_symbol` (MCS_N_KSYMS).
const fn ksyms(bits_per_symbol: u32) -> u32 {
    ((AVG_PKT_BYTES * 8) << 10).div_ceil(bits_per_symbol)
}

/// The shift that makes `duration` fit in 16 bits (GROUP_SHIFT).
const fn group_shift(duration: u32) -> u32 {
    (u32::BITS - duration.leading_zeros()).saturating_sub(16)
}

/// The table value for one rate: computed, shifted into a `u16`, shifted back.
const fn table_duration(
    time: SymbolTime,
    streams: u32,
    bits_per_symbol: u32,
    group_bits_per_symbol: u32,
) -> u32 {
    let shift = group_shift(time.of_ksyms(ksyms(streams * group_bits_per_symbol)));
    let duration = time.of_ksyms(ksyms(streams * bits_per_symbol));
    ((duration >> shift) as u16 as u32) << shift
}

const fn gi_time(gi: GuardInterval) -> SymbolTime {
    match gi {
        GuardInterval::Long => SymbolTime::Long,
        GuardInterval::Short => SymbolTime::Short,
    }
}

/// The kernel's table entry for an HT, VHT or HE rate (ieee80211_get_rate_duration);
/// `None` for legacy rates, which have no entry, and for VHT beyond 4 streams.
pub const fn rate_duration(rate: &Rate) -> Option<Mac80211RateDuration> {
    let (streams, avg_pkt_airtime_us_x1024) = match rate {
        Rate::Dsss(_) | Rate::Ofdm(_) => return None,
        Rate::Ht(r) => {
            let table = &HT_BITS_PER_SYMBOL[r.width() as usize];
            let streams = r.nss() as u32;
            let bps = table[(r.mcs() % 8) as usize];
            let d = table_duration(gi_time(r.gi()), streams, bps, table[0]);
            (streams, d)
        }
        Rate::Vht(r) => {
            if r.nss() > 4 {
                return None;
            }
            let width = r.width() as usize;
            let streams = r.nss() as u32;
            let bps = VHT_BITS_PER_SYMBOL[width][r.mcs() as usize];
            let group_bps = VHT_SHIFT_BITS_PER_SYMBOL[width];
            let d = table_duration(gi_time(r.gi()), streams, bps, group_bps);
            (streams, d)
        }
        Rate::He(r) => {
            let table = &HE_BITS_PER_SYMBOL[r.width() as usize];
            let streams = r.nss() as u32;
            let bps = table[r.mcs() as usize];
            let d = table_duration(SymbolTime::He(r.gi()), streams, bps, table[0]);
            (streams, d)
        }
    };
    Some(Mac80211RateDuration {
        avg_pkt_airtime_us_x1024,
        overhead_us: 36 + 4 * streams,
    })
}

/// The legacy estimate (ieee80211_calc_legacy_rate_duration): fixed overhead plus
/// ⌊8 · len · 10 / rate in 100 kbit/s⌋ µs.
const fn legacy_airtime_us(rate: &Rate, len_bytes: u32) -> Option<u32> {
    let (overhead_us, kbps) = match rate {
        Rate::Dsss(r) => {
            let preamble = match r.preamble() {
                DsssPreamble::Long => 144 + 48,
                DsssPreamble::Short => (144 + 48) >> 1,
            };
            (preamble + 10, r.data_rate_kbps())
        }
        Rate::Ofdm(r) => (20 + 16, r.data_rate_kbps()),
        _ => return None,
    };
    let bitrate_100kbps = (kbps / 100) as u64;
    let payload_us = (len_bytes as u64 * 8 * 10) / bitrate_100kbps;
    Some(saturate_u32(overhead_us + payload_us))
}

/// `value` as a `u32`, saturating at `u32::MAX` for absurd lengths instead of wrapping.
const fn saturate_u32(value: u64) -> u32 {
    if value > u32::MAX as u64 {
        u32::MAX
    } else {
        value as u32
    }
}

/// `duration · len / 1024 / 1024`, in 64 bits.
const fn scale_to_len(avg_pkt_airtime_us_x1024: u32, len_bytes: u32) -> u32 {
    let us = avg_pkt_airtime_us_x1024 as u64 * len_bytes as u64 / AVG_PKT_BYTES as u64 / 1024;
    saturate_u32(us)
}

/// The airtime in µs of receiving a frame of `len_bytes` at `rate`
/// (ieee80211_calc_rx_airtime). `None` where the kernel has no table entry (VHT beyond
/// 4 streams).
pub const fn rx_airtime_us(rate: &Rate, len_bytes: u32) -> Option<u32> {
    if let Some(us) = legacy_airtime_us(rate, len_bytes) {
        return Some(us);
    }
    match rate_duration(rate) {
        Some(d) => {
            let us = scale_to_len(d.avg_pkt_airtime_us_x1024, len_bytes);
            Some(us.saturating_add(d.overhead_us))
        }
        None => None,
    }
}

/// The airtime in µs of transmitting a frame of `len_bytes` through a retry chain of
/// `(rate, attempts)` pairs (ieee80211_calc_tx_airtime): the sum of each rate's airtime
/// times its attempts. Like the kernel, the sum stops at the first pair with no attempts
/// or without a table entry.
pub fn tx_airtime_us(rates: &[(Rate, u8)], len_bytes: u32) -> u32 {
    let mut total = 0u32;
    for (rate, attempts) in rates {
        if *attempts == 0 {
            break;
        }
        match rx_airtime_us(rate, len_bytes) {
            Some(us) => total = total.saturating_add(us.saturating_mul(*attempts as u32)),
            None => break,
        }
    }
    total
}

/// The aggregation length the kernel assumes, as a shift: the overhead is divided by
/// 2^agg_shift (2 to 64 MPDUs per A-MPDU), longer aggregates for faster rates.
const fn agg_shift(avg_pkt_airtime_us_x1024: u32, is_he: bool) -> u32 {
    let d = avg_pkt_airtime_us_x1024;
    if d > 400 * 1024 {
        1
    } else if d > 250 * 1024 {
        2
    } else if d > 150 * 1024 {
        3
    } else if d > 70 * 1024 {
        4
    } else if !is_he || d > 20 * 1024 {
        5
    } else {
        6
    }
}

/// The airtime in µs the kernel expects a packet of `len_bytes` to take when sent at
/// `rate` (ieee80211_calc_expected_tx_airtime, the station case), as AQL charges it.
///
/// [`EXPECTED_TX_EXTRA_BYTES`] are added to the length. Legacy rates, and any rate when
/// `ampdu` is false, get the full per-frame airtime ([`rx_airtime_us`]). Otherwise the
/// overhead is amortised over an assumed aggregate of 2^agg_shift MPDUs, agg_shift being
/// 1 above 400 µs per 1024 bytes, 2 above 250, 3 above 150, 4 above 70, 5 above 20 (or
/// for any non-HE rate), else 6; the result is at least 4 µs. For the kernel's fallback
/// without a station, pass the lowest basic rate and `ampdu = false`.
pub const fn expected_tx_airtime_us(rate: &Rate, len_bytes: u32, ampdu: bool) -> Option<u32> {
    let len_bytes = len_bytes.saturating_add(EXPECTED_TX_EXTRA_BYTES);
    let d = match rate_duration(rate) {
        Some(d) if ampdu => d,
        _ => return rx_airtime_us(rate, len_bytes),
    };
    let is_he = matches!(rate.phy_kind(), PhyKind::He);
    let shift = agg_shift(d.avg_pkt_airtime_us_x1024, is_he);
    let us = scale_to_len(d.avg_pkt_airtime_us_x1024, len_bytes);
    let us = us.saturating_add(d.overhead_us >> shift);
    if us < MIN_EXPECTED_TX_AIRTIME_US {
        Some(MIN_EXPECTED_TX_AIRTIME_US)
    } else {
        Some(us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{ChannelWidth, DsssDataRate, DsssPreamble, OfdmRate};
    use ChannelWidth::{Mhz160, Mhz20, Mhz80};
    use GuardInterval::{Long, Short};

    fn ht(mcs: u8, gi: GuardInterval) -> Rate {
        Rate::ht(mcs, Mhz20, gi).unwrap()
    }

    #[test]
    fn ht_table_entries_by_hand() {
        // HT20 MCS 7, 1 SS, LGI: ksyms = ⌈8388608 / 260⌉ = 32264; · 4 = 129056.
        // Group shift from MCS 0: ⌈8388608 / 26⌉ = 322639; · 4 = 1290556, a 21-bit number,
        // so shift 5; 129056 >> 5 = 4033, << 5 = 129056 (no loss).
        let mcs7 = rate_duration(&ht(7, Long)).unwrap();
        assert_eq!(mcs7.avg_pkt_airtime_us_x1024, 129_056);
        assert_eq!(mcs7.overhead_us, 40);
        // MCS 0: 1290556 >> 5 = 40329, << 5 = 1290528 (28 lost to the u16 table).
        let mcs0 = rate_duration(&ht(0, Long)).unwrap();
        assert_eq!(mcs0.avg_pkt_airtime_us_x1024, 1_290_528);
        // MCS 15 (2 SS): overhead 36 + 8.
        assert_eq!(rate_duration(&ht(15, Short)).unwrap().overhead_us, 44);
    }

    #[test]
    fn rx_airtime_ht() {
        // MCS 7: 129056 · 1500 / 1048576 = 184.6 → 184, + 40 = 224 µs.
        assert_eq!(rx_airtime_us(&ht(7, Long), 1500), Some(224));
        // MCS 0: 1290528 · 1500 / 1048576 = 1846.1 → 1846, + 40 = 1886 µs.
        assert_eq!(rx_airtime_us(&ht(0, Long), 1500), Some(1886));
    }

    #[test]
    fn rx_airtime_reproduces_the_table_rounding() {
        // MCS 0, 13 bytes: 1290528 · 13 / 1048576 = 15.9997 → 15; + 40 = 55 µs. Without
        // the u16 rounding it would be 1290556 · 13 / 1048576 = 16.00003 → 16 (56 µs).
        assert_eq!(rx_airtime_us(&ht(0, Long), 13), Some(55));
    }

    #[test]
    fn rx_airtime_legacy() {
        // CCK 1 Mbit/s long: 192 + 10 + 1500 · 80 / 10 = 12202 µs.
        let cck1 = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(rx_airtime_us(&cck1, 1500), Some(12_202));
        // CCK 11 Mbit/s short: 96 + 10 + ⌊120000 / 110⌋ = 106 + 1090 = 1196 µs.
        let cck11 = Rate::dsss(DsssDataRate::Mbps11, DsssPreamble::Short).unwrap();
        assert_eq!(rx_airtime_us(&cck11, 1500), Some(1_196));
        // CCK 5.5 Mbit/s long: 202 + ⌊120000 / 55⌋ = 202 + 2181 = 2383 µs.
        let cck55 = Rate::dsss(DsssDataRate::Mbps5_5, DsssPreamble::Long).unwrap();
        assert_eq!(rx_airtime_us(&cck55, 1500), Some(2_383));
        // OFDM 54 Mbit/s: 36 + ⌊120000 / 540⌋ = 36 + 222 = 258 µs.
        assert_eq!(
            rx_airtime_us(&Rate::ofdm(OfdmRate::Mbps54), 1500),
            Some(258)
        );
    }

    #[test]
    fn tx_airtime_sums_the_retry_chain() {
        // 2 attempts at MCS 7 (224) and 1 at MCS 0 (1886): 448 + 1886 = 2334 µs.
        let chain = [(ht(7, Long), 2), (ht(0, Long), 1)];
        assert_eq!(tx_airtime_us(&chain, 1500), 2_334);
        // The chain ends at the first entry without attempts.
        let chain = [(ht(7, Long), 2), (ht(0, Long), 0), (ht(0, Long), 5)];
        assert_eq!(tx_airtime_us(&chain, 1500), 448);
        assert_eq!(tx_airtime_us(&[], 1500), 0);
    }

    #[test]
    fn expected_tx_airtime_aggregated_ht() {
        // MCS 7, 1500 B: len 1538; 129056 is above 70 · 1024 = 71680 and not above
        // 150 · 1024, so agg_shift 4; 129056 · 1538 / 1048576 = 189.3 → 189, + 40 >> 4 = 2:
        // 191 µs.
        assert_eq!(expected_tx_airtime_us(&ht(7, Long), 1500, true), Some(191));
        // MCS 0: above 400 · 1024, agg_shift 1: 1290528 · 1538 / 1048576 = 1892.9 → 1892,
        // + 40 >> 1 = 20: 1912 µs.
        assert_eq!(expected_tx_airtime_us(&ht(0, Long), 1500, true), Some(1912));
        // Not aggregated: the full rx airtime of 1538 bytes, 189 + 40 = 229 µs.
        assert_eq!(expected_tx_airtime_us(&ht(7, Long), 1500, false), Some(229));
    }

    #[test]
    fn expected_tx_airtime_vht() {
        // VHT80 MCS 9 1 SS SGI: ksyms ⌈8388608 / 1560⌉ = 5378; · 72 / 20 = 19360.8 → 19360.
        // Group shift from 117 bps: ksyms 71698, · 3.6 = 258112, 18 bits: shift 2; no loss.
        // 19360 ≤ 20 · 1024 but not HE, so agg_shift 5: 19360 · 1538 / 1048576 = 28.4 → 28,
        // + 40 >> 5 = 1: 29 µs.
        let r = Rate::vht(9, 1, Mhz80, Short).unwrap();
        assert_eq!(rate_duration(&r).unwrap().avg_pkt_airtime_us_x1024, 19_360);
        assert_eq!(expected_tx_airtime_us(&r, 1500, true), Some(29));
        // Beyond 4 streams the kernel has no entry.
        let r = Rate::vht(9, 5, Mhz80, Short).unwrap();
        assert_eq!(rx_airtime_us(&r, 1500), None);
        assert_eq!(expected_tx_airtime_us(&r, 1500, true), None);
    }

    #[test]
    fn expected_tx_airtime_he_special_case_and_floor() {
        // HE80 MCS 11 2 SS GI 0.8: bps 2 · 8164 = 16328, ksyms ⌈513.8⌉ = 514,
        // · 16 · 17 / 20 = 6990.4 → 6990. At or below 20 · 1024 and HE: agg_shift 6.
        // 6990 · 1538 / 1048576 = 10.25 → 10, + 44 >> 6 = 0: 10 µs.
        let r = Rate::he(11, 2, Mhz80, HeGi::Gi0_8).unwrap();
        assert_eq!(rate_duration(&r).unwrap().avg_pkt_airtime_us_x1024, 6_990);
        assert_eq!(expected_tx_airtime_us(&r, 1500, true), Some(10));
        // HE160 MCS 11 8 SS: ksyms ⌈8388608 / 130632⌉ = 65, · 13.6 = 884. A 0-byte packet
        // (38 with the extra bytes): 884 · 38 / 1048576 = 0, + 68 >> 6 = 1; floor 4 µs.
        let r = Rate::he(11, 8, Mhz160, HeGi::Gi0_8).unwrap();
        assert_eq!(expected_tx_airtime_us(&r, 0, true), Some(4));
    }

    #[test]
    fn expected_tx_airtime_legacy_is_per_frame() {
        // OFDM 24 Mbit/s, 1500 B + 38: 36 + ⌊1538 · 80 / 240⌋ = 36 + 512 = 548 µs,
        // aggregated or not.
        let r = Rate::ofdm(OfdmRate::Mbps24);
        assert_eq!(expected_tx_airtime_us(&r, 1500, true), Some(548));
        assert_eq!(expected_tx_airtime_us(&r, 1500, false), Some(548));
    }

    #[test]
    fn vht160_shift_basis_243_gives_the_same_shift_as_234() {
        for time in [SymbolTime::Long, SymbolTime::Short] {
            for streams in 1..=4 {
                let kernel = group_shift(time.of_ksyms(ksyms(streams * 243)));
                let standard = group_shift(time.of_ksyms(ksyms(streams * 234)));
                assert_eq!(kernel, standard);
            }
        }
    }

    #[test]
    fn every_table_entry_fits_its_u16_slot() {
        // The shift comes from MCS 0, the slowest rate of each group, so no faster rate
        // of the group overflows its u16 slot.
        let check = |time: SymbolTime, table: &[u32], group_bps: u32, max_streams: u32| {
            for streams in 1..=max_streams {
                let shift = group_shift(time.of_ksyms(ksyms(streams * group_bps)));
                for &bps in table {
                    assert!(time.of_ksyms(ksyms(streams * bps)) >> shift <= u16::MAX as u32);
                }
            }
        };
        for time in [SymbolTime::Long, SymbolTime::Short] {
            for table in HT_BITS_PER_SYMBOL {
                check(time, &table, table[0], 4);
            }
            for (table, group_bps) in VHT_BITS_PER_SYMBOL.iter().zip(VHT_SHIFT_BITS_PER_SYMBOL) {
                check(time, table, group_bps, 4);
            }
        }
        for gi in [HeGi::Gi0_8, HeGi::Gi1_6, HeGi::Gi3_2] {
            for table in HE_BITS_PER_SYMBOL {
                check(SymbolTime::He(gi), &table, table[0], 8);
            }
        }
    }

    #[test]
    fn absurd_lengths_saturate_instead_of_wrapping() {
        // The kernel's u32 product wraps here; this model saturates.
        assert_eq!(rx_airtime_us(&ht(0, Long), u32::MAX), Some(u32::MAX));
        let cck1 = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(rx_airtime_us(&cck1, u32::MAX), Some(u32::MAX));
        assert_eq!(
            expected_tx_airtime_us(&ht(0, Long), u32::MAX, true),
            Some(u32::MAX)
        );
    }

    #[test]
    fn vht20_mcs9_uses_the_kernel_table_value() {
        // VHT20 MCS 9 3 SS: the kernel uses 3 · 346 = 1038 bits per symbol, the standard
        // 1040. ksyms ⌈8388608 / 1038⌉ = 8082; · 4 = 32328 (shift 3 from 3 · 26: no loss).
        let r = Rate::vht(9, 3, Mhz20, Long).unwrap();
        assert_eq!(rate_duration(&r).unwrap().avg_pkt_airtime_us_x1024, 32_328);
    }
}
