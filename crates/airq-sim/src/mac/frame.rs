//! What goes over the air: MPDUs (a packet with its MAC sequence number and retry count)
//! and the PPDU that carries one MPDU or an A-MPDU (IEEE 802.11-2020 9.7 A-MPDU format,
//! 10.12 A-MPDU operation).

use crate::net::packet::{NodeId, SimPacket};
pub use airq::phy::PsduLength;
use airq::phy::{mac_frame, Band, Rate};
use airq::{Ac, Duration, Instant, Tid};

/// MAC overhead of a QoS Data MPDU carrying an IP packet: QoS Data header (26 bytes),
/// LLC/SNAP (8) and FCS (4) (9.3.2.1; mac_frame).
pub const MPDU_OVERHEAD_BYTES: u32 = mac_frame::QOS_DATA_IP_OVERHEAD_BYTES;

/// One MPDU of a PPDU.
#[derive(Clone, Debug)]
pub struct Mpdu {
    pub packet: SimPacket,
    /// Sequence number (modulo 4096 on the air; kept unwrapped here).
    pub seq: u64,
    /// Transmissions so far that failed.
    pub retries: u8,
    /// Its first transmission was a rate control probe, which took the first stage of
    /// its retry chain: its retries walk the chain from the second stage (Linux fills
    /// a probe's later rate slots from the rate table's, `rate_control_fill_sta_table`).
    pub probed: bool,
    /// When its first transmission started, once it has failed (kept for a time-based
    /// retry limit, [`super::retry_time`]; `None` without one).
    pub first_tx_at: Option<Instant>,
    /// Set by the channel: received without error.
    pub ok: bool,
    /// The recipient has it already: an earlier transmission was received but its
    /// Ack or BlockAck was lost, so the originator sends it again (the recipient
    /// discards the copy).
    pub received: bool,
}

impl Mpdu {
    pub fn new(packet: SimPacket, seq: u64) -> Mpdu {
        Mpdu {
            packet,
            seq,
            retries: 0,
            probed: false,
            first_tx_at: None,
            ok: false,
            received: false,
        }
    }

    /// Length of the MPDU on the air.
    pub fn mpdu_bytes(&self) -> u32 {
        self.packet.len_bytes + MPDU_OVERHEAD_BYTES
    }
}

/// A PPDU: one MPDU with a normal Ack, or an A-MPDU answered by a BlockAck.
#[derive(Debug)]
pub struct Ppdu {
    pub src: NodeId,
    pub dst: NodeId,
    pub tid: Tid,
    /// The EDCA access category that won the medium for it.
    pub ac: Ac,
    pub rate: Rate,
    pub band: Band,
    /// An A-MPDU (BlockAck response) rather than a single MPDU (Ack response).
    pub aggregate: bool,
    pub mpdus: Vec<Mpdu>,
    /// TXTIME of the PPDU.
    pub duration: Duration,
    /// Sent behind an RTS/CTS exchange whatever the BSS's settings: rate control asked
    /// for it (a fallback stage of Minstrel-HT's retry chain, [`TxRate::rts`]).
    ///
    /// [`TxRate::rts`]: crate::mac::rate_control::TxRate::rts
    pub rts: bool,
}

impl Ppdu {
    /// Builds a PPDU of `mpdus`, computing its TXTIME. An A-MPDU if the rate allows
    /// aggregation and `aggregate` is asked for (even of one MPDU, as Linux sends them).
    pub fn new(
        src: NodeId,
        dst: NodeId,
        tid: Tid,
        rate: Rate,
        band: Band,
        aggregate: bool,
        mpdus: Vec<Mpdu>,
    ) -> Ppdu {
        let aggregate = aggregate && rate.supports_ampdu();
        let duration = ppdu_duration(&rate, band, aggregate, mpdus.iter().map(Mpdu::mpdu_bytes));
        Ppdu {
            src,
            dst,
            tid,
            ac: tid.ac(),
            rate,
            band,
            aggregate,
            mpdus,
            duration,
            rts: false,
        }
    }
}

/// TXTIME of a PPDU carrying MPDUs of the given lengths.
pub fn ppdu_duration(
    rate: &Rate,
    band: Band,
    aggregate: bool,
    mpdu_bytes: impl Iterator<Item = u32>,
) -> Duration {
    let mut psdu = PsduLength::new(aggregate);
    for bytes in mpdu_bytes {
        psdu.push(bytes);
    }
    psdu.duration(rate, band)
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ampdu_ppdu_duration, ChannelWidth, GuardInterval};

    #[test]
    fn psdu_length_matches_the_library_framing() {
        let ht = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let vht = Rate::vht(9, 1, ChannelWidth::Mhz80, GuardInterval::Short).unwrap();
        let lens = [1538u32, 95, 1538, 66, 1001];
        for rate in [ht, vht] {
            let ours = ppdu_duration(&rate, Band::Ghz5, true, lens.iter().copied());
            let theirs = ampdu_ppdu_duration(&rate, &lens, Band::Ghz5).unwrap();
            assert_eq!(ours, theirs, "{rate:?}");
        }
    }
}
