//! One flow of a run as the report sees it: the test that made it, its kind and
//! direction, its DiffServ mark and what it measured over time. The flent export names
//! its series from these (flent names a series by test, direction and class), so a flow
//! appears in a flent file exactly when the run had it.

use crate::error::ReportError;

/// What a flow carries, which decides the flent series it becomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlowKind {
    /// Bulk TCP (`tcp_download`, `tcp_upload`, `tcp_bidirectional`, rrul's streams).
    #[default]
    Tcp,
    /// UDP load (`udp_flood`, `udp_flood_up`, `udp_cbr`).
    Udp,
    /// ICMP echo (`ping`, rrul's ping).
    Ping,
    /// One leg of a VoIP call.
    Voip,
    /// Web page loads.
    Http,
}

/// Which way a flow's data goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlowDirection {
    /// Server → AP → station.
    #[default]
    Down,
    /// Station → AP → server.
    Up,
}

/// One flow of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlowView {
    /// The station at its wireless end (a name in the run's `stations`).
    pub station: String,
    /// The scenario test that made it, as flent names tests ("tcp_download", "rrul", ...).
    pub test: String,
    /// What it carries.
    pub kind: FlowKind,
    /// Which way its data goes.
    pub direction: FlowDirection,
    /// The station a station-to-station ping goes to (`None` for every other flow).
    pub to: Option<String>,
    /// Its DiffServ codepoint (0–63).
    pub dscp: u8,
    /// Application goodput per step, Mbit/s, indexed as the stations' series; empty when
    /// the results had no per-flow bytes.
    pub goodput_mbps: Vec<f64>,
    /// Ping replies: (seconds since the start, RTT in ms).
    pub rtt_ms: Vec<(f64, f64)>,
    /// Completed web page loads: (seconds since the start at completion, load time in s).
    pub page_loads_s: Vec<(f64, f64)>,
    /// A VoIP leg's quality at its receiver.
    pub voip: Option<VoipView>,
    /// The congestion window of the flow's TCP sender at the end of each step, segments
    /// (what `ss` shows as `cwnd:`), indexed as `goodput_mbps`; `None` at a step where
    /// the sender had no established connection. Empty for a flow without TCP, and when
    /// the results did not record it.
    pub tcp_cwnd: Vec<Option<u32>>,
    /// The smoothed RTT of the flow's TCP sender at the end of each step, ms (`ss`'s
    /// `rtt:`), indexed and empty as `tcp_cwnd`; `None` also before its first RTT sample.
    pub tcp_rtt_ms: Vec<Option<f64>>,
}

/// A VoIP leg over the whole run, at its receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VoipView {
    /// RTP packets sent.
    pub sent: u64,
    /// Received in time to be played.
    pub received: u64,
    /// Mean one-way delay, ms.
    pub mean_delay_ms: f64,
    /// RFC 3550 interarrival jitter, ms.
    pub jitter_ms: f64,
    /// Mean opinion score (ITU-T G.107).
    pub mos: f64,
}

impl FlowView {
    /// Checks the flow's samples; `at` names it in errors.
    pub(crate) fn validate(
        &self,
        duration_s: f64,
        steps: usize,
        at: &str,
    ) -> Result<(), ReportError> {
        if self.dscp > 63 {
            return Err(ReportError::invalid(
                format!("{at}, dscp"),
                format!("{} is not a DiffServ codepoint (0..=63)", self.dscp),
            ));
        }
        if self.goodput_mbps.len() > steps {
            return Err(ReportError::invalid(
                format!("{at}, goodput_mbps"),
                format!(
                    "{} samples, but the run has {steps} steps",
                    self.goodput_mbps.len()
                ),
            ));
        }
        if let Some(i) = self
            .goodput_mbps
            .iter()
            .position(|v| !v.is_finite() || *v < 0.0)
        {
            return Err(ReportError::invalid(
                format!("{at}, goodput_mbps[{i}]"),
                format!("{} is not a finite value >= 0", self.goodput_mbps[i]),
            ));
        }
        let steps_of = [
            ("tcp_cwnd", self.tcp_cwnd.len()),
            ("tcp_rtt_ms", self.tcp_rtt_ms.len()),
        ];
        for (field, len) in steps_of {
            if len > steps {
                return Err(ReportError::invalid(
                    format!("{at}, {field}"),
                    format!("{len} samples, but the run has {steps} steps"),
                ));
            }
        }
        if let Some(i) = self.tcp_cwnd.iter().position(|c| *c == Some(0)) {
            return Err(ReportError::invalid(
                format!("{at}, tcp_cwnd[{i}]"),
                "0 segments: a congestion window is at least 1 segment",
            ));
        }
        let bad_rtt = self
            .tcp_rtt_ms
            .iter()
            .enumerate()
            .find_map(|(i, v)| v.filter(|v| !v.is_finite() || *v <= 0.0).map(|v| (i, v)));
        if let Some((i, v)) = bad_rtt {
            return Err(ReportError::invalid(
                format!("{at}, tcp_rtt_ms[{i}]"),
                format!("{v} is not a finite value > 0"),
            ));
        }
        let timed = [
            ("rtt_ms", &self.rtt_ms),
            ("page_loads_s", &self.page_loads_s),
        ];
        for (field, samples) in timed {
            for (i, &(t, v)) in samples.iter().enumerate() {
                if !(t.is_finite() && (0.0..=duration_s).contains(&t)) {
                    return Err(ReportError::invalid(
                        format!("{at}, {field}[{i}]"),
                        format!("time {t} s is outside the run (0..={duration_s} s)"),
                    ));
                }
                if !v.is_finite() || v <= 0.0 {
                    return Err(ReportError::invalid(
                        format!("{at}, {field}[{i}]"),
                        format!("{v} is not a finite value > 0"),
                    ));
                }
            }
        }
        Ok(())
    }
}
