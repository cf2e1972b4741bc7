//! The E-model of ITU-T G.107 (06/2015): the transmission rating R of a narrowband
//! telephone connection, and the MOS estimate derived from it.
//!
//! R = Ro − Is − Id − Ie,eff + A (7-1): the basic signal-to-noise ratio Ro (§7.2,
//! (7-2)–(7-7)), less the impairments simultaneous with speech Is (§7.3, (7-8)–(7-17)),
//! those caused by delay Id (§7.4, (7-18)–(7-28)) and by the codec and packet loss
//! Ie,eff (§7.5, (7-29)), plus the advantage factor A (§7.6). Every parameter has the
//! default of G.107's default-values table (§7.7), so a connection is described by its
//! mouth-to-ear delay Ta, its packet loss Ppl and its codec. MOS follows Annex B (B-4).
//!
//! As G.107 does for default calculations, the echo paths follow Ta: the talker-echo
//! delay T = Ta and the listener-echo round trip Tr = 2·Ta ([`Connection::new`]).
//! Codecs are given by Ie and Bpl (ITU-T G.113 Appendix I, Table I.3 for G.711).
//!
//! Equation numbers are those of the 06/2015 edition as flent's `mos_score`
//! (`flent/util.py`) cites them — (7-2), (7-3), (7-8), (7-18)–(7-22), (7-25)–(7-29),
//! (B-4); the numbers of the equations in between follow from their order in §7.

#![warn(missing_docs)]
use std::fmt;

/// The E-model parameters other than delay, loss and codec; [`Default`] gives the
/// G.107 §7.7 defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EModelParams {
    /// Send loudness rating SLR, dB (default 8).
    pub slr_db: f64,
    /// Receive loudness rating RLR, dB (default 2).
    pub rlr_db: f64,
    /// Sidetone masking rating STMR, dB (default 15).
    pub stmr_db: f64,
    /// Listener sidetone rating LSTR, dB (default 18 = STMR + Dr, Dr = 3).
    pub lstr_db: f64,
    /// D-value of the telephone, send side Ds (default 3).
    pub ds: f64,
    /// Talker echo loudness rating TELR, dB (default 65).
    pub telr_db: f64,
    /// Weighted echo path loss WEPL, dB (default 110).
    pub wepl_db: f64,
    /// Quantizing distortion units qdu (default 1, at least 1).
    pub qdu: f64,
    /// Circuit noise referred to the 0 dBr point Nc, dBm0p (default −70).
    pub nc_dbm0p: f64,
    /// Noise floor at the receive side Nfor, dBmp (default −64).
    pub nfor_dbmp: f64,
    /// Room noise at the send side Ps, dB(A) (default 35).
    pub ps_dba: f64,
    /// Room noise at the receive side Pr, dB(A) (default 35).
    pub pr_dba: f64,
    /// Advantage factor A (default 0: no advantage of access, e.g. mobility).
    pub a: f64,
    /// Delay sensitivity: the delay mT below which Idd is 0, ms (default 100), with
    /// `st` the sharpness sT of its rise (G.107 Table 1, the default class).
    pub mt_ms: f64,
    /// Delay sensitivity sT (default 1); see `mt_ms`.
    pub st: f64,
}

impl Default for EModelParams {
    fn default() -> Self {
        EModelParams {
            slr_db: 8.0,
            rlr_db: 2.0,
            stmr_db: 15.0,
            lstr_db: 18.0,
            ds: 3.0,
            telr_db: 65.0,
            wepl_db: 110.0,
            qdu: 1.0,
            nc_dbm0p: -70.0,
            nfor_dbmp: -64.0,
            ps_dba: 35.0,
            pr_dba: 35.0,
            a: 0.0,
            mt_ms: 100.0,
            st: 1.0,
        }
    }
}

/// A codec as the E-model sees it: equipment impairment Ie and packet-loss robustness
/// Bpl (G.113 Appendix I).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Codec {
    /// Equipment impairment factor Ie without loss (0 to 95).
    pub ie: f64,
    /// Packet-loss robustness factor Bpl (above 0).
    pub bpl: f64,
}

