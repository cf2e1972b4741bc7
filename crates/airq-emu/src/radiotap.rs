//! An [`AirFrame`] as a monitor interface would capture it: a radiotap header
//! (radiotap.org, "Defined fields"; the fields Linux's `ieee80211_add_rx_radiotap_header`
//! in `net/mac80211/rx.c` writes for a received frame) in front of the IEEE 802.11 QoS
//! Data frame that carried the packet (IEEE 802.11-2020 §9.2.4 Frame Control, §9.3.2.1
//! the Data frame format, §9.2.4.5 QoS Control) and its LLC/SNAP header (IEEE 802.2,
//! RFC 1042: EtherType 0x0800 for IPv4, 0x86DD for IPv6). No FCS.
//!
//! Radiotap fields, each at its alignment from the header's start: TSFT (bit 0, the
//! start of the exchange, µs of model time), Rate (bit 2, 500 kb/s units) for DSSS/OFDM,
//! Channel (bit 3: the BSS's centre frequency in MHz and the flags mac80211 gives it,
//! [`channel_flags`]), dB antenna signal (bit 12: the PPDU's SNR in dB over the noise floor) when the link
//! has a channel model, MCS (bit 19) for HT, A-MPDU status (bit 20: the run's A-MPDU
//! number as its reference) for a frame of an A-MPDU, VHT (bit 21), HE (bit 23, SU).
//!
//! Addresses are made of the hosts' IPv4 addresses (for IPv6 the last four bytes of
//! its addresses, which are the IPv4 ones; `02:00` and the four bytes: the
//! station 10.0.1.1 is 02:00:0a:00:01:01, the server 02:00:0a:00:00:01); the AP's, the
//! BSSID, is 02:00:0a:00:00:00. Downlink frames are FromDS (A1 the station, A2 the
//! BSSID, A3 the sender), uplink ones ToDS (A1 the BSSID, A2 the station, A3 the
//! destination), as §9.3.2.1's Table 9-30 has them.

use airq::phy::{Band, ChannelWidth, GuardInterval, HeGi, Rate};
use airq_sim::bss::AirFrame;

/// The BSSID: the AP's address.
pub const BSSID: [u8; 6] = [0x02, 0x00, 0x0a, 0x00, 0x00, 0x00];

/// Radiotap's present bits (radiotap.org, "Defined fields").
const TSFT: u32 = 1 << 0;
const RATE: u32 = 1 << 2;
const CHANNEL: u32 = 1 << 3;
const DB_ANTSIGNAL: u32 = 1 << 12;
const MCS: u32 = 1 << 19;
const AMPDU_STATUS: u32 = 1 << 20;
const VHT: u32 = 1 << 21;
const HE: u32 = 1 << 23;

/// Radiotap's channel flags (radiotap.org, Channel; Linux
/// `include/net/ieee80211_radiotap.h`).
const CHAN_CCK: u16 = 0x0020;
const CHAN_OFDM: u16 = 0x0040;
const CHAN_2GHZ: u16 = 0x0080;
const CHAN_5GHZ: u16 = 0x0100;
const CHAN_DYN: u16 = 0x0400;

/// The BSS's channel, as every frame's radiotap header gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    pub band: Band,
    /// The centre frequency, MHz.
    pub frequency_mhz: u16,
}

impl Channel {
    /// The channel of a BSS in `band` whose radio is `radio` (its `frequency_mhz`,
    /// else the band's default, `airq_sim::phy::path_loss::center_frequency_mhz`).
    pub fn of(band: Band, radio: &airq_sim::phy::channel::RadioParams) -> Channel {
        Channel {
            band,
            frequency_mhz: radio.carrier_mhz(band) as u16,
        }
    }
}

