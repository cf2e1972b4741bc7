//! The frame exchange a transmit opportunity carries, and what it costs on the air: an
//! optional protection or RTS/CTS lead, the PPDU, and its Ack or BlockAck response (IEEE
//! 802.11-2020 10.3.2.8 for RTS/CTS, 10.3.2.11 for Ack, 10.25.7 for BlockAck), the
//! control frames at the rate 10.6.6.5 gives for the PPDU's ([`BssConfig::control_rate`]).
//!
//! Under ERP protection (10.26.2, [`crate::mac::protection`]) an OFDM PPDU is preceded
//! by a CTS-to-self, or by RTS/CTS, at a DSSS rate ([`BssConfig::protection_rate`]):
//!
//! - CTS-to-self: CTS, SIFS, PPDU, SIFS, Ack/BlockAck;
//! - RTS/CTS: RTS, SIFS, CTS, SIFS, PPDU, SIFS, Ack/BlockAck, the CTS answering the
//!   RTS at the rate 10.6.6.5 gives for the RTS's.
//!
//! A collision cuts every colliding exchange to what its transmitter sends before it can
//! notice: the RTS when one is used (no CTS comes back); with CTS-to-self, which expects
//! no answer, the CTS, the SIFS and the whole PPDU; the PPDU otherwise.

use crate::mac::frame::Ppdu;
use crate::mac::link::BssConfig;
use crate::mac::timing::{ack_duration, block_ack_duration, control_frame_duration};
use airq::phy::{mac_frame, Rate};
use airq::Duration;

/// What precedes the PPDU of an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lead {
    /// Nothing: the PPDU starts the exchange.
    None,
    /// A CTS addressed to the sender itself, at `rate` (ERP protection).
    CtsToSelf { rate: Rate },
    /// An RTS at `rate`, answered by a CTS at `cts_rate`.
    Rts { rate: Rate, cts_rate: Rate },
}

/// What the transmitter of `ppdu` sends before it: an RTS when RTS/CTS is asked for
/// (`rts_cts`, RTS/CTS protection, or rate control for this PPDU: [`Ppdu::rts`]) at
/// [`BssConfig::rts_rate`], answered by a CTS at the control response rate; else under
/// protection a CTS-to-self at the protection rate (ath9k: RTSENA wins over CTSENA);
/// else nothing.
pub fn lead(bss: &BssConfig, ppdu: &Ppdu) -> Lead {
    if bss.uses_rts(&ppdu.rate) || ppdu.rts {
        let rate = bss.rts_rate(&ppdu.rate);
        Lead::Rts {
            rate,
            cts_rate: bss.control_rate(&rate),
        }
    } else if bss.protects(&ppdu.rate) {
        Lead::CtsToSelf {
            rate: bss.protection_rate(&ppdu.rate),
        }
    } else {
        Lead::None
    }
}

/// Airtime of the exchange carrying `ppdu` alone on the medium: [lead, SIFS,] PPDU,
/// SIFS, Ack or BlockAck.
pub fn exchange_airtime(bss: &BssConfig, ppdu: &Ppdu) -> Duration {
    let sifs = bss.timing.sifs_time;
    let control_rate = bss.control_rate(&ppdu.rate);
    let response = if ppdu.aggregate {
        block_ack_duration(&control_rate, bss.band)
    } else {
        ack_duration(&control_rate, bss.band)
    };
    let airtime = ppdu.duration + sifs + response;
    match lead(bss, ppdu) {
        Lead::None => airtime,
        Lead::CtsToSelf { rate } => {
            airtime + control_frame_duration(&rate, mac_frame::CTS_BYTES, bss.band) + sifs
        }
        Lead::Rts { rate, cts_rate } => {
            airtime
                + control_frame_duration(&rate, mac_frame::RTS_BYTES, bss.band)
                + control_frame_duration(&cts_rate, mac_frame::CTS_BYTES, bss.band)
                + sifs * 2
        }
    }
}

