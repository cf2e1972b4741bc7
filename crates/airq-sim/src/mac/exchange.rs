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