impl Codec {
    /// G.711 without packet loss concealment: Ie = 0, Bpl = 4.3 (G.113 Table I.3).
    pub const G711: Codec = Codec { ie: 0.0, bpl: 4.3 };
    /// G.711 with packet loss concealment (G.711 Appendix I): Ie = 0, Bpl = 25.1.
    pub const G711_PLC: Codec = Codec { ie: 0.0, bpl: 25.1 };
}

/// What the network and terminals do to the call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connection {
    /// Absolute (mouth-to-ear) one-way delay Ta, ms.
    pub ta_ms: f64,
    /// Mean one-way delay of the talker-echo path T, ms.
    pub t_ms: f64,
    /// Round-trip delay of the listener-echo loop Tr, ms.
    pub tr_ms: f64,
    /// Packet loss probability Ppl, percent.
    pub ppl_percent: f64,
    /// Burst ratio BurstR (1 for random loss).
    pub burst_r: f64,
}

impl Connection {
    /// Delay `ta_ms` and random loss `ppl_percent`, echo paths following Ta
    /// (T = Ta, Tr = 2·Ta, BurstR = 1).
    pub fn new(ta_ms: f64, ppl_percent: f64) -> Connection {
        Connection {
            ta_ms,
            t_ms: ta_ms,
            tr_ms: 2.0 * ta_ms,
            ppl_percent,
            burst_r: 1.0,
        }
    }
}

/// An input the E-model cannot rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EModelError {
    /// Parameter `name` is `value`, outside `expected`.
    OutOfRange {
        /// The parameter's G.107 symbol.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The values accepted.
        expected: &'static str,
    },
    /// The equations gave no finite R for these (extreme) parameters.
    NotComputable,
}

impl fmt::Display for EModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EModelError::OutOfRange {
                name,
                value,
                expected,
            } => write!(f, "E-model {name} = {value} is out of range: {expected}"),
            EModelError::NotComputable => {
                f.write_str("the E-model gives no finite rating for these parameters")
            }
        }
    }
}

impl std::error::Error for EModelError {}

/// The rating of a connection and its terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Transmission rating R (7-1); may leave 0–100 for extreme inputs.
    pub r: f64,
    /// MOS-CQE estimate from R (Annex B, (B-4)).
    pub mos: f64,
    /// Basic signal-to-noise ratio Ro (7-2).
    pub ro: f64,
    /// Simultaneous impairment factor Is (7-8).
    pub is: f64,
    /// Delay impairment factor Id = Idte + Idle + Idd (7-18).
    pub id: f64,
    /// Talker-echo impairment Idte (7-19).
    pub idte: f64,
    /// Listener-echo impairment Idle (7-25).
    pub idle: f64,
    /// Absolute-delay impairment Idd (7-27).
    pub idd: f64,
    /// Effective equipment impairment Ie,eff (7-29).
    pub ie_eff: f64,
}

/// The estimated conversational MOS for rating `r` (G.107 Annex B, (B-4)): 1 below
/// R = 0, 4.5 above R = 100, 1 + 0.035R + R(R − 60)(100 − R)·7·10⁻⁶ between.
pub fn mos_from_r(r: f64) -> f64 {
    if r <= 0.0 {
        1.0
    } else if r >= 100.0 {
        4.5
    } else {
        1.0 + 0.035 * r + r * (r - 60.0) * (100.0 - r) * 7e-6
    }
}

/// The rating of `conn` with `codec` and all other parameters at their defaults.
pub fn rate(codec: Codec, conn: &Connection) -> Result<Rating, EModelError> {
    rate_with(&EModelParams::default(), codec, conn)
}

