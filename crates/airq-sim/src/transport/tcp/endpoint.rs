//! The endpoint: its state, its constructors and what the application and the
//! simulator read from it. Segment processing lives in `handshake.rs` and `ack.rs`,
//! sending in `transmit.rs`, timers in `timers.rs`.

use super::cc::Controller;
use super::config::{TcpConfig, TcpConfigError};
use super::rack::Rack;
use super::receiver::Receiver;
use super::recovery::Recovery;
use super::rtt::RttEstimator;
use super::scoreboard::Scoreboard;
use super::segment::Outgoing;
use super::stats::TcpStats;
use super::timers::Probe;
use super::window::Window;
use airq::Instant;

/// Connection states (RFC 9293 §3.3.2), simplified: FIN-WAIT-1 and FIN-WAIT-2 are one
/// [`TcpState::FinWait`]; TIME-WAIT has no 2·MSL timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TcpState {
    /// No connection (never opened, or fully closed).
    Closed,
    /// A server waiting for a SYN.
    Listen,
    /// A client that sent its SYN.
    SynSent,
    /// A server that answered a SYN with a SYN-ACK.
    SynReceived,
    /// Data flows both ways.
    Established,
    /// We closed (our FIN queued or sent); the peer may still send.
    FinWait,
    /// The peer closed; we may still send.
    CloseWait,
    /// Both closed at once; waiting for the ACK of our FIN.
    Closing,
    /// We closed after the peer; waiting for the ACK of our FIN (RFC 9293 LAST-ACK).
    LastAck,
    /// Both FINs exchanged and acknowledged; retransmitted FINs are still ACKed.
    TimeWait,
}

/// The sending half's sequence state.
#[derive(Clone, Debug)]
pub(super) struct Sender {
    /// Oldest unacknowledged sequence number (RFC 9293 SND.UNA).
    pub(super) snd_una: u64,
    /// Next sequence number to send (SND.NXT).
    pub(super) snd_nxt: u64,
    /// The peer's receive window in bytes.
    pub(super) snd_wnd: u64,
    /// Payload bytes the application has written (saturating: `u64::MAX` is bulk).
    pub(super) write_total: u64,
    /// `close` was called: a FIN follows the data.
    pub(super) fin_queued: bool,
    /// Sequence number of our FIN once sent.
    pub(super) fin_seq: Option<u64>,
    pub(super) scoreboard: Scoreboard,
    /// End of the last sub-MSS segment sent (Linux `snd_sml`, Minshall's Nagle).
    pub(super) snd_sml: u64,
    /// When data was last sent (Linux `lsndtime`).
    pub(super) lsndtime: Option<Instant>,
    /// Linux `is_cwnd_limited`, `max_packets_out`, `cwnd_usage_seq`.
    pub(super) is_cwnd_limited: bool,
    pub(super) max_packets_out: u32,
    pub(super) cwnd_usage_seq: u64,
}

impl Sender {
    fn new(window: u64) -> Self {
        Sender {
            snd_una: 0,
            snd_nxt: 0,
            snd_wnd: window,
            write_total: 0,
            fin_queued: false,
            fin_seq: None,
            scoreboard: Scoreboard::default(),
            snd_sml: 0,
            lsndtime: None,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
        }
    }

    /// Payload bytes sent at least once.
    pub(super) fn data_sent(&self) -> u64 {
        self.snd_nxt.saturating_sub(1) - u64::from(self.fin_seq.is_some())
    }

    /// Payload bytes written and never sent.
    pub(super) fn unsent(&self) -> u64 {
        self.write_total - self.data_sent()
    }

    pub(super) fn fin_acked(&self) -> bool {
        self.fin_seq.is_some_and(|f| self.snd_una > f)
    }
}

