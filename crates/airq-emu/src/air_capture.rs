//! A capture of the emulated air (`airq emulate --pcap FILE`, `airq run --pcap FILE`):
//! every MPDU the model's recipient received without error, written when its exchange
//! ends, as pcapng (IETF draft-ietf-opsawg-pcapng: a Section Header Block, one
//! Interface Description Block with link type `LINKTYPE_IEEE802_11_RADIOTAP` (127, the
//! tcpdump.org link-layer header types list) and `if_tsresol` 9 (nanoseconds), then
//! one Enhanced Packet Block per frame). Each frame is its radiotap header and 802.11
//! QoS Data frame ([`crate::radiotap`]). Timestamps are the model's time since the start
//! of the run, at the end of the exchange (Wireshark shows them as dates in January
//! 1970; `frame.time_epoch` is the time a results file counts in); radiotap's TSFT is
//! the exchange's start. A packet relayed between two stations appears twice, once per
//! hop; an MPDU lost and sent again appears once, with the Retry bit. The simulator's
//! own packets (`airq run --pcap`) carry the IPv4 and transport headers they would have
//! had and their whole length as the original length, as a capture with a snap length.
//!
//! Written through a buffer from the real-time loop's thread, as the exchanges end.

use crate::radiotap;
use airq_sim::bss::AirFrame;
use pcap_file::pcapng::blocks::enhanced_packet::EnhancedPacketBlock;
use pcap_file::pcapng::blocks::interface_description::{
    InterfaceDescriptionBlock, InterfaceDescriptionOption,
};
use pcap_file::pcapng::PcapNgWriter;
use pcap_file::{DataLink, Endianness};
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// The pcap link type of radiotap and 802.11 frames.
pub const LINKTYPE_IEEE802_11_RADIOTAP: u32 = 127;

/// Bytes buffered before a write to the file: few system calls per second from the loop.
const BUFFER_BYTES: usize = 1 << 20;

/// The largest frame: radiotap (at most 48 bytes here), 802.11 and LLC/SNAP headers,
/// and an IP packet of up to 65,535 bytes.
const SNAPLEN: u32 = 65_535 + 48 + 26 + 8;

/// An open capture file.
pub struct AirCapture {
    writer: PcapNgWriter<BufWriter<File>>,
    /// One frame's bytes, reused.
    frame: Vec<u8>,
    /// The BSS's channel, in every frame's radiotap header.
    channel: radiotap::Channel,
    /// Frames written so far.
    pub frames: u64,
}

impl AirCapture {
    /// Creates (or replaces) the capture file `path` of a BSS on `channel`.
    pub fn create(path: &Path, channel: radiotap::Channel) -> io::Result<AirCapture> {
        let file = File::create(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut writer = PcapNgWriter::with_endianness(
            BufWriter::with_capacity(BUFFER_BYTES, file),
            Endianness::Little,
        )
        .map_err(io::Error::other)?;
        let interface = InterfaceDescriptionBlock {
            linktype: DataLink::IEEE802_11_RADIOTAP,
            snaplen: SNAPLEN,
            options: vec![InterfaceDescriptionOption::IfTsResol(9)],
        };
        writer
            .write_pcapng_block(interface)
            .map_err(io::Error::other)?;
        Ok(AirCapture {
            writer,
            frame: Vec::new(),
            channel,
            frames: 0,
        })
    }

    /// Writes the frames of `frames`, in their order.
    pub fn write(&mut self, frames: &[AirFrame]) -> io::Result<()> {
        for f in frames {
            self.frame.clear();
            radiotap::encode(f, self.channel, &mut self.frame);
            let packet = EnhancedPacketBlock {
                interface_id: 0,
                timestamp: std::time::Duration::from_nanos(f.at.as_nanos()),
                // A simulated packet's bytes are its headers: the rest was not captured.
                original_len: (self.frame.len() - f.bytes.len()) as u32 + f.len_bytes,
                data: Cow::Borrowed(&self.frame),
                options: vec![],
            };
            self.writer
                .write_pcapng_block(packet)
                .map_err(io::Error::other)?;
            self.frames += 1;
        }
        Ok(())
    }

    /// Writes out what is buffered.
    pub fn finish(self) -> io::Result<u64> {
        let frames = self.frames;
        let mut w = self.writer.into_inner();
        io::Write::flush(&mut w)?;
        Ok(frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::{ChannelWidth, GuardInterval, Rate};
    use airq::{Instant, StationId, Tid};

    /// The file is a little-endian pcapng section with one radiotap interface in
    /// nanoseconds, then one Enhanced Packet Block per frame with its model time and
    /// the frame whole.
    #[test]
    fn frames_are_written_as_pcapng_blocks_in_model_time() {
        let path = std::env::temp_dir().join(format!("airq-air-{}.pcapng", std::process::id()));
        let channel = radiotap::Channel {
            band: airq::phy::Band::Ghz5,
            frequency_mhz: 5180,
        };
        let mut c = AirCapture::create(&path, channel).unwrap();
        let frame = |ns: u64, b: &[u8]| AirFrame {
            at: Instant::from_nanos(ns),
            started: Instant::from_nanos(ns - 1000),
            station: StationId(0),
            uplink: false,
            rate: Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap(),
            tid: Tid::new(0).unwrap(),
            seq: 0,
            retry: false,
            ampdu: Some(0),
            snr_db: None,
            bytes: b.into(),
            len_bytes: b.len() as u32,
        };
        let (f1, f2) = (
            frame(1_500_000_123, &[0x45; 20]),
            frame(2_000_000_000, &[0x45; 20]),
        );
        c.write(&[f1.clone(), f2]).unwrap();
        assert_eq!(c.finish().unwrap(), 2);
        let b = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        assert_eq!(u32_at(0), 0x0a0d_0d0a, "section header block");
        assert_eq!(u32_at(8), 0x1a2b_3c4d, "little-endian byte-order magic");
        let shb = u32_at(4) as usize;
        assert_eq!(u32_at(shb), 1, "interface description block");
        assert_eq!(
            u16::from_le_bytes([b[shb + 8], b[shb + 9]]) as u32,
            LINKTYPE_IEEE802_11_RADIOTAP
        );
        // if_tsresol (option 9, length 1) = 9.
        assert_eq!(&b[shb + 16..shb + 21], &[9, 0, 1, 0, 9]);
        let epb = shb + u32_at(shb + 4) as usize;
        assert_eq!(u32_at(epb), 6, "enhanced packet block");
        let ts = (u64::from(u32_at(epb + 12)) << 32) | u64::from(u32_at(epb + 16));
        assert_eq!(ts, 1_500_000_123);
        let mut expected = Vec::new();
        radiotap::encode(&f1, channel, &mut expected);
        let len = u32_at(epb + 20) as usize;
        assert_eq!(len, expected.len());
        assert_eq!(&b[epb + 28..epb + 28 + len], &expected[..]);
    }
}
