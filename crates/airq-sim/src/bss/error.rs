//! What makes a scenario one the simulator cannot run.

use crate::ap::ApConfigError;
use crate::transport::tcp::TcpConfigError;
use airq::StationId;

/// A scenario the simulator cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    Ap(ApConfigError),
    /// A flow names a station the BSS does not have.
    UnknownStation {
        flow: usize,
        station: StationId,
        stations: usize,
    },
    /// A CBR flow with a zero rate, or a ping with a zero interval.
    ZeroRate {
        flow: usize,
    },
    /// A station-to-station ping names a peer the BSS does not have.
    UnknownPeer {
        flow: usize,
        peer: StationId,
        stations: usize,
    },
    /// A station-to-station ping names its own station as the peer.
    PeerIsItself {
        flow: usize,
        station: StationId,
    },
    /// A station-to-station ping that is not
    /// [`Direction::Uplink`](crate::apps::traffic::Direction::Uplink): its station sends
    /// the requests.
    PeerPingNotUplink {
        flow: usize,
    },
    /// A TCP flow's configuration is out of range.
    Tcp {
        flow: usize,
        error: TcpConfigError,
    },
    /// A web page without objects, with an empty object or without connections.
    BadPage {
        flow: usize,
    },
    /// A station's rate control cannot run at its rate.
    RateControl {
        station: StationId,
        reason: &'static str,
    },
    /// The AP's own EDCA set ([`BssConfig::ap_edca`](crate::mac::link::BssConfig::ap_edca))
    /// has a TXOP limit other than the stations': aggregates are sized by the stations'.
    ApTxopLimit,
    /// A station's FQ-MAC parameters are invalid, or stations are given more queues
    /// than there are stations.
    StationQueue(StationId),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Ap(e) => write!(f, "AP configuration: {e}"),
            SimError::UnknownStation {
                flow,
                station,
                stations,
            } => write!(
                f,
                "flow {flow} is for {station}, but the BSS has {stations} stations"
            ),
            SimError::ZeroRate { flow } => write!(
                f,
                "flow {flow}: a CBR rate or a ping interval must be above 0"
            ),
            SimError::UnknownPeer {
                flow,
                peer,
                stations,
            } => write!(
                f,
                "flow {flow} pings {peer}, but the BSS has {stations} stations"
            ),
            SimError::PeerIsItself { flow, station } => write!(
                f,
                "flow {flow}: {station} cannot ping itself; the peer of a \
                 station-to-station ping is another station"
            ),
            SimError::PeerPingNotUplink { flow } => write!(
                f,
                "flow {flow}: a station-to-station ping goes uplink (its station sends the \
                 requests)"
            ),
            SimError::Tcp { flow, error } => write!(f, "flow {flow}: TCP: {error}"),
            SimError::BadPage { flow } => write!(
                f,
                "flow {flow}: a web page needs objects of at least 1 byte and at least 1 \
                 connection"
            ),
            SimError::RateControl { station, reason } => {
                write!(f, "station {}: {reason}", station.0)
            }
            SimError::StationQueue(station) => write!(
                f,
                "station {}: its FQ-MAC parameters are out of range, or it is not in the BSS",
                station.0
            ),
            SimError::ApTxopLimit => write!(
                f,
                "the AP's own EDCA parameters must keep the stations' TXOP limits \
                 (dot11QAPEDCATable's defaults do)"
            ),
        }
    }
}

impl std::error::Error for SimError {}