/// The rating of `conn` with `codec` and parameters `p`.
pub fn rate_with(p: &EModelParams, codec: Codec, conn: &Connection) -> Result<Rating, EModelError> {
    validate(p, codec, conn)?;
    let (ro, no) = basic_signal_to_noise(p);
    let (is, ist) = simultaneous_impairment(p, ro, no, conn.t_ms);
    let (idte, idle, idd) = delay_impairment(p, ro, no, ist, conn);
    // (7-29): the effective equipment impairment under random (BurstR = 1) or bursty loss.
    let ppl = conn.ppl_percent;
    let ie_eff = codec.ie + (95.0 - codec.ie) * ppl / (ppl / conn.burst_r + codec.bpl);
    let id = idte + idle + idd;
    let r = ro - is - id - ie_eff + p.a;
    if !r.is_finite() {
        return Err(EModelError::NotComputable);
    }
    Ok(Rating {
        r,
        mos: mos_from_r(r),
        ro,
        is,
        id,
        idte,
        idle,
        idd,
        ie_eff,
    })
}

/// Ro and the total noise No (§7.2).
fn basic_signal_to_noise(p: &EModelParams) -> (f64, f64) {
    let olr = p.slr_db + p.rlr_db;
    // (7-4)–(7-7): room noise at the send and receive side, receive noise floor.
    let nos = p.ps_dba - p.slr_db - p.ds - 100.0 + 0.004 * (p.ps_dba - olr - p.ds - 14.0).powi(2);
    let pre = p.pr_dba + 10.0 * (1.0 + 10f64.powf((10.0 - p.lstr_db) / 10.0)).log10();
    let nor = p.rlr_db - 121.0 + pre + 0.008 * (pre - 35.0).powi(2);
    let nfo = p.nfor_dbmp + p.rlr_db;
    // (7-3): power sum of the noise sources.
    let no = 10.0
        * [p.nc_dbm0p, nos, nor, nfo]
            .iter()
            .map(|n| 10f64.powf(n / 10.0))
            .sum::<f64>()
            .log10();
    // (7-2)
    (15.0 - 1.5 * (p.slr_db + no), no)
}

/// Is (7-8) and its sidetone term Ist, which Id needs too (§7.3).
fn simultaneous_impairment(p: &EModelParams, ro: f64, no: f64, t_ms: f64) -> (f64, f64) {
    let olr = p.slr_db + p.rlr_db;
    // (7-9), (7-10): too low overall loudness.
    let xolr = olr + 0.2 * (64.0 + no - p.rlr_db);
    let iolr = 20.0 * ((1.0 + (xolr / 8.0).powi(8)).powf(1.0 / 8.0) - xolr / 8.0);
    // (7-11), (7-12): non-optimum sidetone, with talker echo masked as sidetone.
    let stmro = -10.0
        * (10f64.powf(-p.stmr_db / 10.0) + (-t_ms / 4.0).exp() * 10f64.powf(-p.telr_db / 10.0))
            .log10();
    let ist = 12.0 * (1.0 + ((stmro - 13.0) / 6.0).powi(8)).powf(1.0 / 8.0)
        - 28.0 * (1.0 + ((stmro + 1.0) / 19.4).powi(35)).powf(1.0 / 35.0)
        - 13.0 * (1.0 + ((stmro - 3.0) / 33.0).powi(13)).powf(1.0 / 13.0)
        + 29.0;
    // (7-13)–(7-17): quantizing distortion.
    let q = 37.0 - 15.0 * p.qdu.log10();
    let g = 1.07 + 0.258 * q + 0.0602 * q * q;
    let y = (ro - 100.0) / 15.0 + 46.0 / 8.4 - g / 9.0;
    let z = 46.0 / 30.0 - g / 40.0;
    let iq = 15.0 * (1.0 + 10f64.powf(y) + 10f64.powf(z)).log10();
    (iolr + ist + iq, ist)
}

