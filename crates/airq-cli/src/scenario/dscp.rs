//! DiffServ code points → 802.11 TIDs (user priorities): how a Linux AP puts a marked
//! packet in an access category.

use airq::Tid;

/// The TID (802.1D user priority) of a DSCP: its three high bits, except where RFC 8325
/// §4.3 (Figure 1) maps differently, as Linux's `cfg80211_classify8021d`
/// (net/wireless/util.c) does since "Update the default DSCP-to-UP mapping".
pub fn dscp_to_tid(dscp: u8) -> Tid {
    let up = match dscp {
        // AF11–13 high-throughput data, CS2 OAM: UP 0.
        10 | 12 | 14 | 16 => 0,
        // AF21–23 low-latency data.
        18 | 20 | 22 => 3,
        // CS3 broadcast video, AF31–33 multimedia streaming.
        24 | 26 | 28 | 30 => 4,
        // CS5 signaling.
        40 => 5,
        // VOICE-ADMIT, EF telephony.
        44 | 46 => 6,
        // CS6 network control.
        48 => 7,
        d => d >> 3,
    };
    Tid::new(up).expect("a 6-bit DSCP maps to UP 0 to 7")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dscp_maps_as_rfc_8325_figure_1() {
        let up = |d| dscp_to_tid(d).get();
        // Default (DF) and CS1 stay at their class; EF and VA are voice (UP 6).
        assert_eq!([up(0), up(8), up(46), up(44)], [0, 1, 6, 6]);
        // AF4x multimedia conferencing keeps UP 4; AF3x streaming is UP 4 too.
        assert_eq!([up(34), up(26), up(24)], [4, 4, 4]);
        // AF2x low-latency data UP 3; AF1x and CS2 down to 0; CS5 5; CS6 and CS7 7.
        assert_eq!(
            [up(18), up(10), up(16), up(40), up(48), up(56)],
            [3, 0, 0, 5, 7, 7]
        );
    }
}
