//! The radio channel below the MAC: how much of a transmitted PPDU arrives, from path
//! loss, transmit power and noise, and with what probability each of its MPDUs is
//! received in error.
//!
//! - [`channel`]: a station's channel to the AP and the SNR of each PPDU;
//! - [`path_loss`]: the TGax indoor path loss models (IEEE 802.11-14/0980r16);
//! - [`attenuation`]: an attenuation schedule (steps or ramps) evaluated per PPDU;
//! - [`noise`]: thermal noise kTB and the noise figure;
//! - [`per`]: an MPDU's error probability at a rate and an SNR, from
//!   [`ofdm_error`] (the NIST model) and [`dsss_error`] (802.11b);
//! - [`gaussian`]: erfc and the normal distribution they are written in.
//!
//! A station without a [`channel::StationChannel`] keeps the MAC's fixed error
//! probability ([`crate::mac::link::StationLink::mpdu_error`]).

pub mod attenuation;
pub mod channel;
pub mod dsss_error;
pub mod gaussian;
pub mod noise;
pub mod ofdm_error;
pub mod path_loss;
pub mod per;