/// Idte, Idle and Idd (§7.4).
fn delay_impairment(
    p: &EModelParams,
    ro: f64,
    no: f64,
    ist: f64,
    conn: &Connection,
) -> (f64, f64, f64) {
    let t = conn.t_ms;
    // (7-19)–(7-22): talker echo. (7-23): with STMR < 9 dB the echo is partly masked
    // by sidetone; (7-24): above 20 dB the sidetone impairment joins the echo's.
    let roe = -1.5 * (no - p.rlr_db);
    let mut terv = p.telr_db - 40.0 * ((1.0 + t / 10.0) / (1.0 + t / 150.0)).log10()
        + 6.0 * (-0.3 * t * t).exp();
    if p.stmr_db < 9.0 {
        terv += ist / 2.0;
    }
    let re = 80.0 + 2.5 * (terv - 14.0);
    // Below 1 ms the echo is heard as sidetone, not as echo: Idte = 0.
    let mut idte = if t < 1.0 {
        0.0
    } else {
        ((roe - re) / 2.0 + ((roe - re).powi(2) / 4.0 + 100.0).sqrt() - 1.0) * (1.0 - (-t).exp())
    };
    if p.stmr_db > 20.0 {
        idte = (idte * idte + ist * ist).sqrt();
    }
    // (7-25), (7-26): listener echo.
    let rle = 10.5 * (p.wepl_db + 7.0) * (conn.tr_ms + 1.0).powf(-0.25);
    let idle = (ro - rle) / 2.0 + ((ro - rle).powi(2) / 4.0 + 169.0).sqrt();
    // (7-27), (7-28): too long absolute delay.
    let idd = if conn.ta_ms <= p.mt_ms {
        0.0
    } else {
        let x = (conn.ta_ms / p.mt_ms).log2();
        let k = 6.0 * p.st;
        25.0 * ((1.0 + x.powf(k)).powf(1.0 / k) - 3.0 * (1.0 + (x / 3.0).powf(k)).powf(1.0 / k)
            + 2.0)
    };
    (idte, idle, idd)
}