/// One end of a TCP connection.
#[derive(Clone, Debug)]
pub struct TcpEndpoint {
    pub(super) config: TcpConfig,
    /// The connection's MSS: the smaller of ours and the peer's.
    pub(super) mss: u32,
    pub(super) state: TcpState,
    pub(super) stats: TcpStats,
    pub(super) sack_ok: bool,
    pub(super) ecn_ok: bool,
    pub(super) snd: Sender,
    pub(super) rcv: Receiver,
    pub(super) rtt: RttEstimator,
    pub(super) window: Window,
    pub(super) cc: Controller,
    pub(super) rec: Recovery,
    pub(super) rack: Rack,
    /// `snd_nxt` when the outstanding tail loss probe was sent (Linux `tlp_high_seq`).
    pub(super) tlp_high_seq: Option<u64>,
    /// The outstanding probe was a retransmission (Linux `tlp_retrans`).
    pub(super) tlp_retrans: bool,
    /// The retransmission timer (RFC 6298 §5).
    pub(super) rto_at: Option<Instant>,
    /// The tail-loss-probe or RACK reorder timer.
    pub(super) probe: Option<(Probe, Instant)>,
    /// SYN or SYN-ACK retransmissions.
    pub(super) syn_retransmits: u32,
}

impl TcpEndpoint {
    fn new(config: &TcpConfig, state: TcpState) -> Self {
        let config = config.clamped();
        TcpEndpoint {
            config,
            mss: config.mss,
            state,
            stats: TcpStats::default(),
            sack_ok: false,
            ecn_ok: false,
            snd: Sender::new(config.max_receive_window),
            rcv: Receiver::default(),
            rtt: RttEstimator::new(config.initial_rto, config.min_rto),
            window: Window::new(config.initial_window),
            cc: Controller::new(&config),
            rec: Recovery::default(),
            rack: Rack::default(),
            tlp_high_seq: None,
            tlp_retrans: false,
            rto_at: None,
            probe: None,
            syn_retransmits: 0,
        }
    }

    /// An active opener in [`TcpState::Closed`]; [`connect`](Self::connect) sends the
    /// SYN. A configuration out of range is clamped ([`TcpConfig::clamped`]); use
    /// [`try_client`](Self::try_client) to have it refused instead.
    pub fn client(config: &TcpConfig) -> Self {
        TcpEndpoint::new(config, TcpState::Closed)
    }

    /// A passive opener in [`TcpState::Listen`]. The configuration is clamped as for
    /// [`client`](Self::client).
    pub fn server(config: &TcpConfig) -> Self {
        TcpEndpoint::new(config, TcpState::Listen)
    }

    /// [`client`](Self::client), refusing an invalid configuration.
    pub fn try_client(config: &TcpConfig) -> Result<Self, TcpConfigError> {
        config.validate()?;
        Ok(TcpEndpoint::client(config))
    }

    /// [`server`](Self::server), refusing an invalid configuration.
    pub fn try_server(config: &TcpConfig) -> Result<Self, TcpConfigError> {
        config.validate()?;
        Ok(TcpEndpoint::server(config))
    }

    /// The application queues `bytes` more payload bytes (`u64::MAX`: an endless bulk
    /// transfer) and the endpoint sends what the windows allow. Before the connection is
    /// established the bytes wait for it; after [`close`](Self::close) they are refused
    /// and counted in [`TcpStats::refused_writes`].
    pub fn write(&mut self, bytes: u64, now: Instant, out: &mut Vec<Outgoing>) {
        if self.snd.fin_queued || (self.state == TcpState::Closed && self.snd.snd_nxt > 0) {
            self.stats.refused_writes += 1;
            return;
        }
        self.snd.write_total = self.snd.write_total.saturating_add(bytes);
        self.transmit(now, out);
        self.after_send(now);
    }

    /// The application ends its writing where the sending stands, as iperf3 or netperf
    /// does at the end of its test: the bytes written and not yet sent are dropped (an
    /// endless bulk write has no end to send), and a FIN follows what was sent
    /// ([`close`](Self::close)). In-flight data is still retransmitted until acked.
    pub fn finish(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        self.snd.write_total = self.snd.write_total.min(self.snd.data_sent());
        self.close(now, out);
    }

