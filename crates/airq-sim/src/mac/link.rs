//! The radio configuration of the BSS and of each station's link: band, timing, the
//! basic rate set (which sets the rate of control responses), EDCA parameters, aggregation limits, retry limits, the
//! channel model's transmit power and noise figure, and per station its PHY rate (fixed,
//! as the seeds' testbeds fix it, or the highest one of rate control) and either a fixed
//! MPDU error probability or a channel ([`crate::phy::channel`]) whose SNR decides each
//! MPDU's.

use super::basic_rates::BasicRateSet;
use super::protection::{protection_rate, Protection};
use super::timing::MacTiming;
use crate::mac::edca::{EdcaParams, TxopColumn};
use crate::mac::frame::Ppdu;
use crate::mac::rate_control::RateControlConfig;
use crate::phy::channel::{RadioParams, StationChannel};
use airq::phy::{Band, OfdmRate, PhyKind, Rate};
use airq::Duration;

/// dot11ShortRetryLimit as cfg80211 sets it (`wiphy->retry_short`, `net/wireless/core.c`).
pub const DOT11_SHORT_RETRY_LIMIT: u8 = 7;
/// dot11LongRetryLimit as cfg80211 sets it (`wiphy->retry_long`).
pub const DOT11_LONG_RETRY_LIMIT: u8 = 4;
/// ath9k's software retries of an A-MPDU subframe (`ATH_MAX_SW_RETRIES`, ath9k.h).
pub const ATH_MAX_SW_RETRIES: u8 = 30;

/// BSS-wide radio parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct BssConfig {
    pub band: Band,
    pub timing: MacTiming,
    /// BSSBasicRateSet: Ack, BlockAck, RTS and CTS frames go at the highest of its rates
    /// not above the data frame's (10.6.6.5, [`BssConfig::control_rate`]).
    pub basic_rates: BasicRateSet,
    /// Rate of beacons: the lowest basic rate.
    pub beacon_rate: Rate,
    /// Beacon interval (100 TU = 102.4 ms); `None` sends no beacons.
    pub beacon_interval: Option<Duration>,
    /// Beacon frame length in bytes (MAC header, fixed fields, SSID, rates, HT/VHT IEs).
    pub beacon_bytes: u32,
    /// The EDCA parameter set the AP advertises (Table 9-155's by default): the stations'.
    pub edca: EdcaParams,
    /// The AP's own EDCA parameters: dot11QAPEDCATable's defaults
    /// ([`EdcaParams::standard_ap`]), as hostapd sets the AP's queues; `None`, the AP
    /// contends with `edca` like its stations (as ns-3's AP does, and as models of the
    /// DCF assume). Its TXOP limits must be `edca`'s, which `AggregateLimits` reads for
    /// the AP too ([`BssConfig::ap_edca_params`]).
    pub ap_edca: Option<EdcaParams>,
    /// Transmissions of an MPDU sent alone (Ack policy, not in an A-MPDU) before it is
    /// dropped, the first included: dot11ShortRetryLimit, 7, as cfg80211 sets
    /// `wiphy->retry_short` (`net/wireless/core.c`, `wiphy_new_nm`; the RTS threshold
    /// is off there, so every data frame is "short"); with `rts_cts` the frame is above
    /// the RTS threshold and dot11LongRetryLimit, `retry_long` = 4, applies instead
    /// ([`BssConfig::retry_limit_for`]).
    pub retry_limit: u8,
    /// Transmissions of an A-MPDU subframe before it is dropped, the first included:
    /// ath9k retries a failed subframe in software while `bf_retries <
    /// ATH_MAX_SW_RETRIES` (30, `drivers/net/wireless/ath/ath9k/ath9k.h`;
    /// `ath_tx_complete_aggr` in `xmit.c`), so 31.
    pub ampdu_retry_limit: u8,
    /// Cap on the airtime of one aggregate (ath9k: 4 ms, `ATH_AMPDU_LIMIT_MAX`).
    pub max_aggregate_airtime: Duration,
    /// RTS/CTS before every data PPDU (10.3.2.8).
    pub rts_cts: bool,
    /// ERP protection of OFDM frames for non-ERP stations (10.26.2,
    /// [`crate::mac::protection`]): CTS-to-self, or RTS/CTS, at a DSSS rate before every
    /// OFDM-modulated PPDU; with `rts_cts` set, RTS/CTS. Off by default.
    pub protection: Protection,
    /// Transmit power, noise figure and path loss model of stations with a channel.
    pub radio: RadioParams,
}

