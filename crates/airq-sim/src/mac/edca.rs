//! EDCA parameters (IEEE 802.11-2020 10.23.2): the default EDCA Parameter Set of Table
//! 9-155, which an AP advertises and its stations use, the AP's own set
//! (dot11QAPEDCATable, [`EdcaParams::standard_ap`]), and the contention window rules of
//! 10.23.2.2: CW starts at CWmin, becomes min(2·(CW+1)−1, CWmax) after a failed
//! transmission, and returns to CWmin after a success or when a frame is dropped at its
//! retry limit.

use airq::{Ac, Duration};

/// The EDCA parameters of one access category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdcaAcParams {
    pub aifsn: u8,
    pub cw_min: u16,
    pub cw_max: u16,
    /// TXOP limit; zero means one frame exchange per access (10.23.2.9).
    pub txop_limit: Duration,
}

/// EDCA parameters of all four ACs, indexed by [`Ac::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdcaParams {
    pub ac: [EdcaAcParams; Ac::COUNT],
}

/// Which TXOP limit column of Table 9-155 applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxopColumn {
    /// PHYs of Clauses 15 and 16 (DSSS, HR/DSSS).
    Dsss,
    /// PHYs of Clauses 17, 18, 19, 21 and 27 (OFDM, ERP, HT, VHT, HE).
    Ofdm,
}

impl EdcaParams {
    /// The default EDCA Parameter Set (Table 9-155, dot11OCBActivated false) for a PHY
    /// with `a_cw_min` (15 for OFDM-based PHYs, 31 for DSSS) and aCWmax 1023.
    ///
    /// The TXOP limits are the ones APs advertise: hostapd's defaults
    /// (`wmm_ac_vi_txop_limit` 94 and `wmm_ac_vo_txop_limit` 47, in 32 µs units: 3008
    /// and 1504 µs; BE and BK 0), which are IEEE 802.11-2016 Table 9-137's. 802.11-2020's
    /// Table 9-155 raised the OFDM-class column to VI 4096 µs, VO 2080 µs and BE 2528 µs
    /// (so ns-3's `WifiMac::ConfigureDcf` gives VI and VO, citing it; ns-3 leaves BE at
    /// 0); the DSSS column (6016 and 3264 µs) is unchanged. Windows and AIFSNs are the
    /// same in both editions.
    pub fn standard(a_cw_min: u16, txop: TxopColumn) -> EdcaParams {
        let a_cw_max = 1023;
        let (vi_txop, vo_txop) = match txop {
            TxopColumn::Dsss => (6016, 3264),
            TxopColumn::Ofdm => (3008, 1504),
        };
        let p = |aifsn, cw_min, cw_max, txop_us| EdcaAcParams {
            aifsn,
            cw_min,
            cw_max,
            txop_limit: Duration::from_micros(txop_us),
        };
        let mut ac = [p(0, 0, 0, 0); Ac::COUNT];
        ac[Ac::Bk.index()] = p(7, a_cw_min, a_cw_max, 0);
        ac[Ac::Be.index()] = p(3, a_cw_min, a_cw_max, 0);
        // The table's (aCWmin+1)/2 − 1 and (aCWmin+1)/4 − 1; aCWmin is 2^n − 1.
        let half = a_cw_min.div_ceil(2) - 1;
        let quarter = (a_cw_min + 1) / 4 - 1;
        ac[Ac::Vi.index()] = p(2, half, a_cw_min, vi_txop);
        ac[Ac::Vo.index()] = p(2, quarter, half, vo_txop);
        EdcaParams { ac }
    }

    /// The AP's own EDCA parameters: the defaults of dot11QAPEDCATable (IEEE 802.11-2020
    /// Annex C; the EDCA Parameter Set the AP advertises, [`standard`](Self::standard), is
    /// what its stations use, not the AP). AIFSN 7, 3, 1, 1 for BK, BE, VI, VO; CWmin as
    /// the stations'; CWmax aCWmax for BK, 4·(aCWmin+1)−1 for BE, aCWmin for VI,
    /// (aCWmin+1)/2−1 for VO; the stations' TXOP limits. hostapd applies the same to the
    /// AP's own queues by default (`hostapd_config_defaults`, src/ap/ap_config.c:
    /// `txq_bk`..`txq_vo` with aCWmin 15, set through `NL80211_ATTR_WIPHY_TXQ_PARAMS`; its
    /// hostapd.conf documents `tx_queue_data0..3_*` as VO aifs 1 cwmin 3 cwmax 7 burst 1.5
    /// ms, VI 1/7/15/3.0 ms, BE 3/15/63/0, BK 7/15/1023/0, and for 802.11b BE cwmax 127, VI
    /// 15/31, VO 7/15), while the stations get the `wmm_ac_*` set it advertises (Table
    /// 9-155's). The bursts become the TXOP limits 3008 and 1504 µs in 32 µs units
    /// (`(burst·100+16)/32`, driver_nl80211.c). ns-3 gives its AP the stations' set
    /// (`WifiMac::ConfigureDcf` for every MAC; `ApWifiMac`'s `AifsnsForSta` &c. only change
    /// what it advertises).
    pub fn standard_ap(a_cw_min: u16, txop: TxopColumn) -> EdcaParams {
        let mut e = EdcaParams::standard(a_cw_min, txop);
        e.ac[Ac::Be.index()].cw_max = 4 * (a_cw_min + 1) - 1;
        e.ac[Ac::Vi.index()].aifsn = 1;
        e.ac[Ac::Vo.index()].aifsn = 1;
        e
    }

