//! The 802.11 MAC and PHY model: the BSS's and each station's link parameters, EDCA
//! contention on the shared medium, PPDUs and their MPDUs, each originator's BlockAck
//! window and retries ([`tid_tx`]) and each recipient's reordering buffer
//! ([`reorder`]), and the boundary a node's transmit path offers the medium.

pub mod basic_rates;
pub mod block_ack_req;
pub mod edca;
pub mod exchange;
pub mod frame;
pub mod link;
pub mod medium;
pub mod protection;
pub mod rate_control;
pub mod reorder;
pub mod retry_time;
pub mod tid_tx;
pub mod timing;
pub mod txpath;
