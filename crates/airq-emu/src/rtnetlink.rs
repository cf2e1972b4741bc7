//! The few rtnetlink requests (`rtnetlink(7)`, include/uapi/linux/rtnetlink.h,
//! if_addr.h) that configure an emulated host's interfaces, sent as iproute2 sends them
//! for the `ip` commands they replace (ip/iplink.c, ip/ipaddress.c): `ip link set dev X
//! up` is RTM_NEWLINK with IFF_UP in both `ifi_flags` and `ifi_change`; `ip addr add
//! A/N dev X [nodad]` is RTM_NEWADDR (create, exclusive) with IFA_LOCAL and IFA_ADDRESS
//! both A and IFA_F_NODAD in `ifa_flags`; `ip -s link show` reads the device's
//! `rtnl_link_stats64` (IFLA_STATS64), whose `tx_dropped` is the
//! /sys/class/net/X/statistics/tx_dropped counter. A socket belongs to the network
//! namespace of the thread that opened it (see [`crate::netns::run_in`]). Synchronous:
//! one request, then its answer.

use netlink_packet_core::{
    NetlinkHeader, NetlinkMessage, NetlinkPayload, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL,
    NLM_F_REQUEST,
};
use netlink_packet_route::address::{
    AddressAttribute, AddressHeaderFlags, AddressMessage, AddressScope,
};
use netlink_packet_route::link::{LinkAttribute, LinkFlags, LinkMessage, Stats64};
use netlink_packet_route::{AddressFamily, RouteNetlinkMessage};
use netlink_sys::{protocols::NETLINK_ROUTE, Socket, SocketAddr};
use std::io;
use std::net::IpAddr;

/// An rtnetlink socket in the namespace of the thread that opened it.
pub struct Rtnetlink {
    socket: Socket,
    sequence: u32,
}

impl Rtnetlink {
    /// Opens a socket in the calling thread's network namespace.
    pub fn open() -> io::Result<Rtnetlink> {
        let mut socket = Socket::new(NETLINK_ROUTE)?;
        socket.bind_auto()?;
        socket.connect(&SocketAddr::new(0, 0))?;
        Ok(Rtnetlink {
            socket,
            sequence: 0,
        })
    }

    /// Sends `message` with `flags` and returns the answers up to the kernel's
    /// acknowledgement (or, without NLM_F_ACK, its one reply); a refusal is an error.
    fn request(
        &mut self,
        message: RouteNetlinkMessage,
        flags: u16,
    ) -> io::Result<Vec<RouteNetlinkMessage>> {
        self.sequence += 1;
        let mut header = NetlinkHeader::default();
        header.flags = NLM_F_REQUEST | flags;
        header.sequence_number = self.sequence;
        let mut request = NetlinkMessage::new(header, NetlinkPayload::from(message));
        request.finalize();
        let mut buf = vec![0; request.buffer_len()];
        request.serialize(&mut buf);
        self.socket.send(&buf, 0)?;
        let mut replies = Vec::new();
        loop {
            let (bytes, _) = self.socket.recv_from_full()?;
            let mut at = 0;
            while at < bytes.len() {
                let reply: NetlinkMessage<RouteNetlinkMessage> =
                    NetlinkMessage::deserialize(&bytes[at..]).map_err(|e| {
                        io::Error::new(io::ErrorKind::InvalidData, format!("rtnetlink: {e}"))
                    })?;
                let length = reply.header.length as usize;
                if reply.header.sequence_number == self.sequence {
                    match reply.payload {
                        // An acknowledgement, or a refusal with its errno.
                        NetlinkPayload::Error(e) => {
                            return match e.code {
                                None => Ok(replies),
                                Some(_) => Err(e.to_io()),
                            }
                        }
                        NetlinkPayload::InnerMessage(m) => {
                            replies.push(m);
                            if flags & NLM_F_ACK == 0 {
                                return Ok(replies);
                            }
                        }
                        _ => {}
                    }
                }
                if length == 0 {
                    break;
                }
                at += length;
            }
        }
    }

    /// `ip link set dev INDEX up`.
    pub fn set_up(&mut self, index: u32) -> io::Result<()> {
        self.request(link_up(index), NLM_F_ACK).map(drop)
    }

    /// `ip addr add ADDRESS/PREFIX_LEN dev INDEX`, with `nodad` for IPv6: no
    /// duplicate address detection.
    pub fn add_address(
        &mut self,
        index: u32,
        address: IpAddr,
        prefix_len: u8,
        nodad: bool,
    ) -> io::Result<()> {
        self.request(
            new_address(index, address, prefix_len, nodad),
            NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
        )
        .map(drop)
    }

    /// The counters of interface `index` (`ip -s link show`).
    pub fn stats64(&mut self, index: u32) -> io::Result<Stats64> {
        let mut link = LinkMessage::default();
        link.header.index = index;
        let replies = self.request(RouteNetlinkMessage::GetLink(link), 0)?;
        replies
            .into_iter()
            .find_map(|m| match m {
                RouteNetlinkMessage::NewLink(link) => {
                    link.attributes.into_iter().find_map(|a| match a {
                        LinkAttribute::Stats64(s) => Some(s),
                        _ => None,
                    })
                }
                _ => None,
            })
            .ok_or_else(|| io::Error::other(format!("interface {index} reports no counters")))
    }
}