    /// Legacy DCF (10.3.3): every AC contends with DIFS (AIFSN 2) and the same window,
    /// as Bianchi's model assumes.
    pub fn dcf(cw_min: u16, cw_max: u16) -> EdcaParams {
        let p = EdcaAcParams {
            aifsn: 2,
            cw_min,
            cw_max,
            txop_limit: Duration::ZERO,
        };
        EdcaParams { ac: [p; Ac::COUNT] }
    }

    pub fn get(&self, ac: Ac) -> &EdcaAcParams {
        &self.ac[ac.index()]
    }
}

impl EdcaAcParams {
    /// The window after a failed transmission with window `cw`.
    pub fn next_cw(&self, cw: u16) -> u16 {
        (cw.saturating_mul(2).saturating_add(1)).min(self.cw_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_9_155_for_ofdm() {
        let e = EdcaParams::standard(15, TxopColumn::Ofdm);
        let row = |ac| {
            let p = e.get(ac);
            (p.aifsn, p.cw_min, p.cw_max, p.txop_limit.as_nanos() / 1000)
        };
        assert_eq!(row(Ac::Bk), (7, 15, 1023, 0));
        assert_eq!(row(Ac::Be), (3, 15, 1023, 0));
        assert_eq!(row(Ac::Vi), (2, 7, 15, 3008));
        assert_eq!(row(Ac::Vo), (2, 3, 7, 1504));
        let d = EdcaParams::standard(31, TxopColumn::Dsss);
        assert_eq!(d.get(Ac::Vo).cw_min, 7);
        assert_eq!(d.get(Ac::Vo).cw_max, 15);
        assert_eq!(d.get(Ac::Vi).txop_limit, Duration::from_micros(6016));
    }

    /// dot11QAPEDCATable's defaults, as hostapd's `tx_queue_data0..3_*` (hostapd.conf,
    /// `hostapd_config_defaults`) give them for OFDM PHYs and, in its notes, for 802.11b.
    #[test]
    fn qap_edca_table_for_ofdm_and_dsss() {
        let row = |e: &EdcaParams, ac| {
            let p = e.get(ac);
            (p.aifsn, p.cw_min, p.cw_max, p.txop_limit.as_nanos() / 1000)
        };
        let e = EdcaParams::standard_ap(15, TxopColumn::Ofdm);
        assert_eq!(row(&e, Ac::Bk), (7, 15, 1023, 0));
        assert_eq!(row(&e, Ac::Be), (3, 15, 63, 0));
        assert_eq!(row(&e, Ac::Vi), (1, 7, 15, 3008));
        assert_eq!(row(&e, Ac::Vo), (1, 3, 7, 1504));
        let d = EdcaParams::standard_ap(31, TxopColumn::Dsss);
        assert_eq!(row(&d, Ac::Bk), (7, 31, 1023, 0));
        assert_eq!(row(&d, Ac::Be), (3, 31, 127, 0));
        assert_eq!(row(&d, Ac::Vi), (1, 15, 31, 6016));
        assert_eq!(row(&d, Ac::Vo), (1, 7, 15, 3264));
    }

    /// The AP's set differs from the advertised one only in AIFSN (VI, VO) and BE's
    /// CWmax: the TXOP limits, which `AggregateLimits` reads from the stations' set for the
    /// AP too, are the same.
    #[test]
    fn ap_set_keeps_the_stations_txop_limits() {
        for (a_cw_min, col) in [(15, TxopColumn::Ofdm), (31, TxopColumn::Dsss)] {
            let (ap, sta) = (
                EdcaParams::standard_ap(a_cw_min, col),
                EdcaParams::standard(a_cw_min, col),
            );
            for ac in Ac::ALL {
                assert_eq!(ap.get(ac).txop_limit, sta.get(ac).txop_limit);
                assert_eq!(ap.get(ac).cw_min, sta.get(ac).cw_min);
            }
        }
    }

    #[test]
    fn ap_be_window_stops_at_63() {
        let be = *EdcaParams::standard_ap(15, TxopColumn::Ofdm).get(Ac::Be);
        let mut cw = be.cw_min;
        let mut seen = vec![cw];
        for _ in 0..4 {
            cw = be.next_cw(cw);
            seen.push(cw);
        }
        assert_eq!(seen, [15, 31, 63, 63, 63]);
    }

    #[test]
    fn window_doubles_up_to_cw_max() {
        let p = EdcaParams::dcf(31, 1023).ac[0];
        let mut cw = p.cw_min;
        let mut seen = vec![cw];
        for _ in 0..7 {
            cw = p.next_cw(cw);
            seen.push(cw);
        }
        assert_eq!(seen, [31, 63, 127, 255, 511, 1023, 1023, 1023]);
    }
}
