//! A Linux-like TCP endpoint: a pure, event-driven state machine with no I/O and no
//! clock (STYLE.md rule 1, as smoltcp's sockets). The caller passes `now`, hands in the
//! segments that arrive, collects the [`Outgoing`] segments, and calls
//! [`TcpEndpoint::on_timer`] when [`TcpEndpoint::next_timer`] comes due.
//!
//! What it models, and where from:
//! - the three-way handshake negotiating SACK (RFC 2018 §2), ECN (RFC 3168 §6.1.1) and
//!   the MSS; timestamps (RFC 7323) always on; the FIN exchange (RFC 9293 §3.6);
//! - CUBIC (RFC 9438, Linux `tcp_cubic.c`, with HyStart) or NewReno (RFC 5681);
//! - loss recovery as Linux ≥ 4.18 does it: SACK scoreboard, RACK loss detection and
//!   Tail Loss Probe (RFC 8985), one window reduction per recovery episode with
//!   Proportional Rate Reduction (RFC 6937, Linux `tcp_cwnd_reduction`), RTO with
//!   exponential backoff (RFC 6298), going back to slow start from cwnd = 1;
//! - delayed and quick ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2, Linux);
//! - ECN (RFC 3168 §6.1): ECE echoed until CWR, one reduction per window on ECE;
//! - Linux's congestion-window validation (`tcp_is_cwnd_limited`), restart after idle
//!   (`tcp_cwnd_restart`, RFC 5681 §4.1) and Minshall's variant of Nagle.
//!
//! Not modelled: RST, urgent data, window scaling negotiation (windows are plain
//! 64-bit byte counts), receive-buffer autotuning (the window is always
//! [`TcpConfig::max_receive_window`]), pacing (Linux paces only with `sch_fq` or BBR),
//! TSO/GSO, undo of spurious reductions (Eifel/D-SACK undo), RACK's reordering window
//! adaptation, TIME_WAIT's 2·MSL timer (an endpoint stays in [`TcpState::TimeWait`],
//! answering retransmitted FINs), giving up after many timeouts. `cwnd` and `ssthresh`
//! are in segments, as in Linux.

mod ack;
mod cc;
mod config;
mod cubic;
mod endpoint;
mod handshake;
mod hystart;
mod rack;
mod receiver;
mod recovery;
mod rtt;
mod scoreboard;
mod segment;
mod stats;
mod timers;
mod transmit;
mod window;

#[cfg(test)]
mod tests;

pub use config::{CongestionControl, TcpConfig, TcpConfigError, MAX_RTO};
pub use endpoint::{TcpEndpoint, TcpState};
pub use segment::{
    Outgoing, SackBlock, Segment, TcpFlags, IPV4_HEADER_BYTES, MAX_SACK_BLOCKS, SYN_OPTION_BYTES,
    TCP_HEADER_BYTES, TIMESTAMP_OPTION_BYTES,
};
pub use stats::TcpStats;
