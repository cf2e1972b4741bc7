//! A capture of the emulated air (`airq emulate --pcap FILE`): every packet that crosses
//! a wireless hop of the model, written when the hop ends, as a classic pcap file
//! (tcpdump's format, pcap-savefile(5)) with link type `LINKTYPE_IPV4` (228, the
//! tcpdump.org link-layer header types list): the hosts' TUN devices carry bare IPv4,
//! so there is no 802.11 header to show. Timestamps are the model's time since the
//! start of the run, in nanoseconds (the nanosecond magic `0xa1b23c4d`): Wireshark shows
//! them as dates in January 1970, and `frame.time_epoch` is the time a results file
//! counts in. A packet relayed between two stations appears twice, once per hop.
//!
//! Written through a buffer from the real-time loop's thread, as the hops end.

use airq_sim::bss::AirFrame;
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, Endianness, TsResolution};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// The pcap link type of bare IPv4 packets.
pub const LINKTYPE_IPV4: u32 = 228;

/// Bytes buffered before a write to the file: few system calls per second from the loop.
const BUFFER_BYTES: usize = 1 << 20;

/// An open capture file.
pub struct AirCapture {
    writer: PcapWriter<BufWriter<File>>,
    /// Packets written so far.
    pub frames: u64,
}

impl AirCapture {
    /// Creates (or replaces) the capture file `path`.
    pub fn create(path: &Path) -> io::Result<AirCapture> {
        let file = File::create(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let header = PcapHeader {
            datalink: DataLink::IPV4,
            ts_resolution: TsResolution::NanoSecond,
            endianness: Endianness::Little,
            ..PcapHeader::default()
        };
        let writer = PcapWriter::with_header(BufWriter::with_capacity(BUFFER_BYTES, file), header)
            .map_err(io::Error::other)?;
        Ok(AirCapture { writer, frames: 0 })
    }

    /// Writes the hops of `frames`, in their order.
    pub fn write(&mut self, frames: &[AirFrame]) -> io::Result<()> {
        for f in frames {
            let at = std::time::Duration::from_nanos(f.at.as_nanos());
            let packet = PcapPacket::new(at, f.bytes.len() as u32, &f.bytes);
            self.writer
                .write_packet(&packet)
                .map_err(io::Error::other)?;
            self.frames += 1;
        }
        Ok(())
    }

    /// Writes out what is buffered.
    pub fn finish(self) -> io::Result<u64> {
        let frames = self.frames;
        let mut w = self.writer.into_writer();
        io::Write::flush(&mut w)?;
        Ok(frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::{Instant, StationId};

    /// The file has the nanosecond pcap header with link type 228, then each hop with
    /// its model time split in seconds and nanoseconds and its bytes whole.
    #[test]
    fn hops_are_written_as_pcap_records_in_model_time() {
        let path = std::env::temp_dir().join(format!("airq-air-{}.pcap", std::process::id()));
        let mut c = AirCapture::create(&path).unwrap();
        let frame = |ns: u64, b: &[u8]| AirFrame {
            at: Instant::from_nanos(ns),
            station: StationId(0),
            uplink: false,
            bytes: b.into(),
        };
        c.write(&[
            frame(1_500_000_123, &[0x45, 1, 2]),
            frame(2_000_000_000, &[0x45]),
        ])
        .unwrap();
        assert_eq!(c.finish().unwrap(), 2);
        let b = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        assert_eq!(u32_at(0), 0xa1b2_3c4d, "nanosecond magic");
        assert_eq!(u32_at(20), LINKTYPE_IPV4);
        // Record 1: seconds, nanoseconds, captured and original lengths, the bytes.
        assert_eq!(
            (u32_at(24), u32_at(28), u32_at(32), u32_at(36)),
            (1, 500_000_123, 3, 3)
        );
        assert_eq!(&b[40..43], &[0x45, 1, 2]);
        assert_eq!((u32_at(43), u32_at(47), u32_at(51)), (2, 0, 1));
        assert_eq!(b.len(), 24 + 16 + 3 + 16 + 1);
    }
}
