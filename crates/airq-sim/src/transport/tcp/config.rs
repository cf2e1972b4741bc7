//! Configuration of a [`TcpEndpoint`](super::TcpEndpoint), with the defaults of a Linux
//! host (`net/ipv4/tcp_ipv4.c` sysctl defaults, `include/net/tcp.h` constants).

use airq::Duration;
use core::fmt;

/// The congestion control algorithm of the sending side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CongestionControl {
    /// CUBIC (RFC 9438; Linux `net/ipv4/tcp_cubic.c`), Linux's default since 2.6.19.
    #[default]
    Cubic,
    /// NewReno (RFC 5681 §3.1 slow start and congestion avoidance, RFC 6582 recovery as
    /// refined by SACK/RACK; Linux `tcp_reno_cong_avoid`).
    NewReno,
}

/// Parameters of one endpoint. [`TcpConfig::default`] is a Linux host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpConfig {
    /// Congestion control. Default [`CongestionControl::Cubic`].
    pub cc: CongestionControl,
    /// Maximum segment size in payload bytes: 1448 = 1500 MTU − 20 IPv4 − 20 TCP − 12
    /// timestamp option. The connection uses the smaller of both ends' values (the MSS
    /// option of the SYNs, RFC 9293 §3.7.1).
    pub mss: u32,
    /// Initial congestion window in segments: 10 (RFC 6928; Linux `TCP_INIT_CWND`).
    pub initial_window: u32,
    /// Negotiate ECN (RFC 3168 §6.1.1): ask for it on a SYN (ECE+CWR) and accept it on a
    /// SYN-ACK (ECE). Default **false**: Linux's `tcp_ecn = 2` makes a Linux server accept
    /// ECN but a Linux client never ask for it, so Linux–Linux connections run without
    /// ECN. Set it on both ends to model an ECN-enabled host pair.
    pub ecn: bool,
    /// Negotiate SACK (RFC 2018; Linux `tcp_sack = 1`). Default true.
    pub sack: bool,
    /// Delay ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2; Linux always does). Default true.
    pub delayed_ack: bool,
    /// MacTx bound of the retransmission timeout: 200 ms (Linux `TCP_RTO_MIN`; RFC 6298
    /// §2.4 says 1 s, Linux deviates).
    pub min_rto: Duration,
    /// Retransmission timeout before any RTT sample: 1 s (RFC 6298 §2.1; Linux
    /// `TCP_TIMEOUT_INIT`).
    pub initial_rto: Duration,
    /// The receive window advertised, in bytes: 6 MiB (Linux `tcp_rmem[2]`, the ceiling of
    /// receive-buffer autotuning). Held constant: autotuning is not modelled, the window
    /// is meant never to limit the sender.
    pub max_receive_window: u64,
    /// HyStart slow-start exit in CUBIC (Linux `tcp_cubic.c` `hystart = 1`). Default true.
    pub hystart: bool,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            cc: CongestionControl::Cubic,
            mss: 1448,
            initial_window: 10,
            ecn: false,
            sack: true,
            delayed_ack: true,
            min_rto: Duration::from_millis(200),
            initial_rto: Duration::from_secs(1),
            max_receive_window: 6 << 20,
            hystart: true,
        }
    }
}

/// Largest RTO after backoff: 120 s (RFC 6298 §2.5 allows a cap ≥ 60 s; Linux
/// `TCP_RTO_MAX`).
pub const MAX_RTO: Duration = Duration::from_secs(120);

/// Smallest and largest MSS accepted (IPv4 minimum datagram 576 − 40; a 64 KiB datagram).
const MSS_RANGE: (u32, u32) = (88, 65_495);

/// A [`TcpConfig`] field out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpConfigError {
    /// `mss` outside 88..=65495 bytes.
    Mss(u32),
    /// `initial_window` is 0.
    InitialWindow,
    /// `min_rto` is zero or above `initial_rto`'s cap of 120 s.
    MinRto(Duration),
    /// `initial_rto` is zero or above 120 s.
    InitialRto(Duration),
    /// `max_receive_window` is smaller than one MSS.
    ReceiveWindow(u64),
}

impl fmt::Display for TcpConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcpConfigError::Mss(v) => write!(
                f,
                "tcp config: mss = {v} bytes, expected {}..={}",
                MSS_RANGE.0, MSS_RANGE.1
            ),
            TcpConfigError::InitialWindow => {
                write!(f, "tcp config: initial_window = 0 segments, expected >= 1")
            }
            TcpConfigError::MinRto(d) => {
                write!(
                    f,
                    "tcp config: min_rto = {d}, expected > 0 and <= {MAX_RTO}"
                )
            }
            TcpConfigError::InitialRto(d) => {
                write!(
                    f,
                    "tcp config: initial_rto = {d}, expected > 0 and <= {MAX_RTO}"
                )
            }
            TcpConfigError::ReceiveWindow(v) => write!(
                f,
                "tcp config: max_receive_window = {v} bytes, expected at least one mss"
            ),
        }
    }
}

impl std::error::Error for TcpConfigError {}

impl TcpConfig {
    /// Checks every field, naming the first one out of range.
    pub fn validate(&self) -> Result<(), TcpConfigError> {
        if !(MSS_RANGE.0..=MSS_RANGE.1).contains(&self.mss) {
            return Err(TcpConfigError::Mss(self.mss));
        }
        if self.initial_window == 0 {
            return Err(TcpConfigError::InitialWindow);
        }
        if self.min_rto.is_zero() || self.min_rto > MAX_RTO {
            return Err(TcpConfigError::MinRto(self.min_rto));
        }
        if self.initial_rto.is_zero() || self.initial_rto > MAX_RTO {
            return Err(TcpConfigError::InitialRto(self.initial_rto));
        }
        if self.max_receive_window < u64::from(self.mss) {
            return Err(TcpConfigError::ReceiveWindow(self.max_receive_window));
        }
        Ok(())
    }

    /// The nearest valid configuration: every field clamped into its range.
    pub fn clamped(&self) -> TcpConfig {
        let mss = self.mss.clamp(MSS_RANGE.0, MSS_RANGE.1);
        let rto = |d: Duration| d.max(Duration::from_millis(1)).min(MAX_RTO);
        TcpConfig {
            mss,
            initial_window: self.initial_window.max(1),
            min_rto: rto(self.min_rto),
            initial_rto: rto(self.initial_rto),
            max_receive_window: self.max_receive_window.max(u64::from(mss)),
            ..*self
        }
    }
}
