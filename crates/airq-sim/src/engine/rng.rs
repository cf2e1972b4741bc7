//! Randomness: one root seed split into named streams. Each stream is ChaCha8 keyed by
//! the root seed, on its own ChaCha stream number derived from the stream's name and
//! index (FNV-1a), so adding a stream or drawing more from one never changes another,
//! and the PRNG is pinned (rand_chacha), so results do not move with a crate update.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The root of all randomness of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RngRoot {
    seed: u64,
}

/// One named stream.
#[derive(Clone, Debug)]
pub struct RngStream {
    rng: ChaCha8Rng,
}

impl RngRoot {
    pub fn new(seed: u64) -> RngRoot {
        RngRoot { seed }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The stream called `name` number `index` (e.g. `("backoff", node)`).
    pub fn stream(&self, name: &str, index: u64) -> RngStream {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&self.seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(fnv1a(name.as_bytes(), index));
        RngStream { rng }
    }
}

fn fnv1a(name: &[u8], index: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name.iter().chain(&index.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl RngStream {
    /// Uniform in `0..=max` (Lemire's multiply-shift; bias below 2^-32 · max).
    pub fn uniform_inclusive(&mut self, max: u32) -> u32 {
        ((u64::from(self.rng.next_u32()) * (u64::from(max) + 1)) >> 32) as u32
    }

    /// Uniform in [0, 1) with 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let root = RngRoot::new(7);
        let draw = |mut s: RngStream| (0..4).map(|_| s.next_u64()).collect::<Vec<_>>();
        assert_eq!(
            draw(root.stream("backoff", 1)),
            draw(root.stream("backoff", 1))
        );
        assert_ne!(
            draw(root.stream("backoff", 1)),
            draw(root.stream("backoff", 2))
        );
        assert_ne!(
            draw(root.stream("backoff", 1)),
            draw(root.stream("errors", 1))
        );
        assert_ne!(
            draw(root.stream("backoff", 1)),
            draw(RngRoot::new(8).stream("backoff", 1))
        );
    }

    #[test]
    fn uniform_covers_its_range_evenly() {
        let mut s = RngRoot::new(1).stream("t", 0);
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            counts[s.uniform_inclusive(3) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }
}
