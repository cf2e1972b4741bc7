//! `cargo +nightly fuzz run results_file`: libFuzzer feeds [`airq_fuzz::results_file`] (fuzz/src/results_file.rs,
//! which says what it checks); the seed corpus is fuzz/corpus/results_file/.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| airq_fuzz::results_file(data));
