//! DSCP → 802.11 user priority (the TID of a QoS data frame), as Linux classifies a
//! packet before mac80211 queues it.
//!
//! Linux `cfg80211_classify8021d()` (`net/wireless/util.c`) takes the top three bits of
//! the DSCP — the old IP precedence, the default mapping RFC 8325 §2.3 describes — and
//! then overrides the codepoints whose RFC 4594 service class that default would put in
//! the wrong access category, following RFC 8325 §4 (summary table in §4.3). The
//! overrides came with "wifi: cfg80211: Update the default DSCP-to-UP mapping" (commit
//! 6fdb8b8781d5) and its AF3x fix of August 2024; older kernels use precedence alone,
//! which sends EF to UP 5 (AC_VI) and CS6 to UP 6.
//!
//! Codepoints RFC 8325 leaves alone — DF, CS1 and LE, AF4x, CS4, CS5, CS7, and every
//! unassigned codepoint — keep their precedence, as in Linux. (RFC 8325 §4.3 recommends
//! UP 0 for unused codepoints; Linux does not do that, and neither do we.)
//!
//! A [`Dscp`] is six bits; values above 63 are refused when one is made, so
//! [`tid_for_dscp`] cannot fail.

#![warn(missing_docs)]
use airq::Tid;
use std::fmt;

/// A Differentiated Services codepoint, 0–63 (RFC 2474 §3): the top six bits of the
/// IPv4 TOS / IPv6 traffic-class byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dscp(u8);

/// A value that is not a DSCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DscpError {
    /// DSCPs are six bits, 0–63; this value is larger.
    OutOfRange(u8),
}

impl fmt::Display for DscpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DscpError::OutOfRange(v) => write!(f, "DSCP must be 0 to 63, got {v}"),
        }
    }
}

impl std::error::Error for DscpError {}

impl Dscp {
    /// The largest codepoint.
    pub const MAX: u8 = 63;

    /// The codepoint `value`, or an error above 63.
    pub const fn new(value: u8) -> Result<Dscp, DscpError> {
        if value <= Self::MAX {
            Ok(Dscp(value))
        } else {
            Err(DscpError::OutOfRange(value))
        }
    }

    /// The codepoint of a whole DS field (TOS / traffic-class byte): its top six bits;
    /// the two ECN bits are ignored, as Linux does (`dsfield & 0xfc`).
    pub const fn from_ds_field(ds_field: u8) -> Dscp {
        Dscp(ds_field >> 2)
    }

    /// The codepoint as a number, 0–63.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The DS field carrying this codepoint with ECN bits `ecn` (0–3; higher bits ignored).
    pub const fn to_ds_field(self, ecn: u8) -> u8 {
        (self.0 << 2) | (ecn & 3)
    }

    /// The IP precedence: the top three bits of the codepoint (RFC 2474 §4.2.2.1).
    pub const fn precedence(self) -> u8 {
        self.0 >> 3
    }
}

impl fmt::Display for Dscp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DSCP {}", self.0)
    }
}

