//! Counting the OFDM symbols of a Data field, and the short-GI rounding rule, shared by
//! the OFDM, HT, VHT and HE TXTIME models.
//!
//! The Data field carries the 16-bit SERVICE field, the PSDU, the tail bits that flush
//! each BCC encoder (6 per encoder; none with LDPC) and pad bits up to a whole number of
//! symbols, so
//!
//! N_SYM = ⌈(N_service + 8 · LENGTH + N_tail · N_ES) / N_DBPS⌉
//!
//! (IEEE 802.11-2020 17.3.5 for OFDM, 19.3.11 for HT BCC, 21.4.3 for VHT with
//! APEP_LENGTH; IEEE 802.11ax-2021 27.4.3 for HE). STBC (m_STBC = 2) is not modelled.
//!
//! With the short guard interval, HT and VHT round the data time up to the 4 µs symbol
//! grid of the legacy preamble: T_SYM · ⌈T_SYMS · N_SYM / T_SYM⌉ with T_SYM = 4 µs and
//! T_SYMS = 3.6 µs (19.4.3, 21.4.3).

/// N_service: bits of the SERVICE field that precede the PSDU.
pub const SERVICE_BITS: u64 = 16;

/// N_tail: tail bits per BCC encoder.
pub const TAIL_BITS_PER_ENCODER: u64 = 6;

/// T_SYM with the long (0.8 µs) guard interval, in ns, for OFDM, HT and VHT.
pub const SYMBOL_LONG_GI_NS: u64 = 4_000;

/// T_SYMS, the symbol with the short (0.4 µs) guard interval, in ns, for HT and VHT.
pub const SYMBOL_SHORT_GI_NS: u64 = 3_600;

/// N_SYM for a Data field of `psdu_bytes` with `tail_bits` tail bits in total
/// (N_tail · N_ES; 0 with LDPC) at `n_dbps` data bits per symbol.
pub const fn n_sym(psdu_bytes: u32, n_dbps: u32, tail_bits: u64) -> u64 {
    let bits = SERVICE_BITS + 8 * psdu_bytes as u64 + tail_bits;
    bits.div_ceil(n_dbps as u64)
}

/// The duration in ns of `n_sym` short-GI HT/VHT symbols, rounded up to whole 4 µs
/// symbols: T_SYM · ⌈T_SYMS · N_SYM / T_SYM⌉.
pub const fn short_gi_data_ns(n_sym: u64) -> u64 {
    SYMBOL_LONG_GI_NS * (SYMBOL_SHORT_GI_NS * n_sym).div_ceil(SYMBOL_LONG_GI_NS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_sym_counts_service_psdu_and_tail() {
        // 1500 B at 54 Mbit/s (N_DBPS 216): 16 + 12000 + 6 = 12022 bits, 55.66 → 56.
        assert_eq!(n_sym(1500, 216, 6), 56);
        // Exactly full: 16 + 8 + 0 = 24 bits fill one 24-bit symbol.
        assert_eq!(n_sym(1, 24, 0), 1);
        assert_eq!(n_sym(1, 24, 6), 2);
    }

    #[test]
    fn short_gi_rounds_up_to_the_long_symbol_grid() {
        // 10 short symbols are 36 µs, exactly 9 long symbols.
        assert_eq!(short_gi_data_ns(10), 36_000);
        // 47 short symbols are 169.2 µs, rounded up to 43 · 4 = 172 µs.
        assert_eq!(short_gi_data_ns(47), 172_000);
        assert_eq!(short_gi_data_ns(0), 0);
    }
}
