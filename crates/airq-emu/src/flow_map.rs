//! Which of the scenario's flows a real packet is counted in. Each scenario flow's tool
//! is told where to send (an iperf3 or irtt server on port [`tcp_port`] of the flow,
//! TCP or UDP), so the packets of flow `k` are found by that port; a ping flow's `ping`
//! is given the ICMP echo identifier [`ping_id`] of the flow (`ping -e`), so its
//! requests and replies are found by that, whoever sends them (the server, a station,
//! or a station pinging another). An echo with another identifier between the server
//! and a station counts in that station's first ping from the server. Anything else a
//! station sends or receives (the iperf3 control connection is on the same port, so it
//! is counted with its test; tools a user runs under `--hold`) is counted in an extra
//! flow per station, added after the scenario's, which the results' flow table leaves
//! out.

use airq::StationId;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, Load};
use airq_sim::bss::Host;
use airq_sim::net::flow_hash::{PROTO_ICMP, PROTO_TCP, PROTO_UDP};
use airq_sim::net::packet::FlowIndex;
use airq_sim::net::real_packet::{Ipv4Fields, PROTO_ICMPV6};

/// The iperf3 server port of the scenario's flow `k`.
pub fn tcp_port(k: usize) -> u16 {
    5201 + k as u16
}

/// The ICMP echo identifier of the scenario's ping flow `k`: the first 16,384 kept for
/// other pings (`ping` picks a random one).
pub fn ping_id(k: usize) -> u16 {
    0x4000u16.wrapping_add(k as u16)
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
    /// to have: the scenario's, then one for the rest of each station's traffic. A
    /// saturated UDP flow (`udp_flood`) is given to the model as UDP at a rate: its
    /// packets are the real sender's (iperf3), and the model tops up a saturated flow
    /// with packets of its own (and takes no real ones in it). The rate is never used:
    /// an external simulation starts none of its flows.
    pub fn new(flows: &[FlowSpec], stations: usize) -> (FlowMap, Vec<FlowSpec>) {
        let mut all = flows.to_vec();
        for f in &mut all {
            if let App::Udp {
                load: load @ Load::Saturated { .. },
                ..
            } = &mut f.app
            {
                *load = Load::Cbr {
                    rate_bps: 1_000_000,
                };
            }
        }
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

    /// The leg of the call whose irtt runs on flow `k`'s port (one irtt measures both
    /// legs) that a packet from `from` belongs to: the uplink leg of the same station
    /// and marking for a packet a station sends. `k` itself for any other flow.
    fn call_leg(&self, k: usize, from: Host) -> usize {
        let f = &self.flows[k];
        let direction = match from {
            Host::Station(_) => Direction::Uplink,
            Host::Server => Direction::Downlink,
        };
        if !matches!(f.app, App::Voip { .. }) || f.direction == direction {
            return k;
        }
        (0..self.flows.len())
            .find(|&j| {
                let g = &self.flows[j];
                matches!(g.app, App::Voip { .. })
                    && (g.station, g.direction, g.dscp) == (f.station, direction, f.dscp)
            })
            .unwrap_or(k)
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
            PROTO_ICMP | PROTO_ICMPV6 => {
                // The echo identifier is in both "ports" (`parse_ipv4`, `parse_ipv6`):
                // an IPv6 echo (`ping -6`) is found as an IPv4 one.
                let id = f.tuple.src_port;
                let by_id = (0..self.flows.len())
                    .find(|&k| matches!(self.flows[k].app, App::Ping { .. }) && ping_id(k) == id);
                let between = |k: &usize| {
                    let f = &self.flows[*k];
                    let ends = [
                        Host::Station(f.station),
                        f.peer().map_or(Host::Server, Host::Station),
                    ];
                    ends.contains(&from) && ends.contains(&to)
                };
                let with_server = from == Host::Server || to == Host::Server;
                let ping = by_id.filter(between).or_else(|| {
                    (0..self.flows.len())
                        .filter(of_station)
                        .filter(|_| with_server)
                        .find(|&k| {
                            matches!(self.flows[k].app, App::Ping { .. })
                                && self.flows[k].peer().is_none()
                                && self.flows[k].direction == Direction::Downlink
                        })
                });
                (ping.map_or(rest, |k| FlowIndex(k as u32)), 0)
            }
            PROTO_TCP | PROTO_UDP => {
                let flow = (0..self.flows.len()).filter(of_station).find(|&k| {
                    let port = tcp_port(k);
                    f.tuple.src_port == port || f.tuple.dst_port == port
                });
                let flow = flow.map(|k| self.call_leg(k, from));
                (flow.map_or(rest, |k| FlowIndex(k as u32)), f.payload_bytes)
            }
            _ => (rest, f.payload_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        // A flood is real packets: not one the model saturates itself.
        let (_, all) = FlowMap::new(&[FlowSpec::saturated(s1, Direction::Downlink)], 2);
        assert!(all[0].saturated_backlog().is_none());
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
        // UDP on the flow's port is the flow's (iperf3 -u, irtt).
        assert_eq!(
            map.classify(sta, srv, &fields(PROTO_UDP, 40000, tcp_port(2))),
            (FlowIndex(2), 1448)
        );
        // Another port: the station's extra flow (3 + 1).
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_TCP, 80, 40000)).0,
            FlowIndex(4)
        );
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_UDP, 53, 40000)).0,
            FlowIndex(4)
        );
    }

    /// One irtt carries a call's two legs on the downlink leg's port: the requests a
    /// station sends count in the uplink leg, the server's replies in the downlink's.
    #[test]
    fn a_calls_packets_go_to_the_leg_of_their_direction() {
        let s0 = StationId(0);
        let flows = vec![
            FlowSpec::voip(s0, Direction::Downlink),
            FlowSpec::voip(s0, Direction::Uplink),
        ];
        let (map, _) = FlowMap::new(&flows, 1);
        let (srv, sta) = (Host::Server, Host::Station(s0));
        let port = tcp_port(0);
        assert_eq!(
            map.classify(srv, sta, &fields(PROTO_UDP, port, 40000)).0,
            FlowIndex(0)
        );
        assert_eq!(
            map.classify(sta, srv, &fields(PROTO_UDP, 40000, port)).0,
            FlowIndex(1)
        );
    }

    /// Pings are told apart by their echo identifier, whoever sends them: the server's
    /// to a station, a station's to the server, a station's to another; an echo with
    /// an identifier of none of them between the server and a station is that
    /// station's ping from the server.
    #[test]
    fn pings_are_found_by_their_echo_identifier() {
        let (s0, s1) = (StationId(0), StationId(1));
        let ms = airq::Duration::from_millis(200);
        let mut up = FlowSpec::ping(s0, ms);
        up.direction = Direction::Uplink;
        let flows = vec![
            FlowSpec::ping(s0, ms),
            up,
            FlowSpec::station_ping(s0, s1, ms),
            FlowSpec::station_ping(s1, s0, ms),
        ];
        let (map, _) = FlowMap::new(&flows, 2);
        let (srv, h0, h1) = (Host::Server, Host::Station(s0), Host::Station(s1));
        let icmp = |k: usize| fields(PROTO_ICMP, ping_id(k), ping_id(k));
        assert_eq!(map.classify(srv, h0, &icmp(0)).0, FlowIndex(0));
        assert_eq!(map.classify(h0, srv, &icmp(0)).0, FlowIndex(0));
        assert_eq!(map.classify(h0, srv, &icmp(1)).0, FlowIndex(1));
        assert_eq!(map.classify(srv, h0, &icmp(1)).0, FlowIndex(1));
        assert_eq!(map.classify(h0, h1, &icmp(2)).0, FlowIndex(2));
        assert_eq!(map.classify(h1, h0, &icmp(2)).0, FlowIndex(2));
        assert_eq!(map.classify(h1, h0, &icmp(3)).0, FlowIndex(3));
        let other = fields(PROTO_ICMP, 7, 7);
        assert_eq!(map.classify(h0, srv, &other).0, FlowIndex(0));
        // Between stations, or to a station without a ping from the server: extra.
        assert_eq!(map.classify(h0, h1, &other).0, FlowIndex(4));
        assert_eq!(map.classify(srv, h1, &other).0, FlowIndex(5));
    }
}
