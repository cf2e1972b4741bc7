//! The frame exchange a transmit opportunity carries, and what it costs on the air: an
//! optional RTS/CTS handshake, the PPDU, and its Ack or BlockAck response (IEEE
//! 802.11-2020 10.3.2.8 for RTS/CTS, 10.3.2.11 for Ack, 10.25.7 for BlockAck), the
//! control frames at the rate 10.6.6.5 gives for the PPDU's ([`BssConfig::control_rate`]).
//! A collision cuts every colliding exchange to what its transmitter sends first: the RTS
//! when one is used, the PPDU otherwise.

use crate::mac::frame::Ppdu;
use crate::mac::link::BssConfig;
use crate::mac::timing::{ack_duration, block_ack_duration, control_frame_duration};
use airq::phy::mac_frame;
use airq::Duration;

/// Airtime of the exchange carrying `ppdu` alone on the medium: [RTS, SIFS, CTS, SIFS,]
/// PPDU, SIFS, Ack or BlockAck.
pub fn exchange_airtime(bss: &BssConfig, ppdu: &Ppdu) -> Duration {
    let sifs = bss.timing.sifs_time;
    let control_rate = bss.control_rate(&ppdu.rate);
    let response = if ppdu.aggregate {
        block_ack_duration(&control_rate, bss.band)
    } else {
        ack_duration(&control_rate, bss.band)
    };
    let mut airtime = ppdu.duration + sifs + response;
    if bss.rts_cts {
        airtime = airtime
            + control_frame_duration(&control_rate, mac_frame::RTS_BYTES, bss.band)
            + control_frame_duration(&control_rate, mac_frame::CTS_BYTES, bss.band)
            + sifs * 2;
    }
    airtime
}

/// What the transmitter of `ppdu` puts on the air before it can notice a collision: its
/// RTS, or the whole PPDU without RTS/CTS.
pub fn collided_airtime(bss: &BssConfig, ppdu: &Ppdu) -> Duration {
    if bss.rts_cts {
        control_frame_duration(
            &bss.control_rate(&ppdu.rate),
            mac_frame::RTS_BYTES,
            bss.band,
        )
    } else {
        ppdu.duration
    }
}

/// TXTIME of a compressed BlockAckReq (9.3.1.7), sent at the lowest basic rate
/// ([`crate::mac::block_ack_req`]).
pub fn block_ack_req_duration(bss: &BssConfig) -> Duration {
    control_frame_duration(
        &bss.basic_rates.lowest(),
        mac_frame::BLOCK_ACK_REQ_COMPRESSED_BYTES,
        bss.band,
    )
}

/// Airtime of a BlockAckReq exchange: the BlockAckReq, SIFS, and the BlockAck at the
/// control response rate for the BlockAckReq's (10.6.6.5).
pub fn block_ack_req_airtime(bss: &BssConfig) -> Duration {
    let response = bss.control_rate(&bss.basic_rates.lowest());
    block_ack_req_duration(bss) + bss.timing.sifs_time + block_ack_duration(&response, bss.band)
}

#[cfg(test)]
mod tests {
    use super::*;
    use airq::phy::Band;

    /// A BlockAckReq exchange in 5 GHz with hostapd's basic rates: the BlockAckReq
    /// (24 bytes) at 6 Mbit/s is 20 µs of preamble and SIGNAL plus 16 + 192 + 6 bits
    /// in 9 symbols of 24 bits (36 µs), 56 µs; SIFS 16 µs; the BlockAck (32 bytes) at
    /// 6 Mbit/s, 16 + 256 + 6 bits in 12 symbols (48 µs), 68 µs: 140 µs (17.3.2.4
    /// TXTIME).
    #[test]
    fn a_block_ack_req_exchange_at_6_mbit_s_takes_140_us() {
        let bss = BssConfig::ofdm(Band::Ghz5);
        assert_eq!(block_ack_req_duration(&bss), Duration::from_micros(56));
        assert_eq!(block_ack_req_airtime(&bss), Duration::from_micros(140));
    }
}
