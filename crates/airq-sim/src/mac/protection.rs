//! ERP protection (IEEE 802.11-2020 10.26.2): in a 2.4 GHz BSS with non-ERP stations
//! (802.11b: DSSS/HR-DSSS only), the AP advertises Use_Protection in the ERP element and
//! every ERP or HT transmitter precedes its OFDM-modulated frames (ERP-OFDM, HT, and here
//! VHT/HE alike) with a CTS-to-self or an RTS/CTS exchange sent at a DSSS/HR-DSSS rate, so
//! that the 802.11b stations, which cannot decode the OFDM PPDU, set their NAV from it.
//! DSSS frames need no protection.
//!
//! What Linux does, which this follows:
//!
//! - hostapd sets Use_Protection when an associated station is non-ERP
//!   (`ieee802_11_erp_info`, `src/ap/beacon.c`: `num_sta_non_erp > 0`) and passes it to
//!   the kernel as `cts_protect` (`ieee802_11_build_ap_params`, `src/ap/beacon.c`),
//!   which mac80211 keeps as `bss_conf.use_cts_prot`; a station reads
//!   the same bit from the AP's ERP element. In 5 and 6 GHz there is no ERP element and
//!   no such protection.
//! - mac80211 flags every OFDM rate (`IEEE80211_RATE_ERP_G`) and every HT MCS of the
//!   frame's retry chain `IEEE80211_TX_RC_USE_CTS_PROTECT` when `use_cts_prot` is set,
//!   unless the rate already uses RTS/CTS (`rate_fixup_ratelist`, `net/mac80211/rate.c`);
//!   ath9k then sets `ATH9K_TXDESC_CTSENA` — CTS-to-self — or, for a frame above the RTS
//!   threshold or a rate flagged RTS/CTS, `ATH9K_TXDESC_RTSENA` (`ath_buf_set_rate`,
//!   `drivers/net/wireless/ath/ath9k/xmit.c`). So CTS-to-self is the default, RTS/CTS
//!   what `rts_cts` (the RTS threshold) asks for.
//! - The protection frame's rate is the frame's `rts_cts_rate_idx`: for a legacy data
//!   rate, the fastest basic rate not faster than it (`rate_fixup_ratelist`); for an HT
//!   MCS mac80211 leaves the index at 0, the band's first rate, 1 Mbit/s in 2.4 GHz (and
//!   ath9k's own rate control chose "the lowest allowed basic rate for HT frames",
//!   `ath_rc_rate_set_rtscts`, before Minstrel-HT replaced it). 10.26.2 requires a rate
//!   a non-ERP station can decode — a Clause 15/16 (DSSS/HR-DSSS) one — so for a legacy
//!   OFDM frame we take the fastest DSSS basic rate not above its rate.
//! - The preamble is long: ath9k adds the short-preamble flag to the protection rate
//!   only with `bss_conf.use_short_preamble` (`setup_frame_info`, `xmit.c`), which
//!   hostapd sets only when configured `preamble=1` (its default is 0, long) and no
//!   associated station lacks the short preamble (`params.preamble`, `beacon.c`).
//!
//! Our medium carries one exchange at a time, so the NAV the protection frame sets at
//! the 802.11b stations is implicit: what protection changes is the airtime of the
//! exchange ([`crate::mac::exchange`]) and what a collided transmitter puts on the air.
//!
//! HT protection (10.26.3: the HT Operation element's HT Protection field, "non-HT
//! mixed" once a non-HT station is associated) is not modelled: it adds no frame on
//! Linux's transmit path — mac80211 flags protection from `use_cts_prot` alone, and
//! hostapd derives that from the ERP element only (its `ht_opmode` goes to the driver
//! as `bss_conf.ht_operation_mode`) — and an 11a/g station defers for an HT-mixed PPDU
//! by its legacy L-SIG, which our one-exchange-at-a-time medium already implies.

use airq::phy::{DsssDataRate, DsssPreamble, PhyKind, Rate};

use super::basic_rates::BasicRateSet;

/// How a BSS protects its OFDM frames for non-ERP stations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Protection {
    /// No protection: an OFDM-only BSS, or protection turned off.
    #[default]
    None,
    /// A CTS addressed to the sender itself before each OFDM PPDU (mac80211/ath9k's
    /// choice under Use_Protection).
    CtsToSelf,
    /// An RTS/CTS exchange before each OFDM PPDU.
    RtsCts,
}