/// What the transmitter of `ppdu` puts on the air before it can notice a collision: its
/// RTS; its CTS-to-self, SIFS and PPDU; or the PPDU alone.
pub fn collided_airtime(bss: &BssConfig, ppdu: &Ppdu) -> Duration {
    match lead(bss, ppdu) {
        Lead::None => ppdu.duration,
        Lead::CtsToSelf { rate } => {
            control_frame_duration(&rate, mac_frame::CTS_BYTES, bss.band)
                + bss.timing.sifs_time
                + ppdu.duration
        }
        Lead::Rts { rate, .. } => control_frame_duration(&rate, mac_frame::RTS_BYTES, bss.band),
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
    use crate::mac::basic_rates::BasicRateSet;
    use crate::mac::frame::Mpdu;
    use crate::mac::protection::Protection;
    use crate::net::packet::{FlowIndex, NodeId, Payload, RelayTo, SimPacket};
    use airq::phy::{Band, ChannelWidth, DsssDataRate, DsssPreamble, GuardInterval, OfdmRate};
    use airq::{Instant, StationId, Tid};

    fn packet(len_bytes: u32) -> SimPacket {
        SimPacket {
            id: 0,
            flow: FlowIndex(0),
            station: StationId(0),
            uplink: false,
            relay_to: RelayTo::NONE,
            len_bytes,
            tid: Tid::new(0).unwrap(),
            flow_hash: 0,
            ecn: airq::Ecn::NotEct,
            created: Instant::ZERO,
            payload: Payload::Udp,
            enqueue_time: Instant::ZERO,
            airtime_est_us: 0,
        }
    }

    /// `n` 1500-byte packets at `rate` from the AP, 2.4 GHz.
    fn ppdu(rate: Rate, n: usize) -> Ppdu {
        let mpdus = (0..n).map(|i| Mpdu::new(packet(1500), i as u64)).collect();
        let (ap, sta) = (NodeId::Ap, NodeId::Sta(StationId(0)));
        Ppdu::new(
            ap,
            sta,
            Tid::new(0).unwrap(),
            rate,
            Band::Ghz2_4,
            n > 1,
            mpdus,
        )
    }

    /// A mixed b/g/n BSS: 10 µs SIFS, hostapd's hw_mode=g basic rates {1, 2, 5.5, 11}.
    fn bss(protection: Protection) -> BssConfig {
        let mut bss = BssConfig::ofdm(Band::Ghz2_4);
        bss.protection = protection;
        bss
    }

    fn us(d: Duration) -> u64 {
        d.as_micros()
    }

    fn ht7() -> Rate {
        Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap()
    }

    /// 10.26.2 with mac80211's CTS rate for an HT frame (1 Mbit/s, long preamble:
    /// 192 µs + 14 · 8 µs = 304 µs, 16.3.4): CTS, SIFS, A-MPDU, SIFS, BlockAck (32 bytes
    /// at 24 Mbit/s ERP-OFDM: 20 + 4 · 3 + 6 µs signal extension = 38 µs).
    #[test]
    fn cts_to_self_before_an_ht_aggregate_at_1_mbps() {
        let p = ppdu(ht7(), 10);
        let plain = exchange_airtime(&bss(Protection::None), &p);
        assert_eq!(us(plain), us(p.duration) + 10 + 38);
        let protected = exchange_airtime(&bss(Protection::CtsToSelf), &p);
        assert_eq!(us(protected), 304 + 10 + us(p.duration) + 10 + 38);
        // Collided: the sender sees nothing before its PPDU ends.
        let collided = collided_airtime(&bss(Protection::CtsToSelf), &p);
        assert_eq!(us(collided), 304 + 10 + us(p.duration));
    }

    /// A 54 Mbit/s ERP-OFDM frame of 1538 bytes lasts 20 + 4 · ⌈(16 + 8 · 1538 + 6) /
    /// 216⌉ + 6 = 258 µs, its Ack at 24 Mbit/s 34 µs; its CTS goes at the fastest DSSS
    /// basic rate not above 54, 11 Mbit/s: 192 + ⌈112 / 11⌉ = 203 µs; with the basic
    /// rates {1, 2} (hostapd's hw_mode=b), at 2 Mbit/s: 192 + 56 = 248 µs.
    #[test]
    fn cts_to_self_before_an_erp_ofdm_frame_at_11_and_2_mbps() {
        let p = ppdu(Rate::ofdm(OfdmRate::Mbps54), 1);
        assert_eq!(us(p.duration), 258);
        let mut b = bss(Protection::CtsToSelf);
        assert_eq!(us(exchange_airtime(&b, &p)), 203 + 10 + 258 + 10 + 34);
        b.basic_rates = BasicRateSet::HOSTAPD_B;
        // The Ack of a 54 Mbit/s frame with no OFDM basic rate: the mandatory 24.
        assert_eq!(us(exchange_airtime(&b, &p)), 248 + 10 + 258 + 10 + 34);
    }

    /// RTS/CTS protection: RTS (20 bytes) at 1 Mbit/s, 192 + 160 = 352 µs, answered by a
    /// CTS at 1 Mbit/s (10.6.6.5), 304 µs; a collision costs the RTS alone.
    #[test]
    fn rts_cts_protection_at_1_mbps() {
        let p = ppdu(ht7(), 10);
        let b = bss(Protection::RtsCts);
        let expected = 352 + 10 + 304 + 10 + us(p.duration) + 10 + 38;
        assert_eq!(us(exchange_airtime(&b, &p)), expected);
        assert_eq!(us(collided_airtime(&b, &p)), 352);
        // rts_cts (the RTS threshold) with CTS-to-self protection: RTS/CTS, still at
        // the DSSS protection rate (ath9k: RTSENA wins over CTSENA).
        let mut b = bss(Protection::CtsToSelf);
        b.rts_cts = true;
        assert_eq!(us(exchange_airtime(&b, &p)), expected);
    }

    /// DSSS frames are never protected; without protection nothing changes.
    #[test]
    fn dsss_frames_and_unprotected_bsss_are_unchanged() {
        let cck = Rate::dsss(DsssDataRate::Mbps11, DsssPreamble::Short).unwrap();
        let p = ppdu(cck, 1);
        for protection in [Protection::CtsToSelf, Protection::RtsCts] {
            let b = bss(protection);
            assert_eq!(
                exchange_airtime(&b, &p),
                exchange_airtime(&bss(Protection::None), &p)
            );
            assert_eq!(collided_airtime(&b, &p), p.duration);
        }
    }

    /// RTS/CTS without protection — the RTS threshold (`rts_cts`) or rate control's
    /// fallback stage ([`Ppdu::rts`]) — before an HT frame goes at mac80211's
    /// `rts_cts_rate_idx` 0, the band's first rate. In 2.4 GHz: RTS (20 bytes) and CTS
    /// (14) at 1 Mbit/s, long preamble, 352 and 304 µs (16.3.4). In 5 GHz at 6 Mbit/s:
    /// 20 + 4 · ⌈(16 + 160 + 6) / 24⌉ = 52 µs and 20 + 4 · ⌈(16 + 112 + 6) / 24⌉ =
    /// 44 µs, SIFS 16 µs, the BlockAck at 24 Mbit/s 20 + 4 · ⌈(16 + 256 + 6) / 96⌉ =
    /// 32 µs (17.3.2.4). A collision costs the RTS alone.
    #[test]
    fn rts_before_an_ht_frame_goes_at_the_bands_first_rate() {
        let fallback = |mut p: Ppdu| {
            p.rts = true;
            p
        };
        let p = ppdu(ht7(), 10);
        let expected = 352 + 10 + 304 + 10 + us(p.duration) + 10 + 38;
        let mut threshold = bss(Protection::None);
        threshold.rts_cts = true;
        assert_eq!(us(exchange_airtime(&threshold, &p)), expected);
        let plain = bss(Protection::None);
        let p = fallback(p);
        assert_eq!(us(exchange_airtime(&plain, &p)), expected);
        assert_eq!(us(collided_airtime(&plain, &p)), 352);
        // Under CTS-to-self protection a fallback stage sends RTS/CTS instead.
        let cts = bss(Protection::CtsToSelf);
        assert_eq!(us(exchange_airtime(&cts, &p)), expected);

        let mpdus = (0..10).map(|i| Mpdu::new(packet(1500), i)).collect();
        let (ap, sta) = (NodeId::Ap, NodeId::Sta(StationId(0)));
        let tid = Tid::new(0).unwrap();
        let p5 = Ppdu::new(ap, sta, tid, ht7(), Band::Ghz5, true, mpdus);
        let b5 = BssConfig::ofdm(Band::Ghz5);
        let plain5 = us(exchange_airtime(&b5, &p5));
        assert_eq!(plain5, us(p5.duration) + 16 + 32);
        let p5 = fallback(p5);
        assert_eq!(us(exchange_airtime(&b5, &p5)), 52 + 16 + 44 + 16 + plain5);
        assert_eq!(us(collided_airtime(&b5, &p5)), 52);
    }

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