/// RTM_NEWLINK setting IFF_UP on interface `index`, all other flags unchanged
/// (`ifi_change` = IFF_UP), as ip/iplink.c sends `up`.
pub fn link_up(index: u32) -> RouteNetlinkMessage {
    let mut link = LinkMessage::default();
    link.header.index = index;
    link.header.flags = LinkFlags::Up;
    link.header.change_mask = LinkFlags::Up;
    RouteNetlinkMessage::NewLink(link)
}

/// RTM_NEWADDR of `address/prefix_len` on interface `index`, as ip/ipaddress.c sends
/// it without a peer: IFA_LOCAL and IFA_ADDRESS both the address, scope global
/// (RT_SCOPE_UNIVERSE), and IFA_F_NODAD in `ifa_flags` for `nodad`.
pub fn new_address(
    index: u32,
    address: IpAddr,
    prefix_len: u8,
    nodad: bool,
) -> RouteNetlinkMessage {
    let mut message = AddressMessage::default();
    message.header.family = match address {
        IpAddr::V4(_) => AddressFamily::Inet,
        IpAddr::V6(_) => AddressFamily::Inet6,
    };
    message.header.prefix_len = prefix_len;
    message.header.index = index;
    message.header.scope = AddressScope::Universe;
    if nodad {
        message.header.flags = AddressHeaderFlags::Nodad;
    }
    message.attributes = vec![
        AddressAttribute::Local(address),
        AddressAttribute::Address(address),
    ];
    RouteNetlinkMessage::NewAddress(message)
}

/// The index of interface `name` in the calling thread's network namespace
/// (`if_nametoindex(3)`).
pub fn index_of(name: &str) -> io::Result<u32> {
    let c = std::ffi::CString::new(name)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in a name"))?;
    // SAFETY: `c` is a valid NUL-terminated string for the call.
    let index = unsafe { libc::if_nametoindex(c.as_ptr()) };
    if index == 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("interface {name}: {e}")));
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message's bytes after the 16-byte netlink header.
    fn payload(message: RouteNetlinkMessage) -> Vec<u8> {
        let mut m = NetlinkMessage::new(NetlinkHeader::default(), NetlinkPayload::from(message));
        m.finalize();
        let mut buf = vec![0; m.buffer_len()];
        m.serialize(&mut buf);
        buf[16..].to_vec()
    }

    #[test]
    fn link_up_sets_only_iff_up() {
        let p = payload(link_up(7));
        // struct ifinfomsg: family, pad, type (u16), index (i32), flags, change (u32).
        assert_eq!(p.len(), 16);
        assert_eq!(i32::from_ne_bytes(p[4..8].try_into().unwrap()), 7);
        let iff_up = libc::IFF_UP as u32;
        assert_eq!(u32::from_ne_bytes(p[8..12].try_into().unwrap()), iff_up);
        assert_eq!(u32::from_ne_bytes(p[12..16].try_into().unwrap()), iff_up);
    }

    #[test]
    fn an_ipv6_address_is_local_and_address_without_dad() {
        let a: IpAddr = "fd00::a00:101".parse().unwrap();
        let p = payload(new_address(2, a, 64, true));
        // struct ifaddrmsg: family, prefixlen, flags, scope (u8 each), index (u32).
        assert_eq!(p[..4], [libc::AF_INET6 as u8, 64, 0x02, 0]); // IFA_F_NODAD
        assert_eq!(u32::from_ne_bytes(p[4..8].try_into().unwrap()), 2);
        // Two attributes of 4 + 16 bytes: IFA_LOCAL (2), then IFA_ADDRESS (1).
        assert_eq!(p.len(), 8 + 2 * 20);
        let octets = match a {
            IpAddr::V6(v6) => v6.octets(),
            IpAddr::V4(_) => unreachable!(),
        };
        for (at, kind) in [(8, 2u16), (28, 1u16)] {
            assert_eq!(u16::from_ne_bytes(p[at..at + 2].try_into().unwrap()), 20);
            assert_eq!(
                u16::from_ne_bytes(p[at + 2..at + 4].try_into().unwrap()),
                kind
            );
            assert_eq!(p[at + 4..at + 20], octets);
        }
    }

    #[test]
    fn an_ipv4_address_keeps_dad_flags_clear() {
        let p = payload(new_address(3, "10.0.1.1".parse().unwrap(), 16, false));
        assert_eq!(p[..4], [libc::AF_INET as u8, 16, 0, 0]);
        assert_eq!(p.len(), 8 + 2 * 8);
        assert_eq!(p[12..16], [10, 0, 1, 1]);
        assert_eq!(p[20..24], [10, 0, 1, 1]);
    }
}