/// The Channel field's flags of a frame at `rate` in `band`, as mac80211 sets them
/// for a received frame (`ieee80211_add_rx_radiotap_header`, net/mac80211/rx.c): OFDM
/// and 5 GHz in the 5 and 6 GHz bands (radiotap has no 6 GHz flag); in 2.4 GHz, 2 GHz
/// with dynamic CCK-OFDM for HT and later, OFDM for an OFDM (ERP) rate, CCK for a DSSS
/// one.
pub fn channel_flags(band: Band, rate: Rate) -> u16 {
    match (band, rate) {
        (Band::Ghz5 | Band::Ghz6, _) => CHAN_OFDM | CHAN_5GHZ,
        (Band::Ghz2_4, Rate::Ofdm(_)) => CHAN_OFDM | CHAN_2GHZ,
        (Band::Ghz2_4, Rate::Dsss(_)) => CHAN_CCK | CHAN_2GHZ,
        (Band::Ghz2_4, _) => CHAN_DYN | CHAN_2GHZ,
    }
}

/// RFC 1042's LLC/SNAP header for IPv4.
const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00];

/// The address of the host whose IPv4 address is `ip`.
pub fn mac_of(ip: [u8; 4]) -> [u8; 6] {
    [0x02, 0x00, ip[0], ip[1], ip[2], ip[3]]
}

/// RFC 1042's LLC/SNAP header for IPv6 (EtherType 0x86DD).
const LLC_SNAP_IPV6: [u8; 8] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x86, 0xdd];

/// The source and destination IPv4 addresses of `packet`, or for IPv6 the last four
/// bytes of each address (the hosts' IPv4 addresses, `network::IPV6_PREFIX`); zeros if
/// it is too short.
fn ipv4_addresses(packet: &[u8]) -> ([u8; 4], [u8; 4]) {
    let at = |i: usize| -> [u8; 4] {
        packet
            .get(i..i + 4)
            .and_then(|b| b.try_into().ok())
            .unwrap_or([0; 4])
    };
    if is_ipv6(packet) {
        (at(20), at(36))
    } else {
        (at(12), at(16))
    }
}

fn is_ipv6(packet: &[u8]) -> bool {
    packet.first().is_some_and(|v| v >> 4 == 6)
}

