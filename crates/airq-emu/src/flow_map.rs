//! Which of the scenario's flows a real packet is counted in. Each scenario flow's tool
//! is told where to send (an iperf3 server on port [`tcp_port`] of the flow), so the
//! packets of flow `k` are found by that port; ICMP echoes between the server and a
//! station are that station's ping flow. Anything else a station sends or receives (the
//! iperf3 control connection is on the same port, so it is counted with its test;
//! tools a user runs under `--hold`) is counted in an extra flow per station, added
//! after the scenario's, which the results' flow table leaves out.

use airq::StationId;
use airq_sim::apps::traffic::{App, FlowSpec};
use airq_sim::bss::Host;
use airq_sim::net::flow_hash::{PROTO_ICMP, PROTO_TCP};
use airq_sim::net::packet::FlowIndex;
use airq_sim::net::real_packet::Ipv4Fields;

/// The iperf3 server port of the scenario's flow `k`.
pub fn tcp_port(k: usize) -> u16 {
    5201 + k as u16
}

/// The classification of real packets into flows.
#[derive(Clone, Debug)]
pub struct FlowMap {
    /// The scenario's flows.
    flows: Vec<FlowSpec>,
    stations: usize,
}

impl FlowMap {
    /// The map for `flows` over `stations` stations, and the flows the simulation is
    /// to have: the scenario's, then one for the rest of each station's traffic.
    pub fn new(flows: &[FlowSpec], stations: usize) -> (FlowMap, Vec<FlowSpec>) {
        let mut all = flows.to_vec();
        for s in 0..stations {
            all.push(FlowSpec::ping(
                StationId(s as u32),
                airq::Duration::from_secs(1),
            ));
        }
        (
            FlowMap {
                flows: flows.to_vec(),
                stations,
            },
            all,
        )
    }

    /// The flow of a packet from `from` to `to`, and the payload bytes it counts for
    /// (none for an ICMP echo, as the simulator counts none for its pings).
    pub fn classify(&self, from: Host, to: Host, f: &Ipv4Fields) -> (FlowIndex, u32) {
        let station = match (from, to) {
            (Host::Station(s), _) | (_, Host::Station(s)) => s,
            _ => StationId(0),
        };
        let rest = FlowIndex((self.flows.len() + station.index().min(self.stations - 1)) as u32);
        let of_station = |k: &usize| self.flows[*k].station == station;
        match f.tuple.protocol {
            PROTO_ICMP => {
                let ping = (0..self.flows.len()).filter(of_station).find(|&k| {
                    matches!(self.flows[k].app, App::Ping { .. }) && self.flows[k].peer().is_none()
                });
                (ping.map_or(rest, |k| FlowIndex(k as u32)), 0)
            }
            PROTO_TCP => {
                let flow = (0..self.flows.len()).filter(of_station).find(|&k| {
                    let port = tcp_port(k);
                    f.tuple.src_port == port || f.tuple.dst_port == port
                });
                (flow.map_or(rest, |k| FlowIndex(k as u32)), f.payload_bytes)
            }
            _ => (rest, f.payload_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq_sim::apps::traffic::Direction;
    use airq_sim::net::dscp::Dscp;
    use airq_sim::net::flow_hash::FiveTuple;

    fn fields(protocol: u8, src_port: u16, dst_port: u16) -> Ipv4Fields {
        Ipv4Fields {
            tuple: FiveTuple {
                src: 0x0a00_0001,
                dst: 0x0a00_0102,
                src_port,
                dst_port,
                protocol,
            },
            dscp: Dscp::new(0).unwrap(),
            ecn: airq::Ecn::NotEct,
            len_bytes: 1500,
            payload_bytes: 1448,
        }
    }

    #[test]
    fn packets_go_to_their_tests_flow_and_the_rest_to_the_stations_extra_flow() {
        let s1 = StationId(1);
        let flows = vec![
            FlowSpec::ping(StationId(0), airq::Duration::from_millis(200)),
            FlowSpec::ping(s1, airq::Duration::from_millis(200)),
            FlowSpec::new(
                s1,
                Direction::Downlink,
                App::Tcp {
                    config: Default::default(),
                },
            ),
        ];
        let (map, all) = FlowMap::new(&flows, 2);
        assert_eq!(all.len(), 5);
        let (srv, sta) = (Host::Server, Host::Station(s1));
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_ICMP, 7, 7)),
            (FlowIndex(1), 0)
        );
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_TCP, tcp_port(2), 40000)),
            (FlowIndex(2), 1448)
        );
        assert_eq!(
            map.classify(sta, srv, &fields(PROTO_TCP, 40000, tcp_port(2)))
                .0,
            FlowIndex(2)
        );
        // Another port, or UDP: the station's extra flow (3 + 1).
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_TCP, 80, 40000)).0,
            FlowIndex(4)
        );
        assert_eq!(
            map.classify(srv, sta, &fields(17, 53, 40000)).0,
            FlowIndex(4)
        );
    }
}