    /// The application closes its sending direction: a FIN follows the queued data
    /// (RFC 9293 §3.10.4). Closing before the handshake completes abandons the
    /// connection (no RST is modelled).
    pub fn close(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        match self.state {
            TcpState::Closed | TcpState::Listen | TcpState::SynSent => {
                self.state = TcpState::Closed;
                self.rto_at = None;
                self.probe = None;
            }
            TcpState::SynReceived => self.snd.fin_queued = true,
            TcpState::Established => {
                self.snd.fin_queued = true;
                self.state = TcpState::FinWait;
            }
            TcpState::CloseWait => {
                self.snd.fin_queued = true;
                self.state = TcpState::LastAck;
            }
            TcpState::FinWait | TcpState::Closing | TcpState::LastAck | TcpState::TimeWait => {}
        }
        self.transmit(now, out);
        self.after_send(now);
    }

    /// In-order payload bytes received, i.e. handed to the application.
    pub fn delivered(&self) -> u64 {
        self.rcv.delivered
    }

    /// Our payload bytes the peer has acknowledged cumulatively.
    pub fn acked(&self) -> u64 {
        self.stats.bytes_acked
    }

    /// Payload bytes written by the application and not yet acknowledged.
    pub fn unacked(&self) -> u64 {
        self.snd.write_total - self.stats.bytes_acked
    }

    /// The connection state.
    pub fn state(&self) -> TcpState {
        self.state
    }

    /// Counters, with the RTT estimates filled in.
    pub fn stats(&self) -> &TcpStats {
        &self.stats
    }

    /// Congestion window in segments.
    pub fn cwnd(&self) -> u32 {
        self.window.cwnd
    }

    /// Smoothed RTT (RFC 6298 §2; Linux `srtt`, which `ss` shows as `rtt:`), once a
    /// sample has been taken.
    pub fn srtt(&self) -> Option<airq::Duration> {
        self.rtt.srtt()
    }

    /// Slow-start threshold in segments (`0x7fffffff` before the first reduction, as
    /// Linux's `TCP_INFINITE_SSTHRESH`).
    pub fn ssthresh(&self) -> u32 {
        self.window.ssthresh
    }

    /// CUBIC's W_max in segments as the last reduction set it (RFC 9438 §4.7, after
    /// fast convergence); `None` under NewReno.
    pub fn cubic_w_max(&self) -> Option<u32> {
        self.cc.w_max()
    }

    /// The connection's MSS in bytes (after the handshake: the smaller of both ends').
    pub fn mss(&self) -> u32 {
        self.mss
    }

    /// Segments in flight (Linux `tcp_packets_in_flight`).
    pub fn in_flight(&self) -> u32 {
        self.snd.scoreboard.in_flight()
    }

    /// The current retransmission timeout, with backoff.
    pub fn rto(&self) -> airq::Duration {
        self.rtt.rto()
    }

    /// Whether ECN was negotiated in the handshake.
    pub fn ecn_enabled(&self) -> bool {
        self.ecn_ok
    }

    /// Whether SACK was negotiated in the handshake.
    pub fn sack_enabled(&self) -> bool {
        self.sack_ok
    }

    /// The earliest time [`on_timer`](Self::on_timer) has work: retransmission timeout,
    /// tail loss probe, RACK reorder timer or delayed ACK.
    pub fn next_timer(&self) -> Option<Instant> {
        [self.rto_at, self.probe.map(|p| p.1), self.rcv.delack_at]
            .into_iter()
            .flatten()
            .min()
    }

    /// Checks the internal accounting (tests and debug builds of callers).
    pub fn assert_invariants(&self) {
        self.snd.scoreboard.assert_invariants();
        self.rcv.assert_invariants();
        assert!(self.snd.snd_una <= self.snd.snd_nxt);
        if let Some(first) = self.snd.scoreboard.first() {
            assert_eq!(first.start, self.snd.snd_una.max(1).max(first.start));
        }
        if let Some(last) = self.snd.scoreboard.last() {
            assert_eq!(last.end, self.snd.snd_nxt);
        }
        assert!(self.window.cwnd >= 1);
    }
}