/// Appends `frame`, received on `channel`, with its radiotap header to `out`.
pub fn encode(frame: &AirFrame, channel: Channel, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // version, pad, length, present
    let mut present = TSFT;
    put_aligned(
        out,
        start,
        8,
        &(frame.started.as_nanos() / 1000).to_le_bytes(),
    );
    match frame.rate {
        Rate::Dsss(_) | Rate::Ofdm(_) => {
            present |= RATE;
            out.push((frame.rate.data_rate_kbps() / 500) as u8);
        }
        _ => {}
    }
    present |= CHANNEL;
    put_aligned(out, start, 2, &channel.frequency_mhz.to_le_bytes());
    out.extend_from_slice(&channel_flags(channel.band, frame.rate).to_le_bytes());
    if let Some(snr) = frame.snr_db {
        present |= DB_ANTSIGNAL;
        out.push(snr.clamp(0, 255) as u8);
    }
    if let Rate::Ht(ht) = frame.rate {
        present |= MCS;
        // Known: bandwidth, MCS index, guard interval.
        let bandwidth = u8::from(ht.width() == ChannelWidth::Mhz40);
        let short_gi = u8::from(ht.gi() == GuardInterval::Short) << 2;
        out.extend_from_slice(&[0x07, bandwidth | short_gi, ht.mcs()]);
    }
    if let Some(reference) = frame.ampdu {
        present |= AMPDU_STATUS;
        put_aligned(out, start, 4, &reference.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]); // flags, delimiter CRC, reserved
    }
    if let Rate::Vht(vht) = frame.rate {
        present |= VHT;
        // Known: guard interval (bit 2), bandwidth (bit 6).
        put_aligned(out, start, 2, &0x0044u16.to_le_bytes());
        let short_gi = u8::from(vht.gi() == GuardInterval::Short) << 2;
        let bandwidth = match vht.width() {
            ChannelWidth::Mhz20 => 0,
            ChannelWidth::Mhz40 => 1,
            ChannelWidth::Mhz80 => 4,
            ChannelWidth::Mhz160 => 11,
        };
        out.extend_from_slice(&[short_gi, bandwidth, (vht.mcs() << 4) | vht.nss()]);
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0]); // other users, coding, group, AID
    }
    if let Rate::He(he) = frame.rate {
        present |= HE;
        // data1: HE SU format, data MCS known (bit 5), BW/RU allocation known (bit 14);
        // data2: GI known (bit 1); data3 bits 8-11 the MCS; data5 bits 0-3 the
        // bandwidth, 4-5 the GI; data6 bits 0-3 the NSTS.
        let bandwidth: u16 = match he.width() {
            ChannelWidth::Mhz20 => 0,
            ChannelWidth::Mhz40 => 1,
            ChannelWidth::Mhz80 => 2,
            ChannelWidth::Mhz160 => 3,
        };
        let gi: u16 = match he.gi() {
            HeGi::Gi0_8 => 0,
            HeGi::Gi1_6 => 1,
            HeGi::Gi3_2 => 2,
        };
        let data = [
            0x4020,
            0x0002,
            u16::from(he.mcs()) << 8,
            0,
            bandwidth | (gi << 4),
            u16::from(he.nss()),
        ];
        put_aligned(out, start, 2, &data[0].to_le_bytes());
        for d in &data[1..] {
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
    let len = (out.len() - start) as u16;
    out[start + 2..start + 4].copy_from_slice(&len.to_le_bytes());
    out[start + 4..start + 8].copy_from_slice(&present.to_le_bytes());
    dot11_qos_data(frame, out);
    out.extend_from_slice(if is_ipv6(&frame.bytes) {
        &LLC_SNAP_IPV6
    } else {
        &LLC_SNAP_IPV4
    });
    out.extend_from_slice(&frame.bytes);
}

/// Pads `out` to `align` bytes from `start`, then appends `bytes`.
fn put_aligned(out: &mut Vec<u8>, start: usize, align: usize, bytes: &[u8]) {
    while (out.len() - start) % align != 0 {
        out.push(0);
    }
    out.extend_from_slice(bytes);
}

/// The QoS Data MAC header (§9.3.2.1), 26 bytes.
fn dot11_qos_data(frame: &AirFrame, out: &mut Vec<u8>) {
    let (src, dst) = ipv4_addresses(&frame.bytes);
    let (src, dst) = (mac_of(src), mac_of(dst));
    // Frame Control: protocol 0, type 2 (Data), subtype 8 (QoS Data); ToDS (bit 0 of
    // the flags) up, FromDS (bit 1) down, Retry (bit 3).
    let ds = if frame.uplink { 0x01 } else { 0x02 };
    let retry = if frame.retry { 0x08 } else { 0 };
    out.extend_from_slice(&[0x88, ds | retry, 0, 0]); // frame control, duration
    let (a1, a2, a3) = if frame.uplink {
        (BSSID, src, dst)
    } else {
        (dst, BSSID, src)
    };
    out.extend_from_slice(&a1);
    out.extend_from_slice(&a2);
    out.extend_from_slice(&a3);
    let seq_ctrl = ((frame.seq % 4096) as u16) << 4;
    out.extend_from_slice(&seq_ctrl.to_le_bytes());
    // QoS Control: the TID in bits 0-3, normal (or implicit BlockAck) ack policy.
    out.extend_from_slice(&[frame.tid.get(), 0]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::{Instant, StationId, Tid};

    fn frame(rate: Rate, ampdu: Option<u32>, snr_db: Option<i16>) -> AirFrame {
        let mut ip = vec![0x45; 20];
        ip[12..16].copy_from_slice(&[10, 0, 0, 1]);
        ip[16..20].copy_from_slice(&[10, 0, 1, 2]);
        AirFrame {
            at: Instant::from_nanos(3_000_000),
            started: Instant::from_nanos(2_500_000),
            station: StationId(1),
            uplink: false,
            rate,
            tid: Tid::new(5).unwrap(),
            seq: 4097,
            retry: true,
            ampdu,
            snr_db,
            len_bytes: ip.len() as u32,
            bytes: ip.into(),
        }
    }

    const CH36: Channel = Channel {
        band: Band::Ghz5,
        frequency_mhz: 5180,
    };

    /// An HT MCS7 short-GI 40 MHz frame of A-MPDU 9 with an SNR: TSFT at 8, the
    /// channel at 16 (5180 MHz, OFDM and 5 GHz), the dB signal at 20, MCS at 21,
    /// A-MPDU status padded to 24; then the 802.11 header.
    #[test]
    fn ht_fields_sit_at_their_alignment() {
        let rate = Rate::ht(7, ChannelWidth::Mhz40, GuardInterval::Short).unwrap();
        let mut b = Vec::new();
        encode(&frame(rate, Some(9), Some(31)), CH36, &mut b);
        let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
        assert_eq!(present, TSFT | CHANNEL | DB_ANTSIGNAL | MCS | AMPDU_STATUS);
        assert_eq!(u64::from_le_bytes(b[8..16].try_into().unwrap()), 2500);
        assert_eq!(u16::from_le_bytes([b[16], b[17]]), 5180);
        assert_eq!(u16::from_le_bytes([b[18], b[19]]), 0x0140);
        assert_eq!(b[20], 31);
        assert_eq!(&b[21..24], &[0x07, 0x01 | 0x04, 7]);
        assert_eq!(u32::from_le_bytes(b[24..28].try_into().unwrap()), 9);
        let len = u16::from_le_bytes(b[2..4].try_into().unwrap()) as usize;
        assert_eq!(len, 32);
        let h = &b[len..];
        // QoS Data, FromDS and Retry; A1 the station, A2 the BSSID, A3 the server.
        assert_eq!(&h[..2], &[0x88, 0x0a]);
        assert_eq!(&h[4..10], &[2, 0, 10, 0, 1, 2]);
        assert_eq!(&h[10..16], &BSSID);
        assert_eq!(&h[16..22], &[2, 0, 10, 0, 0, 1]);
        assert_eq!(u16::from_le_bytes([h[22], h[23]]), 1 << 4, "4097 mod 4096");
        assert_eq!(h[24], 5);
        assert_eq!(&h[26..34], &LLC_SNAP_IPV4);
        assert_eq!(h.len(), 26 + 8 + 20);
    }

    /// VHT: its 12-byte field at an even offset; OFDM: the rate in 500 kb/s units,
    /// then the channel padded to an even offset.
    #[test]
    fn vht_and_legacy_rates() {
        let vht = Rate::vht(9, 2, ChannelWidth::Mhz80, GuardInterval::Long).unwrap();
        let mut b = Vec::new();
        encode(&frame(vht, None, None), CH36, &mut b);
        let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
        assert_eq!(present, TSFT | CHANNEL | VHT);
        assert_eq!(&b[20..26], &[0x44, 0, 0, 4, 0x92, 0]);
        assert_eq!(u16::from_le_bytes(b[2..4].try_into().unwrap()), 32);
        let ofdm = Rate::legacy_kbps(54_000, airq::phy::DsssPreamble::Long).unwrap();
        let mut b = Vec::new();
        let ch6 = Channel {
            band: Band::Ghz2_4,
            frequency_mhz: 2437,
        };
        encode(&frame(ofdm, None, None), ch6, &mut b);
        let present = u32::from_le_bytes(b[4..8].try_into().unwrap());
        assert_eq!(present, TSFT | RATE | CHANNEL);
        assert_eq!(b[16], 108);
        assert_eq!(u16::from_le_bytes([b[18], b[19]]), 2437);
        assert_eq!(u16::from_le_bytes([b[20], b[21]]), CHAN_OFDM | CHAN_2GHZ);
    }

    /// mac80211's flags: 5 and 6 GHz OFDM + 5 GHz; 2.4 GHz by modulation.
    #[test]
    fn channel_flags_follow_mac80211() {
        let ht = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let cck = Rate::legacy_kbps(11_000, airq::phy::DsssPreamble::Long).unwrap();
        let ofdm = Rate::legacy_kbps(6_000, airq::phy::DsssPreamble::Long).unwrap();
        assert_eq!(channel_flags(Band::Ghz6, ht), 0x0140);
        assert_eq!(channel_flags(Band::Ghz5, ofdm), 0x0140);
        assert_eq!(channel_flags(Band::Ghz2_4, ht), 0x0480);
        assert_eq!(channel_flags(Band::Ghz2_4, ofdm), 0x00c0);
        assert_eq!(channel_flags(Band::Ghz2_4, cck), 0x00a0);
    }
}