impl BssConfig {
    /// An OFDM-based BSS (HT, VHT, HE or 11a/g) in `band`, short slot, hostapd's basic
    /// rates (5 and 6 GHz: 6, 12, 24 Mbit/s; 2.4 GHz: 1, 2, 5.5, 11) with beacons at the
    /// lowest, default EDCA.
    pub fn ofdm(band: Band) -> BssConfig {
        let basic_rates = match band {
            Band::Ghz2_4 => BasicRateSet::HOSTAPD_G,
            Band::Ghz5 | Band::Ghz6 => BasicRateSet::HOSTAPD_A,
        };
        BssConfig {
            band,
            timing: MacTiming::for_band(band, true),
            basic_rates,
            beacon_rate: basic_rates.lowest(),
            beacon_interval: Some(Duration::from_micros(102_400)),
            beacon_bytes: 300,
            edca: EdcaParams::standard(15, TxopColumn::Ofdm),
            ap_edca: Some(EdcaParams::standard_ap(15, TxopColumn::Ofdm)),
            retry_limit: DOT11_SHORT_RETRY_LIMIT,
            ampdu_retry_limit: ATH_MAX_SW_RETRIES + 1,
            max_aggregate_airtime: Duration::from_micros(4000),
            rts_cts: false,
            protection: Protection::None,
            radio: RadioParams::default(),
        }
    }

    /// An 802.11b BSS: DSSS timing (20 µs slot, 10 µs SIFS), aCWmin 31, hostapd's
    /// `hw_mode=g` basic rates (1, 2, 5.5, 11 Mbit/s: the 2.4 GHz default) with 1 Mbit/s
    /// long-preamble beacons.
    pub fn dsss() -> BssConfig {
        let basic_rates = BasicRateSet::HOSTAPD_G;
        BssConfig {
            band: Band::Ghz2_4,
            timing: MacTiming::DSSS,
            basic_rates,
            beacon_rate: basic_rates.lowest(),
            beacon_interval: Some(Duration::from_micros(102_400)),
            beacon_bytes: 300,
            edca: EdcaParams::standard(31, TxopColumn::Dsss),
            ap_edca: Some(EdcaParams::standard_ap(31, TxopColumn::Dsss)),
            retry_limit: DOT11_SHORT_RETRY_LIMIT,
            ampdu_retry_limit: ATH_MAX_SW_RETRIES + 1,
            max_aggregate_airtime: Duration::from_micros(4000),
            rts_cts: false,
            protection: Protection::None,
            radio: RadioParams::default(),
        }
    }

    /// The EDCA parameters the AP contends with: `ap_edca`, or without it the stations'.
    pub fn ap_edca_params(&self) -> &EdcaParams {
        self.ap_edca.as_ref().unwrap_or(&self.edca)
    }

    /// The retry limit (transmissions, the first included) of the MPDUs of `ppdu`:
    /// [`ampdu_retry_limit`](Self::ampdu_retry_limit) in an A-MPDU, else
    /// [`retry_limit`](Self::retry_limit), at most dot11LongRetryLimit (4) behind RTS/CTS
    /// (the RTS threshold's or RTS/CTS protection's; CTS-to-self does not make a frame
    /// "long").
    pub fn retry_limit_for(&self, ppdu: &Ppdu) -> u8 {
        if ppdu.aggregate {
            self.ampdu_retry_limit
        } else if self.uses_rts(&ppdu.rate) {
            self.retry_limit.min(DOT11_LONG_RETRY_LIMIT)
        } else {
            self.retry_limit
        }
    }

