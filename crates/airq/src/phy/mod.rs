//! # PHY rates and airtime
//!
//! How long a frame occupies the air, from the PPDU duration (TXTIME) equations of
//! IEEE 802.11-2020 and IEEE 802.11ax-2021, and as Linux mac80211 estimates it. A queue
//! that schedules by airtime (airtime fairness, AQL) needs both: the exact model to
//! simulate the channel, the kernel's estimate to behave like the kernel.
//!
//! - [`Rate`]: a validated PHY rate of any modelled PHY, with data rate, N_DBPS, symbol
//!   duration and [`Rate::ppdu_duration`]. One file per PHY, each citing its clause:
//!   [`dsss`] (Clauses 15, 16), [`ofdm`] (17, 18), [`ht`] (19), [`vht`] (21), [`he`]
//!   (802.11ax-2021 Clause 27); shared pieces in [`band`], [`modulation`] and
//!   [`ofdm_symbols`]. Invalid input yields a [`PhyError`], never a panic.
//! - [`ampdu`]: A-MPDU framing (9.7) and the duration of the PPDU that carries one.
//! - [`mac_frame`]: frame sizes (QoS Data header, FCS, LLC/SNAP, Ack, BlockAck).
//! - [`mac80211_estimate`]: `ieee80211_calc_rx_airtime`, `ieee80211_calc_tx_airtime` and
//!   `ieee80211_calc_expected_tx_airtime`, table rounding included.
//! - [`exact_estimate`]: a per-packet estimate amortising the exact TXTIME over an
//!   A-MPDU.
//!
//! Clause numbers are those of IEEE 802.11-2020 (HE: IEEE 802.11ax-2021). Equation and
//! table numbers marked "2016 numbering" are from IEEE 802.11-2016, the edition the
//! author could cross-check, and may have moved in 2020.
//!
//! All timing is integer nanoseconds in [`crate::time::Duration`]; floats appear only in
//! [`Rate::data_rate_mbps`], for display.
//!
//! Not modelled: STBC, LDPC extra symbols (HT/VHT assume BCC, HE assumes LDPC without
//! the extra symbol segment), HT-greenfield, HT MCS 32–76, VHT/HE MU PPDUs, HE ER SU and
//! TB PPDUs, HE packet extension (T_PE = 0), DCM, 5/10 MHz OFDM, PBCC.

pub mod ampdu;
pub mod band;
pub mod dsss;
pub mod error;
pub mod exact_estimate;
pub mod he;
pub mod ht;
pub mod mac80211_estimate;
pub mod mac_frame;
pub mod modulation;
pub mod ofdm;
pub mod ofdm_symbols;
pub mod rate;
pub mod vht;

pub use ampdu::{
    ampdu_ppdu_duration, ampdu_ppdu_duration_uniform, ampdu_psdu_bytes, ampdu_psdu_bytes_uniform,
    ampdu_subframe_bytes, PsduLength, MPDU_DELIMITER_BYTES,
};
pub use band::{Band, ChannelWidth};
pub use dsss::{DsssDataRate, DsssPreamble, DsssRate};
pub use error::{PhyError, PhyKind};
pub use exact_estimate::exact_expected_airtime;
pub use he::{HeGi, HeLtf, HeRate};
pub use ht::{GuardInterval, HtRate};
pub use modulation::{CodeRate, Modulation};
pub use ofdm::{OfdmRate, SIGNAL_EXTENSION};
pub use rate::Rate;
pub use vht::VhtRate;
