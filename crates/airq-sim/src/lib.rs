//! # airq-sim
//!
//! A deterministic, packet-level model of one IEEE 802.11 BSS — an AP, its stations, a
//! wired server behind the AP — in which the `airq` queueing runs exactly as a driver
//! would use it, beside the designs it replaces.

pub mod ap;
pub mod distribution;
pub mod dscp;
pub mod edca;
pub mod emodel;
pub mod event;
pub mod flow_hash;
pub mod frame;
pub mod link;
pub mod medium;
pub mod metrics;
pub mod packet;
pub mod rng;
pub mod sim;
pub mod station;
pub mod tcp;
pub mod testbed;
pub mod tid_tx;
pub mod traffic;
pub mod txpath;
pub mod voip_stats;
pub mod wired;