fn validate(p: &EModelParams, codec: Codec, conn: &Connection) -> Result<(), EModelError> {
    let check = |name: &'static str, value: f64, ok: bool, expected: &'static str| {
        if ok && value.is_finite() {
            Ok(())
        } else {
            Err(EModelError::OutOfRange {
                name,
                value,
                expected,
            })
        }
    };
    let finite = "a finite number";
    for (name, value) in [
        ("SLR", p.slr_db),
        ("RLR", p.rlr_db),
        ("STMR", p.stmr_db),
        ("LSTR", p.lstr_db),
        ("Ds", p.ds),
        ("TELR", p.telr_db),
        ("WEPL", p.wepl_db),
        ("Nc", p.nc_dbm0p),
        ("Nfor", p.nfor_dbmp),
        ("Ps", p.ps_dba),
        ("Pr", p.pr_dba),
        ("A", p.a),
    ] {
        check(name, value, true, finite)?;
    }
    check("qdu", p.qdu, p.qdu >= 1.0, "at least 1")?;
    check("mT", p.mt_ms, p.mt_ms > 0.0, "above 0 ms")?;
    check("sT", p.st, p.st > 0.0, "above 0")?;
    check("Ie", codec.ie, (0.0..=95.0).contains(&codec.ie), "0 to 95")?;
    check("Bpl", codec.bpl, codec.bpl > 0.0, "above 0")?;
    check("Ta", conn.ta_ms, conn.ta_ms >= 0.0, "0 ms or more")?;
    check("T", conn.t_ms, conn.t_ms >= 0.0, "0 ms or more")?;
    check("Tr", conn.tr_ms, conn.tr_ms >= 0.0, "0 ms or more")?;
    let ppl = conn.ppl_percent;
    check("Ppl", ppl, (0.0..=100.0).contains(&ppl), "0 to 100 %")?;
    check("BurstR", conn.burst_r, conn.burst_r >= 1.0, "at least 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r_at(ta_ms: f64, ppl: f64) -> f64 {
        rate(Codec::G711, &Connection::new(ta_ms, ppl)).unwrap().r
    }

    #[test]
    fn defaults_give_the_r_g107_states() {
        // G.107 §7.7: with all defaults R = 93.2. flent's mos_score (flent/util.py),
        // checked against ITU's online E-model, has No = −61.17921438624169 and
        // Is = 1.4135680813438616 for these defaults.
        let rating = rate(Codec::G711, &Connection::new(0.0, 0.0)).unwrap();
        let (_, no) = basic_signal_to_noise(&EModelParams::default());
        assert!((no - -61.179_214_386_241_69).abs() < 1e-9, "No = {no}");
        assert!((rating.is - 1.413_568_081_343_861_6).abs() < 1e-5);
        assert!((rating.ro - 94.768_821_579_362_53).abs() < 1e-9);
        assert!((rating.r - 93.2).abs() < 0.05, "R = {}", rating.r);
        assert_eq!((rating.idte, rating.idd, rating.ie_eff), (0.0, 0.0, 0.0));
    }

    #[test]
    fn mos_matches_annex_b() {
        assert!((mos_from_r(93.2) - 4.41).abs() < 0.005);
        // The MOS at the G.109 category boundaries R = 90, 80, 70, 60, 50.
        for (r, mos) in [
            (90.0, 4.34),
            (80.0, 4.03),
            (70.0, 3.60),
            (60.0, 3.10),
            (50.0, 2.58),
        ] {
            assert!((mos_from_r(r) - mos).abs() < 0.01, "R {r}");
        }
        assert_eq!(
            (mos_from_r(-5.0), mos_from_r(0.0), mos_from_r(120.0)),
            (1.0, 1.0, 4.5)
        );
    }

    #[test]
    fn absolute_delay_costs_nothing_up_to_100_ms() {
        for ta in [0.0, 50.0, 100.0] {
            let rating = rate(Codec::G711, &Connection::new(ta, 0.0)).unwrap();
            assert_eq!(rating.idd, 0.0, "Ta {ta}");
        }
        let at_200 = rate(Codec::G711, &Connection::new(200.0, 0.0)).unwrap();
        // X = 1: 25·((2)^(1/6) − 3·(1 + 3⁻⁶)^(1/6) + 2).
        let x6 = 1.0 / 729.0_f64;
        let expected = 25.0 * (2f64.powf(1.0 / 6.0) - 3.0 * (1.0 + x6).powf(1.0 / 6.0) + 2.0);
        assert!((at_200.idd - expected).abs() < 1e-12);
    }

    #[test]
    fn r_falls_with_delay_and_with_loss() {
        let mut last = f64::INFINITY;
        for ta in (0..=1000).step_by(5) {
            let r = r_at(f64::from(ta), 0.0);
            assert!(r <= last + 1e-9, "R rose at Ta = {ta} ms");
            last = r;
        }
        let mut last = f64::INFINITY;
        for tenths in 0..=200 {
            let r = r_at(20.0, f64::from(tenths) / 10.0);
            assert!(
                r < last,
                "R did not fall at Ppl = {} %",
                f64::from(tenths) / 10.0
            );
            last = r;
        }
    }

    /// R for the default parameters, straight from the equations with the constants
    /// flent publishes (No, Is) instead of our Ro/Is code.
    fn independent_r(ta: f64, ppl: f64, bpl: f64) -> f64 {
        let (no, is, slr, rlr, telr, wepl) = (
            -61.179_214_386_241_69,
            1.413_568_081_343_861_6,
            8.0,
            2.0,
            65.0,
            110.0,
        );
        let ro = 15.0 - 1.5 * (slr + no);
        let (t, tr) = (ta, 2.0 * ta);
        let terv = telr - 40.0 * ((1.0 + t / 10.0) / (1.0 + t / 150.0)).log10()
            + 6.0 * (-0.3 * t * t).exp();
        let (roe, re) = (-1.5 * (no - rlr), 80.0 + 2.5 * (terv - 14.0));
        let idte = if t < 1.0 {
            0.0
        } else {
            ((roe - re) / 2.0 + ((roe - re).powi(2) / 4.0 + 100.0).sqrt() - 1.0)
                * (1.0 - (-t).exp())
        };
        let rle = 10.5 * (wepl + 7.0) * (tr + 1.0).powf(-0.25);
        let idle = (ro - rle) / 2.0 + ((ro - rle).powi(2) / 4.0 + 169.0).sqrt();
        let x = (ta / 100.0).ln() / 2f64.ln();
        let idd = if ta <= 100.0 {
            0.0
        } else {
            25.0 * ((1.0 + x.powi(6)).powf(1.0 / 6.0)
                - 3.0 * (1.0 + (x / 3.0).powi(6)).powf(1.0 / 6.0)
                + 2.0)
        };
        ro - is - (idte + idle + idd) - 95.0 * ppl / (ppl + bpl)
    }

    #[test]
    fn agrees_with_an_independent_calculation() {
        for (ta, ppl) in [
            (0.0, 0.0),
            (20.0, 0.0),
            (80.0, 1.0),
            (150.0, 0.5),
            (250.0, 3.0),
            (400.0, 10.0),
        ] {
            for codec in [Codec::G711, Codec::G711_PLC] {
                let ours = rate(codec, &Connection::new(ta, ppl)).unwrap().r;
                let theirs = independent_r(ta, ppl, codec.bpl);
                // Is moves by < 1e-5 with T (echo masked as sidetone); nothing else may.
                assert!(
                    (ours - theirs).abs() < 1e-4,
                    "Ta {ta} Ppl {ppl}: {ours} vs {theirs}"
                );
            }
        }
    }

    #[test]
    fn concealment_makes_loss_cheaper() {
        // (7-29) at 1 % random loss: 95·1/(1 + Bpl).
        let plain = rate(Codec::G711, &Connection::new(0.0, 1.0)).unwrap();
        let plc = rate(Codec::G711_PLC, &Connection::new(0.0, 1.0)).unwrap();
        assert!((plain.ie_eff - 95.0 / 5.3).abs() < 1e-12);
        assert!((plc.ie_eff - 95.0 / 26.1).abs() < 1e-12);
        // Bursty loss (BurstR = 2) hurts more than random loss of the same rate.
        let bursty = Connection {
            burst_r: 2.0,
            ..Connection::new(0.0, 1.0)
        };
        assert!(rate(Codec::G711_PLC, &bursty).unwrap().r < plc.r);
    }

    #[test]
    fn out_of_range_inputs_are_errors() {
        let bad = [
            Connection::new(-1.0, 0.0),
            Connection::new(f64::NAN, 0.0),
            Connection::new(10.0, 100.5),
            Connection::new(10.0, -0.1),
            Connection {
                burst_r: 0.5,
                ..Connection::new(10.0, 1.0)
            },
            Connection {
                tr_ms: -2.0,
                ..Connection::new(10.0, 1.0)
            },
        ];
        for conn in bad {
            assert!(
                matches!(
                    rate(Codec::G711, &conn),
                    Err(EModelError::OutOfRange { .. })
                ),
                "{conn:?}"
            );
        }
        let err = rate(Codec::G711, &Connection::new(10.0, 150.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "E-model Ppl = 150 is out of range: 0 to 100 %"
        );
        let conn = Connection::new(10.0, 0.0);
        assert!(rate(Codec { ie: 0.0, bpl: 0.0 }, &conn).is_err());
        assert!(rate(Codec { ie: 96.0, bpl: 4.3 }, &conn).is_err());
        let p = EModelParams {
            qdu: 0.5,
            ..EModelParams::default()
        };
        assert!(rate_with(&p, Codec::G711, &conn).is_err());
        let p = EModelParams {
            telr_db: f64::INFINITY,
            ..EModelParams::default()
        };
        assert!(rate_with(&p, Codec::G711, &conn).is_err());
    }

    #[test]
    fn extreme_but_valid_inputs_still_rate() {
        // A bufferbloated queue: seconds of delay and heavy loss rate far below 0.
        let rating = rate(Codec::G711, &Connection::new(3000.0, 60.0)).unwrap();
        assert!(rating.r < 0.0 && rating.mos == 1.0);
    }
}
