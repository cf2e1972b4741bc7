//! Validation of the BSS model against published models and figures (one integration
//! test binary for the crate, STYLE.md rule 7).

mod anomaly;
mod bianchi;
mod block_ack;
mod channel;
mod determinism;
mod edca_floods;
mod http;
mod ping;
mod rate_control;
mod saturated;
mod stalls;
mod tcp_anomaly;
mod tcp_series;
mod udp_flood;
mod voip;
mod warmup;