    /// Whether a data frame at `rate` is sent behind an RTS: `rts_cts`, or RTS/CTS
    /// protection of an OFDM frame.
    pub fn uses_rts(&self, rate: &Rate) -> bool {
        self.rts_cts || (self.protection == Protection::RtsCts && self.protection.protects(rate))
    }

    /// Whether a data frame at `rate` is preceded by a protection frame at a DSSS rate
    /// ([`protection_rate`]): an OFDM frame while protection is on.
    pub fn protects(&self, rate: &Rate) -> bool {
        self.protection.protects(rate)
    }

    /// The rate of the CTS-to-self or RTS protecting a data frame at `rate`
    /// ([`protection_rate`]).
    pub fn protection_rate(&self, rate: &Rate) -> Rate {
        protection_rate(&self.basic_rates, rate)
    }

    /// The rate of the RTS before a data frame at `rate` (mac80211's
    /// `rts_cts_rate_idx`): under protection the protection rate; for a legacy rate the
    /// fastest basic rate not above it (`rate_fixup_ratelist`, as [`control_rate`]);
    /// for HT, VHT and HE the band's first rate, where mac80211 leaves the index at 0:
    /// 1 Mbit/s (long preamble) in 2.4 GHz, 6 Mbit/s in 5 and 6 GHz (see
    /// [`crate::mac::protection`]).
    ///
    /// [`control_rate`]: Self::control_rate
    pub fn rts_rate(&self, rate: &Rate) -> Rate {
        let ht_or_later = matches!(rate, Rate::Ht(_) | Rate::Vht(_) | Rate::He(_));
        match self.band {
            _ if self.protects(rate) => self.protection_rate(rate),
            // The band's first rate, the one protection sends before an HT frame.
            Band::Ghz2_4 if ht_or_later => self.protection_rate(rate),
            Band::Ghz5 | Band::Ghz6 if ht_or_later => Rate::ofdm(OfdmRate::Mbps6),
            _ => self.control_rate(rate),
        }
    }

    /// The rate of the Ack, BlockAck, RTS or CTS that goes with a data frame at `rate`
    /// (10.6.6.5; see [`BasicRateSet::control_response_rate`]).
    pub fn control_rate(&self, rate: &Rate) -> Rate {
        self.basic_rates.control_response_rate(rate)
    }
}

/// One station's link to the AP (the same in both directions).
#[derive(Clone, Debug, PartialEq)]
pub struct StationLink {
    /// The fixed rate; with rate control, the highest the station supports
    /// ([`crate::mac::rate_control::groups`]).
    pub rate: Rate,
    /// How each PPDU's rate is chosen, by the AP towards the station and by the station
    /// towards the AP: fixed at `rate` (the default) or Minstrel-HT.
    pub rate_control: RateControlConfig,
    /// Probability that one MPDU is received in error, when there is no `channel`.
    pub mpdu_error: f64,
    /// The station's radio channel: each MPDU's error probability follows the SNR of
    /// its PPDU instead of `mpdu_error`. `None` keeps the fixed probability.
    pub channel: Option<StationChannel>,
    /// A QoS station (the default: every HT/VHT/HE station is one). A non-QoS station
    /// (a legacy 802.11b/g client) contends with the DCF instead of EDCA (IEEE
    /// 802.11-2020 10.3.3: DIFS, CW from aCWmin to aCWmax, one queue): every frame to
    /// or from it is best effort (mac80211 sends a non-WMM station's frames on AC_BE,
    /// `ieee80211_select_queue`) and none is aggregated (an A-MPDU carries QoS Data
    /// frames under a BlockAck agreement, 10.12, 10.25).
    pub qos: bool,
    /// Aggregate at all (HT and later rates only; never for a non-QoS station).
    pub ampdu: bool,
    /// BlockAck window in MPDUs (64; 256 for HE).
    pub ba_window: u16,
    /// Maximum A-MPDU length the receiver accepts (HT 65 535; VHT 1 048 575;
    /// HE 6 500 631 bytes, 9.4.2.56.3, 9.4.2.157.2, 9.4.2.248.3).
    pub max_ampdu_bytes: u32,
}