impl Protection {
    /// Whether a frame sent at `rate` is protected: any OFDM-modulated PPDU (ERP-OFDM,
    /// HT, VHT, HE) when protection is on, never a DSSS/HR-DSSS one (10.26.2).
    pub fn protects(self, rate: &Rate) -> bool {
        self != Protection::None && rate.phy_kind() != PhyKind::Dsss
    }

    /// The scenario/results name: `off`, `cts_to_self`, `rts_cts`.
    pub fn name(self) -> &'static str {
        match self {
            Protection::None => "off",
            Protection::CtsToSelf => "cts_to_self",
            Protection::RtsCts => "rts_cts",
        }
    }
}

/// The rate of the CTS-to-self or RTS that protects a frame at `data_rate`, long
/// preamble: for a legacy OFDM rate, the fastest DSSS/HR-DSSS rate of `basic_rates` not
/// above it, else the slowest DSSS basic rate, else 1 Mbit/s; for HT, VHT and HE,
/// 1 Mbit/s (mac80211's `rts_cts_rate_idx` 0; see the module's notes).
pub fn protection_rate(basic_rates: &BasicRateSet, data_rate: &Rate) -> Rate {
    let dsss_basic = || {
        basic_rates
            .kbps()
            .filter_map(|kbps| DsssDataRate::from_kbps(kbps).ok())
    };
    let data_rate = match data_rate {
        Rate::Ofdm(r) => {
            let kbps = r.data_rate_kbps();
            dsss_basic()
                .filter(|d| d.kbps() <= kbps)
                .max()
                .or_else(|| dsss_basic().min())
                .unwrap_or(DsssDataRate::Mbps1)
        }
        _ => DsssDataRate::Mbps1,
    };
    Rate::dsss(data_rate, DsssPreamble::Long).expect("the long preamble exists at every rate")
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval, OfdmRate};

    fn kbps(r: Rate) -> u32 {
        r.data_rate_kbps()
    }

    /// 10.26.2: only OFDM-modulated frames are protected.
    #[test]
    fn only_ofdm_frames_are_protected() {
        let ht = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let cck = Rate::dsss(DsssDataRate::Mbps11, DsssPreamble::Long).unwrap();
        let ofdm = Rate::ofdm(OfdmRate::Mbps54);
        for p in [Protection::CtsToSelf, Protection::RtsCts] {
            assert!(p.protects(&ht) && p.protects(&ofdm) && !p.protects(&cck));
        }
        assert!(!Protection::None.protects(&ht));
    }

    /// mac80211's `rate_fixup_ratelist` for legacy rates (the fastest basic rate not
    /// faster than the data rate), kept to DSSS by 10.26.2; `rts_cts_rate_idx` 0
    /// (1 Mbit/s) for HT; always the long preamble (hostapd's `preamble=0`).
    #[test]
    fn protection_rate_follows_mac80211() {
        let g = BasicRateSet::HOSTAPD_G;
        let ofdm = |r| kbps(protection_rate(&g, &Rate::ofdm(r)));
        assert_eq!(ofdm(OfdmRate::Mbps54), 11_000);
        assert_eq!(ofdm(OfdmRate::Mbps12), 11_000);
        assert_eq!(ofdm(OfdmRate::Mbps9), 5_500);
        assert_eq!(ofdm(OfdmRate::Mbps6), 5_500);
        // hw_mode=b basic rates {1, 2}: 54 → 2.
        let b = BasicRateSet::HOSTAPD_B;
        assert_eq!(
            kbps(protection_rate(&b, &Rate::ofdm(OfdmRate::Mbps54))),
            2_000
        );
        // No DSSS basic rate (an OFDM-only set): the mandatory 1 Mbit/s.
        let a = BasicRateSet::HOSTAPD_A;
        assert_eq!(
            kbps(protection_rate(&a, &Rate::ofdm(OfdmRate::Mbps54))),
            1_000
        );
        let ht = Rate::ht(15, ChannelWidth::Mhz20, GuardInterval::Short).unwrap();
        let one_long = Rate::dsss(DsssDataRate::Mbps1, DsssPreamble::Long).unwrap();
        assert_eq!(protection_rate(&g, &ht), one_long);
        let Rate::Dsss(r) = protection_rate(&g, &Rate::ofdm(OfdmRate::Mbps54)) else {
            panic!("a DSSS rate");
        };
        assert_eq!(r.preamble(), DsssPreamble::Long);
    }
}