/// Default forwarding / best effort (RFC 2474 §4.1), the same codepoint as CS0.
pub const DF: Dscp = Dscp(0);
/// Best effort: flent's name for [`DF`].
pub const BE: Dscp = DF;
/// MacTx effort (RFC 8622), the less-than-best-effort PHB that replaces CS1 for it.
pub const LE: Dscp = Dscp(1);
/// Class selector 0 (RFC 2474 §4.2.2: precedence n, low three bits zero) = DF.
pub const CS0: Dscp = Dscp(0);
/// Low-priority data in RFC 4594; flent's "BK" marking.
pub const CS1: Dscp = Dscp(8);
/// RFC 4594 OAM.
pub const CS2: Dscp = Dscp(16);
/// RFC 4594 broadcast video.
pub const CS3: Dscp = Dscp(24);
/// RFC 4594 real-time interactive.
pub const CS4: Dscp = Dscp(32);
/// RFC 4594 signaling.
pub const CS5: Dscp = Dscp(40);
/// RFC 4594 network control.
pub const CS6: Dscp = Dscp(48);
/// Reserved by RFC 4594 for future network control.
pub const CS7: Dscp = Dscp(56);
/// Assured forwarding AF11 = 8·1 + 2·1 (RFC 2597 §6); RFC 4594 high-throughput data.
pub const AF11: Dscp = Dscp(10);
/// Assured forwarding AF12 = 8·1 + 2·2 (RFC 2597 §6); RFC 4594 high-throughput data.
pub const AF12: Dscp = Dscp(12);
/// Assured forwarding AF13 = 8·1 + 2·3 (RFC 2597 §6); RFC 4594 high-throughput data.
pub const AF13: Dscp = Dscp(14);
/// Assured forwarding AF21 = 8·2 + 2·1 (RFC 2597 §6); RFC 4594 low-latency data.
pub const AF21: Dscp = Dscp(18);
/// Assured forwarding AF22 = 8·2 + 2·2 (RFC 2597 §6); RFC 4594 low-latency data.
pub const AF22: Dscp = Dscp(20);
/// Assured forwarding AF23 = 8·2 + 2·3 (RFC 2597 §6); RFC 4594 low-latency data.
pub const AF23: Dscp = Dscp(22);
/// Assured forwarding AF31 = 8·3 + 2·1 (RFC 2597 §6); RFC 4594 multimedia streaming.
pub const AF31: Dscp = Dscp(26);
/// Assured forwarding AF32 = 8·3 + 2·2 (RFC 2597 §6); RFC 4594 multimedia streaming.
pub const AF32: Dscp = Dscp(28);
/// Assured forwarding AF33 = 8·3 + 2·3 (RFC 2597 §6); RFC 4594 multimedia streaming.
pub const AF33: Dscp = Dscp(30);
/// Assured forwarding AF41 = 8·4 + 2·1 (RFC 2597 §6); RFC 4594 multimedia conferencing.
pub const AF41: Dscp = Dscp(34);
/// Assured forwarding AF42 = 8·4 + 2·2 (RFC 2597 §6); RFC 4594 multimedia conferencing.
pub const AF42: Dscp = Dscp(36);
/// Assured forwarding AF43 = 8·4 + 2·3 (RFC 2597 §6); RFC 4594 multimedia conferencing.
pub const AF43: Dscp = Dscp(38);
/// Capacity-admitted voice, VOICE-ADMIT (RFC 5865).
pub const VOICE_ADMIT: Dscp = Dscp(44);
/// Expedited forwarding (RFC 3246), telephony.
pub const EF: Dscp = Dscp(46);

/// A named traffic class of a test: the label flent plots and the marking it sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DscpClass {
    /// The label, as flent names the series.
    pub name: &'static str,
    /// The marking the flows of the class carry.
    pub dscp: Dscp,
}

/// The four markings of flent's RRUL test (`flent/tests/rrul.conf`: netperf `-Y`
/// `CS0,CS0`, `CS1,CS1`, `CS5,CS5`, `EF,EF`), in its plot order.
pub const RRUL_CLASSES: [DscpClass; 4] = [
    DscpClass {
        name: "BE",
        dscp: CS0,
    },
    DscpClass {
        name: "BK",
        dscp: CS1,
    },
    DscpClass {
        name: "CS5",
        dscp: CS5,
    },
    DscpClass {
        name: "EF",
        dscp: EF,
    },
];

