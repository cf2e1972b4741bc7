//! EDCA parameters (IEEE 802.11-2020 10.23.2, the default EDCA Parameter Set of Table
//! 9-155) and the contention window rules of 10.23.2.2: CW starts at CWmin, becomes
//! min(2·(CW+1)−1, CWmax) after a failed transmission, and returns to CWmin after a
//! success or when a frame is dropped at its retry limit.

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
