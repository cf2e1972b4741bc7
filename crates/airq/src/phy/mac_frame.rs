//! Sizes of the MAC frames a timing model needs, in bytes, and the length of an MPDU.
//!
//! MAC framing is kept minimal and explicit: an MPDU is the caller's payload plus an
//! overhead the caller chooses, `mpdu_bytes = payload_bytes + overhead_bytes`. The
//! constants give the usual pieces (IEEE 802.11-2020 9.2.3 general frame format,
//! 9.3.1 control frames, 9.3.2.1 data frames):
//!
//! - QoS Data header: Frame Control 2 + Duration 2 + Address 1–3 18 + Sequence Control 2
//!   + QoS Control 2 = 26 bytes (no Address 4, no HT Control);
//! - FCS: 4 bytes;
//! - LLC/SNAP header that carries the EtherType of an IP packet (IEEE 802.2, RFC 1042):
//!   8 bytes, so an IP packet of N bytes is an MPDU of N + 38 bytes;
//! - Ack and CTS: Frame Control 2 + Duration 2 + RA 6 + FCS 4 = 14 bytes; RTS adds TA: 20;
//! - compressed BlockAck: Frame Control 2 + Duration 2 + RA 6 + TA 6 + BA Control 2
//!   + Starting Sequence Control 2 + 8-byte bitmap + FCS 4 = 32 bytes.

/// MAC header of a QoS Data frame (three addresses, no HT Control).
pub const QOS_DATA_HEADER_BYTES: u32 = 26;
/// The HT Control field a +HTC frame adds to its header.
pub const HT_CONTROL_BYTES: u32 = 4;
/// Frame Check Sequence.
pub const FCS_BYTES: u32 = 4;
/// LLC/SNAP encapsulation of an EtherType payload.
pub const LLC_SNAP_BYTES: u32 = 8;
/// QoS Data header + LLC/SNAP + FCS: the MPDU overhead of one IP packet.
pub const QOS_DATA_IP_OVERHEAD_BYTES: u32 = QOS_DATA_HEADER_BYTES + LLC_SNAP_BYTES + FCS_BYTES;

/// Ack frame.
pub const ACK_BYTES: u32 = 14;
/// CTS frame.
pub const CTS_BYTES: u32 = 14;
/// RTS frame.
pub const RTS_BYTES: u32 = 20;
/// Compressed BlockAck frame (64-bit bitmap).
pub const BLOCK_ACK_COMPRESSED_BYTES: u32 = 32;
/// Compressed BlockAckReq frame (IEEE 802.11-2020 9.3.1.7: Frame Control, Duration, RA,
/// TA, BAR Control, Starting Sequence Control, FCS).
pub const BLOCK_ACK_REQ_COMPRESSED_BYTES: u32 = 24;

/// The length of an MPDU carrying `payload_bytes` with `overhead_bytes` of MAC framing
/// (saturating, so an absurd input cannot wrap).
pub const fn mpdu_bytes(payload_bytes: u32, overhead_bytes: u32) -> u32 {
    payload_bytes.saturating_add(overhead_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_packet_overhead_is_38_bytes() {
        assert_eq!(QOS_DATA_IP_OVERHEAD_BYTES, 38);
        assert_eq!(mpdu_bytes(1500, QOS_DATA_IP_OVERHEAD_BYTES), 1538);
        assert_eq!(mpdu_bytes(u32::MAX, 1), u32::MAX);
    }
}
