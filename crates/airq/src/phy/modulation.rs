//! The modulation and coding ladder shared by the HT, VHT and HE MCS tables, and the
//! number of coded and data bits per OFDM symbol it gives.
//!
//! HT MCS 0–7 per stream (IEEE 802.11-2020 19.5), VHT MCS 0–9 (21.5) and HE MCS 0–11
//! (IEEE 802.11ax-2021 27.5) climb the same
//! ladder: BPSK 1/2, QPSK 1/2, QPSK 3/4, 16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4,
//! 64-QAM 5/6, then 256-QAM 3/4 and 5/6 (VHT, HE), then 1024-QAM 3/4 and 5/6 (HE).
//!
//! N_CBPS = N_SD · N_BPSCS · N_SS and N_DBPS = N_CBPS · R, the columns of those MCS
//! tables. HE N_DBPS is not always whole
//! (980 · 10 · 5/6 = 8166.67 for HE80 MCS 11); the HE tables list it rounded down (8166,
//! which gives the published 600.4 Mbit/s), so [`Modulation::n_dbps`] rounds down.

/// The code rate R of the FEC, as a fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodeRate {
    pub numerator: u32,
    pub denominator: u32,
}

impl CodeRate {
    pub const R1_2: CodeRate = CodeRate::new(1, 2);
    pub const R2_3: CodeRate = CodeRate::new(2, 3);
    pub const R3_4: CodeRate = CodeRate::new(3, 4);
    pub const R5_6: CodeRate = CodeRate::new(5, 6);

    const fn new(numerator: u32, denominator: u32) -> CodeRate {
        CodeRate {
            numerator,
            denominator,
        }
    }
}

/// A constellation (N_BPSCS coded bits per subcarrier per stream) and a code rate R.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modulation {
    /// N_BPSCS: 1 for BPSK, 2 QPSK, 4 16-QAM, 6 64-QAM, 8 256-QAM, 10 1024-QAM.
    pub n_bpscs: u32,
    /// R.
    pub code_rate: CodeRate,
}

/// The shared ladder, indexed by the per-stream MCS index (HT: MCS mod 8).
const LADDER: [Modulation; 12] = [
    Modulation::new(1, CodeRate::R1_2),
    Modulation::new(2, CodeRate::R1_2),
    Modulation::new(2, CodeRate::R3_4),
    Modulation::new(4, CodeRate::R1_2),
    Modulation::new(4, CodeRate::R3_4),
    Modulation::new(6, CodeRate::R2_3),
    Modulation::new(6, CodeRate::R3_4),
    Modulation::new(6, CodeRate::R5_6),
    Modulation::new(8, CodeRate::R3_4),
    Modulation::new(8, CodeRate::R5_6),
    Modulation::new(10, CodeRate::R3_4),
    Modulation::new(10, CodeRate::R5_6),
];

impl Modulation {
    const fn new(n_bpscs: u32, code_rate: CodeRate) -> Modulation {
        Modulation { n_bpscs, code_rate }
    }

    /// The modulation of per-stream MCS index `index` (0–11), or `None` above 11.
    /// Callers check the PHY's own upper bound (HT 7, VHT 9, HE 11) first.
    pub const fn of_mcs(index: u8) -> Option<Modulation> {
        if (index as usize) < LADDER.len() {
            Some(LADDER[index as usize])
        } else {
            None
        }
    }

    /// The modulation of a per-stream MCS index the caller has already validated
    /// against its PHY's range; wraps above 11 rather than panicking.
    pub(super) const fn of_valid_mcs(index: u8) -> Modulation {
        LADDER[index as usize % LADDER.len()]
    }

    /// N_CBPS: coded bits per OFDM symbol over `n_sd` data subcarriers and `nss` streams.
    pub const fn n_cbps(self, n_sd: u32, nss: u32) -> u32 {
        n_sd * self.n_bpscs * nss
    }

    /// N_DBPS = N_CBPS · R, rounded down when it is not whole (HE only; HT and the
    /// VHT combinations the standard allows are always whole).
    pub const fn n_dbps(self, n_sd: u32, nss: u32) -> u32 {
        self.n_cbps(n_sd, nss) * self.code_rate.numerator / self.code_rate.denominator
    }

    /// Whether N_CBPS · R is a whole number of bits.
    pub const fn n_dbps_is_whole(self, n_sd: u32, nss: u32) -> bool {
        let bits = self.n_cbps(n_sd, nss) * self.code_rate.numerator;
        matches!(bits.checked_rem(self.code_rate.denominator), Some(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ht_ladder_gives_table_19_27_n_dbps() {
        // IEEE 802.11-2020 19.5, HT MCS table for 20 MHz, N_SS = 1 (Table 19-27 in the 2016
        // numbering), N_DBPS column.
        let expected = [26, 52, 78, 104, 156, 208, 234, 260];
        for (mcs, n_dbps) in expected.into_iter().enumerate() {
            let m = Modulation::of_mcs(mcs as u8).unwrap();
            assert_eq!(m.n_dbps(52, 1), n_dbps, "MCS {mcs}");
        }
    }

    #[test]
    fn he_n_dbps_rounds_down() {
        // HE80 MCS 11, 1 SS: 980 · 10 · 5/6 = 8166.67, listed as 8166.
        let m = Modulation::of_mcs(11).unwrap();
        assert_eq!(m.n_dbps(980, 1), 8166);
        assert!(!m.n_dbps_is_whole(980, 1));
        assert!(m.n_dbps_is_whole(234, 1)); // HE20 MCS 11: 1950
        assert_eq!(Modulation::of_mcs(12), None);
    }
}
