//! Tests of the TCP model, most of them against published theory, in a small
//! deterministic dumbbell test bed (`testbed.rs`).

mod bottleneck;
mod lifecycle;
mod loss;
mod sharing;
mod testbed;
mod theory;
