//! # airq-sim
//!
//! A deterministic, packet-level model of one IEEE 802.11 BSS — an AP, its stations, a
//! wired server behind the AP — in which the `airq` queueing runs exactly as a driver
//! would use it, beside the designs it replaces.
//!
//! One folder per layer, dependencies pointing down:
//!
//! - [`bss`]: the simulation of a BSS — the one event loop that drives every layer
//!   below and the clock;
//! - [`apps`] and [`transport`]: traffic sources and sinks, TCP;
//! - [`ap`] and [`station`]: each node's transmit path (the AP's queueing designs, a
//!   client's FIFOs);
//! - [`mac`]: the 802.11 MAC/PHY model (links, EDCA, the medium, PPDUs, BlockAck);
//! - [`phy`]: the radio channel (path loss, noise, SNR) and the error rate of each MPDU;
//! - [`net`]: packets, flow hashes, DSCP, the wired link;
//! - [`metrics`]: what a run measures;
//! - [`engine`]: the event queue and random streams.

pub mod ap;
pub mod apps;
pub mod bss;
pub mod engine;
pub mod mac;
pub mod metrics;
pub mod net;
pub mod phy;
pub mod station;
pub mod testbed;
pub mod transport;