/// The 802.1D user priority, i.e. the TID (0–7), Linux gives a packet marked `dscp`
/// (`cfg80211_classify8021d`, without a QoS map from the AP): precedence, except for
/// the RFC 8325 §4 overrides below.
pub fn tid_for_dscp(dscp: Dscp) -> Tid {
    let up = match dscp.get() {
        // §4.2 High-Throughput Data, AF11/AF12/AF13 → UP 0 (not 1: AC_BK would
        // starve it).
        10 | 12 | 14 => 0,
        // §4.1 OAM, CS2 → UP 0.
        16 => 0,
        // §4.2 Low-Latency Data, AF21/AF22/AF23 → UP 3.
        18 | 20 | 22 => 3,
        // §4.2 Broadcast Video, CS3 → UP 4.
        24 => 4,
        // §4.2 Multimedia Streaming, AF31/AF32/AF33 → UP 4.
        26 | 28 | 30 => 4,
        // §4.2 Telephony: VOICE-ADMIT and EF → UP 6.
        44 | 46 => 6,
        // §4.1.1 Network Control Protocols, CS6 → UP 7.
        48 => 7,
        // Everything else keeps its precedence (§2.3), which is what §4 asks for
        // Standard (DF → 0), Low-Priority Data (CS1 → 1), Multimedia Conferencing
        // (AF4x → 4), Real-Time Interactive (CS4 → 4), Signaling (CS5 → 5) and, by
        // §4.1.1, CS7 → 7.
        _ => dscp.precedence(),
    };
    Tid::new(up).expect("a precedence or an override is at most 7")
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::Ac;

    /// The user priority of every codepoint, written out by hand from RFC 8325 §4.3 as
    /// Linux applies it: one row per precedence, codepoints 8p … 8p+7.
    const EXPECTED_UP: [[u8; 8]; 8] = [
        [0, 0, 0, 0, 0, 0, 0, 0], // 0–7: DF, LE, unassigned
        [1, 1, 0, 1, 0, 1, 0, 1], // 8–15: CS1; AF11/12/13 at 10/12/14 → 0
        [0, 2, 3, 2, 3, 2, 3, 2], // 16–23: CS2 → 0; AF21/22/23 at 18/20/22 → 3
        [4, 3, 4, 3, 4, 3, 4, 3], // 24–31: CS3 → 4; AF31/32/33 at 26/28/30 → 4
        [4, 4, 4, 4, 4, 4, 4, 4], // 32–39: CS4, AF41/42/43
        [5, 5, 5, 5, 6, 5, 6, 5], // 40–47: CS5; VOICE-ADMIT 44 and EF 46 → 6
        [7, 6, 6, 6, 6, 6, 6, 6], // 48–55: CS6 → 7
        [7, 7, 7, 7, 7, 7, 7, 7], // 56–63: CS7
    ];

    #[test]
    fn every_codepoint_maps_as_linux_does() {
        for value in 0..=63u8 {
            let dscp = Dscp::new(value).unwrap();
            let expected = EXPECTED_UP[usize::from(value / 8)][usize::from(value % 8)];
            assert_eq!(tid_for_dscp(dscp).get(), expected, "{dscp}");
        }
    }

    #[test]
    fn values_above_63_are_refused() {
        for value in 64..=255u8 {
            assert_eq!(Dscp::new(value), Err(DscpError::OutOfRange(value)));
        }
        assert_eq!(
            Dscp::new(64).unwrap_err().to_string(),
            "DSCP must be 0 to 63, got 64"
        );
    }

    #[test]
    fn named_codepoints_have_their_rfc_values() {
        let af = [
            (AF11, 1, 1),
            (AF12, 1, 2),
            (AF13, 1, 3),
            (AF21, 2, 1),
            (AF22, 2, 2),
            (AF23, 2, 3),
            (AF31, 3, 1),
            (AF32, 3, 2),
            (AF33, 3, 3),
            (AF41, 4, 1),
            (AF42, 4, 2),
            (AF43, 4, 3),
        ];
        for (dscp, class, drop) in af {
            assert_eq!(dscp.get(), 8 * class + 2 * drop, "RFC 2597 AF{class}{drop}");
        }
        let cs = [CS0, CS1, CS2, CS3, CS4, CS5, CS6, CS7];
        for (n, dscp) in cs.iter().enumerate() {
            assert_eq!(usize::from(dscp.get()), 8 * n);
            assert_eq!(usize::from(dscp.precedence()), n);
        }
        assert_eq!(
            (EF.get(), VOICE_ADMIT.get(), LE.get(), BE),
            (46, 44, 1, CS0)
        );
    }

    #[test]
    fn rrul_classes_land_in_four_different_access_categories() {
        let acs: Vec<Ac> = RRUL_CLASSES
            .iter()
            .map(|c| tid_for_dscp(c.dscp).ac())
            .collect();
        assert_eq!(acs, [Ac::Be, Ac::Bk, Ac::Vi, Ac::Vo]);
        let names: Vec<&str> = RRUL_CLASSES.iter().map(|c| c.name).collect();
        assert_eq!(names, ["BE", "BK", "CS5", "EF"]);
    }

    #[test]
    fn ds_field_round_trips_and_ignores_ecn() {
        for ds in 0..=255u8 {
            let dscp = Dscp::from_ds_field(ds);
            assert_eq!(dscp.get(), ds >> 2);
            assert_eq!(dscp.to_ds_field(ds & 3), ds);
        }
        // EF with ECT(0): the TOS byte 0xba.
        assert_eq!(Dscp::from_ds_field(0xba), EF);
        assert_eq!(tid_for_dscp(Dscp::from_ds_field(0xbb)).get(), 6);
    }
}
