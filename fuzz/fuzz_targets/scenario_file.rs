//! `cargo +nightly fuzz run scenario_file`: libFuzzer feeds [`airq_fuzz::scenario_file`] (fuzz/src/scenario_file.rs,
//! which says what it checks); the seed corpus is fuzz/corpus/scenario_file/.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| airq_fuzz::scenario_file(data));
