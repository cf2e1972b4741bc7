//! Counters of one endpoint, named after the Linux MIB counters they correspond to where
//! there is one (`nstat`: `TcpRetransSegs`, `TcpExtTCPTimeouts`, ...).

use airq::Duration;

/// What an endpoint has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TcpStats {
    /// Every segment sent: SYNs, data, retransmissions, FINs, pure ACKs.
    pub segments_sent: u64,
    /// Pure ACKs sent (no data, SYN or FIN).
    pub pure_acks_sent: u64,
    /// Segments sent again: data or FIN (`TcpRetransSegs`), SYN/SYN-ACK included.
    pub retransmits: u64,
    /// Retransmission timer expiries (`TcpExtTCPTimeouts`).
    pub rto_timeouts: u64,
    /// Tail loss probes sent (`TcpExtTCPLossProbes`, RFC 8985 §7).
    pub tlp_probes: u64,
    /// Entries into fast recovery (`TcpExtTCPSackRecovery`).
    pub fast_recoveries: u64,
    /// Data segments received with CE in their IP header.
    pub ce_received: u64,
    /// Window reductions on ECE (entries into CWR, RFC 3168 §6.1.2).
    pub ecn_reductions: u64,
    /// D-SACK blocks received (RFC 2883).
    pub dsacks_received: u64,
    /// Our payload bytes the peer has acknowledged cumulatively.
    pub bytes_acked: u64,
    /// In-order payload bytes received.
    pub bytes_delivered: u64,
    /// Payload bytes received that we already had.
    pub duplicate_bytes_received: u64,
    /// Smoothed RTT (RFC 6298 §2), once there is a sample.
    pub srtt: Option<Duration>,
    /// Smallest RTT sample seen.
    pub min_rtt: Option<Duration>,
    /// Segments ignored: no connection for them, or not acceptable in the state.
    pub ignored_segments: u64,
    /// Calls to `write` after `close`, whose bytes were refused.
    pub refused_writes: u64,
}
