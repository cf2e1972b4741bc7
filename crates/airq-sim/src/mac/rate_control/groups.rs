//! The rates Minstrel-HT chooses from, in its groups: one group per (channel width,
//! guard interval, spatial streams), up to ten MCSs each, in the kernel's order (width,
//! then short GI, then streams: `GROUP_IDX` / `VHT_GROUP_IDX` of
//! `net/mac80211/rc80211_minstrel_ht.c`, Linux 6.15), each rate with the airtime of the
//! data part of an average packet that its throughput estimate divides by.
//!
//! A rate is named as the kernel names it, a `u16` of group (bits 4–15) and MCS (bits
//! 0–3) (`MI_RATE`); rate 0 (the first group's MCS 0) doubles as "none" in the sample
//! lists, as there.
//!
//! The station's configured rate says what it supports: its PHY (HT or VHT; mac80211's
//! `minstrel_vht_only` keeps a VHT station on VHT groups), its widest width (every
//! narrower width is supported too), its guard interval (long GI always; short GI if
//! configured) and its streams (every lower count too), and its MCS is the highest
//! supported in each group (HT: `mcs % 8`, as a VHT MCS map's 0–7/0–8/0–9). VHT MCSs the
//! standard excludes (21.5, e.g. MCS 9 at 20 MHz, 1 stream) are unsupported, as
//! `minstrel_get_valid_vht_rates` marks them.

use airq::phy::{ChannelWidth, GuardInterval, Rate};

/// MCSs per group (`MCS_GROUP_RATES`: VHT's ten; HT groups use eight).
pub const MCS_GROUP_RATES: usize = 10;

/// Streams per group at most (`MINSTREL_MAX_STREAMS`).
pub const MAX_STREAMS: u8 = 4;

/// The average packet (`AVG_PKT_SIZE`) and A-MPDU (`AVG_AMPDU_SIZE`) of the duration
/// table.
pub(super) const AVG_PKT_BYTES: u64 = 1200;
const AVG_AMPDU_LEN: u64 = 16;

/// A rate as the kernel indexes it: group and MCS (`MI_RATE`).
pub type RateIdx = u16;

/// `MI_RATE(group, idx)`.
pub const fn rate_idx(group: usize, mcs: usize) -> RateIdx {
    ((group as u16) << 4) | (mcs as u16 & 0xf)
}

/// `MI_RATE_GROUP`.
pub const fn group_of(idx: RateIdx) -> usize {
    (idx >> 4) as usize
}

/// `MI_RATE_IDX`.
pub const fn mcs_of(idx: RateIdx) -> usize {
    (idx & 0xf) as usize
}

/// One group: rates that differ only in modulation and coding.
#[derive(Clone, Debug)]
pub struct McsGroup {
    pub streams: u8,
    /// Supported MCSs, bit per MCS (`mi->supported[group]`).
    pub supported: u16,
    rates: [Option<Rate>; MCS_GROUP_RATES],
    /// Airtime of the data part of one average packet in a 16-packet A-MPDU, ns
    /// (`MCS_DURATION`: symbols for 16 × 1200 bytes, times the symbol time, over 16).
    duration_ns: [u32; MCS_GROUP_RATES],
}

/// Why a station's rate cannot be rate-controlled by Minstrel-HT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedRate(pub &'static str);

/// The groups of a station.
#[derive(Clone, Debug)]
pub struct RateTable {
    groups: Vec<McsGroup>,
}

impl RateTable {
    /// The groups a station configured at `max` supports (see the module's text).
    pub fn new(max: &Rate) -> Result<RateTable, UnsupportedRate> {
        let (widths, short_gi, streams, top_mcs): (&[ChannelWidth], bool, u8, u8) = match max {
            Rate::Ht(r) => (
                widths_up_to(r.width()),
                r.gi() == GuardInterval::Short,
                r.nss(),
                r.mcs() % 8,
            ),
            Rate::Vht(r) => (
                widths_up_to(r.width()),
                r.gi() == GuardInterval::Short,
                r.nss(),
                r.mcs(),
            ),
            Rate::He(_) => {
                return Err(UnsupportedRate(
                    "Linux's minstrel_ht has no HE groups (HE rate control is in the \
                     firmware): use an HT or VHT rate",
                ))
            }
            Rate::Dsss(_) | Rate::Ofdm(_) => {
                return Err(UnsupportedRate(
                    "minstrel_ht is modelled for HT and VHT stations only (not its CCK and \
                     OFDM legacy groups)",
                ))
            }
        };
        if widths.is_empty() {
            return Err(UnsupportedRate(
                "Linux's minstrel_ht has no 160 MHz groups: use 80 MHz or less",
            ));
        }
        if streams > MAX_STREAMS {
            return Err(UnsupportedRate(
                "Linux's minstrel_ht has groups of at most 4 spatial streams",
            ));
        }
        let vht = matches!(max, Rate::Vht(_));
        let mut groups = Vec::new();
        for &width in widths {
            for gi in [GuardInterval::Long, GuardInterval::Short] {
                if gi == GuardInterval::Short && !short_gi {
                    continue;
                }
                for nss in 1..=streams {
                    let mut rates = [None; MCS_GROUP_RATES];
                    let mut duration_ns = [0; MCS_GROUP_RATES];
                    let mut supported = 0u16;
                    for mcs in 0..=top_mcs {
                        let rate = if vht {
                            Rate::vht(mcs, nss, width, gi)
                        } else {
                            Rate::ht(mcs + 8 * (nss - 1), width, gi)
                        };
                        let Ok(rate) = rate else { continue };
                        let i = usize::from(mcs);
                        rates[i] = Some(rate);
                        duration_ns[i] = avg_packet_duration_ns(&rate);
                        supported |= 1 << i;
                    }
                    groups.push(McsGroup {
                        streams: nss,
                        supported,
                        rates,
                        duration_ns,
                    });
                }
            }
        }
        Ok(RateTable { groups })
    }

