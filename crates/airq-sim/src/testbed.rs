//! The seeds' three-station testbed ("Ending the anomaly", Høiland-Jørgensen et al.,
//! USENIX ATC 2017, section 4): an AP on 5 GHz with two fast stations at the highest
//! HT20 rate of a 2×2 radio (MCS15, long guard interval) and one slow station at MCS0.
//! Examples and tests share this one definition; the CLI reads the same setup from
//! `scenarios/ending-the-anomaly.toml`.

use crate::apps::traffic::FlowSpec;
use crate::bss::BssScenario;
use crate::mac::link::{BssConfig, StationLink};
use crate::net::packet::{FlowIndex, Payload, RelayTo, SimPacket};
use airq::phy::{Band, ChannelWidth, GuardInterval, Rate};
use airq::{Ecn, Instant, StationId, Tid};

/// Names of the testbed's stations, in index order.
pub const STATION_NAMES: [&str; 3] = ["fast1", "fast2", "slow"];

/// A station at HT MCS `mcs`, 20 MHz, long guard interval.
pub fn ht20(mcs: u8) -> StationLink {
    StationLink::new(
        Rate::ht(mcs, ChannelWidth::Mhz20, GuardInterval::Long).expect("HT MCS 0..=31 is valid"),
    )
}

/// The testbed with `flows` (stations 0 and 1 fast, 2 slow).
pub fn three_stations(flows: Vec<FlowSpec>) -> BssScenario {
    BssScenario::new(
        BssConfig::ofdm(Band::Ghz5),
        vec![ht20(15), ht20(15), ht20(0)],
        flows,
    )
}

/// A 1500-byte best-effort UDP packet `id` to station 0 (flow 0), made at time zero: the
/// packet a unit test of a queue or a MAC needs.
pub fn udp_packet(id: u32) -> SimPacket {
    SimPacket {
        id,
        flow: FlowIndex(0),
        station: StationId(0),
        uplink: false,
        relay_to: RelayTo::NONE,
        len_bytes: 1500,
        tid: Tid::new(0).expect("TID 0 exists"),
        flow_hash: 0,
        ecn: Ecn::NotEct,
        created: Instant::ZERO,
        payload: Payload::Udp,
        enqueue_time: Instant::ZERO,
        airtime_est_us: 0,
    }
}
