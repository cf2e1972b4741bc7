//! `cargo +nightly fuzz run library_ops`: libFuzzer feeds [`airq_fuzz::library_ops`] (fuzz/src/library_ops.rs,
//! which says what it checks); the seed corpus is fuzz/corpus/library_ops/.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| airq_fuzz::library_ops(data));