    pub fn groups(&self) -> &[McsGroup] {
        &self.groups
    }

    /// The rate of a supported index.
    pub fn rate(&self, idx: RateIdx) -> Rate {
        self.groups[group_of(idx)].rates[mcs_of(idx)].expect("a supported rate")
    }

    /// `minstrel_get_duration`: ns of the data part of an average packet.
    pub fn duration_ns(&self, idx: RateIdx) -> u32 {
        self.groups[group_of(idx)].duration_ns[mcs_of(idx)]
    }

    pub fn is_supported(&self, idx: RateIdx) -> bool {
        self.groups
            .get(group_of(idx))
            .is_some_and(|g| g.supported & (1 << mcs_of(idx)) != 0)
    }

    /// The index of `rate`, if it is one of the table's.
    pub fn index_of(&self, rate: &Rate) -> Option<RateIdx> {
        self.groups.iter().enumerate().find_map(|(g, group)| {
            group
                .rates
                .iter()
                .position(|r| r.as_ref() == Some(rate))
                .map(|m| rate_idx(g, m))
        })
    }
}

/// Every width up to `max`; none for 160 MHz (no minstrel_ht group).
fn widths_up_to(max: ChannelWidth) -> &'static [ChannelWidth] {
    match max {
        ChannelWidth::Mhz20 => &[ChannelWidth::Mhz20],
        ChannelWidth::Mhz40 => &[ChannelWidth::Mhz20, ChannelWidth::Mhz40],
        ChannelWidth::Mhz80 => &[
            ChannelWidth::Mhz20,
            ChannelWidth::Mhz40,
            ChannelWidth::Mhz80,
        ],
        ChannelWidth::Mhz160 => &[],
    }
}

/// `MCS_DURATION`: the symbols of 16 average packets at the rate's data bits per symbol,
/// times its symbol time, shared by the 16 (the kernel keeps it shifted down by a few
/// bits to fit a `u16`; the exact value here). An OFDM-based rate only.
pub(super) fn avg_packet_duration_ns(rate: &Rate) -> u32 {
    let bits = AVG_PKT_BYTES * AVG_AMPDU_LEN * 8;
    let n_dbps = u64::from(rate.n_dbps().expect("an OFDM-based rate"));
    let symbol_ns = rate
        .symbol_duration()
        .expect("an OFDM-based rate")
        .as_nanos();
    (bits.div_ceil(n_dbps) * symbol_ns / AVG_AMPDU_LEN) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ht(mcs: u8, width: ChannelWidth, gi: GuardInterval) -> Rate {
        Rate::ht(mcs, width, gi).unwrap()
    }

    /// The kernel's table: HT20 1 stream long GI MCS 0 is 26 data bits per symbol, so
    /// 16 × 1200 × 8 bits take 5908 symbols of 4 µs, 1477 µs per packet; MCS 7 (260
    /// bits) 591 symbols, 147.75 µs.
    #[test]
    fn durations_are_the_kernels_mcs_duration() {
        let t = RateTable::new(&ht(7, ChannelWidth::Mhz20, GuardInterval::Long)).unwrap();
        assert_eq!(t.groups().len(), 1);
        assert_eq!(t.groups()[0].supported, 0xff);
        assert_eq!(t.duration_ns(rate_idx(0, 0)), 1_477_000);
        assert_eq!(t.duration_ns(rate_idx(0, 7)), 147_750);
    }

    /// Kernel order: width, then short GI, then streams; lower widths and counts
    /// supported too.
    #[test]
    fn groups_are_in_the_kernels_order() {
        let t = RateTable::new(&ht(15, ChannelWidth::Mhz40, GuardInterval::Short)).unwrap();
        let names: Vec<_> = t
            .groups()
            .iter()
            .enumerate()
            .map(|(g, _)| t.rate(rate_idx(g, 0)))
            .collect();
        assert_eq!(
            names,
            vec![
                ht(0, ChannelWidth::Mhz20, GuardInterval::Long),
                ht(8, ChannelWidth::Mhz20, GuardInterval::Long),
                ht(0, ChannelWidth::Mhz20, GuardInterval::Short),
                ht(8, ChannelWidth::Mhz20, GuardInterval::Short),
                ht(0, ChannelWidth::Mhz40, GuardInterval::Long),
                ht(8, ChannelWidth::Mhz40, GuardInterval::Long),
                ht(0, ChannelWidth::Mhz40, GuardInterval::Short),
                ht(8, ChannelWidth::Mhz40, GuardInterval::Short),
            ]
        );
        let r = ht(13, ChannelWidth::Mhz40, GuardInterval::Long);
        assert_eq!(t.rate(t.index_of(&r).unwrap()), r);
    }

    #[test]
    fn vht_excluded_mcs_are_unsupported() {
        // MCS 9 at 20 MHz exists for 3 streams only.
        let max = Rate::vht(9, 3, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let t = RateTable::new(&max).unwrap();
        let supported: Vec<u16> = t.groups().iter().map(|g| g.supported).collect();
        assert_eq!(supported, vec![0x1ff, 0x1ff, 0x3ff]);
    }

    #[test]
    fn he_and_legacy_are_refused() {
        let he = Rate::he(7, 1, ChannelWidth::Mhz20, airq::phy::HeGi::Gi0_8).unwrap();
        assert!(RateTable::new(&he).is_err());
        assert!(RateTable::new(&Rate::ofdm(airq::phy::OfdmRate::Mbps54)).is_err());
    }
}
