//! Validation of the BSS model against published models and figures (one integration
//! test binary for the crate, STYLE.md rule 7).

mod anomaly;
mod bianchi;
mod determinism;
mod ping;
mod saturated;
mod udp_flood;
mod voip;
