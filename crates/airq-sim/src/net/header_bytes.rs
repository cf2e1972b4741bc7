//! The headers a simulated packet would carry on the wire, for a capture of the
//! simulator's air (`airq run --pcap`): its packets have a length, a 5-tuple, a DSCP and
//! an ECN field but no bytes. An IPv4 header (RFC 791 §3.1, with its checksum; the DS
//! field of RFC 2474 and ECN of RFC 3168 §5) and the first bytes of its transport
//! header: UDP (RFC 768), TCP (RFC 9293 §3.1, ACK set, no options) or an ICMP echo
//! (RFC 792). Sequence numbers and payload are not modelled as bytes: a capture holds
//! these headers and gives the packet's whole length as its original length.

use super::flow_hash::{FiveTuple, PROTO_ICMP, PROTO_TCP, PROTO_UDP};

/// The IPv4 and transport headers of a packet of `len_bytes` (IP length) with
/// `tuple`, `ds_field` (DSCP and ECN bits) and, for ICMP, an echo `request` or reply.
pub fn ipv4_header_bytes(
    tuple: &FiveTuple,
    len_bytes: u32,
    ds_field: u8,
    request: bool,
) -> Box<[u8]> {
    let total = len_bytes.min(u32::from(u16::MAX)) as u16;
    let mut b = Vec::with_capacity(40);
    b.extend_from_slice(&[0x45, ds_field]);
    b.extend_from_slice(&total.to_be_bytes());
    // Identification 0, Don't Fragment, TTL 64.
    b.extend_from_slice(&[0, 0, 0x40, 0, 64, tuple.protocol, 0, 0]);
    b.extend_from_slice(&tuple.src.to_be_bytes());
    b.extend_from_slice(&tuple.dst.to_be_bytes());
    let checksum = internet_checksum(&b);
    b[10..12].copy_from_slice(&checksum.to_be_bytes());
    let transport_bytes = total.saturating_sub(20);
    match tuple.protocol {
        PROTO_UDP => {
            b.extend_from_slice(&tuple.src_port.to_be_bytes());
            b.extend_from_slice(&tuple.dst_port.to_be_bytes());
            b.extend_from_slice(&transport_bytes.to_be_bytes());
            b.extend_from_slice(&[0, 0]); // no checksum (RFC 768)
        }
        PROTO_TCP => {
            b.extend_from_slice(&tuple.src_port.to_be_bytes());
            b.extend_from_slice(&tuple.dst_port.to_be_bytes());
            b.extend_from_slice(&[0; 8]); // sequence and acknowledgment numbers
            b.extend_from_slice(&[5 << 4, 0x10, 0xff, 0xff, 0, 0, 0, 0]);
        }
        PROTO_ICMP => {
            let kind = if request { 8 } else { 0 };
            b.extend_from_slice(&[kind, 0, 0, 0, 0, 0, 0, 0]);
        }
        _ => {}
    }
    // A packet shorter than its headers (a model's 40-byte ACK is exactly both).
    b.truncate(usize::from(total.max(20)));
    b.into()
}

/// RFC 1071's one's-complement sum of `bytes` (an even number of them).
fn internet_checksum(bytes: &[u8]) -> u16 {
    let mut sum: u32 = bytes
        .chunks(2)
        .map(|w| u32::from(u16::from_be_bytes([w[0], w[1]])))
        .sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::real_packet::parse_ipv4;

    /// The headers, with a payload behind them, parse back (as the emulator parses real
    /// packets) to the same 5-tuple and length, and the IPv4 checksum sums to zero.
    #[test]
    fn a_header_reads_back_as_its_tuple() {
        for (protocol, headers) in [(PROTO_TCP, 40), (PROTO_UDP, 28)] {
            let tuple = FiveTuple {
                src: 0x0a00_0001,
                dst: 0x0a00_0102,
                src_port: 5001,
                dst_port: 32769,
                protocol,
            };
            let b = ipv4_header_bytes(&tuple, 1500, 0xb8 | 0x01, false);
            assert_eq!(b.len(), headers);
            assert_eq!(internet_checksum(&b[..20]), 0);
            // The whole packet, its payload zeros.
            let mut whole = b.to_vec();
            whole.resize(1500, 0);
            let f = parse_ipv4(&whole).unwrap();
            assert_eq!(f.tuple, tuple);
            assert_eq!(f.len_bytes, 1500);
        }
        let icmp = FiveTuple {
            src: 0x0a00_0001,
            dst: 0x0a00_0101,
            src_port: 0,
            dst_port: 0,
            protocol: PROTO_ICMP,
        };
        assert_eq!(ipv4_header_bytes(&icmp, 84, 0, true)[20], 8);
    }
}
