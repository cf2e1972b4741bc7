//! The network layer: packets with their 5-tuple, flow hashes, DSCP and the TID they
//! map to, and the wired link between the AP and the server.

pub mod dscp;
pub mod flow_hash;
pub mod header_bytes;
pub mod packet;
pub mod real_packet;
pub mod wired;
