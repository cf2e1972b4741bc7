//! What travels between two endpoints: a TCP segment with the header fields the model
//! uses, and the ECN codepoint its IP header should carry.
//!
//! Sequence numbers are 64-bit byte offsets from an ISN of 0 in each direction: the SYN
//! takes sequence number 0, data starts at 1, the FIN takes one number after the data
//! (RFC 9293 §3.4). They never wrap, so no modular comparison is needed.

use airq::Instant;

/// IPv4 header bytes (no options).
pub const IPV4_HEADER_BYTES: u32 = 20;
/// TCP header bytes without options.
pub const TCP_HEADER_BYTES: u32 = 20;
/// The timestamp option as Linux aligns it: NOP, NOP, kind, length, TSval, TSecr
/// (RFC 7323 §3, appendix A).
pub const TIMESTAMP_OPTION_BYTES: u32 = 12;
/// Options of a Linux SYN or SYN-ACK: MSS (4), SACK-permitted + timestamps (12), NOP +
/// window scale (4).
pub const SYN_OPTION_BYTES: u32 = 20;
/// SACK blocks that fit beside the timestamp option in the 40 option bytes (RFC 2018 §3).
pub const MAX_SACK_BLOCKS: usize = 3;

/// The TCP header flags the model uses (no RST, PSH or URG).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TcpFlags {
    /// Synchronize: opens the connection, takes one sequence number.
    pub syn: bool,
    /// Finish: no more data from the sender, takes one sequence number.
    pub fin: bool,
    /// The acknowledgment field is valid.
    pub ack: bool,
    /// ECN-Echo (RFC 3168 §6.1.1 on a SYN, §6.1.3 afterwards).
    pub ece: bool,
    /// Congestion Window Reduced (RFC 3168 §6.1.2).
    pub cwr: bool,
}

/// One SACK block: the half-open sequence range `start..end` the receiver holds
/// (RFC 2018 §3: left edge, right edge = next sequence number after the block).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlock {
    /// Left edge: the first sequence number held.
    pub start: u64,
    /// Right edge: the sequence number after the last one held.
    pub end: u64,
}

/// A TCP segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Sequence number of the first octet (of the SYN or FIN if no data precedes it).
    pub seq: u64,
    /// Cumulative acknowledgment: the next sequence number expected (valid with `ack`).
    pub ack: u64,
    /// Payload bytes.
    pub len: u32,
    /// SYN, FIN, ACK, ECE, CWR.
    pub flags: TcpFlags,
    /// SACK blocks, the first `sack_len` valid; a D-SACK block first if any (RFC 2883),
    /// then the most recently changed block (RFC 2018 §4).
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    /// How many of `sack` are valid.
    pub sack_len: u8,
    /// Receive window in bytes, already scaled (RFC 7323 §2).
    pub window: u64,
    /// Timestamp value: the sender's clock (RFC 7323 §3).
    pub ts_val: Instant,
    /// Timestamp echo reply: the peer's `ts_val` being echoed (RFC 7323 §4.3).
    pub ts_ecr: Instant,
    /// SYN only: the SACK-permitted option (RFC 2018 §2).
    pub sack_permitted: bool,
    /// SYN only: the MSS option in bytes (RFC 9293 §3.7.1); 0 elsewhere.
    pub mss: u32,
}

impl Segment {
    /// An empty segment: no flags, no data, no options beyond timestamps.
    pub fn new(seq: u64, ack: u64) -> Segment {
        Segment {
            seq,
            ack,
            len: 0,
            flags: TcpFlags::default(),
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            sack_len: 0,
            window: 0,
            ts_val: Instant::ZERO,
            ts_ecr: Instant::ZERO,
            sack_permitted: false,
            mss: 0,
        }
    }

    /// The IP packet length: 20 IP + 20 TCP + options + payload. Options are the 12-byte
    /// timestamp option, plus 4 + 8·n bytes for n SACK blocks (NOP, NOP, kind, length;
    /// RFC 2018 §3), or Linux's 20 option bytes on a SYN.
    pub fn ip_len(&self) -> u32 {
        let options = if self.flags.syn {
            SYN_OPTION_BYTES
        } else if self.sack_len > 0 {
            TIMESTAMP_OPTION_BYTES + 4 + 8 * u32::from(self.sack_len)
        } else {
            TIMESTAMP_OPTION_BYTES
        };
        IPV4_HEADER_BYTES + TCP_HEADER_BYTES + options + self.len
    }

    /// The valid SACK blocks (at most [`MAX_SACK_BLOCKS`] even if `sack_len` says more).
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..usize::from(self.sack_len).min(MAX_SACK_BLOCKS)]
    }

    /// Sequence space the segment occupies: payload, plus one each for SYN and FIN.
    pub fn seq_len(&self) -> u64 {
        u64::from(self.len) + u64::from(self.flags.syn) + u64::from(self.flags.fin)
    }

    /// The sequence number after the segment.
    pub fn end_seq(&self) -> u64 {
        self.seq.saturating_add(self.seq_len())
    }

    /// Whether this is a pure ACK: no data, SYN or FIN.
    pub fn is_pure_ack(&self) -> bool {
        self.seq_len() == 0
    }
}

/// A segment handed to the network by an endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The segment to carry.
    pub segment: Segment,
    /// Send with ECT(0) in the IP header: new data on an ECN connection. Pure ACKs, SYNs
    /// and retransmissions are Not-ECT (RFC 3168 §6.1.4, §6.1.5; Linux `tcp_ecn_send`).
    pub ect: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_len_counts_headers_options_and_payload() {
        let mut s = Segment::new(1, 1);
        s.len = 1448;
        assert_eq!(s.ip_len(), 1500);
        s.len = 0;
        assert_eq!(s.ip_len(), 52);
        s.sack_len = 3;
        assert_eq!(
            s.ip_len(),
            52 + 28,
            "3 SACK blocks fill the 40 option bytes"
        );
        let mut syn = Segment::new(0, 0);
        syn.flags.syn = true;
        assert_eq!(syn.ip_len(), 60);
        assert_eq!(syn.seq_len(), 1);
    }
}