impl StationLink {
    /// A link at `rate` with the standard's largest BlockAck window and A-MPDU length
    /// for its PHY, and no errors.
    pub fn new(rate: Rate) -> StationLink {
        let (ba_window, max_ampdu_bytes) = match rate.phy_kind() {
            PhyKind::He => (256, 6_500_631),
            PhyKind::Vht => (64, 1_048_575),
            _ => (64, 65_535),
        };
        StationLink {
            qos: true,
            ampdu: rate.supports_ampdu(),
            rate,
            rate_control: RateControlConfig::Fixed,
            mpdu_error: 0.0,
            channel: None,
            ba_window,
            max_ampdu_bytes,
        }
    }

    /// aPPDUMaxTime of the PHY: 5.484 ms for HT and VHT (HT-mixed L-SIG limit, 19.4.3),
    /// 5.484 ms for HE (27.4.3); legacy PPDUs are bounded by their length alone.
    pub fn max_ppdu_duration(&self) -> Duration {
        Duration::from_micros(5484)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::NodeId;
    use airq::phy::{ChannelWidth, GuardInterval};
    use airq::{StationId, Tid};

    fn ppdu(aggregate: bool) -> Ppdu {
        let rate = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let (ap, sta) = (NodeId::Ap, NodeId::Sta(StationId(0)));
        Ppdu::new(
            ap,
            sta,
            Tid::new(0).unwrap(),
            rate,
            Band::Ghz5,
            aggregate,
            Vec::new(),
        )
    }

    /// cfg80211's wiphy defaults (dot11ShortRetryLimit 7, dot11LongRetryLimit 4,
    /// net/wireless/core.c) for MPDUs sent alone, ath9k's 1 + ATH_MAX_SW_RETRIES (30)
    /// for A-MPDU subframes.
    #[test]
    fn retry_limits_follow_cfg80211_and_ath9k() {
        for mut bss in [BssConfig::ofdm(Band::Ghz5), BssConfig::dsss()] {
            assert_eq!(bss.retry_limit_for(&ppdu(false)), 7);
            assert_eq!(bss.retry_limit_for(&ppdu(true)), 31);
            bss.rts_cts = true;
            assert_eq!(bss.retry_limit_for(&ppdu(false)), 4);
            assert_eq!(bss.retry_limit_for(&ppdu(true)), 31);
        }
    }

    /// RTS/CTS protection makes an OFDM frame "long" (dot11LongRetryLimit, as an RTS
    /// threshold would); CTS-to-self does not, nor does protection touch a DSSS frame.
    #[test]
    fn rts_cts_protection_uses_the_long_retry_limit() {
        let mut bss = BssConfig::ofdm(Band::Ghz2_4);
        bss.protection = Protection::CtsToSelf;
        assert_eq!(bss.retry_limit_for(&ppdu(false)), 7);
        bss.protection = Protection::RtsCts;
        assert_eq!(bss.retry_limit_for(&ppdu(false)), 4);
        assert_eq!(bss.retry_limit_for(&ppdu(true)), 31);
        let cck = airq::phy::Rate::dsss(
            airq::phy::DsssDataRate::Mbps11,
            airq::phy::DsssPreamble::Long,
        )
        .unwrap();
        assert!(!bss.uses_rts(&cck));
    }
}
