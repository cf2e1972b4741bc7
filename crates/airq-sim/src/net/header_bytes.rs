//! The headers a simulated packet would carry on the wire, for a capture of the
//! simulator's air (`airq run --pcap`): its packets have a length, a 5-tuple, a DSCP and
//! an ECN field but no bytes. An IPv4 header (RFC 791 §3.1, with its checksum; the DS
//! field of RFC 2474 and ECN of RFC 3168 §5) and the first bytes of its transport
//! header: UDP (RFC 768), TCP (RFC 9293 §3.1, ACK set, no options) or an ICMP echo
//! (RFC 792); for a TCP segment of the model, its sequence and acknowledgment numbers,
//! flags, window and options ([`tcp_header_bytes`]). The payload is not modelled as
//! bytes: a capture holds these headers and gives the packet's whole length as its
//! original length.

use super::flow_hash::{FiveTuple, PROTO_ICMP, PROTO_TCP, PROTO_UDP};
use crate::transport::tcp::Segment;

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

/// The IPv4 and TCP headers of a simulated TCP segment `seg` in a packet of
/// `len_bytes` with `tuple` and `ds_field`: its sequence and acknowledgment numbers
/// (the model's, from an ISN of 0, modulo 2^32), flags, window and the options its
/// length counts (RFC 9293 §3.1; RFC 7323 timestamps, TSval and TSecr in ms; RFC 2018
/// SACK blocks; on a SYN Linux's MSS, SACK-permitted, timestamps and window scale 7),
/// so that a capture's TCP analysis (Wireshark's `tcp.analysis.*`) follows the flow.
/// The window field is the model's window scaled down by 7 bits, except on a SYN.
pub fn tcp_header_bytes(
    tuple: &FiveTuple,
    len_bytes: u32,
    ds_field: u8,
    seg: &Segment,
) -> Box<[u8]> {
    let mut b = ipv4_header_bytes(tuple, len_bytes, ds_field, false).to_vec();
    b.truncate(20);
    let total = len_bytes.min(u32::from(u16::MAX)) as usize;
    let ms = |t: airq::Instant| ((t.as_nanos() / 1_000_000) as u32).to_be_bytes();
    let mut options = Vec::with_capacity(40);
    if seg.flags.syn {
        options.extend_from_slice(&[2, 4]);
        options.extend_from_slice(&(seg.mss.min(u32::from(u16::MAX)) as u16).to_be_bytes());
        if seg.sack_permitted {
            options.extend_from_slice(&[4, 2]);
        } else {
            options.extend_from_slice(&[1, 1]);
        }
        options.extend_from_slice(&[8, 10]);
        options.extend_from_slice(&ms(seg.ts_val));
        options.extend_from_slice(&ms(seg.ts_ecr));
        options.extend_from_slice(&[1, 3, 3, WINDOW_SHIFT]);
    } else {
        options.extend_from_slice(&[1, 1, 8, 10]);
        options.extend_from_slice(&ms(seg.ts_val));
        options.extend_from_slice(&ms(seg.ts_ecr));
        let blocks = seg.sack_blocks();
        if !blocks.is_empty() {
            options.extend_from_slice(&[1, 1, 5, 2 + 8 * blocks.len() as u8]);
            for block in blocks {
                options.extend_from_slice(&(block.start as u32).to_be_bytes());
                options.extend_from_slice(&(block.end as u32).to_be_bytes());
            }
        }
    }
    let window = if seg.flags.syn {
        seg.window
    } else {
        seg.window >> WINDOW_SHIFT
    };
    let flags = u8::from(seg.flags.cwr) << 7
        | u8::from(seg.flags.ece) << 6
        | u8::from(seg.flags.ack) << 4
        | u8::from(seg.flags.syn) << 1
        | u8::from(seg.flags.fin);
    let ack = if seg.flags.ack { seg.ack as u32 } else { 0 };
    b.extend_from_slice(&tuple.src_port.to_be_bytes());
    b.extend_from_slice(&tuple.dst_port.to_be_bytes());
    b.extend_from_slice(&(seg.seq as u32).to_be_bytes());
    b.extend_from_slice(&ack.to_be_bytes());
    b.extend_from_slice(&[(((20 + options.len()) / 4) << 4) as u8, flags]);
    b.extend_from_slice(&(window.min(u64::from(u16::MAX)) as u16).to_be_bytes());
    b.extend_from_slice(&[0, 0, 0, 0]); // checksum (not computed), urgent pointer
    b.extend_from_slice(&options);
    b.truncate(total.max(20));
    b.into()
}

/// The window scale shift of a simulated connection's SYN (Linux's for a 6 MB receive
/// buffer, `tcp_select_initial_window`).
const WINDOW_SHIFT: u8 = 7;

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

    /// A data segment with two SACK blocks: its numbers, flags, window and options
    /// where RFC 9293 puts them, the header as long as the segment's `ip_len` counts.
    #[test]
    fn a_tcp_segment_has_its_numbers_and_options() {
        use crate::transport::tcp::{SackBlock, TcpFlags};
        let tuple = FiveTuple {
            src: 0x0a00_0001,
            dst: 0x0a00_0102,
            src_port: 5001,
            dst_port: 32769,
            protocol: PROTO_TCP,
        };
        let mut seg = Segment::new((1 << 32) + 1449, 77);
        seg.len = 1448;
        seg.flags = TcpFlags {
            ack: true,
            ece: true,
            ..TcpFlags::default()
        };
        seg.window = 128 * 1000;
        seg.ts_val = airq::Instant::from_nanos(2_500_000_000);
        seg.sack = [
            SackBlock { start: 10, end: 20 },
            SackBlock { start: 30, end: 40 },
            SackBlock::default(),
        ];
        seg.sack_len = 2;
        let b = tcp_header_bytes(&tuple, seg.ip_len(), 0, &seg);
        let t = &b[20..];
        assert_eq!(
            u32::from_be_bytes(t[4..8].try_into().unwrap()),
            1449,
            "mod 2^32"
        );
        assert_eq!(u32::from_be_bytes(t[8..12].try_into().unwrap()), 77);
        let header = usize::from(t[12] >> 4) * 4;
        assert_eq!(20 + header + 1448, seg.ip_len() as usize);
        assert_eq!(b.len(), 20 + header);
        assert_eq!(t[13], 0x50, "ECE and ACK");
        assert_eq!(u16::from_be_bytes([t[14], t[15]]), 1000, "128 000 >> 7");
        assert_eq!(&t[20..24], &[1, 1, 8, 10]);
        assert_eq!(
            u32::from_be_bytes(t[24..28].try_into().unwrap()),
            2500,
            "ms"
        );
        assert_eq!(&t[32..36], &[1, 1, 5, 18]);
        assert_eq!(u32::from_be_bytes(t[44..48].try_into().unwrap()), 30);
        // A SYN: seq 0, no ack, Linux's 20 option bytes with window scale 7 last.
        let mut syn = Segment::new(0, 0);
        syn.flags.syn = true;
        syn.mss = 1460;
        syn.sack_permitted = true;
        let b = tcp_header_bytes(&tuple, syn.ip_len(), 0, &syn);
        assert_eq!(b.len(), syn.ip_len() as usize);
        assert_eq!(b[33], 0x02);
        assert_eq!(&b[40..44], &[2, 4, 0x05, 0xb4]);
        assert_eq!(&b[56..60], &[1, 3, 3, 7]);
    }
}
